"""A WebSocket ping message is ``{"type": "ping"}`` alone. Any other field was ignored, so a
ping could carry up to ``max_ws_message_bytes`` of JSON that costs the most to parse (4,300
keys: about 2 ms of the worker's CPU each, a plain ping 2 µs) and still be answered, never
refused, so it took none of its address's read budget: one address's 32 sockets, each
within its 20 messages a second, kept a worker's core busy (a raw client sending the same
frame over and over: 57% of a core on the loaded test machine, the server behind). Such a
ping is refused now, and a refused message takes a read token of its address."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from bigtop.server import Limits
from tests.server.conftest import make_client
from tests.server.test_api import create


def test_a_ping_with_more_than_its_type_is_refused(sqlite_url: str) -> None:
    limits = Limits(reads_per_minute=1, read_burst=4, heavy_read_tokens=1)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        t = create(c)["table"]
        with c.websocket_connect(f"/api/tables/{t}/ws") as ws:  # 1 token
            ws.receive_json()
            for _ in range(5):  # a ping alone takes none
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
            heavy = {"type": "ping", **{f"k{i}": i for i in range(400)}}
            for _ in range(3):  # 3 tokens: none left
                ws.send_json(heavy)
                p = ws.receive_json()["problem"]
                assert p["status"] == 400 and "a ping has no other field" in p["detail"]
            ws.send_json(heavy)
            assert ws.receive_json()["problem"]["status"] == 400
            assert ws.receive_json()["problem"]["status"] == 429
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
