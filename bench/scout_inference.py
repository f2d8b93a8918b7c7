"""What the others' moves this round say about their hidden cards: an experiment of issue
#26's ninth round, kept in the bench because it made the searches weaker (docs/bots.md,
"The others' moves, weighed (ninth round): tried and dropped").

A SCOUT player's every move this round was made from the hand they held then: which set
they showed and from where, whether they scouted instead, where they put a scouted card,
whether they turned their hand. Given a hidden deal drawn for the others (a determinization),
:func:`round_start` rebuilds the round as it would have begun with those cards, so that each
past move of the others can be scored by a model of play (:func:`move_likelihood`: the
shipped action policy's softmax): a deal in which their moves look sensible is likelier.
:func:`inferred` is a ``SearchProfile.determinize`` that draws deals believed
(``resample_believed``), weighs them so and draws among them by weight
(``bench_bots.py``'s ``<bot>-inferred``).

Only public structure is replayed to find where the round began and where each card came
from: a Show takes cards by position, a Scout by end, an Insert puts a card at a position,
and a round ends on hand sizes, turns and owners, never on what the cards are. So the whole
game's history is first replayed on any deal (:func:`round_origin`), with the engine's own
moves unchecked; then the round is replayed once more with a numbered card in every hand
slot (a token), which tells where each card of the drawn deal was when the round began.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import json
import math
import random
from collections.abc import Callable, Sequence
from typing import cast

from bigtop.core.actions import Action
from bigtop.core.game import State
from bigtop.games.scout.cards import Card
from bigtop.games.scout.rules import ScoutState

TOKEN_TOP = 1000
"""A token card's numbers: ``(TOKEN_TOP + k, TOKEN_BOTTOM + k)`` for token ``k`` (no real
card has such numbers, so a token's way up is read off its first number)."""
TOKEN_BOTTOM = 100_000


def _raw_apply(state: ScoutState, action: Action) -> None:
    """Apply a move of the history without the legality check (the cards may be any)."""
    state._apply(action)
    state.history.append(action)
    state._legal = None


def round_origin(state: ScoutState) -> tuple[int, ScoutState]:
    """Where the current round began in ``state.history``, and the state then on some
    deal (its public parts are the real ones: scores, whose turn, who may turn their hand;
    its cards are not)."""
    probe = cast(ScoutState, state.game.new_initial_state(0))
    start, at_start = 0, probe.clone()
    for i, action in enumerate(state.history):
        before = probe.round
        _raw_apply(probe, action)
        if probe.round != before:
            start, at_start = i + 1, probe.clone()
    return start, at_start


def _tokens(at_start: ScoutState) -> ScoutState:
    """``at_start`` with a numbered token in every hand slot (face up, top first)."""
    tokens = at_start.clone()
    k = 0
    for q, hand in enumerate(tokens.hands):
        tokens.hands[q] = [(TOKEN_TOP + k + i, TOKEN_BOTTOM + k + i) for i in range(len(hand))]
        k += len(hand)
    return tokens


def _places(state: ScoutState) -> list[Card | None]:
    """Every card of the round in a fixed order of places (hands, the table, the captured
    piles, the card being put in)."""
    out: list[Card | None] = []
    for hand in state.hands:
        out.extend(hand)
    out.extend(state.active)
    for pile in state.captured:
        out.extend(pile)
    out.append(state.pending)
    return out


def start_hands(history: Sequence[Action], start: int, at_start: ScoutState,
                world: ScoutState) -> list[list[Card]] | None:
    """The hands the round began with in ``world`` (a state whose public parts and whose
    history are the real ones: a determinization), or None if its cards cannot have come
    from one deal (they always can, for a determinization of the real state)."""
    tokens = _tokens(at_start)
    for action in history[start:]:
        _raw_apply(tokens, action)
    origin: dict[int, Card] = {}
    for token, card in zip(_places(tokens), _places(world), strict=True):
        if token is None or card is None:
            if (token is None) != (card is None):
                return None
            continue
        a, b = token
        if a < TOKEN_BOTTOM:  # face up as dealt
            origin[a - TOKEN_TOP] = card
        else:  # turned since (the hand, or the card as it was put in)
            origin[b - TOKEN_TOP] = (card[1], card[0])
    hands: list[list[Card]] = []
    k = 0
    for hand in at_start.hands:
        if any(k + i not in origin for i in range(len(hand))):
            return None
        hands.append([origin[k + i] for i in range(len(hand))])
        k += len(hand)
    return hands


def round_start(state: ScoutState, world: ScoutState,
                origin: tuple[int, ScoutState] | None = None) -> tuple[ScoutState, int] | None:
    """``world`` (a determinization of ``state``) as its round began, and the index in the
    history of the round's first move; None if no deal explains it. ``origin``:
    :func:`round_origin`'s answer for ``state``, where it is known already."""
    start, at_start = origin or round_origin(state)
    hands = start_hands(state.history, start, at_start, world)
    if hands is None:
        return None
    begun = at_start.clone()
    begun.history = list(state.history[:start])
    for q, hand in enumerate(hands):
        begun.hands[q] = hand
        begun.known[q] = [False] * len(hand)
    begun.unused = list(world.unused)
    begun._legal = None
    return begun, start


Scorer = Callable[[ScoutState, list[Action]], Sequence[float]]
"""A model of play: a score for each legal action of the player to move (its softmax: how
likely each is)."""


def move_likelihood(state: ScoutState, world: ScoutState, seat: int, scorer: Scorer,
                    temperature: float = 1.0,
                    origin: tuple[int, ScoutState] | None = None) -> tuple[float, int]:
    """The log likelihood, under ``scorer``'s softmax at ``temperature``, of every move the
    others made this round had ``world``'s deal been the real one (``-inf``: it cannot have
    been), and how many of their moves had a choice (none: no deal is likelier than
    another)."""
    begun = round_start(state, world, origin)
    if begun is None:
        return -math.inf, 0
    replay, start = begun
    total, chosen = 0.0, 0
    for action in state.history[start:]:
        mover = replay.current_player()
        legal = replay.legal_actions()
        try:
            k = legal.index(action)
        except ValueError:  # not legal with these cards
            return -math.inf, chosen
        if mover != seat and len(legal) > 1:
            scores = scorer(replay, legal)
            top = max(scores)
            z = sum(math.exp((x - top) / temperature) for x in scores)
            total += (scores[k] - top) / temperature - math.log(z)
            chosen += 1
        replay.apply(legal[k])
    return total, chosen


POOL = 16
"""Deals drawn and weighed by the others' moves per decision; each determinization of that
decision is one of them, drawn by weight."""
TEMPERATURE = 1.5
"""The model's scores are divided by this before the softmax: the others do not play as
the model does, so it is believed less than it believes itself (and the weights keep a few
deals, not one)."""


class _Pool:
    """One decision's weighed deals (one state as it stands, one seat)."""

    def __init__(self, state: ScoutState, seat: int, worlds: list[ScoutState],
                 weights: list[float]) -> None:
        self.state, self.seat, self.moves = state, seat, len(state.history)
        self.worlds = worlds
        self.cumulative = list(itertools.accumulate(weights))

    def fits(self, state: ScoutState, seat: int) -> bool:
        return self.state is state and self.seat == seat and self.moves == len(state.history)

    def draw(self, seed: int) -> ScoutState:
        pick = random.Random(seed).random() * self.cumulative[-1]
        k = min(bisect.bisect_right(self.cumulative, pick), len(self.worlds) - 1)
        return self.worlds[k].clone()


_LAST: list[_Pool] = []
"""The latest decision's pool: a search draws every determinization of one decision before
the next decision's."""


def public_seed(state: ScoutState, seat: int) -> int:
    """A seed from what ``seat`` sees (its observation and the moves so far): the same deals
    are drawn and weighed for the same decision whoever searches it, whatever searched
    before (a bot stays deterministic for its own seed)."""
    seen = json.dumps([state.observation(seat), len(state.history)], sort_keys=True,
                      separators=(",", ":"))
    return int.from_bytes(hashlib.blake2b(seen.encode(), digest_size=8).digest(), "big") >> 1


def weighed_pool(state: ScoutState, seat: int, draw: Callable[[ScoutState, int, int], State],
                 scorer: Scorer, size: int = POOL,
                 temperature: float = TEMPERATURE) -> _Pool | None:
    """``size`` deals from ``draw`` weighed by how likely the others' moves this round were
    with them (None: nobody else had a choice yet this round, so nothing to weigh by)."""
    origin = round_origin(state)
    rng = random.Random(public_seed(state, seat))
    worlds = [cast(ScoutState, draw(state, seat, rng.getrandbits(63))) for _ in range(size)]
    scored = [move_likelihood(state, w, seat, scorer, temperature, origin) for w in worlds]
    if not any(n for _, n in scored):
        return None
    top = max(like for like, _ in scored)
    if top == -math.inf:
        return None
    return _Pool(state, seat, worlds, [math.exp(like - top) for like, _ in scored])


def inferred(draw: Callable[[ScoutState, int, int], State], scorer: Callable[[], Scorer]
             ) -> Callable[[State, int, int], State]:
    """A ``SearchProfile.determinize`` that draws from :func:`weighed_pool` (built at the
    decision's first determinization, kept for the rest), or as ``draw`` does where the
    others' moves this round say nothing yet. ``scorer`` makes the model when first needed."""
    made: list[Scorer] = []

    def determinize(state: State, seat: int, seed: int) -> State:
        scout = cast(ScoutState, state)
        pool = _LAST[0] if _LAST and _LAST[0].fits(scout, seat) else None
        if pool is None:
            if not made:
                made.append(scorer())
            pool = weighed_pool(scout, seat, draw, made[0]) or _Pool(scout, seat, [], [])
            _LAST[:] = [pool]
        if not pool.worlds:  # nothing to weigh by yet: a fresh deal each time
            return draw(scout, seat, seed)
        return pool.draw(seed)

    return determinize


def _measure(players: int, rounds: int, size: int = 24) -> dict[str, float]:
    """At some of seat 0's decisions in rounds of ``medium``: the share of the others'
    hidden slots whose number a determinization gets right, drawn evenly, believed, and
    weighed (at temperatures 1, 2, 4 over ``size`` believed deals), the weights' effective
    number of deals, and how often the true deal scores above a believed one."""
    from bigtop.agents.levels import make_bot
    from bigtop.agents.neural import action_policy_for
    from bigtop.core.registry import new_game
    from bigtop.games.scout.bot import resample_believed

    game = new_game("scout", players, {"rounds": 1})
    policy = action_policy_for(game)

    def scorer(s: ScoutState, legal: list[Action]) -> Sequence[float]:
        return cast(list[float], policy.score_actions(s, legal).tolist())

    rng = random.Random(5)
    seen: dict[str, list[float]] = {}

    def note(key: str, value: float) -> None:
        seen.setdefault(key, []).append(value)

    for r in range(rounds):
        state = cast(ScoutState, game.new_initial_state(1000 + r))
        bots = [make_bot("medium", game, q, r * 10 + q) for q in range(players)]
        step = 0
        while not state.is_terminal():
            if (state.current_player() == 0 and step > 6 and state.phase == "turn"
                    and rng.random() < 0.35):
                truth = [(q, i, state.hands[q][i][0]) for q in range(1, players)
                         for i in range(len(state.hands[q])) if not state.known[q][i]]

                def right(w: State, truth: list[tuple[int, int, int]] = truth) -> float:
                    hands = cast(ScoutState, w).hands
                    return sum(hands[q][i][0] == v for q, i, v in truth) / len(truth)

                even = [state.resample_hidden(0, rng.getrandbits(30)) for _ in range(size)]
                believed = [cast(ScoutState, resample_believed(state, 0, rng.getrandbits(30)))
                            for _ in range(size)]
                likes = [move_likelihood(state, w, 0, scorer)[0] for w in believed]
                hits = [right(w) for w in believed]
                note("even", sum(map(right, even)) / size)
                note("believed", sum(hits) / size)
                top = max(likes)
                for t in (1, 2, 4):
                    ws = [math.exp((x - top) / t) for x in likes]
                    note(f"weighed, temperature {t}", sum(w * h for w, h in zip(ws, hits,
                                                                              strict=True))
                         / sum(ws))
                    note(f"effective deals, temperature {t}",
                         sum(ws) ** 2 / sum(w * w for w in ws))
                truth_like = move_likelihood(state, state, 0, scorer)[0]
                note("true deal above a believed one", sum(x < truth_like for x in likes) / size)
            state.apply(bots[state.current_player()].act(state))
            step += 1
    return {k: sum(v) / len(v) for k, v in seen.items()} | {"decisions": len(seen["even"])}


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=_measure.__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    for key, value in _measure(args.players, args.rounds).items():
        print(f"{key:36s} {value:.4f}")


STRUCTURE = 0.07
"""How strongly :func:`structured` believes the others kept their sets: a swap of two
hidden cards that raises the hands' value by ``v`` (``_hand_value``) is taken with odds
``exp(STRUCTURE * v)``."""
SWAPS = 300
"""Swaps :func:`structured` proposes per draw."""


def structured(state: State, seat: int, seed: int) -> State:
    """The believed draw, then hidden cards swapped between the others' hidden slots and the
    cards out of play, by Metropolis steps toward hands with more sets (:data:`STRUCTURE`):
    players keep their long sets for later, so mid-round their hidden cards hold more sets
    than a random arrangement does (docs/bots.md, the ninth round's lead)."""
    from bigtop.games.scout.bot import _hand_value, resample_believed

    world = cast(ScoutState, resample_believed(state, seat, seed))
    rng = random.Random(world.seed ^ 0x5EED)
    hands, known = world.hands, world.known
    slots = [(q, i) for q in range(len(hands)) if q != seat
             for i in range(len(hands[q])) if not known[q][i]]
    if len(slots) < 2:
        return world
    value = [_hand_value([c[0] for c in h]) for h in hands]
    for _ in range(SWAPS):
        (q, i), (r, j) = rng.sample(slots, 2)
        a, b = hands[q][i], hands[r][j]
        hands[q][i], hands[r][j] = b, a
        if q == r:
            new_q = _hand_value([c[0] for c in hands[q]])
            gain, new_r = new_q - value[q], new_q
        else:
            new_q = _hand_value([c[0] for c in hands[q]])
            new_r = _hand_value([c[0] for c in hands[r]])
            gain = new_q - value[q] + new_r - value[r]
        if gain >= 0 or rng.random() < math.exp(STRUCTURE * gain):
            value[q], value[r] = new_q, new_r
        else:
            hands[q][i], hands[r][j] = a, b
    return world
