"""Build hook: compile the hot modules with mypyc where that is possible.

The modules listed under ``[tool.bigtop] compiled`` in pyproject.toml are compiled to C
extensions by mypyc (part of mypy, pinned in requirements.lock) when mypyc, a C compiler and
the Python headers are present; otherwise, or with ``BIGTOP_PURE=1`` in the environment, the
package installs as pure Python. Both give the same games for the same seeds (tested).

The build records a hash of every compiled module's source in ``bigtop/_build.json``; at
import time :mod:`bigtop._compiled` uses pure Python for every module when a source no longer
matches its extension (edited since the build), so a stale build is never silently run.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
BUILD_INFO = SRC / "bigtop" / "_build.json"


def compiled_modules() -> list[str]:
    """The module names pyproject.toml lists for compilation."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        config = tomllib.load(f)
    modules: list[str] = config["tool"]["bigtop"]["compiled"]
    return modules


def module_path(module: str) -> Path:
    return SRC / (module.replace(".", "/") + ".py")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


#: setup.py commands that build the extension modules; the others (egg_info, dist_info,
#: sdist: metadata and sources only) skip mypyc, which takes a minute.
BUILDING = {"build", "build_ext", "bdist", "bdist_wheel", "editable_wheel", "develop", "install"}


def why_not_compiled() -> str | None:
    """Why this build stays pure Python (None: it can compile)."""
    if os.environ.get("BIGTOP_PURE", "") not in ("", "0"):
        return "BIGTOP_PURE is set"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (part of mypy) is not installed"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").exists():
        return f"no Python headers (Python.h) in {include}"
    return None


def extensions() -> list[Any]:
    """mypyc's extension modules, or none (and no build record) for a pure install."""
    if not BUILDING & set(sys.argv[1:]):
        return []  # an sdist carries sources only: whoever installs it compiles
    BUILD_INFO.unlink(missing_ok=True)
    modules = compiled_modules()
    reason = why_not_compiled()
    if reason is None:
        from mypyc.build import mypycify

        paths = [str(module_path(m).relative_to(ROOT)) for m in modules]
        try:
            # debug_level 0: no debug symbols (a wheel of 36 MB would be a few MB).
            # BIGTOP_OPT_LEVEL (0-3, default 3) is the C compiler's -O: the wheel test builds
            # with 0, which checks the packaging in a fraction of the compile time.
            opt = os.environ.get("BIGTOP_OPT_LEVEL", "3")
            if opt not in ("0", "1", "2", "3"):
                raise SystemExit(f"BIGTOP_OPT_LEVEL must be 0, 1, 2 or 3, not {opt!r}")
            # multi_file: a C file a module, which ParallelBuildExt compiles side by side
            # (one big file took a core for a minute and a half while the others idled).
            exts: list[Any] = mypycify(paths, opt_level=opt, debug_level="0",
                                       multi_file=True)
        except (Exception, SystemExit) as e:  # a type error mypyc cannot compile around
            reason = f"mypyc failed: {e}"
        else:
            record = {"modules": {m: source_hash(module_path(m)) for m in modules}}
            BUILD_INFO.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
            return exts
    print(f"bigtop: installing pure Python ({reason})", file=sys.stderr)
    return []


def parallel_build_ext() -> type:
    """setuptools' ``build_ext``, compiling the C files of one extension side by side (a
    compiler process per core) instead of one after the other."""
    from concurrent.futures import ThreadPoolExecutor

    from setuptools.command.build_ext import build_ext

    jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)

    class ParallelBuildExt(build_ext):  # type: ignore[misc]
        def build_extension(self, ext: Any) -> None:
            one_by_one = self.compiler.compile

            def side_by_side(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
                if jobs < 2 or len(sources) < 2:
                    return list(one_by_one(sources, *args, **kwargs))
                # the biggest first, so that no long file starts last
                order = sorted(sources, key=lambda f: -Path(f).stat().st_size)
                with ThreadPoolExecutor(jobs) as pool:
                    made = dict(zip(order, pool.map(
                        lambda f: one_by_one([f], *args, **kwargs), order), strict=True))
                return [o for f in sources for o in made[f]]

            self.compiler.compile = side_by_side
            try:
                super().build_extension(ext)
            finally:
                self.compiler.compile = one_by_one

    return ParallelBuildExt


def unpack_compiled(wheel: Path) -> list[str]:
    """Put a wheel's extension modules and build record beside the sources, where an
    in-place build puts them, in place of any there (a pure wheel leaves none); their
    names. The tree then runs the modules the wheel holds (make test checks that wheel)."""
    import zipfile

    for old in [*SRC.rglob("*.so"), *SRC.rglob("*.pyd")]:
        old.unlink()
    BUILD_INFO.unlink(missing_ok=True)
    with zipfile.ZipFile(wheel) as z:
        names = [n for n in z.namelist()
                 if n.endswith((".so", ".pyd")) or n == "bigtop/_build.json"]
        for name in names:
            z.extract(name, SRC)
    return names


if __name__ == "__main__":
    if sys.argv[1:] == ["--compiled-sources"]:
        # For the Makefile: rebuild when one of these changes.
        print(" ".join(str(module_path(m).relative_to(ROOT)) for m in compiled_modules()))
        sys.exit(0)
    if sys.argv[1:2] == ["--unpack-compiled"] and len(sys.argv) == 3:
        unpacked = unpack_compiled(Path(sys.argv[2]))
        print(f"bigtop: {len(unpacked)} compiled files from {sys.argv[2]} in {SRC}")
        sys.exit(0)
    from setuptools import setup

    setup(ext_modules=extensions(), cmdclass={"build_ext": parallel_build_ext()})
