"""`bigtop compare` (paired variants, Holm) and `bigtop tournament` (openskill round robin)."""

from __future__ import annotations

import csv
import json
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bigtop.cli import app
from bigtop.cli.lab import split_vs
from bigtop.core.errors import BigtopError
from bigtop.sim.compare import compare, holm, p_value
from bigtop.sim.runner import simulate
from bigtop.sim.stats import t_quantile
from bigtop.sim.tournament import tables, tournament

cli = CliRunner()


def test_both_variants_play_the_same_seeds_as_simulate() -> None:
    c = compare("scout", 3, 6, seed=4, a={"hand_turn": "off"}, b={}, bots=["easy", "random"])
    alone_a = simulate("scout", 3, 6, seed=4, options={"hand_turn": "off"},
                       bots=["easy", "random"])
    alone_b = simulate("scout", 3, 6, seed=4, bots=["easy", "random"])
    assert c.a.records == alone_a.records and c.b.records == alone_b.records
    assert [r.seed for r in c.a.records] == [r.seed for r in c.b.records]
    rows = {r["statistic"]: r for r in c.differences()}
    p0 = rows["score P0"]
    diffs = [b.scores[0] - a.scores[0] for a, b in zip(c.a.records, c.b.records, strict=True)]
    assert math.isclose(p0["difference"], sum(diffs) / 6)
    assert p0["ci95"][0] < p0["difference"] < p0["ci95"][1]
    assert {"win rate P2", "win rate easy", "win rate random", "no winner", "actions"} <= set(rows)


def test_a_clear_difference_is_significant_and_no_difference_is_not() -> None:
    # Clown 15 Go: with last_card=stays the game always stalls with nobody ahead; the
    # default (the last card may be played) lets a player go out.
    c = compare("clown-15-go", 2, 30, seed=1, a={"last_card": "stays"}, b={}, bots=["easy"])
    rows = {r["statistic"]: r for r in c.differences()}
    assert rows["end_reason=stall"]["significant"] and rows["end_reason=stall"]["a"] == 1.0
    assert rows["end_reason=stall"]["difference"] < 0
    assert rows["no winner"]["significant"] and rows["no winner"]["a"] == 1.0
    # rounds=3 is what rounds=0 means for three players: the same games, nothing differs.
    same = compare("scout", 3, 6, seed=1, a={"rounds": 0}, b={"rounds": 3}, bots=["easy"])
    assert same.a.records == same.b.records
    assert all(r["difference"] == 0 and r["p_value"] == 1 and not r["significant"]
               for r in same.differences())
    with pytest.raises(BigtopError, match="same rules"):
        compare("scout", 3, 2, a={"rounds": 0}, b={})


def test_holm_and_p_values() -> None:
    assert holm([0.01, 0.04, 0.03, 0.5]) == [True, False, False, False]
    assert holm([0.001, 0.02, 0.015]) == [True, True, True]
    assert holm([]) == []
    assert math.isclose(p_value(1.959963984540054, 1.0, 1), 1.0)  # one deal: no test
    assert math.isclose(p_value(t_quantile(0.975, 99) / 10, 1.0, 100), 0.05, rel_tol=1e-6)
    # Every deal moving by the same amount: the sign test, not p = 0 from a zero spread.
    assert p_value(0.0, 0.0, 10) == 1.0 and p_value(0.5, 0.0, 10) == 2 ** -9


def test_the_paired_test_keeps_its_error_rate_with_few_deals() -> None:
    """Where the variants do not differ, a difference is called at p < 0.05 in 5% of the
    comparisons, also over three deals (the z-test did in about 19%)."""
    rng = random.Random(5)
    runs, wrong = 4000, 0
    for _ in range(runs):
        diffs = [rng.gauss(0.0, 1.0) for _ in range(3)]
        m = sum(diffs) / 3
        sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / 2)
        wrong += p_value(m, sd, 3) < 0.05
    assert 0.035 <= wrong / runs <= 0.065, wrong / runs


def test_split_vs_keeps_the_two_option_groups_apart() -> None:
    assert split_vs(["g", "-o", "a=1", "--vs", "-o", "a=2"]) == (["g", "-o", "a=1", "--vs"],
                                                                  ["a=2"])
    assert split_vs(["g", "--vs", "-oa=2", "--json"]) == (["g", "--vs", "--json"], ["a=2"])
    assert split_vs(["g", "-o", "a=1"]) == (["g", "-o", "a=1"], [])


def test_cli_compare_with_the_issue_syntax(tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    args = ["compare", "scout", "--players", "3", "-n", "8", "--seed", "2", "-o",
            "hand_turn=off", "--vs", "-o", "hand_turn=any-turn-once", "--bots", "easy,random"]
    res = cli.invoke(app, [*args, "--out", str(out)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "A: hand_turn=off" in res.stdout and "B: hand_turn=any-turn-once" in res.stdout
    assert "Holm" in res.stdout and "score P2" in res.stdout
    assert max(len(line) for line in res.stdout.splitlines()) <= 80
    doc = json.loads((out / "summary.json").read_text())
    assert doc["variants"]["A"]["options"]["hand_turn"] == "off"
    assert doc["variants"]["B"]["options"]["hand_turn"] == "any-turn-once"
    with (out / "games.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["variant"] for r in rows] == ["A"] * 8 + ["B"] * 8
    assert rows[3]["seed"] == rows[11]["seed"]
    assert (out / "games" / "A-00003.json").exists() and (out / "games" / "B-00007.json").exists()
    for name in ("differences.png", "A-win_rates.png", "B-scores.png"):
        assert (out / name).read_bytes()[:4] == b"\x89PNG"
    js = cli.invoke(app, [*args, "--json"])
    assert json.loads(js.stdout)["differences"] == doc["differences"]
    for bad, message in [
        (["compare", "scout", "-o", "rounds=1"], "after --vs"),
        (["compare", "scout", "-o", "rounds=1", "--vs", "-o", "rounds=1"], "same rules"),
        (["compare", "scout", "--vs", "-o", "rounds=x"], "whole number"),
        (["compare", "scout", "--vs", "-o", "rounds=2", "--bots", ",,"], "empty name"),
    ]:
        res = cli.invoke(app, bad)
        assert res.exit_code == 2 and message in res.output, (bad, res.output)


def test_round_robin_tables() -> None:
    assert tables(["a", "b", "c", "d"], 3) == [("a", "b", "c"), ("a", "b", "d"),
                                               ("a", "c", "d"), ("b", "c", "d")]
    assert tables(["a", "b"], 4) == [("a", "a", "a", "b"), ("a", "a", "b", "b"),
                                     ("a", "b", "b", "b")]


def test_tournament_rates_the_stronger_bot_higher() -> None:
    t = tournament("scout", 3, ["random", "easy"], games_per_table=12, seed=3, workers=2)
    board = t.leaderboard()
    assert [row["bot"] for row in board] == ["easy", "random"]
    assert board[0]["mu"] > 25 > board[1]["mu"] and all(row["sigma"] < 25 / 3 for row in board)
    assert len(t.records) == 24 and {tuple(r.bots) for r in t.records} == {
        ("random", "random", "easy"), ("easy", "random", "random"), ("random", "easy", "random"),
        ("random", "easy", "easy"), ("easy", "random", "easy"), ("easy", "easy", "random")}
    again = tournament("scout", 3, ["random", "easy"], games_per_table=12, seed=3)
    assert again.to_json() == t.to_json()  # one process or two: the same ratings
    with pytest.raises(BigtopError, match="two different bots"):
        tournament("scout", 3, ["easy"], 3)
    with pytest.raises(BigtopError, match="named twice"):
        tournament("scout", 3, ["easy", "random", "easy"], 3)


def test_cli_tournament(tmp_path: Path) -> None:
    out = tmp_path / "t"
    res = cli.invoke(app, ["tournament", "scout", "-p", "2", "--bots", "random,easy,heuristic",
                           "-n", "4", "--out", str(out)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "leaderboard" in res.stdout and "μ − 3σ" in res.stdout
    assert max(len(line) for line in res.stdout.splitlines()) <= 80
    doc = json.loads((out / "summary.json").read_text())
    assert doc["tables"] == [["random", "easy"], ["random", "heuristic"], ["easy", "heuristic"]]
    # easy (SCOUT's hand planner) wins every game here; random and heuristic are close in
    # four two-player games each
    assert doc["leaderboard"][0]["bot"] == "easy" and len(doc["results"]) == 12
    assert (out / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    assert len(list((out / "games").iterdir())) == 12
    for bad, message in [
        (["tournament", "scout", "--bots", "easy"], "two different bots"),
        (["tournament", "scout", "-p", "3", "--bots", "easy,random", "-n", "4"], "multiple"),
        (["tournament", "scout", "--bots", "easy,genius"], "unknown bot"),
    ]:
        res = cli.invoke(app, bad)
        assert res.exit_code == 2 and message in res.output, (bad, res.output)


def test_compare_rotated_and_interrupted_keeps_whole_deals_of_both_variants() -> None:
    full = compare("scout", 2, 8, seed=6, a={"hand_turn": "off"}, b={},
                   bots=["easy", "random"], rotate=True)
    assert [r.bots for r in full.a.records[:2]] == [["easy", "random"], ["random", "easy"]]
    assert [r.seed for r in full.a.records] == [r.seed for r in full.b.records]
    assert full.differences()[0]["deals"] == 4

    def stop(done: int) -> None:
        if done >= 5:
            raise KeyboardInterrupt

    cut = compare("scout", 2, 8, seed=6, a={"hand_turn": "off"}, b={},
                  bots=["easy", "random"], rotate=True, progress=stop)
    assert cut.a.interrupted and cut.to_json()["interrupted"]
    k = len(cut.a.records)
    assert k == len(cut.b.records) and k % 2 == 0 and 0 < k < 8
    assert cut.a.records == full.a.records[:k] and cut.b.records == full.b.records[:k]


def test_cli_compare_out_with_variants_whose_result_lists_differ(tmp_path: Path) -> None:
    """SCOUT's ``round_endings`` has one entry per round: two rounds under the defaults at two
    players, one with ``rounds=1``. Both variants go into one games.csv, whose columns must
    not depend on which variant a row comes from (this run used to end, after every game
    was played, in an internal error from the CSV writer and left no files)."""
    out = tmp_path / "cmp"
    res = cli.invoke(app, ["compare", "scout", "-p", "2", "-n", "2", "--seed", "1", "-o",
                           "rounds=1", "--vs", "--workers", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    with (out / "games.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["variant"] for r in rows] == ["A", "A", "B", "B"]
    doc = json.loads((out / "summary.json").read_text())
    results = doc["results"]["A"] + doc["results"]["B"]
    assert [json.loads(r["round_endings"]) for r in rows] == [
        r["extra"]["round_endings"] for r in results]
    assert [len(json.loads(r["round_endings"])) for r in rows] == [1, 1, 2, 2]
    import pyarrow.parquet as pq

    table = pq.read_table(out / "games.parquet")
    assert table.column_names == list(rows[0])
    assert table.column("round_endings").to_pylist() == [r["round_endings"] for r in rows]


def test_files_take_every_column_of_every_row(tmp_path: Path) -> None:
    """Rows with different fields (two variants, or games with different result fields)
    share one header: a field a row lacks is empty there, in the CSV and in Parquet."""
    from bigtop.sim.output import write_rows

    write_rows([{"game": 0, "variant": "A", "turns": 7},
                {"game": 0, "variant": "B", "turns": 9, "end_reason": "stall"}], tmp_path)
    with (tmp_path / "games.csv").open() as f:
        assert list(csv.DictReader(f)) == [
            {"game": "0", "variant": "A", "turns": "7", "end_reason": ""},
            {"game": "0", "variant": "B", "turns": "9", "end_reason": "stall"}]
    import pyarrow.parquet as pq

    assert pq.read_table(tmp_path / "games.parquet").to_pylist() == [
        {"game": 0, "variant": "A", "turns": 7, "end_reason": None},
        {"game": 0, "variant": "B", "turns": 9, "end_reason": "stall"}]
