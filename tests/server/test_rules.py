"""The rules text the web page shows: the engine's own (``teach``), following the options of
the game (GET /api/games) and of each table (GET /api/tables/{id}/rules)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from bigtop.core.registry import game_names, new_game
from bigtop.core.text import paragraphs
from bigtop.games import teaching
from tests.server.test_api import create, problem


def engine_rules(game: str, players: int, options: dict[str, Any]) -> list[str]:
    """The engine's rules, checked to be ``bigtop play``'s rules text without its typing
    line."""
    g = new_game(game, players, options)
    t = teaching(game)
    lines = t.rules(g)
    assert paragraphs([*lines, t.commands(g)]) == t.rules_text(g)
    assert not any("Type a listed number" in line for line in lines)
    return lines


def table_rules(c: TestClient, game: str, players: int,
                options: dict[str, Any]) -> list[str]:
    made = create(c, game=game, players=players, options=options)
    r = c.get(f"/api/tables/{made['table']}/rules")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    assert (body["game"], body["players"]) == (game, players)
    # The table's options: those asked for, and what the server fills in for people's
    # seats (Tricky Landing's hand-thrown skill).
    table_options = c.get(f"/api/tables/{made['table']}").json()["options"]
    assert body["options"] == json.loads(json.dumps(
        new_game(game, players, table_options).options.to_json()))
    assert {k: body["options"][k] for k in options} == options
    assert body["rules"] == engine_rules(game, players, table_options)
    # per table, read once: the views (sent on every move) do not carry them
    assert "rules" not in c.get(f"/api/tables/{made['table']}").json()
    lines: list[str] = body["rules"]
    return lines


def test_games_carry_the_rules_of_their_default_options(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    assert [g["name"] for g in games] == game_names()
    for g in games:
        assert g["rules"] == engine_rules(g["name"], g["min_players"], {})
        assert len(g["rules"]) >= 4


def test_each_table_gets_the_rules_of_its_own_options(client: TestClient) -> None:
    """Tricky Landing's lead suit, face-down cards and trump sentences; Clown 15 Go's
    advanced rule 3 and its notes (one client: starting one is the slow part)."""
    default = " ".join(table_rules(client, "tricky-landing", 3, {}))
    assert "the cards touching the target are linked only through other cards" in default
    assert "Face-down cards never win, but the winner collects them too." in default
    other = " ".join(table_rules(client, "tricky-landing", 3, {
        "lead_suit": "first-toucher", "face_down_cards": "discarded",
        "face_down_lead": "no-lead", "trump_between_rounds": "carries-over", "rounds": 2}))
    assert "Face-down cards never win and are discarded." in other
    assert "if it landed face down, the trick has no lead suit" in other
    assert "The trump suit carries over to the next round." in other
    assert "2 rounds" in other
    assert "linked only through" not in other and "collects them too" not in other

    basic = table_rules(client, "clown-15-go", 2, {"sets": 2})
    assert "Advanced rules:" not in basic
    borrowing = table_rules(client, "clown-15-go", 2, {"sets": 2, "borrowing": True,
                                                       "borrowing_when": "placing"})
    at = borrowing.index("Advanced rules:")
    assert borrowing[at + 1] == ("* You may move other players' open tops to the middle "
                                 "while placing your own card there.")
    # the game's notes on a configuration come along; an unknown table is a 404
    made = create(client, game="clown-15-go", players=2, options={"last_card": "stays"})
    notes = client.get(f"/api/tables/{made['table']}/rules").json()["notes"]
    assert notes == new_game("clown-15-go", 2, {"last_card": "stays"}).notes() != []
    problem(client.get("/api/tables/nosuchtable/rules"), 404, "not-found")
