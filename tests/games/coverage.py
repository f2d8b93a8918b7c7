"""The check behind each game's *Rulebook coverage* test: the docs' checklist names only
tests that exist."""

from __future__ import annotations

import re
from pathlib import Path


def named_but_missing(docs: Path, tests: Path) -> tuple[int, list[str]]:
    """How many tests the *Rulebook coverage* section of ``docs`` names, and those of them
    that no ``test_*.py`` file in ``tests`` defines."""
    coverage = docs.read_text().split("## Rulebook coverage", 1)[1]
    named = set(re.findall(r"`(test_\w+)`", coverage))
    defined = {m for p in tests.glob("test_*.py")
               for m in re.findall(r"^def (test_\w+)", p.read_text(), re.M)}
    return len(named), sorted(named - defined)
