"""The platform wheel, as a user gets it: built from the sdist (``python -m build
--no-isolation``: the lock's setuptools and mypy), installed with ``--no-deps`` into a clean
venv beside the core's dependencies from the lock (no extra), it

* holds the mypyc-compiled modules for this interpreter where this machine can compile
  (setup.py's ``why_not_compiled()``), and loads them;
* plays the same seeded games as the tree (tests/test_compiled.py's fingerprints);
* plays every game from the command line and imports none of the optional stacks, which are
  not even installed there, and its ``bigtop`` command names the extra a command needs.

``BIGTOP_WHEEL=dist/bigtop-….whl`` tests a wheel built already (``make wheel``). Otherwise
the test takes the wheel whose extension modules the tree runs (the Makefile builds it into
build/wheel/) when that wheel holds exactly this tree's files, and else builds one (mypyc and
the C compiler at -O0: a minute of CPU), once, in one test so that pytest-xdist's workers do
not build it twice.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.test_compiled import fingerprints
from tests.test_extras import OPTIONAL_STACKS, run_core_session

ROOT = Path(__file__).resolve().parent.parent
WHEEL_ENV = "BIGTOP_WHEEL"
MADE = ROOT / "build" / "wheel"  # the Makefile's (its compiled build)
BUILT_HERE = (".so", ".pyd", ".pyc")  # and the build record: products, not sources


def _source(name: str) -> bool:
    """A package file's name (bigtop/...) names a source, not a build's product."""
    return (name.startswith("bigtop/") and not name.endswith(BUILT_HERE)
            and "__pycache__" not in name.split("/") and name != "bigtop/_build.json")


def _setup_py() -> object:
    spec = importlib.util.spec_from_file_location("bigtop_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None,
         timeout: float = 1200) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=timeout)
    assert done.returncode == 0, f"{args}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def build_wheel(out: Path, env: dict[str, str]) -> Path:
    _run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT, cwd=out,
         env=env)
    (wheel,) = out.glob("bigtop-*.whl")
    return wheel


def made_wheel() -> Path | None:
    """The Makefile's wheel when it holds exactly this tree's package (every file of
    src/bigtop, byte for byte, nothing more or less) and is newer than the build's
    configuration; None when there is none or it is stale (a file changed since)."""
    found = sorted(MADE.glob("bigtop-*.whl"))
    if len(found) != 1:
        return None
    wheel = found[0]
    built = wheel.stat().st_mtime
    if any((ROOT / f).stat().st_mtime > built
           for f in ("setup.py", "pyproject.toml", "MANIFEST.in")):
        return None
    src = ROOT / "src"
    tree = {n for p in (src / "bigtop").rglob("*")
            if p.is_file() and _source(n := p.relative_to(src).as_posix())}
    with zipfile.ZipFile(wheel) as z:
        held = [n for n in z.namelist() if _source(n)]
        if set(held) != tree:
            return None
        if any(z.read(n) != (src / n).read_bytes() for n in held):
            return None
    return wheel


def clean_venv(folder: Path, wheel: Path) -> Path:
    """A venv with the wheel and the core's locked dependencies only; its python."""
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    assert uv is not None, "uv (the dev group's) is needed: make test installs it"
    core = folder / "core-requirements.txt"
    exported = _run(uv, "export", "--frozen", "--no-dev", "--no-emit-project", "--no-header",
                    cwd=ROOT)
    core.write_text(exported.stdout)
    venv = folder / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=folder)
    python = venv / "bin" / "python"
    _run(uv, "pip", "install", "--quiet", "--python", python, "--require-hashes", "-r", core,
         cwd=folder)
    _run(uv, "pip", "install", "--quiet", "--python", python, "--no-deps", wheel, cwd=folder)
    return python


@pytest.mark.slow
def test_the_wheel_installs_alone_and_plays_the_trees_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Nothing of the tree: no PYTHONPATH, no BIGTOP_PURE (the suite may run pure; the wheel
    # compiles all the same), run from outside the checkout.
    monkeypatch.delenv("BIGTOP_PURE", raising=False)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    given = os.environ.get(WHEEL_ENV)
    # Unoptimised C (-O0) is the same extension modules, compiled several times faster: this
    # test checks what the wheel holds and that it loads and plays, not its speed.
    wheel = (Path(given).resolve() if given
             else made_wheel() or build_wheel(tmp_path, {**env, "BIGTOP_OPT_LEVEL": "0"}))
    can_compile = _setup_py().why_not_compiled() is None  # type: ignore[attr-defined]
    compiled = sorted(tomllib.loads((ROOT / "pyproject.toml").read_text())
                      ["tool"]["bigtop"]["compiled"])
    names = zipfile.ZipFile(wheel).namelist()
    if can_compile:
        assert not wheel.name.endswith("-py3-none-any.whl"), wheel.name
        assert any(n.endswith((".so", ".pyd")) and "__mypyc" in n for n in names), names
        assert "bigtop/_build.json" in names
    python = clean_venv(tmp_path, wheel)
    where = _run(python, "-c", "import bigtop; print(bigtop.__file__)", cwd=tmp_path, env=env)
    assert str(tmp_path / "venv") in where.stdout

    # The same games as the tree, compiled where the wheel was.
    played = json.loads(_run(python, ROOT / "tests" / "test_compiled.py", cwd=tmp_path,
                             env=env).stdout)
    if can_compile:
        assert played["mode"] == "compiled"
        assert played["compiled_modules"] == compiled
    assert played["games"] == fingerprints()

    # The light install: the optional stacks are absent, every game plays from the CLI.
    absent = _run(python, "-c", "import importlib.util as u, json, sys; print(json.dumps("
                  "[m for m in sys.argv[1:] if u.find_spec(m)]))", *OPTIONAL_STACKS,
                  cwd=tmp_path, env=env)
    assert json.loads(absent.stdout) == []
    session = run_core_session(str(python), cwd=tmp_path, env=env)
    assert session["imported"] == []
    assert all(session["played"].values()), session["played"]  # type: ignore[attr-defined]

    # Its own `bigtop` command: plays, and names the extra a command needs.
    bigtop = python.parent / "bigtop"
    assert "SCOUT" in _run(bigtop, "games", cwd=tmp_path, env=env).stdout
    for args, extra, module in ((["serve"], "server", "fastapi"),
                                (["simulate", "scout", "--games", "2", "--out", "run"], "lab",
                                 "pyarrow")):
        done = subprocess.run([bigtop, *args], capture_output=True, text=True, cwd=tmp_path,
                              env=env, timeout=300)
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip().endswith(
            f"needs the {extra} extra ({module} is not installed): pip install "
            f"'bigtop[{extra}]'"), done.stderr
        assert "\n" not in done.stderr.strip()
    assert not (tmp_path / "run").exists()
