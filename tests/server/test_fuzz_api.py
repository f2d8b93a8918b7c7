"""Hostile requests to the API and hostile WebSocket messages (the fuzz brief, part 2): random
JSON, wrong types, huge numbers, unicode, unknown fields, wrong content types, deep nesting,
binary frames. Each must be answered with a 4xx problem (``application/problem+json``, a
one-line detail) or a WebSocket ``error`` message, the connection stays open, and the table
is unchanged (its version and log).

Bounded: hypothesis with the profiles of ``tests/core/test_fuzz.py`` (25 derandomized
examples a property in ``make test``) on one in-process app.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from tests.core.test_fuzz import fuzz
from tests.server.conftest import make_client
from tests.server.test_api import auth

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8) | st.sampled_from([2**63, -(2**63), 10**30, "é" * 300, "\u0000",
                                             "\U0001f3aa", "0", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=8)
RAW = st.sampled_from([
    b"", b"{", b"nul", b"\xff\xfe{}", b'{"version": NaN}', b'{"version": 1e400}',
    b'{"version": 0, "version": 0}', b"[" * 40 + b"]" * 40, b'{"a": "\\ud800"}',
    b'{"version": 0, "index": 99999999999999999999999}', "{\"version\": 0, \"é\": 1}".encode(),
])
CONTENT_TYPES = st.sampled_from(["application/json", "text/plain", "application/x-www-form-"
                                 "urlencoded", "multipart/form-data", None])


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, str]]:
    """One app with a 2-player SCOUT table: (client, table id, seat 0's token)."""
    db = tmp_path_factory.mktemp("fuzz") / "tables.sqlite3"
    with make_client(f"sqlite:///{db}") as c:
        made = c.post("/api/tables", json={"game": "scout", "players": 2}).json()
        yield c, made["table"], made["seats"][0]["token"]


def table_record(c: TestClient, table: str) -> tuple[int, str]:
    view = c.get(f"/api/tables/{table}").json()
    return view["version"], json.dumps(view["log"])


def is_problem(r: Any) -> None:
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/problem+json"), r.text[:300]
    detail = r.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail, detail
    assert "Traceback" not in r.text


def body_of(data: st.DataObject, good: dict[str, Any]) -> bytes:
    """Random JSON, raw bytes, or a good body with one field replaced, dropped or added."""
    shape = data.draw(st.integers(0, 3))
    if shape == 0:
        return json.dumps(data.draw(JSON)).encode()
    if shape == 1:
        return data.draw(RAW)
    body = dict(good)
    key = data.draw(st.sampled_from([*sorted(good), "zz", "é"]))
    if shape == 2:
        body[key] = data.draw(JSON)
    else:
        body.pop(key, None)
    return json.dumps(body).encode()


def test_fuzz_hostile_move_bodies(app: tuple[TestClient, str, str]) -> None:
    c, table, token = app
    before = table_record(c, table)

    @fuzz
    @given(st.data())
    def prop(data: st.DataObject) -> None:
        # Two faults, a future version and no such index: one change leaves one of them.
        good = {"version": before[0] + 1, "index": 10_000}
        body = body_of(data, good)
        headers = {"authorization": f"Bearer {token}"}
        content_type = data.draw(CONTENT_TYPES)
        if content_type is not None:
            headers["content-type"] = content_type
        is_problem(c.post(f"/api/tables/{table}/moves", content=body, headers=headers))
        assert table_record(c, table) == before

    prop()


def test_fuzz_hostile_create_and_join_bodies(app: tuple[TestClient, str, str]) -> None:
    c, table, _ = app
    before = table_record(c, table)
    other = c.post("/api/tables", json={"game": "scout", "players": 5}).json()["table"]

    @fuzz
    @given(st.data())
    def prop(data: st.DataObject) -> None:
        good = {"game": "scout", "players": 2, "options": {"rounds": 1}, "seats": [
            {"kind": "bot", "level": "random"}, {"kind": "human"}], "takeover_after": 5.0}
        body = body_of(data, good)
        r = c.post("/api/tables", content=body, headers={"content-type": "application/json"})
        if r.status_code != 201:  # still valid: a field dropped takes its default
            is_problem(r)
        seat = data.draw(JSON)
        r = c.post(f"/api/tables/{other}/join", json={"seat": seat}
                   if data.draw(st.booleans()) else seat)
        if r.status_code != 200:  # a free seat taken
            is_problem(r)

    prop()
    assert table_record(c, table) == before
    assert c.get("/api/lobby").status_code == 200


def test_fuzz_hostile_claim_start_and_undo_bodies(sqlite_url: str) -> None:
    """Invites: a claim of a seat another identity holds, an exchange of an invite that claim
    ended, a start or a listing by a guest, a take-back at a table that waits: whatever the
    body, a 4xx problem and the table as it was (an app of its own: the module's has used up
    its address's tables)."""
    with make_client(sqlite_url) as c:
        _fuzz_claim_start_and_undo(c)


def _fuzz_claim_start_and_undo(c: TestClient) -> None:
    keys = [c.post("/api/players", json={"name": n}).json()["key"] for n in ("A", "B", "C")]
    made = c.post("/api/tables", json={"game": "scout", "players": 3, "seats": [
        {}, {"invite": "B"}, {"invite": "C"}]}, headers=auth(keys[0])).json()
    t, ben_token = made["table"], made["seats"][1]["token"]
    c.post(f"/api/tables/{t}/claim", json={"token": ben_token}, headers=auth(keys[1]))

    def record() -> Any:  # presence may change meanwhile (a slow machine): the rest may not
        view = c.get(f"/api/tables/{t}").json()
        for seat in view["seats"]:
            seat.pop("presence")
        return view

    before = record()

    @fuzz
    @given(st.data())
    def prop(data: st.DataObject) -> None:
        content_type = data.draw(CONTENT_TYPES)
        for method, path, good, key in (
                ("POST", "/claim", {"token": ben_token}, keys[2]),
                ("POST", "/accept", {"token": ben_token}, keys[2]),  # ended by B's claim
                ("POST", "/start", {"level": "easy"}, keys[1]),
                ("POST", "/undo", {}, keys[0]), ("POST", "/undo/accept", {}, keys[1]),
                ("PATCH", "", {"listed": True}, keys[1])):  # listing, by a guest
            headers = auth(key)
            if content_type is not None:
                headers["content-type"] = content_type
            is_problem(c.request(method, f"/api/tables/{t}{path}",
                                 content=body_of(data, good), headers=headers))
        assert record() == before

    prop()


def test_fuzz_hostile_query_strings(app: tuple[TestClient, str, str]) -> None:
    c, table, token = app
    before = table_record(c, table)

    @fuzz
    @given(st.sampled_from(["replay?at=", "?since=", "picture.svg?token=", "rules?x="]),
           st.sampled_from(["-1", "1e400", "99999999999999999999999", "x", "", "%00", "é",
                            "0.5", "true", "[]", "%ff%fe"]))
    def prop(path: str, value: str) -> None:
        sep = "" if path.startswith("?") else "/"
        r = c.get(f"/api/tables/{table}{sep}{path}{value}",
                  headers={"authorization": f"Bearer {token}"})
        if r.status_code != 200:
            is_problem(r)

    prop()
    assert table_record(c, table) == before


@pytest.mark.parametrize("value", ["9223372036854775808", "99999999999999999999999"])
@pytest.mark.parametrize("path", ["?since=", "/replay?at=", "/chat?after="])
def test_a_whole_number_in_a_query_past_64_bits_is_a_422(
        app: tuple[TestClient, str, str], path: str, value: str) -> None:
    """Regression: ``GET …/chat?after=2**63`` reached the database, whose driver could not
    bind it (OverflowError: a 500). Every whole number in a query is at most 2**63 - 1."""
    c, table, token = app
    r = c.get(f"/api/tables/{table}{path}{value}", headers={"authorization": f"Bearer {token}"})
    is_problem(r)
    assert r.status_code == 422 and "9223372036854775807" in r.json()["detail"]


@pytest.mark.parametrize("since", ["-1", "x", "0.5", "9223372036854775808"])
def test_a_websocket_with_a_bad_query_is_told_why(app: tuple[TestClient, str, str],
                                                  since: str) -> None:
    """Regression: a WebSocket whose ``?since=`` was no version (negative, not a number,
    past 2**63 - 1) was refused in the handshake with a bare HTTP 403: no ``error`` message
    saying what was wrong, unlike every other refused socket (an ``error`` message, then
    close 4000 + the status)."""
    from starlette.websockets import WebSocketDisconnect

    c, table, token = app
    with c.websocket_connect(f"/api/tables/{table}/ws?since={since}",
                             headers={"authorization": f"Bearer {token}"}) as ws:
        told = ws.receive_json()
        assert told["type"] == "error" and told["problem"]["status"] == 422, told
        assert told["problem"]["type"] == "/problems/invalid"
        assert told["problem"]["detail"].startswith("query.since: "), told
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4422


def test_fuzz_hostile_websocket_messages_get_an_error_and_keep_the_connection(
        app: tuple[TestClient, str, str]) -> None:
    c, table, token = app
    before = table_record(c, table)
    with c.websocket_connect(f"/api/tables/{table}/ws", headers=auth(token)) as ws:
        assert ws.receive_json()["type"] == "view"

        @fuzz
        @given(st.data())
        def prop(data: st.DataObject) -> None:
            good = {"type": "move", "version": before[0] + 1, "index": 10_000}
            raw = body_of(data, good)
            if data.draw(st.booleans()):
                ws.send_bytes(raw)
            else:
                ws.send_text(raw.decode("utf-8", "replace"))
            answer = ws.receive_json()
            if answer["type"] != "pong":  # {"type": "ping", ...} is a ping whatever else
                assert answer["type"] == "error", answer
                detail = answer["problem"]["detail"]
                assert detail and "\n" not in detail and len(detail) < 500, detail
            ws.send_text('{"type": "ping"}')
            assert ws.receive_json() == {"type": "pong"}  # still open

        prop()
    assert table_record(c, table) == before


def test_a_binary_websocket_frame_is_read_like_text(app: tuple[TestClient, str, str]) -> None:
    """Regression: a binary frame made ``receive_text`` raise KeyError('text'), which closed
    the connection with no error message."""
    c, table, token = app
    with c.websocket_connect(f"/api/tables/{table}/ws", headers=auth(token)) as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_bytes(b'{"type": "ping"}')
        assert ws.receive_json() == {"type": "pong"}
        ws.send_bytes(b"\xff\xfe")
        answer = ws.receive_json()
        assert answer["type"] == "error" and "not UTF-8" in answer["problem"]["detail"]
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json() == {"type": "pong"}


def test_the_module_table_is_a_fresh_scout_table(app: tuple[TestClient, str, str]) -> None:
    """The hostile moves above are refused for their form, not because the game is over."""
    c, table, token = app
    view = c.get(f"/api/tables/{table}", headers={"authorization": f"Bearer {token}"}).json()
    assert view["status"] == "playing" and view["legal_actions"]


@pytest.mark.parametrize("extra", [{"seat": 1}, {"index": 0, "id": None, "x": 0},
                                   {"index": True}, {"index": 0.0}])
def test_a_websocket_move_is_read_as_strictly_as_over_http(sqlite_url: str,
                                                           extra: dict[str, Any]) -> None:
    """Regression: a WebSocket move was not checked against the move's schema: a field no
    move has (``"seat": 1``, as if to move for another seat) was dropped silently and the
    move played, for the socket's own seat, where ``POST …/moves`` refuses it (422). Now
    both refuse it alike and the table does not change."""
    with make_client(sqlite_url) as c:
        made = c.post("/api/tables", json={"game": "scout", "players": 2}).json()
        t, token = made["table"], made["seats"][0]["token"]
        view = c.get(f"/api/tables/{t}", headers={"authorization": f"Bearer {token}"}).json()
        body = {"version": view["version"], "index": 0, **extra}
        seat = view["current_player"]
        mover = {"authorization": f"Bearer {made['seats'][seat]['token']}"}
        before = table_record(c, t)
        over_http = c.post(f"/api/tables/{t}/moves", json=body, headers=mover)
        is_problem(over_http)
        with c.websocket_connect(f"/api/tables/{t}/ws", headers=mover) as ws:
            assert ws.receive_json()["type"] == "view"
            ws.send_json({"type": "move", **body})
            answer = ws.receive_json()
            assert answer["type"] == "error", answer
            assert answer["problem"]["status"] == over_http.status_code == 422
            assert answer["problem"]["detail"] == over_http.json()["detail"]
        assert table_record(c, t) == before



def zirkus_board(name: str, *, ascii: bool = True) -> str:
    """A So ein Zirkus board as JSON text (a rule option), named ``name`` (``ascii``: any
    other character escaped in that text, as ``\\uXXXX``)."""
    return json.dumps({"name": name, "columns": 3, "rows": 4, "start": ["A1", "B1", "C1"],
                       "holes": {"A3": 6}}, ensure_ascii=ascii)


def test_a_lone_surrogate_in_any_string_is_refused_at_the_door(sqlite_url: str) -> None:
    """Regression: JSON may escape half of a UTF-16 pair (``"\\ud800"``), which is no
    Unicode text: nothing holding it can be written as UTF-8. Names and chat refused it,
    but free text in a table's options was taken: a So ein Zirkus board named so in the
    body was a 500 (the options' size could not be counted), and a board whose own JSON
    text escaped one was stored (201), after which every view of the table, HTTP and
    WebSocket, and its picture were a 500. Now either is refused (400 or 422) before
    anything is stored; a whole pair (an emoji) is text as before."""
    def create(board: str) -> Any:
        return c.post("/api/tables", content=json.dumps(
            {"game": "so-ein-zirkus", "players": 2, "options": {"board": board}}).encode(),
            headers={"content-type": "application/json"})

    with make_client(sqlite_url) as c:
        in_body = create(zirkus_board("x\ud800", ascii=False))  # the body escapes it
        assert '\\ud800' in in_body.request.content.decode()
        is_problem(in_body)
        assert in_body.status_code == 400 and "surrogate" in in_body.json()["detail"]
        in_board = create(zirkus_board("x\ud800"))  # the board's own text escapes it
        assert '\\\\ud800' in in_board.request.content.decode()
        is_problem(in_board)
        assert in_board.status_code == 422 and "surrogate" in in_board.json()["detail"]
        assert c.get("/api/lobby").json()["tables"] == []
        for ascii in (True, False):  # a whole pair, escaped in the board or in the body
            board = zirkus_board("x\U0001f3aa", ascii=ascii)
            made = create(board)
            assert made.status_code == 201, made.text
            t = made.json()["table"]
            assert c.get(f"/api/tables/{t}").json()["options"]["board"] == board
            assert c.get(f"/api/tables/{t}/picture.svg").status_code == 200
        with c.websocket_connect(f"/api/tables/{t}/ws") as ws:
            assert ws.receive_json()["type"] == "view"
            ws.send_text('{"type": "ping", "x": "\\udfff"}')
            told = ws.receive_json()
            assert told["type"] == "error" and "surrogate" in told["problem"]["detail"]


@pytest.mark.parametrize("name", ["a\x01b", "\x00", "a\ufffeb", "<b>&\"'</b>"])
def test_the_picture_is_well_formed_whatever_the_board_is_named(sqlite_url: str,
                                                                name: str) -> None:
    """Regression: a So ein Zirkus picture draws the board's name, free text of the table's
    options; a character XML does not allow (a control character, U+FFFE) made the SVG
    ill-formed, a broken picture for everyone at that table. Such a name is refused now
    (422, nothing stored: core/limits.py's text_problem, as for a person's name; the picture
    still draws any such character as U+FFFD); markup is escaped as before."""
    import xml.dom.minidom

    with make_client(sqlite_url) as c:
        made = c.post("/api/tables", json={"game": "so-ein-zirkus", "players": 2,
                                           "options": {"board": zirkus_board(name)}})
        if "<" not in name:
            assert made.status_code == 422, made.text
            assert "no control characters" in made.json()["detail"]
            assert c.get("/api/lobby").json()["tables"] == []
            return
        assert made.status_code == 201, made.text
        svg = c.get(f"/api/tables/{made.json()['table']}/picture.svg")
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg")
        xml.dom.minidom.parseString(svg.content)  # well-formed
        assert "<b>" not in svg.text
