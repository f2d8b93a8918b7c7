"""The configuration files of docs/deploy.md, read out of the guide itself, so that the
guide and the tests that run them (test_proxy.py: the Caddyfile; test_deploy_unit.py: the
systemd unit) cannot drift apart."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def block(language: str) -> str:
    """The one fenced block of ``language`` in docs/deploy.md (more or fewer is an error: a
    second one would leave it unclear which of them the host is meant to use)."""
    found = re.findall(rf"^```{re.escape(language)}\n(.*?)^```$", DEPLOY.read_text(),
                       re.MULTILINE | re.DOTALL)
    assert len(found) == 1, f"docs/deploy.md has {len(found)} ```{language} blocks, not one"
    text: str = found[0]
    return text


def replace(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced, which must be there (a guide that no longer says
    ``old`` needs the test changed, not silently run with the guide's own value)."""
    assert old in text, f"docs/deploy.md's block no longer says {old!r}"
    return text.replace(old, new)


def need(path: Path, what: str) -> None:
    """Skip without ``path`` outside make; under make, `make hosting` has installed it, so
    its absence is a failure."""
    if path.exists():
        return
    if os.environ.get("MAKELEVEL"):
        pytest.fail(f"{what} is missing: `make hosting` installs it")
    pytest.skip(f"{what} is not installed (`make hosting` installs it; `make test` does)")
