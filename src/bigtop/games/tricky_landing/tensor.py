"""A fixed-size observation tensor for learning code (OpenSpiel, PettingZoo), computed from
``state.observation(player)`` only. Seats are relative to the observer (0 = the observer,
1 = the next player clockwise, …). The same 468 floats for every player count:

====================  =====  ==============================================================
piece                 size   content
====================  =====  ==============================================================
hand                  50     1 per card in the observer's hand (cards in ``ALL_CARDS`` order)
seen                  50     1 per card seen this round outside the hand (face up anywhere,
                             or known face-down: the observer's own throws)
trump                 6      one-hot trump suit (y p g b o) or none
table                 5×64   the cards of the current trick in landing order: present,
                             thrower (relative seat, 6), card (50) or unknown (1), x/30,
                             y/30 (cm, in the observer's frame: x to their right, y away
                             from them, as their aims), cos 2θ, sin 2θ (θ relative to the
                             observer; a card is symmetric under 180°), face down, touches
                             the target directly
seats                 6×6    per relative seat: hand size/12, face-down pile/24, face-up
                             pile/12, total score/50, holds the first player card, to act
progress              6      round/rounds, trick/tricks per round, player count one-hot
                             (3, 4, 5, 6)
====================  =====  ==============================================================

>>> from bigtop import new_state
>>> s = new_state("tricky-landing", players=4, seed=1)
>>> t = s.game.observation_tensor(s, 0)
>>> len(t), sum(t[:50])
(468, 11.0)
"""

from __future__ import annotations

import math
from typing import Any

from bigtop.core.errors import BigtopError
from bigtop.core.game import Game
from bigtop.core.tensor import FlatLayout
from bigtop.games.tricky_landing.cards import ALL_CARDS, SUITS
from bigtop.games.tricky_landing.physics import to_thrower, touches_target_card
from bigtop.games.tricky_landing.position import TrickyLandingTable

_CARD = {c: i for i, c in enumerate(ALL_CARDS)}
_NCARDS = len(ALL_CARDS)
_SEATS = 6
_SLOTS = 5
_SLOT = 1 + _SEATS + _NCARDS + 1 + 4 + 1 + 1
TENSOR_SIZE = 2 * _NCARDS + 6 + _SLOTS * _SLOT + _SEATS * 6 + 6


def encode(game: TrickyLandingTable, obs: dict[str, Any]) -> list[float]:
    """The tensor of one observation (``obs["player"]`` must be a player)."""
    n = game.num_players
    me: int = obs["player"]
    out = [0.0] * TENSOR_SIZE

    def rel(q: int) -> int:
        return (q - me) % n

    for c in obs["hand"] or ():
        out[_CARD[c]] = 1.0
    base = _NCARDS
    seen: list[str | None] = []
    seen += [c["card"] for c in obs["table"]]
    for pile in obs["won"]:
        seen += pile
    for pile in obs["penalty"]:
        seen += pile
    seen += obs["discard"]
    if obs["trump_card"] is not None:
        seen.append(obs["trump_card"])
    for c in seen:
        if c is not None:
            out[base + _CARD[c]] = 1.0
    base += _NCARDS
    trump = obs["trump_suit"]
    out[base + (SUITS.index(trump) if trump is not None else 5)] = 1.0
    base += 6
    model = game.model
    seat = game.seats[me]
    for k, c in enumerate(obs["table"][:_SLOTS]):
        at = base + k * _SLOT
        out[at] = 1.0
        out[at + 1 + rel(c["player"])] = 1.0
        at += 1 + _SEATS
        if c["card"] is None:
            out[at + _NCARDS] = 1.0
        else:
            out[at + _CARD[c["card"]]] = 1.0
        at += _NCARDS + 1
        x, y, rot = c["x"], c["y"], c["rotation"]
        # The observer's frame, the one their aims use: the bottom seat's is the table's.
        rx, ry = to_thrower(seat, x, y)
        a = math.radians(2.0 * (rot - seat - 90.0))
        out[at:at + 4] = [rx / 30.0, ry / 30.0, math.cos(a), math.sin(a)]
        out[at + 4] = 1.0 if c["face"] == "down" else 0.0
        out[at + 5] = 1.0 if touches_target_card(model, (x, y, rot)) else 0.0
    base += _SLOTS * _SLOT
    for q in range(n):
        at = base + rel(q) * 6
        out[at] = obs["hand_sizes"][q] / 12.0
        out[at + 1] = len(obs["won"][q]) / 24.0
        out[at + 2] = len(obs["penalty"][q]) / 12.0
        out[at + 3] = obs["totals"][q] / 50.0
        out[at + 4] = 1.0 if obs["leader"] == q else 0.0
        out[at + 5] = 1.0 if obs["to_act"] == q else 0.0
    base += _SEATS * 6
    out[base] = obs["round"] / obs["rounds"]
    out[base + 1] = obs["trick"] / obs["tricks_per_round"]
    out[base + 2 + (n - 3)] = 1.0
    return out


class TrickyLandingLayout(FlatLayout):
    """The tensor above as named views of one flat array: ``table`` is a table of 5 landing
    slots, ``seats`` one of 6 relative seats (the game's capability record declares it).

    >>> from bigtop import new_state
    >>> s = new_state("tricky-landing", players=4, seed=1)
    >>> layout = TrickyLandingLayout(s.game)
    >>> views = layout.views(layout.tensor(s, 0))
    >>> views["table"].shape, views["seats"].shape, float(views["hand"].sum())
    ((5, 64), (6, 6), 11.0)
    """

    def __init__(self, game: Game) -> None:
        if not isinstance(game, TrickyLandingTable):  # the record pairs the layout with its game
            raise BigtopError(f"no Tricky Landing tensor for {game.title}")
        super().__init__({"hand": _NCARDS, "seen": _NCARDS, "trump": 6,
                          "table": _SLOTS * _SLOT, "seats": _SEATS * 6, "progress": 6},
                         {"table": (_SLOTS, _SLOT), "seats": (_SEATS, 6)})
        self.game: TrickyLandingTable = game

    def values(self, obs: dict[str, Any]) -> list[float]:
        return encode(self.game, obs)
