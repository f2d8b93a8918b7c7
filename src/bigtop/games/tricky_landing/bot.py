"""A heuristic Tricky Landing player that uses only its own observation.

- Work out the trick forming on the target: the face-up cards touching it (through other
  cards too), the lead suit (the first face-up card to touch the target), the best card.
- If a card in hand would beat it (a higher trump, or a higher lead-suit card when no trump
  lies there), throw it at the centre with high spin (fewest face-down landings): the
  cheapest winner when last to throw, else the highest (later throwers may still beat it).
- Throwing first: the highest trump if it holds one of the top numbers, else its highest card.
- Otherwise, if it *wants the trump* — three or more cards of a non-trump suit with a high
  one — and nobody has missed yet in this trick, throw the lowest card of that suit
  deliberately wide (aimed between the target and its own seat) so that it becomes the new
  trump card; else throw its lowest card at the centre.

Aim and spin come from the throw model (``aim="model"``, the default and the ``easy`` level):
every intention of the legal grid (9 aim points × 3 spins) is thrown :data:`SAMPLES` times
with the vectorised simulation from the bot's seat (once per game and seat, cached), and the
bot takes the intention most likely to do what it wants: to *win* (land face up in the trick:
touching the target or a card linked to it, on the table as it lies now), to *join* (land in
the trick at all, a dumped card) or to *miss* (touch nothing that is linked). ``aim="fixed"``
is the older bot (the ``heuristic`` alias): centre with high spin, or the fixed wide aim.
``aim="cached"`` uses the same samples against the target card only (no per-move table
check): the fast rollout player of the search levels.

>>> from bigtop import new_state
>>> s = new_state("tricky-landing", players=3, seed=5)
>>> TrickyLandingBot(s.current_player()).act(s) in s.legal_actions()
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from bigtop.agents.ismcts import SearchProfile
from bigtop.core.actions import Action
from bigtop.core.game import Game, State, seat_to_act
from bigtop.games.tricky_landing.cards import number_of, suit_of
from bigtop.games.tricky_landing.physics import (
    FloatArray,
    ThrowModel,
    _gap,
    _Vector,
    cards_touch,
    simulate_throws,
    target_gaps,
    to_table,
    touches_target_card,
)
from bigtop.games.tricky_landing.rules import (
    GRID_AIMS,
    GRID_SPINS,
    SPINS,
    Throw,
    TrickyLandingState,
)

_MISS_DISTANCE_CM = 17.0
SAMPLES = 64
"""Simulated landings per intention (aim point and spin) when the bot weighs its throws."""
BoolArray = npt.NDArray[np.bool_]
Goal = Literal["win", "join", "miss"]
AimMode = Literal["model", "cached", "fixed"]


@dataclass(frozen=True, eq=False)
class Landings:
    """:data:`SAMPLES` landings of every grid intention from one seat, row ``i`` for intention
    ``i`` of ``game.grid[card]`` (aim-major, then spin)."""

    x: FloatArray
    y: FloatArray
    rotation: FloatArray
    face_up: FloatArray  # 1.0 where the card landed face up
    on_target: FloatArray  # 1.0 where it touches the target card
    # eq=False: hashed by identity (one object per model and seat, from the cache of
    # landings()), so the caches below can key on it.

    def __reduce__(self) -> tuple[Any, ...]:
        # Compiled (mypyc), a frozen class has no __dict__ for pickle to fill in: made again
        # through its constructor.
        return (Landings, (self.x, self.y, self.rotation, self.face_up, self.on_target))


@lru_cache(maxsize=64)
def landings(model: ThrowModel, seat_deg: float) -> Landings:
    """The sampled landings of every grid intention thrown from ``seat_deg`` with the
    thrower's ``model`` (seeded, so the bot is deterministic; cached per model and seat).

    >>> from bigtop.core.registry import new_game
    >>> g = new_game("tricky-landing", 3)
    >>> land = landings(g.model, g.seats[0])
    >>> land.x.shape == (len(GRID_AIMS) * len(GRID_SPINS), SAMPLES)
    True
    """
    # Grid aims are in the thrower's frame; the simulation takes table coordinates.
    rows = [(*to_table(seat_deg, x, y), s) for (x, y) in GRID_AIMS for s in GRID_SPINS]
    k = len(rows)
    ax = np.repeat([r[0] for r in rows], SAMPLES)
    ay = np.repeat([r[1] for r in rows], SAMPLES)
    sp = np.repeat([r[2] for r in rows], SAMPLES)
    sample = simulate_throws(model, seat_deg, ax, ay, sp, n=k * SAMPLES, seed=20_26)
    hit = target_gaps(model, sample.x, sample.y, sample.rotation) <= model.touch_tolerance_cm
    return Landings(sample.x.reshape(k, SAMPLES), sample.y.reshape(k, SAMPLES),
                    sample.rotation.reshape(k, SAMPLES),
                    (~sample.face_down).astype(np.float64).reshape(k, SAMPLES),
                    hit.astype(np.float64).reshape(k, SAMPLES))


def intention_odds(model: ThrowModel, land: Landings,
                   linked_poses: list[tuple[float, float, float]]) -> tuple[FloatArray,
                                                                            FloatArray]:
    """Per grid intention: the chance to land in the trick (touching the target or a linked
    card) face up, and the chance to land in the trick at all."""
    joined = land.on_target.astype(bool)
    for pose in linked_poses:
        joined |= _touching(model, land, pose)
    j = joined.astype(np.float64)
    return (j * land.face_up).mean(axis=1), j.mean(axis=1)


@lru_cache(maxsize=2048)
def _touching(model: ThrowModel, land: Landings,
              pose: tuple[float, float, float]) -> BoolArray:
    """Which of the sampled landings ``land`` touch a card lying at ``pose`` (read-only;
    cached: in a search the same card lies on many copies of one table). Only landings
    within reach of its bounding circle get the exact test; the others cannot touch it."""
    hw, hh = model.card_half
    tol = model.touch_tolerance_cm
    x, y, r = pose
    reach = 2.0 * math.hypot(hw, hh) + tol + 1e-6
    near = np.hypot(land.x - x, land.y - y) <= reach
    out = np.zeros(land.x.shape, dtype=bool)
    if near.any():
        gap = _gap(land.x[near], land.y[near], land.rotation[near], hw, hh, x, y, r, hw, hh,
                   _Vector)
        out[near] = np.asarray(gap, dtype=np.float64) <= tol
    out.flags.writeable = False
    return out


@lru_cache(maxsize=2048)
def table_odds(model: ThrowModel, land: Landings,
               linked_poses: tuple[tuple[float, float, float], ...]) -> tuple[FloatArray,
                                                                                FloatArray]:
    """:func:`intention_odds` for a table given as a tuple of linked poses, cached (a search
    sees one table on many copies: every candidate thrown with one intention lands alike
    under common random numbers). The arrays are shared: read them, do not write."""
    return intention_odds(model, land, list(linked_poses))


def linked_to_target(model: ThrowModel, poses: list[tuple[float, float, float]]) -> list[bool]:
    """Per card on the table: whether it is linked to the target (touching it directly or
    through other cards), i.e. part of the trick forming there."""
    linked = [touches_target_card(model, pose) for pose in poses]
    changed = True
    while changed:
        changed = False
        for i, pose in enumerate(poses):
            if not linked[i] and any(linked[j] and cards_touch(model, pose, poses[j])
                                     for j in range(len(poses))):
                linked[i] = changed = True
    return linked


class TrickyLandingBot:
    name = "tricky-landing-heuristic"

    def __init__(self, seat: int = 0, aim: AimMode = "model") -> None:
        self.seat = seat
        self.aim = aim

    def _throw(self, state: TrickyLandingState, card: str, goal: Goal,
               linked: tuple[tuple[float, float, float], ...]) -> Action | None:
        """The grid throw of ``card`` most likely to reach ``goal``; None with ``aim="fixed"``
        (the caller then uses the fixed aims)."""
        if self.aim == "fixed":
            return None
        g = state.game
        p = state.current_player()
        land = landings(g.models[p], g.seats[p])
        if self.aim == "cached":
            up = (land.on_target * land.face_up).mean(axis=1)
            joined = land.on_target.mean(axis=1)
        else:
            up, joined = table_odds(g.model, land, linked)
        odds = {"win": up, "join": joined, "miss": 1.0 - joined}[goal]
        return g.grid[card][int(np.argmax(odds))]

    def act(self, state: State) -> Action:
        seat_to_act(state, "tricky-landing")
        assert isinstance(state, TrickyLandingState)  # checked above, also under -O
        g = state.game
        p = state.current_player()
        obs = state.observation(p)
        hand: list[str] = obs["hand"]
        trump: str | None = obs["trump_suit"]
        table: list[dict[str, Any]] = obs["table"]
        model = g.model
        n = g.num_players
        poses = [(c["x"], c["y"], c["rotation"]) for c in table]
        linked = linked_to_target(model, poses)
        up = [c["card"] for c, ok in zip(table, linked, strict=True)
              if ok and c["face"] == "up" and c["card"] is not None]
        misses = sum(1 for ok in linked if not ok)
        lead = suit_of(up[0]) if up else None
        best_trump = max((number_of(c) for c in up if suit_of(c) == trump), default=0)
        best_lead = max((number_of(c) for c in up if suit_of(c) == lead), default=0)
        last = len(table) == n - 1

        def beats(card: str) -> bool:
            if not up:
                return False
            if trump is not None and suit_of(card) == trump:
                return number_of(card) > best_trump
            return best_trump == 0 and suit_of(card) == lead and number_of(card) > best_lead

        linked_poses = tuple(pose for pose, ok in zip(poses, linked, strict=True) if ok)

        def at_centre(card: str, spin: str) -> Action:
            goal: Goal = "win" if spin == "high" else "join"
            chosen = self._throw(state, card, goal, linked_poses)
            if chosen is not None:
                return chosen
            return g.grid[card][[(a.x, a.y, a.spin) for a in g.grid[card]].index(
                (0.0, 0.0, SPINS[spin]))]

        winners = sorted((c for c in hand if beats(c)), key=number_of)
        if winners:
            return at_centre(winners[0] if last else winners[-1], "high")
        if not up:
            top = g.deck[-1]
            trumps = sorted((c for c in hand if suit_of(c) == trump), key=number_of)
            if trumps and number_of(trumps[-1]) >= number_of(top) - 2:
                return at_centre(trumps[-1], "high")
            return at_centre(max(hand, key=number_of), "high")
        # Cannot win this trick.
        if misses == 0 and len(table) >= n - 2:
            suits: dict[str, list[str]] = {}
            for c in hand:
                if suit_of(c) != trump:
                    suits.setdefault(suit_of(c), []).append(c)
            wanted = [cs for cs in suits.values()
                      if len(cs) >= 3 and max(map(number_of, cs)) >= number_of(g.deck[-1]) - 2]
            if wanted:
                cards = max(wanted, key=len)
                low = min(cards, key=number_of)
                chosen = self._throw(state, low, "miss", linked_poses)
                if chosen is not None:
                    return chosen
                # Aims are in the thrower's frame: negative y is short of the target.
                return Throw(low, 0.0, -_MISS_DISTANCE_CM, SPINS["medium"])
        low = min(hand, key=lambda c: (suit_of(c) == trump, number_of(c)))
        return at_centre(low, "medium")


def heuristic_agent(game: Game, seat: int) -> TrickyLandingBot:
    """The first bot (the ``heuristic`` alias): fixed aims."""
    return TrickyLandingBot(seat, aim="fixed")


def easy_agent(game: Game, seat: int) -> TrickyLandingBot:
    """The ``easy`` level: aim and spin from the throw model."""
    return TrickyLandingBot(seat)


@lru_cache(maxsize=64)
def _best_rows(model: ThrowModel, seat_deg: float) -> tuple[int, int]:
    """The grid intentions most likely to land face up on the target and to miss it."""
    land = landings(model, seat_deg)
    up = (land.on_target * land.face_up).mean(axis=1)
    return int(np.argmax(up)), int(np.argmax(1.0 - land.on_target.mean(axis=1)))


def throw_candidates(state: State) -> list[Action]:
    """The throws the search considers (a handful, so that a few hundred noisy playouts can
    tell them apart): the lowest and the highest card of each suit in hand thrown to land
    face up on the target, the throw the rollout bot would make, and the lowest card thrown
    to miss (a new trump). Aim and spin are the grid intentions the throw model finds most
    likely to hit and to miss from the mover's seat."""
    assert isinstance(state, TrickyLandingState)
    g = state.game
    p = state.current_player()
    hit, miss = _best_rows(g.models[p], g.seats[p])
    hand = state.hands[p]
    by_suit: dict[str, list[str]] = {}
    for c in hand:
        by_suit.setdefault(suit_of(c), []).append(c)
    out: list[Action] = []
    for cards in by_suit.values():
        for c in (min(cards, key=number_of), max(cards, key=number_of)):
            if g.grid[c][hit] not in out:
                out.append(g.grid[c][hit])
    own = TrickyLandingBot(p, aim="cached").act(state)
    if own not in out:
        out.append(own)
    low = min(hand, key=lambda c: (suit_of(c) == state.trump_suit, number_of(c)))
    if g.grid[low][miss] not in out:
        out.append(g.grid[low][miss])
    return out


def _rollout_player(game: Game, seat: int) -> TrickyLandingBot:
    return TrickyLandingBot(seat, aim="cached")


def trick_number(state: State) -> int:
    """Tricks played so far in the game (rollouts stop when the current trick is resolved:
    later tricks add more noise from the throws than information)."""
    assert isinstance(state, TrickyLandingState)
    return state.round * 100 + state.trick


HAND_WEIGHT = 0.5
"""Points a card in hand is worth per unit of its strength (see :func:`values`)."""


def values(state: State) -> list[float]:
    """Every seat's value: points so far (the round's running score: cards won, minus two
    per penalty card) plus its hand's strength — each trump counts fully, each other card
    by its number relative to the top number — times :data:`HAND_WEIGHT` (a strong card
    kept is a trick later)."""
    assert isinstance(state, TrickyLandingState)
    if state.finished:
        return state.scores()
    g = state.game
    top = number_of(g.deck[-1])
    out = []
    for q in range(g.num_players):
        hand = sum(1.0 if suit_of(c) == state.trump_suit else (number_of(c) / top) ** 2
                   for c in state.hands[q])
        out.append(state.totals[q] + len(state.won[q]) - 2 * len(state.penalty[q])
                   + HAND_WEIGHT * hand)
    return out


SEARCH = SearchProfile(rollout=_rollout_player, epsilon=0.0, stage=trick_number,
                       score_scale=3.0, candidates=throw_candidates, evaluate=values,
                       summary=("a few model-aimed throws per card, heuristic rollouts to "
                                "the end of the trick, score and hand-strength reward"))
"""Search in Tricky Landing: a handful of throws (see :func:`throw_candidates`), heuristic
rollouts to the end of the trick, reward from :func:`values`."""


def every_card_candidates(state: State) -> list[Action]:
    """The throws the ``hard`` search considers: every card in hand thrown with the grid
    intention most likely to land face up in the trick *as the table lies now* (touching
    the target or a card linked to it, :func:`intention_odds`), the lowest card thrown to
    join the trick and to miss it (a new trump), and the easy bot's own throw. The
    standard candidates (:func:`throw_candidates`) aim at the target alone and only the
    lowest and highest card of a suit: a middle card that just beats the trick, or a throw
    at a card lying off the target, was never tried."""
    assert isinstance(state, TrickyLandingState)
    g = state.game
    p = state.current_player()
    land = landings(g.models[p], g.seats[p])
    poses = [(c.x, c.y, c.rotation) for c in state.table]
    linked = linked_to_target(g.model, poses)
    up, joined = table_odds(g.model, land,
                            tuple(pose for pose, ok in zip(poses, linked, strict=True) if ok))
    hit, join, miss = int(np.argmax(up)), int(np.argmax(joined)), int(np.argmax(1.0 - joined))
    hand = state.hands[p]
    out: list[Action] = [g.grid[c][hit] for c in hand]
    low = min(hand, key=lambda c: (suit_of(c) == state.trump_suit, number_of(c)))
    for extra in (g.grid[low][join], g.grid[low][miss], TrickyLandingBot(p).act(state)):
        if extra not in out:
            out.append(extra)
    return out


def _model_rollout_player(game: Game, seat: int) -> TrickyLandingBot:
    return TrickyLandingBot(seat)


DEEP_SEARCH = SearchProfile(rollout=_model_rollout_player, epsilon=0.0, stage=trick_number,
                            score_scale=3.0, candidates=every_card_candidates,
                            evaluate=values,
                            summary=("every card with a table-aware aim, rollouts by the easy "
                                     "bot to the end of the trick, score and hand-strength "
                                     "reward"))
"""The ``hard`` search in Tricky Landing: wider candidates (:func:`every_card_candidates`)
and rollout players that aim against the table as it lies (the easy bot), to the end of
the trick, valued by :func:`values`. More determinizations of the standard search did not
play better (the value and the candidates were the limit); rollouts to the round's end
were worse (0 wins in 7 games with 32 determinizations: eleven more tricks of throws drown
the difference one card makes)."""


def search_profile(game: Game) -> SearchProfile:
    return SEARCH


def deep_search_profile(game: Game) -> SearchProfile:
    return DEEP_SEARCH
