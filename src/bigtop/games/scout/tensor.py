"""SCOUT's observation tensor for learning code (OpenSpiel, PettingZoo): named pieces, each
a numpy view into one flat array, computed from ``state.observation(player)`` only.

>>> from bigtop import new_state
>>> s = new_state("scout", players=3, seed=1)
>>> layout = ScoutLayout(s.game)
>>> t = layout.tensor(s, 0)
>>> t.shape, float(t[:3].sum())   # "seat" is a one-hot of the observing player
((3046,), 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence

from bigtop.core.errors import BigtopError
from bigtop.core.game import Game, State
from bigtop.core.tensor import FloatView, TensorLayout, Views
from bigtop.games.scout.position import PHASES, ScoutTable


def _one_hot(view: FloatView, index: object) -> None:
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < view.shape[0]:
        view[index] = 1.0


def _card(view: FloatView, card: Sequence[int] | None) -> None:
    """A SCOUT card [top, bottom] as two one-hots of 10 (values 1..10)."""
    if card is not None:
        view[card[0] - 1] = 1.0
        view[10 + card[1] - 1] = 1.0


class ScoutLayout(TensorLayout):
    """SCOUT's observation tensor (n players, H = the largest possible hand = n × hand size).

    ========== ============ ===============================================================
    piece      shape        meaning
    ========== ============ ===============================================================
    seat       (n,)         one-hot: the observing player
    to_act     (n,)         one-hot: the player to act (all zero when the game is over)
    start      (n,)         one-hot: the round's starting player
    phase      (3,)         one-hot: turn / insert (a scouted card to place) / show (after
                            Scout & Show)
    progress   (3,)         round index (0-based), rounds to play, 1 if the game is over
    hands      (n, H, 21)   per player and hand position: top number one-hot (1..10), bottom
                            number one-hot, then 1 if a card is there but its face is hidden
                            (another player's card never scouted from the table)
    hand_sizes (n,)         cards in each hand
    active     (H, 20)      the active set, left to right: top and bottom one-hots
    owner      (n + 1,)     one-hot: the active set's owner; the last entry = no active set
    captured   (n,)         captured cards per player (this round)
    scout      (n,)         scout tokens per player (this round)
    show_token (n,)         1 if that player's Scout & Show token is unused
    turned     (n,)         1 if that player's chance to turn the hand is used or gone
    pending    (20,)        the scouted card waiting to be inserted (top, bottom one-hots)
    unused     (1,)         cards left out of the deal
    totals     (n,)         total scores so far
    ========== ============ ===============================================================

    Seats are absolute (player 0 is entry 0), as in the bigtop observation.
    """

    bound = 1000.0

    def __init__(self, game: Game) -> None:
        if not isinstance(game, ScoutTable):  # the record pairs the layout with its game
            raise BigtopError(f"no SCOUT tensor for {game.title}")
        self.game: ScoutTable = game
        self.n: int = game.num_players
        self.max_hand: int = game.max_hand

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        n, h = self.n, self.max_hand
        return [
            ("seat", (n,)), ("to_act", (n,)), ("start", (n,)), ("phase", (3,)),
            ("progress", (3,)), ("hands", (n, h, 21)), ("hand_sizes", (n,)),
            ("active", (h, 20)), ("owner", (n + 1,)), ("captured", (n,)), ("scout", (n,)),
            ("show_token", (n,)), ("turned", (n,)), ("pending", (20,)), ("unused", (1,)),
            ("totals", (n,)),
        ]

    def fill(self, state: State, player: int, out: Views) -> None:
        obs = state.observation(player)
        _one_hot(out["seat"], obs["player"])
        _one_hot(out["to_act"], obs["to_act"])
        _one_hot(out["start"], obs["start_player"])
        phase = PHASES.index(obs["phase"])
        out["phase"][phase] = 1.0
        out["progress"][:] = (obs["round"], obs["rounds"], 1.0 if obs["finished"] else 0.0)
        hands = out["hands"]
        for q, hand in enumerate(obs["hands"]):
            for i, card in enumerate(hand):
                if card is None:
                    hands[q, i, 20] = 1.0
                else:
                    _card(hands[q, i], card)
        out["hand_sizes"][:] = obs["hand_sizes"]
        for i, card in enumerate(obs["active"]):
            _card(out["active"][i], card)
        owner = obs["active_owner"]
        out["owner"][self.n if owner is None else owner] = 1.0
        out["captured"][:] = obs["captured"]
        out["scout"][:] = obs["scout_tokens"]
        out["show_token"][:] = [1.0 if t else 0.0 for t in obs["show_tokens"]]
        out["turned"][:] = [1.0 if t else 0.0 for t in obs["hand_decided"]]
        _card(out["pending"], obs["pending"])
        out["unused"][0] = obs["unused"]
        out["totals"][:] = obs["totals"]
