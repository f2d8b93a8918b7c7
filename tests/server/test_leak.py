"""No view leaks hidden cards: for every game, at many positions, the JSON a seat token (or a
spectator) receives — the whole view, and the picture where the game draws one — is unchanged
when everything that seat cannot see is resampled. Chat and my-games hold no hidden card and
no secret."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bigtop.core.game import State
from bigtop.core.registry import game_module, game_names, get_game, new_game
from bigtop.server.db import make_engine
from bigtop.server.master import TableMaster
from bigtop.server.model import HUMAN, Loaded, LogEntry, Meta, Seat, hash_token
from bigtop.server.runtime import Runtime
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage
from tests.conftest import random_game_states
from tests.server.conftest import drawn_seed

SETTINGS = Settings(db_url="sqlite://")


def loaded_for(state: State, log: tuple[LogEntry, ...]) -> Loaded:
    g = state.game
    meta = Meta(id="t", game=g.name, players=g.num_players, options=g.options.to_json(),
                seed=0, listed=True, takeover_after=None, takeover_level="easy",
                status="finished" if state.is_terminal() else "playing",
                version=len(state.history), seat_rev=0, created_at=0.0, updated_at=0.0)
    seats = tuple(Seat(i, HUMAN, None, None, True, 0.0, None) for i in range(g.num_players))
    return Loaded(meta, seats, state, log, 0)


def sent(runtime: Runtime, state: State, log: tuple[LogEntry, ...], seat: int | None) -> str:
    """Everything the server would send this seat: its view and its picture."""
    view = runtime.view(loaded_for(state, log), seat)
    render = getattr(game_module(state.game.name), "render_svg", None)
    picture = render(state, player=seat) if render is not None else None
    return json.dumps([view, picture], sort_keys=True)


@pytest.mark.parametrize("name", game_names())
def test_views_do_not_change_when_hidden_information_is_resampled(name: str) -> None:
    cls = get_game(name)
    runtime = Runtime(TableMaster(SqlStorage(make_engine("sqlite://")), SETTINGS), SETTINGS)
    checked = 0
    for players in sorted({cls.min_players, cls.max_players}):
        game = new_game(name, players)
        states = random_game_states(game, seed=11 + players, every=7)
        log: list[LogEntry] = []
        history_done = 0
        for state in states:
            for i, action in enumerate(state.history[history_done:], history_done):
                log.append(LogEntry(f"m{i}", "move", i + 1, 0, repr(action)))
            history_done = len(state.history)
            frozen = tuple(log)
            for seat in range(players):
                mine = sent(runtime, state, frozen, seat)
                public = sent(runtime, state, frozen, None)
                for k in (1, 2):
                    other = state.resample_hidden(seat, k * 1000 + checked)
                    runtime._views.clear()  # compute afresh, not from the view cache
                    assert sent(runtime, other, frozen, seat) == mine, (name, seat, k)
                    assert sent(runtime, other, frozen, None) == public, (name, seat, k)
                    checked += 1
    assert checked >= 40


def test_resampling_changes_something_the_views_hide() -> None:
    """The check above can fail: the full state does change under resampling."""
    game = new_game("scout", 3)
    state = game.new_initial_state(5)
    other = state.resample_hidden(0, 1)
    assert other.to_json() != state.to_json()
    assert other.observation(0) == state.observation(0)
    assert other.observation(1) != state.observation(1)




def test_chat_and_my_games_reveal_no_hidden_card_and_no_secret(client: Any) -> None:
    """Everything chat and my-games send (HTTP and WebSocket) holds no seat token, no player
    key or its hash, and nothing of a seat's own view: a my-games entry is the same for
    every seat at the table but for the seat's number and standing."""
    secrets: list[str] = []

    def player(name: str) -> dict[str, Any]:
        made: dict[str, Any] = client.post("/api/players", json={"name": name}).json()
        secrets.extend([made["key"], hash_token(made["key"])])
        return made

    def auth(key: str) -> dict[str, str]:
        return {"authorization": f"Bearer {key}"}

    anna, ben = player("Anna"), player("Ben")
    tables = []
    for seed in (1, 2):
        with drawn_seed(seed):  # a seed no client may choose at a table with people
            made = client.post("/api/tables", json={"game": "scout", "players": 2},
                               headers=auth(anna["key"])).json()
        secrets.extend(s["token"] for s in made["seats"])
        secrets.extend(hash_token(s["token"]) for s in made["seats"])
        joined = client.post(f"/api/tables/{made['table']}/join",
                             headers=auth(ben["key"])).json()
        secrets.extend([joined["token"], hash_token(joined["token"])])
        tables.append(made["table"])
    t = tables[0]
    view = client.get(f"/api/tables/{t}", headers=auth(anna["key"])).json()
    client.post(f"/api/tables/{t}/moves", json={"version": view["version"], "index": 0},
                headers=auth(anna["key"]))
    hands = [json.dumps(client.get(f"/api/tables/{t}", headers=auth(k)).json()["observation"])
             for k in (anna["key"], ben["key"])]
    sent = []
    with client.websocket_connect(f"/api/tables/{t}/ws") as spectator:
        spectator.receive_json()
        client.post(f"/api/tables/{t}/chat", json={"text": "good luck"},
                    headers=auth(ben["key"]))
        sent.append(spectator.receive_json())
    for key in (anna["key"], ben["key"]):
        sent.append(client.get(f"/api/tables/{t}/chat", headers=auth(key)).json())
        sent.append(client.get("/api/players/me", headers=auth(key)).json())
    text = json.dumps(sent)
    for secret in secrets:
        assert secret not in text
    for hand in hands:
        assert hand not in text
    assert "observation" not in text and "legal_actions" not in text
    mine = {k: next(e for e in sent[i]["tables"] if e["table"] == t) for k, i in
            (("anna", 2), ("ben", 4))}
    for entry in mine.values():
        entry.pop("seat"), entry.pop("state")
    assert mine["anna"] == mine["ben"]
    assert sent[0]["message"]["text"] == "good luck" and sent[0]["message"]["name"] == "Ben"


@pytest.mark.parametrize("name", game_names())
def test_the_replay_shows_every_hand_only_once_the_game_is_over(client: Any, name: str) -> None:
    """Before the end no replay (any ``at``, a seat's or a spectator's) holds ``hands`` or
    the whole ``state``; once the game is over ``hands[k]`` is seat k's own view at that
    move, for every seat (checked against the export played again here)."""
    from tests.server.test_api import auth, wait_for

    players = get_game(name).min_players
    people = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    with drawn_seed(3):
        made = client.post("/api/tables", json={"game": name, "players": players,
                                                "seats": people}).json()
    t, token = made["table"], made["seats"][0]["token"]
    for _ in range(3):
        view = wait_for(client, t, lambda v: bool(v["legal_actions"]) or v["status"] != "playing",
                        token)
        if view["status"] != "playing":
            break
        for k in range(view["version"] + 1):
            for who in (auth(token), {}):
                replay = client.get(f"/api/tables/{t}/replay?at={k}", headers=who).json()
                assert replay["hands"] is None and replay["state"] is None
                assert replay["finished"] is False and replay["summary"] is None
        client.post(f"/api/tables/{t}/moves", json={"version": view["version"], "index": 0},
                    headers=auth(token))
    with drawn_seed(4):
        bots = client.post("/api/tables", json={
            "game": name, "players": players,
            "seats": [{"kind": "bot", "level": "random"}] * players}).json()["table"]
    end = wait_for(client, bots, lambda v: v["status"] == "finished", timeout=120.0)
    record = client.get(f"/api/tables/{bots}/export").json()
    game = new_game(name, players, record["options"])
    for k in sorted({0, 1, end["version"] // 2, end["version"]}):
        replay = client.get(f"/api/tables/{bots}/replay?at={k}").json()
        state = game.new_initial_state(record["seed"])
        for action in record["history"][:k]:
            state.apply_json(action)
        assert replay["hands"] == [state.observation(p) for p in range(players)]
        assert replay["observation"] == state.observation(None)
    assert replay["summary"]["players"][0]["total"] == end["result"]["scores"][0]
