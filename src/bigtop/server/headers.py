"""Security headers on every HTTP response, and the API docs page from vendored assets.

The pages are ES modules and stylesheets of their own origin, so the policy allows only
``'self'``: no inline script, no inline ``<style>`` or ``style=""`` attribute, no other host,
no framing (``frame-ancestors 'none'`` and, for older browsers, ``X-Frame-Options: DENY``).
Images may also be ``data:`` (Swagger UI's stylesheet draws its icons so) and ``blob:`` (the
table page shows the picture of a seat's view, fetched with its token in a header, as a
blob). ``connect-src 'self'`` covers the page's own WebSocket (same host and port).

>>> CSP.split("; ")[:2]
["default-src 'self'", "script-src 'self'"]
"""

from __future__ import annotations

from pathlib import Path

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bigtop.server.edge import API

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

NO_STORE = (b"cache-control", b"no-store")
"""What an API answer says of caching unless its route says otherwise (a picture: its
ETag, ``private`` for a seat's): a seat's view holds its hidden hand, the host's invite
list every friend's token, a creation answer every seat's; none may be kept in a browser's
or a proxy's cache for whoever comes next."""


class SecurityHeaders:
    """ASGI middleware: adds :data:`SECURITY_HEADERS` to every HTTP response (pages, API,
    errors, static files), replacing any the app set itself, and :data:`NO_STORE` to an
    API answer without a ``Cache-Control`` of its own; over HTTPS (as the client
    reached us: a trusted proxy's ``X-Forwarded-Proto``, server/net.py) also
    ``Strict-Transport-Security`` for ``hsts_seconds`` (0: never)."""

    def __init__(self, app: ASGIApp, hsts_seconds: int = 0) -> None:
        self.app = app
        self.hsts = [(b"strict-transport-security", f"max-age={hsts_seconds}".encode())] \
            if hsts_seconds > 0 else []
        self.names = {name for name, _ in SECURITY_HEADERS} | {k for k, _ in self.hsts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [*SECURITY_HEADERS, *(self.hsts if scope.get("scheme") == "https" else [])]
        api = scope["path"].startswith(API)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in self.names]
                if api and not any(k.lower() == b"cache-control" for k, _ in headers):
                    headers.append(NO_STORE)
                message = {**message, "headers": [*headers, *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


SWAGGER = Path(__file__).resolve().parent.parent / "web" / "static" / "vendor" / "swagger-ui"
"""Swagger UI as vendored from npm (its README says which version), served at /docs/assets."""

DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>bigtop server — API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/bigtop-init.js"></script>
</body>
</html>
"""
"""The /docs page: the vendored Swagger UI on /openapi.json, no inline script."""
