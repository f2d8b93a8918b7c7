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

Each piece is a named view into the one flat array (:class:`TrickyLandingLayout`, the layout
the game's capability record declares), ``table`` a table of 5 landing slots and ``seats`` one
of 6 seats; ``Game.observation_tensor(state, player)`` gives the same entries as Python
floats.

>>> from bigtop import new_state
>>> s = new_state("tricky-landing", players=4, seed=1)
>>> t = s.game.observation_tensor(s, 0)
>>> len(t), sum(t[:50])
(468, 11.0)
"""

from __future__ import annotations

import math

from bigtop.core.errors import BigtopError
from bigtop.core.game import Game, State
from bigtop.core.tensor import TensorLayout, Views, observer
from bigtop.games.tricky_landing.cards import ALL_CARDS, SUITS
from bigtop.games.tricky_landing.physics import to_thrower, touches_target_card
from bigtop.games.tricky_landing.position import TrickyLandingTable

_CARD = {c: i for i, c in enumerate(ALL_CARDS)}
_NCARDS = len(ALL_CARDS)
_SEATS = 6
_SLOTS = 5
# A landing slot's row: present, thrower (relative seat), card (or unknown), then x, y,
# cos 2θ, sin 2θ, face down, touches the target.
_PRESENT = 0
_THROWER = _PRESENT + 1
_CARD_AT = _THROWER + _SEATS
_PLACE = _CARD_AT + _NCARDS + 1
_FACE_DOWN = _PLACE + 4
_TOUCHES = _FACE_DOWN + 1
_SLOT = _TOUCHES + 1


class TrickyLandingLayout(TensorLayout):
    """The tensor above, piece by piece: ``table`` is a table of 5 landing slots, ``seats``
    one of 6 relative seats.

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
        self.game: TrickyLandingTable = game

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("hand", (_NCARDS,)), ("seen", (_NCARDS,)), ("trump", (6,)),
                ("table", (_SLOTS, _SLOT)), ("seats", (_SEATS, 6)), ("progress", (6,))]

    def fill(self, state: State, player: int, out: Views) -> None:
        obs = state.observation(player)
        me = observer(obs)
        game = self.game
        n = game.num_players

        hand = out["hand"]
        for c in obs["hand"] or ():
            hand[_CARD[c]] = 1.0
        seen: list[str | None] = [c["card"] for c in obs["table"]]
        for pile in obs["won"]:
            seen += pile
        for pile in obs["penalty"]:
            seen += pile
        seen += obs["discard"]
        seen.append(obs["trump_card"])
        out["seen"][[_CARD[c] for c in seen if c is not None]] = 1.0
        trump = obs["trump_suit"]
        out["trump"][SUITS.index(trump) if trump is not None else 5] = 1.0
        model = game.model
        seat = game.seats[me]
        for row, c in zip(out["table"], obs["table"][:_SLOTS], strict=False):
            row[_PRESENT] = 1.0
            row[_THROWER + (c["player"] - me) % n] = 1.0
            row[_CARD_AT + (_NCARDS if c["card"] is None else _CARD[c["card"]])] = 1.0
            x, y, rot = c["x"], c["y"], c["rotation"]
            # The observer's frame, the one their aims use: the bottom seat's is the table's.
            rx, ry = to_thrower(seat, x, y)
            a = math.radians(2.0 * (rot - seat - 90.0))
            row[_PLACE:_FACE_DOWN] = (rx / 30.0, ry / 30.0, math.cos(a), math.sin(a))
            row[_FACE_DOWN] = 1.0 if c["face"] == "down" else 0.0
            row[_TOUCHES] = 1.0 if touches_target_card(model, (x, y, rot)) else 0.0
        seats = out["seats"]
        for q in range(n):
            seats[(q - me) % n] = (obs["hand_sizes"][q] / 12.0, len(obs["won"][q]) / 24.0,
                                   len(obs["penalty"][q]) / 12.0, obs["totals"][q] / 50.0,
                                   1.0 if obs["leader"] == q else 0.0,
                                   1.0 if obs["to_act"] == q else 0.0)
        progress = out["progress"]
        progress[:2] = (obs["round"] / obs["rounds"], obs["trick"] / obs["tricks_per_round"])
        progress[2 + (n - 3)] = 1.0
