"""Loading and checking hand-written (or dumped) So ein Zirkus positions: every field is
validated, so a loaded state holds the same invariants as a played one.

:func:`problems` lists every inconsistency of a state, independently of the move code (it
backs ``audit()``; the loader refuses the position it fills if it finds any). The module
sits below ``rules.py`` (which imports it) and reads a state through
:class:`ZirkusPosition`, the fields it checks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from bigtop.core.errors import InvalidStateError, inconsistent, shown
from bigtop.core.game import JSON
from bigtop.games.zirkus.actions import BALLS_PER_COLOUR, CLOWN_CAPACITY, COLOURS, FACES, PHASES
from bigtop.games.zirkus.board import NUM_CLOWNS, Board, BoardError, parse_board
from bigtop.games.zirkus.options import ENDINGS, MAX_SERIES_GAMES, ZirkusOptions, series_over


@runtime_checkable
class ZirkusTable(Protocol):
    """What the position checks and the tensor read of a
    :class:`~bigtop.games.zirkus.rules.ZirkusGame`."""

    @property
    def num_players(self) -> int: ...
    @property
    def options(self) -> ZirkusOptions: ...
    @property
    def board(self) -> Board: ...
    @property
    def secret(self) -> bool: ...
    @property
    def field_index(self) -> dict[str, int]: ...
    @property
    def hole_at(self) -> list[int]: ...
    @property
    def hole_value(self) -> list[int]: ...
    @property
    def six(self) -> int: ...
    def field_names_of_holes(self) -> list[str]: ...


class ZirkusPosition(Protocol):
    """The fields of a :class:`~bigtop.games.zirkus.rules.ZirkusState` that make a position."""

    @property
    def game(self) -> ZirkusTable: ...
    phase: str
    to_act: int
    roll: int
    turn: int
    colours: list[int]
    clown_field: list[int]
    stacks: list[list[int]]
    hole_ball: list[int]
    supply: list[int]
    ejected: int
    games: list[JSON]
    totals: list[int]
    finished: bool
    ending: str | None

    def in_play(self) -> list[bool]: ...
    def _holes_json(self) -> dict[str, str | None]: ...
    def _balls_gone(self) -> bool: ...
    def _free_starts(self) -> list[int]: ...
    def _act_actions(self) -> Sequence[object]: ...

def _colour(obj: Any, where: str) -> int:
    if obj not in COLOURS:
        raise InvalidStateError(f"{where}: {shown(obj)} is not a colour ({', '.join(COLOURS)})")
    return COLOURS.index(obj)


def _whole(obj: Any, where: str, low: int = 0) -> int:
    if type(obj) is not int or obj < low:
        raise InvalidStateError(f"{where} must be a whole number >= {low}, got {shown(obj)}")
    return obj


def _field(game: ZirkusTable, obj: Any, where: str) -> int:
    if not isinstance(obj, str) or obj not in game.field_index:
        raise InvalidStateError(f"{where}: {shown(obj)} is not a field of the {game.board.name} "
                                f"board")
    return game.field_index[obj]


_POSITION_KEYS = {"board", "to_act", "phase", "roll", "turn", "colours", "clowns", "holes",
                  "supply", "ejected", "games", "totals", "finished", "ending"}


def load_position(s: ZirkusPosition, pos: JSON) -> None:
    """Fill the fresh state ``s`` from a (possibly hand-written) position and check it fully
    (a field that cannot be, or a position that could not have been, is refused at once;
    then any :func:`problems` together)."""
    _fill(s, pos)
    trouble = problems(s)
    if trouble:
        raise inconsistent("So ein Zirkus", trouble)


def _fill(s: ZirkusPosition, pos: JSON) -> None:
    game = s.game
    n = game.num_players
    extra = sorted(set(pos) - _POSITION_KEYS)
    if extra:
        raise InvalidStateError(f"unknown position key {shown(extra[0])}")
    if "board" in pos:
        try:
            board = parse_board(pos["board"], "position board")
        except BoardError as e:
            raise InvalidStateError(str(e)) from None
        # The holes in any order (a JSON object's keys may come back sorted); the board's
        # own order numbers them, and that comes from the game.
        if board != game.board and (board.name, board.note, board.columns, board.rows,
                                    board.start, sorted(board.holes)) != (
                game.board.name, game.board.note, game.board.columns, game.board.rows,
                game.board.start, sorted(game.board.holes)):
            raise InvalidStateError(
                f"the position was recorded on board {shown(board.name)}, which differs from the "
                f"game's board {shown(game.board.name)}")
    s.phase = pos.get("phase", "roll")
    if s.phase not in PHASES:
        raise InvalidStateError(f"phase must be one of {', '.join(PHASES)}")
    roll = pos.get("roll")
    if s.phase != "roll":
        if roll not in FACES:
            raise InvalidStateError(f"phase {shown(s.phase)} needs the rolled face "
                                    f"({', '.join(FACES)})")
        s.roll = FACES.index(roll)
    elif roll is not None:
        raise InvalidStateError("roll must be null in phase 'roll'")
    s.turn = _whole(pos.get("turn", 0 if s.phase == "roll" else 1), "turn")
    if s.turn > game.options.turn_limit:
        raise InvalidStateError(f"turn {s.turn} is past the turn limit")
    if s.phase != "roll" and s.turn < 1:
        raise InvalidStateError("a die was rolled, so turn must be at least 1")
    colours = pos.get("colours", [COLOURS[c] for c in range(n)])
    if not isinstance(colours, list) or len(colours) != n:
        raise InvalidStateError(f"colours must list one colour for each of the {n} players")
    s.colours = [_colour(c, f"colours[{p}]") for p, c in enumerate(colours)]
    if len(set(s.colours)) != n:
        raise InvalidStateError("two players have the same colour")
    if not game.secret and s.colours != list(range(n)):
        raise InvalidStateError(
            f"without secret clown the seats own {', '.join(COLOURS[:n])} in order")
    in_play = s.in_play()
    clowns = pos.get("clowns")
    if not isinstance(clowns, list) or len(clowns) != NUM_CLOWNS:
        raise InvalidStateError(f"clowns must list {NUM_CLOWNS} clowns")
    ejected = pos.get("ejected")
    if ejected is not None:
        ejected = _whole(ejected, "ejected")
        if ejected >= NUM_CLOWNS or s.phase != "restart":
            raise InvalidStateError("ejected names the clown pushed off the board, only in "
                                    "phase 'restart'")
        s.ejected = ejected
    elif s.phase == "restart":
        raise InvalidStateError("phase 'restart' needs the ejected clown")
    for k, cl in enumerate(clowns):
        where = f"clowns[{k}]"
        if not isinstance(cl, dict) or set(cl) != {"field", "balls"}:
            raise InvalidStateError(f"{where} must be {{field, balls}}")
        if cl["field"] is None:
            if k != s.ejected:
                raise InvalidStateError(f"{where}: only the ejected clown is off the board")
            s.clown_field[k] = -1
        else:
            if k == s.ejected:
                raise InvalidStateError(f"{where}: the ejected clown must have field null")
            s.clown_field[k] = _field(game, cl["field"], f"{where}.field")
        balls = cl["balls"]
        if not isinstance(balls, list) or len(balls) > CLOWN_CAPACITY:
            raise InvalidStateError(f"{where}.balls: a list of at most {CLOWN_CAPACITY} "
                                    f"colours, bottom first")
        s.stacks[k] = [_colour(b, f"{where}.balls") for b in balls]
        if k == s.ejected and s.stacks[k]:
            raise InvalidStateError(f"{where}: a clown pushed off the board is empty")
    on_board = [f for f in s.clown_field if f >= 0]
    if len(set(on_board)) != len(on_board):
        raise InvalidStateError("two clowns stand on the same field")
    holes = pos.get("holes", {})
    names = game.field_names_of_holes()
    if not isinstance(holes, dict) or not set(holes) <= set(names):
        raise InvalidStateError(f"holes must map hole fields ({', '.join(names)}) to a colour "
                                f"or null")
    s.hole_ball = [-1 if holes.get(name) is None else _colour(holes[name], f"holes.{name}")
                   for name in names]
    counts = [sum(st.count(c) for st in s.stacks) + s.hole_ball.count(c) for c in range(4)]
    for c in range(4):
        if counts[c] and not in_play[c]:
            raise InvalidStateError(f"{COLOURS[c]} is not in play in this game")
        if counts[c] > BALLS_PER_COLOUR:
            raise InvalidStateError(f"{counts[c]} {COLOURS[c]} balls; there are only "
                                    f"{BALLS_PER_COLOUR}")
    want_supply = [BALLS_PER_COLOUR - counts[c] if in_play[c] else 0 for c in range(4)]
    supply = pos.get("supply")
    if supply is not None and (not isinstance(supply, dict) or set(supply) != set(COLOURS)
                               or [supply[c] for c in COLOURS] != want_supply):
        raise InvalidStateError(
            "supply must give each colour's balls not yet in play: "
            + ", ".join(f"{COLOURS[c]} {want_supply[c]}" for c in range(4)))
    s.supply = want_supply
    games = pos.get("games", [])
    if not isinstance(games, list):
        raise InvalidStateError("games must be a list of finished games")
    s.games = [_game_record(game, r, f"games[{i}]") for i, r in enumerate(games)]
    # Left out, the player to act is the one the turn order gives (Z9: first_player starts
    # the first game, the start passes clockwise each game; each roll is one turn).
    rolls = s.turn - (0 if s.phase == "roll" else 1)
    s.to_act = _whole(pos.get("to_act", (game.options.first_player + len(s.games) + rolls) % n),
                      "to_act")
    if s.to_act >= n:
        raise InvalidStateError(f"to_act must be a player 0..{n - 1}")
    sums = [sum(r["scores"][p] for r in s.games) for p in range(n)]
    totals = pos.get("totals", sums)
    if totals != sums:
        raise InvalidStateError(f"totals must be the sums of the games' scores: {sums}")
    s.totals = sums
    finished = pos.get("finished", False)
    if not isinstance(finished, bool):
        raise InvalidStateError("finished must be true or false")
    s.finished = finished
    ending = pos.get("ending")
    opts = game.options
    played = len(s.games)
    over = series_over(opts, sums, played)
    if finished:
        if not over or ending != s.games[-1]["ending"] or s.phase != "roll":
            raise InvalidStateError("a finished position needs its last game recorded (with "
                                    "the same ending), phase 'roll', and the series complete")
        if s.games[-1]["holes"] != s._holes_json() or s.games[-1]["colours"] != [
                COLOURS[c] for c in s.colours]:
            raise InvalidStateError("the last game's record must match the final board")
        s.ending = ending
        return
    if ending is not None:
        raise InvalidStateError("ending must be null while play goes on")
    if over or played > MAX_SERIES_GAMES:
        raise InvalidStateError("the series is already complete; set finished true")
    if s.hole_ball[game.six] >= 0:
        raise InvalidStateError("the 6-point hole is filled, so this game is over")
    if s._balls_gone():
        raise InvalidStateError("every ball lies in a hole, so this game is over")
    if opts.drop_on_stop:
        for k, f in enumerate(s.clown_field):
            h = game.hole_at[f] if f >= 0 else -1
            if h >= 0 and s.hole_ball[h] < 0 and s.stacks[k]:
                raise InvalidStateError(f"clown {k} holds balls over an empty hole; its "
                                        f"bottom ball would have dropped")
    if opts.shoving == "off":
        # A clown walks onto a hole holding a ball (one drops per field at most, and a move
        # is never longer than its balls), so an empty clown stands over an empty hole only
        # where it was pushed.
        for k, f in enumerate(s.clown_field):
            h = game.hole_at[f] if f >= 0 else -1
            if h >= 0 and s.hole_ball[h] < 0 and not s.stacks[k]:
                raise InvalidStateError(f"clown {k} stands empty over an empty hole, which "
                                        f"only a push (shoving) leaves")
    if s.phase == "roll" and s.turn >= opts.turn_limit:
        raise InvalidStateError("the turn limit is reached, so this game is over")
    if s.phase == "restart":
        # Only clumsy clown pushes a clown off the board, and the mover places it only when
        # there is a choice (Z16: one free start field takes it at once).
        if opts.shoving != "clumsy":
            raise InvalidStateError("no clown is pushed off the board here: only clumsy clown "
                                    "(shoving=clumsy) pushes clowns beyond the edge")
        if len(s._free_starts()) < 2:
            raise InvalidStateError("with one free start field the ejected clown goes there "
                                    "at once (Z16): there is nothing to choose")
    if s.phase == "act" and not s._act_actions():
        raise InvalidStateError(f"after rolling {FACES[s.roll]} nothing is possible; the "
                                f"turn would have been lost")


def _game_record(game: ZirkusTable, rec: Any, where: str) -> JSON:
    n = game.num_players
    if not isinstance(rec, dict) or set(rec) != {"scores", "colours", "holes", "ending",
                                                 "turns"}:
        raise InvalidStateError(f"{where} must be {{scores, colours, holes, ending, turns}}")
    colours = rec["colours"]
    if not isinstance(colours, list) or len(colours) != n or len(set(map(str, colours))) != n:
        raise InvalidStateError(f"{where}.colours must list {n} different colours")
    for c in colours:
        _colour(c, f"{where}.colours")
    holes = rec["holes"]
    names = game.field_names_of_holes()
    # Any key order: JSON objects are unordered (PostgreSQL's jsonb, sort_keys reorder them).
    if not isinstance(holes, dict) or set(holes) != set(names):
        raise InvalidStateError(f"{where}.holes must list the holes {', '.join(names)}")
    for name in names:
        if holes[name] is not None:
            _colour(holes[name], f"{where}.holes.{name}")
    if rec["ending"] not in ENDINGS:
        raise InvalidStateError(f"{where}.ending must be one of {', '.join(ENDINGS)}")
    _whole(rec["turns"], f"{where}.turns")
    vals = dict(zip(names, game.hole_value, strict=True))
    pts = {c: 0 for c in COLOURS}
    for name, ball in holes.items():
        if ball is not None:
            pts[ball] += vals[name]
    scores = [pts[c] for c in colours]
    if rec["scores"] != scores:
        raise InvalidStateError(f"{where}.scores must be {scores} (the holes' values)")
    return {"scores": scores, "colours": list(colours), "holes": {h: holes[h] for h in names},
            "ending": rec["ending"], "turns": rec["turns"]}


def problems(s: ZirkusPosition) -> list[str]:
    """Every broken invariant of ``s`` (empty when the position is consistent): colours,
    every ball of the colours in play conserved, clowns on the board and within capacity,
    each recorded game's scores from its holes, totals, the end."""
    g = s.game
    n = g.num_players
    out: list[str] = []
    in_play = s.in_play()
    if len(set(s.colours)) != n:
        out.append("two players share a colour")
    if not g.secret and s.colours != list(range(n)):
        out.append(f"without secret clown the seats own {', '.join(COLOURS[:n])} in order")
    for c in range(4):
        balls = s.supply[c] + sum(st.count(c) for st in s.stacks) + s.hole_ball.count(c)
        want = BALLS_PER_COLOUR if in_play[c] else 0
        if balls != want:
            out.append(f"{COLOURS[c]}: {balls} balls, expected {want}")
        if s.supply[c] < 0:
            out.append(f"{COLOURS[c]}: a negative supply")
    on_board = [f for f in s.clown_field if f >= 0]
    if len(set(on_board)) != len(on_board):
        out.append("two clowns stand on one field")
    if not all(0 <= f < g.board.size for f in on_board):
        out.append("a clown stands off the grid")
    if any(len(st) > CLOWN_CAPACITY for st in s.stacks):
        out.append(f"a clown holds more than {CLOWN_CAPACITY} balls")
    if s.ejected >= 0:
        if s.phase != "restart" or s.clown_field[s.ejected] != -1:
            out.append("an ejected clown is off the board, in phase 'restart' only")
        if s.stacks[s.ejected]:
            out.append("an ejected clown keeps no balls")
    elif len(on_board) != NUM_CLOWNS:
        out.append("a clown is missing from the board")
    if g.options.drop_on_stop and not s.finished:
        for k, f in enumerate(s.clown_field):
            h = g.hole_at[f] if f >= 0 else -1
            if h >= 0 and s.hole_ball[h] < 0 and s.stacks[k]:
                out.append(f"clown {k} holds balls over an empty hole")
    # Score bookkeeping: each recorded game's scores from its holes and colours.
    totals = [0] * n
    vals = dict(zip(g.field_names_of_holes(), g.hole_value, strict=True))
    for i, rec in enumerate(s.games):
        pts = {c: 0 for c in COLOURS}
        for name, ball in rec["holes"].items():
            if ball is not None:
                pts[ball] += vals[name]
        scores = [pts[c] for c in rec["colours"]]
        if rec["scores"] != scores:
            out.append(f"game {i + 1} scored {rec['scores']}, but its holes make {scores}")
        for p in range(n):
            totals[p] += rec["scores"][p]
    if totals != s.totals:
        out.append(f"totals {s.totals} are not the sums of the games {totals}")
    if not s.finished:
        if s.hole_ball[g.six] >= 0:
            out.append("the 6-point hole is filled but play goes on")
        if s.turn > g.options.turn_limit:
            out.append(f"turn {s.turn} is past the turn limit")
    elif not s.games or s.games[-1]["ending"] != s.ending:
        out.append("a finished series ends as its last recorded game did")
    return out
