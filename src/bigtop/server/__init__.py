"""The bigtop server: tables, seats, live play, stored moves (``bigtop serve``).

``create_app(settings)`` builds the FastAPI application; docs/server.md describes the API.
"""

from bigtop.core.extras import require_extra

require_extra("server", what="bigtop.server")
from bigtop.server.app import create_app  # noqa: E402  (after the check: one line if missing)
from bigtop.server.settings import Limits, Settings  # noqa: E402

__all__ = ["Limits", "Settings", "create_app"]
