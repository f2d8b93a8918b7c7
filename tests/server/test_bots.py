"""Bots share the machine fairly: every move has a wall-clock limit (a bot thinking past it
is interrupted and a random legal move is played for it), and the pool takes moves owner by
owner and table by table in turn, first come first served (a deterministic fake bot: the
assertions are on order and outcome, never on time)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bigtop.agents import levels
from bigtop.core.registry import new_game
from bigtop.server import bots
from bigtop.server.bots import BotPool, bot_input, move_limit, think


def recorder(order: list[str], gate: threading.Event) -> Callable[[str], str]:
    """A fake bot's move that notes its name; "X" holds the pool until ``gate`` opens, so
    the others ask while it is busy."""

    def move(name: str) -> str:
        if name == "X":
            gate.wait(5)
        order.append(name)
        return name

    return move


def test_the_pool_takes_moves_table_by_table() -> None:
    """A table with many moves waiting (A) does not make others (B, C) wait behind them:
    after A's first move, B's and C's go first; FIFO would play all of A's first."""
    order: list[str] = []
    gate = threading.Event()
    move = recorder(order, gate)

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


# -- the limit runs from the ask (issue 27) ---------------------------------------------------
class Recorded:
    """A fake ``make_bot`` and ``within`` for :func:`think`: what the search was told and
    the hard cut it ran under (the real random bot and the real cut do the rest)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, bot: Callable[[], Any]) -> None:
        self.told: list[tuple[str, Any]] = []
        self.cuts: list[float] = []
        real_make, real_within = levels.make_bot, bots.within

        def make_bot(name: str, game: Any, seat: int, seed: int, **kw: Any) -> Any:
            self.told.append((name, kw.get("time_limit")))
            return real_make(name, game, seat, seed) if name == "random" else bot()

        def within(seconds: float, act: Any, fallback: Any) -> Any:
            self.cuts.append(seconds)
            return real_within(seconds, act, fallback)

        monkeypatch.setattr(bots, "make_bot", make_bot)
        monkeypatch.setattr(bots, "within", within)


class Instant:
    """A bot that decides at once (its first legal move)."""

    def act(self, state: Any) -> Any:
        return state.legal_actions()[0]


def scout_turn() -> tuple[Any, int]:
    state = new_game("scout", 2).new_initial_state(2)
    return state, state.current_player()


def test_a_move_taken_at_once_thinks_its_whole_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = 1_000.0
    monkeypatch.setattr(time, "time", lambda: asked)  # the pool takes it as it is asked
    seen = Recorded(monkeypatch, Instant)
    state, seat = scout_turn()
    think(bot_input(state, seat, 3), "hard", seat, 3, 1.0, asked + 1.0)
    assert seen.told == [("hard", 1.0)]
    assert seen.cuts == [1.0 * bots.HARD_CUT + bots.HARD_CUT_GRACE]


def test_a_move_taken_late_thinks_what_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = 1_000.0
    monkeypatch.setattr(time, "time", lambda: asked + 0.75)  # queued 750 ms
    seen = Recorded(monkeypatch, Instant)
    state, seat = scout_turn()
    think(bot_input(state, seat, 3), "hard", seat, 3, 1.0, asked + 1.0)
    assert seen.told == [("hard", 0.25)]
    assert seen.cuts == [0.25 * bots.HARD_CUT + bots.HARD_CUT_GRACE]


def test_a_move_taken_past_its_deadline_gets_the_floor_and_its_cut(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A medium move that queued 7 s (70 budgets) is told the floor, a tenth of its limit,
    and one that never decides is cut at 1.5 times that (plus the grace), not at the
    budget's cut: a random legal move is played for it."""
    asked = 1_000.0
    limit = move_limit("medium", None, 5.0)
    monkeypatch.setattr(time, "time", lambda: asked + 7.0)
    seen = Recorded(monkeypatch, Endless)
    state, seat = scout_turn()
    played = think(bot_input(state, seat, 3), "medium", seat, 3, limit, asked + limit)
    floor = limit * bots.FLOOR_SHARE
    assert bots.FLOOR_SECONDS < floor < limit
    assert seen.told == [("medium", floor), ("random", None)]
    assert seen.cuts == [floor * bots.HARD_CUT + bots.HARD_CUT_GRACE]
    bot_state = state.game.state_from_json(bot_input(state, seat, 3))
    expected = levels.make_bot("random", state.game, seat, 3).act(bot_state)
    assert played == expected.to_json()


def test_the_floor_has_a_least_and_never_exceeds_the_limit() -> None:
    assert bots.time_left(0.01, 0.0, 9.0) == bots.FLOOR_SECONDS  # easy: 1 ms is too little
    assert bots.time_left(0.001, 0.0, 9.0) == 0.001  # random: its limit, no more
    assert bots.time_left(1.0, 5.0, 2.0) == 1.0  # a clock that went back: the limit


def test_queued_moves_keep_their_order_and_think_from_the_ask(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Moves asked while the pool is busy are still taken first come, first served, and each
    thinks what is left of its limit when taken: here past every deadline, the floor."""
    clock = [1_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    order: list[tuple[str, float]] = []
    gate = threading.Event()

    def move(name: str, limit: float, deadline: float) -> None:
        if name == "X":
            gate.wait(5)  # the pool is busy while the others ask
        order.append((name, round(bots.time_left(limit, deadline, clock[0]), 6)))

    async def main() -> None:
        pool = BotPool(ThreadPoolExecutor(1), size=1)
        jobs = []
        for name, limit in [("X", 0.1), ("A", 0.1), ("B", 1.0), ("C", 0.1)]:
            jobs.append(asyncio.ensure_future(
                pool.run(name, move, name, limit, clock[0] + limit)))
            await asyncio.sleep(0)
        clock[0] += 2.0  # the busy move took 2 s
        gate.set()
        await asyncio.gather(*jobs)

    asyncio.run(main())
    assert order == [("X", 0.01), ("A", 0.01), ("B", 0.1), ("C", 0.01)]


def test_the_server_asks_with_a_deadline_from_the_ask(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server hands the pool the move's limit and a deadline set before the move
    reached the pool: the limit counts from the ask."""
    from bigtop.server import runtime
    from tests.server.conftest import make_client

    asks: list[tuple[float, float, float, float]] = []

    def recording(data: Any, level: str, seat: int, seed: int, limit: float,
                  deadline: float | None = None) -> Any:
        assert deadline is not None
        asks.append((before, limit, deadline, time.time()))
        return think(data, level, seat, seed, limit, deadline)

    monkeypatch.setattr(runtime, "think", recording)
    before = time.time()
    with make_client(sqlite_url) as c:
        made = c.post("/api/tables", json={
            "game": "scout", "players": 2,
            "seats": [{"kind": "bot", "level": "medium"}] * 2}).json()
        for _ in range(200):
            if c.get(f"/api/tables/{made['table']}").json()["version"] >= 3:
                break
            time.sleep(0.05)
    assert len(asks) >= 2
    for asked_from, limit, deadline, taken in asks:
        assert limit == move_limit("medium", None, 5.0)
        # (deadline - limit: the ask's time, give or take a rounding of the sum)
        assert asked_from <= deadline - limit <= taken + 1e-6


def test_a_table_has_one_move_in_the_pool_at_most(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What bounds the pool's queue: the server asks a table's next bot move only once the
    last is stored, so the sweeps that look for bot turns nobody took (every 0.1 s, a turn
    taken as stuck at once here) queue no second move while a bot thinks; the open tables
    (``max_open_tables``) bound the queue."""
    from bigtop.server import runtime
    from tests.server.conftest import make_client, runtime_of

    gate = threading.Event()
    calls: list[str] = []
    kicks: list[str] = []

    def held(data: Any, level: str, *rest: Any) -> Any:
        calls.append(level)
        gate.wait(5)
        return think(data, level, *rest)

    monkeypatch.setattr(runtime, "think", held)
    real_kick = runtime.Runtime.kick

    def kick(self: Any, loaded: Any) -> None:
        kicks.append(loaded.table_id)
        real_kick(self, loaded)

    monkeypatch.setattr(runtime.Runtime, "kick", kick)
    with make_client(sqlite_url, bot_stuck_seconds=0.01) as c:
        made = c.post("/api/tables", json={
            "game": "scout", "players": 2,
            "seats": [{"kind": "bot", "level": "medium"}] * 2}).json()
        pool: BotPool = runtime_of(c).bots
        for _ in range(500):  # until the move thinks and the sweeps kicked the table again
            if calls and kicks.count(made["table"]) >= 4:
                break
            time.sleep(0.02)
        held_moves, waiting = len(calls), sum(len(j) for j in pool._waiting.values())
        gate.set()
    assert kicks.count(made["table"]) >= 4
    assert (held_moves, waiting) == (1, 0)


def test_one_owner_s_many_tables_take_one_turn_among_the_owners() -> None:
    """A stranger's four tables of bots (owner a) take one turn in the round of owners,
    as the single table of each other owner (b, c) does: b's and c's moves come after a's
    first, not after all four. Within an owner, tables take turns as before."""
    order: list[str] = []
    gate = threading.Event()
    move = recorder(order, gate)

    async def main() -> None:
        pool = BotPool(ThreadPoolExecutor(1), size=1)
        busy = asyncio.ensure_future(pool.run("X", move, "X", owner="x"))
        await asyncio.sleep(0)
        jobs = [asyncio.ensure_future(pool.run(t, move, t, owner=o)) for t, o in
                [("A1", "a"), ("A2", "a"), ("A3", "a"), ("A4", "a"), ("B", "b"),
                 ("C", "c")]]
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(busy, *jobs)

    asyncio.run(main())
    assert order == ["X", "A1", "B", "C", "A2", "A3", "A4"]
