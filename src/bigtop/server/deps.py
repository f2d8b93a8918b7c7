"""Request dependencies: the runtime, and the seat token (``Authorization: Bearer``; never
in a URL, where history, referrers and proxy logs would keep it)."""

from __future__ import annotations

from collections.abc import Container
from typing import Annotated

from fastapi import Depends, Header, Request

from bigtop.server import errors
from bigtop.server.runtime import Runtime

TOKEN_IN_URL = ("a seat token in the URL is refused (it would be kept in histories and "
                "logs): send it as 'Authorization: Bearer TOKEN' (WebSockets: that header, "
                "or the subprotocol 'bigtop.token.TOKEN' beside 'bigtop')")


def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, if any."""
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    return None


def refuse_token_in_url(query_keys: Container[str]) -> None:
    """400 for a ``?token=`` (the old way, now refused rather than silently ignored: a
    client that still sends it learns why it would be a spectator)."""
    if "token" in query_keys:
        raise errors.TokenInUrl(TOKEN_IN_URL)


def seat_token(
    request: Request,
    authorization: Annotated[str | None, Header(description="Bearer SEAT_TOKEN")] = None,
) -> str | None:
    """The seat token of the request, if any (None: a spectator)."""
    refuse_token_in_url(request.query_params)
    return bearer(authorization)


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
TokenDep = Annotated[str | None, Depends(seat_token)]
