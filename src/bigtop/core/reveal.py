"""What a run of steps showed a seat that it could not know before.

Engines are deterministic: a deal, a die roll, a turned card or where a thrown card lands
follows from the state's seed and the number of actions played. Going back to an earlier
position and playing on (a take-back) therefore brings the same luck again, and a seat that
saw what came after knows it in advance. :func:`first_reveal` finds the first step of a run
that showed a seat something its information before the run did not fix; the server refuses
a take-back to before such a step (docs/server.md, "Taking back a move").

Games are not special-cased. A chance step (a roll) always counts: its outcome comes from
the seed and would come again. Every other step is played in several *worlds*, positions
drawn by :meth:`State.resample_hidden` from what the seat sees at the start (everything it
cannot see drawn afresh, the seed that drives future luck included): a step whose action is
illegal in a world, or after which the seat's observation in a world differs from the real
game's, told the seat something. A card scouted from the table was public and shows
nothing; an opponent's cards shown from their hand, a card turned from a closed pile, a
throw's landing (drawn from the seed) do.

>>> from bigtop import new_state
>>> s = new_state("so-ein-zirkus", players=2, seed=5)
>>> start = s.clone()
>>> s.apply_chance()
Roll(face='green')
>>> first_reveal(start, s.history, [0])
Reveal(step=0, seat=0, chance=True)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeGuard

from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError, IllegalActionError, shown
from bigtop.core.game import JSON, State
from bigtop.core.rng import derive_seed

REVEAL_WORLDS: Final = 12
"""Worlds drawn per seat. A step whose observation a world drawn from the seat's information
matches with probability ``p`` goes unnoticed with probability ``p**12``: at most 1 in 4,096
for anything the seat could not have guessed better than a coin toss (which of two cards, a
face-up or face-down landing), 1 in 531,441 for one of three, 3% for an outcome it could
have guessed three times in four. Each world costs a resample and a replay of the steps, a
fraction of a millisecond to a few milliseconds (docs/server.md gives the figures), and the
check runs only when a take-back is asked for."""

MAX_WORLDS: Final = 1000
"""The most worlds a caller may ask for: each replays the run, so the work grows with it."""


@dataclass(frozen=True)
class Reveal:
    """The first step that showed something: ``step`` indexes the actions given, ``seat``
    is the seat it showed it to (for a chance step, the first seat asked about), ``chance``
    says the step was a chance outcome (drawn from the seed, it would come again)."""

    step: int
    seat: int
    chance: bool


def first_reveal(start: State, actions: Sequence[Action], seats: Sequence[int], *,
                 waived: Mapping[int, Collection[int]] | None = None,
                 worlds: int = REVEAL_WORLDS) -> Reveal | None:
    """The earliest of ``actions`` (played in order from ``start``, chance outcomes
    included, as a log has them) that showed one of ``seats`` something it could not know
    at ``start``; None if none did. Ties go to the seat listed first.

    ``waived`` maps a seat to steps whose showing that seat does not count (a take-back's
    asker gives away what their own move showed the others): after such a step the worlds
    are drawn again from the real position, which the seat then knows.

    Reproducible: the worlds' seeds derive from ``start``'s seed, the seat and the step. An
    action that is not legal in the real game is an :class:`IllegalActionError` (the run
    is not a game); a bad seat is one too. ``start`` is not changed."""
    if not _whole(worlds) or not 1 <= worlds <= MAX_WORLDS:
        raise BigtopError(f"worlds must be a whole number from 1 to {MAX_WORLDS}, "
                          f"got {shown(worlds)}")
    # Checked before any work, so that a bad argument is a clear refusal, never a TypeError
    # half-way through the replay.
    if not isinstance(start, State):
        raise BigtopError(f"start must be a State, got {shown(start)}")
    if not _listed(actions):
        raise BigtopError(f"actions must be a list of actions, got {shown(actions)}")
    if not _listed(seats):
        raise BigtopError(f"seats must be a list of seats, got {shown(seats)}")
    waived = {} if waived is None else waived
    if not isinstance(waived, Mapping) or not all(
            _whole(seat) and isinstance(steps, Collection) and not isinstance(steps, str)
            and all(_whole(j) for j in steps) for seat, steps in waived.items()):
        raise BigtopError(f"waived must map seats to collections of step numbers, got "
                          f"{shown(waived)}")
    checked = [start.check_seat(s, spectator=False) for s in seats]
    order = [s for s in checked if s is not None]
    # The real game, once: what each seat sees after each step, and the positions after
    # waived steps (where the worlds are drawn again).
    real = start.clone()
    seen: list[dict[int, JSON]] = []
    after: dict[int, State] = {}
    chance_at: int | None = None
    every_waived = {j for s in order for j in waived.get(s, ())}
    for j, action in enumerate(actions):
        if chance_at is None and real.is_chance():
            chance_at = j
        try:
            real.apply(action)
        except BigtopError as e:
            raise IllegalActionError(f"step {j + 1} of the run cannot be played: {e}") from None
        seen.append({s: real.observation(s) for s in order})
        if j in every_waived:
            after[j] = real.clone()
    if not order:
        return None
    # A chance step shows every seat its outcome; only the steps before it are searched.
    limit = len(actions) if chance_at is None else chance_at
    found = None if chance_at is None else Reveal(chance_at, order[0], True)
    for seat in order:
        step = _first_shown(start, actions, seat, seen, after, set(waived.get(seat, ())),
                            worlds, limit)
        if step is not None:  # before every step found so far: later seats search less
            found, limit = Reveal(step, seat, False), step
    return found


def _whole(value: object) -> TypeGuard[int]:
    """A whole number (an ``int``, not ``True``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _listed(value: object) -> bool:
    """A sequence of items (a string is a sequence of characters, not of actions or seats)."""
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _first_shown(start: State, actions: Sequence[Action], seat: int,
                 seen: list[dict[int, JSON]], after: Mapping[int, State],
                 waived: set[int], worlds: int, limit: int) -> int | None:
    """The first step before ``limit`` that showed ``seat`` something, or None. Each world
    is played until it parts from the real game or reaches the earliest such step yet."""
    end = limit
    for k in range(worlds):
        world = start.resample_hidden(seat, derive_seed(start.seed, "reveal", seat, k))
        for j in range(end):
            if j in waived:
                # Known to the seat from here on: the world is drawn again from the real game.
                if j + 1 < end:
                    world = after[j].resample_hidden(
                        seat, derive_seed(start.seed, "reveal", seat, k, j))
                continue
            try:
                world.apply(actions[j])
            except BigtopError:
                end = j  # illegal where the seat's unknowns differ: it told the seat
                break
            if world.observation(seat) != seen[j][seat]:
                end = j
                break
    return end if end < limit else None
