"""bench/bench_presence.py on two tables: each operation it times does what it says (the
people are here after a round, as the sweep found them away and they came back; the other
worker's update shows the new version), and every figure is there."""

from __future__ import annotations

from bench.bench_presence import SEATS, one_round, setup


def test_one_round_times_each_operation(sqlite_url: str) -> None:
    b = setup(sqlite_url, tables=2)
    versions = [b.master.load(t).version for t, _ in b.tables]
    figures = one_round(b)
    assert set(figures) == {"a move", "update after a move", "heartbeat, per seat",
                            "away, per seat", "back, per seat",
                            "update after a presence change"}
    assert all(us > 0 for us in figures.values())
    for (table_id, _), version in zip(b.tables, versions, strict=True):
        seen = b.other.master.load(table_id)  # the other worker is up to date
        assert seen.version == version + 1
        assert [s.here for s in seen.seats] == [True] * SEATS
    assert b.master.storage.mark_gone(1e12, 100) == [t for t, _ in b.tables]
