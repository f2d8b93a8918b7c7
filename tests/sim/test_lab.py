"""The simulation lab: workers, bots and rotation, honest input, no-winner games, Ctrl-C,
data files and plots."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from tests.conftest import default_ctrl_c
from typer.testing import CliRunner

from bigtop.cli import app
from bigtop.core.errors import BigtopError
from bigtop.core.limits import MAX_GAMES
from bigtop.core.registry import load_state, new_game
from bigtop.sim import runner as sim_runner
from bigtop.sim.runner import GameRecord, simulate, win_shares
from bigtop.sim.stats import chi2_sf
from bigtop.sim.summary import estimate

cli = CliRunner()


def test_records_do_not_depend_on_the_worker_count() -> None:
    one = simulate("scout", 3, 18, seed=5, bots=["easy", "random"], rotate=True)
    two = simulate("scout", 3, 18, seed=5, bots=["easy", "random"], rotate=True, workers=2)
    assert one.records == two.records and one.to_json() == two.to_json()
    args = ["simulate", "clown-15-go", "-p", "3", "-n", "12", "--seed", "4", "--json",
            "--bots", "easy,random"]
    a = cli.invoke(app, [*args, "--workers", "1"])
    b = cli.invoke(app, [*args, "--workers", "2"])
    c = cli.invoke(app, args)  # every core
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout == c.stdout
    assert [r["index"] for r in json.loads(a.stdout)["results"]] == list(range(12))


def test_rotation_puts_every_bot_in_every_seat_on_the_same_deal() -> None:
    run = simulate("scout", 3, 9, seed=1, bots=["easy", "random"], rotate=True)
    assert run.bots == ["easy", "random", "easy"]
    by_deal: dict[int, list[GameRecord]] = {}
    for r in run.records:
        by_deal.setdefault(r.deal, []).append(r)
    assert sorted(by_deal) == [0, 1, 2]
    for games in by_deal.values():
        assert len({r.seed for r in games}) == 1  # one deal, three seatings
        seatings = [r.bots for r in games]
        assert seatings == [["easy", "random", "easy"], ["easy", "easy", "random"],
                            ["random", "easy", "easy"]]
    per_seat = [Counter(r.bots[p] for r in run.records) for p in range(3)]
    assert all(c == Counter({"easy": 6, "random": 3}) for c in per_seat)
    s = run.summary()
    assert [b["seat_games"] for b in s["bots"]] == [18, 9]
    assert s["deals"] == 3 and "per-deal" in s["intervals"]
    with pytest.raises(BigtopError, match=r"multiple of the 3 players \(e.g. 9 or 12\)"):
        simulate("scout", 3, 10, bots=["easy"], rotate=True)


def test_without_rotation_the_seeds_are_the_old_ones() -> None:
    from bigtop.core.rng import derive_seed

    run = simulate("scout", 2, 3, seed=9)
    assert [r.seed for r in run.records] == [derive_seed(9, "game", i) for i in range(3)]
    assert [r.deal for r in run.records] == [0, 1, 2]
    assert run.summary()["intervals"].startswith("Wilson")


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", ",,"], "--bots ',,' has an empty name"),
    (["--bots", "easy,,random"], "has an empty name"),
    (["--bots", ""], "has an empty name"),
    (["--bots", "easy,random,easy,random"], "4 bots for 3 seats"),
    (["--bots", "genius"], "unknown bot 'genius'"),
    (["--bots", "easy", "--agents", "easy"], "give --bots only"),
    (["--rotate", "-n", "10"], "multiple of the 3 players"),
    (["--workers", "0"], "--workers must be 1 or more"),
    (["-n", "0"], "positive whole number"),
])
def test_bad_input_is_one_clear_line(args: list[str], message: str, tmp_path: Path) -> None:
    res = cli.invoke(app, ["simulate", "scout", "-p", "3", "--out", str(tmp_path / "o"),
                           *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output
    assert not (tmp_path / "o").exists()  # nothing written


@pytest.mark.parametrize("args", [
    ["simulate", "scout", "-n", str(10**12)],
    ["simulate", "scout", "-n", str(MAX_GAMES + 1), "--rotate", "-p", "2"],
    ["compare", "scout", "-n", str(10**12), "-o", "rounds=1", "--vs", "-o", "rounds=2"],
    ["tournament", "scout", "--bots", "random,easy", "-p", "2", "-n", str(10**12)],
])
def test_an_absurd_game_count_is_refused_before_anything_starts(
        args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--games 10**12` used to start (and build a job per game first); above the run's
    limit it is refused: one line, exit code 2, nothing played or written."""
    def no_play(*a: object, **k: object) -> None:
        raise AssertionError("games were started")

    from bigtop.sim import compare, tournament

    for module in (sim_runner, compare, tournament):
        monkeypatch.setattr(module, "run_jobs", no_play)
    res = cli.invoke(app, [*args, "--out", str(tmp_path / "o")])
    assert res.exit_code == 2, res.output
    assert res.output.startswith("error: --games must be at most 1,000,000"), res.output
    assert res.output.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_a_tournament_of_too_many_games_in_all_is_refused(tmp_path: Path) -> None:
    """Each table's count may be within the limit and the whole round robin not."""
    res = cli.invoke(app, ["tournament", "scout", "-p", "2", "--bots", "random,easy,medium",
                           "-n", str(MAX_GAMES // 2), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2, res.output
    assert "3 tables × 500,000 games is 1,500,000 games; a run plays at most 1,000,000" in (
        " ".join(res.output.split()))
    assert not (tmp_path / "o").exists()
    with pytest.raises(BigtopError, match="at most 1,000,000"):
        simulate("scout", 3, MAX_GAMES + 1)
    from bigtop.sim.tournament import tournament

    with pytest.raises(BigtopError, match="at most 1,000,000"):
        tournament("scout", 2, ["random", "easy", "medium"], MAX_GAMES // 2)


def test_fewer_bots_than_seats_are_cycled_and_shown() -> None:
    res = cli.invoke(app, ["simulate", "scout", "-p", "4", "-n", "4", "--bots", "easy,random"],
                     env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "line-up P0…P3: easy, random, easy, random (cycled from easy,random)" in res.output
    old = cli.invoke(app, ["simulate", "scout", "-p", "4", "-n", "4", "--agents",
                           "easy,random", "--json"])
    new = cli.invoke(app, ["simulate", "scout", "-p", "4", "-n", "4", "--bots", "easy,random",
                           "--json"])
    assert old.stdout == new.stdout  # --agents is the old name of --bots
    assert json.loads(new.stdout)["bots"] == ["easy", "random", "easy", "random"]


def test_games_with_no_winner_are_counted_apart() -> None:
    # Clown 15 Go with last_card=stays stalls (ruling G3) with everybody keeping one card.
    run = simulate("clown-15-go", 3, 8, seed=1, bots=["random"],
                   options={"last_card": "stays"})
    assert all(r.no_winner for r in run.records)
    s = run.summary()
    assert s["no_winner"]["games"] == 8 and s["no_winner"]["rate"] == 1.0
    assert all(x["win_rate"] == 0.0 for x in s["seats"]) and s["shared_wins"] == 0
    assert win_shares([0, 1, 2], 3) == [0.0, 0.0, 0.0]
    assert win_shares([0, 2], 3) == [0.5, 0.0, 0.5] and win_shares([0], 1) == [1.0]
    res = cli.invoke(app, ["simulate", "clown-15-go", "-p", "3", "-n", "8", "--seed", "1",
                           "-o", "last_card=stays"])
    assert "no winner (every seat tied for first, counted as nobody's win): 8 (100.0%)" in \
        " ".join(res.output.split())


def test_estimates_are_clustered_by_deal() -> None:
    single = estimate([[1.0], [0.0], [1.0], [0.0]], proportion=True)
    assert 0.15 < single.low < 0.2 and single.n == 4  # Wilson
    clustered = estimate([[1.0, 0.0], [1.0, 0.0]], proportion=True)
    assert clustered.mean == 0.5 and clustered.low < 0.5 < clustered.high  # never a point
    assert estimate([[2.0, 4.0], [6.0]]).mean == 4.5  # a mean of deal means


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_first_finished_games(workers: int) -> None:
    full = simulate("scout", 2, 16, seed=3, bots=["easy", "random"], rotate=True)
    seen: list[int] = []

    def progress(done: int) -> None:
        seen.append(done)
        if done >= 7:
            raise KeyboardInterrupt

    cut = simulate("scout", 2, 16, seed=3, bots=["easy", "random"], rotate=True,
                   workers=workers, progress=progress)
    assert cut.interrupted and cut.summary()["interrupted"]
    assert len(cut.records) == 6  # 7 finished, cut to whole deals
    assert cut.records == full.records[:6]  # exactly what a shorter run gives
    assert seen == list(range(1, 8))


def test_ctrl_c_before_any_game_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a big run is still being planned: no "Aborted!", the shell's code 130."""
    def planning(*args: object, **kwargs: object) -> list[sim_runner.Job]:
        raise KeyboardInterrupt

    monkeypatch.setattr(sim_runner, "make_jobs", planning)
    res = cli.invoke(app, ["simulate", "scout", "-p", "2", "-n", "20", "--workers", "1"])
    assert res.exit_code == 130, res.output
    assert res.output.strip() == "interrupted (Ctrl-C)"


def test_ctrl_c_in_the_cli_reports_what_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    real = sim_runner.play_job

    def play(job: sim_runner.Job) -> sim_runner.Finished:
        if job.index == 5:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(sim_runner, "play_job", play)
    res = cli.invoke(app, ["simulate", "scout", "-p", "2", "-n", "20", "--workers", "1"])
    assert res.exit_code == 130, res.output
    assert "interrupted: 5 of 20 games finished" in " ".join(res.output.split())
    res = cli.invoke(app, ["simulate", "scout", "-p", "2", "-n", "20", "--workers", "1",
                           "--json"])
    doc = json.loads(res.stdout)
    assert res.exit_code == 130 and doc["summary"]["interrupted"] is True
    assert doc["summary"]["games"] == 5 and doc["summary"]["requested_games"] == 20


def test_tables_fit_80_columns() -> None:
    res = cli.invoke(app, ["simulate", "clown-15-go", "-p", "6", "-n", "12", "--bots",
                           "easy,random", "--rotate"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert max(len(line) for line in res.stdout.splitlines()) <= 80
    assert "per bot" in res.stdout and "P5" in res.stdout


def test_out_writes_rows_summary_replayable_games_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = cli.invoke(app, ["simulate", "clown-15-go", "-p", "3", "-n", "6", "--seed", "2",
                           "--bots", "easy,random", "--rotate", "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert json.loads((out / "summary.json").read_text()) == doc
    with (out / "games.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 6 and rows[1]["bot_P0"] == "easy" and rows[1]["bot_P1"] == "easy"
    assert {"score_P2", "place_P0", "win_share_P1", "end_reason", "cards_left_P0",
            "no_winner", "actions"} <= set(rows[0])
    import pyarrow.parquet as pq

    table = pq.read_table(out / "games.parquet")
    assert table.num_rows == 6 and table.column("actions").to_pylist() == [
        r["actions"] for r in doc["results"]]
    files = sorted((out / "games").iterdir())
    assert [f.name for f in files] == [f"{i:05d}.json" for i in range(6)]
    state = load_state(json.loads(files[4].read_text()))
    assert state.is_terminal() and state.scores() == doc["results"][4]["scores"]
    replay = cli.invoke(app, ["replay", str(files[4])])
    assert replay.exit_code == 0 and "final scores" in replay.stdout
    for name in ("scores.png", "win_rates.png", "lengths.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    bad = cli.invoke(app, ["simulate", "scout", "--out", str(out / "games.csv")])
    assert bad.exit_code == 2 and "is not a folder" in bad.output


def test_only_per_seat_result_fields_are_spread_over_seat_columns(tmp_path: Path) -> None:
    """A result list is spread as ``_P0``, ``_P1``… only where it holds one value per seat
    (Clown 15 Go's ``cards_left``), not whenever it happens to be as long as the seats are
    many: SCOUT plays as many rounds as players by default, and its ``round_endings`` (one
    per round) came out as ``round_endings_P0``…, the first round's ending under P0's name."""
    for game, spread, kept in (("scout", [], "round_endings"),
                               ("clown-15-go", ["cards_left"], "out_order")):
        out = tmp_path / game
        res = cli.invoke(app, ["simulate", game, "-p", "3", "-n", "2", "--seed", "1",
                               "--workers", "1", "--out", str(out), "--json"])
        assert res.exit_code == 0, res.output
        results = json.loads(res.stdout)["results"]
        with (out / "games.csv").open() as f:
            rows = list(csv.DictReader(f))
        seat_columns = {m[1] for k in rows[0] if (m := re.fullmatch(r"(.+)_P[012]", k))}
        assert seat_columns == {"bot", "score", "place", "win_share", "decisions", *spread}
        for row, result in zip(rows, results, strict=True):
            assert json.loads(row[kept]) == result["extra"][kept]
            for key in spread:
                assert [int(row[f"{key}_P{p}"]) for p in range(3)] == result["extra"][key]


def test_progress_bar_counts_games_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    from bigtop.cli import _lab

    screen = Console(force_terminal=True, width=100, record=True)
    monkeypatch.setattr(_lab, "err", screen)
    with _lab.progress_bar(10, "scout ×10") as progress:
        assert progress is not None
        simulate("scout", 2, 10, seed=1, progress=progress)
    text = screen.export_text()
    assert "games/s" in text and "10/10" in text
    monkeypatch.setattr(_lab, "err", Console(file=io.StringIO()))
    with _lab.progress_bar(10, "x") as none:
        assert none is None  # no terminal, no bar


def test_seat_test_is_exact_for_a_few_games() -> None:
    """P0 winning all 3 games of a 3-player run is 1 chance in 9 with equal seats (3 of the
    27 equally likely ways fall on one seat); Pearson's chi-square, whose approximation
    needs several wins a seat, gave p = 0.0498 and called it a seat advantage. Where the
    wins are whole and the ways they can fall few, the p-value is the exact multinomial
    one; shared wins, or many games, keep the chi-square."""
    from bigtop.sim.summary import Run

    game = new_game("scout", 3)

    def run(winners: list[list[int]]) -> Run:
        records = [GameRecord(i, i, [0.0] * 3, [1 if p in w else 2 for p in range(3)], w,
                              10, [1, 1, 1], {}, ["easy"] * 3, i)
                   for i, w in enumerate(winners)]
        return Run(game, 0, ["easy"] * 3, records)

    test = run([[0], [0], [0]]).summary()["seat_test"]
    assert test["chi2"] == 6.0 and test["df"] == 2
    assert abs(test["p_value"] - 1 / 9) < 1e-12 and test["exact"]
    two = run([[0], [1]]).summary()["seat_test"]  # any split of 2 wins is as likely
    assert abs(two["p_value"] - 1.0) < 1e-12
    shared = run([[0], [0], [0, 1]]).summary()["seat_test"]
    assert not shared["exact"] and shared["p_value"] == chi2_sf(shared["chi2"], 2)


def test_seat_test_only_where_it_means_seat_advantage() -> None:
    from bigtop.sim.stats import chi2_sf, equal_shares_test

    assert abs(chi2_sf(3.841458820694124, 1) - 0.05) < 1e-12
    assert abs(chi2_sf(9.487729036781154, 4) - 0.05) < 1e-12
    stat, df, p = equal_shares_test([30, 10])
    assert (stat, df) == (10.0, 1) and abs(p - 0.001565402258) < 1e-9
    test = simulate("scout", 3, 30, seed=1, bots=["easy"]).summary()["seat_test"]
    assert test["df"] == 2 and 0 <= test["p_value"] <= 1
    assert simulate("scout", 3, 3, bots=["easy", "random"]).summary()["seat_test"] is None
    assert simulate("scout", 3, 3, bots=["easy"], rotate=True).summary()["seat_test"] is None
    res = cli.invoke(app, ["simulate", "scout", "-p", "3", "-n", "30", "--seed", "1",
                           "--bots", "easy"])
    assert "equal seats? chi-square" in res.stdout


def test_chi2_tail_holds_with_many_degrees_of_freedom() -> None:
    """``chi2_sf`` against SciPy's (in the lock, for the tests only) from 1 to 5,000 degrees
    of freedom: with hundreds, ``exp(-x/2)`` underflowed while the series' terms
    overflowed (2,001 degrees of freedom at x = 2,100 gave 1.0, not 0.061)."""
    from scipy.stats import chi2  # type: ignore[import-untyped]

    from bigtop.sim.stats import chi2_sf

    rng = random.Random(4)
    for df in (1, 2, 3, 7, 58, 299, 300, 301, 1000, 2001, 5000):
        for _ in range(30):
            x = rng.uniform(0.0, 3.0 * df + 20.0)
            assert abs(chi2_sf(x, df) - float(chi2.sf(x, df))) < 1e-10, (x, df)


def test_a_real_ctrl_c_stops_every_worker_and_reports(tmp_path: Path) -> None:
    """SIGINT to the whole process group, as a terminal's Ctrl-C: the workers ignore it, the
    parent stops them and prints the games that finished."""
    import os
    import signal
    import subprocess
    import sys
    import time

    bigtop = Path(sys.executable).with_name("bigtop")
    # Four-player games, many of them: the run must still be going a second after its
    # workers start, however fast the engine (a run that has finished and is writing its
    # output is not what this tests; the compiled engine plays some 1,000 of these games a
    # second a worker).
    proc = subprocess.Popen([str(bigtop), "simulate", "scout", "-p", "4", "-n", "100000",
                             "--workers", "2", "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=default_ctrl_c)
    try:
        # Planning 100,000 games takes seconds on a busy machine: wait for the two workers,
        # then for some games to finish. The workers may be the forkserver's children (with
        # its command line), not the parent's: take the descendants but the parent's own
        # helpers, the forkserver and the resource tracker (Linux lists children in /proc).
        def workers() -> list[int]:
            found, todo = [], [proc.pid]
            while todo:
                pid = todo.pop()
                try:
                    kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
                    for kid in kids:
                        command = Path(f"/proc/{kid}/cmdline").read_bytes()
                        if not (pid == proc.pid and (b"resource_tracker" in command
                                                     or b"forkserver" in command)):
                            found.append(int(kid))
                except OSError:  # gone already
                    continue
                todo.extend(int(k) for k in kids)
            return found

        def cpu_seconds(pids: list[int]) -> float:
            """CPU time the workers have spent (user + system, /proc/PID/stat)."""
            ticks = 0
            for pid in pids:
                try:
                    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                    ticks += int(fields[11]) + int(fields[12])
                except (OSError, IndexError, ValueError):
                    continue
            return ticks / os.sysconf("SC_CLK_TCK")

        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and len(workers()) < 2:
            time.sleep(0.1)
        # Games have finished once the workers have played a while: half a CPU second is
        # hundreds of games. A fixed second of wall time was not always enough with the
        # machine's cores busy (the run then stopped before its first game, as it should).
        while time.monotonic() < deadline and cpu_seconds(workers()) < 0.5:
            time.sleep(0.1)
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)
        out, errors = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, errors
    doc = json.loads(out)
    assert doc["summary"]["interrupted"] and 0 < doc["summary"]["games"] < 100000
    assert [r["index"] for r in doc["results"]] == list(range(doc["summary"]["games"]))
    assert "Traceback" not in errors


def test_one_deal_gives_no_interval_for_a_mean() -> None:
    s = simulate("scout", 2, 2, seed=1, bots=["easy", "random"], rotate=True).summary()
    assert s["deals"] == 1 and s["actions_mean_ci95"] is None
    assert all(x["score_mean_ci95"] is None for x in s["seats"] + s["bots"])
    assert all(x["win_rate_ci95"] is not None for x in s["seats"])  # Wilson over deals
    res = cli.invoke(app, ["simulate", "scout", "-p", "2", "-n", "2", "--seed", "1", "--bots",
                           "easy,random", "--rotate"])
    assert res.exit_code == 0 and "(95% CI –)" in res.stdout
    js = cli.invoke(app, ["simulate", "scout", "-p", "2", "-n", "2", "--rotate", "--json"])
    assert "NaN" not in js.stdout and json.loads(js.stdout)["summary"]["actions_mean_ci95"] is None
