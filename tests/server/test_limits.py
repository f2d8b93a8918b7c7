"""What one client may cost the server: tables created, seats taken and moves made per
client address (the real one, server/net.py), open tables per address, and moves per seat
however many sockets it holds. Every test names clients through a trusted proxy (the test
client's peer is 127.0.0.1, trusted by default) and shows another address is unaffected."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from bigtop.server import Limits, errors
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import TableSpec
from bigtop.server.runtime import SeatPart
from bigtop.server.schema import tables
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage
from tests.server.conftest import make_client, runtime_of
from tests.server.test_api import auth, problem, wait_for

A, B, C = "198.51.100.1", "198.51.100.2", "203.0.113.3"
BOTS = [{"kind": "bot", "level": "random"}] * 2


def by(address: str, token: str | None = None) -> dict[str, str]:
    """Headers of a request from ``address`` (through the trusted proxy)."""
    return {"x-forwarded-for": address, **(auth(token) if token else {})}


def new_table(c: TestClient, address: str, **body: Any) -> Any:
    return c.post("/api/tables", json={"game": "scout", "players": 2, **body},
                  headers=by(address))


def limited(r: Any) -> dict[str, Any]:
    """A 429 with a Retry-After of whole seconds and the same in the problem."""
    body = problem(r, 429, "rate-limited")
    assert int(r.headers["retry-after"]) == body["retry_after"] >= 1
    return body


def test_the_twenty_first_table_from_one_address_waits(sqlite_url: str) -> None:
    with make_client(sqlite_url, peer="127.0.0.1") as c:
        for _ in range(20):
            assert new_table(c, A).status_code == 201
        body = limited(new_table(c, A))
        assert "one address may create 20 tables at once" in body["detail"]
        assert new_table(c, B).status_code == 201  # another address still can


def test_one_ipv6_network_is_one_client(sqlite_url: str) -> None:
    """Every address of one /64 draws on one allowance (``Limits.ipv6_prefix``): a client
    cannot create table after table by changing the last bits of its address."""
    with make_client(sqlite_url, peer="127.0.0.1", limits=Limits(table_burst=2)) as c:
        assert new_table(c, "2001:db8:5:6::1").status_code == 201
        assert new_table(c, "2001:db8:5:6::2").status_code == 201
        limited(new_table(c, "2001:db8:5:6:abcd::3"))
        assert new_table(c, "2001:db8:5:7::1").status_code == 201  # another network


def test_open_tables_per_address(sqlite_url: str) -> None:
    limits = Limits(max_open_tables_per_client=2, table_burst=100)
    # The bots wait a little before each move: their table must still be open while the
    # limit is checked (bots in the app's own thread start at once and finish in well under
    # a second; a round of two takes some 40 moves, 2 s at this delay, where the three
    # requests below take milliseconds), and finish in seconds after.
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits,
                     bot_delay_seconds=0.05) as c:
        bots = new_table(c, A, seats=BOTS, options={"rounds": 1}).json()["table"]
        assert new_table(c, A).status_code == 201
        body = limited(new_table(c, A))
        assert "this address has 2 open tables, its limit" in body["detail"]
        assert new_table(c, B).status_code == 201
        # A finished table no longer counts.
        wait_for(c, bots, lambda v: v["status"] == "finished")
        assert new_table(c, A).status_code == 201


def test_seats_taken_per_address(sqlite_url: str) -> None:
    limits = Limits(join_burst=2, joins_per_hour=1)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        tables = [new_table(c, A).json()["table"] for _ in range(3)]
        for t in tables[:2]:
            assert c.post(f"/api/tables/{t}/join", headers=by(B)).status_code == 200
        body = limited(c.post(f"/api/tables/{tables[2]}/join", headers=by(B)))
        assert "one address may take 2 seats at once" in body["detail"]
        assert c.post(f"/api/tables/{tables[2]}/join", headers=by(C)).status_code == 200


def test_moves_per_seat_count_every_socket_of_the_seat(sqlite_url: str) -> None:
    """The old limit was per WebSocket: a seat with two sockets open moved twice as fast."""
    limits = Limits(moves_per_second=0.01, move_burst=2)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        made = new_table(c, A).json()
        t, tok = made["table"], made["seats"][0]["token"]
        url = f"/api/tables/{t}/ws"
        with c.websocket_connect(url, headers=by(A, tok)) as one, \
                c.websocket_connect(url, headers=by(A, tok)) as two:
            one.receive_json(), two.receive_json()
            statuses = []
            for ws in (one, two, one, two):
                ws.send_json({"type": "move", "version": 99, "index": 0})
                statuses.append(ws.receive_json()["problem"]["status"])
            assert statuses == [409, 409, 429, 429]
        limited(c.post(f"/api/tables/{t}/moves", json={"version": 0, "index": 0},
                       headers=by(A, tok)))
        other = made["seats"][1]["token"]  # the other seat has its own bucket
        problem(c.post(f"/api/tables/{t}/moves", json={"version": 99, "index": 0},
                       headers=by(A, other)), 409, "stale-version")


def test_moves_per_address_over_all_its_seats(sqlite_url: str) -> None:
    limits = Limits(client_moves_per_second=0.01, client_move_burst=3)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        seats = [(m["table"], s["token"]) for m in
                 (new_table(c, A).json() for _ in range(2)) for s in m["seats"]]
        for t, tok in seats[:3]:
            problem(c.post(f"/api/tables/{t}/moves", json={"version": 99, "index": 0},
                           headers=by(A, tok)), 409, "stale-version")
        t, tok = seats[3]
        body = limited(c.post(f"/api/tables/{t}/moves", json={"version": 99, "index": 0},
                              headers=by(A, tok)))
        assert "one address may move 3 times at once" in body["detail"]
        # The same seat from another address (a seat token is not tied to one).
        problem(c.post(f"/api/tables/{t}/moves", json={"version": 99, "index": 0},
                       headers=by(B, tok)), 409, "stale-version")


def test_take_backs_count_toward_the_address_as_moves_do(sqlite_url: str) -> None:
    """Regression: asking, accepting or declining a take-back is counted as a move of the
    seat, but not of the client address: one address with many seats (its own tables)
    wrote and broadcast take-back steps at the seat rate times its seats, past the 30 a
    second an address may move."""
    limits = Limits(client_moves_per_second=0.01, client_move_burst=3)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        seats = [(m["table"], s["token"]) for m in
                 (new_table(c, A).json() for _ in range(2)) for s in m["seats"]]
        for (t, tok), step in zip(seats[:3], ("undo", "undo/accept", "undo/decline"),
                                  strict=True):
            problem(c.post(f"/api/tables/{t}/{step}", headers=by(A, tok)), 409, "conflict")
        t, tok = seats[3]
        body = limited(c.post(f"/api/tables/{t}/undo", headers=by(A, tok)))
        assert "one address may move 3 times at once" in body["detail"]
        # Moves and take-backs share the address's allowance; another address has its own.
        limited(c.post(f"/api/tables/{t}/moves", json={"version": 99, "index": 0},
                       headers=by(A, tok)))
        problem(c.post(f"/api/tables/{t}/undo", headers=by(B, tok)), 409, "conflict")


def test_a_table_nobody_joined_expires_and_frees_its_creator(sqlite_url: str) -> None:
    limits = Limits(unjoined_table_seconds=3.0, max_open_tables_per_client=2)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        waiting = new_table(c, A).json()  # P1's seat never taken
        both = new_table(c, A).json()
        limited(new_table(c, A))
        for s in both["seats"]:  # both people came (their first request claims the seat)
            c.get(f"/api/tables/{both['table']}", headers=by(A, s["token"]))
        wait_for(c, waiting["table"], lambda v: v["status"] == "expired", timeout=30)
        problem(c.post(f"/api/tables/{waiting['table']}/moves",
                       json={"version": 0, "index": 0},
                       headers=by(A, waiting["seats"][0]["token"])), 410, "table-expired")
        assert c.get(f"/api/tables/{both['table']}").json()["status"] == "playing"
        assert new_table(c, A).status_code == 201


def test_ended_tables_are_kept_for_their_retention_then_deleted(sqlite_url: str) -> None:
    limits = Limits(finished_table_seconds=1.0)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        done = new_table(c, A, seats=BOTS, options={"rounds": 1}).json()["table"]
        open_ = new_table(c, A).json()["table"]
        wait_for(c, done, lambda v: v["status"] == "finished")
        assert c.get(f"/api/tables/{done}/export").status_code == 200  # kept a while
        deadline = time.monotonic() + 15
        while c.get(f"/api/tables/{done}").status_code != 404:
            assert time.monotonic() < deadline, "the finished table was never deleted"
            time.sleep(0.1)
        problem(c.get(f"/api/tables/{done}/export"), 404, "not-found")
        assert c.get(f"/api/tables/{open_}").json()["status"] == "playing"


def board(note: str) -> str:
    """A So ein Zirkus board (JSON text, the option's form) with a free-text note."""
    return json.dumps({"name": "noted", "note": note, "columns": 3, "rows": 8,
                       "start": ["A1", "B1", "C1"],
                       "holes": {"A3": 1, "C4": 2, "B5": 3, "A6": 4, "C7": 5, "B8": 6}})


def test_free_text_is_bounded_and_not_copied_into_the_lobby(sqlite_url: str) -> None:
    """A 64 KiB board note used to be accepted and copied into every lobby entry."""
    with make_client(sqlite_url, peer="127.0.0.1") as c:
        r = new_table(c, A, game="so-ein-zirkus", options={"board": board("n" * 60_000)})
        assert "more than the 4,096 a table may have" in problem(r, 422, "invalid")["detail"]
        note = "a note " * 200  # 1,400 characters: within the bound
        t = new_table(c, A, game="so-ein-zirkus", options={"board": board(note)}).json()
        assert note in c.get(f"/api/tables/{t['table']}").json()["options"]["board"]
        entry = next(x for x in c.get("/api/lobby").json()["tables"] if x["table"] == t["table"])
        assert len(entry["options"]["board"]) == 80 and entry["options"]["board"][-1] == "…"


def test_the_view_cache_is_bounded_in_bytes(sqlite_url: str) -> None:
    """It was keyed on ?since= and bounded only in entries: 480 MB from 4,196 requests."""
    with make_client(sqlite_url, peer="127.0.0.1", view_cache_bytes=20_000) as c:
        t = new_table(c, A, game="so-ein-zirkus").json()["table"]
        for since in range(200):
            assert c.get(f"/api/tables/{t}?since={since}").status_code == 200
        runtime = runtime_of(c)
        kept = sum(len(v) for v in runtime._views.values() if isinstance(v, str))
        assert 0 < kept <= runtime._views.nbytes <= 20_000


def in_memory(values: list[Any]) -> int:
    """Bytes the objects reachable from ``values`` take (``sys.getsizeof``; an object
    reached twice counted once)."""
    seen: set[int] = set()

    def size(o: Any) -> int:
        if id(o) in seen:
            return 0
        seen.add(id(o))
        n = sys.getsizeof(o)
        if isinstance(o, dict):
            n += sum(size(k) + size(v) for k, v in o.items())
        elif isinstance(o, list | tuple):
            n += sum(size(v) for v in o)
        return n

    return sum(size(v) for v in values)


def test_seat_parts_count_toward_the_view_cache_bytes(sqlite_url: str) -> None:
    """Seat parts (observation, legal actions) were kept by the 4,096, whatever their
    size: 120 of them took 0.6 MB here where the cache may hold 0.1 MB."""
    budget = 100_000
    limits = Limits(table_burst=1000, max_open_tables_per_client=1000)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits,
                     view_cache_bytes=budget) as c:
        runtime = runtime_of(c)
        for _ in range(40):
            made = new_table(c, A).json()
            t = made["table"]
            for token in [s["token"] for s in made["seats"]] + [None]:
                assert c.get(f"/api/tables/{t}", headers=by(A, token)).status_code == 200
        kept = runtime._views.values()
        assert in_memory(kept) <= budget
        assert in_memory(kept) <= runtime._views.nbytes <= budget  # charged no less
        parts = [v for v in kept if isinstance(v, SeatPart)]
        assert 5 <= len(parts) < len(kept)  # parts are kept, and texts beside them


def test_the_per_client_limits_hold_across_workers(db_url: str) -> None:
    """Two workers (two apps, each with its own memory) on one database, SQLite and
    PostgreSQL: what an address did through worker A counts on worker B. The buckets were
    in each worker's memory, so a client spread over N workers had N times every limit."""
    limits = Limits(table_burst=2, tables_per_hour=1, join_burst=1, joins_per_hour=1,
                    new_player_burst=1, new_players_per_hour=1, chat_burst=1,
                    chat_per_minute=1)
    with make_client(db_url, peer="127.0.0.1", limits=limits) as a, \
            make_client(db_url, peer="127.0.0.1", limits=limits) as b:
        made = [new_table(a, A).json() for _ in range(2)]
        assert "one address may create 2 tables at once" in limited(new_table(b, A))["detail"]
        assert new_table(b, B).status_code == 201  # another address still can
        # Seats taken: joining through A, then claiming through B.
        joined = a.post(f"/api/tables/{made[0]['table']}/join", headers=by(C))
        assert joined.status_code == 200
        key = b.post("/api/players", json={"name": "Cleo"}, headers=by(C)).json()["key"]
        t, tokens = made[1]["table"], [s["token"] for s in made[1]["seats"]]
        body = limited(b.post(f"/api/tables/{t}/claim", json={"token": tokens[1]},
                              headers=by(C, key)))
        assert "one address may take 1 seats at once" in body["detail"]
        # New identities: the one made through B counts on A.
        limited(a.post("/api/players", json={"name": "Dora"}, headers=by(C)))
        # Chat, per seat (from another address) and per address (from another seat).
        say = {"text": "hello"}
        assert a.post(f"/api/tables/{t}/chat", json=say, headers=by(A, tokens[0])
                      ).status_code == 201
        limited(b.post(f"/api/tables/{t}/chat", json=say, headers=by(B, tokens[0])))
        limited(b.post(f"/api/tables/{t}/chat", json=say, headers=by(A, tokens[1])))
        other = joined.json()  # another seat, from another address
        assert b.post(f"/api/tables/{other['table']}/chat", json=say,
                      headers=by(B, other["token"])).status_code == 201


def test_a_table_expired_and_deleted_in_one_sweep_is_not_announced(sqlite_url: str) -> None:
    """After a long downtime one sweep expires a table nobody joined and deletes it at once
    (its last change is past the retention): it was announced as changed, and loading it to
    announce it failed the whole sweep."""
    engine = make_engine(sqlite_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), Settings(db_url=sqlite_url))
    made = master.create(TableSpec("scout", 2, wait=True))
    with engine.connect().execution_options(write=True) as conn:
        conn.execute(update(tables).where(tables.c.id == made.table_id)
                     .values(created_at=1.0, updated_at=1.0))
        conn.commit()
    assert made.table_id not in master.sweep()
    with pytest.raises(errors.NotFound):
        master.load(made.table_id)


class StuckSocket:
    """A WebSocket whose client stopped reading: its buffers are full, so a send waits (as
    uvicorn's does until the transport drains)."""

    def __init__(self) -> None:
        self.sent = 0
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        import asyncio

        self.sent += 1
        await asyncio.sleep(30)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code


def test_a_websocket_that_stops_reading_holds_up_nobody(sqlite_url: str) -> None:
    """Regression: a view went to a table's sockets one after another, each send awaited
    until its client took it. One spectator that opened a socket and never read (its
    buffers filled by a few thousand refused messages) held every later move of the table:
    the mover's answer, every other socket's view and the bots waited for it forever. Now
    a send that has to wait goes on in a task of its own (``Runtime.deliver``): the move is
    answered and the others get their views while the stuck sends still wait, and the
    watchdog drops those sockets once they waited ``ws_send_seconds`` (closed 4408)."""
    import time as clock

    from bigtop.server.runtime import Connection

    with make_client(sqlite_url, limits=Limits(ws_send_seconds=60.0)) as c:
        made = c.post("/api/tables", json={"game": "scout", "players": 2}).json()
        t, tokens = made["table"], [s["token"] for s in made["seats"]]
        for token in tokens:  # both seats taken (their arrivals are broadcast too)
            c.get(f"/api/tables/{t}", headers=auth(token))
        runtime = runtime_of(c)
        stuck = [StuckSocket() for _ in range(3)]
        with c.websocket_connect(f"/api/tables/{t}/ws") as spectator:
            spectator.receive_json()
            for ws in stuck:
                runtime.add(Connection(ws, t, None, C))  # type: ignore[arg-type]
            for _ in range(2):
                view = c.get(f"/api/tables/{t}").json()
                mover = tokens[view["current_player"]]
                r = c.post(f"/api/tables/{t}/moves",
                           json={"version": view["version"], "index": 0}, headers=auth(mover))
                assert r.status_code == 200, r.text
                got = spectator.receive_json()
                while got["view"]["version"] < r.json()["version"]:
                    got = spectator.receive_json()
            # Answered and seen while the stuck sends still wait (a minute, in this test).
            assert all(ws.sent == 1 and ws.closed is None for ws in stuck)
            # Each stuck socket's first view waits for its client, its second for the first.
            assert sorted(id(conn.ws) for conn, _ in runtime._sending.values()) == sorted(
                id(ws) for ws in stuck for _ in range(2))
            c.portal.call(runtime._drop_stuck, clock.monotonic() + 61.0)  # type: ignore[union-attr]
            for _ in range(100):  # the cut tasks end and the closes go out
                if all(ws.closed == 4408 for ws in stuck) and not runtime._sending:
                    break
                c.portal.call(asyncio_sleep)  # type: ignore[union-attr]
            assert all(ws.closed == 4408 for ws in stuck) and runtime._sending == {}
            assert not any(conn.ws in stuck for conn in runtime.connections[t])
    assert Limits().ws_send_seconds > 0


async def asyncio_sleep() -> None:
    import asyncio

    await asyncio.sleep(0.01)


class QuickSocket:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        self.texts.append(text)


def test_a_stuck_send_is_cut_and_no_other_cancellation_is_swallowed(sqlite_url: str) -> None:
    """``Runtime.deliver`` and its watchdog: a send that goes through is done at once, no
    task made; one that waits goes on in a task of its own, which the watchdog cancels
    once it waited ``ws_send_seconds`` (its socket dropped, closed 4408, nothing more sent
    to it); a task cancelled by anyone else (a shutdown) is cancelled still; and a
    connection's own answer (``reply``) is cut the same way."""
    import asyncio

    from bigtop.server.runtime import Connection, Runtime

    engine = make_engine(sqlite_url)
    migrate(engine)
    settings = Settings(db_url=sqlite_url, limits=Limits(ws_send_seconds=5.0))
    runtime = Runtime(TableMaster(SqlStorage(engine), settings), settings)

    async def turn() -> None:
        for _ in range(3):
            await asyncio.sleep(0)

    async def scene() -> None:
        quick = Connection(QuickSocket(), "t", 0)  # type: ignore[arg-type]
        runtime.deliver(quick, runtime.write(quick, "a"))
        assert quick.ws.texts == ["a"]  # type: ignore[attr-defined]
        assert runtime._tasks == set() and runtime._sending == {}
        stuck = Connection(StuckSocket(), "t", 1)  # type: ignore[arg-type]
        runtime.add(stuck)
        runtime.deliver(stuck, runtime.write(stuck, "b"))
        await turn()
        [(task, (conn, start))] = runtime._sending.items()
        assert conn is stuck
        runtime._drop_stuck(start + 4.0)  # not yet
        assert not task.done() and not stuck.dropped
        runtime._drop_stuck(start + 5.5)
        await turn()
        assert task.done() and not task.cancelled()  # the watchdog's cancel, absorbed
        assert stuck.dropped and "t" not in runtime.connections
        assert stuck.ws.closed == 4408
        assert await runtime.write(stuck, "c") is False  # dropped: nothing more
        assert stuck.ws.sent == 1
        assert runtime._sending == {} and runtime._cut == set()
        # Someone else cancels a task whose send waits: not swallowed.
        other = Connection(StuckSocket(), "u", 0)
        runtime.deliver(other, runtime.write(other, "d"))
        await turn()
        [shutdown] = runtime._sending
        shutdown.cancel()
        await turn()
        assert shutdown.cancelled() and not other.dropped and runtime._sending == {}
        # A connection's own answer, awaited in its handler, is cut alike.
        mute = Connection(StuckSocket(), "v", 0)
        answer = asyncio.ensure_future(runtime.reply(mute, "pong"))
        await turn()
        [(_, (_, start))] = runtime._sending.items()
        runtime._drop_stuck(start + 6.0)
        assert await answer is False and mute.dropped

    asyncio.run(scene())
