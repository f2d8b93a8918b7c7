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

from typing import Any

from bigtop.core.errors import BigtopError
from bigtop.core.game import State


def legal_action_items(state: State, seat: int) -> list[dict[str, Any]]:
    """Each legal action of ``seat`` (to move) with its list index, integer encoding, JSON
    and describe line as told to that seat (a Tricky Landing throw names one's own card)."""
    items = []
    for i, action in enumerate(state.legal_actions()):
        try:
            code: int | None = state.game.action_to_int(action)
        except (BigtopError, KeyError, IndexError):
            code = None
        items.append({"index": i, "id": code, "action": action.to_json(),
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


def _plain(value: Any) -> Any:
    """JSON-ready copy (tuples become lists) so the view compares equal after a round trip."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
