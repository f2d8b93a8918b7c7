"""The bigtop server: tables, seats, live play, stored moves (``bigtop serve``).

``create_app(settings)`` builds the FastAPI application; docs/server.md describes the API.

The names below load on first use: a bot pool process imports ``bigtop.server.bots`` only
(the engines and the bots), not FastAPI, SQLAlchemy and the routers, which cost it seconds
of CPU on every server start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bigtop.core.extras import require_extra

require_extra("server", what="bigtop.server")

if TYPE_CHECKING:
    from bigtop.server.app import create_app
    from bigtop.server.settings import Limits, Settings

__all__ = ["Limits", "Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from bigtop.server.app import create_app

        return create_app
    if name in ("Limits", "Settings"):
        from bigtop.server import settings

        return getattr(settings, name)
    raise AttributeError(f"module 'bigtop.server' has no attribute {name!r}")
