"""Provably fair chance: the server draws every seed, commits to it in every view and
reveals it only when the game is over; a creator may choose the seed only where nobody else
can sit."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import bigtop
from bigtop.core.verify import seed_commitment
from tests.server.conftest import drawn_seed, make_client

SEED = 5_039_267_113_982_644_217
"""A seed whose digits appear nowhere by chance (63 bits)."""


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


ROOT = Path(__file__).parents[2]


def verify(table: str, commitment: str, game: dict[str, Any]) -> None:
    """The check docs/server.md gives anyone holding the export of a finished game."""
    assert bigtop.verify_export(game, table, commitment) == []


def recipe() -> str:
    """The Python lines docs/server.md gives under "Fair chance"."""
    text = (ROOT / "docs" / "server.md").read_text()
    text = text[text.index("Anyone holding a finished game's export"):]
    start = text.index("```python\n") + len("```python\n")
    return text[start:text.index("```", start)]


def test_the_recipe_in_the_docs_and_on_the_page_catches_a_changed_roll(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Run as printed (table and commitment filled in), the docs' lines pass an honest
    export and name the step of a roll changed by hand, which a replay with apply_json
    accepts; the table page shows the same lines; the commitment is the server's."""
    from tests.core.test_verify import SEED, forged_roll, zirkus

    monkeypatch.chdir(tmp_path)
    code = recipe().replace('"TABLE"', '"t1"').replace('"COMMITMENT"',
                                                       f'"{seed_commitment("t1", SEED)}"')
    honest = zirkus()
    step, forged = forged_roll(honest)
    for export, said in ((honest.to_json(), "the committed seed made every deal, roll and "
                                            "throw\n"),
                         (forged, f"step {step}: the history has “P")):
        (tmp_path / "export.json").write_text(json.dumps(export))
        exec(code, {})  # the docs' own lines, as printed
        assert capsys.readouterr().out.startswith(said)
    page = (ROOT / "src" / "bigtop" / "web" / "static" / "js" / "table.js").read_text()
    lines = recipe().replace('"TABLE"', '"${view.table}"').replace(
        '"COMMITMENT"', '"${view.seed_commitment}"').replace("\\n", "\\\\n").splitlines()
    assert all(line in page for line in lines), lines


def everything_a_client_sees(c: TestClient, t: str, tokens: list[str]) -> list[str]:
    """Every answer about table ``t`` that any viewer can get over HTTP."""
    out = [c.get("/api/lobby").text, c.get(f"/api/tables/{t}/export").text,
           c.get(f"/api/tables/{t}/rules").text]
    for headers in [{}, *(auth(k) for k in tokens)]:
        for query in ["", "?since=0", "?since=1"]:
            out.append(c.get(f"/api/tables/{t}{query}", headers=headers).text)
        for query in ["", "?at=0", "?at=1"]:
            out.append(c.get(f"/api/tables/{t}/replay{query}", headers=headers).text)
        out.append(c.get(f"/api/tables/{t}/picture.svg", headers=headers).text)
    return out


def test_the_seed_is_committed_in_every_view_and_revealed_only_at_the_end(
        sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        with drawn_seed(SEED):
            made = c.post("/api/tables", json={"game": "scout", "players": 2,
                                               "options": {"rounds": 1}}).json()
        t = made["table"]
        tokens = [s["token"] for s in made["seats"]]
        commitment = hashlib.sha256(f"{t}:{SEED}".encode()).hexdigest()
        assert made["seed_commitment"] == commitment
        assert made["seed_chosen_by_creator"] is False
        assert str(SEED) not in json.dumps(made)
        messages: list[str] = []
        with c.websocket_connect(f"/api/tables/{t}/ws", headers=auth(tokens[0])) as ws0, \
                c.websocket_connect(f"/api/tables/{t}/ws") as spectator:
            messages += [json.dumps(ws0.receive_json()), json.dumps(spectator.receive_json())]
            view = c.get(f"/api/tables/{t}", headers=auth(tokens[0])).json()
            for _ in range(2):  # moves, until the game is over
                seat = view["current_player"]
                answer = c.post(f"/api/tables/{t}/moves", headers=auth(tokens[seat]),
                                json={"version": view["version"], "index": 0})
                assert answer.status_code == 200, answer.text
                messages += [answer.text, json.dumps(ws0.receive_json()),
                             json.dumps(spectator.receive_json())]
                view = answer.json()
            before_end = everything_a_client_sees(c, t, tokens)
            for text in before_end + messages:
                assert str(SEED) not in text
            views = [json.loads(x) for x in before_end[3:] if x.startswith('{"table"')]
            assert views and all(v["seed_commitment"] == commitment and v["seed"] is None
                                 for v in views)
            assert all(json.loads(m)["view"]["seed_commitment"] == commitment
                       for m in messages if m.startswith('{"type"'))
            while view["status"] == "playing":
                seat = view["current_player"]
                answer = c.post(f"/api/tables/{t}/moves", headers=auth(tokens[seat]),
                                json={"version": view["version"], "index": 0})
                assert answer.status_code == 200, answer.text
                view = answer.json()
            last = ws0.receive_json()
            while last["view"]["status"] == "playing":
                messages.append(json.dumps(last))
                last = ws0.receive_json()
            for text in messages:
                assert str(SEED) not in text
        # Over: the seed is out, and it is the one committed to.
        assert view["status"] == "finished" and view["seed"] == SEED
        assert last["view"]["seed"] == SEED
        exported = c.get(f"/api/tables/{t}/export").json()
        assert exported["seed"] == SEED
        replay = c.get(f"/api/tables/{t}/replay").json()
        assert replay["seed"] == SEED and replay["seed_commitment"] == commitment
        verify(t, view["seed_commitment"], exported)


def test_a_chosen_seed_only_where_nobody_else_can_sit(client: TestClient) -> None:
    def create(**body: Any) -> Any:
        return client.post("/api/tables", json={"game": "scout", "players": 2,
                                                "seed": 42, **body})

    bot = {"kind": "bot", "level": "random"}
    refusals: list[dict[str, Any]] = [
        {}, {"listed": False},  # two people's seats
        {"seats": [{"kind": "human"}, bot]}]  # listed: a stranger may join
    for refused in refusals:
        r = create(**refused)
        assert r.status_code == 422, r.text
        assert "a chosen seed is only for a table no one else can sit at" in r.json()["detail"]
    assert client.get("/api/lobby").json()["tables"] == []  # nothing was stored
    practice = create(seats=[{"kind": "human"}, bot], listed=False)
    bots = create(seats=[bot, bot])
    for r in (practice, bots):
        assert r.status_code == 201, r.text
        made = r.json()
        assert made["seed_chosen_by_creator"] is True
        view = client.get(f"/api/tables/{made['table']}").json()
        assert view["seed_chosen_by_creator"] is True
        assert view["seed_commitment"] == hashlib.sha256(
            f"{made['table']}:42".encode()).hexdigest()
    # Drawn seeds: two tables, two different seeds (and commitments).
    drawn = [client.post("/api/tables", json={"game": "scout", "players": 2}).json()
             for _ in range(2)]
    assert drawn[0]["seed_commitment"] != drawn[1]["seed_commitment"]
    assert not any(d["seed_chosen_by_creator"] for d in drawn)
