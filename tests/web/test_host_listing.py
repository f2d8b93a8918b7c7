"""The host's "Listed in the lobby" switch on the table page: only the host has it, it is
reached and switched by keyboard, the lobby follows, and a table whose creator chose the
seed has none (the server would refuse)."""

from __future__ import annotations

from tests.web.conftest import Browsers, Server


def lobby(server: Server) -> set[str]:
    return {t["table"] for t in server.api("GET", "/api/lobby")["tables"]}


def test_the_host_lists_the_table_from_its_page(server: Server, browsers: Browsers) -> None:
    made = server.api("POST", "/api/tables", {"game": "scout", "players": 3, "seats": [
        {}, {"invite": "Ben"}, {}]})
    table = made["table"]
    host_token, friend_token = made["seats"][0]["token"], made["seats"][1]["token"]
    host, friend = browsers.new_page(), browsers.new_page()
    host.goto(server.table_url(table, host_token))
    host.wait_for_selector("#host-listed")
    assert "Listed in the lobby" in host.inner_text("#people-listing")
    assert not host.is_checked("#host-listed") and table not in lobby(server)
    # By keyboard: focus moves through the page to the switch; Space flips it.
    for _ in range(60):
        host.keyboard.press("Tab")
        if host.evaluate("document.activeElement.id") == "host-listed":
            break
    else:
        raise AssertionError("the switch is not reached with Tab")
    host.keyboard.press("Space")
    host.wait_for_function("document.querySelector('#listing-hint').textContent"
                           ".includes('anyone may take a free seat')")
    assert host.is_checked("#host-listed") and table in lobby(server)
    assert host.evaluate("document.activeElement.id") == "host-listed"  # kept on redraws
    browsers.axe(host, "the table page with the host's listing switch")
    host.keyboard.press("Space")
    host.wait_for_function("document.querySelector('#listing-hint').textContent"
                           ".includes('only your invite links')")
    assert not host.is_checked("#host-listed") and table not in lobby(server)
    # Another seat has no switch.
    friend.goto(server.table_url(table, friend_token))
    friend.wait_for_selector("#people-list li")
    assert friend.locator("#people-listing").is_hidden()
    assert not friend.locator("#host-listed").count()


def test_no_switch_where_the_creator_chose_the_seed(server: Server,
                                                    browsers: Browsers) -> None:
    made = server.create("scout", 2, [{}, {"kind": "bot", "level": "random"}], seed=4)
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    page.wait_for_selector("#people-list li")
    assert page.locator("#people-listing").is_hidden()


def test_no_switch_at_a_table_of_the_host_and_bots(server: Server, browsers: Browsers) -> None:
    """A newcomer's table of their own and bots offered "Listed in the lobby": the lobby
    lists only tables with a seat for a person still free, so the switch changed nothing."""
    made = server.create("scout", 3, [{}, {"kind": "bot", "level": "random"},
                                      {"kind": "bot", "level": "random"}])
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    page.wait_for_selector("#people-list li")
    assert page.locator("#people-listing").is_hidden()
