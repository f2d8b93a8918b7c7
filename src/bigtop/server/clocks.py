"""Time controls: a limit per move, a game clock with an increment, or both (the server is
the only timekeeper; the table master stores each turn's deadline with the move that starts
it). Pure arithmetic here; who may do what on a time-out is the master's.

>>> c = Clock(per_move=60.0, game=600.0, increment=5.0)
>>> c.allowance(30.0), c.allowance(600.0), c.allowance(None)
(30.0, 60.0, 60.0)
>>> c.left_after(600.0, used=12.5)
592.5
>>> Clock(per_move=60.0).left_after(None, used=12.5) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bigtop.server import errors
from bigtop.server.settings import Limits

BOT_TAKES_OVER, LOSES = "bot", "lose"
ON_TIMEOUT = (BOT_TAKES_OVER, LOSES)


@dataclass(frozen=True)
class Clock:
    """A table's time control (seconds; None: no such limit)."""

    per_move: float | None = None
    game: float | None = None
    increment: float = 0.0

    def allowance(self, left: float | None) -> float:
        """The seconds a turn may take with ``left`` on the seat's game clock (None: none)."""
        limits = [x for x in (self.per_move, left if self.game is not None else None)
                  if x is not None]
        return max(0.0, min(limits)) if limits else math.inf

    def left_after(self, left: float | None, used: float) -> float | None:
        """The game clock after a move that took ``used`` seconds (the increment added)."""
        if self.game is None or left is None:
            return None
        return max(0.0, left - used) + self.increment

    def to_json(self) -> dict[str, Any]:
        return {"per_move_seconds": self.per_move, "game_seconds": self.game,
                "increment_seconds": self.increment}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Clock:
        return cls(data.get("per_move_seconds"), data.get("game_seconds"),
                   float(data.get("increment_seconds") or 0.0))


def check_clock(raw: Mapping[str, Any] | None, on_timeout: str, limits: Limits) -> Clock | None:
    """A table's clock from its request (None: none), within ``limits``; else 422.

    >>> lim = Limits()
    >>> check_clock({"per_move_seconds": 60}, "bot", lim)
    Clock(per_move=60.0, game=None, increment=0.0)
    >>> check_clock({"increment_seconds": 5}, "bot", lim)
    Traceback (most recent call last):
    ...
    bigtop.server.errors.Unprocessable: a clock needs per_move_seconds or game_seconds
    """
    if on_timeout not in ON_TIMEOUT:
        raise errors.Unprocessable(f"on_timeout must be one of {', '.join(ON_TIMEOUT)}")
    if raw is None:
        return None
    per_move, game = raw.get("per_move_seconds"), raw.get("game_seconds")
    increment = raw.get("increment_seconds") or 0.0
    if per_move is None and game is None:
        raise errors.Unprocessable("a clock needs per_move_seconds or game_seconds")
    if increment and game is None:
        raise errors.Unprocessable("increment_seconds is added to a game clock: give "
                                   "game_seconds too")
    low = limits.min_clock_seconds
    for name, value, high in (("per_move_seconds", per_move, limits.max_per_move_seconds),
                              ("game_seconds", game, limits.max_game_seconds)):
        if value is not None and not low <= value <= high:
            raise errors.Unprocessable(f"clock.{name} must be {low:g} to {high:g} seconds")
    if not 0 <= increment <= limits.max_increment_seconds:
        raise errors.Unprocessable(f"clock.increment_seconds must be 0 to "
                                   f"{limits.max_increment_seconds:g} seconds")
    return Clock(None if per_move is None else float(per_move),
                 None if game is None else float(game), float(increment))


LOSS_KEYS = {"time": "timed_out", "resigned": "resigned"}
"""How a game ended that one seat lost before its end (its ``ending``), and the result's key
naming that seat."""


def time_out_result(scores: list[float], seat: int, ending: str = "time") -> dict[str, Any]:
    """The result of a game lost on time by ``seat`` (or, ``ending="resigned"``, given up by
    it): it places last, alone; every other player shares first place (the same in every
    game; docs/server.md, Clocks, says why). ``scores`` (the game's so far) are kept for the
    record and rank nobody.

    >>> time_out_result([3.0, 9.0, 1.0], 1)["ranking"]
    [1, 3, 1]
    >>> time_out_result([3.0, 9.0], 0)["winners"]
    [1]
    >>> time_out_result([3.0, 9.0], 1, "resigned")["resigned"]
    1
    """
    n = len(scores)
    ranking = [n if p == seat else 1 for p in range(n)]
    return {"ending": ending, LOSS_KEYS[ending]: seat, "ranking": ranking,
            "winners": [p for p in range(n) if p != seat], "scores": list(scores)}
