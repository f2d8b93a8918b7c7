"""What a learned SCOUT policy reads: each legal action described by the cards it moves,
beside the position as the mover sees it (:func:`action_features`).

A policy over a fixed action index must learn from card one-hots *by hand position* which
positions hold a set; described here instead, a Show is its length, its lowest number, how
much it beats the active set by and what it leaves in hand, a Scout the card it takes and the
best place for it, an Insert the hand it makes. The easy planner's own value of each action
(:class:`~bigtop.games.scout.bot.ScoutPlanner`'s measure) is one of the columns, so a network
starts from the rule of thumb and learns where the teacher departs from it. Only the mover's
own cards and public facts are read: fair.

>>> from bigtop import new_state
>>> s = new_state("scout", players=4, seed=3, options={"rounds": 1})
>>> rows = action_features(s, s.legal_actions())
>>> len(rows) == len(s.legal_actions()) and all(len(r) == FEATURES for r in rows)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bigtop.core.actions import Action
from bigtop.core.game import State
from bigtop.games.scout.bot import PLAN, ScoutPlanner, _hand_value, _HandShape
from bigtop.games.scout.rules import Insert, Pass, Scout, ScoutState, Show, TurnHand

_KINDS = 6  # show, scout, scout & show, insert, turn the hand, pass
ACTION_COLUMNS = _KINDS + 23
"""Columns that describe the action itself (the last two: whether it is the easy planner's
choice, and its planner value against that choice's)."""

CONTEXT_COLUMNS = 17
"""Columns that describe the position (the same in every row of one decision); the seats
are counted from the mover on, so they follow the four-player table (five with five)."""

_PLANNER = ScoutPlanner()
_HUGE = 1000.0  # an emptied hand's planner value (inf there)


def _context(state: ScoutState, p: int, n: int, value: int) -> list[float]:
    seats = state.game.num_players
    owner = state.active_owner
    rel = (owner - p) % seats if owner is not None else seats
    others = [(p + d) % seats for d in range(1, seats)]
    out = [1.0 if state.phase == "turn" else 0.0, 1.0 if state.phase == "show" else 0.0,
           1.0 if state.phase == "insert" else 0.0, n / 10.0, value / 10.0,
           len(state.active) / 5.0, 1.0 if state.show_tokens[p] else 0.0,
           (len(state.captured[p]) + state.scout_tokens[p]) / 10.0]
    # Who owns the active set (whom a Scout pays, whom a Show stops): the mover, the next...
    out += [1.0 if rel == d else 0.0 for d in (0, 1, seats - 1)] + [
        1.0 if owner is None else 0.0]
    # The others' hands and what they took, from the next seat on (the next seat moves
    # first: the one a weak Show lets through).
    out += [len(state.hands[q]) / 10.0 for q in others[:3]]
    out += [sum(len(state.captured[q]) + state.scout_tokens[q] for q in others) / 30.0,
            max(len(state.hands[q]) for q in others) / 10.0 - min(
                len(state.hands[q]) for q in others) / 10.0]
    return out[:CONTEXT_COLUMNS] + [0.0] * (CONTEXT_COLUMNS - len(out))


def action_features(state: State, legal: Sequence[Action]) -> list[list[float]]:
    """One row per action of ``legal`` (the mover's legal actions, or some of them):
    :data:`ACTION_COLUMNS` describing the action, then :data:`CONTEXT_COLUMNS` describing
    the position."""
    assert isinstance(state, ScoutState)
    p = state.current_player()
    hand = state.hands[p]
    tops = [c[0] for c in hand]
    n = len(tops)
    shape = _HandShape(tops)
    value = shape.value
    c = PLAN.shape
    beat = state.active_strength()
    captured = len(state.active)
    context = _context(state, p, n, value)
    pending = state.pending
    plan: list[float] = []
    rows: list[list[float]] = []
    show_values = []
    insert_values = []
    for a in legal:
        f = [0.0] * ACTION_COLUMNS
        if isinstance(a, Show):
            f[0] = 1.0
            after = shape.after_show(a.start, a.length)
            seg = tops[a.start:a.start + a.length]
            same = a.length > 1 and seg[0] == seg[1]
            strength = 32 * a.length + (16 if same or a.length == 1 else 0) + min(seg)
            out = a.length == n
            v = _HUGE if out else c * after - (n - a.length) + captured
            show_values.append((-(c * after + a.length), len(rows)))
            f[6] = 1.0 if out else 0.0
            f[7] = a.length / 5.0
            f[8] = (after - value) / 10.0
            f[9] = (n - a.length) / 10.0
            f[10] = 1.0 if same else 0.0
            f[11] = min(seg) / 10.0
            f[12] = min(strength - max(beat, 0), 96) / 32.0
        elif isinstance(a, Scout):
            f[2 if a.and_show else 1] = 1.0
            card = state.active[0] if a.end == "left" else state.active[-1]
            best = max(shape.best_insert(card[0])[0], shape.best_insert(card[1])[0])
            if a.and_show:
                v = _PLANNER._scout_and_show(state, shape, card, a.end) - PLAN.token
                v = _HUGE if v == math.inf else v
            else:
                v = c * best - (n + 1)
            v -= PLAN.scout
            f[14] = max(card) / 10.0
            f[15] = min(card) / 10.0
            f[16] = (best - value) / 10.0
            f[17] = 1.0 if a.end == "left" else 0.0
            f[18] = (captured - 1) / 5.0
            rest = state.strength_after_scout(a.end)
            f[19] = (rest - beat) / 32.0 if rest >= 0 else -1.0
        elif isinstance(a, Insert):
            f[3] = 1.0
            assert pending is not None
            number = pending[1] if a.flip else pending[0]
            after = shape.after_insert(a.position, number)
            v = c * after
            insert_values.append((-after, len(rows)))
            f[20] = 1.0 if a.flip else 0.0
            f[21] = a.position / max(n, 1)
            f[22] = (after - value) / 10.0
            f[23] = number / 10.0
            f[24] = 1.0 if 0 < a.position < n and abs(tops[a.position - 1] - number) <= 1 \
                and abs(tops[a.position] - number) <= 1 else 0.0
        elif isinstance(a, TurnHand):
            f[4] = 1.0
            turned = _hand_value([x[1] for x in reversed(hand)])
            v = c * turned - n + (0.5 if turned > value else -0.5)
            f[25] = (turned - value) / 10.0
        else:
            assert isinstance(a, Pass)
            f[5] = 1.0
            v = float(-n) - PLAN.scout
        plan.append(v)
        rows.append(f)
    for ranked, col in ((show_values, 13), (insert_values, 26)):
        ranked.sort()
        for r, (_, i) in enumerate(ranked):
            rows[i][col] = min(r, 5) / 5.0
    if rows:
        top = max(plan)
        for f, v in zip(rows, plan, strict=True):
            # The planner's value against the best action's: 0 for its choice.
            f[27] = 1.0 if v == top else 0.0
            f[28] = max(v - top, -5.0) / 5.0
            f.extend(context)
    return rows


FEATURES = ACTION_COLUMNS + CONTEXT_COLUMNS
"""Columns of a row."""
