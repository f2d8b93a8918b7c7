"""The lobby: create a table with an invited person, copy and open the invite link, watch
as a spectator, sit at an open table, recent tables; playing with the keyboard only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web import drive
from tests.web.conftest import SPEED, Browsers, Server

BOARD_4X10 = Path(__file__).parents[1] / "games" / "zirkus" / "boards" / "board-4x10.json"


@pytest.mark.slow
def test_invite_spectate_join_and_recent_tables(server: Server, browsers: Browsers) -> None:
    host = browsers.new_page()
    # A bad option (the browser checks numbers; the engine the rest): the server's one-line
    # reason above the form, and no table.
    drive.fill_lobby_form(host, server.url, "clown-15-go", 2, {1: "bot:easy"}, {"colours": "RR"})
    host.click("#create-button")
    host.wait_for_selector("#error:not([hidden])")
    assert "colours" in host.inner_text("#error"), host.inner_text("#error")
    assert host.locator("#created").is_hidden()
    browsers.allow_network_errors()
    browsers.shot(host, "lobby-bad-option")
    browsers.axe(host, "the lobby, a bad option refused")
    drive.fill_lobby_form(host, server.url, "scout", 2, {1: "invite"}, {"rounds": "1"})
    host.check("#listed")  # an invited seat keeps the table out of the lobby unless listed
    host.click("#create-button")
    host.wait_for_selector("#created:not([hidden])")
    invite = host.input_value("#created input.link")
    assert "#token=" in invite
    spectate = host.input_value("#spectator-link")  # shown, to open or send: no token in it
    assert spectate == invite.split("#")[0] and "token" not in spectate
    host.click("#created button:has-text('Copy')")
    host.wait_for_selector("#toast:has-text('Copied')")
    browsers.shot(host, "lobby-created")
    browsers.axe(host, "the lobby, a table created with an invite")

    # A spectator finds the table in the lobby (P1 is free) and watches: no hand, no moves.
    watcher = browsers.new_page()
    watcher.goto(server.url + "/")
    table = invite.split("table=")[1].split("#")[0]
    watcher.click(f"#open-tables li[data-table='{table}'] a:has-text('Watch')")
    # The lobby has no #turn: read it only once the table page is there.
    watcher.wait_for_url("**/table.html?*")
    watcher.wait_for_function(
        "(document.getElementById('turn')?.textContent || '').includes('watching')")
    assert watcher.locator("#board .mine").count() == 0
    assert watcher.locator("#board .scout-card:not(.back)").count() == 0

    # The invited person opens the link in another browser and sits at P1.
    guest = browsers.new_page(width=390, height=844)
    guest.goto(invite.replace("#", f"&speed={SPEED}#"))
    guest.wait_for_function("document.getElementById('turn').textContent.includes('You are P1')")

    # The host goes to their seat, shows a card; everyone sees the move.
    host.click("#go-to-table")
    host.wait_for_url("**/table.html?*")
    drive.wait_ready(host)
    before = drive.version(host)
    host.click("#board [data-hand='0']")
    host.click("#board button.act:has-text('Show 1 card')")
    for page in (host, guest, watcher):
        drive.wait_after(page, before)
    # The watcher's page runs at full speed: the picture waits for the card to land.
    watcher.wait_for_function("document.body.dataset.idle === 'yes' && "
                              "!document.getAnimations().length")
    browsers.shot(watcher, "spectator")
    browsers.axe(watcher, "a spectator's table")
    browsers.shot(guest, "scout-phone")

    # The host's lobby remembers the table; the guest's does too (it opened an invite).
    host.goto(server.url + "/")
    # (with where the table stands, read after the list is drawn)
    host.wait_for_selector(f"#recent-tables li[data-table='{table}'][data-state]")
    browsers.shot(host, "lobby-recent")

    # Sitting down at an open table from the lobby.
    made = server.create("so-ein-zirkus", 2, [{"kind": "bot", "level": "random"},
                                             {"kind": "human"}])
    joiner = browsers.new_page()
    joiner.goto(server.url + "/")
    joiner.click(f"#open-tables li[data-table='{made['table']}'] button:has-text('Sit at P1')")
    joiner.wait_for_url("**/table.html?*")
    joiner.wait_for_function("document.getElementById('turn').textContent.includes('You are P1')")
    # A private table: its free seat is not offered in the lobby, only by its invite link.
    drive.fill_lobby_form(host, server.url, "scout", 2, {1: "invite"}, {})
    host.uncheck("#listed")
    host.click("#create-button")
    host.wait_for_selector("#created:not([hidden])")
    private = host.input_value("#created input.link").split("table=")[1].split("#")[0]
    listed = [t["table"] for t in server.api("GET", "/api/lobby")["tables"]]
    assert private not in listed and made["table"] not in listed  # (that seat is taken)
    phone = browsers.new_page(width=390, height=844)
    phone.goto(server.url + "/")
    phone.wait_for_selector("#seat-list select")
    browsers.shot(phone, "lobby-phone")


def test_keyboard_only(server: Server, browsers: Browsers) -> None:
    made = server.create("scout", 2, [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                         {"rounds": 1}, seed=21)
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    show = next(m for m in drive.legal_moves(page) if m["type"] == "show" and m["length"] == 1)
    before = drive.version(page)
    page.focus(f"#board [data-hand='{show['start']}']")
    page.keyboard.press("Enter")
    assert page.get_attribute(f"#board [data-hand='{show['start']}']", "aria-pressed") == "true"
    for _ in range(40):  # Tab on to the Show button, as a keyboard user would
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent").startswith("Show 1 card"):
            break
    page.keyboard.press("Enter")
    drive.wait_after(page, before)


def test_a_board_loaded_from_a_file(server: Server, browsers: Browsers) -> None:
    page = browsers.new_page()
    drive.fill_lobby_form(page, server.url, "so-ein-zirkus", 2, {1: "bot:random"}, {})
    page.set_input_files("#opt-board-file", str(BOARD_4X10))
    page.wait_for_function("document.getElementById('opt-board').value.startsWith('{')")
    page.click("#create-button")
    page.wait_for_url("**/table.html?*")
    page.wait_for_selector("#board svg.zirkus-board")
    # The file's board: 4 columns x 10 rows, four start fields, nine holes.
    assert page.locator("#board rect.field").count() == 40
    assert page.locator("#board rect.field.start").count() == 4
    assert page.locator("#board circle.hole").count() == 9


def test_bad_links_say_what_is_wrong(server: Server, browsers: Browsers) -> None:
    made = server.create("scout", 2, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    page = browsers.new_page()
    for url, words in ((server.table_url("no-such-table"), "no-such-table"),
                       (server.table_url(made["table"], "not-a-seat-token"), "token"),
                       (f"{server.url}/table.html", "No table in the address")):
        page.goto(url)
        page.wait_for_selector("#error:not([hidden])")
        text = page.inner_text("#error")
        assert words in text and "\n" not in text.strip(), text
        assert "Loading" not in page.inner_text("#turn")  # what to do next instead
        # No empty board, log or rules panels beside the line (issue 24).
        assert page.locator("#layout").is_hidden()
        assert not page.evaluate("[...document.querySelectorAll('.panel, #board')]"
                                 ".some((e) => e.offsetParent !== null)")
        browsers.axe(page, f"the bad link {url}")
    # A wrong token still leads to the table: it can be watched.
    page.goto(server.table_url(made["table"], "not-a-seat-token"))
    page.click("#watch-instead")
    page.wait_for_function("document.getElementById('turn').textContent.includes('watching')")
    browsers.allow_network_errors()


def test_the_rules_panel_follows_the_table_options(server: Server, browsers: Browsers) -> None:
    """A Tricky Landing table made with face-down cards discarded: the panel shows the
    engine's rules for these options (paragraphs and lists as text) and the page's hint."""
    page = browsers.new_page()
    drive.fill_lobby_form(page, server.url, "tricky-landing", 3,
                          {1: "bot:random", 2: "bot:random"}, {"rounds": "1"})
    # The lobby tells what the chosen game is before a table is made (default options).
    page.click("#game-rules summary")
    assert "How to play Tricky Landing" in page.inner_text("#game-rules summary")
    assert page.inner_text("#game-rules-body").startswith("Tricky Landing. Five suits")
    # The options' explanations carry no rulings' codes ("T1: when a trick has …").
    hints = page.eval_on_selector_all("#options .hint", "els => els.map(e => e.textContent)")
    assert hints and not [t for t in hints if re.search(r"\b[GRSTZ]\d+\b", t)], hints
    assert "When a trick has a lead suit" in " ".join(hints), hints
    page.select_option("#opt-face_down_cards", '"discarded"')
    page.click("#create-button")
    page.wait_for_url("**/table.html?*")
    page.wait_for_selector("#rules-body .how-to")
    body = page.inner_text("#rules-body")
    assert "Face-down cards never win and are discarded." in body, body
    assert "collects them too" not in body
    assert "flick it from your seat" in page.inner_text("#rules-body .how-to")
    table = page.evaluate("new URLSearchParams(location.search).get('table')")
    rules = server.api("GET", f"/api/tables/{table}/rules")["rules"]
    shown = page.eval_on_selector_all(
        "#rules-body > p:not(.how-to), #rules-body > ul > li", "els => els.map(e => e.textContent)")
    assert shown == [line.removeprefix("* ") for line in rules]
    assert set(page.eval_on_selector_all("#rules-body *", "els => els.map(e => e.tagName)")) \
        <= {"P", "UL", "LI", "STRONG"}
    browsers.shot(page, "tricky-landing-rules")
    # Clown 15 Go with advanced rule 3: its sentence is an item of the advanced rules' list.
    made = server.create("clown-15-go", 2, [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
                         {"sets": 2, "borrowing": True})
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    page.wait_for_selector("#rules-body .how-to")
    items = page.eval_on_selector_all("#rules-body ul:last-of-type > li",
                                      "els => els.map(e => e.textContent)")
    assert items == ["You may move other players' open tops to the middle."], items


def test_the_lobby_says_what_each_bot_does(server: Server, browsers: Browsers) -> None:
    """A newcomer choosing a seat's bot sees the ladder first and the two yardsticks apart
    under their own heading, and what each one does, in levels.py's words (served by
    /api/games, never written into the page's script)."""
    from bigtop.agents.levels import ABOUT, ALIASES, DEFAULT_LEVEL, LEVELS

    page = browsers.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-list select")
    groups = page.eval_on_selector("#seat-1", """s => [...s.querySelectorAll("optgroup")]
        .map((g) => [g.label, [...g.querySelectorAll("option")].map((o) => o.value)])""")
    assert groups == [["bots, weakest first", [f"bot:{n}" for n in LEVELS]],
                      ["yardsticks (for analysts)", [f"bot:{n}" for n in ALIASES]]]
    assert page.input_value("#seat-1") == f"bot:{DEFAULT_LEVEL}"
    titles = page.eval_on_selector_all("#seat-1 option[value^='bot:']", """os =>
        Object.fromEntries(os.map((o) => [o.value.slice(4), o.title]))""")
    assert titles == ABOUT
    page.click("#bot-levels summary")
    text = " ".join(page.inner_text("#bot-levels-body").split())
    for name, about in ABOUT.items():
        assert f"{name}: {about}" in text or f"{name} (default): {about}" in text, (name, text)
    assert text.index(ABOUT["hard"]) < text.index("Yardsticks (for analysts)") < text.index(
        ABOUT["heuristic"])
    browsers.shot(page, "lobby-bots")


def test_a_page_back_from_the_browser_s_cache_loads_afresh(server: Server,
                                                           browsers: Browsers) -> None:
    """A table page the back button restores from the back/forward cache would sit on a
    closed socket: the page loads again (headless chromium keeps no such cache, so the
    browser's event is dispatched by hand)."""
    made = server.create("scout", 2, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    page.evaluate("window.leftHere = 1")
    with page.expect_navigation():
        page.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', "
                      "{persisted: true}))")
    drive.wait_ready(page)
    assert page.evaluate("window.leftHere") is None
    page.evaluate("window.leftHere = 1")
    page.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', "
                  "{persisted: false}))")  # a fresh load: nothing to do
    assert page.evaluate("window.leftHere") == 1


def test_the_invite_links_name_whom_they_are_for(server: Server, browsers: Browsers) -> None:
    """Ben and Cleo invited by name: the links said "P1:" and "P2:", and the host had to work
    out which seat was whose before sending them."""
    host = browsers.new_page()
    drive.fill_lobby_form(host, server.url, "scout", 4, {1: "invite", 2: "invite",
                                                         3: "invite"}, {})
    host.fill("#invite-name-1", "Ben")
    host.fill("#invite-name-2", "Cleo")
    host.click("#create-button")
    host.wait_for_selector("#created:not([hidden])")
    lines = host.locator("#created ul.links li")
    assert [lines.nth(k).inner_text().split(":")[0] for k in range(3)] == [
        "Ben (P1)", "Cleo (P2)", "P3"]
    assert [lines.nth(k).locator("input").get_attribute("aria-label") for k in range(3)] == [
        "invite link for Ben (P1)", "invite link for Cleo (P2)", "invite link for P3"]


def test_what_happens_at_a_time_out_is_asked_only_with_a_clock(server: Server,
                                                               browsers: Browsers) -> None:
    """"Clock: none" stood beside "then a bot plays for them": a choice about a time that never
    runs out. It comes with a clock, and goes with it."""
    page = browsers.new_page(360, 740)
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")  # the lobby has started
    assert page.locator("#on-timeout").is_hidden()
    page.select_option("#clock", label="30 s a move")
    assert page.locator("#on-timeout").is_visible()
    page.select_option("#on-timeout", "lose")
    page.select_option("#clock", label="none")
    assert page.locator("#on-timeout").is_hidden()
