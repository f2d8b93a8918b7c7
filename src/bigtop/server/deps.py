"""Request dependencies: the runtime, and the seat token (a bearer token or ``?token=``,
for links and <img> tags that cannot send headers)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Query, Request

from bigtop.server.runtime import Runtime


def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


def seat_token(
    authorization: Annotated[str | None, Header(description="Bearer SEAT_TOKEN")] = None,
    token: Annotated[str | None, Query(description="The seat token (instead of the header).",
                                       max_length=128)] = None,
) -> str | None:
    """The seat token of the request, if any (None: a spectator)."""
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    return token or None


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
TokenDep = Annotated[str | None, Depends(seat_token)]
