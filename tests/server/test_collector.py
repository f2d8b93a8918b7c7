"""The worker's garbage collection (server/collector.py): survivors are frozen, so the
automatic collections only look at new objects, and the periodic full collection still
frees cyclic garbage that had been frozen."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from bigtop.server.collector import NEVER, Collector


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only a collection frees it


@pytest.fixture
def clock() -> Iterator[list[float]]:
    yield [0.0]
    gc.unfreeze()


def test_a_young_tick_freezes_what_survives(clock: list[float]) -> None:
    c = Collector(freeze_seconds=1.0, full_seconds=60.0, clock=lambda: clock[0])
    c.start()
    kept = [Node() for _ in range(1000)]
    before = gc.get_freeze_count()
    clock[0] = 1.0
    assert c.tick() == "young"
    assert gc.get_freeze_count() >= before + len(kept)
    assert all(gc.is_tracked(n) for n in kept)


def test_frozen_cyclic_garbage_waits_for_the_full_collection(clock: list[float]) -> None:
    c = Collector(freeze_seconds=1.0, full_seconds=60.0, clock=lambda: clock[0])
    c.start()
    node = Node()
    alive = weakref.ref(node)
    clock[0] = 1.0
    c.tick()  # node is alive now: frozen
    del node  # garbage now, but only in a cycle
    for t in range(2, 60):
        clock[0] = float(t)
        assert c.tick() == "young"
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
    assert gc.get_threshold()[2] == NEVER  # b still runs
    b.stop()
    b.stop()  # twice: nothing more
    assert gc.get_threshold() == before


def test_python_starts_no_full_collection_of_its_own(clock: list[float]) -> None:
    """Between ticks a busy worker keeps many new objects; Python's collector would walk
    them in full collections of its own (server/collector.py), the pauses the collector
    exists to avoid."""
    full: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    c = Collector(freeze_seconds=1.0, full_seconds=60.0, clock=lambda: clock[0])
    c.start()
    # Python's test, at an automatic collection: more than ten middle collections since
    # the last tick (a freeze sets that count back), and the objects promoted since its last
    # full collection more than a quarter of what that one kept (start()'s: everything).
    young, middle, _ = gc.get_threshold()
    each = max(2 * young * middle * 11, gc.get_freeze_count() // 3)
    gc.callbacks.append(seen)
    try:
        kept = []
        for t in range(1, 4):  # three seconds of a worker that keeps much of what it makes
            kept.extend([[i] for i in range(each)])
            clock[0] = float(t)
            assert c.tick() == "young"
    finally:
        gc.callbacks.remove(seen)
        c.stop()
    assert not full


@pytest.mark.parametrize("freeze, full", [(0, 60), (1, 0), (-1, 60)])
def test_periods_must_be_positive(freeze: float, full: float) -> None:
    with pytest.raises(ValueError, match="positive"):
        Collector(freeze_seconds=freeze, full_seconds=full)
