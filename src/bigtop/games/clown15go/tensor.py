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

>>> from bigtop import new_state
>>> s = new_state("clown-15-go", players=2, seed=3)
>>> t = s.game.observation_tensor(s, 0)
>>> len(t), s.game.observation_tensor_shape()
(954, (954,))
>>> t[:3], t[3 + 1], t[3 + 15 + 2]   # phase card; the pending Y2: number 2, colour Y
([0.0, 1.0, 0.0], 1.0, 1.0)
"""

from __future__ import annotations

from typing import Any

from bigtop.core.errors import BigtopError
from bigtop.core.game import Game
from bigtop.core.tensor import FlatLayout, layout, observer
from bigtop.games.clown15go.cards import HIGHEST, colour, number
from bigtop.games.clown15go.position import PHASES, Clown15GoTable

SEATS = 8
"""Clown15GoGame.max_players: the same size for every player count."""
_END_REASONS = ("went-out", "all-out", "stall", "turn-limit")
_POINTS_SCALE = 150.0  # one completed one-colour row
_OPTIONS = 9
_PROGRESS = 6 + len(_END_REASONS)


def seat_size(sets: int) -> int:
    """Floats per relative seat: ``62 + K``."""
    return 3 + SEATS + 4 + HIGHEST + sets + 2 * HIGHEST + 2


def pieces(game: Clown15GoTable) -> dict[str, tuple[int, int]]:
    """Each piece's (start, size) in the flat tensor, in order.

    >>> from bigtop.games.clown15go.rules import Clown15GoGame
    >>> pieces(Clown15GoGame(2))["seats"], pieces(Clown15GoGame(2, {"sets": 2}))["seats"]
    ((368, 560), (116, 512))
    """
    k = game.options.sets
    sizes = [
        ("phase", 3), ("pending", HIGHEST + k), ("rows", k * (HIGHEST + 1 + k)),
        ("row_tops", HIGHEST), ("unseen", HIGHEST * k), ("unseen_numbers", HIGHEST),
        ("seats", SEATS * seat_size(k)), ("options", _OPTIONS),
        ("players", SEATS - 1), ("progress", _PROGRESS),
    ]
    return layout(dict(sizes))


def tensor_size(game: Clown15GoTable) -> int:
    """The number of floats for ``game``'s deck: ``K² + 40 K + 570`` (tested against
    :func:`pieces`)."""
    k = game.options.sets
    return k * k + 40 * k + 570


def encode(game: Clown15GoTable, obs: dict[str, Any]) -> list[float]:
    """The tensor of one observation (``obs["player"]`` must be a player, not a spectator)."""
    me = observer(obs)
    n = game.num_players
    opts = game.options
    k = opts.sets
    cards = float(HIGHEST * k)
    parse = game.deck.parse
    out = [0.0] * tensor_size(game)

    def rel(q: int) -> int:
        return (q - me) % n

    # phase and the turned card
    phase = obs["phase"]
    out[PHASES.index(phase)] = 1.0
    at = 3
    if obs["pending"] is not None:
        c = parse(obs["pending"])
        out[at + number(c) - 1] = 1.0
        out[at + HIGHEST + colour(c)] = 1.0
    at += HIGHEST + k
    # middle rows, in row-index order (rows run 1, 2, 3, …: the top number is the length)
    row = HIGHEST + 1 + k
    tops = at + k * row
    for i, texts in enumerate(obs["rows"]):
        top = len(texts)
        out[at + i * row + top - 1] = 1.0
        out[tops + top - 1] += 1.0 / k
        if opts.points:
            first = colour(parse(texts[0]))
            if all(colour(parse(t)) == first for t in texts):
                out[at + i * row + HIGHEST] = 1.0
                out[at + i * row + HIGHEST + 1 + first] = 1.0
    at = tops + HIGHEST
    # the unseen cards (the never-renewed closed piles, together)
    numbers = at + HIGHEST * k
    for t in obs["unseen"]:
        c = parse(t)
        out[at + c] = 1.0
        out[numbers + number(c) - 1] += 1.0 / k
    at = numbers + HIGHEST
    # seats, relative to the observer
    size = seat_size(k)
    to_act = obs["to_act"]
    out_order: list[int] = obs["out_order"]
    completed = [0] * n
    for item in obs["completed"]:
        completed[item["by"]] += 1
    for q, pl in enumerate(obs["players"]):
        s = at + rel(q) * size
        out[s] = 1.0
        out[s + 1] = 1.0 if to_act == q else 0.0
        if pl["out"]:
            out[s + 2] = 1.0
            out[s + 3 + out_order.index(q)] = 1.0
        b = s + 3 + SEATS
        out[b] = pl["closed"] / cards
        out[b + 1] = len(pl["open"]) / cards
        out[b + 2] = pl["cards"] / cards
        renewed = pl["closed_cards"]
        out[b + 3] = 0.0 if renewed is None else 1.0
        b += 4
        if pl["open"]:
            c = parse(pl["open"][-1])
            out[b + number(c) - 1] = 1.0
            out[b + HIGHEST + colour(c)] = 1.0
        b += HIGHEST + k
        for t in pl["open"]:
            out[b + number(parse(t)) - 1] += 1.0 / k
        b += HIGHEST
        for t in renewed or ():
            out[b + number(parse(t)) - 1] += 1.0 / k
        b += HIGHEST
        out[b] = pl["points"] / _POINTS_SCALE
        out[b + 1] = completed[q] / k
    at += SEATS * size
    # options, player count
    flags = (opts.open_pile_first, opts.own_pile, opts.borrowing, opts.points,
             opts.placing == "voluntary", opts.recycle == "shuffle", opts.last_card == "stays",
             opts.borrowing_when == "placing", opts.one_on_pile)
    for i, flag in enumerate(flags):
        out[at + i] = 1.0 if flag else 0.0
    at += _OPTIONS
    out[at + n - 2] = 1.0
    at += SEATS - 1
    # progress: the turn counter and G3's stall counters, each by its limit
    still_in = max(1, n - len(out_order))
    out[at] = obs["turns"] / opts.max_turns
    out[at + 1] = obs["quiet_turns"] / (opts.stall_rounds * still_in)
    out[at + 2] = obs["pass_streak"] / still_in
    out[at + 3] = 1.0 if obs["placed_this_turn"] else 0.0
    out[at + 4] = 1.0 if obs["stale_recycle"] else 0.0
    out[at + 5] = len(obs["completed"]) / k
    if obs["end_reason"] is not None:
        out[at + 6 + _END_REASONS.index(obs["end_reason"])] = 1.0
    return out


class Clown15GoLayout(FlatLayout):
    """The tensor above as named views of one flat array: ``rows`` is a table of K rows,
    ``seats`` one of 8 relative seats (the game's capability record declares it).

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
        k = game.options.sets
        super().__init__({name: size for name, (_, size) in pieces(game).items()},
                         {"rows": (k, HIGHEST + 1 + k), "seats": (SEATS, seat_size(k))})
        self.game: Clown15GoTable = game

    def values(self, obs: dict[str, Any]) -> list[float]:
        return encode(self.game, obs)
