"""Shared fixtures and helpers."""

from __future__ import annotations

import random
import signal

import pytest

from bigtop.agents.base import play_random as agents_play_random
from bigtop.agents.base import random_step
from bigtop.core.game import Game, State


def play_random(state: State, rng: random.Random, max_steps: int = 100_000) -> State:
    """Play random legal actions (chance from the state's own seed) to the end."""
    agents_play_random(state, rng, max_steps)
    assert state.is_terminal(), "game did not end"
    return state


def default_ctrl_c() -> None:
    """In a child process before it runs bigtop: Ctrl-C (SIGINT) as a shell leaves it.
    A child inherits an ignored SIGINT, and Python then never installs its KeyboardInterrupt
    handler: if anything in the test process (a pool's initializer run in place, a library)
    left SIGINT ignored, the Ctrl-C tests' commands would ignore Ctrl-C (twice seen in the
    full suite, never alone). A blocked SIGINT is inherited too (a thread's signal mask
    passes to what it forks), and the same runs failed again with the handler reset: the
    mask is cleared of it as well."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def random_game_states(game: Game, seed: int, every: int) -> list[State]:
    """Every ``every``-th state of a seeded random game (chance included), the first and the
    last one too."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    out = [s.clone()]
    step = 0
    while not s.is_terminal():
        random_step(s, rng)
        step += 1
        if step % every == 0:
            out.append(s.clone())
    out.append(s)
    return out


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The doctests run first, then the tests marked ``slow`` (a quarter of a minute or
    more): started last, one of those would keep one of ``make test``'s workers busy long
    after the others are done. The doctests go before them because a worker's browser
    (Playwright's sync API, kept for the worker's whole session) leaves an asyncio loop
    marked running in the worker's thread, and the examples call ``asyncio.run``."""
    items.sort(key=lambda item: (not isinstance(item, pytest.DoctestItem),
                                 item.get_closest_marker("slow") is None))
