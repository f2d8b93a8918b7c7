"""Optional parts of bigtop and the one way to ask for them.

``pip install bigtop`` brings the engines, the bots and terminal play (typer, rich, numpy).
Everything else is an extra (pyproject.toml's ``[project.optional-dependencies]``,
docs/install.md): the server, the lab's data files, plots and ratings, Ray, the OpenSpiel and
PettingZoo adapters. Code that needs one calls :func:`require_extra` before importing it, so
a missing package is one line that says what to install, never a traceback:

>>> EXTRAS["lab"].modules
('pyarrow', 'matplotlib', 'openskill')
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from bigtop.core.errors import BigtopError


@dataclass(frozen=True)
class Extra:
    """One extra: whom it serves and the modules it brings (top-level import names)."""

    serves: str
    modules: tuple[str, ...]


#: The extras by name, as in pyproject.toml (a test keeps the two in step; ``all`` is every
#: one of them).
EXTRAS: dict[str, Extra] = {
    "server": Extra("the web server (bigtop serve), on SQLite",
                    ("fastapi", "uvicorn", "httptools", "websockets", "orjson", "sqlalchemy",
                     "alembic", "platformdirs", "openskill")),
    "postgresql": Extra("the server on PostgreSQL (several workers)", ("psycopg",)),
    "lab": Extra("simulation files, plots and ratings (--out, tournament, PNG pictures)",
                 ("pyarrow", "matplotlib", "openskill")),
    "ray": Extra("simulations on a Ray cluster (--ray)", ("ray",)),
    "openspiel": Extra("the OpenSpiel adapter (bigtop.interop.openspiel)", ("pyspiel",)),
    "pettingzoo": Extra("the PettingZoo adapter (bigtop.interop.pettingzoo)",
                        ("pettingzoo", "gymnasium")),
    "train": Extra("bigtop train's plot of the learning curve (numpy is the core's)",
                   ("matplotlib",)),
}


class MissingExtraError(BigtopError):
    """A feature whose optional dependencies are not installed; the one-line message names
    the extra to install (``pip install 'bigtop[EXTRA]'``)."""

    def __init__(self, extra: str, module: str, what: str | None = None) -> None:
        self.extra = extra
        self.module = module
        subject = what or EXTRAS[extra].serves
        super().__init__(f"{subject} needs the {extra} extra ({module} is not installed): "
                         f"pip install 'bigtop[{extra}]'")


def installed(module: str) -> bool:
    """Whether ``module``'s top-level package can be found (nothing is imported)."""
    try:
        return importlib.util.find_spec(module.partition(".")[0]) is not None
    except (ImportError, ValueError):  # a broken or half-removed package
        return False


def require_extra(extra: str, *modules: str, what: str | None = None) -> None:
    """Raise :class:`MissingExtraError` unless ``modules`` (default: every module of the
    extra) can be imported; ``what`` names the feature that needs them in the message.

    >>> require_extra("ray", "no_such_module_xyz", what="--ray")
    Traceback (most recent call last):
    ...
    bigtop.core.extras.MissingExtraError: --ray needs the ray extra (no_such_module_xyz is \
not installed): pip install 'bigtop[ray]'
    """
    for module in modules or EXTRAS[extra].modules:
        if not installed(module):
            raise MissingExtraError(extra, module, what)
