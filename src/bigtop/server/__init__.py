"""The bigtop server: tables, seats, live play, stored moves (``bigtop serve``).

``create_app(settings)`` builds the FastAPI application; docs/server.md describes the API.
"""

from bigtop.server.app import create_app
from bigtop.server.settings import Limits, Settings

__all__ = ["Limits", "Settings", "create_app"]
