"""Alembic environment: runs on the connection :func:`bigtop.server.db.migrate` passes in.

Imported outside a migration (a doctest run collecting every module) it does nothing.
"""

from __future__ import annotations

from typing import Any

from alembic import context

from bigtop.server.schema import metadata


def run_migrations(config: Any) -> None:
    connection = config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


_config = getattr(context, "config", None)  # only there while Alembic runs this file
if _config is not None:
    run_migrations(_config)
