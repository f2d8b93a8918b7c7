"""Where a move's time goes in the server: each step of the WebSocket move path timed in one
process (the thread's CPU time), on the server's own objects (an app on a fresh SQLite
file), for two-player SCOUT tables like `bench/bench_server.py`'s, one spectator each.

The steps, as a WebSocket move runs them: *parse* the message (``parse_json_limited`` and
its checks), *authorize* (the seat of the token, hashed: per move over HTTP, once at
connect on a WebSocket; the move rate), *engine* (clone the position, pick the action, its
describe line, apply: timed on a copy, as the table's transaction does it), *store* (the
rest of the table's ``play``: the log line, the guarded transaction, the new position kept
in memory), the *views* of each seat and of the
spectator (``view_text``: the seat part — observation, and for the seat to move every legal
action with its describe line — then the JSON text), and *send* (the message's text and
its permessage-deflate compression, as the server's WebSocket library does for each
connection). The socket writes, the ASGI and WebSocket protocol layers, the hand-off to the
database thread and the kernel are not in this process: they are the server's CPU per move
(`bench/bench_server.py`) less the sum printed here.

    .venv/bin/python bench/profile_move.py --tables 100 --moves 3000
    .venv/bin/python bench/profile_move.py --cprofile 25   # also the top functions
    .venv/bin/python bench/profile_move.py --db postgresql  # a throwaway cluster

``--groups K …`` measures the group commit instead: the database thread's CPU a move
(``master.play`` handed to a ``DatabaseThread``), moves handed over K at a time, each alone
(as a server without group commit stores them) and grouped (``run_grouped``), in turn,
``--rounds`` times, with the medians' ratio grouped ÷ alone:

    .venv/bin/python bench/profile_move.py --groups 1 4 16 --tables 200
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import functools
import json
import pstats
import statistics
import sys
import tempfile
import time
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
with warnings.catch_warnings():
    # Starlette's test client warns about httpx on import (pyproject's pytest filter).
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from tests.server.conftest import make_client
    from tests.server.pg import new_database, throwaway_cluster

from bigtop.core.limits import parse_json_limited
from bigtop.server import Limits
from bigtop.server.runtime import DatabaseThread, log_after
from bigtop.server.views import seat_view

STEPS = ("parse", "authorize", "engine", "store", "views: seat to move",
         "views: other seat", "views: spectator", "send (3 messages)")


def deflater() -> PerMessageDeflate:
    """A connection's compression as the server negotiates it with a browser or the
    benchmark's client (context kept between messages; 12-bit windows and zlib's memLevel 5,
    uvicorn's websockets-sansio implementation: cli/serve.py's WS_PROTOCOL)."""
    return PerMessageDeflate(False, False, 12, 12, {"memLevel": 5})


def profile(tables: int, moves: int, profiler: cProfile.Profile | None,
            db: str = "sqlite") -> dict[str, float]:
    """Seconds spent in each step over ``moves`` moves, and the split of the views between
    the seat part and the JSON text (``"views: of which seat parts"``). ``db``: ``sqlite``
    (a file) or ``postgresql`` (a throwaway cluster: *store* is then the client's CPU of
    the move's transaction, the database's own work not counted)."""
    spent: dict[str, float] = defaultdict(float)
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        url = (new_database(stack.enter_context(throwaway_cluster())) if db == "postgresql"
               else f"sqlite:///{tmp}/profile.sqlite3")
        runtime, ids, tokens = new_tables(url, tables)
        service = runtime.master
        # The app's threads (event loop, database thread, sweeper) have stopped: only the
        # steps below run, on the same service and runtime objects.
        compress = [[deflater() for _ in range(3)] for _ in range(tables)]
        clock = time.thread_time  # this thread's CPU time: holds on a busy machine
        if profiler is not None:
            profiler.enable()
        for n in range(moves):
            t = n % tables
            loaded = service.cached(ids[t]) or service.load(ids[t])
            mover = loaded.state.current_player()
            raw = json.dumps({"type": "move", "version": loaded.version, "index": 0})
            t0 = clock()
            msg = parse_json_limited(raw, "message")
            assert isinstance(msg, dict) and msg.get("type") == "move"
            version = msg["version"]
            assert isinstance(version, int) and not isinstance(version, bool)
            choice = {k: v for k, v in msg.items() if k not in ("type", "version")}
            t1 = clock()
            seat = service.seat_of(loaded, tokens[t][mover])
            assert seat == mover and runtime.moves.allow((t, seat))
            t2 = clock()
            work = loaded.state.clone()
            action = work.legal_actions()[choice["index"]]
            work.describe(action)
            work.apply(action)
            t3 = clock()
            done = service.play(ids[t], seat, version, choice, None, loaded)
            t4 = clock()
            spent["parse"] += t1 - t0
            spent["authorize"] += t2 - t1
            spent["engine"] += t3 - t2
            spent["store"] += (t4 - t3) - (t3 - t2)
            new = log_after(done, version)
            texts = []
            to_move = done.state.current_player()
            to_move = to_move if to_move in (0, 1) else 1 - mover
            for seat_of_view, step in ((to_move, "views: seat to move"),
                                       (1 - to_move, "views: other seat"),
                                       (None, "views: spectator")):
                s0 = clock()
                seat_view(done.state, seat_of_view)  # the seat part alone, for the split
                s1 = clock()
                texts.append(runtime.view_text(done, seat_of_view, entries=new,
                                               log_since=version))
                s2 = clock()
                spent[step] += s2 - s1
                spent["views: of which seat parts"] += s1 - s0
            s0 = clock()
            for text, deflate in zip(texts, compress[t], strict=True):
                message = ('{"type":"view","view":' + text + "}").encode()
                deflate.encode(Frame(Opcode.TEXT, message))
            spent["send (3 messages)"] += clock() - s0
            assert done.meta.status == "playing", "a game ended: use more tables"
        if profiler is not None:
            profiler.disable()
    return dict(spent)


def new_tables(url: str, tables: int) -> tuple[Any, list[str], list[list[str]]]:
    """An app's master on the fresh database ``url`` with ``tables`` two-player SCOUT
    tables (the app's own threads stopped again), their ids and seat tokens."""
    # One client makes every table: the per-client limits lifted, as the load benchmark's
    # servers have them (tests/server/conftest.py, ONE_CLIENT_MANY_TABLES).
    lifted = Limits(table_burst=100_000, max_open_tables_per_client=100_000)
    with make_client(url, limits=lifted) as c:
        runtime = c.app.state.runtime  # type: ignore[attr-defined]
        ids, tokens = [], []
        for _ in range(tables):
            made = c.post("/api/tables", json={"game": "scout", "players": 2,
                                               "listed": False,
                                               "options": {"rounds": 20}}).json()
            ids.append(made["table"])
            tokens.append([s["token"] for s in made["seats"]])
    return runtime, ids, tokens


def groups(sizes: list[int], tables: int, moves: int, rounds: int) -> None:
    """``--groups``: the database thread's CPU a move, alone and grouped, K at a time."""
    with tempfile.TemporaryDirectory() as tmp:
        runtime, ids, _ = new_tables(f"sqlite:///{tmp}/profile.sqlite3", tables)
        master = runtime.master
        spent: dict[tuple[int, bool], list[float]] = defaultdict(list)
        at = 0

        async def handed_over(db: DatabaseThread, k: int, grouped: bool) -> float:
            nonlocal at
            t0 = await db.run(time.thread_time)  # the database thread's own CPU time
            for _ in range(moves // k):
                jobs = []
                for _ in range(k):
                    table = ids[at % tables]
                    at += 1
                    t = master.cached(table) or master.load(table)
                    play = functools.partial(master.play, table, t.state.current_player(),
                                             t.version, {"index": 0}, None, t)
                    jobs.append(db.run_grouped(table if grouped else None, play))
                await asyncio.gather(*jobs)
            return await db.run(time.thread_time) - t0

        for _ in range(rounds):
            for k in sizes:
                for grouped in (False, True):
                    db = DatabaseThread(group=master.storage.group)
                    try:
                        cpu = asyncio.run(handed_over(db, k, grouped))
                    finally:
                        db.close()
                    spent[k, grouped].append(1e6 * cpu / (moves // k * k))
    print(f"the database thread's CPU a move, µs (medians of {rounds}; {tables} tables)")
    for k in sizes:
        alone, together = (statistics.median(spent[k, g]) for g in (False, True))
        print(f"  {k:3} at a time: alone {alone:6.0f}  grouped {together:6.0f}  "
              f"grouped ÷ alone {together / alone:.2f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--moves", type=int, default=3000)
    p.add_argument("--cprofile", type=int, default=0, metavar="N",
                   help="also profile the moves with cProfile and print the top N functions "
                        "(by own time)")
    p.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite",
                   help="the database of the tables (postgresql: a throwaway cluster)")
    p.add_argument("--groups", type=int, nargs="+", default=None, metavar="K",
                   help="measure the group commit instead, moves handed over K at a time")
    p.add_argument("--rounds", type=int, default=5, help="with --groups: runs of each")
    args = p.parse_args()
    if args.groups:
        groups(args.groups, args.tables, args.moves // 10, args.rounds)
        return
    profiler = cProfile.Profile() if args.cprofile else None
    spent = profile(args.tables, args.moves, profiler, args.db)
    total = sum(spent[s] for s in STEPS)
    print(f"{args.moves} moves at {args.tables} tables ({args.db}): "
          f"{1e6 * total / args.moves:.0f} µs a move in these steps")
    for step in STEPS:
        print(f"  {step:<22} {1e6 * spent[step] / args.moves:7.1f} µs  "
              f"{100 * spent[step] / total:4.1f}%")
    views = sum(spent[s] for s in STEPS if s.startswith("views"))
    print(f"  (views: seat parts {100 * spent['views: of which seat parts'] / views:.0f}%, "
          "the rest the view's JSON text)")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.cprofile)


if __name__ == "__main__":
    main()
