"""Errors the server answers with, as HTTP problem JSON (RFC 9457: type, title, status,
detail, plus extension members such as the table's current ``version``).

Every one is a :class:`~bigtop.core.errors.BigtopError`; the engine's own errors (illegal or
malformed actions, bad options) are mapped to 422 with the engine's message as ``detail``.

>>> p = StaleVersion(5, 4)
>>> p.status, p.problem()["version"], p.problem()["type"]
(409, 5, '/problems/stale-version')
"""

from __future__ import annotations

import math
from typing import Any

from bigtop.core.errors import BigtopError


class Problem(BigtopError):
    """A request the server refuses; nothing was changed."""

    status = 400
    slug = "bad-request"
    title = "Bad request"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    def problem(self) -> dict[str, Any]:
        return {"type": f"/problems/{self.slug}", "title": self.title, "status": self.status,
                "detail": self.detail, **self.extra}


class BadRequest(Problem):
    status, slug, title = 400, "bad-request", "Bad request"


class TokenInUrl(BadRequest):
    slug = "token-in-url"


class Unauthorized(Problem):
    status, slug, title = 401, "seat-token-required", "A seat token is required"


class NoPlayerKey(Unauthorized):
    slug, title = "player-key-required", "A player key is required"


class Forbidden(Problem):
    status, slug, title = 403, "wrong-token", "This token is not a seat at this table"


class NotHost(Forbidden):
    slug, title = "not-host", "Only the table's host may do this"


class InviteUsed(Forbidden):
    slug, title = "invite-used", "This invite link was opened already"


class CrossSite(Forbidden):
    status, slug, title = 403, "cross-site", "A write from another site's page"


class Blocked(Forbidden):
    status, slug, title = 403, "blocked", "Blocked by this server's host"


class NotFound(Problem):
    status, slug, title = 404, "not-found", "Not found"


class Conflict(Problem):
    status, slug, title = 409, "conflict", "Conflict"


class NotYourTurn(Conflict):
    slug, title = "not-your-turn", "It is not your turn"


class StaleVersion(Conflict):
    slug, title = "stale-version", "The table has moved on"

    def __init__(self, current: int, sent: int) -> None:
        super().__init__(f"the table is at version {current}, the move was for version {sent}",
                         version=current)


class TimeRanOut(Conflict):
    slug, title = "time-ran-out", "Your time ran out"


class GameOver(Conflict):
    slug, title = "game-over", "The game is over"


class Waiting(Conflict):
    """The game has not started: a person's seat is still empty (``waiting_for``)."""

    slug, title = "waiting", "Waiting for players to arrive"


class Gone(Problem):
    status, slug, title = 410, "table-expired", "The table expired"


class TooLarge(Problem):
    status, slug, title = 413, "too-large", "Request too large"


class Unprocessable(Problem):
    status, slug, title = 422, "invalid", "Invalid request"


class IllegalMove(Unprocessable):
    slug, title = "illegal-action", "Illegal action"


class TooManyRequests(Problem):
    """429; ``retry_after``: whole seconds until the client may try again (the answer's
    ``Retry-After`` header and ``retry_after`` member)."""

    status, slug, title = 429, "rate-limited", "Too many requests"

    def __init__(self, detail: str, *, retry_after: float | None = None) -> None:
        extra = {} if retry_after is None else {"retry_after": max(1, math.ceil(retry_after))}
        super().__init__(detail, **extra)

    @property
    def headers(self) -> dict[str, str]:
        seconds = self.extra.get("retry_after")
        return {} if seconds is None else {"Retry-After": str(seconds)}


class Unavailable(Problem):
    status, slug, title = 503, "unavailable", "Server full"


def invalid(found: list[Any]) -> Problem:
    """The problem of input its schema refused, from the validation errors pydantic (or
    FastAPI for a request) found, the first of them: malformed JSON is a 400, anything
    else a 422 naming where (``choice.index: …``; a request's ``body`` left out)."""
    first: dict[str, Any] = found[0] if found else {}
    if first.get("type") == "json_invalid":
        return BadRequest(f"malformed JSON: {first.get('ctx', {}).get('error', '?')}")
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    msg = first.get("msg", "invalid request")
    return Unprocessable(f"{where}: {msg}" if where else msg)
