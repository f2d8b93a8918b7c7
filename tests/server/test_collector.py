"""The worker's garbage collection (server/collector.py): what is alive is frozen every
tick, Python's automatic collections are off, and the full collection (periodic, or once
the heap grew) frees cyclic garbage that had been frozen."""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Iterator

import pytest

from bigtop.server.collector import OFF, Collector


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only a collection frees it


@pytest.fixture
def clock() -> Iterator[list[float]]:
    yield [0.0]
    gc.unfreeze()


def steady() -> int:
    """A heap that never grows (the tests of the periods)."""
    return 0


def test_a_tick_freezes_what_is_alive(clock: list[float]) -> None:
    c = Collector(freeze_seconds=1.0, full_seconds=60.0, clock=lambda: clock[0], heap=steady)
    c.start()
    kept = [Node() for _ in range(1000)]
    before = gc.get_freeze_count()
    clock[0] = 1.0
    assert c.tick() == "freeze"
    assert gc.get_freeze_count() >= before + len(kept)
    assert all(gc.is_tracked(n) for n in kept)


def test_frozen_cyclic_garbage_waits_for_the_full_collection(clock: list[float]) -> None:
    c = Collector(freeze_seconds=1.0, full_seconds=60.0, clock=lambda: clock[0], heap=steady)
    c.start()
    node = Node()
    alive = weakref.ref(node)
    clock[0] = 1.0
    c.tick()  # node is alive now: frozen
    del node  # garbage now, but only in a cycle
    for t in range(2, 60):
        clock[0] = float(t)
        assert c.tick() == "freeze"
        gc.collect(2)  # not even an explicit collection looks at frozen objects
    assert alive() is not None
    clock[0] = 60.0
    assert c.tick() == "full"
    assert alive() is None
    assert c.full_collections == 2  # start() and this one


def test_objects_not_in_a_cycle_are_freed_at_once_while_frozen(clock: list[float]) -> None:
    c = Collector(freeze_seconds=1.0, full_seconds=60.0, clock=lambda: clock[0])
    c.start()
    holder = type("Holder", (), {})()
    ref = weakref.ref(holder)
    clock[0] = 1.0
    c.tick()
    del holder  # frozen, but reference counting frees it
    assert ref() is None


def test_stop_gives_everything_back() -> None:
    before = gc.get_threshold()
    c = Collector(freeze_seconds=1.0, full_seconds=60.0)
    c.start()
    assert gc.get_freeze_count() > 0
    c.stop()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


def test_two_collectors_give_the_thresholds_back_once_both_stopped() -> None:
    before = gc.get_threshold()
    a, b = Collector(1.0, 60.0), Collector(1.0, 60.0)
    a.start()
    b.start()
    a.stop()
    assert gc.get_threshold()[0] == OFF  # b still runs
    b.stop()
    b.stop()  # twice: nothing more
    assert gc.get_threshold() == before


def test_python_starts_no_collection_of_its_own(clock: list[float]) -> None:
    """Between ticks a busy worker keeps many new objects; Python's young, middle and full
    collections would walk them (server/collector.py): the pauses and the CPU the collector
    exists to avoid."""
    started: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    young, middle, _ = gc.get_threshold()  # as Python had them before the collector
    c = Collector(freeze_seconds=1.0, full_seconds=60.0, clock=lambda: clock[0], heap=steady)
    c.start()
    # Enough new objects a second for Python's own thresholds to start young, middle and
    # full collections (more than ten middle ones, and over a quarter of what start() kept).
    each = max(2 * young * middle * 11, gc.get_freeze_count() // 3)
    gc.callbacks.append(seen)
    try:
        kept = []
        for t in range(1, 4):  # three seconds of a worker that keeps much of what it makes
            kept.extend([[i] for i in range(each)])
            clock[0] = float(t)
            assert c.tick() == "freeze"
    finally:
        gc.callbacks.remove(seen)
        c.stop()
    assert not started


def test_a_grown_heap_brings_the_full_collection_forward(clock: list[float]) -> None:
    heap = [1000]
    c = Collector(freeze_seconds=1.0, full_seconds=60.0, full_growth=0.25,
                  clock=lambda: clock[0], heap=lambda: heap[0])
    c.start()
    clock[0] = 1.0
    heap[0] = 1250  # a quarter more: not past it
    assert c.tick() == "freeze"
    heap[0] = 1251
    assert c.tick() == "full"
    heap[0] = 1500  # measured from what the full collection left
    clock[0] = 2.0
    assert c.tick() == "freeze"
    c.stop()


def test_cyclic_garbage_made_fast_is_freed_before_the_period_ends(
        clock: list[float]) -> None:
    """The real heap (pymalloc's blocks): garbage in cycles, frozen at a tick, is the growth
    that brings the full collection forward."""
    c = Collector(freeze_seconds=1.0, full_seconds=600.0, full_growth=0.01,
                  clock=lambda: clock[0])
    c.start()
    garbage = [Node() for _ in range(max(1000, sys.getallocatedblocks() // 20))]
    first = weakref.ref(garbage[0])
    del garbage  # each node is still in its own cycle
    assert first() is not None
    clock[0] = 1.0
    assert c.tick() == "full"
    assert first() is None
    c.stop()


@pytest.mark.parametrize("freeze, full, growth", [(0, 60, 0.25), (1, 0, 0.25), (-1, 60, 0.25),
                                                 (1, 60, 0)])
def test_periods_and_growth_must_be_positive(freeze: float, full: float, growth: float) -> None:
    with pytest.raises(ValueError, match="positive"):
        Collector(freeze_seconds=freeze, full_seconds=full, full_growth=growth)


def test_by_default_the_heap_may_double(clock: list[float]) -> None:
    heap = [1000]
    c = Collector(freeze_seconds=1.0, full_seconds=60.0, clock=lambda: clock[0],
                  heap=lambda: heap[0])
    c.start()
    clock[0] = 1.0
    heap[0] = 2000
    assert c.tick() == "freeze"
    heap[0] = 2001
    assert c.tick() == "full"
    c.stop()
