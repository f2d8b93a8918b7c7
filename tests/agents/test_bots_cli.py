"""`bigtop bots` lists every level of every game with its budget; bad input is one line."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from bigtop.agents.levels import BOT_NAMES, BUDGETS, MOVE_BUDGET_MS
from bigtop.cli import app
from bigtop.core.registry import game_names

runner = CliRunner()


def test_bots_json_lists_every_level_per_game() -> None:
    result = runner.invoke(app, ["bots", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == game_names()
    for game, levels in data.items():
        assert [lv["name"] for lv in levels] == list(BOT_NAMES)
        hard = levels[BOT_NAMES.index("hard")]
        assert hard["iterations"] == BUDGETS[game].hard.iterations
        assert hard["budget_ms"] == MOVE_BUDGET_MS["hard"]


def test_bots_table_for_one_game() -> None:
    result = runner.invoke(app, ["bots", "tricky-landing"])
    assert result.exit_code == 0, result.output
    assert "throw model" in result.output and "planner" in result.output
    assert "SCOUT" not in result.output


def test_bots_unknown_game_is_one_line() -> None:
    result = runner.invoke(app, ["bots", "chess"])
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output
    assert "Traceback" not in result.output


def test_play_against_hard_bots_with_a_time_limit() -> None:
    """`play --think` caps the searching bots' time; a bad value is one line."""
    entries = "0\n" * 3000
    result = runner.invoke(app, ["play", "scout", "--players", "2", "--seed", "3", "--option",
                                 "rounds=1", "--bots", "hard", "--think", "0.01"],
                           input=entries)
    assert result.exit_code == 0, result.output
    assert "game over" in result.output
    bad = runner.invoke(app, ["play", "scout", "--bots", "hard", "--think", "-1"])
    assert bad.exit_code == 2
    assert "--think must be a finite number, above 0, got -1" in bad.output
    assert "Traceback" not in bad.output
