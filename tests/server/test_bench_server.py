"""bench/bench_server.py's Python side, without a server or Node: the report's arithmetic
(medians of the rounds, ratios bigtop ÷ boardgame.io, the Markdown rows), the order of the
sides in turn, and the simulated people's pacing (only a table's first move is shortened,
so a table offers one move per think time)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from bench import bench_server
from bench.bench_server import FIGURES, SIDES, Clock, Mover, Table, medians, ratios, report


def test_medians_of_the_rounds_skip_missing_figures() -> None:
    rows = [{"moves_per_s": 10.0, "p50_ms": 2.0, "p99_ms": 9.0, "server_cpu_ms_per_move": 1.0},
            {"moves_per_s": 9.0, "p50_ms": 4.0, "p99_ms": None, "server_cpu_ms_per_move": 3.0},
            {"moves_per_s": 11.0, "p50_ms": 3.0, "p99_ms": 5.0, "server_cpu_ms_per_move": 2.0}]
    assert medians(rows) == {"moves_per_s": 10.0, "p50_ms": 3.0, "p99_ms": 7.0,
                             "server_cpu_ms_per_move": 2.0}
    assert medians([]) == dict.fromkeys(FIGURES)


def test_ratios_are_bigtop_over_the_other_side() -> None:
    ours = {"moves_per_s": 990.0, "p50_ms": 11.0, "p99_ms": 30.0, "server_cpu_ms_per_move": 0.6}
    theirs = {"moves_per_s": 660.0, "p50_ms": 440.0, "p99_ms": 0.0,
              "server_cpu_ms_per_move": None}
    assert ratios(ours, theirs) == {"moves_per_s": 1.5, "p50_ms": 0.03, "p99_ms": None,
                                    "server_cpu_ms_per_move": None}


def test_report_has_each_side_and_a_ratio_row_per_boardgameio_server() -> None:
    figures = {"bigtop": {"moves_per_s": 100.0, "p50_ms": 2.0, "p99_ms": 8.0,
                          "server_cpu_ms_per_move": 1.0},
               "boardgame.io in memory": {"moves_per_s": 100.0, "p50_ms": 4.0, "p99_ms": 16.0,
                                          "server_cpu_ms_per_move": 2.0},
               "boardgame.io FlatFile": {"moves_per_s": 50.0, "p50_ms": 1.0, "p99_ms": None,
                                         "server_cpu_ms_per_move": 4.0}}
    lines = report("100 tables, think 1 s", figures).splitlines()
    assert lines[0].startswith("| 100 tables, think 1 s | moves/s served |")
    assert lines[2:] == [
        "| bigtop | 100 | 2 | 8 | 1 |",
        "| boardgame.io in memory | 100 | 4 | 16 | 2 |",
        "| boardgame.io FlatFile | 50 | 1 | – | 4 |",
        "| bigtop ÷ boardgame.io in memory | 1 | 0.5 | 0.5 | 0.5 |",
        "| bigtop ÷ boardgame.io FlatFile | 2 | 2 | – | 0.25 |",
    ]


def test_each_side_leads_one_round_in_three() -> None:
    orders = [bench_server.in_turn(r) for r in range(3)]
    assert {o[0] for o in orders} == set(SIDES)
    assert all(sorted(o) == sorted(SIDES) for o in orders)


class FakeTable:
    """A table served in memory: ``order`` says whose move each version is (SCOUT's first
    turns: the hand's way up, then a show, by the same person)."""

    def __init__(self, order: list[int]) -> None:
        self.order = order
        self.version = 0
        self.inbox: list[asyncio.Queue[str]] = [asyncio.Queue(), asyncio.Queue()]

    def view(self, seat: int) -> str:
        playing = self.version < len(self.order)
        to_move = playing and self.order[self.version] == seat
        return json.dumps({"type": "view", "view": {
            "version": self.version, "status": "playing" if playing else "finished",
            "legal_actions": [{"index": 0}] if to_move else []}})

    def publish(self) -> None:
        for seat in (0, 1):
            self.inbox[seat].put_nowait(self.view(seat))


class FakeSocket:
    def __init__(self, table: FakeTable, seat: int) -> None:
        self.table, self.seat = table, seat

    async def recv(self) -> str:
        return await self.table.inbox[self.seat].get()

    async def send(self, text: str) -> None:
        move = json.loads(text)
        assert move["version"] == self.table.version
        assert self.table.order[self.table.version] == self.seat
        self.table.version += 1
        self.table.publish()


def test_only_a_tables_first_move_is_shortened(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second person's first move used to be shortened too: a short turn inside the
    counted time, which made the benchmark serve more than N/think."""
    pauses: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        await real_sleep(0)

    async def play() -> Table:
        table = Table("t", ["a", "b"])
        fake = FakeTable([0, 0, 1, 1, 0, 1, 0, 1])

        @contextlib.asynccontextmanager
        async def open_socket(_base: str, _table: Table, seat: int) -> AsyncIterator[Any]:
            fake.inbox[seat].put_nowait(fake.view(seat))
            yield FakeSocket(fake, seat)

        monkeypatch.setattr(bench_server, "open_socket", open_socket)
        monkeypatch.setattr(bench_server.asyncio, "sleep", sleep)
        monkeypatch.setattr(bench_server.random, "random", lambda: 0.25)
        clock = Clock(2, seconds=60.0, warmup=0.0, cpu=lambda: (0.0, 0.0))
        await asyncio.gather(*(bench_server.client(table, seat, "http://x", Mover(None), clock,
                                                   lambda: 1.0) for seat in (0, 1)))
        assert fake.version == len(fake.order)
        return table

    table = asyncio.run(play())
    assert table.finished and table.errors == 0
    assert len(pauses) == 8
    assert pauses[0] == pytest.approx(0.25)
    assert pauses[1:] == pytest.approx([1.0] * 7)
