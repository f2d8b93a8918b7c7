"""The browser front end: static pages served by the server (``bigtop serve``) at ``/``.

``static/`` holds the lobby (``index.html``), the table page (``table.html``, one page for
every game, drawn by ``js/games/<game>.js`` from the observation JSON), the stylesheet and an
icon: vanilla JavaScript modules and SVG, no build step, nothing fetched from elsewhere.

>>> (STATIC / "index.html").exists() and (STATIC / "table.html").exists()
True
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
"""The folder the server mounts at ``/``."""
