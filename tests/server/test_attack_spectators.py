"""Spectators cannot cut a table's players off their live view. Every WebSocket of a table
counted toward one cap (``max_connections_per_table``), so strangers holding that many
spectator sockets (the table's id is in the lobby and every spectator link; 64 sockets are
two addresses' worth) had the seated player's own socket refused (4503): no live view, and
the seat shown away. Spectators and seats now have the cap each."""

from __future__ import annotations

import contextlib

import pytest
from starlette.websockets import WebSocketDisconnect

from bigtop.core.errors import BigtopError
from bigtop.core.registry import game_names, get_game
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


def test_one_seat_filling_a_table_does_not_keep_the_other_seats_out(sqlite_url: str) -> None:
    """Every seat's sockets counted toward one cap for the table's seats, so one player
    (a stranger who took a listed table's free seat, say) opening that many sockets on
    their own seat (64: two addresses' worth of ``max_sockets_per_client``) had every other
    player's socket refused (4503). A seat holds at most ``max_connections_per_seat``, and
    that many for every seat of the largest table fits the table's cap."""
    limits = Limits(max_connections_per_table=4, max_connections_per_seat=2)
    with make_client(sqlite_url, limits=limits) as c:
        made = create(c, seats=[{"kind": "human"}, {"kind": "human"}])
        t = made["table"]
        tokens = [s["token"] for s in made["seats"]]
        with contextlib.ExitStack() as held:
            for _ in range(2):  # the seat's own slots, both taken
                ws = held.enter_context(c.websocket_connect(f"/api/tables/{t}/ws",
                                                            headers=auth(tokens[0])))
                assert ws.receive_json()["type"] == "view"
            with c.websocket_connect(f"/api/tables/{t}/ws", headers=auth(tokens[0])) as more:
                refused = more.receive_json()["problem"]
                assert refused["status"] == 503
                assert "seat 0 of table" in refused["detail"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    more.receive_json()
                assert closed.value.code == 4503
            for _ in range(2):  # the other seat is let in, up to its own
                ws = held.enter_context(c.websocket_connect(f"/api/tables/{t}/ws",
                                                            headers=auth(tokens[1])))
                first = ws.receive_json()
                assert first["type"] == "view" and first["view"]["seat"] == 1


def test_every_seat_of_the_largest_table_fits_the_tables_cap() -> None:
    """The defaults keep the promise above: a seat at its own cap never finds the table's
    full, whatever the game."""
    limits = Limits()
    largest = max(get_game(name).max_players for name in game_names())
    assert largest * limits.max_connections_per_seat <= limits.max_connections_per_table
    with pytest.raises(BigtopError, match="max_connections_per_seat must be above 0"):
        Limits(max_connections_per_seat=0)  # no seat could ever connect
