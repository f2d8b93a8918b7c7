"""Garbage collection for a server that answers a move in milliseconds.

CPython's full (generation 2) collection examines every tracked object while holding the
GIL, and nothing else in the process runs meanwhile. A worker with 1,000 live tables holds
about a million such objects (positions and their move histories, cached views, two
sockets per table), so one full collection takes about 0.3 s; under load one started every
few seconds (it starts once the objects promoted since the last one reach a quarter of the
heap). Measured with `bench/bench_server.py --tables 1000 --think 2 --think-max 10`: p50
1.7 ms, p99 75–370 ms, and the slow moves were the ones waiting for a full collection.

:class:`Collector` freezes what survives (:func:`gc.freeze`): frozen objects are left out
of every later collection, but reference counting still frees each one the moment nothing
uses it, which is how a table's old position or a closed socket's objects go. Every
``freeze_seconds`` it runs a young collection (cheap: only objects made since) and freezes
the survivors, so the automatic collections only ever look at recent objects. What
reference counting cannot free, cyclic garbage that had already been frozen, waits for a
full collection, which runs every ``full_seconds`` (unfreeze, collect, freeze): one long
pause every ten minutes by default instead of one every few seconds, and a bound on what
can pile up.

While it runs, Python's own full collections are off (the third threshold raised past
reach): they still came, though everything older than a second is frozen. CPython starts
one when more than ten middle collections came since the last one (or the last freeze)
and the objects promoted since its last full collection pass a quarter of what that
collection kept (a freeze resets the first count, not the second). A busy worker passes
both: at 1,000 tables, 12 came in 20 s, each walking the survivors of the last second for
35–150 ms (`bench/bench_server.py --tables 1000`: p99 72, 74 and 221 ms with them against
59, 45 and 67 ms without, in turn; docs/benchmarks.md). What they would have found,
cyclic garbage younger than a second that outlived two young collections, waits for the
full collection like the frozen kind: about ten objects in 15 s of steady play at 1,000
tables.

>>> import gc
>>> clock = [0.0]
>>> c = Collector(freeze_seconds=1.0, full_seconds=60.0, clock=lambda: clock[0])
>>> c.start()
>>> gc.get_freeze_count() > 0
True
>>> clock[0] = 1.0; c.tick()
'young'
>>> clock[0] = 61.0; c.tick()
'full'
>>> c.stop()
>>> gc.get_freeze_count()
0
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Literal

NEVER = 2**31 - 1
"""The third threshold while a :class:`Collector` runs: young collections between two full
ones that Python's collector would wait for before its own full collection (never)."""

_running: list[Collector] = []
"""The started collectors of this process (the thresholds are the process's: the first to
start sets them, the last to stop gives them back)."""
_thresholds: list[tuple[int, int, int]] = []


class Collector:
    """Young collections and freezing every ``freeze_seconds``; a full collection every
    ``full_seconds``. :meth:`tick` is called by the worker's event loop."""

    def __init__(self, freeze_seconds: float, full_seconds: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if freeze_seconds <= 0 or full_seconds <= 0:
            raise ValueError("freeze_seconds and full_seconds must be positive")
        self.freeze_seconds = freeze_seconds
        self.full_seconds = full_seconds
        self._clock = clock
        self._last_full = clock()
        self.full_collections = 0

    def start(self) -> None:
        """Collect everything once (the imports and start-up leave garbage) and freeze;
        from now on only :meth:`full` walks every object."""
        if not _running:
            young, middle, full = gc.get_threshold()
            _thresholds[:] = [(young, middle, full)]
            gc.set_threshold(young, middle, NEVER)
        _running.append(self)
        self.full()

    def tick(self) -> Literal["young", "full"]:
        """One period's work: a full collection when one is due, else a young one."""
        if self._clock() - self._last_full >= self.full_seconds:
            self.full()
            return "full"
        gc.collect(1)  # generations 0 and 1: what is garbage among the newest objects
        gc.freeze()
        return "young"

    def full(self) -> None:
        """Look at every object once: frees cyclic garbage that had been frozen."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._last_full = self._clock()
        self.full_collections += 1

    def stop(self) -> None:
        """Give the frozen objects back to the ordinary collector, as it was."""
        gc.unfreeze()
        if self in _running:
            _running.remove(self)
            if not _running:
                gc.set_threshold(*_thresholds.pop())
