"""bench/bench_server.py's Python side, without a server or Node: the report's arithmetic
(medians of the rounds, ratios bigtop ÷ boardgame.io, the Markdown rows), the order of the
sides in turn, and the simulated people's pacing (only a table's first move is shortened,
so a table offers one move per think time)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from bench import bench_server
from bench.bench_server import FIGURES, SIDES, Clock, Mover, Table, medians, ratios, report


def test_medians_of_the_rounds_skip_missing_figures() -> None:
    rows: list[dict[str, float | None]] = [
        {"moves_per_s": 10.0, "p50_ms": 2.0, "p99_ms": 9.0, "server_cpu_ms_per_move": 1.0},
        {"moves_per_s": 9.0, "p50_ms": 4.0, "p99_ms": None, "server_cpu_ms_per_move": 3.0},
        {"moves_per_s": 11.0, "p50_ms": 3.0, "p99_ms": 5.0, "server_cpu_ms_per_move": 2.0}]
    assert medians(rows) == {"moves_per_s": 10.0, "p50_ms": 3.0, "p99_ms": 7.0,
                             "server_cpu_ms_per_move": 2.0}
    assert medians([]) == dict.fromkeys(FIGURES)


def test_ratios_are_bigtop_over_the_other_side() -> None:
    ours: dict[str, float | None] = {"moves_per_s": 990.0, "p50_ms": 11.0, "p99_ms": 30.0,
                                     "server_cpu_ms_per_move": 0.6}
    theirs: dict[str, float | None] = {"moves_per_s": 660.0, "p50_ms": 440.0, "p99_ms": 0.0,
                                       "server_cpu_ms_per_move": None}
    assert ratios(ours, theirs) == {"moves_per_s": 1.5, "p50_ms": 0.03, "p99_ms": None,
                                    "server_cpu_ms_per_move": None}


def test_report_has_each_side_and_a_ratio_row_per_boardgameio_server() -> None:
    figures: dict[str, dict[str, float | None]] = {
        "bigtop": {"moves_per_s": 100.0, "p50_ms": 2.0, "p99_ms": 8.0,
                   "server_cpu_ms_per_move": 1.0},
        "bigtop compressed": {"moves_per_s": 100.0, "p50_ms": 1.0, "p99_ms": 4.0,
                              "server_cpu_ms_per_move": 0.5},
        "boardgame.io in memory": {"moves_per_s": 100.0, "p50_ms": 4.0, "p99_ms": 16.0,
                                   "server_cpu_ms_per_move": 2.0},
        "boardgame.io FlatFile": {"moves_per_s": 50.0, "p50_ms": 1.0, "p99_ms": None,
                                  "server_cpu_ms_per_move": 4.0}}
    lines = report("100 tables, think 1 s", figures).splitlines()
    assert lines[0].startswith("| 100 tables, think 1 s | moves/s served |")
    assert lines[2:] == [
        "| bigtop | 100 | 2 | 8 | 1 |",
        "| bigtop compressed | 100 | 1 | 4 | 0.5 |",
        "| boardgame.io in memory | 100 | 4 | 16 | 2 |",
        "| boardgame.io FlatFile | 50 | 1 | – | 4 |",
        "| bigtop ÷ boardgame.io in memory | 1 | 0.5 | 0.5 | 0.5 |",
        "| bigtop ÷ boardgame.io FlatFile | 2 | 2 | – | 0.25 |",
        "| bigtop compressed ÷ boardgame.io in memory | 1 | 0.25 | 0.25 | 0.25 |",
        "| bigtop compressed ÷ boardgame.io FlatFile | 2 | 1 | – | 0.12 |",
    ]


def test_each_side_leads_one_round_in_turn() -> None:
    orders = [bench_server.in_turn(r) for r in range(len(SIDES))]
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
        # the modules the benchmark's client reads (patched for the whole process meanwhile)
        monkeypatch.setattr(asyncio, "sleep", sleep)
        monkeypatch.setattr(random, "random", lambda: 0.25)
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


def test_bot_waits_split_each_bot_move_by_the_pool_lines() -> None:
    """``--bot-tables``: each bot move stored in the counted time waits from the table's
    previous move; the pool's line inside that wait splits it into queueing and thinking;
    a person's move, a move outside the counted time and a move without a line are not
    split (the last still counts as a wait)."""
    moves = [("a", 0, None, 9.0), ("a", 1, "medium", 10.5),  # before the counted time
             ("a", 2, None, 11.0), ("a", 3, "medium", 11.3),  # a person, then a bot
             ("b", 0, "medium", 10.7), ("b", 1, "medium", 10.9),  # no pool line
             ("c", 0, None, 10.0), ("c", 1, "medium", 12.5)]  # after it
    lines = [("a", 9.1, 9.2, 10.4), ("a", 11.0, 11.05, 11.25), ("c", 10.1, 10.2, 12.4)]
    w = bench_server.bot_waits(moves, lines, (10.6, 12.0), 100.0)
    assert w["bot_moves"] == 2 and w["bot_table_moves"] == 4
    assert w["wait_ms"] == {"p50": 250.0, "p99": 300.0, "max": 300.0}
    assert w["queue_ms"] == {"p50": 50.0, "p99": 50.0, "max": 50.0}
    assert w["think_ms"]["max"] == 200.0
    assert w["queue_over_budget"] == 0.0 and w["wait_over_budget"] == 1.0
    assert w["bot_moves_a_table"] == {"min": 0, "median": 1, "max": 1}


def test_a_bot_move_passed_by_later_asks_waits_behind_them() -> None:
    """``behind_ms``: from the first start of a move that reached the pool later until this
    move's start; 0 for moves taken in the order they came."""
    in_order = [("a", 1.0, 1.1, 1.2), ("b", 1.05, 1.2, 1.3), ("c", 1.1, 1.3, 1.4)]
    assert bench_server.passed_by_later(in_order, (0.0, 9.0)) == [0.0, 0.0, 0.0]
    passed = [("a", 1.0, 1.5, 1.6), ("b", 1.1, 1.2, 1.3), ("c", 1.2, 1.3, 1.5)]
    assert [round(x, 3) for x in bench_server.passed_by_later(passed, (0.0, 9.0))] == [
        0.3, 0.0, 0.0]
    # only the moves started in the counted time are reported (a and c), all compared
    assert [round(x, 3) for x in bench_server.passed_by_later(passed, (1.25, 9.0))] == [
        0.3, 0.0]
