"""A blocked identity opens nothing, through its seats' tokens either. Blocking set its
player key aside, but the seats it sat at kept their own tokens: the ones its pages hold
(the creation answer's, which the lobby page opens the creator's table with; a lobby
join's; a rematch's), so a blocked identity went on chatting and playing at every table it
sat at, under its name, as long as its browser kept those links. Its seats' tokens are
ended with the block; once unblocked, its key opens them again (its old links do not)."""

from __future__ import annotations

from tests.server.conftest import make_client
from tests.server.test_api import auth, problem
from tests.server.test_host_tools import host, seated
from tests.server.test_players import new_player


def test_a_blocked_identitys_seat_tokens_open_nothing_either(db_url: str) -> None:
    with make_client(db_url) as a, make_client(db_url) as b:
        ben = new_player(a, "Ben")
        made = seated(a, ben["key"])
        t = made["table"]
        mine, theirs = made["seats"][0]["token"], made["seats"][1]["token"]
        r = a.post(f"/api/tables/{t}/chat", json={"text": "hi"}, headers=auth(mine))
        assert r.status_code == 201, r.text
        assert host(db_url, "block", ben["id"]) == f"blocked {ben['id']}\n"
        for c in (a, b):  # A held the table in memory, B never saw it
            problem(c.post(f"/api/tables/{t}/chat", json={"text": "still here"},
                           headers=auth(mine)), 403, "wrong-token")
            problem(c.get(f"/api/tables/{t}", headers=auth(mine)), 403, "wrong-token")
            # The other seat's person is not touched.
            assert c.get(f"/api/tables/{t}", headers=auth(theirs)).json()["seat"] == 1
        assert [m["text"] for m in a.get(f"/api/tables/{t}/chat").json()["messages"]] == ["hi"]
        assert host(db_url, "unblock", ben["id"]) == f"unblocked {ben['id']}\n"
        for c in (a, b):
            assert c.get(f"/api/tables/{t}", headers=auth(ben["key"])).json()["seat"] == 0
            problem(c.get(f"/api/tables/{t}", headers=auth(mine)), 403, "wrong-token")
