"""Bots think in a process pool, never on the event loop.

A bot is handed a copy of the position in which everything its seat cannot see has been
redrawn (``resample_hidden``), so whatever a bot does it cannot learn another seat's cards.
Bots are built only through :func:`bigtop.agents.levels.make_bot`.

>>> from bigtop import new_state
>>> s = new_state("scout", players=2, seed=4)
>>> a = think(bot_input(s, 0, 9), "random", 0, 9)
>>> s.game.action_from_json(a) in s.legal_actions()
True
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from bigtop.agents.levels import make_bot
from bigtop.core.game import State
from bigtop.core.registry import load_state
from bigtop.core.rng import derive_seed


def bot_seed(table_seed: int, seat: int, version: int) -> int:
    """The seed of a bot's decision: fixed by the table, the seat and the move number."""
    return derive_seed(table_seed, "bot", seat, version)


def bot_input(state: State, seat: int, seed: int) -> dict[str, Any]:
    """What is sent to the pool: the position as ``seat`` may know it, without its history
    (a bot decides from the position; the observation holds everything public a player
    with perfect memory has). With the history a bot move cost as much as the game was
    long, and past the core's ``MAX_HISTORY`` (100,000 actions) the pool could not load
    the state at all: no bot moved again."""
    return state.resample_hidden(seat, seed).to_json(with_history=False)


def think(state_json: dict[str, Any], level: str, seat: int, seed: int) -> dict[str, Any]:
    """Run in a pool process: the action (JSON) bot ``level`` plays for ``seat``."""
    state = load_state(state_json)
    bot = make_bot(level, state.game, seat, seed)
    return bot.act(state).to_json()


def make_pool(processes: int) -> Executor:
    """Spawned (not forked) processes: the server's threads and sockets stay out of them.
    Each one exits by itself if the server dies, even by kill -9 (see :func:`_watch_parent`).
    """
    return ProcessPoolExecutor(max_workers=max(1, processes),
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=_watch_parent, initargs=(os.getpid(),))


def warm_up() -> bool:
    """Run once in each new pool process: load the games and bots before the first turn."""
    import bigtop.agents.ismcts  # noqa: F401
    from bigtop.core.registry import game_names, get_game

    for name in game_names():
        get_game(name)
    return True


def _watch_parent(parent: int) -> None:
    """In a pool process: exit as soon as the server process is gone. (A killed server
    never tells its pool; the pool's queue would keep the process waiting for ever.)"""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
