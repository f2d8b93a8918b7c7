"""Compiled or pure Python: which modules of bigtop run as C extensions.

Where a C compiler exists, the install compiles the hot modules with mypyc (see setup.py and
``[tool.bigtop] compiled`` in pyproject.toml); the compiled and the pure-Python package play
identical games for the same seeds. The pure-Python sources are used instead of every
extension module

* when ``BIGTOP_PURE=1`` (any value but empty or ``0``) is in the environment, or
* when a compiled module's source changed since the build (``bigtop/_build.json`` holds the
  hashes of the sources that were compiled): then *all* of bigtop runs pure Python, since
  compiled modules call each other directly and must not be mixed with newer sources, and a
  warning says to rebuild (``make .venv/.bigtop-built`` or ``pip install -e .``).

This module is imported first by ``bigtop/__init__.py`` and is never compiled itself.

>>> mode() in ("compiled", "pure")
True
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
BUILD_INFO = PACKAGE_DIR / "_build.json"
PURE_ENV = "BIGTOP_PURE"

#: Why the pure-Python sources are used (None: extension modules load where built).
pure_reason: str | None = None


class StaleBuildWarning(UserWarning):
    """A compiled module is older than its source; bigtop runs pure Python until rebuilt."""


class _SourceOnlyFinder:
    """Finds ``bigtop`` modules as ``.py`` sources only, so extension modules are ignored."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if name != "bigtop" and not name.startswith("bigtop."):
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path if path is not None else sys.path:
            spec = importlib.machinery.FileFinder(entry or ".", loader).find_spec(name)
            if spec is not None:
                return spec
        return None


def _stale_modules() -> list[str]:
    """Compiled modules whose source differs from the one compiled (none without a build)."""
    try:
        record = json.loads(BUILD_INFO.read_text())
        modules: dict[str, str] = record["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    stale = []
    for module, digest in modules.items():
        source = PACKAGE_DIR.parent / (module.replace(".", "/") + ".py")
        try:
            if hashlib.sha256(source.read_bytes()).hexdigest() != digest:
                stale.append(module)
        except OSError:
            stale.append(module)
    return stale


def activate() -> None:
    """Decide once, before any other bigtop module is imported, whether extension modules
    may load; if not, install the source-only finder."""
    global pure_reason
    if any(isinstance(f, _SourceOnlyFinder) for f in sys.meta_path):
        return
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        pure_reason = f"{PURE_ENV} is set"
    else:
        stale = _stale_modules()
        if stale:
            pure_reason = f"compiled modules are older than their sources ({', '.join(stale)})"
            warnings.warn(f"bigtop: {pure_reason}; running pure Python. Rebuild with "
                          "`make .venv/.bigtop-built` (`make run` and `make test` do it) "
                          "or `pip install -e .`",
                          StaleBuildWarning, stacklevel=2)
    if pure_reason is not None:
        sys.meta_path.insert(0, _SourceOnlyFinder())


def compiled_modules() -> list[str]:
    """The bigtop modules imported so far that are compiled extensions, sorted."""
    return sorted(
        name for name, module in list(sys.modules.items())
        if (name == "bigtop" or name.startswith("bigtop.")) and not name.endswith("__mypyc")
        and isinstance(getattr(module, "__loader__", None),
                       importlib.machinery.ExtensionFileLoader))


def mode() -> str:
    """``"compiled"`` if any imported bigtop module is compiled, else ``"pure"``."""
    return "compiled" if compiled_modules() else "pure"


def describe() -> str:
    """One line for benchmarks and bug reports: the mode and why."""
    names = compiled_modules()
    if names:
        return f"compiled ({len(names)} modules with mypyc)"
    return f"pure Python ({pure_reason or 'no compiled modules built'})"
