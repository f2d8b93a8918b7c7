"""Spectators cannot cut a table's players off their live view. Every WebSocket of a table
counted toward one cap (``max_connections_per_table``), so strangers holding that many
spectator sockets (the table's id is in the lobby and every spectator link; 64 sockets are
two addresses' worth) had the seated player's own socket refused (4503): no live view, and
the seat shown away. Spectators and seats now have the cap each."""

from __future__ import annotations

import contextlib

from starlette.websockets import WebSocketDisconnect

from bigtop.server import Limits
from tests.server.conftest import make_client
from tests.server.test_api import auth, create


def test_spectators_filling_a_table_do_not_keep_its_seats_out(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(max_connections_per_table=3)) as c:
        made = create(c, seats=[{"kind": "human"}, {"kind": "human"}])
        t = made["table"]
        tokens = [s["token"] for s in made["seats"]]
        with contextlib.ExitStack() as held:
            for _ in range(3):  # the spectators' slots, all taken
                held.enter_context(c.websocket_connect(f"/api/tables/{t}/ws")).receive_json()
            with c.websocket_connect(f"/api/tables/{t}/ws") as more:
                refused = more.receive_json()
                assert refused["type"] == "error" and refused["problem"]["status"] == 503
                assert "spectators" in refused["problem"]["detail"]
            # Each seat still gets its live view, up to the cap of its own.
            for k in (0, 1, 0):
                ws = held.enter_context(c.websocket_connect(f"/api/tables/{t}/ws",
                                                            headers=auth(tokens[k])))
                first = ws.receive_json()
                assert first["type"] == "view" and first["view"]["seat"] == k
            with c.websocket_connect(f"/api/tables/{t}/ws", headers=auth(tokens[1])) as more:
                assert more.receive_json()["problem"]["status"] == 503
                try:
                    more.receive_json()
                except WebSocketDisconnect as closed:
                    assert closed.code == 4503
