"""Loading and checking hand-written (or dumped) Clown 15 Go positions.

:func:`problems` lists every inconsistency of a state, independently of the move code: it
backs ``audit()`` and the loader, so a loaded state holds the same invariants as a played
one. The module sits below ``rules.py`` (which imports it) and reads a state through
:class:`Clown15GoPosition`, the fields it checks.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from bigtop.core.errors import InvalidStateError, inconsistent, shown
from bigtop.core.game import JSON
from bigtop.core.text import count
from bigtop.games.clown15go.cards import HIGHEST, Deck, number
from bigtop.games.clown15go.options import END_REASONS, Clown15GoOptions
from bigtop.games.clown15go.scoring import expected_points

PHASES = ("turn", "card", "over")
"""A state's phases: the start of a turn, a turned card to place, the game over."""

_KEYS = {"to_act", "phase", "pending", "closed", "open", "recycled", "rows", "completed",
         "out_order", "points", "turns", "quiet_turns", "pass_streak", "placed_this_turn",
         "stale_recycle", "end_reason"}


@runtime_checkable
class Clown15GoTable(Protocol):
    """What the position checks and the tensor read of a
    :class:`~bigtop.games.clown15go.rules.Clown15GoGame`."""

    @property
    def num_players(self) -> int: ...
    @property
    def options(self) -> Clown15GoOptions: ...
    @property
    def deck(self) -> Deck: ...
    @property
    def max_rows(self) -> int: ...


class Clown15GoPosition(Protocol):
    """The fields of a :class:`~bigtop.games.clown15go.rules.Clown15GoState` that make a
    position."""

    @property
    def game(self) -> Clown15GoTable: ...
    to_act: int
    phase: str
    pending: int | None
    closed: list[list[int]]
    open_piles: list[list[int]]
    recycled: list[bool]
    rows: list[list[int]]
    completed: list[tuple[int, list[int]]]
    out_order: list[int]
    points: list[int]
    turns: int
    quiet_turns: int
    pass_streak: int
    placed_this_turn: bool
    stale_recycle: bool
    end_reason: str | None

    def cards_left(self, player: int) -> int: ...


def _int(obj: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(obj, bool) or not isinstance(obj, int) or not lo <= obj <= hi:
        raise InvalidStateError(f"{where} must be a whole number {lo}..{hi}, got {shown(obj)}")
    return obj


def _bool(obj: Any, where: str) -> bool:
    if not isinstance(obj, bool):
        raise InvalidStateError(f"{where} must be true or false, got {shown(obj)}")
    return obj


def load_position(s: Clown15GoPosition, pos: JSON) -> None:
    """Fill the fresh state ``s`` from a (possibly hand-written) position: a field that
    cannot be read is refused at once, then every :func:`problems` of the whole position
    together (an :class:`InvalidStateError` listing them). Fields other than ``closed``,
    ``open`` and ``rows`` have defaults (a fresh turn of player 0; points as earned)."""
    game = s.game
    n = game.num_players
    o = game.options
    d = game.deck
    extra = sorted(set(pos) - _KEYS)
    if extra:
        raise InvalidStateError(f"unknown Clown 15 Go position field {shown(extra[0])}")
    for key in ("closed", "open"):
        piles = pos.get(key)
        if not isinstance(piles, list) or len(piles) != n:
            raise InvalidStateError(f"'{key}' must list {n} piles (one per player)")
    s.closed = [d.parse_list(c, f"closed[{q}]") for q, c in enumerate(pos["closed"])]
    s.open_piles = [d.parse_list(c, f"open[{q}]") for q, c in enumerate(pos["open"])]
    rows = pos.get("rows", [])
    if not isinstance(rows, list):
        raise InvalidStateError("'rows' must be a list of rows")
    s.rows = [d.parse_list(r, f"rows[{i}]") for i, r in enumerate(rows)]
    completed = pos.get("completed", [])
    if not isinstance(completed, list):
        raise InvalidStateError("'completed' must be a list of {by, cards}")
    for i, item in enumerate(completed):
        if not isinstance(item, dict) or set(item) != {"by", "cards"}:
            raise InvalidStateError(f"completed[{i}] must be an object {{by, cards}}")
        by = _int(item["by"], f"completed[{i}].by", 0, n - 1)
        s.completed.append((by, d.parse_list(item["cards"], f"completed[{i}].cards")))
    pending = pos.get("pending")
    s.pending = None if pending is None else d.parse(pending)
    recycled = pos.get("recycled", [False] * n)
    if not isinstance(recycled, list) or len(recycled) != n:
        raise InvalidStateError(f"'recycled' must list {n} true/false values")
    s.recycled = [_bool(x, f"recycled[{q}]") for q, x in enumerate(recycled)]
    out_order = pos.get("out_order", [])
    if not isinstance(out_order, list):
        raise InvalidStateError("'out_order' must be a list of players")
    s.out_order = [_int(q, "out_order[]", 0, n - 1) for q in out_order]
    phase = pos.get("phase", "card" if s.pending is not None else "turn")
    if phase not in PHASES:
        raise InvalidStateError(f"phase must be one of {', '.join(PHASES)}")
    s.phase = phase
    if "points" in pos:
        points = pos["points"]
        if not isinstance(points, list) or len(points) != n or any(
                isinstance(x, bool) or not isinstance(x, int) for x in points):
            raise InvalidStateError(f"'points' must list {n} whole numbers")
        s.points = list(points)
    elif len(set(s.out_order)) == len(s.out_order):
        s.points = _expected(s)
    s.turns = _int(pos.get("turns", 0), "turns", 0, o.max_turns)
    # Left out, the player to act is the one the turn order gives: first_player, then
    # clockwise once per finished turn (exact while nobody is out; past those who are).
    to_act = (o.first_player + s.turns) % n
    while to_act in s.out_order and len(set(s.out_order)) < n:
        to_act = (to_act + 1) % n
    s.to_act = _int(pos.get("to_act", to_act), "to_act", 0, n - 1)
    s.quiet_turns = _int(pos.get("quiet_turns", 0), "quiet_turns", 0, s.turns)
    s.pass_streak = _int(pos.get("pass_streak", 0), "pass_streak", 0, s.quiet_turns)
    s.placed_this_turn = _bool(pos.get("placed_this_turn", False), "placed_this_turn")
    s.stale_recycle = _bool(pos.get("stale_recycle", False), "stale_recycle")
    reason = pos.get("end_reason")
    if reason is not None and reason not in END_REASONS:
        raise InvalidStateError(f"end_reason must be null or one of {', '.join(END_REASONS)}")
    s.end_reason = reason
    trouble = problems(s)
    if trouble:
        raise inconsistent("Clown 15 Go", trouble)


def _expected(s: Clown15GoPosition) -> list[int]:
    """The points the completed rows and the going-out order give (zero without the points
    rule)."""
    n = s.game.num_players
    return expected_points(n, s.completed, s.out_order) if s.game.options.points else [0] * n


def problems(s: Clown15GoPosition) -> list[str]:
    """Every broken invariant of ``s`` (empty when the position is consistent): every card
    once, rows running 1, 2, 3, ..., who is out, points as the rows and the going-out order
    give them, the phase, the end and G3's stall counters."""
    g = s.game
    n = g.num_players
    o = g.options
    d = g.deck
    out: list[str] = []
    # Conservation: every card of the deck exactly once.
    everything = [c for p in s.closed for c in p] + [c for p in s.open_piles for c in p]
    everything += [c for r in s.rows for c in r] + [c for _, r in s.completed for c in r]
    if s.pending is not None:
        everything.append(s.pending)
    seen: set[int] = set()
    for c in everything:
        if c in seen:
            out.append(f"card {d.text(c)} appears twice")
        seen.add(c)
    missing = sorted(set(d.cards) - seen)
    if missing:
        out.append(f"{count(len(missing), 'card')} missing, e.g. {d.text(missing[0])}")
    for i, row in enumerate(s.rows):
        if not row or [number(c) for c in row] != list(range(1, len(row) + 1)):
            out.append(f"rows[{i}] must run 1, 2, 3, ... from its bottom card")
        elif len(row) >= HIGHEST:
            out.append(f"rows[{i}] is complete: it belongs in 'completed'")
    if len(s.rows) > g.max_rows:
        out.append(f"{count(len(s.rows), 'row')} in the middle; {o.sets} sets make at most "
                   f"{g.max_rows}")
    for i, (by, cards) in enumerate(s.completed):
        if not 0 <= by < n:
            out.append(f"completed[{i}] names no player")
        if [number(c) for c in cards] != list(range(1, HIGHEST + 1)):
            out.append(f"completed[{i}] must be a whole row 1..15")
    if len(set(s.out_order)) != len(s.out_order):
        out.append("a player cannot go out twice")
    else:
        expect = _expected(s)
        if s.points != expect:
            out.append(f"'points' must be {expect} (completed rows and going out"
                       f"{'' if o.points else '; the points rule is off'}), not {s.points}")
    for q in range(n):
        if (s.cards_left(q) == 0) != (q in s.out_order):
            out.append(f"P{q} has {count(s.cards_left(q), 'card')}, so they are "
                       f"{'' if s.cards_left(q) == 0 else 'not '}out: 'out_order' disagrees")
    if not o.points and len(s.out_order) > 1:
        out.append("in the basic game the first player out ends the game")
    # A game can end (a borrow empties another player) while the turned card is in hand.
    if (s.phase == "card" and s.pending is None) or (s.phase == "turn" and s.pending is not None):
        out.append("a turned card ('pending') goes with phase 'card' and only then")
    reason = s.end_reason
    if s.phase == "over":
        if reason not in END_REASONS:
            out.append(f"a finished game needs end_reason, one of {', '.join(END_REASONS)}")
        if (reason == "went-out") != (not o.points and len(s.out_order) == 1):
            out.append("'went-out' ends a basic game whose winner has no cards")
        if (reason == "all-out") != (o.points and len(s.out_order) == n):
            out.append("'all-out' ends a points game when every player is out")
        if reason == "turn-limit" and s.turns < o.max_turns:
            out.append(f"'turn-limit' needs turns = max_turns ({o.max_turns})")
    else:
        if reason is not None:
            out.append("end_reason must be null while the game goes on")
        if s.to_act in s.out_order:
            out.append(f"P{s.to_act} is out and cannot be to act")
        if s.out_order and not o.points:
            out.append("a player is out: the basic game is over")
        if s.turns >= o.max_turns:
            out.append(f"turns must stay below max_turns ({o.max_turns})")
        still_in = n - len(s.out_order)
        # (A borrow this turn may have put a player out, shrinking the round: G3 is next
        # checked when the turn ends.)
        if not s.placed_this_turn and (s.quiet_turns >= o.stall_rounds * still_in
                                       or s.pass_streak >= still_in):
            out.append("quiet_turns has reached the stall limit")
    if not 0 <= s.pass_streak <= s.quiet_turns <= s.turns:
        out.append("the stall counters must satisfy 0 <= pass_streak <= quiet_turns <= turns")
    return out
