"""What a learned So ein Zirkus policy reads: each legal action described by what it moves
and what it leaves, beside the position as the mover sees it (:func:`action_features`).

A turn's choice is which clown gets the rolled ball (and, on black or white, which
colour), which clown walks and by which path (ruling Z3: two paths to one field can drop
different balls), or which clown goes back to start. What decides the game is which
colours lie in the holes when the 6-point hole is filled, and which bottom balls stand
next to empty holes: the rule of thumb (``games/zirkus/bot.py``) values an action by the
mover's points minus the best rival's, plus each colour's *threats* (the best empty hole
its bottom balls could reach with one more move of their clown). An action is described
by its kind, the clown it acts on (its balls, its row, what lies at its bottom before and
after), the points it drops for the mover and the rival, the threats it leaves both, how
many actions lead to the same position (paths with the same end and the same drops play
alike: the first of them stands for all), whether it ends the game and how, the rule of
thumb's own score of it against its choice's, and whether it is that choice (the one the
planner's rollouts break ties with), so a network starts from the rule of thumb and
learns where the teacher departs from it.

The teacher (``medium-plain``: the 1-ply planner with rollouts of the rule of thumb, 12
steps) looks past the next roll; so does a row's playout (:func:`_look_ahead`): the rule
of thumb plays every seat on for :data:`HORIZON` steps from after the action under
:data:`PLAYOUTS` fixed sequences of die rolls, scored as medium's rollouts score them.
The rolls come from public seeds (never the state's own seed, which draws the real
future), the same for every action of a decision, so the actions are compared under the
same luck, as the planner compares them.

Hidden information: the future die rolls (chance, drawn from the state's seed) and, with
the ``secret_clown`` variant only, the other players' colours (ruling Z5). Neither is
read: the rows depend on the mover's own colour and public facts only; with secret clown
a rival counts the average of the colours the mover does not hold (as the rule of thumb
counts one), and the playout, which would need every seat's colour, is left out (its flag
column says so).

>>> from bigtop import new_state
>>> s = new_state("so-ein-zirkus", players=2, seed=3)
>>> while s.is_chance():
...     _ = s.apply_chance()
>>> rows = action_features(s, s.legal_actions())
>>> len(rows) == len(s.legal_actions()) and all(len(r) == FEATURES for r in rows)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from bigtop.agents.base import Agent
from bigtop.agents.ismcts import playout
from bigtop.agents.ismcts import values as search_values
from bigtop.core.actions import Action
from bigtop.core.game import State
from bigtop.core.rng import derive_seed
from bigtop.games.zirkus.actions import CLOWN_CAPACITY, FACES
from bigtop.games.zirkus.bot import SEARCH, ZirkusBot, _rollout_player, _threats, evaluate
from bigtop.games.zirkus.rules import (
    Add,
    BackToStart,
    Move,
    Restart,
    Upend,
    ZirkusState,
)

_KINDS: tuple[type[Action], ...] = (Add, Move, BackToStart, Upend, Restart)
KIND_COLUMNS = len(_KINDS)
"""The first columns: the action's kind, one-hot (add, move, back to start, upend,
restart)."""

FIRST_OF_SAME = KIND_COLUMNS + 16
"""The column that says an action is the first of those leading to the same position."""

ENDS = KIND_COLUMNS + 18
"""The column that says the action ends the game (the next one: won +1, shared 0, lost
-1)."""

LOOK_AHEAD = KIND_COLUMNS + 20
"""The column of the rule of thumb's playouts from after the action (:func:`_look_ahead`),
and the next one says whether they were played (not with secret clown)."""

ACTION_COLUMNS = KIND_COLUMNS + 25
"""Columns that describe the action itself (the last three: whether it is the rule of
thumb's choice, whether the rule of thumb scores it best, and its score against the
best)."""

CONTEXT_COLUMNS = 16
"""Columns that describe the position (the same in every row of one decision)."""

FEATURES = ACTION_COLUMNS + CONTEXT_COLUMNS
"""Columns of a row."""

PLAYOUTS = 4
"""Die-roll sequences a row's playout is played under (:func:`_look_ahead`)."""

HORIZON = SEARCH.horizon or 12
"""Steps (rolls and moves) of a playout: medium's rollouts' own horizon."""

_PLAYOUT = replace(SEARCH, epsilon=0.0)
"""Medium's rollouts (the rule of thumb in every seat, the score-difference reward, the
winner's bonus) without their random moves."""

_POINTS = 6.0
"""The unit of points in a row: the best hole."""


def _rival(values: Sequence[float], state: ZirkusState, p: int) -> float:
    """The rival's value of a per-colour list ``values``, as ``p`` sees it: the best other
    seat's colour, or with secret clown (others' colours unknown) the average of the
    colours in play that ``p`` does not hold."""
    own = state.colours[p]
    if state.game.secret:
        others = [c for c in range(4) if c != own and state.in_play()[c]]
        return sum(values[c] for c in others) / max(len(others), 1)
    n = state.game.num_players
    return max((values[state.colours[q]] for q in range(n) if q != p), default=0.0)


def _standing(state: ZirkusState, p: int) -> tuple[float, float, float, float]:
    """``p``'s points and threats, and the rival's (:func:`_rival`), in the game in
    progress."""
    pts = [float(x) for x in state.colour_points()]
    threats = _threats(state)
    own = state.colours[p]
    return pts[own], _rival(pts, state, p), threats[own], _rival(threats, state, p)


def _outcome(after: ZirkusState) -> tuple[object, ...]:
    """What two actions must leave alike to play alike (the clowns, their balls, the holes,
    the supply, the phase)."""
    return (tuple(after.clown_field), tuple(tuple(s) for s in after.stacks),
            tuple(after.hole_ball), tuple(after.supply), after.phase, after.to_act,
            len(after.games), after.finished)


def _bottom(state: ZirkusState, k: int, own: int) -> float:
    """The bottom ball of clown ``k`` (the one the next empty hole takes): +1 the mover's
    colour, -1 another, 0 none."""
    if k < 0 or not state.stacks[k]:
        return 0.0
    return 1.0 if state.stacks[k][0] == own else -1.0


def _look_ahead(state: ZirkusState, after: ZirkusState, p: int) -> float:
    """``p``'s mean reward from :data:`PLAYOUTS` playouts of the rule of thumb from
    ``after`` (medium's rollouts without their random moves, scored as they score: the
    score-difference gains over ``state``'s values), each under die rolls drawn from a
    public seed: the playout number and the turn, never the state's own seed."""
    n = state.game.num_players
    base = search_values(state, _PLAYOUT)
    total = 0.0
    for j in range(PLAYOUTS):
        det = after.clone()
        det.seed = derive_seed(0, "zirkus-playout", j, state.turn)
        players: list[Agent] = [_rollout_player(state.game, q) for q in range(n)]
        total += playout(det, base, _PLAYOUT, players, random.Random(j), HORIZON)[p]
    return total / PLAYOUTS


def _clown_of(state: ZirkusState, a: Action) -> int:
    """The clown an action acts on (the ejected one for a Restart), or -1."""
    if isinstance(a, Add | Move | BackToStart | Upend):
        return a.clown
    return state.ejected


def _context(state: ZirkusState, p: int, legal: int) -> list[float]:
    g = state.game
    own = state.colours[p]
    mine, rival, my_threat, rival_threat = _standing(state, p)
    n = g.num_players
    others = [state.totals[q] for q in range(n) if q != p]
    empty = sum(1 for b in state.hole_ball if b < 0)
    six_free = 1.0 if state.hole_ball[g.six] < 0 else 0.0
    face = [0.0] * len(FACES)
    if state.roll >= 0:
        face[state.roll] = 1.0
    rival_supply = _rival([float(x) for x in state.supply], state, p)
    out = [*face,
           (mine - rival) / _POINTS, (my_threat - rival_threat) / _POINTS,
           (state.totals[p] - max(others, default=0)) / 10.0,
           empty / max(len(g.hole_value), 1), six_free,
           state.supply[own] / 3.0, rival_supply / 3.0,
           min(state.turn / 100.0, 3.0), legal / 20.0]
    return out[:CONTEXT_COLUMNS] + [0.0] * (CONTEXT_COLUMNS - len(out))


def action_features(state: State, legal: Sequence[Action]) -> list[list[float]]:
    """One row per action of ``legal`` (the mover's legal actions, or some of them):
    :data:`ACTION_COLUMNS` describing the action, then :data:`CONTEXT_COLUMNS` describing
    the position."""
    assert isinstance(state, ZirkusState)
    g = state.game
    p = state.current_player()
    own = state.colours[p]
    rows_of_board = max(g.board.rows - 1, 1)
    mine, rival, my_threat, rival_threat = _standing(state, p)
    context = _context(state, p, len(legal))
    # The planner's tie-break: a fresh rule-of-thumb bot of the seat (its random choice
    # among equals is seeded by the seat, not by the state).
    choice = ZirkusBot(seed=p).act(state.clone()) if legal else None
    playouts = not g.secret and PLAYOUTS > 0
    easy: list[float] = []
    rows: list[list[float]] = []
    seen: dict[tuple[object, ...], int] = {}
    same: list[tuple[object, ...]] = []
    for a in legal:
        f = [0.0] * ACTION_COLUMNS
        f[_KINDS.index(type(a))] = 1.0
        k = _clown_of(state, a)
        after = state.clone()
        after.apply(a)
        c = KIND_COLUMNS
        if k >= 0:
            stack = state.stacks[k]
            f[c] = len(stack) / CLOWN_CAPACITY
            field = state.clown_field[k]
            if field >= 0:
                f[c + 1] = (field // g.board.columns) / rows_of_board
            f[c + 2] = _bottom(state, k, own)
            f[c + 3] = _bottom(after, k, own)
            moved_to = after.clown_field[k]
            if field >= 0 and moved_to >= 0:
                f[c + 4] = (moved_to // g.board.columns - field // g.board.columns) / 3.0
        if isinstance(a, Add):
            colour = g.colour_number[a.colour]
            f[c + 5] = 1.0 if colour == own else 0.0
            f[c + 6] = 1.0 if not state.stacks[a.clown] else 0.0  # it goes to the bottom
        if isinstance(a, Move):
            f[c + 7] = len(a.steps) / CLOWN_CAPACITY
        a_mine, a_rival, a_my_threat, a_rival_threat = _standing(after, p)
        if len(after.games) > len(state.games):
            # The game just ended (and the next of a series is set up): its record counts.
            vals = dict(zip(g.field_names_of_holes(), g.hole_value, strict=True))
            pts = [0.0] * 4
            for name, ball in after.games[len(state.games)]["holes"].items():
                if ball is not None:
                    pts[g.colour_number[ball]] += vals[name]
            a_mine, a_rival = pts[own], _rival(pts, state, p)
            a_my_threat = a_rival_threat = 0.0
            f[ENDS] = 1.0
            f[ENDS + 1] = 1.0 if a_mine > a_rival else (0.0 if a_mine == a_rival else -1.0)
        f[c + 8] = (a_mine - mine) / _POINTS
        f[c + 9] = (a_rival - rival) / _POINTS
        f[c + 10] = a_my_threat / _POINTS
        f[c + 11] = a_rival_threat / _POINTS
        f[c + 12] = (a_my_threat - my_threat) / _POINTS
        f[c + 13] = (a_rival_threat - rival_threat) / _POINTS
        f[c + 14] = ((a_mine - a_rival) - (mine - rival)) / _POINTS
        f[c + 15] = 1.0 if a_mine + a_my_threat > a_rival + a_rival_threat else 0.0
        key = _outcome(after)
        f[FIRST_OF_SAME] = 1.0 if key not in seen else 0.0
        seen[key] = seen.get(key, 0) + 1
        same.append(key)
        if playouts:
            f[LOOK_AHEAD] = _look_ahead(state, after, p)
            f[LOOK_AHEAD + 1] = 1.0
        f[-3] = 1.0 if a == choice else 0.0
        easy.append(evaluate(state, after, p, own))
        rows.append(f)
    if rows:
        best = max(easy)
        for f, s, key in zip(rows, easy, same, strict=True):
            f[FIRST_OF_SAME + 1] = (seen[key] - 1) / 10.0
            f[-2] = 1.0 if s >= best - 1e-9 else 0.0
            # The rule of thumb counts ten a point (a hundred once the game is over): a
            # row tells up to six points apart.
            f[-1] = max(s - best, -60.0) / 20.0
            f.extend(context)
    return rows
