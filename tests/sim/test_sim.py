"""Simulation runner, statistics and the CLI."""

from __future__ import annotations

import json
import math
import random

import pytest
from typer.testing import CliRunner

from bigtop.cli import app
from bigtop.core.errors import BigtopError
from bigtop.sim.runner import simulate
from bigtop.sim.stats import mean_interval, wilson_interval

runner = CliRunner()


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0.2775 < hi < 0.2776
    lo, hi = wilson_interval(81, 263)  # textbook example: 0.2553..0.3662
    assert abs(lo - 0.2553) < 1e-3 and abs(hi - 0.3662) < 1e-3


def test_mean_interval() -> None:
    m = mean_interval([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    assert m.mean == 5.0 and abs(m.sd - 2.138) < 1e-3 and m.low < 5.0 < m.high


def test_simulate_is_reproducible_and_summarised() -> None:
    a = simulate("scout", 3, 6, seed=2)
    b = simulate("scout", 3, 6, seed=2)
    assert a.to_json() == b.to_json()
    summary = a.summary()
    total = sum(s["win_rate"] for s in summary["seats"]) + summary["no_winner"]["rate"]
    assert abs(total - 1.0) < 1e-9
    assert all(r.actions == sum(r.decisions) for r in a.records)
    with pytest.raises(BigtopError, match="unknown bot"):
        simulate("scout", 3, 2, agents=["genius"])
    with pytest.raises(BigtopError, match="positive"):
        simulate("scout", 3, 0)


def test_summary_counts_how_games_ended() -> None:
    """Categorical result fields (Clown 15 Go's end_reason: how often G3 ended a game) are
    counted in the summary and printed by `bigtop simulate`."""
    run = simulate("clown-15-go", 2, 30, seed=1, options={"open_pile_first": True})
    reasons = [r.extra["end_reason"] for r in run.records]
    counts = run.summary()["outcomes"]["end_reason"]
    assert counts == {v: reasons.count(v) for v in set(reasons)}
    assert sum(counts.values()) == 30 and list(counts.values()) == sorted(counts.values())[::-1]
    assert "round_scores" not in simulate("scout", 2, 2).summary()["outcomes"]  # not a label
    res = runner.invoke(app, ["simulate", "clown-15-go", "-p", "2", "-n", "5", "--seed", "1"])
    assert res.exit_code == 0 and "end_reason: went-out 5 (100.0%)" in res.output


def test_heuristic_bot_beats_random_at_scout() -> None:
    run = simulate("scout", 3, 120, seed=4, agents=["heuristic", "random", "random"])
    rate = run.summary()["seats"][0]["win_rate_ci95"][0]
    assert rate > 1 / 3, run.summary()["seats"][0]


def test_cli_games_lists_every_game() -> None:
    res = runner.invoke(app, ["games", "--json"])
    assert res.exit_code == 0
    names = [g["name"] for g in json.loads(res.stdout)]
    assert "scout" in names


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_cli_simulate_json_is_one_document_and_identical_twice(players: int) -> None:
    args = ["simulate", "scout", "--players", str(players), "--games", "20", "--seed", "1",
            "--json"]
    first = runner.invoke(app, args)
    second = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    doc = json.loads(first.stdout)
    assert doc["players"] == players and len(doc["results"]) == 20
    assert first.stdout == second.stdout


def test_cli_bad_input_is_a_clear_error() -> None:
    for args, message in [
        (["simulate", "chess"], "unknown game"),
        (["simulate", "scout", "--players", "9"], "2 to 5 players"),
        (["simulate", "scout", "--option", "rounds=x"], "whole number"),
        (["simulate", "scout", "--option", "rounds"], "KEY=VALUE"),
        (["simulate", "scout", "--agents", "genius"], "unknown bot"),
        (["play", "scout", "--seat", "7"], "seat"),
    ]:
        res = runner.invoke(app, args)
        assert res.exit_code == 2, args
        assert message in res.output, (args, res.output)


def test_cli_play_survives_bad_entries_and_finishes() -> None:
    # Always choose action 0; the first entries are nonsense and must be explained.
    entries = "hello\n999\n{bad json\n" + "0\n" * 3000
    res = runner.invoke(app, ["play", "scout", "--players", "2", "--seed", "3",
                              "--option", "rounds=1"], input=entries)
    assert res.exit_code == 0, res.output
    assert "try again" in res.output
    assert "game over" in res.output


def test_cli_state_and_render(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    res = runner.invoke(app, ["state", "scout", "--players", "3", "--seed", "4",
                              "--actions", "5"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["game"] == "scout" and len(data["history"]) == 5
    path = tmp_path / "s.json"
    path.write_text(res.stdout)
    shown = runner.invoke(app, ["render", str(path), "--player", "1"])
    assert shown.exit_code == 0 and "Your hand" in shown.stdout
    drawn = runner.invoke(app, ["render", str(path), "--out", str(tmp_path / "x.svg")])
    assert drawn.exit_code == 0 and (tmp_path / "x.svg").read_text().startswith("<svg")
    for args, message in [
        (["render", str(tmp_path / "missing.json")], "cannot read"),
        (["render", str(path), "--player", "5"], "no player 5"),
        (["render", str(path), "--out", str(tmp_path / "x.gif")], ".svg or .png"),
        (["state", "scout", "--actions", "-1"], "0 or more"),
    ]:
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and message in res.output, (args, res.output)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = runner.invoke(app, ["render", str(bad)])
    assert res.exit_code == 2 and "is not JSON" in res.output


def test_cli_render_pictures(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    res = runner.invoke(app, ["state", "tricky-landing", "-p", "4", "--seed", "3",
                              "--actions", "6"])
    path = tmp_path / "t.json"
    path.write_text(res.stdout)
    svg, png = tmp_path / "t.svg", tmp_path / "t.png"
    assert runner.invoke(app, ["render", str(path), "--out", str(svg)]).exit_code == 0
    assert svg.read_text().startswith("<svg") or "<svg" in svg.read_text()[:200]
    assert runner.invoke(app, ["render", str(path), "--out", str(png)]).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_replay(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    res = runner.invoke(app, ["state", "so-ein-zirkus", "-p", "2", "--seed", "5",
                              "--actions", "12"])
    path = tmp_path / "z.json"
    path.write_text(res.stdout)
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert len(out.stdout.strip().splitlines()) == 12 and "P0 rolls" in out.stdout
    res = runner.invoke(app, ["state", "scout", "-p", "3", "--seed", "5", "--actions", "30"])
    data = json.loads(res.stdout)
    data["seed"] = 6  # a different deal: the history no longer fits
    path.write_text(json.dumps(data))
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 2
    assert "does not" in out.output


def test_mean_intervals_cover_95_percent_with_few_units() -> None:
    """A mean over few deals (a rotated run of 2 to 5 deals, a short compare) estimates its
    spread from those deals: Student's t interval covers the true mean 95% of the time,
    where the normal one covered about 70% at two deals and 81% at three."""
    rng = random.Random(11)
    for n in (2, 3, 5):
        runs = 4000
        covered = 0
        for _ in range(runs):
            m = mean_interval([rng.gauss(0.3, 0.1) for _ in range(n)])
            covered += m.low <= 0.3 <= m.high
        assert 0.93 <= covered / runs <= 0.97, (n, covered / runs)


def test_t_quantiles_and_tails_match_the_tables() -> None:
    from bigtop.sim.stats import t_quantile, t_two_sided_p

    # Student's t, two-sided 95%: 12.706 (1 df), 4.303 (2), 2.571 (5), 2.042 (30), and
    # the normal 1.960 in the limit.
    for df, t in ((1, 12.7062047), (2, 4.3026527), (5, 2.5705818), (30, 2.0422725),
                  (10**6, 1.9599679)):
        assert math.isclose(t_quantile(0.975, df), t, rel_tol=1e-6), df
        assert math.isclose(t_two_sided_p(t, df), 0.05, rel_tol=1e-5), df
    assert t_two_sided_p(0.0, 3) == 1.0 and t_two_sided_p(math.inf, 3) == 0.0
