"""The table as a person sees it (issue 24): every game played to the end at a desktop's and a
phone's size with the play area and the controls of each turn in view and no sideways
scroll, axe-core's check on every page, animations that end where the engine put things,
the log numbered in full past 99, So ein Zirkus's last line, results held until seen,
forced moves folded, focus kept after a Scout, reduced motion, flicks and practice throws."""

from __future__ import annotations

import itertools
import random
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.web import drive
from tests.web.conftest import SPEED, Browsers, Server

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
FINISHED = "document.body.dataset.status === 'finished' && document.body.dataset.idle === 'yes'"
PRACTICED = "document.getElementById('tl-said').textContent.startsWith('Practice: your')"

# Everything that must hold whenever the page is idle: the play area within the window and,
# on our turn, every control of the board in view (a scrolling list counts by its box); no
# sideways scroll; no animation left running and nothing left moved off its place.
_LAYOUT = """() => {
  window.scrollTo(0, 0);
  const vw = window.innerWidth, vh = window.innerHeight, out = [];
  const de = document.documentElement;
  if (de.scrollWidth > vw + 1) out.push(`sideways scroll: ${de.scrollWidth} > ${vw}`);
  const inView = (r) => r.top >= -1 && r.left >= -1 && r.bottom <= vh + 1 && r.right <= vw + 1;
  const area = document.querySelector('[data-play-area]');
  if (!area) out.push('no play area');
  else if (!inView(area.getBoundingClientRect())) {
    const r = area.getBoundingClientRect();
    out.push(`play area ${r.left},${r.top},${r.right},${r.bottom} outside ${vw}x${vh}`);
  }
  if (document.body.dataset.myTurn === 'yes') {
    const board = document.getElementById('board');
    for (const e of board.querySelectorAll('button.legal, .legal[tabindex], #tl-throw')) {
      let box = e;
      for (let a = e.parentElement; a && a !== board; a = a.parentElement) {
        if (a.scrollHeight > a.clientHeight + 1 && getComputedStyle(a).overflowY !== 'visible') {
          box = a; break;
        }
      }
      const r = box.getBoundingClientRect();
      if (r.width && !inView(r)) {
        out.push(`control out of view: ${e.textContent} at ${r.left},${r.top},${r.bottom}`);
      }
    }
  }
  if (document.getAnimations().some((a) => a.playState === 'running')) {
    out.push('an animation still runs');
  }
  for (const e of document.querySelectorAll('#board [data-key]')) {
    if (!e.matches('.selected') && getComputedStyle(e).transform !== 'none') {
      out.push(`left moved: ${e.dataset.key}`);
    }
  }
  if (document.querySelector('#board .flying')) out.push('a thrown card still flies');
  return out;
}"""


def check_layout(page: Any, where: str) -> None:
    problems = page.evaluate(_LAYOUT)
    assert not problems, f"{where}: {problems}"


def check_log_numbers(page: Any) -> int:
    """Every log line numbered 1., 2., … in full and not cut off; the number of lines."""
    numbers = page.evaluate("""() => [...document.querySelectorAll('#log-list li .n')].map((n) => {
      const list = document.getElementById('log-list').getBoundingClientRect();
      const r = n.getBoundingClientRect();
      return [n.textContent, r.left >= list.left - 0.5 && n.scrollWidth <= n.clientWidth + 0.5];
    })""")
    for i, (text, whole) in enumerate(numbers):
        assert text == f"{i + 1}." and whole, (i, text, whole)
    return len(numbers)


GAMES: dict[str, tuple[int, dict[str, object], list[str], Any]] = {
    "scout": (4, {"rounds": 1}, ["random", "random", "random"], drive.play_scout_turn),
    "clown-15-go": (2, {"sets": 3, "stall_rounds": 4, "placing": "voluntary"}, ["random"],
                    drive.play_clown_turn),
    "so-ein-zirkus": (3, {}, ["easy", "random"], drive.play_zirkus_turn),
    "tricky-landing": (3, {"rounds": 1}, ["easy", "random"], drive.play_tricky_turn),
}


@pytest.mark.slow
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_fits_and_plays_to_the_end(server: Server, browsers: Browsers, game: str,
                                              size: str) -> None:
    players, options, bots, turn = GAMES[game]
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": b} for b in bots]
    made = server.create(game, players, seats, options, seed=7)
    table, token = made["table"], made["seats"][0]["token"]
    width, height = SIZES[size]
    page = browsers.new_page(width=width, height=height)
    page.goto(server.table_url(table, token))
    rng = random.Random(11)
    for turns in range(400):
        state = drive.wait_ready(page)
        check_layout(page, f"{game} at {size}, version {drive.version(page)}")
        if turns == 0:
            assert state == "turn", f"{game}: over before our first choice"
            browsers.axe(page, f"{game} at {size}, the first turn")
            browsers.shot(page, f"table-{game}-{size}")
        if state == "over":
            break
        turn(page, rng)
    else:
        raise AssertionError("the game did not end")
    view = server.api("GET", f"/api/tables/{table}", token=token)
    assert view["status"] == "finished"
    browsers.axe(page, f"{game} at {size}, the final scores")
    # Moves were animated from where they came from (and ended in place: check_layout).
    assert int(page.evaluate("document.body.dataset.moved || '0'")) > 0
    check_log_numbers(page)
    if game == "tricky-landing":
        # The last trick lies where the engine put each card (the animation ended there).
        obs = view["observation"]
        landings = obs["table"] or (obs["last_trick"] or {}).get("table", [])
        drawn = page.eval_on_selector_all("#board g.tl-card",
                                          "els => els.map(e => e.getAttribute('transform'))")
        assert len(drawn) == len(landings)
        for where, landing in zip(drawn, landings, strict=True):
            x, y = (float(v) for v in re.findall(r"translate\(([-\d.e]+) ([-\d.e]+)\)", where)[0])
            assert abs(x - landing["x"] * 10) < 1e-6 and abs(y + landing["y"] * 10) < 1e-6


def test_moves_glide_and_end_in_place(server: Server, browsers: Browsers) -> None:
    """A SCOUT game's moves are animated from where the cards were (motion on), and every
    animation ends with the card at its place; the Motion setting off stops them."""
    made = server.create("scout", 3, [{"kind": "human"}, {"kind": "bot", "level": "random"},
                                      {"kind": "bot", "level": "random"}], {"rounds": 1}, seed=5)
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    rng = random.Random(3)
    for _ in range(4):
        if drive.wait_ready(page) == "over":
            break
        check_layout(page, "scout")
        drive.play_scout_turn(page, rng)
    drive.wait_ready(page)
    assert int(page.evaluate("document.body.dataset.moved || '0'")) > 0
    check_layout(page, "scout, after the moves")
    page.select_option("#motion", "0")
    moved = page.evaluate("document.body.dataset.moved")
    drive.play_turns(page, drive.play_scout_turn, rng, 2)
    assert page.evaluate("document.body.dataset.moved") == moved


def test_reduced_motion_turns_motion_off(server: Server, browsers: Browsers) -> None:
    made = server.create("scout", 2, [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                         {"rounds": 1}, seed=5)
    page = browsers.new_page(reduced_motion=True)
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    assert page.input_value("#motion") == "0"
    assert "reduced motion" in page.inner_text("#motion-hint")
    drive.play_scout_turn(page, random.Random(1))
    drive.wait_ready(page)
    assert page.evaluate("document.body.dataset.moved") is None


def test_a_long_log_is_numbered_in_full(server: Server, browsers: Browsers) -> None:
    """Bots play a whole Clown 15 Go game; its watcher's log has hundreds of lines, each
    number whole ("106.", not "06.")."""
    made = server.create("clown-15-go", 3, [{"kind": "bot", "level": "random"}] * 3, {}, seed=2)
    finished(server, made["table"])
    page = browsers.new_page(width=390, height=844)
    page.goto(server.table_url(made["table"]))
    page.wait_for_function(FINISHED)
    assert check_log_numbers(page) > 99
    check_layout(page, "a finished Clown 15 Go game, watched")
    browsers.axe(page, "a watched, finished Clown 15 Go table")


def finished(server: Server, table: str) -> Any:
    """The view of a table of bots once they have played it to the end."""
    for _ in range(600):
        view = server.api("GET", f"/api/tables/{table}")
        if view["status"] == "finished":
            return view
        time.sleep(0.1)
    raise AssertionError(f"the bots did not finish table {table}")


def test_so_ein_zirkus_ends_on_the_field_the_clown_reached(server: Server,
                                                           browsers: Browsers) -> None:
    """The last log line of a game ended by the 6-point hole names the fields the clown
    walked, the last of them where it stands."""
    for seed in range(1, 60):
        made = server.create("so-ein-zirkus", 2, [{"kind": "bot", "level": "easy"}] * 2, {},
                             seed=seed)
        view = finished(server, made["table"])
        if view["result"]["ending"] == "six-hole":
            break
    else:
        raise AssertionError("no bot game ended by the 6-point hole")
    page = browsers.new_page()
    page.goto(server.table_url(made["table"]))
    page.wait_for_function(FINISHED)
    last = page.eval_on_selector_all("#log-list li.log-move .t",
                                     "els => els.map(e => e.textContent)")[-1]
    assert "the game ends" in last, last
    found = re.search(r"moves clown (\d) ([A-Z]\d+(?:-[A-Z]\d+)*)", last)
    if found:  # ended by a move (an Add can end it too): the last field named is the clown's
        clown, fields = int(found[1]), found[2].split("-")
        clowns = view["observation"]["clowns"]
        assert clowns[clown]["field"] == fields[-1], (last, clowns)
    browsers.axe(page, "a watched, finished So ein Zirkus table")


def test_forced_moves_are_fast_and_one_line_per_chain(server: Server, browsers: Browsers) -> None:
    made = server.create("clown-15-go", 2, [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                         {}, seed=4)
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    rng = random.Random(2)
    for _ in range(60):
        if drive.wait_ready(page) == "over":
            break
        drive.play_clown_turn(page, rng)
        if page.locator("#log-list li.log-auto").count() >= 3:
            break
    lines = page.eval_on_selector_all("#log-list li",
                                      "els => els.map(e => [e.className, e.textContent])")
    auto = [text for cls, text in lines if "log-auto" in cls]
    assert auto and all("Played for you, the only move" in t for t in auto), auto
    # A chain is one line: never two lines of forced moves one after the other.
    for (a, _), (b, _) in itertools.pairwise(lines):
        assert not ("log-auto" in a and "log-auto" in b), lines


def test_a_result_stays_until_seen(server: Server, browsers: Browsers) -> None:
    """Tricky Landing: a finished trick is held (with its result and a button) before the
    next throw is shown; a click goes on at once."""
    made = server.create("tricky-landing", 3, [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                               {"kind": "bot", "level": "easy"}],
                         {"rounds": 1}, seed=5)
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]).replace(
        f"speed={SPEED}", "speed=0.5"))
    page.evaluate("""() => { window.held = []; new MutationObserver(() => {
      const hold = document.getElementById('hold');
      if (!hold.hidden) window.held.push(document.getElementById('hold-text').textContent);
    }).observe(document.getElementById('hold'), {attributes: true}); }""")
    rng = random.Random(4)
    for _ in range(3):
        assert drive.wait_ready(page) == "turn"
        drive.play_tricky_turn(page, rng)
        if page.evaluate("window.held.length"):
            break
    page.wait_for_function("window.held.length > 0")
    assert page.evaluate("window.held[0]").startswith("Last trick (1 of 12)")


def test_focus_stays_at_the_table_after_a_scout(server: Server, browsers: Browsers) -> None:
    made = server.create("scout", 2, [{"kind": "bot", "level": "random"}, {"kind": "human"}],
                         {"rounds": 1}, seed=21)
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], made["seats"][1]["token"]))
    drive.wait_ready(page)
    if not any(m["type"] == "scout" for m in drive.legal_moves(page)):
        pytest.fail("seed 21: P1 cannot scout at its first turn")
    page.focus("#board [data-end='left']")
    page.keyboard.press("Enter")
    for _ in range(40):  # Tab on to the Scout button, as a keyboard user would
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent").startswith("Scout the left card"):
            break
    before = drive.version(page)
    page.keyboard.press("Enter")
    drive.wait_after(page, before)
    page.wait_for_function("document.body.dataset.idle === 'yes'")
    # The card is to go into the hand: the focus is on a place for it, not the page's top.
    assert page.evaluate("document.activeElement.closest('#board') !== null"), \
        page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#board') !== null")


_TWO_FINGERS = """async (degrees) => {
  const svg = document.querySelector('svg.tl-table'), box = svg.getBoundingClientRect();
  const cx = box.left + box.width / 2, cy = box.top + box.height / 2, r = 40;
  const at = (id, b) => ({clientX: cx + (id === 1 ? -r : r) * Math.cos(b),
                          clientY: cy - (id === 1 ? -r : r) * Math.sin(b)});
  const fire = (type, id, b) => svg.dispatchEvent(new PointerEvent(type, {...at(id, b),
    pointerId: id, pointerType: 'touch', bubbles: true, isPrimary: id === 1, buttons: 1}));
  fire('pointerdown', 1, 0);
  fire('pointerdown', 2, 0);
  for (let k = 1; k <= 6; k++) {
    await new Promise((done) => setTimeout(done, 16));
    const b = (degrees * k / 6) * Math.PI / 180;  // counter-clockwise on the screen
    fire('pointermove', 1, b);
    fire('pointermove', 2, b);
  }
  const end = degrees * Math.PI / 180;
  fire('pointerup', 2, end);
  fire('pointerup', 1, end);
}"""


def practice_flick(page: Page, step_cm: float = 2.0, curl: float = 0.0) -> None:
    """A practice flick straight ahead, flicked again if the page measured it too slow to
    throw (a loaded machine stretches the 16 ms between pointer events, as in
    drive.play_tricky_turn); returns once its card has landed and the table is drawn anew
    (a flick before that would go to the old drawing). ``step_cm`` and ``curl`` as in
    drive.flick (the same defaults)."""
    for _ in range(3):
        page.evaluate("delete document.body.dataset.flick;"
                      "document.getElementById('tl-said').textContent = ''")
        drive.flick(page, 0.0, step_cm=step_cm, curl=curl)
        page.wait_for_function(f"{PRACTICED} || document.getElementById('tl-said')"
                               ".textContent.startsWith('Too slow')")
        if page.evaluate(PRACTICED):
            assert page.evaluate("document.body.dataset.flick !== undefined")
            return
    raise AssertionError(f"three flicks too slow: {page.inner_text('#tl-said')}")


def test_tricky_landing_by_hand(server: Server, browsers: Browsers) -> None:
    """Practice throws at an empty table count nothing; then a flick throws: how fast and
    which way the pointer went decides where the card would stop."""
    made = server.create("tricky-landing", 3, [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                               {"kind": "bot", "level": "easy"}],
                         {"rounds": 1}, seed=8)
    page = browsers.new_page(width=390, height=844)
    page.goto(server.table_url(made["table"], made["seats"][0]["token"]))
    drive.wait_ready(page)
    before = drive.version(page)
    page.click("#tl-practice")
    practice_flick(page)
    said = page.inner_text("#tl-said")
    assert "counts nothing" in said and drive.version(page) == before
    assert page.locator("#board g.tl-card").count() == 1  # the practice card, on an empty table
    # A slow flick goes less far than a fast one (the page says where each would stop). The
    # page measures the speed from the events' times, which a loaded machine stretches: the
    # flick it measured faster must go farther.
    distances, speeds = [], []
    for step in (1.0, 2.6):
        practice_flick(page, step_cm=step)
        speed, x, y, _ = (float(v) for v in page.evaluate("document.body.dataset.flick").split())
        assert abs(x) < 1 and speed > 0  # straight ahead
        distances.append(y + 30)  # from our seat, 30 cm before the target's centre
        speeds.append(speed)
    assert speeds[0] != speeds[1] and (speeds[0] < speeds[1]) == (distances[0] < distances[1]), (
        speeds, distances)
    # A straight flick keeps the slider's spin; a curled one (a twist) sets it.
    assert page.input_value("#tl-spin") == "3"
    practice_flick(page, curl=-20.0)
    spin = float(page.evaluate("document.body.dataset.flick").split()[3])
    assert spin > 0 and page.input_value("#tl-spin") == f"{spin:g}", spin
    # Two fingers turned 60° counter-clockwise on the table (touch screens) add 2 rev/s of
    # spin (the curl's scale: 30° a revolution per second) and throw nothing.
    cards = page.locator("#board g.tl-card").count()
    page.evaluate(_TWO_FINGERS, 60)
    page.wait_for_function("document.body.dataset.twist !== undefined")
    assert float(page.evaluate("document.body.dataset.twist")) == min(10.0, spin + 2)
    assert page.input_value("#tl-spin") == f"{min(10.0, spin + 2):g}"
    assert "Twisted" in page.inner_text("#tl-said")
    assert page.locator("#board g.tl-card").count() == cards and drive.version(page) == before
    page.click("#tl-practice")  # done practising: the real throw
    assert page.locator("#board g.tl-card").count() == 0
    page.evaluate("document.getElementById('tl-said').textContent = ''")
    drive.throw(page, 0.0, before)
    lines = page.eval_on_selector_all("#log-list li .t", "els => els.map(e => e.textContent)")
    # Our throw, in words (the log names our card to us only once it lies face up).
    line = next((t for t in lines if re.match(r"(You throw|P0 throws) ", t)), lines)
    assert "target's centre" in line and "cm)" not in line and "(" not in line.split(":")[0], line
    browsers.axe(page, "Tricky Landing on a phone")


def test_scout_defaults_to_four_players_and_explains_two(server: Server,
                                                         browsers: Browsers) -> None:
    page = browsers.new_page()
    page.goto(server.url + "/")
    page.select_option("#game", "scout")
    assert page.input_value("#players") == "4"
    assert page.locator("#players-note").is_hidden()
    browsers.axe(page, "the lobby")
    page.select_option("#players", "2")
    note = page.inner_text("#players-note")
    assert "rulebook's deal" in note and "11 cards each" in note, note
    browsers.axe(page, "the lobby, 2 players picked")
    # Tricky Landing from the lobby: a person's throws are their own flicks, so the engine's
    # release errors for their seat model only the card; the bots keep the default skill.
    drive.fill_lobby_form(page, server.url, "tricky-landing", 3, {1: "bot:easy", 2: "invite"},
                          {})
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    table = page.input_value("#created input.link").split("table=")[1].split("#")[0]
    assert server.api("GET", f"/api/tables/{table}")["options"]["skill"] == [10, 0.8, 10]
