"""Build hand-written SCOUT positions for tests."""

from __future__ import annotations

from typing import Any

from bigtop.core.registry import new_game
from bigtop.games.scout.cards import canonical, deck_for
from bigtop.games.scout.rules import ScoutGame, ScoutState


def position(players: int = 3, *, hands: list[list[tuple[int, int]]],
             active: list[tuple[int, int]] | None = None, owner: int | None = None,
             to_act: int = 0, filler: int = -1, options: dict[str, Any] | None = None,
             **extra: Any) -> ScoutState:
    """A state with the given hands and active set; the deck's remaining cards go to the
    captured pile of player ``filler`` (so counts stay right), or, with two players, out of
    the deal first."""
    game = new_game("scout", players, options or {})
    assert isinstance(game, ScoutGame)
    used = {canonical(c) for h in hands for c in h} | {canonical(c) for c in active or []}
    pending = extra.get("pending")
    if isinstance(pending, dict):  # a scouted card waiting (phase insert) is placed too
        used.add(canonical(tuple(pending["card"])))
    rest = [c for c in deck_for(players) if c not in used]
    unused_count = len(game.deck) - players * game.hand_size
    unused, rest = rest[:unused_count], rest[unused_count:]
    captured: list[list[list[int]]] = [[] for _ in range(players)]
    captured[filler] = [list(c) for c in rest]
    pos: dict[str, Any] = {
        "hands": [[list(c) for c in h] for h in hands],
        "active": [list(c) for c in active or []],
        "active_owner": owner,
        "to_act": to_act,
        "captured": captured,
        "unused": [list(c) for c in unused],
    }
    pos.update(extra)
    state = game.state_from_json({"game": "scout", "players": players,
                                  "options": game.options.to_json(), "seed": 1,
                                  "position": pos})
    assert isinstance(state, ScoutState)
    return state
