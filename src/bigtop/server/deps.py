"""Request dependencies: the runtime, and the seat token (``Authorization: Bearer``; never
in a URL, where history, referrers and proxy logs would keep it: server/edge.py refuses a
``?token=``, ``?key=`` and the like on every API route before any of these runs)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from bigtop.server.runtime import Runtime


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


def seat_token(
    authorization: Annotated[str | None, Header(description="Bearer SEAT_TOKEN")] = None,
) -> str | None:
    """The seat token of the request, if any (None: a spectator)."""
    return bearer(authorization)


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
TokenDep = Annotated[str | None, Depends(seat_token)]


def player_key(
    authorization: Annotated[str | None, Header(description="Bearer PLAYER_KEY")] = None,
) -> str | None:
    """The player key of the request, if any."""
    return bearer(authorization)


KeyDep = Annotated[str | None, Depends(player_key)]
