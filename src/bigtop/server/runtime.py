"""What a running worker holds besides the database: its WebSocket connections, the bot
pool, per-connection move rates, and the PostgreSQL listener that hears other workers' moves.

Database work is synchronous and runs off the event loop (:meth:`Runtime.db`: on SQLite in
one thread of its own, on PostgreSQL in the loop's pool); bots run in the process pool; the
event loop only routes messages.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import json
import logging
import math
import queue
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Hashable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar, cast

import orjson
from fastapi import WebSocket

from bigtop.agents.levels import make_bot
from bigtop.core.game import TERMINAL
from bigtop.core.registry import capabilities
from bigtop.server import errors
from bigtop.server.bots import BotPool, bot_input, bot_seed, make_pool, move_limit, think, warm_up
from bigtop.server.collector import Collector
from bigtop.server.master import (
    TableMaster,
    opens_seat,
    rated_now,
    table_result,
    timed_out_seats,
)
from bigtop.server.model import (
    BOT,
    FINISHED,
    PLAYING,
    ChatRecord,
    Loaded,
    LogEntry,
    Meta,
    Seat,
    hash_token,
)
from bigtop.server.net import wider_key
from bigtop.server.settings import Settings
from bigtop.server.storage.sql import parse_note
from bigtop.server.views import named, seat_view, summary

log = logging.getLogger("bigtop.server")
T = TypeVar("T")
TAKE_BACKS_KEPT = 4096
"""Take-backs' findings kept (:meth:`Runtime.take_back`), one per person's seat at the tables
being played (a refusal's line, or the position last looked from) and one position per
table (its latest: the next mover's take-back looks from it), each position without its
history (a few kilobytes); the least recently found dropped first. Found again from the
deal when dropped: at 1,000 tables of two people about 3,000 are in use."""
PART_WEIGHT = 5
"""Bytes a kept seat part's result (a finished game's, kept as values; the rest of a part
is JSON text, charged what its strings take) is charged per byte of its JSON: what dicts,
lists and strings take in memory. Measured over the four games: 2.7–4.4 newly allocated
(tracemalloc; ``bench/bench_limits.py`` prints SCOUT's), 3.1–5.0 counting every object a
part reaches (``sys.getsizeof``, shared ones once; tests/server/test_limits.py)."""
ENTRY_BYTES = 256
"""Bytes every kept view is charged besides its own: its key tuple and the cache's entry."""


class JsonText:
    """JSON text that :func:`dumps` writes in place, as it is (a kept seat part inside a
    view: made into text once, never parsed again). Not a dataclass: orjson would write
    one as an object."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _json_text(value: Any) -> Any:
    if isinstance(value, JsonText):
        return orjson.Fragment(value.text)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _json_value(value: Any) -> Any:
    if isinstance(value, JsonText):
        return json.loads(value.text)
    raise TypeError(f"{type(value).__name__} is not JSON")


_NO_TAKE_BACK = JsonText("null")
"""A spectator's ``take_back``: nothing to take back."""


def dumps(value: Any) -> str:
    """Compact JSON text (UTF-8, no spaces), as the framework's JSON responses write it,
    by orjson (views are most of a move's work); what orjson refuses (keys that are no
    strings, integers past 64 bits) goes through the standard library. A
    :class:`JsonText` is written as the JSON it holds.

    >>> dumps({"a": [1, "é"]})
    '{"a":[1,"é"]}'
    >>> dumps({1: 2**70})
    '{"1":1180591620717411303424}'
    >>> dumps({"part": JsonText('{"x":[1]}'), "n": 2**70})
    '{"part":{"x":[1]},"n":1180591620717411303424}'
    """
    try:
        return orjson.dumps(value, default=_json_text).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"),
                          default=_json_value)


def json_size(value: Any) -> int:
    """Bytes of ``value``'s compact JSON (UTF-8), as :func:`dumps` writes it.

    >>> json_size({"a": [1, "é"]})
    14
    """
    try:
        return len(orjson.dumps(value))
    except TypeError:  # orjson.JSONEncodeError: as dumps() falls back
        return len(dumps(value).encode())


class ViewCache:
    """What a worker keeps of the views it made, to send again: seat parts and view texts,
    in one least-recently-used order, bounded in bytes (``Settings.view_cache_bytes``):
    a text is charged its length, a seat part ``PART_WEIGHT`` times its JSON's, each
    besides ``ENTRY_BYTES``; the least recently used go first, and one over an eighth of
    the budget is never kept (it would push out a crowd of ordinary ones). Thread-safe.

    >>> c = ViewCache(budget=8000)
    >>> for i in range(30):
    ...     c.put(i, str(i), 100)
    ...     _ = c.get(0)  # 0 is used again and again
    >>> len(c), c.nbytes  # 22 views of 100 + ENTRY_BYTES
    (22, 7832)
    >>> c.get(0), c.get(1), c.get(29)  # the least recently used went first
    ('0', None, '29')
    >>> c.put("huge", "h", 1000); c.get("huge")  # over an eighth: never kept
    """

    def __init__(self, budget: int, max_entries: int | None = None) -> None:
        self.budget = budget
        self.max_entries = max_entries
        """At most this many kept (None: as many as the bytes allow)."""
        self.nbytes = 0
        """Bytes charged for what is kept (at most ``budget``)."""
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> Any:
        """The value kept for ``key`` (None: none), now the most recently used."""
        with self._lock:
            hit = self._items.get(key)
            if hit is None:
                return None
            self._items.move_to_end(key)
            return hit[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        """Keep ``value`` (``size`` bytes, besides ``ENTRY_BYTES``), dropping the least
        recently used to stay within the budget."""
        size += ENTRY_BYTES
        if size > self.budget // 8:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.nbytes -= old[1]
            self._items[key] = (value, size)
            self.nbytes += size
            while self.nbytes > self.budget or (
                    self.max_entries is not None and len(self._items) > self.max_entries):
                self.nbytes -= self._items.popitem(last=False)[1][1]

    def values(self) -> list[Any]:
        """Everything kept, the least recently used first."""
        with self._lock:
            return [v for v, _ in self._items.values()]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.nbytes = 0


async def in_thread(fn: Callable[..., T], *args: Any) -> T:
    """Run blocking work off the event loop, in the loop's thread pool (plain asyncio: a
    move hands off a few times, and anyio's cancel scopes and capacity limiter cost more
    than the handing off itself). Database work goes through :meth:`Runtime.db`."""
    return await asyncio.get_running_loop().run_in_executor(None, functools.partial(fn, *args))


_LATER = object()
"""The token in a :class:`DatabaseThread`'s queue that runs its oldest later job."""


class DatabaseThread:
    """One thread that does a worker's SQLite work in turn, handed over with as little as
    Python allows: a job in a :class:`queue.SimpleQueue`, its answer set on an asyncio future
    by ``call_soon_threadsafe``. SQLite has one writer at a time anyway; a pool's threads
    would wake up only to queue for its write lock and the GIL, and ``run_in_executor``'s
    futures, work items and callbacks cost more per move than its SQL (seen in a profile).

    Jobs handed over with a key (:meth:`run_grouped`: moves, keyed by their table) that
    queue up behind each other run inside one ``group()`` block (the storage's group
    commit), at most ``GROUP_MOST`` of them and one a key, and are answered only after it
    committed; a failed commit is the answer of each job whose work it lost.

    >>> import asyncio
    >>> db = DatabaseThread()
    >>> asyncio.run(db.run(sum, [1, 2]))
    3
    >>> asyncio.run(db.run(int, "x"))
    Traceback (most recent call last):
    ...
    ValueError: invalid literal for int() with base 10: 'x'
    >>> db.close()
    """

    GROUP_MOST = 8
    """Keyed jobs in one group at most: the first one's answer waits for all of them, and
    groups of 4 already save about what groups of 8 do (a tenth to a quarter of the
    thread's CPU a move: docs/benchmarks.md, "Per-move cost")."""

    LATER_MOST = 4
    """Times a job handed over with :meth:`run_later` lets the jobs queued before it go
    first (each time: those queued then); after that it runs in its turn."""

    def __init__(self, name: str = "bigtop-db",
                 group: Callable[[], contextlib.AbstractContextManager[Any]] | None = None
                 ) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._later: collections.deque[Any] = collections.deque()
        """Jobs of :meth:`run_later`, oldest first; each has a :data:`_LATER` token in
        ``_jobs`` that runs it."""
        self._group = group
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the database thread: its result, or its exception raised."""
        return await self.run_grouped(None, fn, *args)

    async def run_grouped(self, key: Hashable | None, fn: Callable[..., T], *args: Any) -> T:
        """:meth:`run`, in a group with the keyed jobs queued beside it (None: alone)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, future, fn, args, key))
        return await future

    async def run_later(self, fn: Callable[..., T], *args: Any) -> T:
        """:meth:`run`, for work that may wait a little (a bot's move): the jobs queued
        ahead of it when its turn comes go first, up to :data:`LATER_MOST` times; so a
        person's move does not queue behind the bots' moves stored around it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._later.append((loop, future, fn, args, None))
        self._jobs.put(_LATER)
        return await future

    def close(self) -> None:
        """Stop after the jobs already handed over; waits for the thread."""
        self._jobs.put(None)
        self._thread.join()

    def _work(self) -> None:
        held = None  # a job taken while gathering a group, run next
        deferred = 0  # how often the oldest later job let others go first
        while True:
            job, held = held or self._jobs.get(), None
            if job is None:
                while self._later:  # handed over before the stop: answered
                    waiting = self._later.popleft()
                    self._answer(waiting, *self._call(waiting))
                return
            if job is _LATER:
                if deferred < self.LATER_MOST and not self._jobs.empty():
                    deferred += 1
                    self._jobs.put(_LATER)  # behind the jobs queued now
                    continue
                deferred = 0
                job = self._later.popleft()
                self._answer(job, *self._call(job))
                continue
            key = job[4]
            if key is None or self._group is None or self._jobs.empty():
                self._answer(job, *self._call(job))
                continue
            jobs, keys = [job], {key}
            while len(jobs) < self.GROUP_MOST:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None or more is _LATER or more[4] is None or more[4] in keys:
                    held = more
                    if more is None:  # stop after this group
                        self._jobs.put(None)
                        held = None
                    break
                jobs.append(more)
                keys.add(more[4])
            if len(jobs) == 1:
                self._answer(job, *self._call(job))
            else:
                self._run_group(jobs)

    def _run_group(self, jobs: list[Any]) -> None:
        assert self._group is not None
        done: list[tuple[bool, Any, bool, int]] = []
        group: Any = None
        try:
            with self._group() as group:
                for job in jobs:
                    ok, value = self._call(job)
                    # Whether the job's work waits for the group's next commit.
                    done.append((ok, value, group.open, group.generation))
        except BaseException as e:  # a commit failed (recorded in group.failed)
            if group is None:  # or the group did not begin: none of the jobs ran
                for job in jobs:
                    self._answer(job, False, e)
                return
        failed = group.failed
        for job, (ok, value, waited, generation) in zip(jobs, done, strict=True):
            if ok and waited and generation in failed:
                ok, value = False, failed[generation]
            self._answer(job, ok, value)

    @staticmethod
    def _call(job: Any) -> tuple[bool, Any]:
        _, _, fn, args, _ = job
        try:
            return True, fn(*args)
        except BaseException as e:  # handed to the awaiting task, as an executor does
            return False, e

    @staticmethod
    def _answer(job: Any, ok: bool, value: Any) -> None:
        loop, future = job[0], job[1]
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(_succeed if ok else _fail, future, value)


def _succeed(future: asyncio.Future[Any], result: Any) -> None:
    if not future.done():  # not cancelled meanwhile
        future.set_result(result)


def _fail(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


def refuse(wait: float, what: str) -> None:
    """429 with Retry-After if a rate limit said to ``wait`` (seconds; 0: allowed)."""
    if wait:
        raise errors.TooManyRequests(f"{what}; try again in {math.ceil(wait)} s",
                                     retry_after=wait)


class RateLimiter:
    """Token buckets: ``rate`` per second, ``burst`` at once, per key (a seat, a client
    address), in one worker's memory: for moves, too frequent to store each in the
    database. With N workers behind a proxy that spreads one client's requests, that client
    gets up to N times the rate (docs/server.md, Limits); :class:`SharedLimiter` holds
    across workers.

    >>> r = RateLimiter(rate=1.0, burst=2)
    >>> [r.allow("k", now=0.0) for _ in range(3)]
    [True, True, False]
    >>> r.take("k", now=0.5)  # seconds until the next token
    0.5
    >>> r.allow("k", now=1.0), r.allow("other", now=1.0)
    (True, True)
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[Any, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: Any, now: float | None = None) -> bool:
        return self.take(key, now) == 0.0

    def take(self, key: Any, now: float | None = None, cost: float = 1.0) -> float:
        """Take ``cost`` tokens (at most ``burst``) of ``key``'s bucket: 0.0, or (none
        taken) the seconds until they are there."""
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens = self._held(key, now)
            if tokens < cost:
                self._buckets[key] = (tokens, now)
                return (cost - tokens) / self.rate
            self._buckets[key] = (tokens - cost, now)
            if len(self._buckets) > 100_000:  # forget full buckets (a full one is the default)
                self._buckets = {k: (t, at) for k, (t, at) in self._buckets.items()
                                 if t + (now - at) * self.rate < self.burst}
            return 0.0

    def check(self, key: Any, what: str) -> None:
        """Take a token of ``key`` or refuse: 429 with Retry-After."""
        refuse(self.take(key), what)

    def wait(self, key: Any, now: float | None = None) -> float:
        """Seconds until ``key``'s bucket holds a token (0.0: it holds one now); takes none.

        >>> r = RateLimiter(rate=2.0, burst=1)
        >>> r.wait("k", now=0.0), r.take("k", now=0.0), r.wait("k", now=0.25)
        (0.0, 0.0, 0.25)
        """
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens = self._held(key, now)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def _held(self, key: Any, now: float) -> float:
        """The tokens ``key``'s bucket holds at ``now``, refilled since it was last taken
        from (a bucket never seen is full). Under ``_lock``."""
        tokens, last = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - last) * self.rate)


class SharedLimiter:
    """Token buckets kept in the storage (``schema.rate_buckets``), shared by every worker
    on the database: ``rate`` per second, ``burst`` at once, per key (a client address, a
    seat), named ``name``. For the per-client limits of what is done seldom (creating a
    table, taking a seat, a new identity, a chat message): one short write transaction a
    request, just before the work it guards (``bench/bench_limits.py``: docs/server.md,
    Limits). The clock is the wall clock (``time.time()``), the same for every worker of
    one machine."""

    def __init__(self, runtime: Runtime, name: str, rate: float, burst: int) -> None:
        self.runtime = runtime
        self.name = name
        self.rate = rate
        self.burst = burst

    def bucket(self, key: str) -> str:
        """The bucket's row key: the limit's name and ``key`` (hashed if it would not fit
        the column; addresses and table ids always do).

        >>> SharedLimiter(None, "tables", 1.0, 1).bucket("198.51.100.7")  # type: ignore[arg-type]
        'tables 198.51.100.7'
        >>> len(SharedLimiter(None, "chat", 1.0, 1).bucket("x" * 500))  # type: ignore[arg-type]
        69
        """
        bucket = f"{self.name} {key}"
        if len(bucket) > 128:
            bucket = f"{self.name} {hashlib.sha256(key.encode()).hexdigest()}"
        return bucket

    async def check(self, key: str, what: str) -> None:
        """Take a token of ``key`` (in the database) or refuse: 429 with Retry-After. A key
        of an IPv6 client's network takes one of its wider network's too
        (``Limits.ipv6_wide_prefix``: a bucket ``ipv6_wide_share`` times as large)."""
        storage = self.runtime.master.storage
        refuse(await self.runtime.db(storage.take_token, self.bucket(key), time.time(),
                                     self.rate, self.burst), what)
        lim = self.runtime.limits
        wide = wider_key(key, lim.ipv6_wide_prefix)
        if wide is not None:
            share = lim.ipv6_wide_share
            refuse(await self.runtime.db(storage.take_token, self.bucket(wide), time.time(),
                                         self.rate * share, self.burst * share),
                   f"{what} (and its /{lim.ipv6_wide_prefix} network {share} times that)")


class SeatPart(NamedTuple):
    """What a view shows one seat (or a spectator) of a position, made once per table
    version and seat: the observation and the legal actions (their describe lines with the
    seats' names) as JSON text, whose turn it is and the result (once the game is over)."""

    current_player: int
    observation: str
    legal_actions: str
    result: Any


@functools.cache
def has_picture(game: str) -> bool:
    """Whether ``game`` draws its views (asked for every view sent)."""
    return capabilities(game).picture is not None


@dataclass(eq=False)
class Connection:
    ws: WebSocket
    table_id: str
    seat: int | None
    client: str = ""
    """The real client address (server/net.py): its moves count toward its rate."""
    sent_version: int = -1
    sent_rev: int = -1
    sent_undos: int = 0
    sent_ids: set[str] = field(default_factory=set)
    """The ids of every log entry sent (or, on connecting, known to the client)."""
    sent_log: tuple[LogEntry, ...] = ()
    """The log of the table as of the last message."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sent_chat: int = 0
    """The id of the last chat message sent (each goes out once, however it was heard)."""
    token: str | None = None
    """The seat token the connection opened with (each move is checked against it)."""
    dropped: bool = False
    """Its client stopped taking what is sent (:meth:`Runtime.deliver`), or its token no
    longer opens its seat (:meth:`Runtime.send`): it gets nothing more and is closed."""
    token_hash: str | None = field(default=None, init=False, repr=False)
    """The hash of ``token``: whether it still opens the seat is asked whenever the seats
    change."""

    def __post_init__(self) -> None:
        self.token_hash = None if self.token is None else hash_token(self.token)


async def resume(coro: Coroutine[Any, Any, T], waiting_on: Any) -> T:
    """Go on with ``coro`` in the current task from where it stopped, having yielded
    ``waiting_on`` to the task that ran it (a future, or None: let the loop run once), as
    that task would have: once the future is done the coroutine reads its outcome itself,
    and this task's cancellation reaches it through the future (or, if the future was
    done first, as a CancelledError thrown in)."""
    while True:
        try:
            if waiting_on is None:
                await asyncio.sleep(0)
            else:
                # Taken over as a task takes a future its coroutine yielded (the flag
                # says "yielded, not yet taken": awaiting it again would be refused).
                waiting_on._asyncio_future_blocking = False
                await waiting_on
        except asyncio.CancelledError:
            if waiting_on is None or not waiting_on.done():
                if waiting_on is not None:
                    waiting_on.cancel()
                try:
                    waiting_on = coro.throw(asyncio.CancelledError())
                except StopIteration as stop:
                    return cast(T, stop.value)
                continue
        except BaseException:  # the future's own exception: the coroutine reads it
            pass
        try:
            waiting_on = coro.send(None)
        except StopIteration as stop:
            return cast(T, stop.value)


class Runtime:
    """One worker's live parts. Created by the app's lifespan."""

    def __init__(self, master: TableMaster, settings: Settings) -> None:
        self.master = master
        self.settings = settings
        self.limits = settings.limits
        lim = self.limits
        # Moves: in this worker's memory (many a second; a write each would cost more
        # than the move).
        self.moves = RateLimiter(lim.moves_per_second, lim.move_burst)
        """Moves per seat ``(table, seat)``, over HTTP and every WebSocket of the seat."""
        self.client_moves = RateLimiter(lim.client_moves_per_second, lim.client_move_burst)
        """Moves per client address (server/net.py)."""
        # The rest: in the database, shared by every worker.
        self.creates = SharedLimiter(self, "tables", lim.tables_per_hour / 3600.0,
                                     lim.table_burst)
        """Tables created per client address."""
        self.joins = SharedLimiter(self, "joins", lim.joins_per_hour / 3600.0, lim.join_burst)
        """Seats taken (joined, claimed) per client address."""
        self.host_changes = SharedLimiter(self, "host", lim.host_changes_per_hour / 3600.0,
                                          lim.host_change_burst)
        """Changes a host makes to its tables' settings (listing) per client address."""
        self.chat_limit = SharedLimiter(self, "chat", lim.chat_per_minute / 60.0,
                                        lim.chat_burst)
        """Chat messages per seat (``seat TABLE N``) and per client address
        (``address ADDR``)."""
        self.new_players = SharedLimiter(self, "players", lim.new_players_per_hour / 3600.0,
                                         lim.new_player_burst)
        """Identities per client address."""
        self.renames = SharedLimiter(self, "renames", lim.renames_per_hour / 3600.0,
                                     lim.rename_burst)
        """Renames of identities per client address."""
        self.connections: dict[str, set[Connection]] = {}
        self._views = ViewCache(settings.view_cache_bytes)
        """Seat parts and view texts, in one budget of bytes."""
        self._take_backs: dict[Any, tuple[Any, ...]] = {}
        """Per person's last move, its take-back's refusal or the position it would go
        back to (:meth:`TableMaster.take_back`), oldest first."""
        self.pictures = ViewCache(lim.picture_cache_bytes, lim.picture_cache_entries)
        """Pictures drawn (routers/tables.py ``picture``): the SVG and its ETag, by table,
        take-backs, version and seat (None: a spectator's)."""
        self._thinking: set[str] = set()
        self._sending: dict[asyncio.Task[Any], tuple[Connection, float]] = {}
        """Sends waiting for their client (:meth:`deliver`, :meth:`reply`), by task: the
        socket and when the wait began."""
        self._cut: set[asyncio.Task[Any]] = set()
        """Tasks whose send the watchdog cancelled (:meth:`_drop_stuck`)."""
        self._present: dict[tuple[str, int], float] = {}
        self._stored_seen: dict[tuple[str, int], float] = {}
        """When this worker last stored each present person's sighting."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._pool: Any = None
        self.bots = BotPool(None, 1)
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self._collector: Collector | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        # SQLite: one thread of its own (DatabaseThread). PostgreSQL's statements are round
        # trips to a server that works on several at once: the loop's pool.
        self._db: DatabaseThread | None = None

    async def db(self, fn: Callable[..., T], *args: Any, later: bool = False) -> T:
        """Run database work (a :class:`TableMaster` method) off the event loop (the
        event loop doing SQLite's work itself spends less CPU per move but answers later,
        since every disk write stops it: measured). ``later``: work that may let people's
        go first (a bot's move: :meth:`DatabaseThread.run_later`)."""
        if self._db is not None:
            return await (self._db.run_later(fn, *args) if later else self._db.run(fn, *args))
        return await in_thread(fn, *args)

    async def db_move(self, table_id: str, fn: Callable[..., T], *args: Any) -> T:
        """:meth:`db` for a move at ``table_id``: on SQLite, moves of other tables queued
        beside it are stored in the same transaction (:class:`DatabaseThread`); answered
        once it is committed."""
        if self._db is not None:
            return await self._db.run_grouped(table_id, fn, *args)
        return await in_thread(fn, *args)

    # -- lifecycle ------------------------------------------------------------------------
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        if self.master.storage.dialect == "sqlite":
            self._db = DatabaseThread(group=self.master.storage.group)
        if self.settings.bot_processes > 0:
            self._pool = make_pool(self.settings.bot_processes)
            self.bots = BotPool(self._pool, self.settings.bot_processes)
            for _ in range(self.settings.bot_processes):  # start them now, not on a turn
                self._pool.submit(warm_up)
        else:  # an app inside another program (tests): bots think in one thread of it
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="bigtop-bot")
            self.bots = BotPool(self._pool, 1)
        if self.master.storage.dialect == "postgresql":
            self._listener = threading.Thread(
                target=self.master.storage.listen, args=(self._stop, self._heard),
                name="bigtop-listen", daemon=True)
            self._listener.start()
        self._spawn(self._sweeper())
        self._spawn(self._watching_sends())
        if self.settings.gc_freeze_seconds is not None:
            self._collector = Collector(self.settings.gc_freeze_seconds,
                                        self.settings.gc_full_seconds,
                                        self.settings.gc_full_growth)
            self._collector.start()
            self._spawn(self._collecting(self._collector))

    async def stop(self) -> None:
        self._stop.set()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._collector is not None:
            self._collector.stop()
        if self._pool is not None:
            await in_thread(lambda: self._pool.shutdown(wait=True, cancel_futures=True))
        if self._listener is not None:
            await in_thread(self._listener.join, 5.0)
        if self._db is not None:  # its last statement ends before the engine is disposed
            await in_thread(self._db.close)
            self._db = None

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- views ----------------------------------------------------------------------------
    def seat_part(self, loaded: Loaded, seat: int | None) -> SeatPart:
        """The seat-dependent part of a view, computed once per table version and seat and
        kept as JSON text: the dicts and lists it is made from go at once (a kept tree of
        them, about a hundred objects a move, was what the young garbage collections
        walked most; docs/benchmarks.md, "Per-move cost, second round")."""
        m = loaded.meta
        key = ("part", m.id, m.version, m.seat_rev, m.status, seat)
        hit: SeatPart | None = self._views.get(key)
        if hit is not None:
            return hit
        may_move = m.status == "playing" and (
            seat is None or loaded.seats[seat].bot_level is None)
        part = seat_view(loaded.state, seat, may_move=may_move)
        legal = part["legal_actions"]
        # The seats' names are part of the key (a name changes the seat revision).
        names = [s.name for s in loaded.seats]
        if any(names) and legal:
            legal = [{**a, "text": named(a["text"], names)} for a in legal]
        result = part["result"]
        kept = SeatPart(part["current_player"], dumps(part["observation"]), dumps(legal),
                        result)
        self._views.put(key, kept, sys.getsizeof(kept.observation)
                        + sys.getsizeof(kept.legal_actions)
                        + (0 if result is None else PART_WEIGHT * json_size(result)))
        return kept

    def view_text(self, loaded: Loaded, seat: int | None, since: int | None = None,
                  entries: tuple[LogEntry, ...] | None = None,
                  log_since: int | None = None) -> str:
        """:meth:`view` as JSON text, made once for every connection and answer that gets
        the same view (the same table version, seat and new log entries): a mover's HTTP
        answer and its WebSocket update, a seat open in two tabs, spectators."""
        if entries is None:
            since = self._bounded_since(loaded, since)
            entries = log_after(loaded, since)
        if log_since is None:
            log_since = -1 if since is None else since
        if len(entries) > 8 or loaded.meta.clock is not None:
            # A whole log: sent once per connection, not worth keeping; a clocked table's
            # view says when it was sent ("now"), so it is made for each.
            return dumps(self._view(loaded, seat, entries, log_since))
        m = loaded.meta
        same = (m.id, m.version, m.seat_rev, m.status, loaded.last_event, log_since,
                tuple(e.id for e in entries))
        key = ("text", seat, same)
        hit: str | None = self._views.get(key)
        if hit is not None:
            return hit
        # What every seat's view of this version shares (all but the seat, its observation
        # and its legal actions) is made into text once; the seat's fields are added at its
        # end.
        part = self.seat_part(loaded, seat)
        shared_key = ("shared", same)
        shared: str | None = self._views.get(shared_key)
        if shared is None:
            shared = dumps(self._shared_view(loaded, part, entries, log_since))
            self._views.put(shared_key, shared, len(shared))
        text = shared[:-1] + "," + dumps(self._seat_fields(loaded, seat, part))[1:]
        self._views.put(key, text, len(text))
        return text

    def _bounded_since(self, loaded: Loaded, since: int | None) -> int | None:
        """``since``, moved on so that a view carries at most ``Limits.max_view_log`` log
        entries (the latest; events at the version where it starts too)."""
        limit = self.limits.max_view_log
        log = loaded.log
        if len(log) <= limit:
            return since
        start = log[-limit].version - 1
        return start if since is None or since < start else since

    def view(self, loaded: Loaded, seat: int | None, since: int | None = None, *,
             entries: tuple[LogEntry, ...] | None = None,
             log_since: int | None = None) -> dict[str, Any]:
        """A whole view for ``seat``: the table, the seat part and the public log (all of
        it, or the entries after version ``since``, or the ``entries`` given).
        ``log_since`` overrides the view's ``log_since`` (an update says what it follows).
        Plain JSON values, as a client reads them (the server sends :meth:`view_text`)."""
        if entries is None:
            since = self._bounded_since(loaded, since)
            entries = log_after(loaded, since)
        if log_since is None:
            log_since = -1 if since is None else since
        view: dict[str, Any] = json.loads(dumps(self._view(loaded, seat, entries, log_since)))
        return view

    def _view(self, loaded: Loaded, seat: int | None, entries: tuple[LogEntry, ...],
              log_since: int) -> dict[str, Any]:
        """:meth:`view` with the seat part's JSON text in place (for :func:`dumps`)."""
        part = self.seat_part(loaded, seat)
        return {**self._shared_view(loaded, part, entries, log_since),
                **self._seat_fields(loaded, seat, part)}

    def _seat_fields(self, loaded: Loaded, seat: int | None, part: SeatPart) -> dict[str, Any]:
        """The fields of a view that differ between seats: the seat, its observation, its
        legal actions (JSON text in place) and whether its last move could be taken back."""
        started = loaded.meta.started
        # Nothing is dealt for anyone before every person has arrived.
        return {"seat": seat,
                "observation": JsonText(part.observation) if started else None,
                "legal_actions": JsonText(part.legal_actions) if started else [],
                "take_back": self.take_back(loaded, seat)}

    def take_back(self, loaded: Loaded, seat: int | None) -> JsonText:
        """:meth:`TableMaster.take_back` for a view, as JSON text, found once per table
        version and seat (a refusal, and the position gone back to, once until the seat
        moves again): a page offers a take-back only where asking would not be refused
        (docs/server.md, "A take-back cannot unsee"). Kept in the view cache as text, like
        the seat parts: no container for the young collections to walk."""
        if seat is None:
            return _NO_TAKE_BACK
        m = loaded.meta
        key = ("take-back", m.id, m.undos, m.version, m.seat_rev, loaded.last_event, seat)
        text: str | None = self._views.get(key)
        if text is None:
            text = dumps(self.master.take_back(loaded, seat, self._take_backs))
            self._views.put(key, text, len(text))
            while len(self._take_backs) > TAKE_BACKS_KEPT:
                self._take_backs.pop(next(iter(self._take_backs)))  # the oldest
        return JsonText(text)

    def _shared_view(self, loaded: Loaded, part: SeatPart, entries: tuple[LogEntry, ...],
                     log_since: int) -> dict[str, Any]:
        """The fields of a view every seat and spectator gets alike (``part``: any seat's
        part; whose turn it is and the result are public)."""
        m = loaded.meta
        base = self.settings.base_url
        picture = f"{base}/api/tables/{m.id}/picture.svg" if has_picture(m.game) else None
        names = [s.name for s in loaded.seats]
        started = m.started
        shown = [s.shown_name for s in loaded.seats]
        result = (part.result if part.result is not None or m.status != FINISHED
                  else table_result(loaded))
        return {
            "table": m.id, "game": m.game, "title": loaded.state.game.title,
            "players": m.players, "options": m.options, "version": m.version,
            "status": table_status(m),
            # A game lost on time is over, though its position was not played out.
            "current_player": TERMINAL if m.status == FINISHED else part.current_player,
            "seats": [seat_info(s) for s in loaded.seats],
            "log": [log_json(e, names) for e in entries],
            "log_since": log_since,
            "result": result, "picture": picture if started else None,
            "takeover_after": m.takeover_after, "listed": m.listed,
            "chat_spectators_read": m.chat_spectators_read, "rematch": m.rematch_id,
            "host_seat": m.host_seat, "names": shown,
            "waiting_for": [{"seat": s.seat, "name": s.shown_name}
                            for s in loaded.waiting_for],
            "summary": summary(result, shown) if m.status == FINISHED else None,
            "undo": undo_json(loaded), "undos": m.undos,
            **fairness(m), **terms(loaded),
            "clock_state": clock_state(loaded),
            "now": None if m.clock is None else time.time(),
        }

    # -- presence -------------------------------------------------------------------------
    async def seen(self, loaded: Loaded, seat: int | None, token: str | None) -> Loaded:
        """Note that the person of ``seat`` (holding ``token``) is here. The first time
        claims the seat (stored and broadcast at once, if the token still opens it; the
        last person to arrive starts the game); a person who was away is marked here (also
        at once); after that presence is kept in memory and stored in one statement per
        sweep. Returns the table as it is now."""
        if seat is None or token is None:
            return loaded
        key = (loaded.table_id, seat)
        self._present[key] = time.time()
        if loaded.seats[seat].claimed:
            if loaded.seats[seat].here:
                return loaded
            changed = await self.db(self.master.arrive, loaded.table_id, seat)
        else:
            changed = await self.db(self.master.touch, loaded.table_id, seat, token)
        if changed is None:
            return loaded
        await self.after_change(changed)  # a table that started may have a bot to move
        return changed

    # -- broadcasting ---------------------------------------------------------------------
    def add(self, conn: Connection) -> None:
        """Count ``conn`` in its table: spectators' sockets and seats' sockets each up to
        ``max_connections_per_table``, so that strangers holding every spectator slot
        (a table's id is public) never keep its players from their live view; and each
        seat's up to ``max_connections_per_seat``, so that one player (a stranger who took
        a listed table's free seat) never keeps the others from theirs."""
        conns = self.connections.setdefault(conn.table_id, set())
        spectator = conn.seat is None
        if not spectator:
            own = sum(1 for c in conns if c.seat == conn.seat)
            if own >= self.limits.max_connections_per_seat:
                raise errors.Unavailable(f"seat {conn.seat} of table {conn.table_id} has "
                                         f"{own} connections, its limit")
        alike = sum(1 for c in conns if (c.seat is None) == spectator)
        if alike >= self.limits.max_connections_per_table:
            whose = "spectators'" if spectator else "seats'"
            raise errors.Unavailable(
                f"table {conn.table_id} has {alike} {whose} connections, its limit")
        conns.add(conn)

    def remove(self, conn: Connection) -> None:
        conns = self.connections.get(conn.table_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.connections[conn.table_id]

    async def send(self, conn: Connection, loaded: Loaded, *, since: int | None = None,
                   first: bool = False) -> None:
        """Send ``conn`` its view if it has not seen this one (the log from where it was)."""
        async with conn.lock:
            m = loaded.meta
            # Never an older or the same view again (updates may arrive out of order).
            if not first and (m.undos, m.version, m.seat_rev) <= (
                    conn.sent_undos, conn.sent_version, conn.sent_rev):
                return
            if (conn.seat is not None and conn.token_hash is not None
                    and m.seat_rev != conn.sent_rev
                    and not opens_seat(loaded.seats[conn.seat], conn.token_hash)):
                # The seat changed hands (its invite was exchanged, or claimed by an
                # identity): not one more view of it for this token. Checked only when the
                # seats changed (every change of a seat's token moves seat_rev on).
                await self._lose_seat(conn)
                return
            log = loaded.log
            if not first and m.undos != conn.sent_undos:
                # Moves were taken back: the whole log again (the client replaces its own).
                first, since, conn.sent_ids = True, None, set()
            if first:
                text = self.view_text(loaded, conn.seat, since=since)
                conn.sent_ids.update(e.id for e in log)
            else:
                # Usually the log only grew at its end since the last message: compared in
                # C (the same entry objects) rather than entry by entry in Python, which at
                # a long game's few hundred entries cost as much as the view itself. A log
                # rebuilt from the database (events first) falls back to the ids.
                n = len(conn.sent_log)
                if log[:n] == conn.sent_log:
                    new = log[n:]
                else:
                    new = tuple(e for e in log if e.id not in conn.sent_ids)
                text = self.view_text(loaded, conn.seat, entries=new,
                                      log_since=conn.sent_version)
                conn.sent_ids.update(e.id for e in new)
            conn.sent_log = log
            conn.sent_version, conn.sent_rev, conn.sent_undos = m.version, m.seat_rev, m.undos
            await self.write(conn, '{"type":"view","view":' + text + "}")

    async def _lose_seat(self, conn: Connection) -> None:
        """Close a socket whose token no longer opens its seat: told why in a message, then
        closed with 4403 (as a socket refused at its start with 403); nothing more is sent
        to it (a page stops reconnecting with that token)."""
        conn.dropped = True
        self.remove(conn)
        problem = errors.Forbidden(
            f"that token no longer opens seat {conn.seat} at table {conn.table_id}: its "
            "invite link was opened elsewhere, or the seat changed hands").problem()
        with contextlib.suppress(Exception):  # gone already
            await conn.ws.send_text(dumps({"type": "error", "problem": problem}))
            await conn.ws.close(code=4403, reason="the token no longer opens this seat")

    async def write(self, conn: Connection, text: str) -> bool:
        """Send ``text`` to ``conn``; False if the socket was dropped (now or before: its
        client stopped reading, :meth:`deliver`). A send waits while the socket's buffers
        are full: sends that may meet a stuck client go through :meth:`deliver`."""
        if conn.dropped:
            return False
        try:
            await conn.ws.send_text(text)
        except Exception:
            if conn.dropped:  # closed meanwhile (the close went out when it drained)
                return False
            raise
        return True

    async def reply(self, conn: Connection, text: str) -> bool:
        """:meth:`write` in the connection's own handler (an answer to its message: pong,
        error), watched by :meth:`_drop_stuck` like :meth:`deliver`'s waits, but awaited
        here: a client that sends without reading stops being read, rather than piling up
        answers. False: the socket was dropped."""
        with self._watched(conn):
            return await self.write(conn, text)
        return False  # the watchdog cut the wait

    @contextlib.contextmanager
    def _watched(self, conn: Connection) -> Iterator[None]:
        """The current task's wait to send to ``conn``, noted for :meth:`_drop_stuck`; its
        cancellation by the watchdog ends the block quietly (the socket is dropped), any
        other cancellation goes on."""
        task = asyncio.current_task()
        assert task is not None
        self._sending[task] = (conn, time.monotonic())
        try:
            yield
        except asyncio.CancelledError:
            if task not in self._cut:
                raise
            self._cut.discard(task)
            if task.uncancel() != 0:  # somebody else cancelled the task too
                raise
        finally:
            self._sending.pop(task, None)

    def deliver(self, conn: Connection, sending: Coroutine[Any, Any, Any]) -> None:
        """Run ``sending`` (a send to ``conn``) now, as far as it goes without waiting:
        almost always to its end, as a plain ``await`` would. Should it have to wait (the
        socket's buffers full: a client that stopped reading; or the socket still busy
        with such a send), the rest goes on in a task of its own, watched by
        :meth:`_drop_stuck`: nobody else waits for that client, and a wait past
        ``Limits.ws_send_seconds`` drops its socket (removed from its table, closed 4408
        once it drains; its socket stays counted against its address until its
        connection ends). Where nothing waits this costs nothing: no task a socket
        (``asyncio.gather``: 6% of a move's CPU at 1,000 tables) and no timer a send."""
        try:
            waiting_on = sending.send(None)
        except StopIteration:
            return
        except Exception:  # a closed socket: its own handler removes it
            log.debug("send to a closed connection of %s", conn.table_id)
            return
        self._spawn(self._finish_sending(conn, sending, waiting_on))

    async def _finish_sending(self, conn: Connection, sending: Coroutine[Any, Any, Any],
                              waiting_on: Any) -> None:
        with self._watched(conn):
            try:
                await resume(sending, waiting_on)
            except Exception:  # a closed socket: its own handler removes it
                log.debug("send to a closed connection of %s", conn.table_id)

    def _drop_stuck(self, now: float) -> None:
        """Drop every socket whose send has waited ``ws_send_seconds`` by ``now``
        (monotonic): removed from its table, its waiting send cancelled, closed once it
        drains (:meth:`deliver`)."""
        late = now - self.limits.ws_send_seconds
        for task, (conn, since) in list(self._sending.items()):
            if since > late or task in self._cut:
                continue
            if not conn.dropped:
                log.info("dropped a socket of table %s: its client took nothing for %g s",
                         conn.table_id, self.limits.ws_send_seconds)
                conn.dropped = True
                self.remove(conn)
                self._spawn(self._close_dropped(conn))
            self._cut.add(task)
            task.cancel()

    async def _watching_sends(self) -> None:
        every = min(1.0, self.limits.ws_send_seconds / 4)
        while True:
            await asyncio.sleep(every)
            if self._sending:
                self._drop_stuck(time.monotonic())

    @staticmethod
    async def _close_dropped(conn: Connection) -> None:
        with contextlib.suppress(Exception):
            await conn.ws.close(code=4408, reason="the client took nothing for too long")

    async def publish(self, table_id: str, loaded: Loaded | None = None) -> None:
        """Push the table's new state to every connection of this worker: a socket whose
        client does not read holds up nobody (:meth:`deliver`)."""
        conns = list(self.connections.get(table_id, ()))
        if not conns:
            return
        if loaded is None:
            loaded = await self.db(self.master.load, table_id)
        for conn in conns:
            self.deliver(conn, self.send(conn, loaded))

    async def send_chat(self, table_id: str, loaded: Loaded | None = None) -> None:
        """Send every connection of the table on this worker the chat messages it has not
        had (``{"type": "chat", "message": …}`` each; spectators only where the host lets
        them read). Messages are read from the storage, so whichever worker stored one,
        every worker sends it once."""
        conns = list(self.connections.get(table_id, ()))
        if not conns:
            return
        if loaded is None:
            loaded = await self.db(self.master.load, table_id)
        after = min(c.sent_chat for c in conns)
        messages = await self.db(self.master.chat, table_id, after)
        readers = [conn for conn in conns
                   if conn.seat is not None or loaded.meta.chat_spectators_read]
        for conn in readers:  # as views are (publish): a stuck socket holds up nobody
            self.deliver(conn, self._chat_to(conn, loaded, messages))

    async def _chat_to(self, conn: Connection, loaded: Loaded,
                       messages: list[ChatRecord]) -> None:
        async with conn.lock:
            for msg in messages:
                if msg.id <= conn.sent_chat:
                    continue
                # A closed socket raises: deliver logs it (its own handler removes it).
                if not await self.write(conn, dumps(
                        {"type": "chat", "message": chat_json(loaded, msg)})):
                    break
                conn.sent_chat = msg.id

    async def after_change(self, loaded: Loaded) -> None:
        """Broadcast a table that changed here, and let a bot move if it is a bot's turn."""
        await self.publish(loaded.table_id, loaded)
        self.kick(loaded)

    # -- bots -----------------------------------------------------------------------------
    def kick(self, loaded: Loaded) -> None:
        """Start the bot of the seat to move, if a bot is to move and none thinks yet."""
        if loaded.bot_turn() is None or loaded.table_id in self._thinking:
            return
        self._thinking.add(loaded.table_id)
        self._spawn(self._bot_move(loaded))

    async def _bot_move(self, loaded: Loaded) -> None:
        table_id = loaded.table_id
        try:
            while True:
                turn = loaded.bot_turn()
                if turn is None:
                    return
                seat, level = turn
                if self.settings.bot_delay_seconds:
                    await asyncio.sleep(self.settings.bot_delay_seconds)
                seed = bot_seed(loaded.meta.seed, seat, loaded.version)
                limit = move_limit(level, loaded.meta.bot_seconds,
                                   self.settings.bot_move_seconds)
                # The limit runs from the ask: a move that queues behind others thinks
                # only what is left of it (at least a floor), so a busy pool catches up.
                deadline = time.time() + limit
                data = await in_thread(bot_input, loaded.state, seat, seed)
                action = await self.bots.run(table_id, think, data, level, seat, seed, limit,
                                             deadline, owner=loaded.meta.creator)
                try:
                    loaded = await self.db(self.master.play, table_id, seat,
                                           loaded.version, {"action": action}, level,
                                           later=True)
                except errors.IllegalMove as e:
                    # The bot's view disagreed with the table (a bug): a random legal move
                    # keeps the game going.
                    log.error("bot %s at %s played an illegal move: %s", level, table_id, e)
                    fallback = make_bot("random", loaded.state.game, seat, seed)
                    choice = {"action": fallback.act(loaded.state).to_json()}
                    loaded = await self.db(self.master.play, table_id, seat,
                                           loaded.version, choice, level)
                await self.publish(table_id, loaded)
        except errors.Problem:
            # Someone else moved first (a player reclaimed the seat, another worker's bot):
            # whoever changed the table takes it from there.
            pass
        except asyncio.CancelledError:
            raise
        except Exception:  # logged; the sweeper tries this table's bot again later
            log.exception("bot at table %s failed", table_id)
        finally:
            self._thinking.discard(table_id)

    # -- periodic work --------------------------------------------------------------------
    async def _still_there(self, table_id: str) -> Loaded | None:
        """The table as stored now; None when another worker's sweep deleted it meanwhile
        (ended past its retention: an expired table's last change is its last move, so one
        worker may expire a table the other deletes in the same round). Its load failed
        the whole round: the tables after it were never announced."""
        try:
            loaded: Loaded = await self.db(self.master.load, table_id)
        except errors.NotFound:
            return None
        return loaded

    async def _sweeper(self) -> None:
        while True:
            try:
                # Bot turns nobody took (after a restart): only those (an index finds them).
                for table_id in await self.db(self.master.tables_waiting_for_bots):
                    loaded = self.master.cached(table_id) or await self._still_there(table_id)
                    if loaded is not None:
                        self.kick(loaded)
                await self._heartbeat()  # first, so present people are not taken over
                for table_id in await self.db(self.master.sweep):
                    loaded = await self._still_there(table_id)
                    if loaded is not None:
                        await self.after_change(loaded)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sweep failed; trying again")
            await asyncio.sleep(self.settings.sweep_seconds)

    async def _collecting(self, collector: Collector) -> None:
        while True:
            await asyncio.sleep(collector.freeze_seconds)
            collector.tick()

    async def _heartbeat(self) -> None:
        """Store when each present person was last here (requests since the last sweep, and
        every seat with an open WebSocket), in one statement: at tables where a bot may
        take an absent person's seat at every sweep, elsewhere (for the here / away every
        view shows) at most every third of ``Settings.presence_seconds`` per seat (a
        thousand tables would otherwise write two thousand seats every sweep). A seat
        marked away while its WebSocket is open here is marked here again."""
        now = time.time()
        fresh = now - self.settings.presence_seconds / 3
        stored = self._stored_seen
        requests, self._present = self._present, {}
        due: dict[tuple[str, int], float] = {}
        arrived: set[tuple[str, int]] = set()
        seats = 0
        # One pass over the connections, the table looked up once (not once per seat): at
        # a few thousand connections this loop is the sweep's cost on the event loop.
        for table_id, conns in self.connections.items():
            known = self.master.cached(table_id)
            every_sweep = _takes_over(known)
            for c in conns:
                seat = c.seat
                if seat is None:
                    continue
                seats += 1
                key = (table_id, seat)
                if every_sweep or stored.get(key, 0.0) < fresh:
                    due[key] = now
                if known is not None and not known.seats[seat].here:
                    arrived.add(key)
        for key, at in requests.items():  # seen in requests since the last sweep
            if key not in due and (self._takeover(key[0]) or stored.get(key, 0.0) < fresh):
                due[key] = at
        stored.update(due)
        # Forget sightings of people gone (compared with everyone present, not only those
        # due now: else it would rebuild the map at every sweep where few are due).
        if len(stored) > 2 * (seats + len(requests)) + 1024:
            self._stored_seen = {k: at for k, at in stored.items() if at >= fresh}
        if due:
            await self.db(self.master.mark_present, due)
        for table_id, seat in arrived:  # seen away (another worker's sweep), yet connected
            changed = await self.db(self.master.arrive, table_id, seat)
            if changed is not None:
                await self.publish(table_id, changed)

    def _takeover(self, table_id: str) -> bool:
        """Whether the table lets a bot take over absent seats (unknown here: assume so)."""
        return _takes_over(self.master.cached(table_id))

    # -- other workers (PostgreSQL) -------------------------------------------------------
    def _heard(self, payload: str) -> None:
        loop = self.loop
        note = parse_note(payload)
        table_id = note.table_id
        if loop is None or table_id not in self.connections:
            return
        if note.chat:
            work = self.send_chat(table_id)
        else:
            # A table held here exactly as the change left its row (this worker made the
            # change, or read it already) is sent as it is, without reading it again; any
            # other is brought up to date from the storage (only what it lacks, see
            # TableMaster.load). Only views are sent: every action is checked again in the
            # transaction that stores it.
            have = self.master.cached(table_id)
            same = have is not None and note.row == (
                have.version, have.meta.seat_rev, have.meta.undos, have.meta.status)
            work = self.publish(table_id, have if same else None)
        asyncio.run_coroutine_threadsafe(work, loop)


def _takes_over(known: Loaded | None) -> bool:
    """Whether a bot may take over the table's absent seats (not known here: assume so)."""
    return known is None or known.meta.takeover_after is not None


def log_after(loaded: Loaded, since: int | None) -> tuple[LogEntry, ...]:
    """The table's public log: all of it, or the entries after version ``since`` (events
    at ``since`` too: they happened after that move)."""
    if since is None:
        return loaded.log
    return tuple(e for e in loaded.log
                 if e.version > since or (e.kind != "move" and e.version == since))


def chat_json(loaded: Loaded, msg: ChatRecord) -> dict[str, Any]:
    """A chat message as clients get it: the writer's seat and name (plain text)."""
    return {"id": msg.id, "seat": msg.seat, "name": loaded.seats[msg.seat].name,
            "text": msg.text, "at": msg.created_at}
def fairness(m: Meta) -> dict[str, Any]:
    """What a view tells of the seed: its commitment always, whether the creator chose it,
    and the seed itself only once the game is over (an expired game never ends: its seed
    stays secret, as the hands it would reveal were never played out)."""
    return {"seed_commitment": m.seed_commitment, "seed_chosen_by_creator": m.seed_chosen,
            "seed": m.seed if m.status == FINISHED else None}


def current_player(loaded: Loaded) -> int:
    """The seat to move; ``TERMINAL`` once the game is over (also a game lost on time,
    whose position was not played out)."""
    return TERMINAL if loaded.meta.status == FINISHED else loaded.state.current_player()


def clock_spec(m: Meta) -> dict[str, Any] | None:
    """A table's time control as views and listings show it (None: none)."""
    return None if m.clock is None else {**m.clock, "on_timeout": m.on_timeout}


def terms(loaded: Loaded) -> dict[str, Any]:
    """What every view and listing says of the table's terms: rated, its clock."""
    return {"rated": rated_now(loaded), "clock": clock_spec(loaded.meta)}


def clock_state(loaded: Loaded) -> dict[str, Any] | None:
    """The clocks as of now (docs/server.md, Clocks; None: no clock)."""
    m = loaded.meta
    spec = clock_spec(m)
    if spec is None:
        return None
    return {**spec,
            "running": None if m.turn_started is None else loaded.state.current_player(),
            "turn_started": m.turn_started, "deadline": m.clock_deadline,
            "left": [s.clock_left for s in loaded.seats],
            "timed_out": timed_out_seats(loaded)}


def table_status(m: Meta) -> str:
    """A table's status as clients see it: ``waiting`` (for people to arrive), ``playing``,
    ``finished`` or ``expired``."""
    return "waiting" if m.status == PLAYING and not m.started else m.status


def seat_info(s: Seat) -> dict[str, Any]:
    return {"seat": s.seat, "kind": s.kind, "level": s.level, "claimed": s.claimed,
            "bot_playing": s.bot_playing, "name": s.name, "label": s.label,
            "invite": s.invite,
            "presence": None if s.kind == BOT else ("here" if s.here else "away")}


def undo_json(loaded: Loaded) -> dict[str, Any] | None:
    """The take-back asked for now: who asked, back to which version, who accepted and
    whose answer is awaited (None: none)."""
    u = loaded.meta.pending_undo
    if u is None:
        return None
    seat = u["seat"]
    asked = [s.seat for s in loaded.seats if s.seat != seat and s.kind == "human"
             and s.bot_playing is None]
    return {"seat": seat, "name": loaded.seats[seat].shown_name, "to_version": u["to"],
            "accepted": list(u["accepted"]),
            "waiting_for": [k for k in asked if k not in u["accepted"]]}


def log_json(e: LogEntry, names: list[str | None]) -> dict[str, Any]:
    """A log line as clients get it: the seats that have a person's name called by it."""
    out = e.to_json()
    if any(names):
        out["text"] = named(e.text, names)
    return out
