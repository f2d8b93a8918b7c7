"""So ein Zirkus as a pure state machine (Bambus Spieleverlag, 2000; the published facts, our
default board and the readings Z1–Z19 in docs/so-ein-zirkus.md).

A turn is a **Roll** of the coloured die (an explicit chance node), then one of: **Add** a ball
to a clown, **Move** a clown along a path (the action names the path, ruling Z3), on black
**BackToStart** (or, with the upside-down variant, **Upend**). If nothing is possible the turn
is lost at once (no action). With the clumsy-clown variant a clown pushed off the board is put
back by the mover with **Restart** when more than one start field is free.

>>> from bigtop import new_state
>>> s = new_state("so-ein-zirkus", players=2, seed=1)
>>> s.is_chance(), [a.face for a in s.legal_actions()]
(True, ['red', 'yellow', 'blue', 'green', 'black', 'white'])
>>> s.apply(Roll("red"))
>>> s.legal_actions()
[Add(clown=0, colour='red'), Add(clown=1, colour='red'), Add(clown=2, colour='red')]
"""

from __future__ import annotations

import itertools
import random
from typing import Final, cast

from mypy_extensions import mypyc_attr

from bigtop.core.actions import Action, ActionTable, typed_text
from bigtop.core.errors import (
    MalformedActionError,
    shown,
)
from bigtop.core.game import CHANCE, JSON, TERMINAL, Game, State
from bigtop.core.rng import chance_uniform, derive_rng, shuffle
from bigtop.core.text import Told
from bigtop.games.zirkus.actions import (
    BALLS_PER_COLOUR,
    BLACK,
    CLOWN_CAPACITY,
    COLOURS,
    FACES,
    PHASES,
    STEPS,
    Add,
    BackToStart,
    Move,
    Restart,
    Roll,
    Upend,
)
from bigtop.games.zirkus.board import (
    NUM_CLOWNS,
    Board,
    load_board,
    looks_like_path,
    read_board_file,
)
from bigtop.games.zirkus.options import (
    ENDING_WORDS,
    ENDINGS,
    MAX_SERIES_GAMES,
    ZirkusOptions,
    series_over,
)
from bigtop.games.zirkus.position import load_position, problems
from bigtop.games.zirkus.tensor import ZirkusLayout

__all__ = [  # actions and options live in their own modules; importable from here too
    "BALLS_PER_COLOUR",
    "CLOWN_CAPACITY",
    "COLOURS",
    "ENDINGS",
    "ENDING_WORDS",
    "FACES",
    "MAX_SERIES_GAMES",
    "PHASES",
    "STEPS",
    "Add",
    "BackToStart",
    "Move",
    "Restart",
    "Roll",
    "Upend",
    "ZirkusGame",
    "ZirkusOptions",
    "ZirkusState",
]

# -- the game -------------------------------------------------------------------------------

# What pick_outcome adds up over the six equally likely die faces, summed the same way (so a
# roll drawn against these bounds is the one the core's sample_chance would draw).
_ROLL_BOUNDS: Final[list[float]] = list(itertools.accumulate([1.0 / len(FACES)] * len(FACES)))

# The action classes come from an uncompiled module, and compiled code looks an imported name
# up in the module's dict at every use; as Final aliases they are C statics.
_ROLL: Final = Roll
_ADD: Final = Add
_MOVE: Final = Move
_BACK_TO_START: Final = BackToStart
_UPEND: Final = Upend

_ALL_STEPS = tuple("".join(p) for n in range(1, CLOWN_CAPACITY + 1)
                   for p in itertools.product(STEPS, repeat=n))


class ZirkusGame(Game[ZirkusOptions]):
    """So ein Zirkus for 2–4 players.

    >>> g = ZirkusGame(3)
    >>> g.board.name, g.num_distinct_actions()
    ('default', 150)
    >>> g.action_from_int(g.action_to_int(Move(1, "FFL")))
    Move(clown=1, steps='FFL')
    """

    name = "so-ein-zirkus"
    title = "So ein Zirkus"
    min_players = 2
    max_players = 4
    options_type = ZirkusOptions
    action_types = (Roll, Add, Move, BackToStart, Upend, Restart)
    has_hidden_information = True

    @classmethod
    def conformance_options(cls, num_players: int) -> list[dict[str, object]]:
        return [
            {},
            {"short_move": "as-far-as-possible"},
            {"drop_on_stop": False},
            {"lazy_clown": True},
            {"shoving": "shove"},
            {"shoving": "clumsy"},
            {"secret_clown": True},
            {"upside_down": True},
            {"tournament": "games", "tournament_games": 2},
            {"tournament": "score", "tournament_score": 12},
            {"turn_limit": 25, "first_player": num_players - 1},
            {"board": "4x10"},
            {"lazy_clown": True, "shoving": "clumsy", "secret_clown": True, "upside_down": True,
             "tournament": "games", "tournament_games": 2},
            {"board": "4x10", "shoving": "shove", "short_move": "as-far-as-possible",
             "drop_on_stop": False, "upside_down": True},
        ]

    @classmethod
    def command_line_options(cls, values: dict[str, str]) -> dict[str, object]:
        """A board file named on the command line is read here (size-limited) and embedded.

        >>> ZirkusGame.command_line_options({"board": "/no/such.json"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bigtop.games.zirkus.board.BoardError: cannot read board file '/no/such.json': No such ...
        """
        out: dict[str, object] = dict(values)
        board = values.get("board")
        if board is not None and looks_like_path(board):
            out["board"] = read_board_file(board)
        return out

    def __init__(
        self, num_players: object, options: ZirkusOptions | dict[str, object] | None = None
    ) -> None:
        super().__init__(num_players, options)
        num_players = self.num_players  # checked by Game.__init__
        self.board: Board = load_board(self.options.board)
        b = self.board
        self.board_json = b.to_json()
        w, size = b.columns, b.size
        # step[d][f]: the field one step in direction d from f, or -1 off the board.
        fwd = [f + w if f + w < size else -1 for f in range(size)]
        left = [f - 1 if f % w else -1 for f in range(size)]
        right = [f + 1 if f % w < w - 1 else -1 for f in range(size)]
        self.step = {"F": fwd, "L": left, "R": right}
        # The same by direction number (the index of its letter in STEPS), for the hot loops.
        self.step_by_dir: list[list[int]] = [fwd, left, right]
        self.size = size
        self.hole_at = [-1] * size
        for i, (f, _) in enumerate(b.holes):
            self.hole_at[f] = i
        self.hole_value = [v for _, v in b.holes]
        self.six = b.six_hole
        self.start_set = frozenset(b.start)
        self.starts: list[int] = list(b.start)
        self.face_number = {face: i for i, face in enumerate(FACES)}
        self.colour_number = {colour: i for i, colour in enumerate(COLOURS)}
        self.field_names = [b.field_name(f) for f in range(size)]
        self.field_index = {name: f for f, name in enumerate(self.field_names)}
        opts = self.options
        self.lazy = opts.lazy_clown
        self.shove = opts.shoving != "off"
        self.clumsy = opts.shoving == "clumsy"
        self.secret = opts.secret_clown
        # Option flags the hot loop reads, as plain attributes of the compiled class.
        self.drop_on_stop = opts.drop_on_stop
        self.upside_down = opts.upside_down
        self.turn_limit = opts.turn_limit
        self.fill_short = opts.short_move != "no-move"
        # Interned actions: legal-action lists hold references only.
        self.rolls = [Roll(f) for f in FACES]  # type: ignore[arg-type]
        self.adds = [[Add(k, c) for c in COLOURS] for k in range(NUM_CLOWNS)]  # type: ignore
        self.moves = [{s: Move(k, s) for s in _ALL_STEPS} for k in range(NUM_CLOWNS)]
        self.backs = [{f: BackToStart(k, self.field_names[f]) for f in b.start}
                      for k in range(NUM_CLOWNS)]
        self.upends = [Upend(k) for k in range(NUM_CLOWNS)]
        self.restarts = {f: Restart(self.field_names[f]) for f in b.start}
        self._all: list[Action] = [*self.rolls]
        for k in range(NUM_CLOWNS):
            self._all.extend(self.adds[k])
        for k in range(NUM_CLOWNS):
            self._all.extend(self.moves[k].values())
        for k in range(NUM_CLOWNS):
            self._all.extend(self.backs[k].values())
        self._all.extend(self.upends)
        self._all.extend(self.restarts.values())
        self.action_table = ActionTable(self._all)
        # Each Move's steps as direction numbers, looked up by the steps string.
        self.step_dirs = {s: [STEPS.index(d) for d in s] for s in _ALL_STEPS}
        # reach[balls][field]: every field a walk of ``balls`` steps from ``field`` can look
        # at (a push looks one field further), as a bit mask: the other clowns outside it
        # cannot change the paths, so they are left out of the cache keys.
        self.reach: list[list[int]] = [[0] * size for _ in range(CLOWN_CAPACITY + 1)]
        for f in range(size):
            seen = 1 << f
            frontier = [f]
            for n in range(1, CLOWN_CAPACITY + 2):
                ahead: list[int] = []
                for e in frontier:
                    for table in self.step_by_dir:
                        nxt = table[e]
                        if nxt >= 0 and not seen >> nxt & 1:
                            seen |= 1 << nxt
                            ahead.append(nxt)
                frontier = ahead
                if n >= 2:
                    self.reach[n - 1][f] = seen
        # Path and Move caches keyed by one integer (field, balls, clown and the masked
        # other clowns): paths depend on nothing else.
        self._paths: dict[int, list[str]] = {}
        self._move_lists: dict[int, list[Action]] = {}

    def field_names_of_holes(self) -> list[str]:
        """The holes' field names in board-file order (the order of states' hole lists)."""
        return [self.field_names[f] for f, _ in self.board.holes]

    def _new_initial_state(self, seed: int) -> ZirkusState:
        state = ZirkusState(self, seed)
        state._setup_game()
        return state

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """Shape of :meth:`observation_tensor`: it depends on the board only (see
        :mod:`bigtop.games.zirkus.tensor`).

        >>> ZirkusGame(2).observation_tensor_shape(), ZirkusGame(4, {"board": "4x10"}
        ...     ).observation_tensor_shape()
        ((234,), (300,))
        """
        return (ZirkusLayout(self).size,)

    def observation_tensor(self, state: object, player: object) -> list[float]:
        """``player``'s observation as fixed-size floats, for OpenSpiel and PettingZoo (the
        layout refuses another game's state or no seat: typed ``object`` so that a compiled
        build makes the same refusal rather than its own TypeError)."""
        return ZirkusLayout(self).floats(state, player)

    def _state_from_position(self, position: JSON, seed: int) -> ZirkusState:
        state = ZirkusState(self, seed)
        load_position(state, position)
        return state

    # -- paths ------------------------------------------------------------------------------
    def paths(self, field: int, others: tuple[int, ...], balls: int) -> tuple[str, ...]:
        """The legal step strings for a clown with ``balls`` balls on ``field`` when the other
        clowns stand on ``others`` (fields; -1 for one off the board). Cached: they depend on
        nothing else.

        >>> g = ZirkusGame(2)
        >>> g.paths(0, (1, 2), 2)  # A1 with two balls, clowns on B1 and C1
        ('FF', 'FR')
        """
        occ = 0
        for f in others:
            if f >= 0:
                occ |= 1 << f
        return tuple(self._paths_masked(field, occ & self.reach[balls][field], balls))

    def _paths_masked(self, field: int, occ: int, balls: int) -> list[str]:
        """:meth:`paths` for the occupied fields ``occ`` (a bit mask inside the reach)."""
        key = (occ * self.size + field) * (CLOWN_CAPACITY + 1) + balls
        got = self._paths.get(key)
        if got is None:
            got = self._find_paths(field, occ, balls)
            self._paths[key] = got
        return got

    def move_list(self, k: int, field: int, others: int, balls: int) -> list[Action]:
        """The Moves of clown ``k`` (``balls`` balls on ``field``) with the other clowns on
        the fields of bit mask ``others``: interned, cached, shared (never modify it).

        >>> ZirkusGame(2).move_list(0, 0, 1 << 1 | 1 << 2, 2)  # as in :meth:`paths`
        [Move(clown=0, steps='FF'), Move(clown=0, steps='FR')]
        """
        occ = others & self.reach[balls][field]
        key = ((occ * self.size + field) * (CLOWN_CAPACITY + 1) + balls) * NUM_CLOWNS + k
        got = self._move_lists.get(key)
        if got is None:
            moves = self.moves[k]
            got = [moves[p] for p in self._paths_masked(field, occ, balls)]
            self._move_lists[key] = got
        return got

    def _find_paths(self, field: int, occ: int, n: int) -> list[str]:
        by_len: list[list[str]] = [[] for _ in range(n + 1)]
        self._walk_paths(field, 1 << field, occ, False, "", n, by_len)
        if self.lazy:
            return [p for ps in by_len for p in ps]
        if by_len[n] or not self.fill_short:
            return by_len[n]
        for length in range(n - 1, 0, -1):
            if by_len[length]:
                return by_len[length]
        return []

    def _walk_paths(self, pos: int, visited: int, occ: int, pushed: bool, steps: str, n: int,
                    by_len: list[list[str]]) -> None:
        """Every path on from ``pos`` (``visited`` and ``occ`` are bit masks of fields), by
        length, in the order F, L, R at every step."""
        if len(steps) == n:
            return
        for d in range(3):
            table = self.step_by_dir[d]
            nxt = table[pos]
            # Z7: never back onto a field used this move; the board edge stops a clown.
            if nxt < 0 or visited >> nxt & 1:
                continue
            new_occ = occ
            now_pushed = pushed
            if occ >> nxt & 1:
                # "A square already occupied by another clown may not be passed through"
                # unless shoving: one push per move, one field, no chains.
                if not self.shove or pushed:
                    continue
                beyond = table[nxt]
                if beyond < 0:
                    if not self.clumsy:
                        continue
                    new_occ = occ & ~(1 << nxt)
                elif occ >> beyond & 1:
                    continue
                else:
                    new_occ = (occ & ~(1 << nxt)) | (1 << beyond)
                now_pushed = True
            path = steps + STEPS[d]
            by_len[len(path)].append(path)
            self._walk_paths(nxt, visited | (1 << nxt), new_occ, now_pushed, path, n, by_len)


# -- the state ------------------------------------------------------------------------------



def _record_copy(record: JSON) -> JSON:
    """A copy of a finished game's record that shares none of its lists and objects (its
    scores, colours and holes): the JSON handed out is the caller's to change."""
    return {k: list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v
            for k, v in record.items()}


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class ZirkusState(State[ZirkusGame]):

    def __init__(self, game: ZirkusGame, seed: int) -> None:
        super().__init__(game, seed)
        n = game.num_players
        self.phase = "roll"
        self.to_act = 0
        self.roll = -1
        self.turn = 0
        self.colours: list[int] = list(range(n))
        self.clown_field: list[int] = list(game.board.start[:NUM_CLOWNS])
        self.stacks: list[list[int]] = [[] for _ in range(NUM_CLOWNS)]
        self.hole_ball: list[int] = [-1] * len(game.board.holes)
        self.supply = [0] * 4
        self.ejected = -1
        self.games: list[JSON] = []
        self.totals = [0] * n
        self.finished = False
        self.ending: str | None = None
        self._next_legal: list[Action] | None = None
        # Set only on the copy a describe line plays a move on: a game that ends there
        # leaves its board as it ended, even when the series goes on (see _describe).
        self._keep_ended_board = False

    # -- set-up -----------------------------------------------------------------------------
    def _setup_game(self) -> None:
        """Set up the board for the next game of the series (the first one included)."""
        g = self.game
        n = g.num_players
        k = len(self.games)
        if g.secret:
            # Z5: four colour cards, each player draws one in secret; the rest are set aside.
            self.colours = derive_rng(self.seed, "colours", k).sample(range(4), n)
        else:
            self.colours = list(range(n))
        in_play = self.in_play()
        self.supply = [BALLS_PER_COLOUR if in_play[c] else 0 for c in range(4)]
        self.clown_field = list(g.board.start[:NUM_CLOWNS])
        self.stacks = [[] for _ in range(NUM_CLOWNS)]
        self.hole_ball = [-1] * len(g.board.holes)
        self.phase = "roll"
        self.roll = -1
        self.turn = 0
        self.ejected = -1
        self.ending = None
        # Z9: first_player (seat 0 by default) starts the first game; the start passes
        # clockwise each game.
        self.to_act = (g.options.first_player + k) % n

    def in_play(self) -> list[bool]:
        """Colours whose balls are in the game: the players' colours, all four with secret
        clown (Z11: otherwise the balls on the table would tell the hidden colours)."""
        if self.game.secret:
            return [True] * 4
        return [c in self.colours for c in range(4)]

    # -- protocol ---------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.finished:
            return TERMINAL
        return CHANCE if self.phase == "roll" else self.to_act

    def _occupant(self, field: int) -> int:
        cf = self.clown_field
        for k in range(NUM_CLOWNS):
            if cf[k] == field:
                return k
        return -1

    def _free_starts(self) -> list[int]:
        taken = set(self.clown_field)
        return [f for f in self.game.starts if f not in taken]

    def _legal_actions(self) -> list[Action]:
        if self._next_legal is not None:
            out = self._next_legal
            self._next_legal = None
            return out
        g = self.game
        if self.phase == "roll":
            return list(g.rolls)
        if self.phase == "restart":
            return [g.restarts[f] for f in self._free_starts()]
        return self._act_actions()

    def _act_actions(self) -> list[Action]:
        g = self.game
        face = self.roll
        out: list[Action] = []
        supply = self.supply
        # A colour face adds its colour; black and white any colour still in the supply.
        low, high = (face, face + 1) if face < 4 else (0, 4)
        stacks, cf = self.stacks, self.clown_field
        for k in range(NUM_CLOWNS):
            if len(stacks[k]) < CLOWN_CAPACITY:
                adds = g.adds[k]
                for c in range(low, high):
                    if supply[c] > 0:
                        out.append(adds[c])
        occupied = 0  # every clown's field as a bit mask
        for k in range(NUM_CLOWNS):
            if cf[k] >= 0:
                occupied |= 1 << cf[k]
        for k in range(NUM_CLOWNS):
            st = stacks[k]
            # Z1: an empty clown has length 0 and cannot move.
            if st and (face >= 4 or st[-1] == face):
                f = cf[k]
                out.extend(g.move_list(k, f, occupied & ~(1 << f), len(st)))
        if face == BLACK:
            free = self._free_starts()
            if free:
                for k in range(NUM_CLOWNS):
                    if cf[k] not in g.start_set:  # Z8: only a clown not on a start field
                        backs = g.backs[k]
                        for f in free:
                            out.append(backs[f])
            if g.upside_down:
                for k in range(NUM_CLOWNS):
                    if len(stacks[k]) >= 2:
                        out.append(g.upends[k])
        return out

    def sample_chance(self) -> Action:
        """The die roll :meth:`apply_chance` would apply: the core's draw
        (``pick_outcome`` over six equal chances), without listing the outcomes.

        >>> from bigtop import new_state
        >>> s = new_state("so-ein-zirkus", players=3, seed=4)
        >>> s.sample_chance() is State.sample_chance(s)
        True
        """
        if self.phase != "roll" or self.finished:
            return super().sample_chance()
        r = chance_uniform(self.seed, len(self.history))
        bounds = _ROLL_BOUNDS
        for i in range(len(bounds)):
            if r < bounds[i]:
                return self.game.rolls[i]
        return self.game.rolls[-1]

    def _why_illegal(self, action: Action) -> str:
        face = FACES[self.roll] if self.roll >= 0 else None
        if self.phase == "roll":
            return "the die must be rolled first (a chance node)"
        if isinstance(action, Roll):
            return "the die has already been rolled this turn"
        if self.phase == "restart":
            if isinstance(action, Restart):
                return f"{action.field} is not a free start field"
            return "first put the clown pushed off the board back on a free start field"
        if isinstance(action, Restart):
            return "no clown was pushed off the board"
        k = getattr(action, "clown", None)
        if not isinstance(k, int) or not 0 <= k < NUM_CLOWNS:
            return f"there are clowns 0..{NUM_CLOWNS - 1} only"
        stack = self.stacks[k]
        if isinstance(action, Add):
            c = COLOURS.index(action.colour)
            if face not in (action.colour, "black", "white"):
                return f"the die shows {face}: you may add a {face} ball only"
            if self.supply[c] == 0:
                return f"all {action.colour} balls are in play already (or not in this game)"
            return f"clown {k} already holds {CLOWN_CAPACITY} balls"
        if isinstance(action, Move):
            if not stack:
                return f"clown {k} holds no balls, so it cannot move"
            if face not in ("black", "white") and COLOURS[stack[-1]] != face:
                return f"the top ball of clown {k} is {COLOURS[stack[-1]]}, not {face}"
            if set(action.steps) - set(STEPS) or not action.steps:
                return "steps are letters F (forward), L and R (sideways)"
            # The move rules of this game: the variants change the length and the pushing.
            g = self.game
            balls = f"{len(stack)} ball{'' if len(stack) == 1 else 's'}"
            length = (f"1 to {len(stack)} steps" if g.lazy else
                      f"as long as the clown's {balls}, or as far as it can go"
                      if g.fill_short else f"exactly as long as the clown's {balls} where "
                      "possible")
            clowns = ("pushes at most one clown one field, off the board too" if g.clumsy else
                      "pushes at most one clown one field, onto a free field on the board"
                      if g.shove else "never passes through a clown")
            return (f"clown {k} cannot go {action.steps}: a move is {length}, stays on the "
                    f"board, {clowns} and never goes back onto a field used in the move")
        if isinstance(action, BackToStart):
            if face != "black":
                return "only black sends a clown back to start"
            if self.clown_field[k] in self.game.start_set:
                return f"clown {k} is on a start field already"
            return f"{action.field} is not a free start field"
        if isinstance(action, Upend):
            if not self.game.options.upside_down:
                return "the upside-down variant is not in play"
            if face != "black":
                return "only black lets you turn a clown's bottom ball to the top"
            return f"clown {k} needs at least two balls"
        return super()._why_illegal(action)

    def _apply(self, action: Action) -> None:
        g = self.game
        t = type(action)
        self._next_legal = None  # (unused if the action was not taken from the list)
        if t is _ROLL:
            self.roll = g.face_number[cast(Roll, action).face]
            self.turn += 1
            self.phase = "act"
            legal = self._act_actions()
            if legal:
                self._next_legal = legal
            else:
                self._end_turn()  # "that player loses his turn"
            return
        if t is _ADD:
            add = cast(Add, action)
            c = g.colour_number[add.colour]
            k = add.clown
            self.supply[c] -= 1
            f = self.clown_field[k]
            h = g.hole_at[f]
            if h >= 0 and self.hole_ball[h] < 0 and g.drop_on_stop:
                # Z10: a clown standing over an empty hole is a hollow tube: the ball falls in.
                self.hole_ball[h] = c
                if h == g.six:
                    self._end_game("six-hole")
                    return
            else:
                self.stacks[k].append(c)
        elif t is _MOVE:
            move = cast(Move, action)
            if self._walk(move.clown, move.steps):
                return
            if self.ejected >= 0:
                free = self._free_starts()
                if len(free) > 1:
                    self.phase = "restart"
                    return
                self.clown_field[self.ejected] = free[0]
                self.ejected = -1
        elif t is _BACK_TO_START:
            back = cast(BackToStart, action)
            self.clown_field[back.clown] = g.field_index[back.field]
        elif t is _UPEND:
            st = self.stacks[cast(Upend, action).clown]
            st.append(st.pop(0))
        else:
            assert isinstance(action, Restart)
            self.clown_field[self.ejected] = g.field_index[action.field]
            self.ejected = -1
        if self._balls_gone():
            self._end_game("no-balls")
            return
        self._end_turn()

    def _walk(self, k: int, steps: str) -> int:
        """Walk clown ``k`` along ``steps``; the number of steps walked when the game ended on
        the way (Z6: the rest of the path is not walked), else 0."""
        g = self.game
        step = g.step_by_dir
        pos = self.clown_field[k]
        dirs = g.step_dirs[steps]
        last = len(dirs) - 1
        for i in range(len(dirs)):
            table = step[dirs[i]]
            nxt = table[pos]
            other = self._occupant(nxt)
            if other >= 0:
                beyond = table[nxt]
                if beyond < 0:
                    # Clumsy clown: off the board, back to start empty, its balls return.
                    for c in self.stacks[other]:
                        self.supply[c] += 1
                    self.stacks[other] = []
                    self.clown_field[other] = -1
                    self.ejected = other
                else:
                    # The push and the step are one motion: the mover stands on ``nxt`` even
                    # when the pushed clown's drop ends the game (Z6). At most one of the two
                    # drops: a clown with balls never stands still over an empty hole under
                    # drop_on_stop, and without it a pushed clown (it stops) drops nothing.
                    self.clown_field[other] = beyond
                    self.clown_field[k] = nxt
                    if self._enter(other, beyond, True):
                        return i + 1
            self.clown_field[k] = nxt
            if self._enter(k, nxt, i == last):
                return i + 1
            pos = nxt
        return 0

    def _enter(self, k: int, field: int, stops: bool) -> bool:
        """Clown ``k`` enters ``field``: over an empty hole its bottom ball drops. True if
        that filled the 6-point hole (the game ends at once, Z6)."""
        g = self.game
        h = g.hole_at[field]
        if h < 0 or self.hole_ball[h] >= 0 or not self.stacks[k]:
            return False
        if stops and not g.drop_on_stop:
            return False
        self.hole_ball[h] = self.stacks[k].pop(0)
        if h == g.six:
            self._end_game("six-hole")
            return True
        return False

    def _balls_gone(self) -> bool:
        """Z14: no ball can ever reach the 6-point hole any more. Every ball in play lies in a
        hole; or, when balls drop only when passed over (drop_on_stop false), no clown can ever
        hold two balls again (a one-ball clown stops on its only field)."""
        supply = 0
        for c in self.supply:
            supply += c
        held = most = 0
        for st in self.stacks:
            held += len(st)
            if len(st) > most:
                most = len(st)
        free = supply + held
        if free == 0:
            return True
        if self.game.drop_on_stop:
            return False
        if free < 2:
            return True
        # Without the clumsy variant balls never leave a clown except into a hole.
        return not self.game.clumsy and supply == 0 and most < 2

    def _end_turn(self) -> None:
        if self.turn >= self.game.turn_limit:
            self._end_game("turn-limit")
            return
        self.phase = "roll"
        self.roll = -1
        self.to_act = (self.to_act + 1) % self.game.num_players

    def _end_game(self, why: str) -> None:
        g = self.game
        if self.ejected >= 0:
            # The game ended mid-move: the pushed-off clown simply goes to a free start field.
            self.clown_field[self.ejected] = self._free_starts()[0]
            self.ejected = -1
        points = self.colour_points()
        scores = [points[c] for c in self.colours]
        self.games.append({
            "scores": scores,
            "colours": [COLOURS[c] for c in self.colours],
            "holes": self._holes_json(),
            "ending": why,
            "turns": self.turn,
        })
        for p in range(g.num_players):
            self.totals[p] += scores[p]
        if series_over(g.options, self.totals, len(self.games)):
            self.finished = True
            self.ending = why
            self.phase = "roll"
            self.roll = -1
            return
        if not self._keep_ended_board:
            self._setup_game()

    # -- results ----------------------------------------------------------------------------
    def colour_points(self) -> list[int]:
        """Points on the board per colour (red, yellow, blue, green) in the current game."""
        pts = [0, 0, 0, 0]
        hv = self.game.hole_value
        for h, c in enumerate(self.hole_ball):
            if c >= 0:
                pts[c] += hv[h]
        return pts

    def scores(self) -> list[float]:
        """Totals of finished games plus the points of the game in progress."""
        if self.finished:
            return [float(t) for t in self.totals]
        pts = self.colour_points()
        return [float(self.totals[p] + pts[c]) for p, c in enumerate(self.colours)]

    def result(self) -> JSON:
        out = super().result()
        out["ending"] = self.ending
        out["games"] = [_record_copy(r) for r in self.games]
        return out

    # -- text -------------------------------------------------------------------------------
    def _clown_name(self, k: int) -> str:
        f = self.clown_field[k]
        where = self.game.field_names[f] if f >= 0 else "off the board"
        return f"clown {k} (at {where})"

    def _describe(self, action: Action, player: int | None) -> str:
        g = self.game
        # "You move …" to the mover, "P1 moves …" to everyone else.
        t = Told(self.to_act, player)
        who = "chance" if self.phase == "roll" else t.who
        if isinstance(action, Roll):
            line = f"{t.who} {t.verb('rolls')} {action.face}"
            if self.phase != "roll" or self.finished:
                return line
            after = self.clone()
            after.apply(action)
            if after.phase != "act" or after.to_act != self.to_act:
                line += ": nothing is possible, the turn is lost"
            return line
        if isinstance(action, Add):
            line = (f"{who} {t.verb('puts')} a {action.colour} ball into "
                    f"{self._clown_name(action.clown)}")
            f = self.clown_field[action.clown] if 0 <= action.clown < NUM_CLOWNS else -1
            h = g.hole_at[f] if f >= 0 else -1
            if h >= 0 and self.hole_ball[h] < 0 and g.options.drop_on_stop:
                line += f" (it falls into the {g.hole_value[h]}-point hole below)"
            return line
        if isinstance(action, BackToStart):
            return (f"{who} {t.verb('sends')} {self._clown_name(action.clown)} back to start "
                    f"{action.field}")
        if isinstance(action, Upend):
            st = self.stacks[action.clown]
            ball = COLOURS[st[0]] if st else "?"
            return f"{who} {t.verb('turns')} the bottom ball ({ball}) of " \
                   f"{self._clown_name(action.clown)} to the top"
        if isinstance(action, Restart):
            return (f"{who} {t.verb('puts')} clown {self.ejected} back on start field "
                    f"{action.field}")
        assert isinstance(action, Move)
        k = action.clown
        fields = [g.field_names[self.clown_field[k]]]
        pos = self.clown_field[k]
        for d in action.steps:
            pos = g.step[d][pos]
            fields.append(g.field_names[pos] if pos >= 0 else "?")
        after = self.clone()
        line = f"{who} {t.verb('moves')} clown {k} {'-'.join(fields)}"
        if action not in self.legal_actions():
            return line
        # The board as the move left it, also when it ended a game and the series goes on:
        # compared with the next game's set-up every clown would seem pushed, and whether
        # the series goes on may hang on secret colours (Z5).
        after._keep_ended_board = True
        after.apply(action)
        notes = []
        for j in range(NUM_CLOWNS):
            if j != k and after.clown_field[j] != self.clown_field[j]:
                to = (f"to {g.field_names[after.clown_field[j]]}" if after.clown_field[j] >= 0
                      else "off the board")
                notes.append(f"pushes clown {j} {to}")
        ended = len(after.games) > len(self.games)
        if ended:
            rec = after.games[len(self.games)]
            after_holes = [-1 if rec["holes"][name] is None else COLOURS.index(rec["holes"][name])
                           for name in g.field_names_of_holes()]
        else:
            after_holes = after.hole_ball
        for h, (f, v) in enumerate(g.board.holes):
            if self.hole_ball[h] < 0 <= after_holes[h]:
                notes.append(f"drops {COLOURS[after_holes[h]]} into the {v}-point hole at "
                             f"{g.field_names[f]}")
        if ended:
            notes.append("the game ends")
            # Z6: the clown stops where the 6-point hole filled; name only the fields walked.
            walked = self.clone()._walk(k, action.steps)
            line = f"{who} {t.verb('moves')} clown {k} {'-'.join(fields[:walked + 1])}"
        return line + (" (" + "; ".join(notes) + ")" if notes else "")

    def _render(self, player: int | None = None) -> str:
        g = self.game
        b = g.board
        n = g.num_players
        width = 12
        lines = []
        series = ""
        if g.options.tournament != "off":
            series = f" — game {len(self.games) + (0 if self.finished else 1)}, " \
                     f"totals {self.totals}"
        status = "game over" if self.finished else (
            f"P{self.to_act} to roll" if self.phase == "roll" else
            f"P{self.to_act} rolled {FACES[self.roll]}" if self.phase == "act" else
            f"P{self.to_act} puts clown {self.ejected} back on a start field")
        lines.append(f"So ein Zirkus ({b.name} board){series} — turn {self.turn}, {status}")
        lines.append("    " + "".join(f"{chr(65 + c):^{width}}" for c in range(b.columns)))
        for r in range(b.rows - 1, -1, -1):
            cells = []
            for c in range(b.columns):
                f = r * b.columns + c
                k = self._occupant(f)
                h = g.hole_at[f]
                hole = ""
                if h >= 0:
                    ball = self.hole_ball[h]
                    mark = ":" + COLOURS[ball][0].upper() if ball >= 0 else ""
                    hole = f"({g.hole_value[h]}{mark})"
                if k >= 0:
                    balls = "".join(COLOURS[x][0].upper() for x in self.stacks[k])
                    cell = f"[{k}:{balls}]{hole}"
                else:
                    cell = hole or ("s" if f in g.start_set else ".")
                cells.append(f"{cell:^{width}}")
            lines.append(f"{r + 1:>3} " + "".join(cells))
        lines.append("[k:RB] clown k, balls bottom to top (the top one decides who may "
                     "move it)")
        lines.append("(v) empty v-point hole, (v:R) holds red; s start field; "
                     "steps F up, L/R sideways")
        if self.ejected >= 0:
            lines.append(f"Clown {self.ejected} was pushed off the board.")
        in_play = self.in_play()
        lines.append("Supply: " + ", ".join(f"{COLOURS[c]} {self.supply[c]}"
                                            for c in range(4) if in_play[c]))
        pts = self.colour_points()
        reveal = self.finished or not g.secret
        for p in range(n):
            if reveal or p == player:
                col = COLOURS[self.colours[p]]
                got = pts[self.colours[p]]
                desc = f"{col}, {got} point{'' if got == 1 else 's'}"
            else:
                desc = "colour secret"
            tag = " (you)" if p == player else ""
            lines.append(f"  P{p}{tag}: {desc}")
        if g.secret and not self.finished:
            lines.append("  Points by colour: " + ", ".join(
                f"{COLOURS[c]} {pts[c]}" for c in range(4)))
        if self.finished:
            why = ENDING_WORDS.get(str(self.ending), str(self.ending))
            scores = ", ".join(f"P{p} {int(s)}" for p, s in enumerate(self.scores()))
            lines.append(f"Game over: {why}. Final scores: {scores}")
        return "\n".join(lines)

    def action_from_text(self, text: object) -> Action:
        """Typed actions: ``add 0 red``, ``move 1 FFL``, ``back 2 A1``, ``upend 0``,
        ``restart B1``, ``roll black``."""
        text = typed_text(text, self.game.title)
        words = text.strip().split()
        try:
            head = words[0].lower()
            if head == "add" and len(words) == 3:
                return self.game.action_from_json(
                    {"type": "add", "clown": int(words[1]), "colour": words[2].lower()})
            if head == "move" and len(words) == 3:
                return Move(int(words[1]), words[2].upper())
            if head in ("back", "back-to-start") and len(words) == 3:
                return BackToStart(int(words[1]), words[2].upper())
            if head == "upend" and len(words) == 2:
                return Upend(int(words[1]))
            if head == "restart" and len(words) == 2:
                return Restart(words[1].upper())
            if head == "roll" and len(words) == 2:
                return self.game.action_from_json({"type": "roll", "face": words[1].lower()})
        except (IndexError, ValueError):
            pass
        raise MalformedActionError(
            f"cannot read {shown(text)}; try 'add 0 red', 'move 1 FFL', 'back 2 A1', 'upend 0', "
            f"'restart B1'")

    # -- JSON -------------------------------------------------------------------------------
    def _holes_json(self) -> dict[str, str | None]:
        g = self.game
        return {g.field_names[f]: (COLOURS[self.hole_ball[h]] if self.hole_ball[h] >= 0
                                   else None) for h, (f, _) in enumerate(g.board.holes)}

    def _clowns_json(self) -> list[JSON]:
        g = self.game
        return [{"field": g.field_names[f] if f >= 0 else None,
                 "balls": [COLOURS[c] for c in st]}
                for f, st in zip(self.clown_field, self.stacks, strict=True)]

    def _board_json(self) -> JSON:
        # A copy: the JSON handed out is the caller's to change, the game's board_json is
        # shared by every state of the game.
        b = self.game.board_json
        return {**b, "start": list(b["start"]), "holes": dict(b["holes"])}

    def _position_json(self) -> JSON:
        return {
            "board": self._board_json(),
            "to_act": self.to_act,
            "phase": self.phase,
            "roll": FACES[self.roll] if self.roll >= 0 else None,
            "turn": self.turn,
            "colours": [COLOURS[c] for c in self.colours],
            "clowns": self._clowns_json(),
            "holes": self._holes_json(),
            "supply": {COLOURS[c]: self.supply[c] for c in range(4)},
            "ejected": self.ejected if self.ejected >= 0 else None,
            "games": [_record_copy(r) for r in self.games],
            "totals": list(self.totals),
            "finished": self.finished,
            "ending": self.ending,
        }

    def _observation(self, player: int | None) -> JSON:
        g = self.game
        reveal = self.finished or not g.secret
        pts = self.colour_points()
        colours = [COLOURS[c] if reveal or p == player else None
                   for p, c in enumerate(self.colours)]
        points = [pts[c] if reveal or p == player else None for p, c in enumerate(self.colours)]
        in_play = self.in_play()
        return {
            "game": g.name,
            "player": player,
            "board": self._board_json(),
            "game_number": len(self.games) + (0 if self.finished else 1),
            "to_act": self.current_player(),
            "turn_of": self.to_act,
            "phase": self.phase,
            "roll": FACES[self.roll] if self.roll >= 0 else None,
            "turn": self.turn,
            "turn_limit": g.options.turn_limit,
            "colours": colours,
            "in_play": [COLOURS[c] for c in range(4) if in_play[c]],
            "clowns": self._clowns_json(),
            "holes": self._holes_json(),
            "supply": {COLOURS[c]: self.supply[c] for c in range(4)},
            "points_by_colour": {COLOURS[c]: pts[c] for c in range(4)},
            "points": points,
            "ejected": self.ejected if self.ejected >= 0 else None,
            "games": [_record_copy(r) for r in self.games],
            "totals": list(self.totals),
            "finished": self.finished,
            "ending": self.ending,
        }

    def _resample_hidden(self, player: int, seed: int) -> ZirkusState:
        """Without secret clown only the future die rolls are unknown (a fresh seed); with it
        the other players' colours are redrawn from the colours ``player`` does not hold."""
        n = self.game.num_players
        new = self.clone()
        rng = random.Random(self.fresh_seed(seed))
        if self.game.secret and not self.finished:
            own = self.colours[player]
            rest = [c for c in range(4) if c != own]
            shuffle(rng, rest)
            it = iter(rest)
            new.colours = [own if p == player else next(it) for p in range(n)]
        new.seed = rng.getrandbits(63)
        return new

    def problems(self) -> list[str]:
        return problems(self)

    def clone(self) -> ZirkusState:
        # Field by field: a compiled class has no __dict__ to copy (a test checks that a
        # clone has every attribute of the original).
        new = ZirkusState(self.game, self.seed)
        new.history = list(self.history)
        new.phase = self.phase
        new.to_act = self.to_act
        new.roll = self.roll
        new.turn = self.turn
        new.ejected = self.ejected
        new.finished = self.finished
        new.ending = self.ending
        new.colours = list(self.colours)
        new.clown_field = list(self.clown_field)
        new.stacks = [list(st) for st in self.stacks]
        new.hole_ball = list(self.hole_ball)
        new.supply = list(self.supply)
        new.games = list(self.games)  # records are never changed once written
        new.totals = list(self.totals)
        new._legal = None
        new._next_legal = None
        new._keep_ended_board = self._keep_ended_board
        return new
