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


def action_numbers(game: Game, actions: Sequence[Action]) -> list[int]:
    """The integer encoding of each of ``actions`` (by identity where it can: see
    :meth:`~bigtop.core.actions.ActionTable.numbers`).

    >>> from bigtop import new_state
    >>> s = new_state("scout", players=3, seed=1)
    >>> legal = s.legal_actions()
    >>> action_numbers(s.game, legal) == [s.game.action_to_int(a) for a in legal]
    True
    """
    return game.action_table.numbers(actions)
