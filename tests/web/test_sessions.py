"""Several people and bad moments: two browsers at one SCOUT table each seeing only its own
hand; an illegal attempt; reloading mid-game; the server killed and restarted mid-game."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from tests.web import drive
from tests.web.conftest import Browsers, Server


def hand_on_page(page: Page) -> list[list[int]]:
    """The hand the page draws: [top, bottom] per card, in hand order."""
    hand: list[list[int]] = page.eval_on_selector_all(
        "#board .mine .hand .scout-card",
        "els => els.map(e => [Number(e.querySelector('.top').textContent),"
        " Number(e.querySelector('.bottom').textContent)])")
    return hand


def test_two_browsers_at_one_scout_table(server: Server, browsers: Browsers) -> None:
    made = server.create("scout", 2, [{"kind": "human"}, {"kind": "human"}], {"rounds": 1})
    table = made["table"]
    tokens = [s["token"] for s in made["seats"]]
    pages = [browsers.new_page(), browsers.new_page(width=390, height=844)]
    for page, token in zip(pages, tokens, strict=True):
        page.goto(server.table_url(table, token))
    # Seat 1's link was an invite: its page exchanged it for a token of its own, which the
    # address carries now (the link's opens nothing any more).
    for page in pages:
        page.wait_for_selector("#people-list li")
    tokens = [page.evaluate("new URLSearchParams(location.hash.slice(1)).get('token')")
              for page in pages]
    assert tokens[0] == made["seats"][0]["token"] and tokens[1] != made["seats"][1]["token"]
    rng = random.Random(5)
    for _ in range(200):
        views = [server.api("GET", f"/api/tables/{table}", token=t) for t in tokens]
        if views[0]["status"] != "playing":
            break
        mover = views[0]["current_player"]
        for seat, page in enumerate(pages):
            page.wait_for_function(
                f"() => Number(document.body.dataset.version) === {views[0]['version']}"
                " && document.body.dataset.idle === 'yes'")
            own = views[seat]["observation"]["hands"][seat]
            other = views[seat]["observation"]["hands"][1 - seat]
            # Each page draws exactly its own hand; of the other hand only public cards.
            assert hand_on_page(page) == own
            shown = page.eval_on_selector_all("#board [data-spot] .mini-hand > *",
                                              "els => els.map(e => e.className)")
            assert len(shown) == len(other)
            assert all(("back" in cls) == (card is None) for cls, card in zip(shown, other,
                                                                             strict=True))
        if views[0]["version"] == 3:
            browsers.shot(pages[0], "scout-two-browsers-desktop")
            browsers.shot(pages[1], "scout-two-browsers-phone")
        drive.wait_ready(pages[mover])
        drive.play_scout_turn(pages[mover], rng)
    for page in pages:
        assert drive.wait_ready(page) == "over"
        assert page.locator("#scores ol.final li").count() == 2


@pytest.mark.slow
def test_illegal_attempt_reload_and_restart(server: Server, browsers: Browsers) -> None:
    made = server.create("scout", 2, [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                         {"rounds": 2}, seed=11)
    table, token = made["table"], made["seats"][0]["token"]
    page = browsers.new_page()
    page.goto(server.table_url(table, token))
    rng = random.Random(9)
    drive.wait_ready(page)
    drive.play_scout_turn(page, rng)

    # An illegal Show: the server's message is shown and nothing changes.
    drive.wait_ready(page)
    legal = drive.legal_moves(page)
    hand = hand_on_page(page)
    shows = {(m["start"], m["length"]) for m in legal if m["type"] == "show"}
    start, length = next((s, n) for n in (1, 2, 3) for s in range(len(hand) - n + 1)
                         if (s, n) not in shows)
    before = drive.version(page)
    for i in range(start, start + length):
        page.click(f"#board [data-hand='{i}']")
    page.click("#board button.act:has-text('Show')")
    page.wait_for_selector("#error:not([hidden])")
    message = page.inner_text("#error")
    assert message.startswith("Not allowed: ") and len(message) > 20, message
    browsers.allow_network_errors()
    browsers.shot(page, "scout-illegal")
    assert drive.version(page) == before
    assert hand_on_page(page) == hand
    view = server.api("GET", f"/api/tables/{table}", token=token)
    assert view["version"] == before and view["observation"]["hands"][0] == hand

    # Reload mid-game: the same table, and play goes on.
    page.reload()
    drive.wait_ready(page)
    assert drive.version(page) == before and hand_on_page(page) == hand
    drive.play_scout_turn(page, rng)

    # The server is killed (SIGKILL) and restarted: the banner comes and goes, play goes on.
    if drive.wait_ready(page) == "turn":
        at = drive.version(page)
        server.kill()
        page.wait_for_selector("#banner:not([hidden])")
        assert "reconnecting" in page.inner_text("#banner").lower()
        browsers.shot(page, "reconnecting")
        server.start()
        page.wait_for_selector("#banner", state="hidden", timeout=30_000)
        browsers.allow_network_errors()
        assert drive.version(page) == at
        summed_up = False
        for _ in range(200):
            if drive.wait_ready(page) == "over":
                break
            if page.locator("#summary").is_visible():
                # The end of round 1, over the middle of the table until seen.
                browsers.shot(page, "scout-summary")
                browsers.axe(page, "SCOUT's round summary")
                summed_up = True
            drive.play_scout_turn(page, rng)
        assert summed_up  # the summary was still up at our next turn
    assert drive.wait_ready(page) == "over"
    browsers.allow_network_errors()
    # The end of round 1 was summed up on the page (it stays until dismissed).
    assert "Round 1 is over" in page.inner_text("#summary")
    browsers.axe(page, "SCOUT's final scores after two rounds")


def test_a_bot_plays_for_an_absent_player_who_takes_the_seat_back(
        server: Server, browsers: Browsers) -> None:
    made = server.api("POST", "/api/tables", {
        "game": "scout", "players": 2, "options": {"rounds": 1},
        "seats": [{"kind": "human"}, {"kind": "human"}], "takeover_after": 6})
    table = made["table"]
    tokens = [s["token"] for s in made["seats"]]
    # (Presence is refreshed every few seconds, so the limit is above that.)
    other = browsers.new_page()
    other.goto(server.table_url(table, tokens[1]))
    # P0 never came: after 6 s a bot plays P0's first move; P1's turn follows.
    other.wait_for_function("Number(document.body.dataset.version) >= 1", timeout=30_000)
    lines = other.eval_on_selector_all("#log-list li.log-takeover .t",
                                       "els => els.map(e => e.textContent)")
    assert any(line.startswith("P0 is away") for line in lines), lines
    away = browsers.new_page()
    away.goto(server.table_url(table, tokens[0]))
    away.wait_for_selector("#reclaim:not([hidden])")
    browsers.shot(away, "takeover")
    browsers.axe(away, "a seat a bot plays for its absent player")
    away.click("#reclaim")
    away.wait_for_selector("#reclaim", state="hidden")
    away.wait_for_selector("#log-list li.log-reclaim")
    # P1 moves; then it is P0's own turn again, in P0's hands.
    rng = random.Random(1)
    assert drive.wait_ready(other) == "turn"
    while True:  # P1's whole turn (a Scout is two actions)
        drive.play_scout_turn(other, rng)
        other.wait_for_function("document.body.dataset.idle === 'yes'")
        if other.evaluate("document.body.dataset.myTurn") != "yes":
            break
    if drive.wait_ready(away) == "turn":
        assert away.locator("#moves-list [data-action]").count() > 0


def test_a_late_move_is_said_to_be_late(server: Server, browsers: Browsers) -> None:
    """The seat moved in another window while this page heard nothing (its live updates are
    cut off): the page's move arrives late, says so, and shows the table as it is now."""
    made = server.create("scout", 2, [{"kind": "human"}, {"kind": "human"}], {"rounds": 1})
    table, token = made["table"], made["seats"][0]["token"]
    page = browsers.new_page()
    page.route_web_socket("**/ws*", lambda ws: None)  # open, but never a message
    page.goto(server.table_url(table, token))
    drive.wait_ready(page)
    before = drive.version(page)
    # The other window plays P0's first legal move.
    view = server.api("GET", f"/api/tables/{table}", token=token)
    server.api("POST", f"/api/tables/{table}/moves",
               {"version": view["version"], "action": view["legal_actions"][-1]["action"]},
               token=token)
    page.click("#moves-list button >> nth=0")
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")
    assert page.inner_text("#error").startswith("Too late: the table moved on")
    assert drive.top_line(page).startswith("P1 to play.")
    browsers.allow_network_errors()
