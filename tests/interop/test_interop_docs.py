"""docs/interop.md: every Python block runs, each game has an example for each library, and
the adapter modules' doctests pass."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from bigtop.core.registry import game_names
from bigtop.interop.common import GAMES

DOC = Path(__file__).parents[2] / "docs" / "interop.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
TITLES = {"scout": "SCOUT", "clown-15-go": "Clown 15 Go", "so-ein-zirkus": "So ein Zirkus",
          "tricky-landing": "Tricky Landing"}


def _game_of(block: str) -> str | None:
    for name in GAMES:
        if f'"{name}"' in block or f"bigtop_{name.replace('-', '_')}" in block:
            return name
    return None


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_block_runs(index: int) -> None:
    block = BLOCKS[index]
    name = _game_of(block)
    if name is not None and name not in game_names():
        pytest.skip(f"{name} is not registered yet")
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(block, f"{DOC.name}[{index}]", "exec"), {})


@pytest.mark.parametrize("name", GAMES)
def test_each_game_has_an_example_per_library(name: str) -> None:
    text = DOC.read_text()
    section = text.split(f"### {TITLES[name]}\n", 1)[1].split("\n### ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert any("openspiel" in b for b in blocks) and any("pettingzoo" in b for b in blocks)
    for b in blocks:
        code = [line for line in b.splitlines() if line.strip()]
        assert len(code) <= 16, f"{name}: an example should stay about ten lines"


@pytest.mark.parametrize("module", ["bigtop.interop.common", "bigtop.interop.tensors",
                                    "bigtop.interop.openspiel", "bigtop.interop.pettingzoo"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
