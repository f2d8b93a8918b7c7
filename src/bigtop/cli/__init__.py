"""The ``bigtop`` command line.

``bigtop games`` lists games, player counts and rule options; ``bigtop play GAME`` plays in the
terminal against bots; ``bigtop simulate GAME`` runs many seeded bot games, ``compare``
plays two rule variants on the same seeds and ``tournament`` rates bots in a round robin; ``state``,
``render`` and ``replay`` work on state files. One module per command group registers its
commands on the shared Typer ``app``.
"""

from bigtop.cli import (  # noqa: F401  (registers the commands)
    bots,
    catalog,
    files,
    host,
    lab,
    play,
    serve,
    simulate,
    train,
)
from bigtop.cli._app import app


def main() -> None:  # pragma: no cover
    app()


__all__ = ["app", "main"]
