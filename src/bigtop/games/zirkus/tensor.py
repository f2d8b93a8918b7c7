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

Each piece is a named view into the one flat array (:class:`ZirkusLayout`, the layout the
game's capability record declares), ``clowns``, ``holes`` and ``seats`` tables of a row each;
``Game.observation_tensor(state, player)`` gives the same entries as Python floats.

>>> from bigtop import new_state
>>> s = new_state("so-ein-zirkus", players=3, seed=1)
>>> t = s.game.observation_tensor(s, 0)
>>> len(t), s.game.observation_tensor_shape()
(234, (234,))
>>> t[0], t[46 + 1], t[92 + 2]   # clowns 0, 1, 2 on their start fields A1, B1, C1
(1.0, 1.0, 1.0)
"""

from __future__ import annotations

from bigtop.core.errors import BigtopError
from bigtop.core.game import Game, State
from bigtop.core.tensor import TensorLayout, Views, observer
from bigtop.games.zirkus.actions import BALLS_PER_COLOUR, CLOWN_CAPACITY, COLOURS, FACES, PHASES
from bigtop.games.zirkus.board import NUM_CLOWNS
from bigtop.games.zirkus.options import MAX_SERIES_GAMES
from bigtop.games.zirkus.position import ZirkusTable

_COLOUR = {c: i for i, c in enumerate(COLOURS)}
_SEATS = 4  # ZirkusTable.max_players: the same size for every player count
_SEAT = 8
_HOLE = 6
# A clown's row after its F fields: off the board, the balls' slots (bottom to top, a colour
# one-hot each), the top ball's colour, the ball count one-hot, can move.
_OFF = 0
_SLOTS = _OFF + 1
_TOP = _SLOTS + CLOWN_CAPACITY * 4
_COUNT = _TOP + 4
_CAN_MOVE = _COUNT + CLOWN_CAPACITY + 1
_PER_CLOWN_EXTRA = _CAN_MOVE + 1  # 22
# A seat's row: to move, colour one-hot (4), colour hidden, points this game, series total.
_TO_MOVE, _COLOUR_AT, _HIDDEN, _POINTS, _TOTAL = 0, 1, 5, 6, 7


class ZirkusLayout(TensorLayout):
    """The tensor above, piece by piece: ``clowns``, ``holes`` and ``seats`` are tables
    (one row per clown, hole, relative seat).

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
        self.game: ZirkusTable = game

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        board = self.game.board
        return [
            ("clowns", (NUM_CLOWNS, board.size + _PER_CLOWN_EXTRA)),
            ("holes", (len(board.holes), _HOLE)),
            ("supply", (4,)), ("in_play", (4,)), ("colour_points", (4,)), ("phase", (4,)),
            ("roll", (6,)), ("seats", (_SEATS, _SEAT)), ("progress", (6,)),
        ]

    def fill(self, state: State, player: int, out: Views) -> None:
        obs = state.observation(player)
        me = observer(obs)
        game = self.game
        n = game.num_players
        fields = game.board.size
        points = float(sum(game.hole_value))

        for row, clown in zip(out["clowns"], obs["clowns"], strict=True):
            field = clown["field"]
            row[fields + _OFF if field is None else game.field_index[field]] = 1.0
            balls = clown["balls"]
            for i, ball in enumerate(balls):
                row[fields + _SLOTS + 4 * i + _COLOUR[ball]] = 1.0
            if balls:
                row[fields + _TOP + _COLOUR[balls[-1]]] = 1.0
                row[fields + _CAN_MOVE] = 1.0
            row[fields + _COUNT + len(balls)] = 1.0
        # holes (the observation lists them in board-file order, as game.hole_value)
        holes = obs["holes"]
        for row, name, value in zip(out["holes"], game.field_names_of_holes(),
                                    game.hole_value, strict=True):
            ball = holes[name]
            row[0 if ball is None else 1 + _COLOUR[ball]] = 1.0
            row[5] = value / 6.0
        # supply, colours in play, points per colour
        out["supply"][:] = [obs["supply"][c] / BALLS_PER_COLOUR for c in COLOURS]
        for colour in obs["in_play"]:
            out["in_play"][_COLOUR[colour]] = 1.0
        out["colour_points"][:] = [obs["points_by_colour"][c] / points for c in COLOURS]
        # phase and roll
        finished = obs["finished"]
        out["phase"][3 if finished else PHASES.index(obs["phase"])] = 1.0
        if obs["roll"] is not None:
            out["roll"][FACES.index(obs["roll"])] = 1.0
        # seats, relative to the observer
        seats = out["seats"]
        for q in range(n):
            seat = seats[(q - me) % n]
            if obs["turn_of"] == q and not finished:
                seat[_TO_MOVE] = 1.0
            colour = obs["colours"][q]
            seat[_HIDDEN if colour is None else _COLOUR_AT + _COLOUR[colour]] = 1.0
            got = obs["points"][q]
            seat[_POINTS] = 0.0 if got is None else got / points
            seat[_TOTAL] = obs["totals"][q] / points
        # progress
        opts = game.options
        series = {"off": 1, "games": opts.tournament_games,
                  "score": MAX_SERIES_GAMES}[opts.tournament]
        progress = out["progress"]
        progress[:3] = (obs["turn"] / obs["turn_limit"], len(obs["games"]) / series,
                        opts.tournament_score / points if opts.tournament == "score" else 0.0)
        progress[3 + (n - 2)] = 1.0
