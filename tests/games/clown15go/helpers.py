"""Build hand-written Clown 15 Go positions for tests (cards as text, e.g. "R7")."""

from __future__ import annotations

from typing import Any

from bigtop.core.registry import new_game
from bigtop.games.clown15go.rules import Clown15GoGame, Clown15GoState


def position(players: int = 2, *, closed: list[list[str]], open: list[list[str]] | None = None,
             rows: list[list[str]] | None = None, pending: str | None = None,
             options: dict[str, Any] | None = None, filler: int | None = None,
             **extra: Any) -> Clown15GoState:
    """A validated state. Cards of the deck not mentioned go to the bottom of player
    ``filler``'s closed pile (turned over last); without a filler every card must be listed.
    Options default to a two-set deck (R and O, 30 cards)."""
    opts = {"sets": 2, **(options or {})}
    game = new_game("clown-15-go", players, opts)
    assert isinstance(game, Clown15GoGame)
    closed = [list(c) for c in closed]
    used = {c for pile in closed for c in pile} | {c for pile in open or [] for c in pile}
    used |= {c for r in rows or [] for c in r}
    for item in extra.get("completed", []):
        used |= set(item["cards"])
    if pending:
        used.add(pending)
    if filler is not None:
        closed[filler] = [game.deck.text(c) for c in game.deck.cards
                          if game.deck.text(c) not in used] + closed[filler]
    pos: dict[str, Any] = {"closed": closed, "open": open or [[] for _ in range(players)],
                           "rows": rows or [], "pending": pending}
    pos.update(extra)
    state = game.state_from_json({"game": "clown-15-go", "players": players,
                                  "options": game.options.to_json(), "seed": 1,
                                  "position": pos})
    assert isinstance(state, Clown15GoState)
    return state


def kinds(state: Clown15GoState) -> list[str]:
    return [state.describe(a) for a in state.legal_actions()]
