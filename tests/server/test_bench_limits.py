"""bench/bench_limits.py on a tiny load: the views it times come from the cache the second
time (the same text), and a create + join runs through both apps, the shared buckets' and
the in-memory reference's, which refuses past its burst as the shared one does."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from bench import bench_limits

from bigtop.server import errors


def test_views_are_timed_made_and_taken_again() -> None:
    figures = bench_limits.time_views(moves=4)
    assert set(figures) == {"miss", "hit", "reference"}
    assert all(v > 0 for v in figures.values())
    assert 1.0 < bench_limits.part_weight(moves=4) < 10.0


def test_create_and_join_through_shared_and_memory_buckets(tmp_path: Path) -> None:
    urls = (f"sqlite:///{tmp_path / 'shared.sqlite3'}", f"sqlite:///{tmp_path / 'memory.sqlite3'}")
    shared, memory = bench_limits.create_and_join(urls, n=2)
    assert len(shared) == len(memory) == 2
    reference = bench_limits.MemoryBuckets(rate=0.001, burst=1)
    asyncio.run(reference.check("k", "one at once"))
    with pytest.raises(errors.TooManyRequests, match="one at once"):
        asyncio.run(reference.check("k", "one at once"))
