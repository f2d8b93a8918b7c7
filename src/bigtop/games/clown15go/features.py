"""What a learned Clown 15 Go policy reads: each legal action described by where the card
goes and what that leaves, beside the position as the mover sees it
(:func:`action_features`).

In the basic game the only choice is where a card that fits goes: on a middle row or on
another player's open pile (dumping it there hands them a card), and which row or player.
An action is described by its kind, the row it lands on (its length, whether it completes
the row, whether it is the first of the rows with the same top: equal rows play alike),
the player it lands on (their cards left, whether they lead, whether their top would fit
the middle, whether their seat moves next), what it leaves for the mover's next turned card
(the easy bot's chance that the next card fits, and the same for the next seat; when the
mover's closed pile was renewed by turning the open pile over, its order is public (ruling
G4) and the next card and how many cards in a row would then be placed are read exactly)
and the easy bot's own score of it, so a network starts from the rule of thumb and learns
where the teacher departs from it. Once every closed pile has been renewed that way nothing
is hidden any more, and the teacher (``medium-plain``: the planner's rollouts of the easy
bot) in effect plays the line it sees: a row then also holds that line's result, a playout
of the easy bots from after the action (:func:`_look_ahead`). Never read: the order of a
closed pile dealt at the start (nobody knows it, its owner included); closed piles enter
only as their sizes and the union of their numbers.

>>> from bigtop import new_state
>>> s = new_state("clown-15-go", players=2, seed=3)
>>> rows = action_features(s, s.legal_actions())
>>> len(rows) == len(s.legal_actions()) and all(len(r) == FEATURES for r in rows)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from bigtop.agents.base import Agent
from bigtop.agents.ismcts import playout
from bigtop.core.actions import Action
from bigtop.core.game import State
from bigtop.games.clown15go.bot import (
    EASY_FIT_WEIGHT,
    SEARCH,
    Clown15GoBot,
    _closed_numbers,
    _fitting_numbers,
    _middle_size,
    _rollout_player,
)
from bigtop.games.clown15go.cards import HIGHEST, colour, number
from bigtop.games.clown15go.rules import (
    Borrow,
    Clown15GoState,
    LayDown,
    NewRow,
    Pass,
    ToOwnPile,
    ToPile,
    ToRow,
    TurnOver,
)

_KINDS: tuple[type[Action], ...] = (NewRow, ToRow, ToPile, ToOwnPile, LayDown, TurnOver,
                                    Pass, Borrow)
KIND_COLUMNS = len(_KINDS)
"""The first columns: the action's kind, one-hot (new row, row, pile, own pile, lay down,
turn over, pass, borrow); :data:`FIRST_OF_EQUAL` and :data:`KNOWN_RUN` follow."""

FIRST_OF_EQUAL = KIND_COLUMNS + 3
"""The column that says a row is the first of the rows with its top number."""

KNOWN_RUN = KIND_COLUMNS + 15
"""The column of the cards the mover then places in a row, when its next cards are known."""

LOOK_AHEAD = KIND_COLUMNS + 19
"""The column of the easy bots' playout from after the action, when every closed pile's
order is public (:func:`_look_ahead`), and the next one says whether it is."""

ACTION_COLUMNS = KIND_COLUMNS + 23
"""Columns that describe the action itself (the last two: whether it is the easy bot's
choice, and its easy score against that choice's)."""

CONTEXT_COLUMNS = 16
"""Columns that describe the position (the same in every row of one decision); the other
players are counted from the mover on."""

FEATURES = ACTION_COLUMNS + CONTEXT_COLUMNS
"""Columns of a row."""

_EASY = Clown15GoBot(fit_weight=EASY_FIT_WEIGHT)
"""The ``easy`` level's scoring (its memory of when the middle last grew is not used: it is
the bot's, not the position's)."""

_RUN = 15
"""The longest run of known cards :func:`_known_run` counts."""


def _order_known(state: Clown15GoState, p: int) -> bool:
    """Whether ``p``'s closed pile's order is public: renewed by turning the open pile over
    as it lay (ruling G4), never by a shuffle."""
    return state.recycled[p] and state.game.options.recycle == "turn-over"


def _known_run(after: Clown15GoState, p: int) -> int:
    """Cards ``p`` goes on to place this turn after the action, when ``p``'s next cards are
    known (:func:`_order_known`): a card that fits goes to the middle if it can, else on
    another pile (the easy bot's first choices); a turn that ends, or a card that fits
    nowhere, stops the count."""
    run = 0
    s = after.clone()
    while run < _RUN and s.current_player() == p and s.phase == "card":
        if not _order_known(s, p):
            break  # the pile was renewed again under a shuffle (or is empty): unknown
        legal = s.legal_actions()
        pick = next((a for a in legal if type(a) in (NewRow, ToRow)), None) or next(
            (a for a in legal if type(a) in (ToPile, ToOwnPile)), None)
        if pick is None:
            break
        s.apply(pick)
        run += 1
    return run


_PLAYOUT = replace(SEARCH, epsilon=0.0)
"""Medium's rollouts (the easy bot in every seat, 60 steps, the score-difference reward),
without their random moves: with every order public a playout is then one fixed line."""


def _all_known(state: Clown15GoState) -> bool:
    """Whether every closed pile's order is public (each renewed by turning the open pile
    over, or empty): nothing is hidden, and the game's future under fixed bots is public."""
    return all(_order_known(state, q) or not state.closed[q]
               for q in range(state.game.num_players))


def _look_ahead(state: Clown15GoState, after: Clown15GoState, p: int) -> float:
    """``p``'s reward from a playout of the easy bots from ``after`` (as medium's rollouts
    score it: the score-difference gains over ``state``'s scores)."""
    n = state.game.num_players
    players: list[Agent] = [_rollout_player(state.game, q) for q in range(n)]
    rewards = playout(after.clone(), state.scores(), _PLAYOUT, players,
                      random.Random(0), _PLAYOUT.horizon or 60)
    return rewards[p]


def _next_fits(after: Clown15GoState, p: int, weights: Counter[int], total: int) -> float:
    """The chance that ``p``'s next turned card fits somewhere after the action: exactly
    (0 or 1) when the order is known and the card is the pending one, else the easy bot's
    share of the cards that may come."""
    fits = _fitting_numbers(after, p)
    if after.current_player() == p and after.phase == "card" and after.pending is not None \
            and _order_known(after, p):
        return 1.0 if number(after.pending) in fits else 0.0
    return sum(weights[v] for v in fits) / total


def _context(state: Clown15GoState, p: int, legal: int) -> list[float]:
    g = state.game
    n = g.num_players
    size = len(g.deck.cards)
    others = [(p + d) % n for d in range(1, n) if (p + d) % n not in state.out_order]
    left = [state.cards_left(q) for q in others] or [0]
    card = state.card_in_play()
    o = g.options
    still_in = max(n - len(state.out_order), 1)
    out = [1.0 if state.phase == "card" else 0.0,
           number(card) / HIGHEST if card is not None else 0.0,
           state.cards_left(p) / size * n / 2, len(state.closed[p]) / size * n / 2,
           len(state.open_piles[p]) / size * n / 2,
           1.0 if _order_known(state, p) else 0.0,
           min(left) / size * n / 2, left[0] / size * n / 2,
           sum(left) / len(left) / size * n / 2,
           len(state.rows) / max(g.max_rows, 1), _middle_size(state) / size,
           state.quiet_turns / (o.stall_rounds * still_in), legal / 10.0,
           state.points[p] / 150.0, 1.0 if o.points else 0.0,
           1.0 if o.open_pile_first or o.own_pile or o.borrowing else 0.0]
    return out[:CONTEXT_COLUMNS] + [0.0] * (CONTEXT_COLUMNS - len(out))


def action_features(state: State, legal: Sequence[Action]) -> list[list[float]]:
    """One row per action of ``legal`` (the mover's legal actions, or some of them):
    :data:`ACTION_COLUMNS` describing the action, then :data:`CONTEXT_COLUMNS` describing
    the position."""
    assert isinstance(state, Clown15GoState)
    g = state.game
    p = state.current_player()
    n = g.num_players
    size = len(g.deck.cards)
    o = g.options
    card = state.card_in_play()
    weights = _closed_numbers(state, p)
    total = sum(weights.values()) or 1
    basic = not (o.open_pile_first or o.own_pile or o.borrowing or o.points)
    fit_weight = EASY_FIT_WEIGHT if basic else 1.0
    cards = [state.cards_left(q) for q in range(n)]
    others = [cards[q] for q in range(n) if q != p and not state.is_out(q)]
    nxt = (p + 1) % n
    while nxt in state.out_order and nxt != p:
        nxt = (nxt + 1) % n
    theirs = _closed_numbers(state, nxt)
    their_total = sum(theirs.values()) or 1
    context = _context(state, p, len(legal))
    known = _order_known(state, p)
    # Only when no order is hidden may a playout read the piles (the turned card is public).
    visible = _all_known(state)
    easy: list[float] = []
    rows: list[list[float]] = []
    seen_tops: Counter[int] = Counter()
    for a in legal:
        f = [0.0] * ACTION_COLUMNS
        t = type(a)
        f[_KINDS.index(t)] = 1.0
        k = KIND_COLUMNS
        if t in (NewRow, ToRow, Borrow):
            f[k] = 1.0  # a card to the middle for good
        if isinstance(a, ToRow) and a.row < len(state.rows):
            row = state.rows[a.row]
            top = number(row[-1])
            f[k + 1] = len(row) / HIGHEST
            f[k + 2] = 1.0 if len(row) == HIGHEST - 1 else 0.0
            # Rows with the same top differ only in colour: the first of them stands for all.
            f[FIRST_OF_EQUAL] = 1.0 if seen_tops[top] == 0 else 0.0
            seen_tops[top] += 1
            if card is not None:
                f[k + 4] = 1.0 if all(colour(c) == colour(card) for c in row) else 0.0
        q = a.player if isinstance(a, ToPile | Borrow) else None
        if q is not None and 0 <= q < n and q != p:
            f[k + 5] = cards[q] / size * n / 2
            f[k + 6] = 1.0 if others and cards[q] == min(others) else 0.0
            f[k + 7] = (cards[q] - cards[p]) / size * n / 2
            f[k + 8] = len(state.open_piles[q]) / size * n / 2
            f[k + 9] = len(state.closed[q]) / size * n / 2
            pile = state.open_piles[q]
            if pile:
                top = number(pile[-1])
                f[k + 10] = 1.0 if top == 1 or any(
                    number(r[-1]) == top - 1 for r in state.rows) else 0.0
            f[k + 11] = 1.0 if q == nxt else 0.0
            f[k + 12] = 1.0 if state.recycled[q] else 0.0
        if t in (LayDown, Pass):
            s = _EASY._score(state, p, a, weights, total, fit_weight)
        else:
            after = state.clone()
            after.apply(a)
            s = _EASY._score(state, p, a, weights, total, fit_weight)
            if after.is_terminal():
                f[k + 13] = 1.0 if after.ranking()[p] == 1 else -1.0
            else:
                f[k + 14] = _next_fits(after, p, weights, total)
                if known:
                    f[KNOWN_RUN] = _known_run(after, p) / _RUN
            f[k + 16] = (after.points[p] - state.points[p]) / 30.0
            f[k + 17] = (_middle_size(after) - _middle_size(state)) / HIGHEST
            if visible:
                f[LOOK_AHEAD] = _look_ahead(state, after, p)
                f[LOOK_AHEAD + 1] = 1.0
            if nxt != p and not after.is_terminal():
                # What the action leaves the next seat: the share of the cards it may turn
                # that then fit (the numbers as before the action: the mover's next card,
                # turned in ``after``, is hidden).
                f[k + 18] = sum(theirs[v] for v in _fitting_numbers(after, nxt)) / their_total
        easy.append(s)
        rows.append(f)
    if rows:
        best = max(easy)
        first = easy.index(best)  # the easy bot plays the first of equal scores
        for i, (f, s) in enumerate(zip(rows, easy, strict=True)):
            f[-2] = 1.0 if i == first else 0.0
            f[-1] = max(s - best, -30.0) / 10.0
            f.extend(context)
    return rows
