"""Resigning in the page: a person who no longer wants to play a game gives it up (the
server ends it, they place last), asked twice so that a stray tap does not; the host of a
table still waiting for people closes it so. Spectators have no such button."""

from __future__ import annotations

from tests.web import drive
from tests.web.conftest import Browsers, Server
from tests.web.test_newcomer import _CUT


def test_resigning_against_bots_on_a_phone(server: Server, browsers: Browsers) -> None:
    made = server.create("scout", 3, [{}, {"kind": "bot", "level": "random"},
                                      {"kind": "bot", "level": "random"}])
    table, token = made["table"], made["seats"][0]["token"]
    page = browsers.new_page(360, 740)
    page.goto(server.table_url(table, token))
    drive.wait_ready(page)
    page.click("#resign-ask")
    assert page.inner_text("#resign-what").startswith("Resign: the game ends now and you "
                                                      "place last.")
    assert page.evaluate("document.activeElement.id") == "resign-yes"
    assert page.evaluate(_CUT, page.query_selector(".status-line")) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.click("#resign-keep")  # not yet: the game goes on
    assert page.locator("#resign-yes").count() == 0
    assert server.api("GET", f"/api/tables/{table}")["status"] == "playing"
    page.click("#resign-ask")
    page.dblclick("#resign-yes")  # a double click sends once
    page.wait_for_selector("#ending")
    assert page.inner_text("#ending") == "The game ended: P0 (you) resigned."
    assert page.locator("#rematch").is_visible()
    assert page.locator("#resign").is_hidden()
    assert page.locator("#error").is_hidden()
    view = server.api("GET", f"/api/tables/{table}")
    assert view["status"] == "finished" and view["result"]["resigned"] == 0
    assert [e["kind"] for e in view["log"]].count("resign") == 1


def test_a_spectator_has_no_resign_button(server: Server, browsers: Browsers) -> None:
    made = server.create("clown-15-go", 2, [{}, {"kind": "bot", "level": "random"}])
    page = browsers.new_page()
    page.goto(server.table_url(made["table"]))
    page.wait_for_function("document.body.dataset.status === 'playing'")
    assert page.locator("#resign").is_hidden()
    assert page.locator("#resign-ask").count() == 0


def test_the_host_closes_a_waiting_table(server: Server, browsers: Browsers) -> None:
    made = server.api("POST", "/api/tables", {"game": "scout", "players": 2,
                                              "seats": [{}, {"invite": "Ben"}]})
    table, token = made["table"], made["seats"][0]["token"]
    page = browsers.new_page()
    page.goto(server.table_url(table, token))
    page.wait_for_function("document.body.dataset.status === 'waiting'")
    page.click("#resign-ask")
    assert page.inner_text("#resign-what").startswith("Close the table: nobody plays it.")
    page.click("#resign-yes")
    page.wait_for_function("document.body.dataset.status === 'expired'")
    assert server.api("GET", f"/api/tables/{table}")["status"] == "expired"
    assert page.locator("#resign").is_hidden()
    # Nothing was dealt: the page says so (it drew a board from no observation, and failed).
    page.wait_for_selector("#closed")
    assert "closed before the game started" in page.inner_text("#board")
    assert "closed the table before the game started" in page.inner_text("#log-list")
