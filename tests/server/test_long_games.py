"""Long games: replays and rebuilt tables start from stored positions (every
``snapshot_every`` moves), so their cost is bounded whatever the game's length; a game stops
at ``Limits.max_table_moves``; a bot is handed the position without its history, so it moves
whatever the length (past the core's MAX_HISTORY the pool could not load it before)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bigtop.core.game import State
from bigtop.core.limits import MAX_HISTORY
from bigtop.core.registry import new_game
from bigtop.server import errors
from bigtop.server.bots import bot_input, think
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster, state_at
from bigtop.server.model import TableSpec
from bigtop.server.settings import Limits, Settings
from bigtop.server.storage import SqlStorage
from tests.server.conftest import drawn_seed

EVERY = 4


def master(url: str, **limits: Any) -> TableMaster:
    engine = make_engine(url)
    migrate(engine)
    return TableMaster(SqlStorage(engine), Settings(db_url=url, snapshot_every=EVERY,
                                                    limits=Limits(**limits)))


def play_randomly(m: TableMaster, table: str, moves: int) -> Any:
    rng = random.Random(3)
    t = m.load(table)
    for _ in range(moves):
        if t.meta.status != "playing":
            break
        t = m.play(table, t.state.current_player(), t.version,
                   {"index": rng.randrange(len(t.state.legal_actions()))})
    return t


class Applies:
    """Counts the actions played on states of one class."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cls: type[State]) -> None:
        self.n = 0
        apply = cls.apply

        def counting(state: Any, action: Any) -> None:
            self.n += 1
            apply(state, action)

        monkeypatch.setattr(cls, "apply", counting)


def test_replays_and_rebuilds_start_from_snapshots(db_url: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    m = master(db_url)
    with drawn_seed(8):  # no client may choose the seed of a table of people
        table = m.create(TableSpec("so-ein-zirkus", 2)).table_id
    t = play_randomly(m, table, 40)
    assert t.version >= 30 and m.snapshot_at_most(table, t.version) is not None
    applies = Applies(monkeypatch, type(t.state))
    replay = new_game("so-ein-zirkus", 2).new_initial_state(8)
    for at in range(t.version + 1):
        found = m.snapshot_at_most(table, at)
        assert found is None or at - found[0] < EVERY + 3  # + the chance outcomes of a move
        applies.n = 0
        assert state_at(t, at, found) == replay
        assert applies.n == at - (0 if found is None else found[0])
        if at < t.version:
            replay.apply(t.state.history[at])
    # A worker that never saw the table rebuilds it from the latest position: the moves
    # before it are read, not played.
    applies.n = 0
    fresh = master(db_url).load(table)
    assert fresh.state == t.state and [e.text for e in fresh.log] == [e.text for e in t.log]
    assert applies.n < EVERY + 3


def test_a_game_stops_at_the_length_bound(db_url: str) -> None:
    m = master(db_url, max_table_moves=12)
    with drawn_seed(4):
        table = m.create(TableSpec("scout", 2)).table_id
    t = play_randomly(m, table, 40)
    assert t.meta.status == "expired" and 12 <= t.version < 15
    with pytest.raises(errors.Gone, match="12 moves, the server's limit"):
        m.play(table, t.state.current_player(), t.version, {"index": 0})
    with pytest.raises(Exception, match="max_table_moves"):
        Limits(max_table_moves=MAX_HISTORY)


def test_a_bot_moves_whatever_the_length_of_the_game() -> None:
    state = new_game("scout", 2).new_initial_state(1)
    state.apply(state.legal_actions()[0])
    state.history = state.history * (MAX_HISTORY + 1)  # as long as no game may be
    seat = state.current_player()
    data = bot_input(state, seat, 5)
    assert "history" not in data
    action = state.game.action_from_json(think(data, "easy", seat, 5, 10.0))
    assert action in state.legal_actions()


def test_a_long_games_view_carries_only_the_latest_log(sqlite_url: str) -> None:
    from tests.server.conftest import make_client

    with make_client(sqlite_url, limits=Limits(max_view_log=5)) as client:
        made = client.post("/api/tables", json={"game": "scout", "players": 2}).json()
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        view = client.get(f"/api/tables/{table}").json()
        while view["version"] < 12:
            p = view["current_player"]
            client.post(f"/api/tables/{table}/moves", json={"version": view["version"],
                                                            "index": 0},
                        headers={"authorization": f"Bearer {tokens[p]}"})
            view = client.get(f"/api/tables/{table}").json()
        assert len(view["log"]) == 5 and view["log_since"] == view["version"] - 5
        assert [e["version"] for e in view["log"]] == list(range(view["version"] - 4,
                                                                 view["version"] + 1))
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            assert ws.receive_json()["view"]["log"] == view["log"]
        # asked from an older version, the same bound holds; from a newer one, as before
        assert client.get(f"/api/tables/{table}?since=1").json()["log"] == view["log"]
        assert len(client.get(f"/api/tables/{table}?since=10").json()["log"]) == 2
        assert len(client.get(f"/api/tables/{table}/replay").json()["steps"]) == 12
