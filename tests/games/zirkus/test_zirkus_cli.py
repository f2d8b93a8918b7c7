"""The terminal: `bigtop simulate` for every player count and variant (and a 4 × 10 board
file), `bigtop play` against the heuristic bot, and the docs' examples load."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bigtop.cli import app
from bigtop.core.perft import perft
from bigtop.core.registry import load_state

HERE = Path(__file__).parent
DOCS = HERE.parents[2] / "docs" / "so-ein-zirkus.md"
runner = CliRunner()

VARIANTS = ["", "lazy_clown=true", "shoving=shove", "shoving=clumsy", "secret_clown=true",
            "upside_down=true", "tournament=games", "tournament=score",
            f"board={HERE / 'boards' / 'board-4x10.json'}"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_simulate_json(players: int, variant: str) -> None:
    args = ["simulate", "so-ein-zirkus", "--players", str(players), "--games", "6",
            "--seed", "1", "--json"]
    if variant:
        args += ["--option", variant]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["summary"]["games"] == 6


def test_simulate_rejects_a_bad_board_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"columns": 3, "rows": 8, "start": ["A1", "B1", "C1"], "holes": {"A3": 1}}')
    result = runner.invoke(app, ["simulate", "so-ein-zirkus", "--option", f"board={bad}"])
    assert result.exit_code != 0
    assert "6-point hole" in result.output


def test_play_against_the_heuristic_bot() -> None:
    result = runner.invoke(app, ["play", "so-ein-zirkus", "--players", "2", "--seed", "3"],
                           input="0\n" * 400)
    assert result.exit_code == 0, result.output
    assert "So ein Zirkus (default board)" in result.output
    assert "game over" in result.output or "bye" in result.output


def test_docs_state_example_loads_and_has_the_documented_perft() -> None:
    text = DOCS.read_text()
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S)]
    states = [b for b in blocks if "position" in b]
    assert len(states) == 1
    s = load_state(states[0])
    assert [perft(s, d) for d in (1, 2)] == [6, 69]
    boards = [b for b in blocks if "holes" in b and "columns" in b]
    assert boards and boards[0]["holes"] == s.to_json()["position"]["board"]["holes"]
