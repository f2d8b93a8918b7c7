"""No free text people show each other may hold a bidirectional control mark (U+202E and
its kin reorder what is shown around them): names (new, renamed, invited), chat, and a So
ein Zirkus board's name and note are refused with 422 (core/limits.py ``BIDI_CONTROLS``)."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from bigtop.core.limits import BIDI_CONTROLS
from tests.server.test_api import auth, create, problem
from tests.server.test_limits import board

MARKS = sorted(BIDI_CONTROLS)


@pytest.mark.parametrize("mark", [MARKS[0], "\u200f", "\u202e", "\u2067"])
def test_no_free_text_may_hold_a_bidirectional_control_mark(client: TestClient,
                                                            mark: str) -> None:
    """Names (new, renamed, invited), chat, and a So ein Zirkus board's name and note."""
    bad = f"ab{mark}cd"
    detail = problem(client.post("/api/players", json={"name": bad}), 422, "invalid")["detail"]
    assert "bidirectional" in detail
    key = client.post("/api/players", json={"name": "Anna"}).json()["key"]
    problem(client.patch("/api/players/me", json={"name": bad}, headers=auth(key)), 422,
            "invalid")
    assert client.get("/api/players/me", headers=auth(key)).json()["name"] == "Anna"
    r = client.post("/api/tables", json={"game": "scout", "players": 2,
                                         "seats": [{"kind": "human", "invite": bad},
                                                   {"kind": "human"}]})
    assert "bidirectional" in problem(r, 422, "invalid")["detail"]
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    t, tok = made["table"], made["seats"][0]["token"]
    problem(client.post(f"/api/tables/{t}/chat", json={"text": bad}, headers=auth(tok)),
            422, "invalid")
    assert client.get(f"/api/tables/{t}/chat", headers=auth(tok)).json()["messages"] == []
    good = json.loads(board("a note"))
    for field in ("name", "note"):
        r = client.post("/api/tables", json={
            "game": "so-ein-zirkus", "players": 2,
            "options": {"board": json.dumps({**good, field: bad})}})
        assert "bidirectional" in problem(r, 422, "invalid")["detail"], field


@pytest.mark.parametrize("blank", ["\u200b", "\ufeff\u200b", "\u3164", "\u0301", "\u2800 \u200d"])
def test_a_name_or_chat_line_that_shows_nothing_is_refused(client: TestClient,
                                                           blank: str) -> None:
    """Zero-width spaces, a byte-order mark, a Hangul filler, a lone accent: a seat or a
    chat line that looks empty. Refused with 422, nothing stored."""
    detail = problem(client.post("/api/players", json={"name": blank}), 422,
                     "invalid")["detail"]
    assert "nothing visible" in detail
    key = client.post("/api/players", json={"name": "Anna"}).json()["key"]
    problem(client.patch("/api/players/me", json={"name": blank}, headers=auth(key)), 422,
            "invalid")
    assert client.get("/api/players/me", headers=auth(key)).json()["name"] == "Anna"
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    t, tok = made["table"], made["seats"][0]["token"]
    problem(client.post(f"/api/tables/{t}/chat", json={"text": blank}, headers=auth(tok)),
            422, "invalid")
    assert client.get(f"/api/tables/{t}/chat", headers=auth(tok)).json()["messages"] == []
    assert client.post("/api/players", json={"name": "e\u0301"}).status_code == 201


@pytest.mark.parametrize("char", ["\x00", "\n", "\x1b", "\u2028", "\ue000"])
def test_a_boards_name_or_note_holds_no_control_character(client: TestClient,
                                                          char: str) -> None:
    """As a name or a chat line may not (model.plain_text): a NUL, a line break, an escape,
    a line separator, a private-use character in a So ein Zirkus board's name or note was
    taken (a NUL cannot be written into a picture's XML). Refused with 422, no table."""
    good = json.loads(board("a note"))
    for field in ("name", "note"):
        r = client.post("/api/tables", json={
            "game": "so-ein-zirkus", "players": 2,
            "options": {"board": json.dumps({**good, field: f"ab{char}cd"})}})
        assert "no control characters" in problem(r, 422, "invalid")["detail"], field
    assert client.get("/api/lobby").json()["tables"] == []
