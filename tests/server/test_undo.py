"""Undo by agreement: a person asks to take back their last move, every other person must
accept, bots accept; every refusal; clients and other workers see the shorter log. A
take-back cannot unsee: not to before a roll, a turned card, a throw's landing or an
opponent's Show (what the same seed would bring again, or what goes back into a hand)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from bigtop.core.game import State
from bigtop.server import Limits, errors
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import SeatSpec, TableSpec
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage
from tests.server.conftest import drawn_seed, make_client
from tests.server.test_api import auth, create, problem, wait_for


def move(c: TestClient, t: str, token: str) -> dict[str, Any]:
    v = c.get(f"/api/tables/{t}", headers=auth(token)).json()
    r = c.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
               headers=auth(token))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_against_bots_a_move_is_taken_back_at_once(client: TestClient) -> None:
    made = create(client, seats=[{}, {"kind": "bot", "level": "random"}])
    t, tok = made["table"], made["seats"][0]["token"]
    start = client.get(f"/api/tables/{t}", headers=auth(tok)).json()
    with client.websocket_connect(f"/api/tables/{t}/ws",
                                  subprotocols=["bigtop", f"bigtop.token.{tok}"]) as ws:
        ws.receive_json()
        move(client, t, tok)
        wait_for(client, t, lambda v: v["current_player"] == 0, tok)  # the bot replied
        r = client.post(f"/api/tables/{t}/undo", headers=auth(tok))
        assert r.status_code == 200, r.text
        back = r.json()
        assert back["version"] == start["version"] and back["undos"] == 1
        assert back["legal_actions"] == start["legal_actions"]
        assert back["observation"] == start["observation"]
        assert back["undo"] is None and back["log"][-1]["kind"] == "undo"
        assert back["log"][-1]["text"] == "P0 took back their move"
        assert [e for e in back["log"] if e["kind"] == "move"] == []
        while True:  # the socket gets the whole, shorter log
            msg = ws.receive_json()
            if msg["type"] == "view" and msg["view"]["undos"] == 1:
                assert msg["view"]["log_since"] == -1
                assert [e["kind"] for e in msg["view"]["log"]] == ["undo"]
                break
    # The game goes on from there, as if the move had never been played.
    again = move(client, t, tok)
    assert again["version"] == start["version"] + 1
    replay = client.get(f"/api/tables/{t}/replay").json()
    assert len(replay["steps"]) == again["version"]


def test_every_other_person_must_accept(client: TestClient) -> None:
    made = create(client, players=3, seats=[{}, {}, {"kind": "bot", "level": "random"}])
    t = made["table"]
    anna, ben = made["seats"][0]["token"], made["seats"][1]["token"]
    client.get(f"/api/tables/{t}", headers=auth(ben))
    url = f"/api/tables/{t}/undo"
    problem(client.post(url), 401, "seat-token-required")
    problem(client.post(url, headers=auth("x" * 22)), 403, "wrong-token")
    problem(client.post("/api/tables/nope/undo", headers=auth(anna)), 404, "not-found")
    problem(client.post(url, headers=auth(anna)), 409, "conflict")  # no move yet
    problem(client.post(url + "/accept", headers=auth(ben)), 409, "conflict")  # none asked
    first = move(client, t, anna)
    asked = client.post(url, headers=auth(anna)).json()
    assert asked["undo"] == {"seat": 0, "name": "P0", "to_version": first["version"] - 1,
                             "accepted": [], "waiting_for": [1]}
    assert asked["version"] == first["version"]  # nothing taken back yet
    problem(client.post(url, headers=auth(anna)), 409, "conflict")  # asked already
    problem(client.post(url, headers=auth(ben)), 409, "conflict")  # one at a time
    problem(client.post(url + "/accept", headers=auth(anna)), 409, "conflict")  # not hers
    problem(client.post(url + "/accept"), 401, "seat-token-required")
    declined = client.post(url + "/decline", headers=auth(ben)).json()
    assert declined["undo"] is None and declined["version"] == first["version"]
    client.post(url, headers=auth(anna))
    withdrawn = client.post(url + "/decline", headers=auth(anna)).json()
    assert withdrawn["undo"] is None
    client.post(url, headers=auth(anna))
    done = client.post(url + "/accept", headers=auth(ben)).json()
    assert done["version"] == first["version"] - 1 and done["undo"] is None
    assert done["undos"] == 1 and done["log"][-1]["text"] == "P0 took back their move " \
                                                             "(everyone agreed)"
    # A request is for the table as it was asked: a move makes it lapse.
    move(client, t, anna)  # SCOUT: turning the hand first, still her turn
    assert client.post(url, headers=auth(anna)).json()["undo"] is not None
    moved = move(client, t, anna)
    assert moved["undo"] is None
    problem(client.post(url + "/accept", headers=auth(ben)), 409, "conflict")


def test_nothing_is_taken_back_after_the_end(client: TestClient) -> None:
    made = create(client, seats=[{}, {"kind": "bot", "level": "random"}],
                  options={"rounds": 1})
    t, tok = made["table"], made["seats"][0]["token"]
    v = client.get(f"/api/tables/{t}", headers=auth(tok)).json()
    while v["status"] == "playing":
        if v["legal_actions"]:
            client.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
                        headers=auth(tok))
        v = wait_for(client, t, lambda w: w["status"] != "playing" or bool(w["legal_actions"]),
                     tok)
    problem(client.post(f"/api/tables/{t}/undo", headers=auth(tok)), 409, "game-over")


def test_another_worker_sees_the_shorter_log(db_url: str) -> None:
    """A worker that holds the table from before a take-back (SQLite and PostgreSQL) reads
    it afresh: its position and log are the table's, and a move it stores lands there."""
    engine = make_engine(db_url)
    migrate(engine)
    a, b = (TableMaster(SqlStorage(make_engine(db_url)), Settings(db_url=db_url))
            for _ in range(2))
    made = a.create(TableSpec("scout", 2, seats=(SeatSpec(), SeatSpec()), listed=False))
    t = made.table_id

    def step(loaded: Any, index: int = 0) -> Any:
        p = loaded.state.current_player()
        return a.play(t, p, loaded.version, {"index": index}, token=made.tokens[p])

    first = step(a.load(t))  # P0 turns their hand (still P0's turn)
    second = step(first)  # P0 shows
    third = step(second)  # P1
    assert b.load(t).version == third.version  # b holds the longer log
    a.ask_undo(t, 0)
    back = a.answer_undo(t, 1, True)
    assert back.version == first.version
    seen = b.load(t)
    assert seen.version == first.version and seen.state == back.state
    assert [e.kind for e in seen.log] == ["move", "undo"]
    other = b.play(t, 0, seen.version, {"index": 1}, token=made.tokens[0])
    assert a.load(t).state == other.state and a.load(t).version == first.version + 1


def test_a_take_back_asked_for_lapses_when_the_game_ends_on_time(sqlite_url: str) -> None:
    """Anna asks to take back her move; Ben, to move, neither answers nor moves and loses on
    time: the game is over, and its views no longer show a take-back waiting for Ben (the
    version had not moved, so the ask still looked pending at a finished table)."""
    with make_client(sqlite_url, limits=Limits(min_clock_seconds=0.05)) as c:
        made = create(c, seats=[{}, {}], clock={"per_move_seconds": 1.5}, on_timeout="lose")
        t, tokens = made["table"], [s["token"] for s in made["seats"]]
        for tok in tokens:
            c.get(f"/api/tables/{t}", headers=auth(tok))  # both arrived: the clock runs
        while move(c, t, tokens[0])["current_player"] == 0:  # a SCOUT turn may be two
            pass
        asked = c.post(f"/api/tables/{t}/undo", headers=auth(tokens[0])).json()
        assert asked["undo"]["waiting_for"] == [1]
        over = wait_for(c, t, lambda v: v["status"] == "finished", tokens[1])
        assert over["result"]["timed_out"] == 1 and over["undo"] is None
        problem(c.post(f"/api/tables/{t}/undo/accept", headers=auth(tokens[1])), 409,
                "conflict")


UNSEE = "; a take-back cannot unsee it"


def master_on(url: str) -> TableMaster:
    engine = make_engine(url)
    migrate(engine)
    return TableMaster(SqlStorage(engine), Settings(db_url=url))


def first(state: State, kind: str) -> dict[str, Any]:
    """The first legal action of JSON type ``kind``, as a move's choice."""
    return {"action": next(a for a in state.legal_actions()
                           if a.to_json()["type"] == kind).to_json()}


def after_p0_shows(m: TableMaster) -> tuple[str, str, Any]:
    """A two-player SCOUT table against a random bot where P0 has shown one card: its id,
    P0's token and the table then."""
    made = m.create(TableSpec("scout", 2, seed=3, listed=False,
                              seats=(SeatSpec(), SeatSpec("bot", "random"))))
    t, token = made.table_id, made.tokens[0]
    shown = m.play(t, 0, 0, {"action": {"type": "show", "start": 0, "length": 1}},
                   token=token)
    return t, token, shown


def test_a_take_back_cannot_unsee_a_bots_show(sqlite_url: str) -> None:
    """P0 shows a card; the bot scouts it (nothing hidden came out: taken back) or shows
    cards from its hand (they would go back into it, known: refused, nothing changed)."""
    m = master_on(sqlite_url)

    t, token, shown = after_p0_shows(m)
    scouted = m.play(t, 1, shown.version, first(shown.state, "scout"), bot="random")
    placed = m.play(t, 1, scouted.version, first(scouted.state, "insert"), bot="random")
    assert placed.state.current_player() == 0
    back = m.ask_undo(t, 0, token)
    assert back.version == 0 and back.meta.undos == 1

    t, token, shown = after_p0_shows(m)
    showed = m.play(t, 1, shown.version, first(shown.state, "show"), bot="random")
    with pytest.raises(errors.Conflict) as refused:
        m.ask_undo(t, 0, token)
    assert refused.value.detail == (f"P1's move after yours (“{showed.log[-1].text}”) showed "
                                    f"you what you could not know before{UNSEE}")
    still = m.load(t)
    assert (still.version, still.meta.undos, still.meta.pending_undo) == (showed.version, 0,
                                                                           None)


def test_people_take_back_what_the_askers_move_showed_but_not_anothers_show(
        sqlite_url: str) -> None:
    """Ben saw the cards Anna's own Show put down: she gives that away by asking, and he
    accepts. Ben's Show after hers showed Anna his cards: she may not even ask."""
    m = master_on(sqlite_url)
    with drawn_seed(3):
        made = m.create(TableSpec("scout", 2, seats=(SeatSpec(), SeatSpec()), listed=False))
    t, anna, ben = made.table_id, made.tokens[0], made.tokens[1]
    show = {"action": {"type": "show", "start": 0, "length": 1}}
    shown = m.play(t, 0, 0, show, token=anna)
    assert m.ask_undo(t, 0, anna).meta.pending_undo is not None
    back = m.answer_undo(t, 1, True, ben)
    assert back.version == 0 and back.meta.undos == 1
    shown = m.play(t, 0, 0, show, token=anna)
    showed = m.play(t, 1, shown.version, first(shown.state, "show"), token=ben)
    with pytest.raises(errors.Conflict, match=f"P1's move after yours .*{UNSEE}$"):
        m.ask_undo(t, 0, anna)
    assert m.load(t).meta.pending_undo is None and m.load(t).version == showed.version


@pytest.mark.parametrize(("game", "players", "seed", "why"), [
    # P0's move, then P1's roll: the seed would roll it again.
    pytest.param("so-ein-zirkus", 2, 1, "“P1 rolls [^”]*” after your move came from the "
                 "table's seed and would come again", id="roll"),
    # P0's move ends the turn and turns P1's next card for everyone.
    pytest.param("clown-15-go", 2, 1, r"your move \(“P0 [^”]*”\) showed you what you could "
                 "not know before", id="turned-card"),
    # Where P0's throw landed came from the seed.
    pytest.param("tricky-landing", 3, 1, r"your move \(“P0 throws [^”]*”\) showed you what "
                 "you could not know before", id="throw"),
])
def test_no_take_back_past_a_roll_a_turned_card_or_a_throw(
        sqlite_url: str, game: str, players: int, seed: int, why: str) -> None:
    m = master_on(sqlite_url)
    bots = tuple(SeatSpec("bot", "random") for _ in range(players - 1))
    made = m.create(TableSpec(game, players, seed=seed, listed=False,
                              seats=(SeatSpec(), *bots)))
    t, token = made.table_id, made.tokens[0]
    start = m.load(t)
    assert start.state.current_player() == 0
    moved = m.play(t, 0, start.version, {"index": 0}, token=token)
    with pytest.raises(errors.Conflict, match=f"^{why}{UNSEE}$"):
        m.ask_undo(t, 0, token)
    assert m.load(t).version == moved.version and m.load(t).meta.undos == 0


def test_the_page_gets_the_reason_as_a_409(client: TestClient) -> None:
    """Over HTTP: 409 ``conflict``, the line in ``detail`` (the page shows it as it is)."""
    made = create(client, game="so-ein-zirkus", seats=[{}, {"kind": "bot", "level": "random"}],
                  listed=False)
    t, tok = made["table"], made["seats"][0]["token"]
    view = wait_for(client, t, lambda v: bool(v["legal_actions"]), tok)
    client.post(f"/api/tables/{t}/moves", json={"version": view["version"], "index": 0},
                headers=auth(tok))
    body = problem(client.post(f"/api/tables/{t}/undo", headers=auth(tok)), 409, "conflict")
    assert body["detail"].endswith(UNSEE) and "after your move" in body["detail"]


def test_the_last_acceptance_checks_again(sqlite_url: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The check runs again when the last acceptance would take the moves back (who must
    accept may have changed since the ask): refused there, nothing is taken back and the
    ask stays."""
    from bigtop.core.reveal import Reveal
    from bigtop.server import master as master_module

    m = master_on(sqlite_url)
    with drawn_seed(3):
        made = m.create(TableSpec("scout", 2, seats=(SeatSpec(), SeatSpec()), listed=False))
    t, anna, ben = made.table_id, made.tokens[0], made.tokens[1]
    moved = m.play(t, 0, 0, {"action": {"type": "show", "start": 0, "length": 1}},
                   token=anna)
    m.ask_undo(t, 0, anna)
    monkeypatch.setattr(master_module, "first_reveal",
                        lambda *args, **kwargs: Reveal(0, 1, False))
    with pytest.raises(errors.Conflict, match=f"^your move .* showed P1 what they .*{UNSEE}$"):
        m.answer_undo(t, 1, True, ben)
    still = m.load(t)
    assert still.version == moved.version and still.meta.undos == 0
    assert still.meta.pending_undo is not None


def test_the_seats_view_says_whether_a_take_back_is_possible(client: TestClient) -> None:
    """The page offered a take-back the server then refused (Clown 15 Go: the move turned a
    card). The seat's view says beforehand what asking would bring: the 409's very line, or
    possible; nothing before the seat's first move and nothing to a spectator."""
    made = create(client, game="clown-15-go", seats=[{}, {"kind": "bot", "level": "random"}],
                  listed=False, seed=1)
    t, tok = made["table"], made["seats"][0]["token"]
    view = wait_for(client, t, lambda v: bool(v["legal_actions"]), tok)
    assert view["take_back"] is None  # no move of ours yet
    client.post(f"/api/tables/{t}/moves", json={"version": view["version"], "index": 0},
                headers=auth(tok))
    view = client.get(f"/api/tables/{t}", headers=auth(tok)).json()
    assert view["take_back"]["possible"] is False
    body = problem(client.post(f"/api/tables/{t}/undo", headers=auth(tok)), 409, "conflict")
    assert view["take_back"]["why"] == body["detail"]
    assert client.get(f"/api/tables/{t}").json()["take_back"] is None


def test_the_seats_view_offers_the_take_back_the_server_grants(sqlite_url: str) -> None:
    """A bot's Scout of P0's shown card showed nothing: possible, and granted; its Show
    would put cards back into its hand, known: not possible, with the refusal's line."""
    m = master_on(sqlite_url)

    t, token, shown = after_p0_shows(m)
    scouted = m.play(t, 1, shown.version, first(shown.state, "scout"), bot="random")
    placed = m.play(t, 1, scouted.version, first(scouted.state, "insert"), bot="random")
    kept: dict[Any, Any] = {}
    assert m.take_back(scouted, 0, kept) == {"possible": True, "why": None}
    # Checked again as the table moves on, from the position kept.
    assert [v[0] for k, v in kept.items() if k[2] != "at"] == [True]
    assert m.take_back(placed, 0, kept) == {"possible": True, "why": None}
    assert m.take_back(placed, 0) == {"possible": True, "why": None}
    assert m.take_back(placed, 1) is None  # a bot's seat asks nothing
    assert m.ask_undo(t, 0, token).meta.undos == 1

    t, token, shown = after_p0_shows(m)
    showed = m.play(t, 1, shown.version, first(shown.state, "show"), bot="random")
    kept = {}
    said = m.take_back(showed, 0, kept)
    assert said is not None and said["possible"] is False
    # Found once, until P0 moves again.
    assert [v for k, v in kept.items() if k[2] != "at"] == [(False, said["why"], showed.version)]
    with pytest.raises(errors.Conflict) as asked:
        m.ask_undo(t, 0, token)
    assert asked.value.detail == said["why"]
