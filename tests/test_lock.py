"""The lock: uv.lock is the source, requirements.lock and requirements-bootstrap.txt are its
exports (what `make` installs), and the wheel's build pins the lock's mypy (docs/install.md)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LOCK = tomllib.loads((ROOT / "uv.lock").read_text())

#: The exported files and the `uv export` arguments that make them (as `make lock` does).
EXPORTS = {
    "requirements.lock": ["--all-extras", "--group", "dev"],
    "requirements-bootstrap.txt": ["--only-group", "bootstrap"],
}


def _locked_versions(name: str) -> set[str]:
    return {p["version"] for p in LOCK["package"] if p["name"] == name}


def test_the_build_and_the_dev_group_pin_the_locks_mypy() -> None:
    """mypyc is part of mypy: the wheel's isolated build and the editable one compile with the
    same release."""
    (version,) = _locked_versions("mypy")
    assert f"mypy=={version}" in PYPROJECT["build-system"]["requires"]
    assert f"mypy=={version}" in PYPROJECT["dependency-groups"]["dev"]


def test_every_locked_file_has_a_hash() -> None:
    for package in LOCK["package"]:
        if package["name"] == "bigtop":
            continue
        files = package.get("wheels", []) + ([package["sdist"]] if "sdist" in package else [])
        assert files, package["name"]
        assert all(f["hash"].startswith("sha256:") for f in files), package["name"]


def _body(text: str) -> list[str]:
    """A requirements file without its header (which quotes the command line)."""
    return [line for line in text.splitlines() if not line.startswith("#  ")
            and not line.startswith("# This file")]


@pytest.mark.parametrize("name", list(EXPORTS))
def test_the_exported_files_are_the_locks(name: str) -> None:
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    assert uv is not None, "uv (the dev group's) is needed: make test installs it"
    exported = subprocess.run([uv, "export", "--frozen", "--no-emit-project", *EXPORTS[name]],
                              capture_output=True, text=True, check=True, cwd=ROOT,
                              timeout=120).stdout
    assert _body(exported) == _body((ROOT / name).read_text()), f"run `make lock` ({name})"
    assert "--hash=sha256:" in exported
