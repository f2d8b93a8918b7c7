"""What both adapters share: returns from a finished game, names, compact JSON.

Returns are defined from bigtop's :meth:`~bigtop.core.game.State.ranking` (so a game whose
lowest score wins, or whose first player out wins, is scored the way its rulebook says), not
from raw scores, whose ranges differ from game to game:

    return(p) = (number of players p finished ahead of - number who finished ahead of p)
                / (players - 1)

A 2-player win is +1, a loss -1, a tie 0; in every game the returns lie in [-1, 1] and sum to
0 (OpenSpiel's ZERO_SUM utility).

>>> ranking_returns([1, 2, 2, 4])
[1.0, 0.0, 0.0, -1.0]
>>> ranking_returns([2, 1])
[-1.0, 1.0]
>>> openspiel_name("so-ein-zirkus")
'bigtop_so_ein_zirkus'
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bigtop.core.actions import Action
from bigtop.core.game import Game, State

#: The four games of the issue; adapters register whichever of them the registry has.
GAMES = ("scout", "clown-15-go", "so-ein-zirkus", "tricky-landing")


def ranking_returns(ranking: Sequence[int]) -> list[float]:
    """Zero-sum returns in [-1, 1] from places (1 = best, ties share a place)."""
    n = len(ranking)
    if n < 2:
        return [0.0] * n
    out = []
    for p in range(n):
        ahead = sum(1 for q in range(n) if q != p and ranking[p] < ranking[q])
        behind = sum(1 for q in range(n) if q != p and ranking[q] < ranking[p])
        out.append((ahead - behind) / (n - 1))
    return out


def state_returns(state: State) -> list[float]:
    """Returns of a finished game (zeros before the end)."""
    if not state.is_terminal():
        return [0.0] * state.game.num_players
    return ranking_returns(state.ranking())


def compact_json(obj: object) -> str:
    """Canonical one-line JSON (sorted keys): equal objects give equal strings."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def openspiel_name(game: str) -> str:
    """``bigtop_`` + the registry name with dashes as underscores."""
    return "bigtop_" + game.replace("-", "_")


_ACTION_IDS: dict[int, tuple[Game, dict[int, int]]] = {}


def action_ids(game: Game) -> dict[int, int]:
    """``id(action) -> action number`` for the interned actions of ``game``'s action table
    (one dict per game object). Legal lists hand out those very objects, so numbering a list
    hashes no dataclass. The table keeps its actions alive and this cache keeps the game, so
    the ids stay valid."""
    entry = _ACTION_IDS.get(id(game))
    if entry is None or entry[0] is not game:
        entry = (game, {id(a): i for i, a in enumerate(game.action_table.actions)})
        _ACTION_IDS[id(game)] = entry
    return entry[1]


def action_numbers(game: Game, actions: Sequence[Action],
                   ids: dict[int, int] | None = None) -> list[int]:
    """The integer encoding of each of ``actions``, by identity where it can (``ids`` from
    :func:`action_ids`), else through :meth:`~bigtop.core.game.Game.action_to_int`.

    >>> from bigtop import new_state
    >>> s = new_state("scout", players=3, seed=1)
    >>> legal = s.legal_actions()
    >>> action_numbers(s.game, legal) == [s.game.action_to_int(a) for a in legal]
    True
    """
    if ids is None:
        ids = action_ids(game)
    try:
        return [ids[id(a)] for a in actions]
    except KeyError:  # an equal action object that is not the table's own
        return [game.action_to_int(a) for a in actions]
