"""What a new player met on a first evening (a phone 360 px wide, a take-back the server
refuses): each test fails without its fix in the pages."""

from __future__ import annotations

import random
import re
import time

from playwright.sync_api import Dialog, Page

from tests.web import drive
from tests.web.conftest import SPEED, Browsers, Server
from tests.web.test_friends import finish, move, table_of

# Every element that reaches past the window's right edge, or whose text is cut inside it.
_CUT = """(root) => { const W = document.documentElement.clientWidth, cut = [];
  for (const e of root.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (!r.width || e.closest('.vh')) continue;
    if (r.right > W + 1 || e.scrollWidth > e.clientWidth + 1 && e.clientWidth)
      cut.push(`${e.tagName}#${e.id}.${e.getAttribute('class') || ''}`);
  }
  return cut; }"""


def aria_tree(page: Page, selector: str) -> str:
    """The element's accessibility tree as a screen reader gets it. A redraw (a view come
    again over the socket) can replace the element while it is read, which reads nothing:
    read again."""
    for _ in range(20):
        tree = page.locator(selector).aria_snapshot()
        if tree:
            return tree
        time.sleep(0.1)
    raise AssertionError(f"{selector} has no accessibility tree")


def finished_bot_table(server: Server, game: str, players: int,
                       options: dict[str, object]) -> str:
    made = server.create(game, players, [{"kind": "bot", "level": "random"}] * players,
                         options)
    table = str(made["table"])
    for _ in range(600):
        if server.api("GET", f"/api/tables/{table}")["status"] == "finished":
            return table
        time.sleep(0.1)
    raise AssertionError("the bots' game did not end")


def test_a_phone_shows_the_whole_title_and_the_verify_box(server: Server,
                                                          browsers: Browsers) -> None:
    """At 360 px "Tricky Landing" was cut to "Tricky Land…" beside *Copy spectator link*, and
    the seed's commitment and the check's code ran out of the side panel."""
    table = finished_bot_table(server, "tricky-landing", 3, {"rounds": 1})
    page = browsers.new_page(360, 740)
    page.goto(server.table_url(table))
    page.wait_for_selector("#verify")
    page.click("#verify summary")
    assert page.evaluate(_CUT, page.query_selector("header")) == []
    assert page.evaluate(_CUT, page.query_selector("#verify")) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_take_back_is_offered_only_where_the_server_grants_it(server: Server,
                                                                browsers: Browsers) -> None:
    """Clown 15 Go: the page offered "Ask to take back my last move" after a move that turned
    a card, and the server refused it. The seat's view says beforehand whether asking would
    be refused: the page offers the button only then; otherwise it says so, its reason
    behind Why? (the server's own line), the same words from one turn to the next."""
    made = server.create("clown-15-go", 2, [{}, {"kind": "bot", "level": "random"}], seed=1)
    table, token = made["table"], made["seats"][0]["token"]
    page = browsers.new_page(360, 740)
    page.goto(server.table_url(table, token))
    rng = random.Random(2)
    refused = taken = 0
    for _ in range(6):
        if drive.wait_ready(page) == "over":
            break
        said = server.api("GET", f"/api/tables/{table}", token=token)["take_back"]
        if said is not None and page.evaluate("document.body.dataset.myTurn") == "yes":
            if said["possible"]:
                assert page.locator("#undo-ask").is_visible(), drive.describe(page)
                assert not page.locator("#undo-refused").count()
                if not taken:  # granted at once (a bot accepts); a double click asks once
                    before = drive.version(page)
                    page.dblclick("#undo-ask")
                    page.wait_for_function(f"Number(document.body.dataset.version) < {before}")
                    drive.wait_ready(page)
                    view = server.api("GET", f"/api/tables/{table}", token=token)
                    assert view["undos"] == 1, view["log"][-3:]
                    taken = 1
                    continue
            else:
                assert not page.locator("#undo-ask").count(), drive.describe(page)
                assert page.inner_text("#undo-refused").startswith(
                    "Your last move cannot be taken back.")
                assert page.locator("#undo-why").is_hidden()
                page.click("#undo-why-toggle")
                why = said["why"]
                assert page.inner_text("#undo-why") == f"{why[0].upper()}{why[1:]}."
                assert page.get_attribute("#undo-why-toggle", "aria-expanded") == "true"
                page.click("#undo-why-toggle")
                assert page.locator("#undo-why").is_hidden()
                refused += 1
        drive.play_clown_turn(page, rng)
    assert refused > 0 and taken == 1
    assert page.locator("#error").is_hidden()


def test_a_failure_on_the_way_is_no_refusal_and_shows_no_markup(server: Server,
                                                                 browsers: Browsers) -> None:
    """A proxy's HTML error page (502) answering a move was shown as "Not allowed: <html>…"."""
    made = server.create("scout", 3, [{}, {"kind": "bot", "level": "random"},
                                      {"kind": "bot", "level": "random"}], {"rounds": 1}, seed=2)
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    assert page.locator("#notify-settings").is_visible()  # a seat's turn may ring
    page.route("**/moves", lambda route: route.fulfill(
        status=502, content_type="text/html",
        body="<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>"))
    page.click("#moves-list [data-action] >> nth=0")
    page.wait_for_selector("#error:not([hidden])")
    said = page.inner_text("#error")
    # The browser's own line about the 502 it was made to get (NETWORK_NOISE allows 4xx only).
    browsers.errors = [e for e in browsers.errors if "status of 502 (Bad Gateway)" not in e]
    assert said == ("Your move may not have been played (the server answered 502 Bad Gateway): "
                    "this is the table now."), said
    page.unroute("**/moves")
    drive.wait_ready(page)
    before = drive.version(page)
    drive.play_scout_turn(page, random.Random(3))  # the page plays on
    assert drive.version(page) > before


def test_the_lobby_and_the_ratings_fit_a_360_px_phone(server: Server,
                                                      browsers: Browsers) -> None:
    """So ein Zirkus's board-file input and the leaderboard's six columns ran past a 360 px
    phone: the page scrolled sideways."""
    page = browsers.new_page(360, 740)
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "so-ein-zirkus")
    page.click("#options-box summary")
    page.wait_for_selector("#opt-board-file")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.goto(server.url + "/ratings.html")
    page.wait_for_selector("#leaderboard-body tr.bot")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    right = page.evaluate("document.getElementById('leaderboard').getBoundingClientRect().right")
    assert right <= 360


def test_the_replay_on_a_phone_keeps_the_board_in_view(server: Server,
                                                       browsers: Browsers) -> None:
    """On a phone *Replay this game* (at the end of the side panel, below the board) left
    the page where it was, and every step scrolled the window down to the log's line. (And
    the spectator was offered "Your turn: a sound".)"""
    table = finished_bot_table(server, "scout", 3, {"rounds": 1})
    page = browsers.new_page(360, 740)
    page.goto(server.table_url(table))
    page.wait_for_selector("#open-replay")
    assert page.locator("#notify-settings").is_hidden()  # a spectator has no turn
    page.click("#open-replay")
    page.wait_for_function("document.getElementById('replay-at').textContent.startsWith('move')")
    in_view = """(id) => { const r = document.getElementById(id).getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight; }"""
    assert page.evaluate(in_view, "replay") and page.evaluate(in_view, "board")
    assert page.evaluate("document.activeElement.id") == "replay-prev"
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.getElementById('replay-range').value === "
                           "String(document.getElementById('replay-range').max - 3)")
    assert page.evaluate(in_view, "board")
    # The log's own list scrolled to the step's line instead.
    assert page.evaluate("""() => { const l = document.getElementById('log-list'),
      c = l.querySelector('li.current').getBoundingClientRect(), b = l.getBoundingClientRect();
      return c.top >= b.top - 1 && c.bottom <= b.bottom + 1; }""")


def test_my_games_link_in_a_browser_without_the_name_says_so(server: Server,
                                                             browsers: Browsers) -> None:
    """A *My games* link (``#me``) opened where this browser has no name of ours showed the
    table as a spectator without a word, where the player expected their seat."""
    made = server.create("scout", 3, [{"kind": "bot", "level": "random"}] * 3, {"rounds": 1})
    page = browsers.new_page(360, 740)
    page.goto(f"{server.url}/table.html?table={made['table']}#me")
    page.wait_for_function("document.getElementById('turn').textContent.includes('watching')")
    said = page.inner_text("#error")
    assert said.startswith("This browser does not know your name"), said
    assert "Use on another device" in said


def test_clown_15_go_on_a_phone_shows_a_row_the_card_may_go_to(server: Server,
                                                                browsers: Browsers) -> None:
    """At 360 × 740 the middle rows scroll by themselves, and every redraw scrolled them back
    to the top: a row the turned card fitted could lie below the fold, unseen. Played until
    the first row that fits is the fifth or later (below the fold at the top)."""
    made = server.create("clown-15-go", 2, [{}, {"kind": "bot", "level": "random"}],
                         seed=3)
    page = browsers.new_page(360, 740)
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    rng = random.Random(5)
    for _ in range(30):
        if drive.wait_ready(page) == "over":
            break
        # Whether a legal row of the middle is in its visible box; the first legal row.
        seen, first = page.evaluate("""() => { const m = document.querySelector('.c15-middle');
          const legal = [...m.querySelectorAll('.c15-row[data-row] .c15-place.legal')];
          if (!legal.length) return [null, -1];
          const b = m.getBoundingClientRect();
          return [legal.some((e) => { const r = e.getBoundingClientRect();
            return r.top >= b.top - 1 && r.bottom <= b.bottom + 1; }),
            Number(legal[0].closest('.c15-row').dataset.row)]; }""")
        if seen is not None:
            assert seen, f"no legal row in view (the first is row {first}): {drive.describe(page)}"
            if first >= 4:
                return
        drive.play_clown_turn(page, rng)
    raise AssertionError("no row past the fourth was ever legal: the test proved little")


def test_a_copy_the_browser_refuses_offers_the_link_by_hand(server: Server,
                                                             browsers: Browsers) -> None:
    """Without a clipboard (an http page on the home network) and with copying refused, the
    page said "Copied to the clipboard" all the same: the friend never got the link."""
    made = server.create("scout", 3, [{"kind": "bot", "level": "random"}] * 3, {"rounds": 1})
    page = browsers.new_page(360, 740)
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined});"
                         "document.execCommand = () => false;")
    offered: list[str] = []

    def take(dialog: Dialog) -> None:
        offered.append(dialog.default_value)
        dialog.dismiss()

    page.on("dialog", take)
    page.goto(server.table_url(made["table"]))
    page.wait_for_selector("#layout:not([hidden])")
    page.click("#copy-spectate")
    for _ in range(50):  # the dialog, or the old page's toast
        if offered or page.locator("#toast").is_visible():
            break
        page.wait_for_timeout(100)
    assert offered == [f"{server.url}/table.html?table={made['table']}"]
    assert page.locator("#toast").is_hidden()


def test_the_end_shows_the_result_first(server: Server, browsers: Browsers) -> None:
    """At the end the final scores, Rematch and the replay came last in the side panel, below
    the people, the chat and the settings: out of the window at 1280 × 800. And So ein
    Zirkus's one game left a bare "Rounds" heading; "Your turn: a sound" was still offered."""
    table = finished_bot_table(server, "so-ein-zirkus", 3, {})
    page = browsers.new_page(1280, 800)
    page.goto(server.table_url(table))
    page.wait_for_selector("#open-replay")
    assert page.evaluate("document.querySelector('aside.side').firstElementChild.id") == "scores"
    assert page.evaluate("document.getElementById('open-replay').getBoundingClientRect().bottom "
                         "<= window.innerHeight")
    headings = page.eval_on_selector_all("#scores h2", "hs => hs.map(h => h.textContent)")
    assert "Rounds" not in headings
    assert page.locator("#notify-settings").is_hidden()


def test_so_ein_zirkus_says_what_the_die_allows_and_a_lost_turn(server: Server,
                                                                  browsers: Browsers) -> None:
    """The die showed a colour and nothing said what it allows (the rules panel, far below);
    a turn the die made impossible passed at once, said only in the log's list. On a phone
    the board got what the die, the supply and the buttons left: 110 px wide."""
    made = server.create("so-ein-zirkus", 2, [{}, {"kind": "bot", "level": "random"}], seed=3)
    page = browsers.new_page(360, 740)
    # A slower pace than the tests' own: the line stays a second, long enough to be seen.
    page.goto(server.table_url(made["table"], made["seats"][0]["token"])
              .replace(f"speed={SPEED}", "speed=0.25"))
    for _ in range(2):  # on this seed our third roll is green, with nothing green to do
        drive.wait_ready(page)
        board = page.evaluate("document.querySelector('#board svg').getBoundingClientRect()"
                              ".width")
        assert board >= 170, board
        face = page.evaluate("document.querySelector('#board .die').textContent")
        # Our own roll is ours ("P0 rolled" beside "Your turn. You are P0." read as somebody
        # else's), as the lost turn's line says it.
        assert page.inner_text("#board .die-line .label") == "You rolled"
        assert page.inner_text("#die-means") == (
            f"{face.capitalize()}: add a {face} ball to a clown with room, or move a clown "
            f"whose top ball is {face}.")
        before = drive.version(page)
        page.click("#moves-list [data-action] >> nth=0")
        drive.wait_after(page, before)
    page.wait_for_selector("#hold:not([hidden])")
    # As wide as its line allows (it was shrunk into the right half of the table: 6 lines).
    width = page.evaluate("document.getElementById('hold').getBoundingClientRect().width")
    assert page.inner_text("#hold-text") == ("You rolled green: nothing is possible, your turn "
                                             "is lost.")
    assert width > 0.75 * 360, width


def test_scout_says_what_a_turn_offers(server: Server, browsers: Browsers) -> None:
    """SCOUT's turn showed highlighted cards and no sentence: what to pick, how to Show or
    Scout, why a picked set is no Show. And at 5 players on a phone the two seats across got
    what the seats beside left: a word a line."""
    made = server.create("scout", 5, [{}] + [{"kind": "bot", "level": "random"}] * 4, seed=4)
    page = browsers.new_page(360, 740)
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    seats = page.eval_on_selector_all("#board .tbl .seat", """ss => ss.map(s => {
      const r = s.getBoundingClientRect(); return [r.left, r.width, s.dataset.seat]; })""")
    widths = [w for _, w, _ in seats]
    assert len(seats) == 4 and max(widths) - min(widths) <= 2, seats
    assert [p for _, _, p in sorted(seats)] == ["1", "2", "3", "4"]  # in the order of play
    assert page.inner_text("#scout-what") == ("Pick cards next to each other in your hand, "
                                              "then Show: any set starts the table.")
    hand = page.eval_on_selector_all("#board [data-hand] .top", "ts => ts.map(t => +t.textContent)")
    # Two neighbours that are no set (neither one number nor numbers in a row).
    i = next(k for k in range(len(hand) - 1) if abs(hand[k] - hand[k + 1]) > 1)
    page.click(f"#board [data-hand='{i}']")
    page.click(f"#board [data-hand='{i + 1}']")
    assert page.inner_text("#scout-what").startswith("These cards are no Show: a set is cards")
    page.click("#board button:has-text('Clear')")
    rng = random.Random(2)
    for _ in range(10):  # until another seat's set lies on the table at our turn
        if drive.wait_ready(page) == "over":
            break
        if page.locator("#board [data-end]").count():
            said = page.inner_text("#scout-what")
            assert said.endswith("pick the left or right card of the active set to Scout it.") \
                or said.startswith("No set in your hand beats the active set"), said
            page.click("#board [data-end='left']")
            assert page.inner_text("#scout-what").startswith("Scout takes this card")
            return
        drive.play_scout_turn(page, rng)
    raise AssertionError("no active set at our turn")


def test_a_slow_bot_is_said_to_be_thinking(server: Server, browsers: Browsers) -> None:
    """A bot's move that took long (a hard bot on a busy server) showed "P1 (bot, …) to
    play." and nothing else for as long: the page looked stuck. Here the table's socket stays
    silent (the bot's move never arrives), as it is while a bot thinks."""
    made = server.create("scout", 3, [{}, {"kind": "bot", "level": "random"},
                                      {"kind": "bot", "level": "random"}], {"rounds": 1}, seed=2)
    page = browsers.new_page()
    page.route_web_socket("**/ws*", lambda ws: None)  # open, and never a message
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    assert page.inner_text("#thinking") == ""
    before = drive.version(page)
    drive.play_scout_turn(page, random.Random(3))
    assert drive.version(page) > before
    assert page.inner_text("#turn").startswith("P1 (bot, random) to play.")
    page.wait_for_function("document.getElementById('thinking').textContent"
                           ".startsWith('(the bot is thinking: 3 s')", timeout=10_000)
    assert page.evaluate("document.getElementById('thinking').closest('[aria-live]')") is None


def test_live_regions_speak_what_is_new(server: Server, browsers: Browsers) -> None:
    """Every redraw filled the move log (a live region) anew: a screen reader read the whole
    log after each move; the take-back line and the turn line were put again unchanged, and
    were spoken again ("Luck came after your last move…" at every roll)."""
    made = server.create("so-ein-zirkus", 2, [{}, {"kind": "bot", "level": "random"}], seed=5)
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    rng = random.Random(1)
    drive.wait_ready(page)
    drive.play_zirkus_turn(page, rng)
    drive.wait_ready(page)
    page.evaluate("""() => { window.spoken = {log: 0, undo: 0, turn: 0};
      for (const [id, key] of [['log-list', 'log'], ['undo', 'undo'], ['turn', 'turn']])
        new MutationObserver((ms) => {
          // What changes inside a hidden element (the take-back's reason behind Why?)
          // is not spoken.
          for (const m of ms) if (!m.target.closest('[hidden]'))
            window.spoken[key] += m.addedNodes.length;
        }).observe(document.getElementById(id), {childList: true, subtree: true}); }""")
    lines = page.evaluate("document.querySelectorAll('#log-list li').length")
    drive.play_turns(page, drive.play_zirkus_turn, rng, 3)
    spoken = page.evaluate("window.spoken")
    new = page.evaluate("document.querySelectorAll('#log-list li').length") - lines
    assert spoken["log"] == new, (spoken, new)  # each new line once, no old one again
    # "Your last move cannot be taken back" stood unchanged (only its hidden reason, the
    # roll after our move, changed)
    assert spoken["undo"] == 0, spoken
    assert spoken["turn"] <= 2 * 3 + 1, spoken  # "Your turn", "P1 to play": once a change


def test_clown_15_go_says_where_the_turned_card_fits(server: Server,
                                                     browsers: Browsers) -> None:
    """A turned card and highlighted places, and no word saying which were places (with
    the advanced rules a card may also go on your own open pile)."""
    made = server.create("clown-15-go", 3, [{}] + [{"kind": "bot", "level": "random"}] * 2,
                         {"open_pile_first": True, "own_pile": True}, seed=3)
    page = browsers.new_page(360, 740)
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    assert page.inner_text("#c15-where") == ("Your blue 10 fits P2's open pile or your own open "
                                             "pile: choose one (highlighted).")


def test_five_rounds_of_points_fit_the_side_panel(server: Server, browsers: Browsers) -> None:
    """Five players play five rounds of SCOUT: "Round 1" … "Round 5" ran the final points
    past the side panel at 1280 × 800, cutting off the totals."""
    table = finished_bot_table(server, "scout", 5, {})
    page = browsers.new_page(1280, 800)
    page.goto(server.table_url(table))
    page.wait_for_selector("#final-summary")
    side, total = page.evaluate("""() => [
      document.querySelector('aside.side').getBoundingClientRect().right,
      document.querySelector('#final-summary th:last-child').getBoundingClientRect().right]""")
    assert total <= side, (total, side)
    heads = page.eval_on_selector_all("#final-summary thead th", "hs => hs.map(h => h.textContent)")
    assert heads == ["Place", "Player", *(f"Round {r}" for r in range(1, 6)), "Total"], heads


def test_five_seats_of_clown_15_go_fit_a_phone(server: Server, browsers: Browsers) -> None:
    """At 5 players on a 360 px phone the four other seats share a row: their closed and
    open piles ran past each seat's box (the highlighted pile's edge cut off)."""
    made = server.create("clown-15-go", 5, [{}] + [{"kind": "bot", "level": "random"}] * 4,
                         seed=2)
    page = browsers.new_page(360, 740)
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    assert page.evaluate(_CUT, page.query_selector("#board")) == []


def test_keyboard_focus_stays_at_the_table_between_turns(server: Server,
                                                          browsers: Browsers) -> None:
    """A Show made with the keyboard took its button away, and with no other control at
    the table while the bots played the focus fell back to the page's top: every turn began
    with tabbing past the lobby link and *Copy spectator link* again."""
    made = server.create("scout", 3, [{}, {"kind": "bot", "level": "random"},
                                      {"kind": "bot", "level": "random"}], {"rounds": 1}, seed=2)
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    show = next(m for m in drive.legal_moves(page) if m["type"] == "show")
    page.focus(f"#board [data-hand='{show['start']}']")
    for _ in range(show["length"]):
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
    for _ in range(40):  # on to the Show button
        if page.evaluate("document.activeElement.textContent").startswith("Show "):
            break
        page.keyboard.press("Tab")
    before = drive.version(page)
    page.keyboard.press("Enter")
    drive.wait_after(page, before)
    assert drive.wait_ready(page) == "turn"
    assert page.evaluate("document.activeElement.closest('#board') !== null"), \
        page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    page.keyboard.press("Tab")  # one Tab to the table's first control (the active set's end)
    assert page.evaluate("document.activeElement.matches('#board button')"), \
        page.evaluate("document.activeElement.outerHTML.slice(0, 120)")


def test_the_rules_are_one_click_from_the_top(server: Server, browsers: Browsers) -> None:
    """The rules lay at the end of the side panel, below the log (on a phone below
    everything): a newcomer looking for them found no way there but scrolling."""
    made = server.create("so-ein-zirkus", 2, [{}, {"kind": "bot", "level": "random"}], seed=3)
    for width, height in ((1280, 800), (360, 740)):
        page = browsers.new_page(width, height)
        page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
        drive.wait_ready(page)
        page.wait_for_selector("#rules-body p")
        page.click("#show-rules")
        page.wait_for_function("""() => { const r = document.getElementById('rules-body')
          .getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight - 40; }""")
        assert page.evaluate("document.activeElement.closest('#rules') !== null")
        assert page.evaluate(_CUT, page.query_selector("header")) == []


def test_tricky_landing_leaves_a_phone_a_table_to_flick_on(server: Server,
                                                           browsers: Browsers) -> None:
    """At the first turn on a 360 × 740 touch phone the spin, the aim in centimetres, the
    throw and the practice buttons and the how-to took five lines under the hand: the table
    was 140 px across, a flick's few millimetres of finger a long throw."""
    made = server.create("tricky-landing", 5, [{}] + [{"kind": "bot", "level": "random"}] * 4,
                         {"rounds": 1}, seed=2)
    context = browsers.chromium.new_context(viewport={"width": 360, "height": 740},
                                            has_touch=True, is_mobile=True, bypass_csp=True)
    browsers.contexts.append(context)
    page = context.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    felt = page.evaluate("document.querySelector('svg.tl-table .tl-felt')"
                         ".getBoundingClientRect().width")
    assert felt >= 190, felt
    assert page.locator("#tl-throw").is_visible() and page.locator("#tl-practice").is_visible()


def test_so_ein_zirkus_paths_are_named_by_their_fields(server: Server,
                                                        browsers: Browsers) -> None:
    """A path on the board was named "move clown 1 FR" to a screen reader (the engine's
    steps), where its button says the fields it walks."""
    made = server.create("so-ein-zirkus", 3, [{}] + [{"kind": "bot", "level": "random"}] * 2,
                         seed=7)
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    rng = random.Random(1)
    for _ in range(30):
        assert drive.wait_ready(page) == "turn"
        clowns = {m["clown"] for m in drive.legal_moves(page) if m["type"] == "move"}
        if clowns:
            page.click(f"#board g.clown[data-clown='{min(clowns)}']")
            names = page.eval_on_selector_all("#board .path", "ps => ps.map(p => p.ariaLabel)")
            assert names and all(re.fullmatch(r"move clown \d [A-Z]\d+( to [A-Z]\d+)+", n)
                                 for n in names), names
            return
        drive.play_zirkus_turn(page, rng)
    raise AssertionError("no clown to move in 30 turns")


def test_scout_and_show_of_a_set_s_last_card_says_any_set_may_follow(
        server: Server, browsers: Browsers) -> None:
    """Scout & Show took the active set's only card: the table was empty, and the page
    asked for "a set from your hand that beats the active set"."""
    made = server.create("scout", 4, [{}] + [{"kind": "bot", "level": "random"}] * 3,
                         {"rounds": 1}, seed=6)
    page = browsers.new_page(360, 740)
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    rng = random.Random(1)
    for _ in range(30):
        assert drive.wait_ready(page) == "turn"
        last = [m for m in drive.legal_moves(page) if m["type"] == "scout" and m["and_show"]
                and page.locator("#board [data-end]").count() == 1]
        if last:
            drive.scout_move(page, last[0])
            page.wait_for_selector("#board .gap.legal")
            drive.wait_ready(page)
            before = drive.version(page)
            page.click(f"#board [data-gap='{drive.legal_moves(page)[0]['position']}']")
            drive.wait_after(page, before)
            drive.wait_ready(page)
            assert page.inner_text("#scout-show-hint") == (
                "Scout & Show: now show a set from your hand (the table is empty: any set).")
            return
        drive.play_scout_turn(page, rng)
    raise AssertionError("no Scout & Show of a single card in 30 turns")


def test_recent_tables_say_whose_turn_it_is(server: Server, browsers: Browsers) -> None:
    """Someone without a name, back in the lobby after closing the table's tab, found their
    tables only as "SCOUT · table 6NebB6PzqW9y · P0" and a date: not whether the table waits
    for them, for a friend, or is over. Each now says it as *My games* does, with who sits
    there, or that the server no longer has it; read from the public view, no seat token sent
    (it would mark them "here")."""
    page = browsers.new_page()
    # A table of our own and bots, left at our turn (P0 starts SCOUT).
    drive.fill_lobby_form(page, server.url, "scout", 3, {1: "bot:random", 2: "bot:random"},
                          {"rounds": "1"})
    page.click("#create-button")
    page.wait_for_url("**/table.html?*")
    assert drive.wait_ready(page) == "turn"
    ours = table_of(page)
    # A table waiting for a friend.
    drive.fill_lobby_form(page, server.url, "scout", 2, {1: "invite"}, {})
    page.fill("#invite-name-1", "Ben")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    waiting = page.input_value("#spectator-link").split("table=")[1]
    # A table played to its end (through the API), remembered as the page remembers one.
    made = server.create("scout", 2, [{}, {"kind": "bot", "level": "random"}], {"rounds": 1},
                         seed=4)
    over, token = made["table"], made["seats"][0]["token"]
    finish(server, over, [token], random.Random(4))
    # A table where Ben, who came, is to move after our move: the badge said "Waiting", as
    # for a table nobody had come to yet, and not whose turn it was.
    made = server.api("POST", "/api/tables", {"game": "scout", "players": 2, "listed": False,
                                              "seats": [{}, {"invite": "Ben"}]})
    bens, ben = made["table"], made["seats"][1]["token"]
    for seat_token in (made["seats"][0]["token"], ben):  # each opens their seat
        server.api("GET", f"/api/tables/{bens}", token=seat_token)
    view = server.api("GET", f"/api/tables/{bens}", token=made["seats"][0]["token"])
    show = next(a for a in view["legal_actions"] if a["action"]["type"] == "show")
    server.api("POST", f"/api/tables/{bens}/moves",  # (a Show ends our turn)
               {"version": view["version"], "index": show["index"]},
               token=made["seats"][0]["token"])
    page.evaluate("""(tables) => { const list = JSON.parse(localStorage['bigtop.recent']);
      for (const [table, token] of tables)
        list.push({table, seat: 0, token, game: 'scout', title: 'SCOUT', at: Date.now()});
      list.push({table: 'gone-table', seat: 1, token: 'x', game: 'scout', title: 'SCOUT', at: 0});
      localStorage['bigtop.recent'] = JSON.stringify(list); }""",
                  [[over, token], [bens, made["seats"][0]["token"]]])
    sent: list[dict[str, str]] = []
    page.on("request", lambda r: sent.append(r.headers) if "/api/tables/" in r.url else None)
    page.goto(server.url + "/")
    for table, state, badge, who in (
            (ours, "your_turn", "Your turn", "SCOUT · you, bot (random), bot (random)"),
            (waiting, "waiting", "Waiting for Ben", "SCOUT · you, Ben (invited)"),
            (bens, "waiting", "Ben's turn", "SCOUT · you, Ben"),
            (over, "finished", "Finished", "SCOUT · you, bot (random)")):
        item = f"#recent-tables li[data-table='{table}']"
        page.wait_for_selector(f"{item}[data-state='{state}']")
        assert page.inner_text(f"{item} .badge") == badge
        assert page.inner_text(f"{item} a") == who
    # A table the server no longer has (expired, deleted) says so.
    page.wait_for_selector("#recent-tables li[data-table='gone-table'] .badge:text-is('Gone')")
    browsers.allow_network_errors()  # (its 404)
    assert len(sent) == 5 and not any("authorization" in h for h in sent), sent
    browsers.axe(page, "the lobby's recent tables")


def test_scout_says_another_seat_s_hand_at_once(server: Server, browsers: Browsers) -> None:
    """A screen reader read every other seat's hand card by card: "a hidden card" eleven
    times a seat, 22 images before the active set at three players. Each hand is now one
    picture said at once: how many cards, how many hidden, and the cards it scouted, shown to
    everyone, with their place in the hand."""
    made = server.create("scout", 3, [{}, {"kind": "bot", "level": "random"},
                                      {"kind": "bot", "level": "random"}], seed=6)
    table, token = made["table"], made["seats"][0]["token"]
    page = browsers.new_page()
    page.goto(server.table_url(table, token))
    rng = random.Random(6)
    for _ in range(40):
        assert drive.wait_ready(page) == "turn"
        assert page.get_by_role("img", name="a hidden card").count() == 0
        hands = server.api("GET", f"/api/tables/{table}", token=token)["observation"]["hands"]
        if drive.version(page) != server.api("GET", f"/api/tables/{table}",
                                             token=token)["version"]:
            continue  # (a move in between: read both again)
        said = [page.get_attribute(f"#board [data-spot='seat-{p}'] .mini-hand", "aria-label")
                for p in (1, 2)]
        for p, words in zip((1, 2), said, strict=True):
            hand = hands[p]
            hidden = sum(card is None for card in hand)
            expect = f"{len(hand)} cards in hand, {hidden} hidden"
            shown = [f"card {c[0]} over {c[1]} (place {i + 1})"
                     for i, c in enumerate(hand) if c is not None]
            if shown:
                expect += "; shown: " + ", ".join(shown)
            assert words == expect
        if any("shown" in (words or "") for words in said):
            browsers.axe(page, "SCOUT with a scouted card in another hand")
            return
        drive.play_scout_turn(page, rng)
    raise AssertionError("no seat ever held a scouted card: the test proved little")


def test_so_ein_zirkus_says_where_the_holes_are_and_each_clown_s_balls(
        server: Server, browsers: Browsers) -> None:
    """A screen reader heard "empty 6-point hole" (and its number again) but not where the
    hole is, though every path is said by its fields ("move clown 1 B1 to B2 to B3"), and
    "clown 1 at B1 with 2 balls" but not which colour is on top, the one that moves it.
    Holes now say their field, clowns their balls, top last."""
    made = server.create("so-ein-zirkus", 2, [{}, {"kind": "bot", "level": "random"}], seed=7)
    table, token = made["table"], made["seats"][0]["token"]
    page = browsers.new_page()
    page.goto(server.table_url(table, token))
    rng = random.Random(7)
    for _ in range(3):  # a few balls in the clowns
        assert drive.wait_ready(page) == "turn"
        drive.play_zirkus_turn(page, rng)
    assert drive.wait_ready(page) == "turn"
    position = server.api("GET", f"/api/tables/{table}", token=token)["observation"]
    assert position is not None
    snapshot = aria_tree(page, "#board svg.zirkus-board")
    for field, points in position["board"]["holes"].items():
        ball = position["holes"].get(field)
        said = (f"{points}-point hole at {field} with a {ball} ball" if ball
                else f"{points}-point hole at {field}, empty")
        assert f'img "{said}"' in snapshot, snapshot
    assert not re.search(r'^\s*- text: "?\d"?$', snapshot, re.M), snapshot  # no bare numbers
    balls = 0
    for i, clown in enumerate(position["clowns"]):
        if not clown["field"]:
            continue
        held = clown["balls"]
        balls += len(held)
        said = f"clown {i} at {clown['field']}, " + (
            f"balls {', '.join(held)} ({held[-1]} on top)" if held else "no balls")
        assert f'"{said}"' in snapshot, snapshot
    assert balls, "no clown held a ball: the test proved little"
    browsers.axe(page, "So ein Zirkus, clowns with balls")


def test_clown_15_go_says_a_middle_row_at_once(server: Server, browsers: Browsers) -> None:
    """A screen reader read every card of every middle row by colour ("yellow 1, white 2,
    orange 3, …"), some fifty images at the end of a three-player game, though in a row only
    its numbers count and only the top takes a card. Each row now says what lies under its top
    as one picture ("under it: 1, 2, 3"), the top its button."""
    table = finished_bot_table(server, "clown-15-go", 3, {})
    rows = server.api("GET", f"/api/tables/{table}")["observation"]["rows"]
    assert any(len(row) > 2 for row in rows), rows
    page = browsers.new_page()
    page.goto(server.table_url(table))
    page.wait_for_function("document.body.dataset.status === 'finished' && "
                           "document.body.dataset.idle === 'yes'")
    middle = page.locator("#board .c15-middle")
    for r, row in enumerate(rows):
        under = [c[1:] for c in row[:-1]]
        names = middle.locator(f".c15-row[data-row='{r}'] [role='img']").evaluate_all(
            "els => els.filter(e => !e.closest('[aria-hidden], .c15-place'))"
            ".map(e => e.getAttribute('aria-label'))")
        assert names == ([f"under it: {', '.join(under)}"] if under else []), (r, names)
    snapshot = aria_tree(page, "#board .c15-middle")
    pictures = len(re.findall(r"^\s*- '?img ", snapshot, re.M))
    assert pictures == sum(1 for row in rows if len(row) > 1) + len(rows), snapshot
    browsers.axe(page, "Clown 15 Go's middle rows at the end")


def test_a_message_out_of_view_is_said_where_you_look(server: Server,
                                                      browsers: Browsers) -> None:
    """On a phone the chat lies below the board and the panels: a friend's "your turn,
    hurry!" came and nothing in view said so. A message from someone else while the chat is
    out of view now shows in the status line above the table; a click there brings the chat
    into view (and goes away, as it does once the chat is seen). Our own messages show nothing. (And
    the chat named the friend invited as Ben, who chose no name, "P1".)"""
    # So ein Zirkus: on a phone its buttons lie at the window's foot.
    made = server.api("POST", "/api/tables", {"game": "so-ein-zirkus", "players": 2,
                                              "seats": [{}, {"invite": "Ben"}]})
    table = made["table"]
    page = browsers.new_page(360, 740)
    page.goto(server.table_url(table, made["seats"][0]["token"]))
    page.wait_for_selector("#invite-1")
    friend = server.api("POST", f"/api/tables/{table}/accept",
                        {"token": made["seats"][1]["token"]})["token"]
    page.wait_for_function("document.body.dataset.status === 'playing'")
    in_view = """() => { const r = document.getElementById('chat-list').getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight; }"""
    assert not page.evaluate(in_view)
    server.api("POST", f"/api/tables/{table}/chat", {"text": "your turn, <b>hurry</b>!"},
               token=friend)
    page.wait_for_selector("#chat-new:not([hidden])")
    assert page.inner_text("#chat-new") == "Ben: your turn, <b>hurry</b>! (the chat ↓)"
    # (The chat itself names him as the page does: it said "P1", his seat invited as Ben.)
    assert page.inner_text("#chat-list li >> nth=-1 >> .from") == "Ben"
    # In view, and over nothing: every button of the table in the window is where a tap finds
    # it (fixed at the window's foot, the line lay over So ein Zirkus's "red → clown 1").
    box = page.evaluate("document.getElementById('chat-new').getBoundingClientRect().bottom")
    assert box <= 740
    # Our turn with the die's buttons (Ben moves through the API; a roll can lose a turn).
    for _ in range(20):
        page.wait_for_function("document.body.dataset.idle === 'yes'")
        if page.evaluate("document.body.dataset.myTurn") == "yes" and \
                page.locator("#play .controls button").count():
            break
        move(server, table, friend)
        time.sleep(0.2)
    covered = page.evaluate("""() => [...document.querySelectorAll('#play button')]
      .filter((c) => { const r = c.getBoundingClientRect(), x = r.left + r.width / 2;
        return r.width && r.bottom <= window.innerHeight &&
          !c.contains(document.elementFromPoint(x, r.bottom - 4)); })
      .map((c) => c.textContent)""")
    assert page.locator("#play button").count() >= 3
    assert covered == [], covered
    browsers.axe(page, "a message out of view")
    page.click("#chat-new")
    page.wait_for_function(in_view)
    assert page.locator("#chat-new").is_hidden()
    assert page.evaluate("document.activeElement.id") == "chat-input"
    # Our own message (from another device of ours), the chat out of view again: nothing.
    page.evaluate("window.scrollTo(0, 0)")
    assert not page.evaluate(in_view)
    server.api("POST", f"/api/tables/{table}/chat", {"text": "coming"},
               token=made["seats"][0]["token"])
    page.wait_for_function("document.body.dataset.chat === '2'")
    assert page.locator("#chat-new").is_hidden()
    # Seen in place: the line goes away by itself.
    server.api("POST", f"/api/tables/{table}/chat", {"text": "ok"}, token=friend)
    page.wait_for_selector("#chat-new:not([hidden])")
    page.locator("#chat-list").scroll_into_view_if_needed()
    page.wait_for_selector("#chat-new", state="hidden")


def test_a_spectator_s_chat_marks_no_message_as_theirs(server: Server,
                                                       browsers: Browsers) -> None:
    """A spectator's page (no seat: its data-seat is "") took seat 0 for its own and drew P0's
    messages as a player's own are drawn (in the accent colour)."""
    made = server.create("scout", 3, [{}, {"kind": "bot", "level": "random"},
                                      {"kind": "bot", "level": "random"}], {"rounds": 1},
                         seed=8)
    table = made["table"]
    server.api("POST", f"/api/tables/{table}/chat", {"text": "hello"},
               token=made["seats"][0]["token"])
    page = browsers.new_page()
    page.goto(server.table_url(table))
    page.wait_for_function("document.body.dataset.chat === '1'")
    assert page.locator("#chat-list li.mine").count() == 0
    player = browsers.new_page()
    player.goto(server.table_url(table, made["seats"][0]["token"]))
    player.wait_for_function("document.body.dataset.chat === '1'")
    assert player.locator("#chat-list li.mine").count() == 1  # the writer's own, marked
