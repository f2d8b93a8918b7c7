"""So ein Zirkus fuzz against an independent reading of the rulebook (003_97aa81262881367c.txt;
facts and rulings Z1–Z19 in shared/rules/so-ein-zirkus.md and docs/so-ein-zirkus.md): random
legal play (die rolls drawn from the legal faces too) from many seeds under every conformance
option set, 2–4 players; before every move the engine's legal actions must equal those a
brute-force reading of the rules gives, and after it the move must have done what the
rulebook says (balls dropped, clowns moved or pushed, the turn passed or lost).

The oracle is deliberately naive — every step string tried on a board of named fields
(column letter, row number), one push at most — and shares no code with the engine's path
generator, its caches or its walk."""

from __future__ import annotations

import random
from itertools import product
from typing import Any

import pytest

from bigtop.core.registry import new_game
from bigtop.games.zirkus import (
    Add,
    BackToStart,
    Move,
    Restart,
    Roll,
    Upend,
    ZirkusGame,
    ZirkusState,
)
from tests.games.audit import play_checked

COLOURS = ["red", "yellow", "blue", "green"]
FACES = [*COLOURS, "black", "white"]
# "Clowns may move forward or sideways in any combination, but diagonal movement is not
# allowed": (columns, rows) per step; no backward step ("clowns do not move backwards").
DELTA = {"F": (0, 1), "L": (-1, 0), "R": (1, 0)}
PATHS = ["".join(p) for n in (1, 2, 3) for p in product("FLR", repeat=n)]


class Table:
    """The position read from a state in the rulebook's own terms: clowns on named fields
    (None: off the board), stacks bottom first as colour names, holes by field name."""

    def __init__(self, s: ZirkusState) -> None:
        g = s.game
        self.game = g
        self.names = g.field_names
        self.cols, self.rows = g.board.columns, g.board.rows
        self.fields: list[str | None] = [self.names[f] if f >= 0 else None
                                         for f in s.clown_field]
        self.stacks = [[COLOURS[c] for c in st] for st in s.stacks]
        holes = g.field_names_of_holes()
        self.value = dict(zip(holes, g.hole_value, strict=True))
        self.hole: dict[str, str | None] = {
            h: (COLOURS[b] if b >= 0 else None) for h, b in zip(holes, s.hole_ball, strict=True)}
        self.six = holes[g.six]
        self.starts = [self.names[f] for f in g.board.start]
        self.supply = {COLOURS[c]: s.supply[c] for c in range(4)}

    def at(self, name: str, d: str) -> str | None:
        """The field one step ``d`` from ``name``, or None beyond the edge."""
        col, row = ord(name[0]) - ord("A") + DELTA[d][0], int(name[1:]) + DELTA[d][1]
        if not (0 <= col < self.cols and 1 <= row <= self.rows):
            return None
        return f"{chr(ord('A') + col)}{row}"

    def who(self, name: str | None) -> int | None:
        return next((k for k, f in enumerate(self.fields) if f == name), None)

    def path_ok(self, k: int, path: str) -> bool:
        """Can clown ``k`` walk ``path``? No field twice in the move (its own field
        included: "may not return ... to a square it has already passed or has left"), no
        clown passed through ("A square already occupied by another clown may not be passed
        through") unless shoving: one push per move, one field on, onto a free field, off the
        board only with clumsy clown."""
        o = self.game.options
        fields = list(self.fields)
        pos = fields[k]
        assert pos is not None
        seen = {pos}
        pushed = False
        for d in path:
            nxt = self.at(pos, d)
            if nxt is None or nxt in seen:
                return False
            other = next((j for j, f in enumerate(fields) if f == nxt and j != k), None)
            if other is not None:
                if o.shoving == "off" or pushed:
                    return False
                beyond = self.at(nxt, d)
                if beyond is None:
                    if o.shoving != "clumsy":
                        return False
                elif beyond in fields:
                    return False
                fields[other] = beyond
                pushed = True
            fields[k] = nxt
            seen.add(nxt)
            pos = nxt
        return True

    def paths(self, k: int) -> list[str]:
        """"The length of a move depends on the number of balls the clown contains ... Where
        possible, the full move must be made" (Z2, option short_move); lazy clown: "You are
        not obliged to use all of the movement points"."""
        o = self.game.options
        n = len(self.stacks[k])
        ok = {m: [p for p in PATHS if len(p) == m and self.path_ok(k, p)] for m in (1, 2, 3)}
        if o.lazy_clown:
            return [p for m in range(1, n + 1) for p in ok[m]]
        if ok.get(n) or o.short_move == "no-move":
            return ok.get(n, [])
        return next((ok[m] for m in range(n - 1, 0, -1) if ok[m]), [])


def reference_legal(s: ZirkusState) -> set[object]:
    if s.phase == "roll":
        return {Roll(f) for f in FACES}  # type: ignore[arg-type]
    t = Table(s)
    free = [f for f in t.starts if f not in t.fields]
    if s.phase == "restart":
        return {Restart(f) for f in free}
    return act_reference(t, FACES[s.roll])


def act_reference(t: Table, face: str) -> set[object]:
    o = t.game.options
    out: set[object] = set()
    # "he puts a ball of the colour that was rolled into the clown of his choice ... If a
    # player has rolled black or white, he may place a ball of the colour of his choice."
    # "Each clown can hold a maximum of three balls at a time."
    colours = [face] if face in COLOURS else COLOURS
    for k in range(3):
        if len(t.stacks[k]) < 3:
            out |= {Add(k, c) for c in colours if t.supply[c] > 0}  # type: ignore[arg-type]
    # "The player may move a clown whose top ball matches the colour that was rolled ... A
    # player who rolled black or white may move any clown." (Z1: never an empty one.)
    for k in range(3):
        st = t.stacks[k]
        if st and (face in ("black", "white") or st[-1] == face):
            out |= {Move(k, p) for p in t.paths(k)}
    if face == "black":
        # "he may bring a clown back to one of the starting squares" (Z8: a clown not on a
        # start field, to a free one); upside-down: "move the bottom ball of a clown upward".
        free = [f for f in t.starts if f not in t.fields]
        for k in range(3):
            if t.fields[k] not in t.starts:
                out |= {BackToStart(k, f) for f in free}
            if o.upside_down and len(t.stacks[k]) >= 2:
                out.add(Upend(k))
    return out


def walk(t: Table, k: int, path: str) -> tuple[bool, int | None]:
    """Walk clown ``k`` along ``path`` on ``t`` as the rulebook says; (did the 6-point hole
    fill, the clown pushed off the board or None)."""
    o = t.game.options
    ejected = None

    def enter(j: int, name: str, stops: bool) -> bool:
        # A ball "falls into a hole": the bottom one (a hollow clown), into an empty hole,
        # also on the last field (Z4, option drop_on_stop); a pushed clown stops (Z15).
        if name in t.hole and t.hole[name] is None and t.stacks[j] and (
                o.drop_on_stop or not stops):
            t.hole[name] = t.stacks[j].pop(0)
            return name == t.six  # "The game ends as soon as a ball falls into the last hole"
        return False

    for i, d in enumerate(path):
        pos = t.fields[k]
        assert pos is not None
        nxt = t.at(pos, d)
        assert nxt is not None
        other = t.who(nxt)
        ended = False
        if other is not None:
            beyond = t.at(nxt, d)
            if beyond is None:  # clumsy clown: "returns ... without any balls. The balls
                for c in t.stacks[other]:  # are available again."
                    t.supply[c] += 1
                t.stacks[other] = []
                t.fields[other] = None
                ejected = other
            else:
                t.fields[other] = beyond
                t.fields[k] = nxt
                ended = enter(other, beyond, True)
        t.fields[k] = nxt
        if ended or enter(k, nxt, i == len(path) - 1):
            return True, ejected
    return False, ejected


def check_effect(before: ZirkusState, action: Any, after: ZirkusState) -> None:
    """What each move does, by the rulebook; then the next player rolls ("Then it is the next
    player's turn"), unless the game ended or a pushed-off clown waits for its field."""
    n = before.game.num_players
    p = before.to_act
    new_game_started = len(after.games) > len(before.games)
    if isinstance(action, Roll):
        if after.phase == "act":
            assert after.to_act == p and FACES[after.roll] == action.face
        elif not new_game_started and not after.finished:
            # "If a player can neither move a clown nor add a ball to a clown, that player
            # loses his turn and the next player plays."
            assert act_reference(Table(before), action.face) == set()
            assert after.phase == "roll" and after.to_act == (p + 1) % n
        return
    t = Table(before)
    ended = False
    if isinstance(action, Add):
        t.supply[action.colour] -= 1
        f = t.fields[action.clown]
        if f in t.hole and t.hole[f] is None and t.game.options.drop_on_stop:
            t.hole[f] = action.colour  # Z10: it falls through the clown into the hole
            ended = f == t.six
        else:
            t.stacks[action.clown].append(action.colour)
    elif isinstance(action, Move):
        ended, ejected = walk(t, action.clown, action.steps)
        if ejected is not None:
            free = [f for f in t.starts if f not in t.fields]
            if ended:  # Z6: the game is over; the clown just goes to a free start field
                t.fields[ejected] = free[0]
            elif len(free) > 1:
                assert after.phase == "restart" and after.to_act == p
                assert after.ejected == ejected
                t.fields[ejected] = None
            else:
                t.fields[ejected] = free[0]
    elif isinstance(action, BackToStart):
        t.fields[action.clown] = action.field  # it keeps its balls (Z8)
    elif isinstance(action, Upend):
        st = t.stacks[action.clown]
        st.append(st.pop(0))
    else:
        assert isinstance(action, Restart)
        t.fields[before.ejected] = action.field
    if new_game_started:
        # The game's record holds the board as the move left it (clowns are set up anew).
        assert after.games[-1]["holes"] == t.hole
        if ended:
            assert after.games[-1]["ending"] == "six-hole"
        if after.finished:  # the last game's board stays as the move left it
            got = Table(after)
            assert got.fields == t.fields and got.stacks == t.stacks and got.hole == t.hole
        return
    assert not ended, "the 6-point hole filled, yet the game goes on"
    got = Table(after)
    assert got.fields == t.fields and got.stacks == t.stacks
    assert got.hole == t.hole and got.supply == t.supply
    if after.phase != "restart":
        assert after.phase == "roll" and after.to_act == (p + 1) % n


CASES = [(players, k) for k in range(len(ZirkusGame.conformance_options(4)))
         for players in (2, 3, 4)]


@pytest.mark.parametrize("players,k", CASES)
def test_random_play_matches_the_reference(players: int, k: int) -> None:
    """Every conformance option set, 2–4 players, two seeded games (series) each: the legal
    actions equal the reference's before every move and each move's effect is the
    rulebook's."""
    options = ZirkusGame.conformance_options(players)[k]
    g = new_game("so-ein-zirkus", players, options)
    assert isinstance(g, ZirkusGame)
    steps = 0
    for seed in range(2):
        s = g.new_initial_state(1000 * k + 10 * players + seed)
        assert isinstance(s, ZirkusState)
        steps += play_checked(s, random.Random(seed), reference_legal, check_effect)
    assert steps > 20


def test_hand_written_crowded_positions_match_the_reference() -> None:
    """Positions random play seldom reaches — clowns packed together next to the edges and
    the holes, full stacks — for every die face, with and without shoving: the legal actions
    equal the reference's."""
    from bigtop.core.errors import InvalidStateError
    from tests.games.zirkus.helpers import load

    rng = random.Random(5)
    checked = 0
    games = [new_game("so-ein-zirkus", 4, o) for o in (
        {}, {"shoving": "shove"}, {"shoving": "clumsy"}, {"lazy_clown": True},
        {"short_move": "as-far-as-possible", "upside_down": True}, {"drop_on_stop": False})]
    for _ in range(600):
        g = rng.choice(games)
        assert isinstance(g, ZirkusGame)
        row_low, row_high = rng.choice([(1, 3), (1, 8), (6, 8)])  # near start, anywhere, end
        fields = rng.sample([f"{c}{r}" for c in "ABC" for r in range(row_low, row_high + 1)],
                            3)
        pool = [c for c in COLOURS for _ in range(3)]
        rng.shuffle(pool)
        spec = []
        for f in fields:
            m = rng.randrange(0, 4)
            spec.append({"field": f, "balls": [pool.pop() for _ in range(m)]})
        face = rng.choice(FACES)
        try:
            s = load(g, phase="act", roll=face, turn=1, clowns=spec)
        except InvalidStateError:
            continue  # a clown with balls over an empty hole, or nothing possible
        assert set(s.legal_actions()) == reference_legal(s), s.to_json()
        checked += 1
    assert checked > 200
