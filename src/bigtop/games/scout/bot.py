"""A heuristic SCOUT player that uses only its own observation.

- Turn the hand if the turned hand holds stronger sets.
- Show when it can: the longest set that beats the active set, the weakest of those (keep
  strong sets for later); but go out whenever the whole hand can be shown.
- Otherwise Scout the end card that fits best, and insert it where it makes the strongest hand.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bigtop.agents.ismcts import SearchProfile
from bigtop.core.actions import Action
from bigtop.core.game import Game, State, seat_to_act
from bigtop.games.scout.cards import canonical
from bigtop.games.scout.rules import (
    Insert,
    InsertCheck,
    Scout,
    ScoutGame,
    ScoutState,
    Show,
    TurnHand,
    _valid_sets,
)

_RUN_VALUE = [sum((n - k + 1) * k * k for k in range(2, n + 1)) for n in range(64)]
"""Index n: the summed length² of the multi-card sets inside a maximal run of n cards."""


def _hand_value(tops: list[int]) -> int:
    """How good a hand is: the sum over its valid multi-card sets of length² (sets that
    could be shown later). Each set lies in one maximal run of equal steps (0, +1 or −1), so
    the runs are summed in one pass.

    >>> from bigtop.games.scout.rules import _valid_sets
    >>> tops = [3, 4, 5, 5, 9]
    >>> _hand_value(tops) == sum(n * n for _, n, _ in _valid_sets(tops) if n > 1)
    True
    """
    total = 0
    n = len(tops)
    i = 0
    while i < n - 1:
        step = tops[i + 1] - tops[i]
        if step < -1 or step > 1:
            i += 1
            continue
        j = i + 1
        while j + 1 < n and tops[j + 1] - tops[j] == step:
            j += 1
        total += _RUN_VALUE[j - i + 1]
        i = j
    return total


_STEPS = (-1, 0, 1)
"""The steps of a set's numbers: a descending run, same numbers, an ascending run."""


class _HandShape:
    """The run structure of a hand's top numbers, for the value of :func:`_hand_value` after
    one card is put in or a set is taken out, each in O(1).

    A pair of neighbouring cards belongs to at most one kind of set (its step is −1, 0 or
    +1), so the hand value is a sum over maximal segments of equal step, and a change at one
    gap only touches the segments meeting there.

    >>> tops = [3, 4, 5, 5, 9, 8]
    >>> shape = _HandShape(tops)
    >>> all(shape.after_insert(p, v) == _hand_value(tops[:p] + [v] + tops[p:])
    ...     for p in range(len(tops) + 1) for v in range(1, 11))
    True
    >>> all(shape.best_insert(v)[0] == max(shape.after_insert(p, v) for p in range(7))
    ...     for v in range(1, 11))
    True
    >>> all(shape.after_show(i, n) == _hand_value(tops[:i] + tops[i + n:])
    ...     for i in range(len(tops)) for n in range(1, len(tops) - i + 1))
    True
    """

    __slots__ = ("ends", "prefix", "starts", "suffix", "tops", "value")

    def __init__(self, tops: list[int]) -> None:
        n = len(tops)
        self.tops = tops
        run = _RUN_VALUE
        # ends[k][i]: cards in the step-k segment ending at i; starts[k][i]: starting at i.
        ends = [[1] * n for _ in _STEPS]
        starts = [[1] * n for _ in _STEPS]
        prefix = [0] * (n + 1)  # hand value of tops[:i]
        for i in range(1, n):
            d = tops[i] - tops[i - 1]
            prefix[i + 1] = prefix[i]
            if -1 <= d <= 1:
                e = ends[d + 1]
                e[i] = e[i - 1] + 1
                prefix[i + 1] += run[e[i]] - run[e[i] - 1]
        suffix = [0] * (n + 1)  # hand value of tops[i:]
        for i in range(n - 2, -1, -1):
            d = tops[i + 1] - tops[i]
            suffix[i] = suffix[i + 1]
            if -1 <= d <= 1:
                s = starts[d + 1]
                s[i] = s[i + 1] + 1
                suffix[i] += run[s[i]] - run[s[i] - 1]
        self.value = prefix[n]
        self.ends = ends
        self.starts = starts
        self.prefix = prefix
        self.suffix = suffix

    def after_insert(self, p: int, v: int) -> int:
        """The hand value with number ``v`` put in before position ``p``."""
        tops = self.tops
        run = _RUN_VALUE
        total = self.value
        has_a = p > 0
        has_b = p < len(tops)
        a = tops[p - 1] if has_a else -9
        b = tops[p] if has_b else -9
        if has_a and has_b and -1 <= b - a <= 1:
            # The new card splits the segment through the gap, unless it continues it.
            k = b - a + 1
            left = self.ends[k][p - 1]
            right = self.starts[k][p]
            if v == a == b:
                return total + run[left + 1 + right] - run[left + right]
            total += run[left] + run[right] - run[left + right]
        sl = v - a if has_a else 9
        sr = b - v if has_b else 9
        if -1 <= sl <= 1:
            left = self.ends[sl + 1][p - 1]
            if sl == sr:  # a run through the new card (never a split one: b - a = 2 sl)
                right = self.starts[sr + 1][p]
                return total + run[left + 1 + right] - run[left] - run[right]
            total += run[left + 1] - run[left]
        if -1 <= sr <= 1:
            right = self.starts[sr + 1][p]
            total += run[right + 1] - run[right]
        return total

    def best_insert(self, v: int) -> tuple[int, int]:
        """The best hand value with number ``v`` put in, and the leftmost place for it. Only
        the two ends and the places beside a card within one of ``v`` can be best: anywhere
        else the card joins no set and may split one."""
        tops = self.tops
        n = len(tops)
        best = self.after_insert(0, v)
        where = last = 0  # positions come in order: ``last`` is the latest one valued
        for i in range(n):
            if -1 <= tops[i] - v <= 1:
                for p in (i, i + 1):
                    if p > last:
                        last = p
                        value = self.after_insert(p, v)
                        if value > best:
                            best, where = value, p
        if n > last:
            value = self.after_insert(n, v)
            if value > best:
                best, where = value, n
        return best, where

    def after_show(self, i: int, length: int) -> int:
        """The hand value with the cards ``i .. i + length - 1`` taken out."""
        tops = self.tops
        j = i + length
        total = self.prefix[i] + self.suffix[j]
        if i and j < len(tops):
            d = tops[j] - tops[i - 1]
            if -1 <= d <= 1:
                run = _RUN_VALUE
                left = self.ends[d + 1][i - 1]
                right = self.starts[d + 1][j]
                total += run[left + right] - run[left] - run[right]
        return total


@dataclass(frozen=True)
class PlanWeights:
    """The 1-ply planner's value of a position after its move, for the seat to move:
    ``shape × hand value − cards in hand + cards captured − scout × (a Scout: a point to the
    set's owner and a turn spent) − token × (the Scout & Show token spent)``."""

    shape: float = 0.05
    scout: float = 1.0
    token: float = 1.0

    def __reduce__(self) -> tuple[Any, ...]:
        # Compiled (mypyc), a frozen class has no __dict__ for pickle to fill in: made again
        # through its constructor (bots go to worker processes by pickling).
        return (PlanWeights, (self.shape, self.scout, self.token))


PLAN = PlanWeights()
"""The weights the levels use."""


class ScoutPlanner:
    """A 1-ply planner on the seat's own hand (a few hundred microseconds a move): every
    Show, every Scout with its best insert, and Scout & Show with its best insert and Show
    are valued by :class:`PlanWeights`; the best is played. Emptying the hand always wins.

    >>> from bigtop import new_state
    >>> s = new_state("scout", players=4, seed=3, options={"rounds": 1})
    >>> ScoutPlanner().act(s) in s.legal_actions()
    True
    """

    name = "scout-planner"

    def __init__(self, weights: PlanWeights = PLAN) -> None:
        self.weights = weights

    def act(self, state: State) -> Action:
        seat_to_act(state, "scout")
        assert isinstance(state, ScoutState)  # checked above, also under -O
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.current_player()
        hand = state.hands[p]
        tops = [c[0] for c in hand]
        w = self.weights
        if state.phase == "insert":
            pending = state.pending
            assert pending is not None
            top, bottom = pending
            shape = _HandShape(tops)
            return max(legal, key=lambda a: shape.after_insert(
                a.position, bottom if a.flip else top) if isinstance(a, Insert) else -1)
        if state.phase == "show":
            return self._best_show(legal, tops, len(state.active))[0]
        if isinstance(legal[0], TurnHand):
            turned = [c[1] for c in reversed(hand)]
            if _hand_value(turned) > _hand_value(tops):
                return legal[0]
        shape = _HandShape(tops)
        captured = len(state.active)
        best: Action = legal[-1]
        best_value = -math.inf
        shows = [a for a in legal if isinstance(a, Show)]
        if shows:
            best, best_value = self._best_show(shows, tops, captured, shape)
            if best_value == math.inf:
                return best
        n = len(tops)
        for a in legal:
            if not isinstance(a, Scout):
                continue
            card = state.active[0] if a.end == "left" else state.active[-1]
            if a.and_show:
                value = self._scout_and_show(state, shape, card, a.end) - w.token
            else:
                value = (w.shape * max(shape.best_insert(card[0])[0],
                                       shape.best_insert(card[1])[0]) - (n + 1))
            value -= w.scout
            if value > best_value:
                best, best_value = a, value
        return best

    def _best_show(self, shows: Sequence[Action], tops: list[int], captured: int,
                   shape: _HandShape | None = None) -> tuple[Action, float]:
        """The best of ``shows`` from ``tops`` and its value (``inf`` for going out)."""
        shape = shape or _HandShape(tops)
        n = len(tops)
        c = self.weights.shape
        best: Action = shows[0]
        best_value = -math.inf
        for a in shows:
            if not isinstance(a, Show):
                continue
            if a.length == n:
                return a, math.inf
            value = c * shape.after_show(a.start, a.length) - (n - a.length) + captured
            if value > best_value:
                best, best_value = a, value
        return best, best_value

    def _scout_and_show(self, state: ScoutState, shape: _HandShape, card: tuple[int, int],
                        end: str) -> float:
        """The value of Scout & Show from ``end``: the insert with the best hand value among
        those after which a Show is possible, then the best Show."""
        beat = state.strength_after_scout(end)
        left = len(state.active) - 1  # the cards the Show then captures
        tops = shape.tops
        check = InsertCheck(tops, beat)
        options = [(shape.after_insert(pos, v), pos, v) for v in card
                   for pos in range(len(tops) + 1) if check.ok(pos, v)]
        if not options:
            return -math.inf
        _, pos, v = max(options)
        new = [*tops[:pos], v, *tops[pos:]]
        new_shape = _HandShape(new)
        best = -math.inf
        n = len(new)
        for start, length, strength in _valid_sets(new):
            if strength <= beat:
                continue
            if length == n:
                return math.inf
            value = (self.weights.shape * new_shape.after_show(start, length) - (n - length)
                     + left)
            best = max(best, value)
        return best


class ScoutBot:
    name = "scout-heuristic"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, state: State) -> Action:
        seat_to_act(state, "scout")
        assert isinstance(state, ScoutState)  # checked above, also under -O
        legal = state.legal_actions()
        p = state.current_player()
        tops = [c[0] for c in state.hands[p]]
        if any(isinstance(a, TurnHand) for a in legal):
            turned = [c[1] for c in reversed(state.hands[p])]
            if _hand_value(turned) > _hand_value(tops):
                return state.game.turn_hand
        shows = [a for a in legal if isinstance(a, Show)]
        if shows:
            out = [a for a in shows if a.length == len(tops)]
            if out:
                return out[0]
            longest = max(a.length for a in shows)
            best = [a for a in shows if a.length == longest]
            # Among the longest, play the weakest (lowest first top number).
            return min(best, key=lambda a: min(tops[a.start:a.start + a.length]))
        inserts = [a for a in legal if isinstance(a, Insert)]
        if inserts:
            card = state.pending
            assert card is not None

            def score(a: Insert) -> int:
                t = list(tops)
                t.insert(a.position, card[1] if a.flip else card[0])
                return _hand_value(t)

            scores = [score(a) for a in inserts]
            best_score = max(scores)
            return self._rng.choice([a for a, v in zip(inserts, scores, strict=True)
                                     if v == best_score])
        scouts = [a for a in legal if isinstance(a, Scout)]
        if scouts:
            # Prefer a plain scout of the end card whose numbers fit the hand best.
            def fit(a: Scout) -> int:
                card = state.active[0] if a.end == "left" else state.active[-1]
                return max(_hand_value([*tops, v]) for v in card) - (5 if a.and_show else 0)

            return max(scouts, key=fit)
        return legal[0]



CANDIDATE_SHOWS = 4
"""Shows the search considers in a turn: the planner's best few (all Scouts are kept)."""

CANDIDATE_INSERTS = 3
"""Places (and turns) for a scouted card the search considers: the best few by hand value."""


def candidates(state: State) -> list[Action]:
    """The actions worth searching: in a turn the planner's best few Shows, every Scout and
    Scout & Show, turning the hand and passing; for a scouted card the few places that make
    the best hand; after Scout & Show the best few Shows. Emptying the hand is the only
    candidate when it is possible.

    >>> from bigtop import new_state
    >>> s = new_state("scout", players=4, seed=3, options={"rounds": 1})
    >>> set(candidates(s)) <= set(s.legal_actions())
    True
    """
    assert isinstance(state, ScoutState)
    legal = state.legal_actions()
    if len(legal) <= 2:
        return legal
    tops = [c[0] for c in state.hands[state.current_player()]]
    shape = _HandShape(tops)
    if state.phase == "insert":
        card = state.pending
        assert card is not None
        ranked = sorted(legal, key=lambda a: -shape.after_insert(
            a.position, card[1] if a.flip else card[0]) if isinstance(a, Insert) else 0)
        return ranked[:CANDIDATE_INSERTS]
    n = len(tops)
    shows: list[tuple[float, int, Action]] = []
    others: list[Action] = []
    for k, a in enumerate(legal):
        if isinstance(a, Show):
            if a.length == n:
                return [a]
            shows.append((-(PLAN.shape * shape.after_show(a.start, a.length) + a.length), k, a))
        else:
            others.append(a)
    shows.sort(key=lambda t: (t[0], t[1]))
    return [a for _, _, a in shows[:CANDIDATE_SHOWS]] + others


def evaluate(state: State) -> list[float]:
    """Every seat's value of a position for a cut rollout: the score so far, plus this
    round's cards captured and scout tokens, minus the cards in hand, plus the planner's
    value of the hand's sets (what it can still shed). A finished game is worth its scores
    (its last round is already in them).

    >>> from bigtop import new_state
    >>> s = new_state("scout", players=3, seed=1, options={"rounds": 1})
    >>> while not s.is_terminal():
    ...     s.apply(s.legal_actions()[0])
    >>> evaluate(s) == s.scores()
    True
    """
    assert isinstance(state, ScoutState)
    if state.finished:
        return [float(t) for t in state.totals]
    c = PLAN.shape
    return [state.totals[q] + len(state.captured[q]) + state.scout_tokens[q]
            - len(h) + c * _hand_value([x[0] for x in h])
            for q, h in enumerate(state.hands)]


def heuristic_agent(game: Game, seat: int) -> ScoutBot:
    return ScoutBot(seed=seat)


def easy_agent(game: Game, seat: int) -> ScoutPlanner:
    """The ``easy`` level: the 1-ply hand planner (``heuristic`` stays :class:`ScoutBot`)."""
    return ScoutPlanner()


def _rollout_player(game: Game, seat: int) -> ScoutBot:
    return ScoutBot(seed=seat)


def _planner(game: Game, seat: int) -> ScoutPlanner:
    return ScoutPlanner()


def round_number(state: State) -> int:
    """The round being played (the search's rollouts stop when it changes)."""
    assert isinstance(state, ScoutState)
    return state.round


def last_round(state: State) -> bool:
    """Whether the game's last round is being played (its end decides the game).

    >>> from bigtop import new_state
    >>> last_round(new_state("scout", players=4, seed=1)), last_round(
    ...     new_state("scout", players=4, seed=1, options={"rounds": 1}))
    (False, True)
    """
    assert isinstance(state, ScoutState)
    return state.round == state.game.rounds - 1


NEIGHBOUR_ODDS = (1.8, 3.0, 0.35)
"""How much likelier a hidden card beside a card the owner scouted in is to be equal to it
(index 0), one apart (1) or further (2) than an unweighted draw makes it: a scouted card
goes where it joins a set. Measured at single four-player rounds of ``medium`` (4,538
such neighbours seen by seat 0: equal 0.170 against 0.094 drawn evenly, one apart 0.583
against 0.194, further 0.247 against 0.712; docs/bots.md#the-others-hands-believed-eighth-round)."""


def resample_believed(state: State, seat: int, seed: int) -> State:
    """A determinization for ``seat`` that believes the others' public moves: as
    ``state.resample_hidden(seat, seed)``, then

    - each hidden card beside a card its owner scouted in (a known card) is drawn again, face
      and side, from every unseen card with :data:`NEIGHBOUR_ODDS` for its number against
      that neighbour's (the card it replaces goes where the drawn one was);
    - where players may turn their hands, each other hand's remaining hidden cards are
      turned over together when that gives the stronger hand (:func:`_hand_value`): its
      owner chose the better side of the hand they were dealt.

    Reads only what ``seat`` sees: the known cards, the hands' lengths and the pool of
    unseen cards (the same for every hidden deal).

    >>> from bigtop.core.registry import new_game
    >>> s = new_game("scout", 4).new_initial_state(3)
    >>> d = resample_believed(s, 0, 7)
    >>> d.hands[0] == s.hands[0] and d == resample_believed(s, 0, 7)
    True
    """
    new = state.resample_hidden(seat, seed)
    assert isinstance(new, ScoutState)
    rng = random.Random(new.seed)
    hands, unused = new.hands, new.unused
    beside: list[tuple[int, int, list[int]]] = []  # (seat, slot, the known neighbours' numbers)
    hidden: list[tuple[int, int]] = []
    for q in range(len(hands)):
        if q == seat:
            continue
        hand, known = hands[q], new.known[q]
        last = len(hand) - 1
        for i in range(len(hand)):
            if known[i]:
                continue
            near = [hand[j][0] for j in (i - 1, i + 1) if 0 <= j <= last and known[j]]
            if near:
                beside.append((q, i, near))
            else:
                hidden.append((q, i))
    if beside:
        odds = NEIGHBOUR_ODDS
        rng.shuffle(beside)
        # Where each unseen card lies: a hand slot (seat, slot), or (-1, index) in the unused.
        places = hidden + [(q, i) for q, i, _ in beside] + [(-1, j) for j in range(len(unused))]
        for q, i, near in beside:
            weights: list[float] = []
            for pq, pi in places:
                a, b = hands[pq][pi] if pq >= 0 else unused[pi]
                for top in (a, b):
                    w = 1.0
                    for v in near:
                        d = top - v
                        w *= odds[0] if d == 0 else odds[1] if d in (-1, 1) else odds[2]
                    weights.append(w)
            k = rng.choices(range(len(weights)), weights)[0]
            pq, pi = places[k >> 1]
            a, b = hands[pq][pi] if pq >= 0 else unused[pi]
            old = hands[q][i]
            hands[q][i] = (b, a) if k & 1 else (a, b)
            if pq >= 0:
                hands[pq][pi] = old if rng.random() < 0.5 else (old[1], old[0])
            else:
                unused[pi] = canonical(old)
            places.remove((q, i))  # drawn: no longer a place to draw from
    if not new.game.turn_off:
        fixed = {(q, i) for q, i, _ in beside}
        for q in range(len(hands)):
            if q == seat:
                continue
            hand, known = hands[q], new.known[q]
            turned = [c if known[i] or (q, i) in fixed else (c[1], c[0])
                      for i, c in enumerate(hand)]
            if _hand_value([c[0] for c in turned]) > _hand_value([c[0] for c in hand]):
                hands[q] = turned
    return new


ROLLOUT_HORIZON = 20
"""Rollout moves before a position is valued by :func:`evaluate` (unless the round ends
first): deep enough to see the next few Shows, short enough for many iterations."""

SEARCH = SearchProfile(rollout=_planner, stage=round_number, score_scale=6.0,
                       candidates=candidates, horizon=ROLLOUT_HORIZON, evaluate=evaluate,
                       determinize=resample_believed,
                       summary=(f"the others' hands drawn as their moves suggest; planner "
                                f"rollouts for {ROLLOUT_HORIZON} moves or to the round's "
                                "end, then score + hand value; the planner's best few moves; "
                                "score-difference reward"))
"""The search in SCOUT (``medium``, ``hard``): determinizations drawn by
:func:`resample_believed`, :class:`ScoutPlanner` rollouts cut after
:data:`ROLLOUT_HORIZON` moves and valued by :func:`evaluate`, the :func:`candidates` only,
score-difference reward."""

DEEP_SEARCH = replace(
    SEARCH, final_stage=last_round,
    summary=(f"{SEARCH.summary}, in the game's last round the final standing against the "
             "best other seat"))
"""SCOUT's deep search (``hard``): :data:`SEARCH`, but in the game's last round (the only
one of a one-round game) the reward is the final standing against the best other seat —
every seat's value itself, not its gain from the searched position — since that decides
the game: a leader guards the lead, a seat behind takes the risk that can win. Earlier
rounds keep the gain against the others' mean (against the best other seat, the gains of
a round lost full games: docs/bots.md). Issue #14's fourth round measured it: against three
of the public SCOUT AI project's planning player the same 12-determinization search took
0.541 of 800 single rounds with it and 0.505 without, 0.642 of 800 full games against
0.605 (docs/bots.md)."""

HEURISTIC_ROLLOUTS = SearchProfile(rollout=_rollout_player, epsilon=0.1, stage=round_number,
                                   score_scale=6.0,
                                   summary=("heuristic rollouts to the round's end, "
                                            "score-difference reward"))
"""The search of the earlier ``medium``/``hard`` (until issue #14's rework): :class:`ScoutBot`
rollouts with 10% random moves to the round's end, every legal action. Kept as a yardstick
(``bench/bench_bots.py``'s ``hard-v1``)."""


def search_profile(game: Game) -> SearchProfile:
    return SEARCH


def deep_search_profile(game: Game) -> SearchProfile:
    """``hard``'s profile, :data:`DEEP_SEARCH`, in games of any number of rounds.

    >>> from bigtop.core.registry import new_game
    >>> deep_search_profile(new_game("scout", 4, {"rounds": 1})) is DEEP_SEARCH
    True
    """
    assert isinstance(game, ScoutGame)
    return DEEP_SEARCH
