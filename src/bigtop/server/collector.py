"""Garbage collection for a server that answers a move in milliseconds.

CPython's full (generation 2) collection examines every tracked object while holding the
GIL, and nothing else in the process runs meanwhile. A worker with 1,000 live tables holds
about a million such objects (positions and their move histories, cached views, two
sockets per table), so one full collection takes about 0.3 s; under load one started every
few seconds (it starts once the objects promoted since the last one reach a quarter of the
heap). Measured with `bench/bench_server.py --tables 1000 --think 2 --think-max 10`: p50
1.7 ms, p99 75–370 ms, and the slow moves were the ones waiting for a full collection.

:class:`Collector` freezes what is alive (:func:`gc.freeze`): frozen objects are left out
of every later collection, but reference counting still frees each one the moment nothing
uses it, which is how a table's old position or a closed socket's objects go. While it runs
Python's automatic collections are off (the first threshold 0), and every
``freeze_seconds`` it freezes the objects made since, without looking at them: a freeze
moves lists, it walks no object. Only a full collection (unfreeze, collect, freeze) looks
for cyclic garbage, the one kind reference counting cannot free. It runs every
``full_seconds``, or sooner once the heap grew by ``full_growth`` (a share of what it held
after the last full collection, in pymalloc's blocks: :func:`sys.getallocatedblocks`, a
count kept as blocks come and go), so cyclic garbage made fast (errors' tracebacks, say)
cannot pile up for ten minutes. The default share is 1, Go's default (``GOGC=100``: the
heap may double between collections), not CPython's quarter: a busy worker's heap grows
with its tables' histories and caches, each full collection stops it for 0.3–0.8 s at
1,000 tables, and with a quarter one came about every half minute of steady play.

Why no young collections: a worker makes almost no cyclic garbage. At 1,000 tables × one
move a second, what a second of play left alive was about 68,000 tracked objects (the new
positions, log entries, views, frames in flight), and of those about 50 were cyclic
garbage (a sweep's closures, a query's parameters); yet walking them cost the worker
1.5–2.4 s of CPU in about 55 s (young collections up to 37 ms, middle ones up to 74 ms;
Python's own full collections were turned off in an earlier round), or 1.6 s when only the
second's collection before each freeze ran, up to 381 ms at once. Freezing alone: server CPU a move
0.61–0.69 against 0.74–0.86 ms, p99 60–105 against 116–192 ms (docs/benchmarks.md,
"Freezing without young collections").

>>> import gc
>>> clock = [0.0]
>>> c = Collector(freeze_seconds=1.0, full_seconds=60.0, clock=lambda: clock[0])
>>> c.start()
>>> gc.get_freeze_count() > 0, gc.get_threshold()[0]
(True, 0)
>>> clock[0] = 1.0; c.tick()
'freeze'
>>> clock[0] = 61.0; c.tick()
'full'
>>> c.stop()
>>> gc.get_freeze_count()
0
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from typing import Literal

OFF = 0
"""The first threshold while a :class:`Collector` runs: Python's automatic collections off."""

_running: list[Collector] = []
"""The started collectors of this process (the thresholds are the process's: the first to
start sets them, the last to stop gives them back)."""
_thresholds: list[tuple[int, int, int]] = []


class Collector:
    """A freeze every ``freeze_seconds``; a full collection every ``full_seconds``, or at
    the first freeze after the heap grew by ``full_growth`` since the last one.
    :meth:`tick` is called by the worker's event loop."""

    def __init__(self, freeze_seconds: float, full_seconds: float, full_growth: float = 1.0,
                 clock: Callable[[], float] = time.monotonic,
                 heap: Callable[[], int] = sys.getallocatedblocks) -> None:
        if freeze_seconds <= 0 or full_seconds <= 0 or full_growth <= 0:
            raise ValueError("freeze_seconds, full_seconds and full_growth must be positive")
        self.freeze_seconds = freeze_seconds
        self.full_seconds = full_seconds
        self.full_growth = full_growth
        self._clock = clock
        self._heap = heap
        self._last_full = clock()
        self._heap_limit = 0
        self.full_collections = 0

    def start(self) -> None:
        """Collect everything once (the imports and start-up leave garbage), freeze, and
        turn Python's automatic collections off."""
        if not _running:
            _thresholds[:] = [gc.get_threshold()]
            gc.set_threshold(OFF)  # the first threshold; the others stay as they were
        _running.append(self)
        self.full()

    def tick(self) -> Literal["freeze", "full"]:
        """One period's work: a full collection when one is due, else a freeze."""
        if self._clock() - self._last_full >= self.full_seconds or self._heap() > self._heap_limit:
            self.full()
            return "full"
        gc.freeze()
        return "freeze"

    def full(self) -> None:
        """Look at every object once: frees the cyclic garbage made since the last one."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._last_full = self._clock()
        self._heap_limit = int(self._heap() * (1 + self.full_growth))
        self.full_collections += 1

    def stop(self) -> None:
        """Give the frozen objects back to the ordinary collector, as it was."""
        gc.unfreeze()
        if self in _running:
            _running.remove(self)
            if not _running:
                gc.set_threshold(*_thresholds.pop())
