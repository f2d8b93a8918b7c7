"""Every endpoint and every error case of the HTTP API (on SQLite, through the ASGI app)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bigtop.agents.levels import ABOUT, ALIASES, BOT_NAMES
from bigtop.core.registry import game_names, new_state
from bigtop.games import teaching
from bigtop.games.scout import render_svg
from bigtop.server import Limits
from bigtop.server.schemas import TableView
from tests.server.conftest import drawn_seed, make_client


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def create(c: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "scout")
    body.setdefault("players", 2)
    with drawn_seed(body.pop("seed", 7)):  # a seed no client may choose at such a table
        r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def problem(r: Any, status: int, slug: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = r.json()
    assert body["type"] == f"/problems/{slug}" and body["status"] == status
    assert body["title"] and body["detail"]
    return body


def wait_for(c: TestClient, table: str, cond: Any, token: str | None = None,
             timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        view: dict[str, Any] = c.get(f"/api/tables/{table}",
                                     headers=auth(token) if token else {}).json()
        if cond(view):
            return view
        assert time.monotonic() < deadline, f"timed out; last view {view['version']}"
        time.sleep(0.05)


def test_games_lists_every_game_options_and_bot_levels(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert [g["name"] for g in data["games"]] == game_names()
    scout = data["games"][0]
    assert scout["min_players"] == 2 and scout["max_players"] == 5
    rounds = next(o for o in scout["options"] if o["name"] == "rounds")
    assert rounds["type"] == "int" and rounds["doc"]
    assert data["bot_levels"] == list(BOT_NAMES)
    pictures = {g["name"]: g["picture"] for g in data["games"]}
    assert pictures["tricky-landing"] is True
    assert data["limits"]["max_body_bytes"] == Limits().max_body_bytes


def test_games_describe_each_bot_level_and_mark_the_yardsticks(client: TestClient) -> None:
    """A newcomer choosing a bot sees what each level is; heuristic and ismcts are
    yardsticks, not steps of the ladder. The words are levels.py's, the one source."""
    docs = client.get("/api/games").json()["bot_level_docs"]
    assert [d["name"] for d in docs] == list(BOT_NAMES)
    assert {d["name"]: d["about"] for d in docs} == ABOUT
    assert [d["name"] for d in docs if d["yardstick"]] == list(ALIASES) == ["heuristic", "ismcts"]
    assert all(d["about"] for d in docs)


def test_create_gives_tokens_only_for_people_and_links(client: TestClient) -> None:
    made = create(client, players=3, seats=[{"kind": "human"}, {"kind": "human"},
                                            {"kind": "bot", "level": "random"}])
    people = [s for s in made["seats"] if s["kind"] == "human"]
    assert len({s["token"] for s in people}) == 2
    assert all(len(s["token"]) >= 22 for s in people)  # 128 bits, URL-safe
    assert made["seats"][2]["token"] is None and made["seats"][2]["invite_url"] is None
    assert people[0]["invite_url"] == f"/?table={made['table']}#token={people[0]['token']}"
    assert made["spectator_url"] == f"/?table={made['table']}"
    # Tokens are stored hashed: the public view and the lobby never show them.
    for text in (client.get(f"/api/tables/{made['table']}").text,
                 client.get("/api/lobby").text):
        assert all(s["token"] not in text for s in people)


def test_create_refuses_bad_requests(client: TestClient) -> None:
    cases = [
        ({"game": "chess", "players": 2}, "unknown game 'chess'"),
        ({"game": "scout", "players": 9}, "SCOUT takes 2 to 5 players, got 9"),
        ({"game": "scout", "players": 2, "options": {"colour": 1}}, "unknown rule option"),
        ({"game": "scout", "players": 2, "seats": [{"kind": "human"}]}, "1 seats given"),
        ({"game": "scout", "players": 2, "seats": [{"kind": "bot", "level": "god"}] * 2},
         "unknown bot level 'god'"),
        ({"game": "scout", "players": 2, "seed": -1}, "seed must be"),
        ({"game": "scout", "players": 2, "takeover_after": 0.01}, "takeover_after must be"),
        ({"game": "scout", "players": 2, "board": "/etc/passwd"}, "board"),
    ]
    for body, message in cases:
        r = client.post("/api/tables", json=body)
        assert message in problem(r, 422, r.json()["type"].split("/")[-1])["detail"], body
    problem(client.post("/api/tables", content=b"{oops",
                        headers={"content-type": "application/json"}), 400, "bad-request")


def test_view_as_seat_and_as_spectator(client: TestClient) -> None:
    made = create(client)
    t, tok0, tok1 = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
    mine = client.get(f"/api/tables/{t}", headers=auth(tok0)).json()
    assert mine["seat"] == 0 and mine["current_player"] == 0 and mine["legal_actions"]
    # views are sent as built: they must match the documented model exactly
    assert TableView.model_validate(mine).model_dump(mode="json") == mine
    first = mine["legal_actions"][0]
    assert set(first) == {"index", "id", "action", "text"}
    # A seat's own options speak to it ("You turn your hand upside down"), not of it as
    # the log does ("P0 turns their hand upside down").
    assert all(e["text"].startswith("You ") and "P0" not in e["text"]
               for e in mine["legal_actions"]), mine["legal_actions"]
    theirs = client.get(f"/api/tables/{t}", headers=auth(tok1)).json()
    assert theirs["seat"] == 1 and theirs["legal_actions"] == []
    public = client.get(f"/api/tables/{t}").json()
    assert public["seat"] is None and public["legal_actions"] == []
    assert mine["observation"] != public["observation"]  # P0 sees their own hand
    assert public["version"] == 0 and public["status"] == "playing"
    problem(client.get("/api/tables/nosuchtable"), 404, "not-found")
    problem(client.get(f"/api/tables/{t}", headers=auth("not-a-token")), 403, "wrong-token")
    other = create(client)
    problem(client.get(f"/api/tables/{t}", headers=auth(other["seats"][0]["token"])),
            403, "wrong-token")


def test_moves_and_every_refusal(client: TestClient) -> None:
    made = create(client)
    t, tok0, tok1 = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
    url = f"/api/tables/{t}/moves"
    view = client.get(f"/api/tables/{t}", headers=auth(tok0)).json()
    action = view["legal_actions"][0]
    # spectator, wrong token, another seat's token (not their turn)
    problem(client.post(url, json={"version": 0, "index": 0}), 401, "seat-token-required")
    problem(client.post(url, json={"version": 0, "index": 0}, headers=auth("x" * 22)),
            403, "wrong-token")
    body = problem(client.post(url, json={"version": 0, "index": 0}, headers=auth(tok1)),
                   409, "not-your-turn")
    assert "P0's turn" in body["detail"]
    # malformed: bad JSON, no action, two ways at once, wrong types, unknown fields
    problem(client.post(url, content=b"[1,", headers={**auth(tok0),
                                                      "content-type": "application/json"}),
            400, "bad-request")
    problem(client.post(url, json={"version": 0}, headers=auth(tok0)), 422, "invalid")
    problem(client.post(url, json={"version": 0, "index": 0, "id": 3}, headers=auth(tok0)),
            422, "invalid")
    problem(client.post(url, json={"version": "0", "index": 0}, headers=auth(tok0)),
            422, "invalid")
    problem(client.post(url, json={"version": 0, "index": 0, "x": 1}, headers=auth(tok0)),
            422, "invalid")
    body = problem(client.post(url, json={"version": 0, "action": {"type": "fly"}},
                               headers=auth(tok0)), 422, "illegal-action")
    assert "fly" in body["detail"]
    problem(client.post(url, json={"version": 0, "index": 999}, headers=auth(tok0)),
            422, "illegal-action")
    problem(client.post(url, json={"version": 0, "id": 10**9}, headers=auth(tok0)),
            422, "illegal-action")
    # an illegal but well-formed action: the engine's message comes through
    legal = {str(a["action"]) for a in view["legal_actions"]}
    shows = [{"type": "show", "start": s, "length": n} for s in range(12) for n in (1, 2, 3)]
    bad = next(a for a in shows if str(a) not in legal)
    problem(client.post(url, json={"version": 0, "action": bad}, headers=auth(tok0)),
            422, "illegal-action")
    # nothing changed so far
    assert client.get(f"/api/tables/{t}").json()["version"] == 0
    # the move, by JSON; its answer is the new view
    r = client.post(url, json={"version": 0, "action": action["action"]}, headers=auth(tok0))
    assert r.status_code == 200, r.text
    new = r.json()
    # The log tells everyone of P0 ("P0 turns their hand…"); the option told P0 ("You turn…").
    fresh = new_state("scout", 2, seed=7)
    public = fresh.describe(fresh.game.action_from_json(action["action"]))
    assert new["version"] == 1 and new["log"][-1]["text"] == public
    assert public.startswith("P0 ") and action["text"].startswith("You ")
    body = problem(client.post(url, json={"version": 0, "index": 0}, headers=auth(tok0)),
                   409, "stale-version")
    assert body["version"] == 1
    # by index and by integer id
    who = new["current_player"]
    tok = tok0 if who == 0 else tok1
    v = client.get(f"/api/tables/{t}", headers=auth(tok)).json()
    r = client.post(url, json={"version": 1, "id": v["legal_actions"][-1]["id"]},
                    headers=auth(tok))
    assert r.status_code == 200 and r.json()["version"] == 2


def test_a_tricky_landing_log_says_where_each_card_landed_and_who_won(
        client: TestClient) -> None:
    """The table's log used to say only "P1 throws a card at …": now each line goes
    on with where the card came to rest and, after a trick's last throw, who won it."""
    made = create(client, game="tricky-landing", players=3, seed=5)
    t = made["table"]
    tokens = [made["seats"][q]["token"] for q in range(3)]
    # The table's options as the server filled them (a person's seat throws by hand).
    options = client.get(f"/api/tables/{t}").json()["options"]
    replay = new_state("tricky-landing", 3, seed=5, options=options)
    teach = teaching("tricky-landing")
    expected = []
    for version in range(6):  # two tricks
        seat = replay.current_player()
        r = client.post(f"/api/tables/{t}/moves", json={"version": version, "index": 0},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        action = replay.legal_actions()[0]
        line, before = replay.describe(action), replay.clone()
        replay.apply(action)
        expected.append(teach.played(line, before, replay))
    log = [e["text"] for e in client.get(f"/api/tables/{t}").json()["log"]
           if e["kind"] == "move"]
    assert log == expected
    for k, text in enumerate(log):
        assert re.search(r"throws a card at .*the target's centre with .*: (the \w+ \d+|it) "
                         r"(lands|misses)", text)
        ends = k % 3 == 2
        assert bool(re.search(r"(wins|share) (the|a) trick|nobody wins|no card touches",
                              text)) == ends, text


def test_oversized_body_is_refused(client: TestClient) -> None:
    made = create(client)
    big = {"version": 0, "action": {"type": "show", "pad": "x" * 70_000}}
    problem(client.post(f"/api/tables/{made['table']}/moves", json=big,
                        headers=auth(made["seats"][0]["token"])), 413, "too-large")

    def chunks() -> Any:  # no Content-Length: counted as it streams
        for _ in range(80):
            yield b" " * 1024

    problem(client.post("/api/tables", content=chunks(),
                        headers={"content-type": "application/json"}), 413, "too-large")
    assert client.get(f"/api/tables/{made['table']}").json()["version"] == 0


def test_a_whole_game_with_a_bot_then_replay_and_export(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
                  options={"rounds": 1})
    t, tok = made["table"], made["seats"][0]["token"]
    while True:
        view = wait_for(client, t, lambda v: v["status"] != "playing" or v["legal_actions"],
                        token=tok)
        if view["status"] != "playing":
            break
        r = client.post(f"/api/tables/{t}/moves", json={"version": view["version"],
                                                         "index": 0}, headers=auth(tok))
        assert r.status_code == 200, r.text
    assert view["status"] == "finished" and view["current_player"] == -4
    assert view["result"]["winners"]
    assert any(e["bot"] == "random" for e in view["log"])
    exported = client.get(f"/api/tables/{t}/export").json()
    import bigtop

    state = bigtop.load_state(exported)
    assert state.is_terminal() and len(state.history) == view["version"]
    replay = client.get(f"/api/tables/{t}/replay?at=2").json()
    assert replay["finished"] and len(replay["steps"]) == view["version"]
    assert all(s["action"] is not None for s in replay["steps"])
    assert replay["state"]["history"] == exported["history"][:2]
    # Stepping through: the position alone, without the whole step list again.
    bare = client.get(f"/api/tables/{t}/replay?at=2&steps=false").json()
    assert bare["steps"] is None
    assert {k: v for k, v in bare.items() if k != "steps"} \
        == {k: v for k, v in replay.items() if k != "steps"}
    problem(client.get(f"/api/tables/{t}/replay?at=2&steps=maybe"), 422, "invalid")
    problem(client.post(f"/api/tables/{t}/moves", json={"version": view["version"],
                                                         "index": 0}, headers=auth(tok)),
            409, "game-over")
    problem(client.get(f"/api/tables/{t}/replay?at=99999"), 422, "invalid")


def test_unfinished_replay_shows_only_public_lines_and_own_view(client: TestClient) -> None:
    made = create(client)
    t, tok0, tok1 = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
    client.post(f"/api/tables/{t}/moves", json={"version": 0, "index": 0}, headers=auth(tok0))
    problem(client.get(f"/api/tables/{t}/export"), 409, "conflict")
    public = client.get(f"/api/tables/{t}/replay?at=0").json()
    assert not public["finished"] and public["state"] is None
    assert all(s["action"] is None for s in public["steps"])
    import bigtop

    s = bigtop.new_state("scout", players=2, seed=7)
    assert public["observation"] == s.observation(None)
    own = client.get(f"/api/tables/{t}/replay?at=0", headers=auth(tok1)).json()
    assert own["observation"] == s.observation(1)


def test_lobby_join_and_private_tables(client: TestClient) -> None:
    listed = create(client, players=3)
    private = create(client, listed=False)
    lobby = client.get("/api/lobby").json()["tables"]
    ids = [x["table"] for x in lobby]
    assert listed["table"] in ids and private["table"] not in ids
    entry = next(x for x in lobby if x["table"] == listed["table"])
    assert entry["free_seats"] == [1, 2]  # the creator holds the host's seat
    # using an invite link claims the seat
    client.get(f"/api/tables/{listed['table']}", headers=auth(listed["seats"][1]["token"]))
    entry = next(x for x in client.get("/api/lobby").json()["tables"]
                 if x["table"] == listed["table"])
    assert entry["free_seats"] == [2]
    # The host's seat is the creator's, never a stranger's (nor its powers).
    problem(client.post(f"/api/tables/{listed['table']}/join", json={"seat": 0}),
            409, "conflict")
    joined = client.post(f"/api/tables/{listed['table']}/join", json={"seat": 2}).json()
    assert joined["seat"] == 2
    view = client.get(f"/api/tables/{listed['table']}", headers=auth(joined["token"])).json()
    assert view["seat"] == 2
    # the seat's old invite link no longer opens it
    problem(client.get(f"/api/tables/{listed['table']}",
                       headers=auth(listed["seats"][2]["token"])), 403, "wrong-token")
    problem(client.post(f"/api/tables/{listed['table']}/join", json={"seat": 1}),
            409, "conflict")
    problem(client.post(f"/api/tables/{private['table']}/join", json={}), 403, "wrong-token")
    problem(client.post("/api/tables/nope/join", json={}), 404, "not-found")
    problem(client.post(f"/api/tables/{listed['table']}/join"), 409, "conflict")
    view = client.get(f"/api/tables/{listed['table']}", headers=auth(listed["seats"][0]["token"]))
    assert view.json()["seat"] == 0  # the creator's token still opens the host's seat
    assert listed["table"] not in [x["table"] for x in client.get("/api/lobby").json()["tables"]]


def test_picture_of_a_seat_view(client: TestClient) -> None:
    made = create(client, game="tricky-landing", players=3)
    t, tok = made["table"], made["seats"][0]["token"]
    r = client.get(f"/api/tables/{t}/picture.svg", headers=auth(tok))
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg")
    assert client.get(f"/api/tables/{t}", headers=auth(tok)).json()["picture"] == (
        f"/api/tables/{t}/picture.svg")
    assert client.get(f"/api/tables/{t}").json()["picture"] == f"/api/tables/{t}/picture.svg"
    problem(client.get(f"/api/tables/{t}/picture.svg", headers=auth("bad")), 403,
            "wrong-token")
    scout = create(client)  # every game draws its view now
    assert client.get(f"/api/tables/{scout['table']}",
                      headers=auth(scout["seats"][0]["token"])).json()["picture"] == (
        f"/api/tables/{scout['table']}/picture.svg")
    # A spectator (no token) gets the public picture, every hand face down.
    public = client.get(f"/api/tables/{scout['table']}/picture.svg")
    assert public.status_code == 200
    assert public.text == render_svg(new_state("scout", 2, 7)) != client.get(
        f"/api/tables/{scout['table']}/picture.svg", headers=auth(scout["seats"][0]["token"])).text
    problem(client.get("/api/tables/nope/picture.svg",
                       headers=auth(scout["seats"][0]["token"])), 404, "not-found")


def test_websocket_first_view_updates_moves_and_errors(client: TestClient) -> None:
    made = create(client)
    t, tok0, tok1 = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
    with client.websocket_connect(f"/api/tables/{t}/ws", headers=auth(tok0)) as ws0, \
            client.websocket_connect(f"/api/tables/{t}/ws") as spectator:
        first = ws0.receive_json()["view"]
        assert first["seat"] == 0 and first["version"] == 0 and first["legal_actions"]
        assert spectator.receive_json()["view"]["seat"] is None
        ws0.send_json({"type": "ping"})
        assert ws0.receive_json() == {"type": "pong"}
        ws0.send_text("{not json")
        assert ws0.receive_json()["problem"]["status"] == 400
        ws0.send_json({"type": "move", "version": 5, "index": 0})
        err = ws0.receive_json()["problem"]
        assert err["type"] == "/problems/stale-version" and err["version"] == 0
        spectator.send_json({"type": "move", "version": 0, "index": 0})
        assert spectator.receive_json()["problem"]["status"] == 401
        ws0.send_json({"type": "move", "version": 0, "index": 0})
        update = ws0.receive_json()["view"]
        assert TableView.model_validate(update).model_dump(mode="json") == update
        assert update["version"] == 1 and [e["id"] for e in update["log"]] == ["m0"]
        assert update["log_since"] == 0
        seen = spectator.receive_json()["view"]
        assert seen["version"] == 1 and seen["log"][-1]["text"] == update["log"][-1]["text"]
    # reconnect from version 1: only what came after
    r = client.post(f"/api/tables/{t}/moves", json={"version": 1, "index": 0},
                    headers=auth(tok0 if update["current_player"] == 0 else tok1))
    assert r.status_code == 200
    with client.websocket_connect(f"/api/tables/{t}/ws?since=1", headers=auth(tok1)) as ws1:
        again = ws1.receive_json()["view"]
        assert again["version"] == 2 and [e["id"] for e in again["log"]] == ["m1"]
        assert again["log_since"] == 1
    with client.websocket_connect(f"/api/tables/{t}/ws", headers=auth("wrong")) as bad:
        assert bad.receive_json()["problem"]["status"] == 403
    with client.websocket_connect("/api/tables/nope/ws") as bad:
        assert bad.receive_json()["problem"]["status"] == 404


def test_a_move_answer_is_the_view_the_movers_websocket_gets(client: TestClient) -> None:
    """A view is made once per version, seat and new log entries, and reused: the mover's
    HTTP answer is exactly its WebSocket update; the other seat's is its own view."""
    made = create(client, seed=3)
    t, toks = made["table"], [s["token"] for s in made["seats"]]
    with client.websocket_connect(f"/api/tables/{t}/ws", headers=auth(toks[0])) as ws0:
        view = ws0.receive_json()["view"]
        with client.websocket_connect(f"/api/tables/{t}/ws", headers=auth(toks[1])) as ws1:
            ws1.receive_json()
            ws0.receive_json()  # seat 1 was claimed: a new view for seat 0 too
            for _ in range(4):
                mover = view["current_player"]
                r = client.post(f"/api/tables/{t}/moves", headers=auth(toks[mover]),
                                json={"version": view["version"], "index": 0})
                assert r.status_code == 200, r.text
                ws_views = [ws0.receive_json()["view"], ws1.receive_json()["view"]]
                assert r.json() == ws_views[mover]
                assert r.json()["legal_actions"] or ws_views[1 - mover]["legal_actions"]
                assert ws_views[1 - mover]["seat"] == 1 - mover
                assert ws_views[0]["observation"] != ws_views[1]["observation"]
                view = ws_views[0]


def test_unknown_route_and_method_are_problems(client: TestClient) -> None:
    problem(client.get("/api/nothing"), 404, "http")
    problem(client.delete("/api/lobby"), 405, "http")
    assert client.get("/docs").status_code == 200
    assert "/api/tables" in client.get("/openapi.json").json()["paths"]


def test_rate_limit_per_seat(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(moves_per_second=0.01, move_burst=2)) as c:
        made = create(c)
        t, tok = made["table"], made["seats"][0]["token"]
        url = f"/api/tables/{t}/moves"
        codes = [c.post(url, json={"version": 99, "index": 0}, headers=auth(tok)).status_code
                 for _ in range(3)]
        assert codes == [409, 409, 429]
        problem(c.post(url, json={"version": 0, "index": 0}, headers=auth(tok)),
                429, "rate-limited")
        assert c.get(f"/api/tables/{t}").json()["version"] == 0


def test_open_table_limit(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(max_open_tables=2)) as c:
        create(c)
        create(c)
        problem(c.post("/api/tables", json={"game": "scout", "players": 2}), 503,
                "unavailable")


def test_idle_tables_expire(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(idle_table_seconds=0.3)) as c:
        made = create(c)
        t, tok = made["table"], made["seats"][0]["token"]
        view = wait_for(c, t, lambda v: v["status"] == "expired", timeout=10)
        problem(c.post(f"/api/tables/{t}/moves", json={"version": view["version"],
                                                       "index": 0}, headers=auth(tok)),
                410, "table-expired")
        assert c.post("/api/tables", json={"game": "scout", "players": 2}).status_code == 201


def test_websocket_message_and_connection_limits(sqlite_url: str) -> None:
    import pytest
    from starlette.websockets import WebSocketDisconnect

    limits = Limits(max_ws_message_bytes=1000, max_connections_per_table=1)
    with make_client(sqlite_url, limits=limits) as c:
        made = create(c)
        t = made["table"]
        with c.websocket_connect(f"/api/tables/{t}/ws") as ws:
            ws.receive_json()
            with c.websocket_connect(f"/api/tables/{t}/ws") as second:
                assert second.receive_json()["problem"]["status"] == 503
            ws.send_text("x" * 2000)
            told = ws.receive_json()  # why, before the close
            assert told["type"] == "error" and told["problem"]["status"] == 413
            assert "at most 1,000 bytes; this one has 2,000" in told["problem"]["detail"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1009


def test_bot_takes_over_an_absent_seat_and_the_player_reclaims_it(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        made = create(c, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
                      takeover_after=1.0, takeover_level="random", options={"rounds": 1})
        t, tok = made["table"], made["seats"][0]["token"]
        # P0 never comes: after a second a random bot plays for them
        view = wait_for(c, t, lambda v: v["seats"][0]["bot_playing"] == "random")
        takeover = [e for e in view["log"] if e["kind"] == "takeover"]
        assert takeover and takeover[0]["seat"] == 0 and "away" in takeover[0]["text"]
        view = wait_for(c, t, lambda v: any(e["seat"] == 0 and e["bot"] == "random"
                                            for e in v["log"]) or v["status"] != "playing")
        # while the bot plays, the person's moves are refused until they reclaim the seat
        mine = c.get(f"/api/tables/{t}", headers=auth(tok)).json()
        assert mine["legal_actions"] == []
        r = c.post(f"/api/tables/{t}/reclaim", headers=auth(tok))
        assert r.status_code == 200, r.text
        back = r.json()
        assert back["seats"][0]["bot_playing"] is None
        assert back["log"][-1]["kind"] == "reclaim" or any(
            e["kind"] == "reclaim" for e in back["log"])
        problem(c.post(f"/api/tables/{t}/reclaim"), 401, "seat-token-required")


def test_json_beyond_the_core_limits_is_refused(client: TestClient) -> None:
    made = create(client)
    t, tok = made["table"], made["seats"][0]["token"]
    headers = {**auth(tok), "content-type": "application/json"}
    url = f"/api/tables/{t}/moves"
    for body, message in [
        (b'{"version": 0, "index": NaN}', "NaN"),
        (b'{"version": 0, "version": 1, "index": 0}', "appears twice"),
        (b'{"version": 0, "action": ' + b"[" * 40 + b"]" * 40 + b"}", "nested deeper"),
        (b'{"version": 0, "id": 99999999999999999999999}', "out of range"),
    ]:
        detail = problem(client.post(url, content=body, headers=headers), 400,
                         "bad-request")["detail"]
        assert message in detail, detail
    with client.websocket_connect(f"/api/tables/{t}/ws", headers=auth(tok)) as ws:
        ws.receive_json()
        ws.send_text('{"type": "move", "version": 0, "index": Infinity}')
        assert "Infinity" in ws.receive_json()["problem"]["detail"]
    assert client.get(f"/api/tables/{t}").json()["version"] == 0


def test_web_front_end_is_served_at_root_when_built(sqlite_url: str, tmp_path: Any) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>bigtop</title>")
    with make_client(sqlite_url, static_dir=str(tmp_path)) as c:
        page = c.get("/?table=abc")
        assert page.status_code == 200 and "<title>bigtop</title>" in page.text
        assert c.get("/api/games").status_code == 200  # the API still wins under /api
    with make_client(sqlite_url, static_dir=str(tmp_path / "none")) as c:
        assert c.get("/").status_code == 404


def test_a_present_player_is_not_taken_over(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        made = create(c, takeover_after=1.0, takeover_level="random")
        t, tok = made["table"], made["seats"][0]["token"]
        with c.websocket_connect(f"/api/tables/{t}/ws", headers=auth(tok)) as ws:
            ws.receive_json()  # connected: present, though silent
            view = wait_for(c, t, lambda v: v["seats"][1]["bot_playing"] is not None)
            assert view["seats"][0]["bot_playing"] is None  # P1 never came; P0 is here


def test_a_seat_token_never_travels_in_a_url(client: TestClient) -> None:
    """``?token=`` is refused everywhere (400 ``token-in-url``, nothing changes); the token
    goes in the Authorization header, or for a browser's WebSocket in a subprotocol."""
    made = create(client)
    t, tok = made["table"], made["seats"][0]["token"]
    for path in (f"/api/tables/{t}", f"/api/tables/{t}/picture.svg",
                 f"/api/tables/{t}/replay"):
        detail = problem(client.get(f"{path}?token={tok}"), 400, "token-in-url")["detail"]
        assert "Authorization: Bearer" in detail
    problem(client.post(f"/api/tables/{t}/moves?token={tok}", json={"version": 0, "index": 0}),
            400, "token-in-url")
    assert client.get(f"/api/tables/{t}").json()["version"] == 0
    with client.websocket_connect(f"/api/tables/{t}/ws?token={tok}") as ws:
        assert ws.receive_json()["problem"]["type"] == "/problems/token-in-url"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400
    # A browser offers "bigtop" and "bigtop.token.TOKEN"; the server answers "bigtop" only.
    with client.websocket_connect(f"/api/tables/{t}/ws",
                                  subprotocols=["bigtop", f"bigtop.token.{tok}"]) as ws:
        assert ws.accepted_subprotocol == "bigtop"
        assert ws.receive_json()["view"]["seat"] == 0
    with client.websocket_connect(f"/api/tables/{t}/ws", subprotocols=["bigtop"]) as ws:
        assert ws.accepted_subprotocol == "bigtop"
        assert ws.receive_json()["view"]["seat"] is None  # no token: a spectator
    with client.websocket_connect(f"/api/tables/{t}/ws", headers=auth(tok)) as ws:
        assert ws.receive_json()["view"]["seat"] == 0
    with client.websocket_connect(f"/api/tables/{t}/ws",
                                  subprotocols=["bigtop", "bigtop.token.wrong"]) as ws:
        assert ws.receive_json()["problem"]["status"] == 403


def test_the_picture_of_a_wide_so_ein_zirkus_board(client: TestClient) -> None:
    """Boards up to 26 columns are legal; the picture drew only columns A..J (500 past)."""
    board = {"name": "wide", "columns": 26, "rows": 3, "start": ["A1", "M1", "Z1"],
             "holes": {"K2": 1, "Y3": 6}}
    made = create(client, game="so-ein-zirkus", players=2,
                  options={"board": json.dumps(board)})
    r = client.get(f"/api/tables/{made['table']}/picture.svg",
                   headers=auth(made["seats"][0]["token"]))
    assert r.status_code == 200, r.text
    assert 'data-field="Z3"' in r.text and 'data-field="Y3" data-points="6"' in r.text


def test_live_connections_per_client_address(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(max_sockets_per_client=2)) as c:
        t = create(c)["table"]
        other = create(c)["table"]
        with c.websocket_connect(f"/api/tables/{t}/ws") as a, \
                c.websocket_connect(f"/api/tables/{other}/ws") as b:
            a.receive_json(), b.receive_json()
            with c.websocket_connect(f"/api/tables/{t}/ws") as refused:
                assert refused.receive_json()["problem"]["status"] == 429
                with pytest.raises(WebSocketDisconnect) as closed:
                    refused.receive_json()
                assert closed.value.code == 4429
        # Closed sockets give their places back.
        with c.websocket_connect(f"/api/tables/{t}/ws") as again:
            assert again.receive_json()["type"] == "view"
