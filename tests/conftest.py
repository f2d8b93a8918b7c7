"""Shared fixtures and helpers."""

from __future__ import annotations

import asyncio
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
    """The tests marked ``slow`` (a quarter of a minute or more) run first: started last,
    one of them would keep one of ``make test``'s workers busy long after the others are
    done."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


class _NoStrayLoop:
    """A test that does not drive the browser runs with no asyncio loop marked running in
    its thread. Playwright's sync API (the browser tests keep one for the worker's session,
    tests/web/conftest.py) leaves its loop marked running between them, and a later test or
    doctest of the same worker calling ``asyncio.run`` was refused ("cannot be called from
    a running event loop"). A plugin, not a hook of this file: the doctests of src/ are
    outside this folder."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> object:
        held = asyncio._get_running_loop()
        if held is None or "playwright" in getattr(item, "fixturenames", ()):
            return (yield)
        asyncio._set_running_loop(None)
        try:
            return (yield)
        finally:
            asyncio._set_running_loop(held)


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_NoStrayLoop(), "bigtop-no-stray-loop")
