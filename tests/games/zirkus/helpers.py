"""Helpers for the So ein Zirkus tests: hand-written positions."""

from __future__ import annotations

from typing import Any

from bigtop.core.game import State
from bigtop.games.zirkus import ZirkusGame, ZirkusState


def position(game: ZirkusGame, **pos: Any) -> dict[str, Any]:
    """The JSON form of a state whose position is ``pos`` (missing keys take defaults)."""
    return {"game": game.name, "players": game.num_players, "options": game.options.to_json(),
            "seed": 0, "position": pos}


def load(game: ZirkusGame, **pos: Any) -> ZirkusState:
    s = game.state_from_json(position(game, **pos))
    assert isinstance(s, ZirkusState)
    return s


def clowns(*spec: tuple[str | None, list[str]]) -> list[dict[str, Any]]:
    return [{"field": f, "balls": b} for f, b in spec]


def kinds(state: State) -> list[str]:
    return [a.kind for a in state.legal_actions()]
