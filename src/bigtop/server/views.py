"""What one connection may see of a position: the pure part of every view the server sends.

:func:`seat_view` depends only on ``state.observation(seat)``, the legal actions of that seat
when it is to move (with their describe lines) and the public result, so it is unchanged when
the other seats' hidden information is resampled (tested for every game). Spectators pass
``seat=None``.

>>> from bigtop import new_state
>>> s = new_state("scout", players=3, seed=1)
>>> v = seat_view(s, 0)
>>> v["current_player"], len(v["legal_actions"]) > 0, sorted(v["legal_actions"][0])
(0, True, ['action', 'id', 'index', 'text'])
>>> seat_view(s, 1)["legal_actions"]
[]
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Sequence
from typing import Any

from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError
from bigtop.core.game import State
from bigtop.core.text import named

__all__ = ["action_json", "legal_action_items", "named", "seat_view", "summary"]

ACTION_JSON_CACHE = 4096
"""Distinct actions whose JSON is kept (SCOUT's legal lists draw on a few hundred)."""


def action_json(action: Action) -> dict[str, Any]:
    """``action.to_json()``, made once per distinct action where its class allows (see
    :func:`_json_kept`): the seat to move gets every legal action in every view, and the
    same few actions come back move after move (a frozen action hashes in a sixth of the
    time ``to_json`` takes). The dict is shared by every view that lists the action, as the
    views themselves are shared: never changed.

    >>> from bigtop.games.scout.actions import Show
    >>> action_json(Show(start=0, length=2)) is action_json(Show(start=0, length=2))
    True
    >>> from bigtop.games.tricky_landing.actions import Throw
    >>> action_json(Throw("y7", -0.0, 0.0, 3.0))["x"]
    -0.0
    """
    if _json_kept(type(action)):
        return _kept_json(action)
    return action.to_json()


@functools.lru_cache(maxsize=ACTION_JSON_CACHE)
def _kept_json(action: Action) -> dict[str, Any]:
    return action.to_json()


_KEPT: dict[type[Action], bool] = {}


def _json_kept(cls: type[Action]) -> bool:
    """Whether the JSON of ``cls``'s actions may be kept: not when a field holds floats
    (0.0 equals -0.0, so one would be written as the other; and a throw's floats seldom
    come back). Worked out once per class."""
    kept = _KEPT.get(cls)
    if kept is None:
        def floats(tp: Any) -> bool:
            return tp is float or any(floats(arg) for arg in typing.get_args(tp))

        hints = typing.get_type_hints(cls)
        kept = _KEPT[cls] = not any(floats(hints[f.name]) for f in dataclasses.fields(cls))
    return kept


def legal_action_items(state: State, seat: int) -> list[dict[str, Any]]:
    """Each legal action of ``seat`` (to move) with its list index, integer encoding, JSON
    and describe line as told to that seat (a Tricky Landing throw names one's own card)."""
    items = []
    for i, action in enumerate(state.legal_actions()):
        try:
            code: int | None = state.game.action_to_int(action)
        except (BigtopError, KeyError, IndexError):
            code = None
        items.append({"index": i, "id": code, "action": action_json(action),
                      "text": state.describe(action, seat)})
    return items


def seat_view(state: State, seat: int | None, *, may_move: bool = True) -> dict[str, Any]:
    """``observation(seat)``, whose turn it is, the seat's legal actions when it is to move
    (and ``may_move``: false while a bot plays the seat) and the result once the game is over.
    """
    current = state.current_player()
    terminal = state.is_terminal()
    to_move = seat is not None and current == seat and may_move and not terminal
    return {
        "current_player": current,
        "observation": state.observation(seat),
        "legal_actions": legal_action_items(state, current) if to_move else [],
        "result": _plain(state.result()) if terminal else None,
    }


def summary(result: Any, names: Sequence[str]) -> dict[str, Any] | None:
    """The final summary of a finished game: each seat's name, points in every round (the
    game's ``round_scores``, or the games of a So ein Zirkus tournament; a game of one
    round: its scores), total and place.

    >>> summary({"scores": [5.0, 7.0], "ranking": [2, 1], "winners": [1],
    ...          "round_scores": [[2, 3], [3, 4]]}, ["Anna", "P1"])["players"][1]
    {'seat': 1, 'name': 'P1', 'rounds': [3, 4], 'total': 7.0, 'place': 1}
    >>> summary({"scores": [11.0, 7.0], "ranking": [1, 2], "games": [{"scores": [11, 7]}]},
    ...         ["Anna", "Ben"])["players"][0]["rounds"]
    [11]
    """
    if not isinstance(result, dict) or "scores" not in result:
        return None
    scores = result["scores"]
    games = result.get("games")  # So ein Zirkus: a tournament's games are its rounds
    rounds = result.get("round_scores") or (
        [g["scores"] for g in games] if isinstance(games, list) and games else [scores])
    ranking = result.get("ranking") or [None] * len(scores)
    return {"rounds": len(rounds),
            "players": [{"seat": k, "name": names[k], "rounds": [r[k] for r in rounds],
                         "total": scores[k], "place": ranking[k]}
                        for k in range(len(scores))]}


def _plain(value: Any) -> Any:
    """JSON-ready copy (tuples become lists) so the view compares equal after a round trip."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
