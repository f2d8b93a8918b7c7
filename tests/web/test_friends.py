"""Friends who come back (issue 25), in three browsers — host, friend, spectator — in one
flow: a name, an invite the host finds again on the table page, "waiting for … to join",
chat (text, never markup), turn marks (title, favicon, sound, notification), undo by
agreement, the end, every hand in the replay, a rematch that takes everyone along, My games,
the key moved to another device, a rename seen live; a rated table with a clock where the
friend's time runs out, a bot plays his turn, he takes his seat back and the game ends; the
ratings; and no secret in any URL the pages request."""

from __future__ import annotations

import random
import urllib.error
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web import drive
from tests.web.conftest import SPEED, Browsers, Server
from tests.web.test_sessions import hand_on_page

# Headless chromium shows no notifications: the page's Notification is a recorder (an init
# script runs before the page's own), granted, so the test sees what the page would show.
FAKE_NOTIFICATION = """window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, options.body]); }
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
};"""

MARKUP = "<b>gg</b> & <img src=x> well played"


def recorded(page: Page, urls: list[str]) -> Page:
    page.context.on("request", lambda r: urls.append(r.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    return page


def finish(server: Server, table: str, tokens: list[str], rng: random.Random) -> None:
    """Play the table to its end through the API (the pages follow live). At a clocked table
    a move may come too late (409: a machine that busy): a bot then plays that seat on, to
    the same end."""
    for _ in range(500):
        for token in tokens:
            view = server.api("GET", f"/api/tables/{table}", token=token)
            if view["status"] != "playing":
                return
            if view["legal_actions"]:
                pick = rng.choice(view["legal_actions"])
                try:
                    server.api("POST", f"/api/tables/{table}/moves",
                               {"version": view["version"], "index": pick["index"]},
                               token=token)
                except urllib.error.HTTPError as e:
                    if e.code != 409:
                        raise
    raise AssertionError("the game did not end")


def move(server: Server, table: str, token: str) -> bool:
    """The seat's first legal move, if it is to move; False when it is not."""
    view = server.api("GET", f"/api/tables/{table}", token=token)
    if not view["legal_actions"]:
        return False
    server.api("POST", f"/api/tables/{table}/moves", {"version": view["version"], "index": 0},
               token=token)
    return True


def shows(page: Page, selector: str, text: str) -> None:
    """Wait until the element's text includes ``text`` (a page a moment behind catches up)."""
    try:
        page.wait_for_function("([s, t]) => (document.querySelector(s)?.innerText || '')"
                               ".includes(t)", arg=[selector, text])
    except PlaywrightTimeout:
        error = page.evaluate("document.getElementById('error')?.textContent || ''")
        raise AssertionError(f"{selector} says {page.inner_text(selector)!r}, not {text!r} "
                             f"(the page's error line: {error!r})") from None


def table_of(page: Page) -> str:
    return str(page.evaluate("new URLSearchParams(location.search).get('table')"))


def fragment_token(page: Page) -> str:
    return urlparse(page.url).fragment.removeprefix("token=")


def test_an_invite_link_is_exchanged_for_the_friends_own_token(server: Server,
                                                               browsers: Browsers) -> None:
    """The friend's page trades the link's token (which the host can derive) for a fresh
    one, also after a page with the link's token sat there first (that page is told): the
    address and this browser's recent tables carry the new one, the link's token opens
    nothing any more, and the link opened again elsewhere says why; where it was first
    opened, it opens the seat still."""
    made = server.api("POST", "/api/tables", {"game": "scout", "players": 2,
                                              "options": {"rounds": 1},
                                              "seats": [{}, {"invite": "Ben"}]})
    table, host_token = made["table"], made["seats"][0]["token"]
    invite = made["seats"][1]["token"]
    host, friend = browsers.new_page(), browsers.new_page(390, 844)
    host.goto(server.table_url(table, host_token))
    host.wait_for_selector("#invite-1")
    assert fragment_token(host) == host_token  # the host's own token, unchanged
    # A page that kept the link's token (as one opened before exchanges were made: here its
    # exchange is answered with the same token) sits at Ben's seat first; the game starts.
    stale = browsers.new_page()
    stale.route("**/accept", lambda route: route.fulfill(
        json={"table": table, "seat": 1, "token": invite}))
    stale.goto(server.table_url(table, invite))
    stale.wait_for_function("document.body.dataset.status === 'playing'")
    assert stale.evaluate("document.body.dataset.seat") == "1"
    # Ben opens his link all the same: the seat is his, the other page is told so.
    friend.goto(server.table_url(table, invite))
    friend.wait_for_function("document.body.dataset.status === 'playing'")
    shows(stale, "#banner", "no longer opens the seat")
    mine = fragment_token(friend)
    assert mine and mine != invite
    assert friend.evaluate("JSON.parse(localStorage['bigtop.recent'])[0].token") == mine
    assert server.api("GET", f"/api/tables/{table}", token=mine)["seat"] == 1
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.api("GET", f"/api/tables/{table}", token=invite)
    assert refused.value.code == 403
    host.wait_for_function("document.body.dataset.status === 'playing'")
    assert not host.locator("#invite-1").count()
    # Opened again in another browser: why not, and a spectator's link instead.
    other = browsers.new_page()
    other.goto(server.table_url(table, invite))
    other.wait_for_selector("#watch-instead")
    assert "invite link was opened already" in other.inner_text("#turn")
    browsers.allow_network_errors()
    # Where it was first opened it is the friend's seat still, with the friend's token.
    friend.goto(server.url + "/")
    friend.goto(server.table_url(table, invite))
    friend.wait_for_function("document.body.dataset.seat === '1'")
    assert fragment_token(friend) == mine


@pytest.mark.slow
def test_friends_invite_chat_turns_rematch_and_my_games(server: Server,
                                                        browsers: Browsers) -> None:
    rng = random.Random(25)
    urls: list[str] = []
    host = recorded(browsers.new_page(), urls)
    host.add_init_script(FAKE_NOTIFICATION)
    friend = recorded(browsers.new_page(390, 844), urls)
    spectator = recorded(browsers.new_page(), urls)

    # A name (plain text, never markup), then a table with an invited friend.
    host.goto(server.url + "/")
    host.fill("#name-input", "Anna")
    host.click("#name-save")
    host.wait_for_selector("#my-name")
    assert host.inner_text("#my-name") == "Anna"
    shows(host, "#my-games", "No games yet")  # (asked for once the name is saved)
    drive.fill_lobby_form(host, server.url, "scout", 2, {1: "invite"}, {"rounds": "1"})
    host.fill("#invite-name-1", "Ben")
    assert not host.is_checked("#listed")  # an invited seat: only for the invite link
    host.click("#create-button")
    invite = host.input_value("#created ul.links input")
    host.click("#go-to-table")
    host.wait_for_selector("#invites input.link")
    table = table_of(host)
    assert table not in [t["table"] for t in server.api("GET", "/api/lobby")["tables"]]
    # The table waits, nothing dealt; the host finds the invite again on the table page.
    assert host.evaluate("document.body.dataset.status") == "waiting"
    assert host.input_value("#invite-1") == invite
    assert host.inner_text("#waiting") == "Waiting for Ben (P1) to join."
    assert "Anna (P0, you)" in host.inner_text("#people-list")
    assert "You are Anna (P0)." in drive.top_line(host)
    browsers.axe(host, "the table page with people and chat")
    browsers.shot(host, "friends-waiting")
    host_token = host.evaluate("JSON.parse(localStorage['bigtop.recent'])[0].token")

    # The friend (a phone) takes a name, then opens the invite: the seat becomes theirs.
    friend.goto(server.url + "/")
    friend.fill("#name-input", "Ben")
    friend.click("#name-save")
    friend.wait_for_selector("#my-name")
    friend.goto(invite.replace("table.html?", f"table.html?speed={SPEED}&"))
    friend.wait_for_selector("#chat-form:not([hidden])")
    host.wait_for_function("document.body.dataset.status === 'playing'")
    assert host.inner_text("#waiting") == ""
    host.wait_for_function("document.querySelector(\"#people-list li[data-seat='1']\")"
                           ".dataset.presence === 'here'")
    assert "Ben (P1)" in host.inner_text("#people-list")
    spectator.goto(server.table_url(table))
    spectator.wait_for_selector("#chat-list li")
    assert spectator.locator("#chat-form").is_hidden()  # spectators read only
    # The friend's page exchanged the link's token for one only it knows (the address
    # carries that one now); the host's derived token opens Ben's seat no more.
    friend_token = urlparse(friend.url).fragment.removeprefix("token=")
    assert friend_token and friend_token != invite.split("#token=")[1]
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.api("GET", f"/api/tables/{table}", token=invite.split("#token=")[1])
    assert refused.value.code == 403

    # Chat: live to everyone at the table, as text.
    host.fill("#chat-input", MARKUP)
    host.click("#chat-send")
    for page in (host, friend, spectator):
        page.wait_for_selector("#chat-list li[data-id]")
        assert page.inner_text("#chat-list li[data-id] .text") == MARKUP
        assert page.inner_text("#chat-list li[data-id] .from") == "Anna"
        assert not page.locator("#chat-list img, #chat-list b").count()
    friend.fill("#chat-input", "thanks!")
    friend.press("#chat-input", "Enter")
    host.wait_for_function("document.querySelectorAll('#chat-list li[data-id]').length === 2")
    assert host.inner_text("#chat-list li[data-id='2'] .from") == "Ben"

    # Turn marks: the title and favicon say whose turn; sound and a notification (the tab
    # hidden) on the host's turn, as switched on.
    host.check("#notify-sound")
    host.check("#notify-popup")
    view = server.api("GET", f"/api/tables/{table}", token=host_token)
    mover, other = (host, friend) if view["legal_actions"] else (friend, host)
    drive.wait_ready(mover)
    assert mover.title().startswith("● Your turn")
    assert mover.get_attribute("#favicon", "href") == "img/favicon-turn.svg"
    assert not other.title().startswith("●")
    assert other.get_attribute("#favicon", "href") == "img/favicon.svg"
    host.evaluate("Object.defineProperty(document, 'hidden', {value: true, configurable: true})")
    chimes = int(host.evaluate("document.body.dataset.chimes || '0'"))
    # The host's turn ends (if it is theirs), the friend's comes and ends: the host's again.
    while move(server, table, host_token):
        pass
    while move(server, table, friend_token):
        pass
    host.wait_for_function(f"Number(document.body.dataset.chimes) > {chimes}")
    host.wait_for_function("window.__notes.length > 0")
    assert host.evaluate("window.__notes[0][0]") == "bigtop: your turn"
    host.evaluate("delete document.hidden")

    # Undo by agreement: Ben asks to take back his last move, Anna accepts: the table goes
    # back to before it, Ben's turn again, and the log says so.
    before = drive.version(friend)
    friend.click("#undo-ask")
    friend.wait_for_selector("#undo-withdraw")
    host.click("#undo-accept")
    for page in (host, friend):
        page.wait_for_function(f"Number(document.body.dataset.version) < {before}")
        page.wait_for_function("document.getElementById('log-list').textContent"
                               ".includes('took back')")
    assert drive.wait_ready(friend) == "turn"
    assert not host.locator("#undo-accept").count()
    # The settings stay in this browser.
    host.reload()
    host.wait_for_selector("#people-list li")
    assert host.is_checked("#notify-sound") and host.is_checked("#notify-popup")

    # To the end, then a rematch: everyone is taken to the new table.
    finish(server, table, [host_token, friend_token], rng)
    for page in (host, friend, spectator):
        assert drive.wait_ready(page) == "over"
    assert not host.title().startswith("●")
    # The final summary names everyone; the replay shows every hand now the game is over.
    summary = host.inner_text("#final-summary")
    assert "Anna (P0, you)" in summary and "Ben (P1)" in summary, summary
    host.click("#open-replay")
    host.wait_for_selector("#replay-as option[value='1']", state="attached")
    # "First" then "Next" at once, the start's answer slow in coming (held here): step 1 shows,
    # and the start's late answer does not replace it.
    held: list[Route] = []
    host.route(lambda url: url.endswith("/replay?at=0"), lambda route: held.append(route))
    host.click("#replay-first")
    host.click("#replay-next")
    host.wait_for_function("document.getElementById('replay-at').textContent.startsWith('move 1 ')")
    for route in held:
        with host.expect_response(lambda r: r.url.endswith("/replay?at=0")):
            route.continue_()
    host.unroute_all()
    assert host.inner_text("#replay-at").startswith("move 1 ")
    host.select_option("#replay-as", "1")
    host.wait_for_function("document.body.dataset.seat === '1'")
    then = server.api("GET", f"/api/tables/{table}/replay?at=1", token=host_token)
    assert hand_on_page(host) == then["hands"][1]["hands"][1]
    browsers.shot(host, "friends-reveal")
    host.click("#replay-close")
    assert host.inner_text("#rematch") == "Rematch"
    assert not spectator.locator("#rematch").count()
    host.click("#rematch")
    for page in (host, friend, spectator):
        page.wait_for_function(f"new URLSearchParams(location.search).get('table') !== '{table}'")
        page.wait_for_selector("#people-list li")
    new_table = table_of(host)
    assert table_of(friend) == table_of(spectator) == new_table
    # Seats rotated: the friend starts; everyone keeps their name.
    assert friend.evaluate("document.body.dataset.seat") == "0"
    assert host.evaluate("document.body.dataset.seat") == "1"
    assert "Anna (P1)" in friend.inner_text("#people-list")
    assert "Ben (P0, you)" in friend.inner_text("#people-list")
    assert spectator.evaluate("document.body.dataset.seat") == ""

    # My games: the rematch first (a game going on), the finished table after it.
    host.goto(server.url + "/")
    host.wait_for_selector("#my-games li[data-table]")
    games = host.eval_on_selector_all("#my-games li[data-table]",
                                      "els => els.map(e => [e.dataset.table, e.dataset.state])")
    assert [t for t, _ in games] == [new_table, table], games
    assert games[0][1] in ("your_turn", "waiting") and games[1][1] == "finished"
    browsers.axe(host, "the lobby with My games")
    browsers.shot(host, "friends-my-games")
    # Its link opens the seat with this browser's key (in a header, never in the URL).
    host.click(f"#my-games li[data-table='{new_table}'] a")
    host.wait_for_selector("#people-list li")
    assert host.evaluate("document.body.dataset.seat") == "1"
    assert urlparse(host.url).fragment == "me"

    # The key to another device (the spectator's browser), then a rename seen at the table.
    host.goto(server.url + "/")
    host.click("#device-link")
    link = host.input_value("#device-link-text")
    key = link.split("#key=")[1]
    spectator.goto(link)
    spectator.wait_for_selector("#my-name")
    assert spectator.inner_text("#my-name") == "Anna"
    assert urlparse(spectator.url).fragment == ""  # the key left the address bar at once
    spectator.click("#rename")
    spectator.fill("#rename-input", "Anne")
    spectator.click("#rename-form button[type=submit]")
    spectator.wait_for_function("document.getElementById('my-name').textContent === 'Anne'")
    friend.wait_for_function(
        "document.getElementById('people-list').textContent.includes('Anne (P1)')")
    browsers.shot(friend, "friends-rematch-phone")

    # A rated table with a clock of 5 s a move, a bot playing on for whoever runs out. Ben
    # starts and stays idle: his time runs out, a bot plays his move, everyone sees it; he
    # takes his seat back and the game goes on to its end; then the ratings.
    ben_key = friend.evaluate("JSON.parse(localStorage['bigtop.player']).key")
    made = server.api("POST", "/api/tables", {
        "game": "scout", "players": 2, "options": {"rounds": 1, "first_player": 1},
        "rated": True, "clock": {"per_move_seconds": 5}, "on_timeout": "bot", "wait": True,
        "seats": [{"kind": "human"}, {"kind": "human", "invite": "Ben"}]}, token=key)
    rated = made["table"]
    host.goto(server.table_url(rated) + "#me")
    spectator.goto(server.table_url(rated))
    host.wait_for_selector("#invites input.link")
    spectator.wait_for_selector("#people-list li")
    # Ben's link, opened with his name: the seat is his (the table stays rated), his clock runs.
    friend.goto(server.table_url(rated, made["seats"][1]["token"]))
    # Nobody moves: the sweep finds Ben's time out, a medium bot plays his turn; then Anne's.
    friend.wait_for_selector("#reclaim:not([hidden])", timeout=60_000)
    assert drive.wait_ready(host, timeout=60_000) == "turn"
    # Anne's clock runs now (5 s): what shows only while the bot has Ben's seat, at once.
    assert friend.inner_text("#reclaim") == ("Your time ran out: a bot (medium) plays for you "
                                             "— take my seat back")
    shows(spectator, "#people-list", "Ben (P1) · out of time: a bot (medium) plays for them")
    shows(spectator, "#clocks [data-clock-seat='1']", "Ben (P1) out of time")
    browsers.shot(friend, "friends-takeover-phone")
    friend.click("#reclaim")
    friend.wait_for_selector("#reclaim", state="hidden")
    # The log says it all to everyone, as text: the time-out, the bot's move, the return.
    # (Anne's clock runs on meanwhile: on a very busy machine a bot may play for her too.)
    for page in (host, friend, spectator):
        page.wait_for_selector("#log-list li.log-reclaim")
        lines = page.eval_on_selector_all(
            "#log-list li .t", "els => els.map(e => [e.parentElement.className, e.textContent, "
                               "e.childElementCount])")
        assert ["log-timeout", "Ben ran out of time: a medium bot plays for them until they "
                "come back", 0] in lines, lines
        assert ["log-reclaim", "Ben is back and plays again", 0] in lines, lines
        assert any(k == "log-move" and t.startswith("Ben ") and t.endswith(" (bot medium)")
                   for k, t, _ in lines), lines
        assert not any(n for _, _, n in lines)  # text nodes only
    # Ben's seat is his again, with time on his next turn (no longer "out of time").
    shows(spectator, "#people-list", "Ben (P1) · here")
    assert not spectator.locator("#clocks .clock.out[data-clock-seat='1']").count()
    finish(server, rated, [key, ben_key], rng)
    end = server.api("GET", f"/api/tables/{rated}")
    for page in (host, friend, spectator):
        assert drive.wait_ready(page) == "over"
    assert end["rated"] and host.inner_text("#people-title") == "At the table (rated)"

    # The ratings: both people, provisional after one game, the winner (if one) above.
    spectator.goto(f"{server.url}/ratings.html?game=scout")
    spectator.wait_for_selector("#leaderboard-body tr[data-kind='player']")
    rows = spectator.eval_on_selector_all("#leaderboard-body tr[data-kind='player']",
                                          "els => els.map(e => e.innerText)")
    # (the worker's server is shared with the other browser tests: their players too)
    rows = [r for r in rows if "Anne" in r or "Ben" in r]
    assert len(rows) == 2 and all("?" in r for r in rows), rows
    names = [next(n for n in ("Anne", "Ben") if n in r) for r in rows]
    if len(end["result"]["winners"]) == 1:
        assert names[0] == ["Anne", "Ben"][end["result"]["winners"][0]], (rows, end["result"])
    assert "Anne" in spectator.inner_text("#leaderboard-body tr.mine")  # the key moved here

    secrets = [key, host_token, friend_token, ben_key, made["seats"][1]["token"]]
    assert not [u for u in urls if any(s in u for s in secrets)]
    assert not any("#" in u for u in urls)  # no fragment travels either



def test_a_friend_without_a_name_is_asked_for_one_at_the_table(server: Server,
                                                                 browsers: Browsers) -> None:
    """A table made without names (no player key, an invite with no name), its links opened
    in browsers that have none: each page asks for one beside the people. A refused name is
    said, and nothing changes; a name given is the seat's (the other page shows it instead
    of "P1"), this browser's identity (its tables are its own in My games), and the page asks
    no more, also after a reload. A table of one person and bots asks nothing."""
    made = server.api("POST", "/api/tables", {"game": "scout", "players": 2,
                                              "options": {"rounds": 1}, "seats": [{}, {}]})
    table, host_token, invite = (made["table"], made["seats"][0]["token"],
                                 made["seats"][1]["token"])
    host, friend = browsers.new_page(), browsers.new_page(390, 844)
    host.goto(server.table_url(table, host_token))
    friend.goto(server.table_url(table, invite))
    for page in (host, friend):
        page.wait_for_function("document.body.dataset.status === 'playing'")
        page.wait_for_selector("#seat-name-input")
    # A name the server refuses (a bidirectional mark) is said; the seat stays nameless.
    friend.fill("#seat-name-input", "Cleo\u202e")
    friend.click("#seat-name-save")
    shows(friend, "#error", "Your name was not taken")
    browsers.allow_network_errors()  # the refusal's 422 in the console
    assert friend.evaluate("localStorage['bigtop.player'] || null") is None
    assert server.api("GET", f"/api/tables/{table}")["seats"][1]["name"] is None
    friend.fill("#seat-name-input", "Cleo")
    friend.click("#seat-name-save")
    friend.wait_for_selector("#seat-name-input", state="detached")
    shows(host, "#people-list", "Cleo")
    assert server.api("GET", f"/api/tables/{table}")["seats"][1]["name"] == "Cleo"
    key = friend.evaluate("JSON.parse(localStorage['bigtop.player']).key")
    assert [t["table"] for t in server.api("GET", "/api/players/me", token=key)["tables"]] \
        == [table]
    # The page's own token still opens the seat, and a reload asks no more.
    assert server.api("GET", f"/api/tables/{table}",
                      token=fragment_token(friend))["seat"] == 1
    friend.reload()
    friend.wait_for_function("document.body.dataset.status === 'playing'")
    assert friend.locator("#people-name").is_hidden()
    # The host has not answered: still asked; answered, the friend's page says the name.
    assert host.locator("#seat-name-input").is_visible()
    host.fill("#seat-name-input", "Anna")
    host.click("#seat-name-save")
    shows(friend, "#people-list", "Anna")
    assert server.api("GET", f"/api/tables/{table}", token=host_token)["seat"] == 0
    # One person against a bot: no one to show a name to.
    solo = server.api("POST", "/api/tables", {"game": "scout", "players": 2,
                                              "seats": [{}, {"kind": "bot", "level": "easy"}]})
    alone = browsers.new_page()
    alone.goto(server.table_url(solo["table"], solo["seats"][0]["token"]))
    alone.wait_for_function("document.body.dataset.status === 'playing'")
    assert alone.locator("#people-name").is_hidden()
