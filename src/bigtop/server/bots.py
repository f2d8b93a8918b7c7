"""Bots think in a process pool, never on the event loop.

A bot is handed a copy of the position in which everything its seat cannot see has been
redrawn (``resample_hidden``), so whatever a bot does it cannot learn another seat's cards.
Bots are built only through :func:`bigtop.agents.levels.make_bot`.

Every move has a wall-clock limit (:func:`move_limit`: the level's budget, cut by the
table's and the server's limits), counted from when the server asks for the move (its
deadline), not from when a pool process takes it: a move that queued thinks only what is
left of its limit, never less than a floor (:func:`time_left`). A searching bot stops its
search there, and any bot still thinking a little later is interrupted and a random legal
move is played for it. The pool (:class:`BotPool`) runs at most ``size`` moves at once and
takes them owner by owner (the address that created the table) and table by table, in
turn, in the order they came, so no table, level or option set delays another owner's bot
by more than one move's limit per owner ahead of it (by its floor once that move has
queued past its deadline: where moves think longer than their floor, a pool that fell
behind catches up at the floor's pace), and, among owners with one table waiting each, no
bot is passed by one that asked after it.

>>> from bigtop import new_state
>>> s = new_state("scout", players=2, seed=4)
>>> a = think(bot_input(s, 0, 9), "random", 0, 9, 1.0)
>>> s.game.action_from_json(a) in s.legal_actions()
True
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

from bigtop.agents.levels import MOVE_BUDGET_MS, SEARCH_BOTS, make_bot
from bigtop.core.game import State
from bigtop.core.registry import load_state
from bigtop.core.rng import derive_seed

log = logging.getLogger("bigtop.server.bots")
"""At DEBUG, one line per bot move: when it reached the pool, when a process took it, when
its answer came back (epoch seconds; the load benchmark's ``--bot-tables`` reads them to
split a bot's wait into queueing and thinking). Off unless a logging set-up asks for it."""

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


T = TypeVar("T")
HARD_CUT = 1.5
"""A bot still thinking at this many times its limit (plus :data:`HARD_CUT_GRACE`) is
interrupted: searching bots stop by themselves at the limit, this catches the rest."""
HARD_CUT_GRACE = 0.05


FLOOR_SHARE = 0.1
"""A move that queued past its deadline still thinks this share of its limit (at least
:data:`FLOOR_SECONDS`): a searching bot still searches a little (medium: 10 ms, a few
determinizations of its usual 4), and a queue of moves behind a busy pool drains ten
times faster than at whole budgets, so a pool that fell behind catches up by itself."""
FLOOR_SECONDS = 0.005
"""The least a move thinks (unless its limit is less): below a few milliseconds a pool
process, 10 nicer than the server on a busy core, may not even be scheduled within the
time (the kernel's time slices are milliseconds long), and the searches check the clock
only between iterations (the first always runs), so a shorter floor buys no speed."""


def time_left(limit: float, deadline: float, now: float) -> float:
    """What a move with ``limit`` (seconds) asked for by ``deadline`` (the ask plus the
    limit, epoch seconds) may still think at ``now``: the rest of its limit, never more
    than the limit (a clock that went back) nor less than the floor (:data:`FLOOR_SHARE`
    of it, at least :data:`FLOOR_SECONDS`, at most the limit).

    >>> time_left(0.25, 100.25, 100.0)  # taken at once
    0.25
    >>> time_left(0.25, 100.25, 100.125)  # taken 125 ms after the ask
    0.125
    >>> [round(time_left(s, 100.0, 107.0), 6) for s in (0.1, 1.0)]  # queued past it
    [0.01, 0.1]
    >>> time_left(0.001, 100.0, 107.0)  # a limit under the floor's minimum: the limit
    0.001
    """
    floor = min(limit, max(limit * FLOOR_SHARE, FLOOR_SECONDS))
    return max(floor, min(limit, deadline - now))


def move_limit(level: str, table_seconds: float | None, server_seconds: float) -> float:
    """The wall-clock limit of one move of bot ``level``: its budget (``MOVE_BUDGET_MS``),
    cut by the table's limit (if it set one) and the server's.

    >>> move_limit("hard", None, 5.0), move_limit("hard", 0.25, 5.0)
    (1.0, 0.25)
    >>> move_limit("ismcts", None, 2.0)  # no budget of its own: the server's limit
    2.0
    """
    budget = MOVE_BUDGET_MS.get(level)
    limits = [server_seconds, *([] if table_seconds is None else [table_seconds]),
              *([] if budget is None else [budget / 1000.0])]
    return min(limits)


class TimeUp(Exception):
    """A bot thought past its hard cut."""


@contextmanager
def interrupted_after(seconds: float) -> Iterator[None]:
    """Raise :class:`TimeUp` in this (main) thread after ``seconds`` of wall-clock time
    (SIGALRM: a pool process runs its jobs in its main thread). Elsewhere it does nothing.

    >>> with interrupted_after(0.01):
    ...     while True:
    ...         pass
    Traceback (most recent call last):
    ...
    bigtop.server.bots.TimeUp: thought past 0.01 s
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(_signum: int, _frame: Any) -> None:
        raise TimeUp(f"thought past {seconds:g} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def within(seconds: float, act: Callable[[], T], fallback: Callable[[], T]) -> T:
    """``act()``, or ``fallback()`` when it is still running after ``seconds``."""
    try:
        with interrupted_after(seconds):
            return act()
    except TimeUp:
        return fallback()


def think(state_json: dict[str, Any], level: str, seat: int, seed: int,
          seconds: float, deadline: float | None = None) -> dict[str, Any]:
    """Run in a pool process: the action (JSON) bot ``level`` plays for ``seat``, within
    ``seconds`` (:func:`move_limit`), or with a ``deadline`` (epoch seconds: when the
    server asked, plus ``seconds``) within what is left of it (:func:`time_left`: at least
    the floor): a searching bot searches that long at most; any bot still thinking at
    :data:`HARD_CUT` times that is interrupted and a random legal move is played instead.
    The move depends only on the position, the level, the seat and the seed, as before,
    unless the time cuts the search short."""
    state = load_state(state_json)
    if deadline is not None:  # the wall clock: the server and its pool processes share it
        seconds = time_left(seconds, deadline, time.time())
    bot = make_bot(level, state.game, seat, seed,
                   time_limit=seconds if level in SEARCH_BOTS else None)
    return within(seconds * HARD_CUT + HARD_CUT_GRACE, lambda: bot.act(state).to_json(),
                  lambda: make_bot("random", state.game, seat, seed).act(state).to_json())


class BotPool:
    """Bot moves on an executor, at most ``size`` at once, taken owner by owner and, within
    an owner, table by table, in turn. An owner is the client address that created the
    table: one stranger's ten tables of `hard` bots playing each other take one turn in
    the round of owners, as a single table of anyone else does, instead of ten (with two
    processes, another person's bot waited behind five seconds of them a move). Owners,
    and an owner's tables, queue in the order their first waiting move came, and one with
    more waiting after it is served goes to the back, so a table with many moves to make
    (or slow bots) takes its turn like every other. The server asks one move a table at a
    time (a table's next bot move only once the last is stored), and then this is first
    come, first served among owners with one table waiting each: no bot's move is passed
    by a move another table asked for later, unless its own owner's other tables come
    first. (Taking the table served least recently first, as this once did, let a
    table whose last move was recent be passed by every table served before it that asked
    later: on two busy cores with the pool behind, by seconds.)

    Nothing here bounds the moves waiting, and nothing needs to: the server holds at most
    one move a table here (its next only once the last is stored), so the open tables
    (``Limits.max_open_tables``) bound them, each a position without its history (1–8 KB
    in memory in random games of the four games, tracemalloc); and a move that waited
    past its deadline thinks only the floor (:func:`time_left`), so the wait of the last
    is about the moves ahead of it times the floor's cost, over ``size``. Refusing a move
    would stall its table instead.

    >>> async def demo():
    ...     pool = BotPool(None, size=1)
    ...     return await asyncio.gather(pool.run("a", sum, [1, 2]), pool.run("b", max, [4, 5]))
    >>> asyncio.run(demo())
    [3, 5]
    """

    def __init__(self, executor: Executor | None, size: int) -> None:
        self.executor = executor
        self.size = max(1, size)
        self._waiting: dict[str, deque[tuple[Callable[..., Any], tuple[Any, ...],
                                             asyncio.Future[Any], float]]] = {}
        self._tables: dict[str, deque[str]] = {}  # an owner's tables with moves waiting
        self._owner_of: dict[str, str] = {}  # a table with moves waiting: its owner
        self._owners: deque[str] = deque()  # the owners with moves waiting, in turn
        self._running = 0

    async def run(self, table_id: str, fn: Callable[..., T], *args: Any,
                  owner: str = "") -> T:
        """``fn(*args)`` on the executor when this table's turn comes among its owner's
        tables, and its owner's among the owners."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        jobs = self._waiting.get(table_id)
        if jobs is None:
            jobs = self._waiting[table_id] = deque()
            owner = self._owner_of.setdefault(table_id, owner)
            tables = self._tables.get(owner)
            if tables is None:
                tables = self._tables[owner] = deque()
                self._owners.append(owner)
            tables.append(table_id)
        jobs.append((fn, args, future, time.time()))
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running < self.size and self._owners:
            owner = self._owners.popleft()
            tables = self._tables[owner]
            table_id = tables.popleft()
            jobs = self._waiting[table_id]
            fn, args, future, arrived = jobs.popleft()
            if jobs:
                tables.append(table_id)
            else:
                del self._waiting[table_id], self._owner_of[table_id]
            if tables:
                self._owners.append(owner)
            else:
                del self._tables[owner]
            if future.cancelled():
                continue
            self._running += 1
            done = loop.run_in_executor(self.executor, fn, *args)
            done.add_done_callback(functools.partial(
                self._finished, future=future, table_id=table_id, arrived=arrived,
                started=time.time()))

    def _finished(self, done: asyncio.Future[Any], *, future: asyncio.Future[Any],
                  table_id: str, arrived: float, started: float) -> None:
        self._running -= 1
        if log.isEnabledFor(logging.DEBUG):
            log.debug("bot move at %s: arrived %.6f started %.6f done %.6f", table_id,
                      arrived, started, time.time())
        if not future.done():
            if done.cancelled():
                future.cancel()
            elif done.exception() is not None:
                future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                future.set_result(done.result())
        self._dispatch()


POOL_NICENESS = 10
"""How much nicer than the server a pool process runs. People wait on the worker's event
loop for every move, with nothing of their own to bound the wait; a bot has its move's
budget, and a searching bot thinks in wall-clock time, so on a core the worker needs the
bot yields and searches less rather than the people waiting. On two busy cores, 200
people's tables beside 200 tables against medium bots: the people's p99 5.1–5.4 times what
it was without the bot tables at niceness 0, 0.55–0.96 times at 10 (docs/benchmarks.md).
The price: under a saturated worker, or on a machine busy with other work, the pool gets
little CPU and bots queue longer."""


def make_pool(processes: int) -> Executor:
    """Spawned (not forked) processes, :data:`POOL_NICENESS` nicer than the server: the
    server's threads and sockets stay out of them. Each one exits by itself if the server
    dies, even by kill -9 (see :func:`_watch_parent`).
    """
    return ProcessPoolExecutor(max_workers=max(1, processes),
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_process,
                               initargs=(os.getpid(), POOL_NICENESS))


def _start_process(parent: int, niceness: int) -> None:
    """In a new pool process: yield the CPU to the server first (``niceness`` more than
    it has: a process may always lower its own priority), then watch it."""
    os.nice(niceness)
    _watch_parent(parent)


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
