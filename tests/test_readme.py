"""The README's code block runs as written."""

from __future__ import annotations

import re
from pathlib import Path


def test_readme_python_example_runs(capsys: object) -> None:
    text = (Path(__file__).parents[1] / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_shows_exactly_the_two_setup_commands() -> None:
    text = (Path(__file__).parents[1] / "README.md").read_text()
    setup = text.split("## Set-up", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in setup.strip().splitlines()]
    assert commands == ["make run", "make test"]
