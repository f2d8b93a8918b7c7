"""Bots share the machine fairly: every move has a wall-clock limit (a bot thinking past it
is interrupted and a random legal move is played for it), and the pool takes moves table by
table in turn, first come first served (a deterministic fake bot: the assertions are on
order and outcome, never on time)."""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bigtop.agents import levels
from bigtop.core.registry import new_game
from bigtop.server import bots
from bigtop.server.bots import BotPool, bot_input, move_limit, think


def test_the_pool_takes_moves_table_by_table() -> None:
    """A table with many moves waiting (A) does not make others (B, C) wait behind them:
    after A's first move, B's and C's go first; FIFO would play all of A's first."""
    order: list[str] = []
    gate = threading.Event()

    def move(name: str) -> str:
        if name == "X":
            gate.wait(5)  # the pool is busy while the others ask
        order.append(name)
        return name

    async def main() -> list[str]:
        pool = BotPool(ThreadPoolExecutor(1), size=1)
        busy = asyncio.ensure_future(pool.run("X", move, "X"))
        await asyncio.sleep(0)
        jobs = [asyncio.ensure_future(pool.run(t, move, f"{t}{i}")) for t, i in
                [("A", 1), ("A", 2), ("A", 3), ("B", 1), ("C", 1)]]
        await asyncio.sleep(0)
        gate.set()
        await busy
        return list(await asyncio.gather(*jobs))

    assert asyncio.run(main()) == ["A1", "A2", "A3", "B1", "C1"]  # each its own answer
    assert order == ["X", "A1", "B1", "C1", "A2", "A3"]


def test_no_bot_is_passed_by_a_table_that_asked_later() -> None:
    """A table served a moment ago (A) that asks again goes before a table that asks after
    it, even one never served (B): first come, first served, one move a table at a time.
    (Least recently served first put B ahead of A.)"""
    order: list[str] = []
    gate = threading.Event()

    def move(name: str) -> None:
        if name == "X":
            gate.wait(5)  # the pool is busy while A and B ask
        order.append(name)

    async def main() -> None:
        pool = BotPool(ThreadPoolExecutor(1), size=1)
        await pool.run("A", move, "A0")
        busy = asyncio.ensure_future(pool.run("X", move, "X"))
        await asyncio.sleep(0)
        a = asyncio.ensure_future(pool.run("A", move, "A1"))
        await asyncio.sleep(0)
        b = asyncio.ensure_future(pool.run("B", move, "B1"))
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(busy, a, b)

    asyncio.run(main())
    assert order == ["A0", "X", "A1", "B1"]


def test_tables_asking_on_and_on_get_moves_in_turn() -> None:
    """Tables whose bots ask again as soon as a move is stored (bots in every seat) each
    get one move a round: after any number of moves, no table has two more than another."""
    counts = dict.fromkeys("ABCDE", 0)
    spread: list[int] = []

    def move(table: str) -> None:
        counts[table] += 1
        spread.append(max(counts.values()) - min(counts.values()))

    async def chain(pool: BotPool, table: str) -> None:
        for _ in range(20):
            await pool.run(table, move, table)

    async def main() -> None:
        pool = BotPool(ThreadPoolExecutor(2), size=2)
        await asyncio.gather(*(chain(pool, t) for t in counts))

    asyncio.run(main())
    assert set(counts.values()) == {20}
    assert max(spread) <= 2


def test_pool_processes_yield_the_cpu_to_the_server() -> None:
    """A bot process runs POOL_NICENESS nicer than the server that started it, so on a busy
    core the server's answers to people come first (a bot has its move's budget)."""
    pool = bots.make_pool(1)
    try:
        niceness = pool.submit(os.nice, 0).result(timeout=120)
    finally:
        pool.shutdown()
    assert niceness == min(19, os.nice(0) + bots.POOL_NICENESS)
    assert bots.POOL_NICENESS > 0


def test_a_table_moving_on_and_on_takes_its_turn_like_the_others() -> None:
    """A table whose bots play move after move (each asked when the last is stored) gets
    one move in between the other tables' moves, with any pool size."""
    order: list[str] = []
    lock = threading.Lock()
    gate = threading.Event()

    def move(name: str) -> None:
        if name == "A1":
            gate.wait(5)  # the others arrive while A's first move is thought
        with lock:
            order.append(name)

    async def chain(pool: BotPool) -> None:
        for i in range(1, 4):
            await pool.run("A", move, f"A{i}")

    async def main() -> None:
        pool = BotPool(ThreadPoolExecutor(2), size=2)
        a = asyncio.ensure_future(chain(pool))
        await asyncio.sleep(0)
        others = [asyncio.ensure_future(pool.run(t, move, f"{t}1")) for t in "BCD"]
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(a, *others)

    asyncio.run(main())
    assert order.index("A2") > min(order.index("C1"), order.index("D1"))
    assert sorted(order) == ["A1", "A2", "A3", "B1", "C1", "D1"]


def test_every_move_has_a_limit_cut_by_the_table_and_the_server() -> None:
    assert move_limit("random", None, 5.0) == levels.MOVE_BUDGET_MS["random"] / 1000
    assert move_limit("hard", None, 5.0) == levels.MOVE_BUDGET_MS["hard"] / 1000
    assert move_limit("hard", 0.2, 5.0) == 0.2
    assert move_limit("hard", None, 0.1) == 0.1
    assert move_limit("ismcts", None, 3.0) == 3.0  # no budget of its own


class Endless:
    """A bot that never decides (a pure-Python loop, as a search is)."""

    def act(self, state: Any) -> Any:
        while True:
            pass


def test_a_bot_thinking_past_its_limit_is_cut_and_a_random_move_played(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = levels.make_bot
    asked: list[tuple[str, Any]] = []

    def make_bot(name: str, game: Any, seat: int, seed: int, **kw: Any) -> Any:
        asked.append((name, kw.get("time_limit")))
        return real(name, game, seat, seed) if name == "random" else Endless()

    monkeypatch.setattr(bots, "make_bot", make_bot)
    state = new_game("scout", 3).new_initial_state(2)
    seat = state.current_player()
    played = think(bot_input(state, seat, 7), "hard", seat, 7, 0.05)
    expected = real("random", state.game, seat, 7).act(
        bot_input_state := state.game.state_from_json(bot_input(state, seat, 7)))
    assert played == expected.to_json() and expected in bot_input_state.legal_actions()
    assert asked == [("hard", 0.05), ("random", None)]  # the search was told its limit
