"""A fixed-size observation tensor for learning code (OpenSpiel, PettingZoo), computed from
``state.observation(player)`` only (ruling G4: every player sees the same; a renewed closed
pile enters as its numbers, not its order). Seats are relative to the observer (0 = the
observer, 1 = the next player clockwise, …; seats beyond the player count stay zero, so the
size does not depend on the player count). The size depends on the deck only: with
``K`` = the number of sets (colours) and ``C = 15 K`` cards it is ``K² + 40 K + 570`` floats
(the default 8 sets: 954; 2 sets: 654). Counts are scaled so that they lie in [0, 1]
(points, /150, may exceed 1).

====================  =========  ========================================================
piece                 size       content
====================  =========  ========================================================
phase                 3          one-hot: turn (start of a turn: rule 1 / 3 / G2 pass) /
                                 card (a turned card to place) / over
pending               15 + K     the turned card (phase card): number one-hot 1..15,
                                 colour one-hot (the deck's colour order); else zero
rows                  K×(16+K)   per middle-row slot, oldest row first (the row index of
                                 the actions): top number one-hot 1..15 (= the row's
                                 length; all zero if there is no such row); with the
                                 points rule: 1 if the row is one colour so far, then
                                 that colour's one-hot (K)
row_tops              15         rows whose top is 1..15, /K
unseen                C          1 per card in the union of the never-renewed closed
                                 piles (``unseen``), in deck order (colour × 15 +
                                 number − 1)
unseen_numbers        15         unseen cards of each number 1..15, /K
seats                 8×(62+K)   per relative seat: present, to act, out, going-out
                                 place one-hot (8), closed pile/C, open pile/C, cards
                                 left/C, closed pile renewed, open top number one-hot
                                 (15), open top colour one-hot (K), open pile's numbers
                                 (15, /K), renewed closed pile's numbers (15, /K; zero
                                 if never renewed), points/150, rows completed/K
options               9          open_pile_first, own_pile, borrowing, points,
                                 placing = voluntary, recycle = shuffle,
                                 last_card = stays, borrowing_when = placing,
                                 one_on_pile
players               7          player count one-hot (2..8)
progress              10         turns/max_turns, quiet turns/(stall_rounds × players
                                 still in), pass streak/players still in, placed this
                                 turn, stale recycle, completed rows/K, end reason
                                 one-hot (went-out, all-out, stall, turn-limit)
====================  =========  ========================================================

Each piece is a named view into the one flat array (:class:`Clown15GoLayout`, the layout the
game's capability record declares), ``rows`` a table of K rows and ``seats`` one of 8 seats;
``Game.observation_tensor(state, player)`` gives the same entries as Python floats.

>>> from bigtop import new_state
>>> s = new_state("clown-15-go", players=2, seed=3)
>>> t = s.game.observation_tensor(s, 0)
>>> len(t), s.game.observation_tensor_shape()
(954, (954,))
>>> t[:3], t[3 + 1], t[3 + 15 + 2]   # phase card; the pending Y2: number 2, colour Y
([0.0, 1.0, 0.0], 1.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Iterable

from bigtop.core.errors import BigtopError
from bigtop.core.game import Game, State
from bigtop.core.tensor import TensorLayout, Views, observer
from bigtop.games.clown15go.cards import HIGHEST, colour, number
from bigtop.games.clown15go.position import PHASES, Clown15GoTable

SEATS = 8
"""Clown15GoGame.max_players: the same size for every player count."""
_END_REASONS = ("went-out", "all-out", "stall", "turn-limit")
_POINTS_SCALE = 150.0  # one completed one-colour row
_OPTIONS = 9
_PROGRESS = 6 + len(_END_REASONS)
# A seat's row, in the table's order: present, to act, out, the going-out place (8), then
# closed pile, open pile, cards left, renewed; the open top (15 + K); the rest follow K.
_PRESENT, _TO_ACT, _OUT, _PLACE = 0, 1, 2, 3
_PILES = _PLACE + SEATS
_OPEN_TOP = _PILES + 4


class Clown15GoLayout(TensorLayout):
    """The tensor above, piece by piece (``rows`` is a table of K rows, ``seats`` one of 8
    relative seats of ``62 + K`` floats).

    >>> from bigtop import new_state
    >>> s = new_state("clown-15-go", players=2, seed=3)
    >>> layout = Clown15GoLayout(s.game)
    >>> views = layout.views(layout.tensor(s, 0))
    >>> views["seats"].shape, views["phase"].tolist()
    ((8, 70), [0.0, 1.0, 0.0])
    """

    def __init__(self, game: Game) -> None:
        if not isinstance(game, Clown15GoTable):  # the record pairs the layout with its game
            raise BigtopError(f"no Clown 15 Go tensor for {game.title}")
        self.game: Clown15GoTable = game
        # The observation's card texts, looked up directly (it names cards of this deck only).
        self._codes: dict[str, int] = {game.deck.text(c): c for c in game.deck.cards}
        k: int = game.options.sets
        self.sets: int = k
        self._open_numbers: int = _OPEN_TOP + HIGHEST + k
        self._renewed_numbers: int = self._open_numbers + HIGHEST
        self._points: int = self._renewed_numbers + HIGHEST
        self.seat_size: int = self._points + 2
        """Floats per relative seat: ``62 + K``."""

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        k = self.sets
        return [
            ("phase", (3,)), ("pending", (HIGHEST + k,)), ("rows", (k, HIGHEST + 1 + k)),
            ("row_tops", (HIGHEST,)), ("unseen", (HIGHEST * k,)), ("unseen_numbers", (HIGHEST,)),
            ("seats", (SEATS, self.seat_size)), ("options", (_OPTIONS,)),
            ("players", (SEATS - 1,)), ("progress", (_PROGRESS,)),
        ]

    def _numbers(self, texts: Iterable[str]) -> list[float]:
        """How many of the cards have each number 1..15, each counted ``1 / K`` (summed in
        order, as Python floats: ``fill`` writes the sums once)."""
        out = [0.0] * HIGHEST
        codes = self._codes
        for t in texts:
            out[codes[t] % HIGHEST] += 1.0 / self.sets
        return out

    def fill(self, state: State, player: int, out: Views) -> None:
        obs = state.observation(player)
        me = observer(obs)
        game = self.game
        n = game.num_players
        opts = game.options
        k = self.sets
        cards = float(HIGHEST * k)
        parse = self._codes.__getitem__

        # phase and the turned card
        out["phase"][PHASES.index(obs["phase"])] = 1.0
        if obs["pending"] is not None:
            c = parse(obs["pending"])
            pending = out["pending"]
            pending[number(c) - 1] = 1.0
            pending[HIGHEST + colour(c)] = 1.0
        # middle rows, in row-index order (rows run 1, 2, 3, …: the top number is the length)
        rows = out["rows"]
        tops = [0.0] * HIGHEST
        for i, texts in enumerate(obs["rows"]):
            top = len(texts)
            rows[i, top - 1] = 1.0
            tops[top - 1] += 1.0 / k
            if opts.points:
                first = colour(parse(texts[0]))
                if all(colour(parse(t)) == first for t in texts):
                    rows[i, HIGHEST] = 1.0
                    rows[i, HIGHEST + 1 + first] = 1.0
        out["row_tops"][:] = tops
        # the unseen cards (the never-renewed closed piles, together), in deck order
        out["unseen"][[parse(t) for t in obs["unseen"]]] = 1.0
        out["unseen_numbers"][:] = self._numbers(obs["unseen"])
        # seats, relative to the observer
        seats = out["seats"]
        to_act = obs["to_act"]
        out_order: list[int] = obs["out_order"]
        completed = [0] * n
        for item in obs["completed"]:
            completed[item["by"]] += 1
        for q, pl in enumerate(obs["players"]):
            seat = seats[(q - me) % n]
            seat[_PRESENT] = 1.0
            if to_act == q:
                seat[_TO_ACT] = 1.0
            if pl["out"]:
                seat[_OUT] = 1.0
                seat[_PLACE + out_order.index(q)] = 1.0
            open_pile = pl["open"]
            renewed = pl["closed_cards"]
            seat[_PILES:_OPEN_TOP] = (pl["closed"] / cards, len(open_pile) / cards,
                                      pl["cards"] / cards, 0.0 if renewed is None else 1.0)
            if open_pile:
                top = parse(open_pile[-1])
                seat[_OPEN_TOP + number(top) - 1] = 1.0
                seat[_OPEN_TOP + HIGHEST + colour(top)] = 1.0
                seat[self._open_numbers:self._renewed_numbers] = self._numbers(open_pile)
            if renewed:
                seat[self._renewed_numbers:self._points] = self._numbers(renewed)
            seat[self._points] = pl["points"] / _POINTS_SCALE
            seat[self._points + 1] = completed[q] / k
        # options, player count
        out["options"][:] = [1.0 if flag else 0.0 for flag in (
            opts.open_pile_first, opts.own_pile, opts.borrowing, opts.points,
            opts.placing == "voluntary", opts.recycle == "shuffle", opts.last_card == "stays",
            opts.borrowing_when == "placing", opts.one_on_pile)]
        out["players"][n - 2] = 1.0
        # progress: the turn counter and G3's stall counters, each by its limit
        progress = out["progress"]
        still_in = max(1, n - len(out_order))
        progress[:6] = (obs["turns"] / opts.max_turns,
                        obs["quiet_turns"] / (opts.stall_rounds * still_in),
                        obs["pass_streak"] / still_in,
                        1.0 if obs["placed_this_turn"] else 0.0,
                        1.0 if obs["stale_recycle"] else 0.0,
                        len(obs["completed"]) / k)
        if obs["end_reason"] is not None:
            progress[6 + _END_REASONS.index(obs["end_reason"])] = 1.0
