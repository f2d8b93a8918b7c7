"""Two workers on one PostgreSQL: a worker that holds a table brings it up to date by reading
only what changed (the moves after its version, the row, the seats when their revision
moved, the events after its last), and what it holds then equals a full load, after every
change of random play: moves, take-backs, seats taken over and reclaimed, away and here,
chat, clocks running out, the end of the game and its rematch. A NOTIFY carries the row as
committed, so the worker whose copy has that row sends it without reading the table."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from bigtop.server import errors, master
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import FINISHED, PLAYING, Loaded, SeatSpec, TableSpec
from bigtop.server.settings import Limits, Settings
from bigtop.server.storage import SqlStorage
from bigtop.server.storage.sql import Note, parse_note


def _row(t: Loaded) -> tuple[int, int, int, str]:
    return (t.version, t.meta.seat_rev, t.meta.undos, t.meta.status)


def _same(held: Loaded, full: Loaded) -> None:
    assert held.meta == full.meta
    assert held.seats == full.seats
    assert held.state == full.state and held.state.history == full.state.history
    assert held.last_event == full.last_event
    # The log's entries, each once; a copy caught up appends what it read, in the order
    # read, where a full load puts each event after the move it followed.
    assert sorted(held.log, key=lambda e: e.id) == sorted(full.log, key=lambda e: e.id)


class Worlds:
    """Two workers (masters on engines of their own) and a fresh one for each full load."""

    def __init__(self, url: str) -> None:
        self.settings = Settings(db_url=url, limits=Limits(min_clock_seconds=0.05))
        migrate(make_engine(url))
        self.engines = [make_engine(url) for _ in range(3)]
        self.workers = [TableMaster(SqlStorage(e), self.settings) for e in self.engines[:2]]
        self.kinds: set[str] = set()

    def full(self, table_id: str) -> Loaded:
        return TableMaster(SqlStorage(self.engines[2]), self.settings).load(table_id)

    def check(self, table_id: str) -> None:
        full = self.full(table_id)
        self.kinds.update(e.kind for e in full.log)
        for w in self.workers:
            have = w.cached(table_id)
            if have is not None and _row(have) == _row(full):
                _same(have, full)  # what a worker sends on hearing that row, unread
            _same(w.load(table_id), full)


def _table(w: TableMaster, clock: dict[str, Any] | None, on_timeout: str) -> tuple[str, list[str]]:
    made = w.create(TableSpec("scout", 2, seats=(SeatSpec(), SeatSpec()), listed=False,
                              clock=clock, on_timeout=on_timeout))
    return made.table_id, [made.tokens[seat] for seat in range(2)]


def _sit(w: TableMaster, table_id: str, tokens: list[str]) -> None:
    for seat, token in enumerate(tokens):
        w.touch(table_id, seat, token)
    w.try_start(table_id)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_copy_caught_up_equals_a_full_load(pg_url: str, seed: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # The masters' clock stands still until the play runs it out: on the real clock a busy
    # machine let every 0.3 s turn run out, so the games ended before a take-back was tried.
    now = [time.time()]
    monkeypatch.setattr(master, "_now", lambda: now[0])
    rng = random.Random(seed)
    worlds = Worlds(pg_url)
    a = worlds.workers[0]
    clock = {"per_move_seconds": 0.3} if seed == 2 else None
    table_id, tokens = _table(a, clock, "lose" if seed == 2 else "bot")
    _sit(a, table_id, tokens)
    worlds.check(table_id)
    rematches = 0

    def covered() -> bool:
        """The play went through what this test is about (its timing decides some of it:
        a worker refuses what its stale copy asks, so a busy machine needs more steps)."""
        return ({"move", "undo", "timeout" if clock else "takeover"} <= worlds.kinds
                and rematches >= 1)

    for step in range(1000):
        if step >= 160 and covered():
            break
        w = rng.choice(worlds.workers)
        t = w.load(table_id)
        to_move = t.state.current_player()
        what = rng.choices(["move", "undo", "takeover", "reclaim", "away", "chat", "clock"],
                           [12, 2, 1, 1, 1, 1, 1 if clock else 0])[0]
        if t.meta.status != PLAYING:
            if rematches >= 2 and covered():
                break
            new_id = ""
            new_tokens = ["", ""]
            for seat, token in enumerate(tokens):
                new_id, new_seat, mine = rng.choice(worlds.workers).rematch(
                    table_id, seat, token)
                assert mine is not None
                new_tokens[new_seat] = mine
            worlds.check(table_id)  # the old table links its rematch
            table_id, tokens, rematches = new_id, new_tokens, rematches + 1
            _sit(rng.choice(worlds.workers), table_id, tokens)
        else:
            try:
                if what == "move" and to_move >= 0:
                    legal = len(t.state.legal_actions())
                    bot = t.seats[to_move].bot_level
                    w.play(table_id, to_move, t.version, {"index": rng.randrange(legal)},
                           bot, token=None if bot else tokens[to_move])
                elif what == "undo" and t.version > 0:
                    asker = rng.randrange(2)
                    w.ask_undo(table_id, asker)
                    rng.choice(worlds.workers).answer_undo(table_id, 1 - asker,
                                                           rng.random() < 0.8)
                elif what == "takeover":
                    w.seat_event(table_id, rng.randrange(2), "takeover", "a bot plays",
                                 "random", only_if="absent")
                elif what == "reclaim":
                    w.seat_event(table_id, rng.randrange(2), "reclaim", "back",
                                 None, only_if="taken")
                elif what == "away":
                    if not w.storage.mark_gone(now[0] + 1, 10):
                        w.arrive(table_id, rng.randrange(2))
                elif what == "chat":
                    w.post_chat(table_id, rng.randrange(2), "hello")
                elif what == "clock" and t.meta.clock_deadline is not None:
                    now[0] = max(now[0], t.meta.clock_deadline + 0.02)
                    w.time_out(table_id)
            except errors.Problem:
                pass  # refused (another worker's change came first, a take-back refused)
        worlds.check(table_id)
    assert covered(), (worlds.kinds, rematches)


def test_a_notify_carries_the_row_as_committed(pg_url: str) -> None:
    worlds = Worlds(pg_url)
    a = worlds.workers[0]
    table_id, tokens = _table(a, None, "bot")
    heard: list[Note] = []
    stop = threading.Event()
    listener = threading.Thread(target=a.storage.listen,
                                args=(stop, lambda p: heard.append(parse_note(p))))
    listener.start()
    try:
        time.sleep(0.5)  # listening
        _sit(a, table_id, tokens)
        t = a.load(table_id)
        a.play(table_id, t.state.current_player(), t.version, {"index": 0},
               token=tokens[t.state.current_player()])
        a.post_chat(table_id, 0, "hi")
        deadline = time.time() + 10
        while (not heard or not heard[-1].chat) and time.time() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        listener.join()
    full = worlds.full(table_id)
    rows = [n.row for n in heard if not n.chat]
    assert rows[-1] == _row(full) and all(n.table_id == table_id for n in heard)
    assert heard[-1] == Note(table_id, chat=True)
    assert full.meta.status != FINISHED
