"""A fixed-size observation tensor for learning code (OpenSpiel, PettingZoo), computed from
``state.observation(player)`` only: with secret clown the other players' colours (and so their
points) are not in it. Seats are relative to the observer (0 = the observer, 1 = the next
player, …; seats beyond the player count stay zero). The size depends on the board only —
``F`` = rows × columns fields, ``H`` = holes — not on the player count or the other options:
``3 (F + 22) + 6 H + 60`` floats (the default 3 × 8 board: 234; the 4 × 10 board: 300).
``P`` is the board's points (the sum of its hole values, 21 on the default board); counts and
points are scaled so that one game's values lie in [0, 1].

====================  =======  ===========================================================
piece                 size     content
====================  =======  ===========================================================
clowns                3×(F+22) per clown 0, 1, 2: its field one-hot (F, field index
                               ``row × columns + column``, A1 = 0); 1 if off the board
                               (clumsy clown, phase restart); balls bottom to top: 3 slots ×
                               colour one-hot (red yellow blue green, 12); the top ball's
                               colour one-hot (4); ball count one-hot 0..3 (4); can move
                               (1 if it holds a ball, Z1)
holes                 H×6      per hole in board-file order: one-hot empty / red / yellow /
                               blue / green (the ball in it; holes are public), value/6
supply                4        balls of each colour not yet added, /3
in_play               4        1 per colour whose balls are in the game
colour_points         4        points per colour in this game (public: the holes), /P
phase                 4        one-hot: die to roll (a chance node) / act on the roll /
                               restart (place the clown pushed off) / series over
roll                  6        one-hot: the face rolled this turn (red yellow blue green
                               black white); zero before the roll
seats                 4×8      per relative seat: to move (the player rolling or acting;
                               zero when the series is over), colour one-hot (4; seat 0's is
                               the observer's own colour), colour hidden (secret clown),
                               points this game /P (0 if hidden), series total /P
progress              6        turn/turn_limit, finished games/series length (1, the
                               tournament's games, or 50 for a score tournament), target
                               score/P (score tournaments, else 0), player count one-hot
                               (2, 3, 4)
====================  =======  ===========================================================

>>> from bigtop import new_state
>>> s = new_state("so-ein-zirkus", players=3, seed=1)
>>> t = s.game.observation_tensor(s, 0)
>>> len(t), s.game.observation_tensor_shape()
(234, (234,))
>>> t[0], t[46 + 1], t[92 + 2]   # clowns 0, 1, 2 on their start fields A1, B1, C1
(1.0, 1.0, 1.0)
"""

from __future__ import annotations

from typing import Any

from bigtop.core.errors import BigtopError
from bigtop.core.game import Game
from bigtop.core.tensor import FlatLayout, layout, observer
from bigtop.games.zirkus.actions import BALLS_PER_COLOUR, CLOWN_CAPACITY, COLOURS, FACES, PHASES
from bigtop.games.zirkus.board import NUM_CLOWNS
from bigtop.games.zirkus.options import MAX_SERIES_GAMES
from bigtop.games.zirkus.position import ZirkusTable

_COLOUR = {c: i for i, c in enumerate(COLOURS)}
_CAPACITY = CLOWN_CAPACITY
_SEATS = 4  # ZirkusTable.max_players: the same size for every player count
_SEAT = 8
_PER_CLOWN_EXTRA = 1 + _CAPACITY * 4 + 4 + (_CAPACITY + 1) + 1  # 22
_HOLE = 6
_TAIL = 4 + 4 + 4 + 4 + 6 + _SEATS * _SEAT + 6  # 60


def tensor_size(game: ZirkusTable) -> int:
    """The number of floats for ``game``'s board: ``3 (F + 22) + 6 H + 60``."""
    return NUM_CLOWNS * (game.board.size + _PER_CLOWN_EXTRA) + _HOLE * len(game.board.holes) \
        + _TAIL  # = the sum of pieces(game)'s sizes (tested)


def pieces(game: ZirkusTable) -> dict[str, tuple[int, int]]:
    """Each piece's (start, size) in the flat tensor, in order.

    >>> from bigtop.games.zirkus.rules import ZirkusGame
    >>> pieces(ZirkusGame(2))["seats"]
    (196, 32)
    """
    sizes = [
        ("clowns", NUM_CLOWNS * (game.board.size + _PER_CLOWN_EXTRA)),
        ("holes", _HOLE * len(game.board.holes)),
        ("supply", 4), ("in_play", 4), ("colour_points", 4), ("phase", 4), ("roll", 6),
        ("seats", _SEATS * _SEAT), ("progress", 6),
    ]
    return layout(dict(sizes))


def encode(game: ZirkusTable, obs: dict[str, Any]) -> list[float]:
    """The tensor of one observation (``obs["player"]`` must be a player, not a spectator)."""
    me = observer(obs)
    n = game.num_players
    board = game.board
    fields = board.size
    points = float(sum(game.hole_value))
    out = [0.0] * tensor_size(game)

    def rel(q: int) -> int:
        return (q - me) % n

    # clowns
    at = 0
    for clown in obs["clowns"]:
        field = clown["field"]
        if field is None:
            out[at + fields] = 1.0
        else:
            out[at + game.field_index[field]] = 1.0
        b = at + fields + 1
        balls = clown["balls"]
        for i, ball in enumerate(balls):
            out[b + 4 * i + _COLOUR[ball]] = 1.0
        b += 4 * _CAPACITY
        if balls:
            out[b + _COLOUR[balls[-1]]] = 1.0
        b += 4
        out[b + len(balls)] = 1.0
        b += _CAPACITY + 1
        out[b] = 1.0 if balls else 0.0
        at += fields + _PER_CLOWN_EXTRA
    # holes (the observation lists them in board-file order, as game.hole_value)
    holes = obs["holes"]
    for name, value in zip(game.field_names_of_holes(), game.hole_value, strict=True):
        ball = holes[name]
        out[at + (0 if ball is None else 1 + _COLOUR[ball])] = 1.0
        out[at + 5] = value / 6.0
        at += _HOLE
    # supply, colours in play, points per colour
    for c, colour in enumerate(COLOURS):
        out[at + c] = obs["supply"][colour] / BALLS_PER_COLOUR
        out[at + 8 + c] = obs["points_by_colour"][colour] / points
    for colour in obs["in_play"]:
        out[at + 4 + _COLOUR[colour]] = 1.0
    at += 12
    # phase and roll
    finished = obs["finished"]
    out[at + (3 if finished else PHASES.index(obs["phase"]))] = 1.0
    at += 4
    if obs["roll"] is not None:
        out[at + FACES.index(obs["roll"])] = 1.0
    at += 6
    # seats, relative to the observer
    for q in range(n):
        s = at + rel(q) * _SEAT
        out[s] = 1.0 if obs["turn_of"] == q and not finished else 0.0
        colour = obs["colours"][q]
        if colour is None:
            out[s + 5] = 1.0
        else:
            out[s + 1 + _COLOUR[colour]] = 1.0
        got = obs["points"][q]
        out[s + 6] = 0.0 if got is None else got / points
        out[s + 7] = obs["totals"][q] / points
    at += _SEATS * _SEAT
    # progress
    opts = game.options
    out[at] = obs["turn"] / obs["turn_limit"]
    series = {"off": 1, "games": opts.tournament_games, "score": MAX_SERIES_GAMES}[opts.tournament]
    out[at + 1] = len(obs["games"]) / series
    out[at + 2] = opts.tournament_score / points if opts.tournament == "score" else 0.0
    out[at + 3 + (n - 2)] = 1.0
    return out


class ZirkusLayout(FlatLayout):
    """The tensor above as named views of one flat array: ``clowns``, ``holes`` and
    ``seats`` are tables (one row per clown, hole, relative seat; the game's capability
    record declares it).

    >>> from bigtop import new_state
    >>> s = new_state("so-ein-zirkus", players=3, seed=1)
    >>> layout = ZirkusLayout(s.game)
    >>> views = layout.views(layout.tensor(s, 0))
    >>> views["clowns"].shape, views["seats"].shape, views["phase"].tolist()
    ((3, 46), (4, 8), [1.0, 0.0, 0.0, 0.0])
    """

    def __init__(self, game: Game) -> None:
        if not isinstance(game, ZirkusTable):  # the record pairs the layout with its game
            raise BigtopError(f"no So ein Zirkus tensor for {game.title}")
        super().__init__({name: size for name, (_, size) in pieces(game).items()},
                         {"clowns": (NUM_CLOWNS, game.board.size + _PER_CLOWN_EXTRA),
                          "holes": (len(game.board.holes), _HOLE), "seats": (_SEATS, _SEAT)})
        self.game: ZirkusTable = game

    def values(self, obs: dict[str, Any]) -> list[float]:
        return encode(self.game, obs)
