"""Playing a table page like a person: wait for your turn, read the highlighted moves, click
the game's own controls (cards, piles, clowns, paths, the table) to make them."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

TURN_TIMEOUT_MS = 45_000

# Finds the element of the board whose data-action is `action` (same fields and values) and
# marks it, so that Playwright can click it as a person would.
_MARK = """([selector, action]) => {
  document.querySelectorAll('[data-pick]').forEach((e) => e.removeAttribute('data-pick'));
  const same = (a, b) => Object.keys(a).length === Object.keys(b).length &&
    Object.keys(a).every((k) => a[k] === b[k]);
  for (const e of document.querySelectorAll(selector + ' [data-action]')) {
    if (e.offsetParent !== null && same(JSON.parse(e.dataset.action), action)) {
      e.dataset.pick = '1';
      return true;
    }
  }
  return false;
}"""


def wait_ready(page: Page, timeout: int = TURN_TIMEOUT_MS) -> str:
    """Wait until the page is idle and it is our turn or the game is over; 'turn' or 'over'
    (a table waiting for its people is neither)."""
    try:
        page.wait_for_function(
            "() => document.body.dataset.idle === 'yes' && (document.body.dataset.myTurn === "
            "'yes' || ['finished', 'expired'].includes(document.body.dataset.status))",
            timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"the page is stuck: {describe(page)}") from None
    return "over" if page.evaluate("document.body.dataset.status") in ("finished", "expired") \
        else "turn"


def describe(page: Page) -> str:
    """What the page shows now (for failure messages)."""
    return str(page.evaluate("""() => ({data: {...document.body.dataset},
      turn: document.getElementById('turn').textContent,
      error: document.getElementById('error').textContent,
      banner: document.getElementById('banner').textContent,
      said: document.getElementById('tl-said')?.textContent,
      log: [...document.querySelectorAll('#log-list li')].slice(-4).map(e => e.textContent)})"""))


def top_line(page: Page) -> str:
    """The status line above the board (whose turn, or who won)."""
    return page.inner_text("#turn")


def winners_said(page: Page) -> list[int]:
    """The seats the top line names as winners once the game is over ("you" is our seat)."""
    said = top_line(page).split("The game is over: ", 1)[1].split(".")[0]
    seat = int(page.evaluate("document.body.dataset.seat") or -1)
    seats = {int(x) for x in re.findall(r"P(\d+)", said)}
    if said.startswith("you "):
        seats.add(seat)
    return sorted(seats)


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def wait_after(page: Page, before: int, timeout: int = TURN_TIMEOUT_MS) -> None:
    """Wait until the page shows a later version than `before`."""
    try:
        page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}",
                               timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"no new version after {before}: {describe(page)}") from None


def legal_moves(page: Page) -> list[dict[str, Any]]:
    """The moves the page offers in its 'Your moves' list."""
    raw = page.eval_on_selector_all("#moves-list [data-action]",
                                    "els => els.map((e) => e.dataset.action)")
    return [json.loads(r) for r in raw]


def click_action(page: Page, action: dict[str, Any], within: str = "#board") -> None:
    """Click the board's control for `action` (it must be on screen). A redraw between the
    mark and the click (a second copy of the same view, from the socket after the move's
    answer) replaces the marked element: marked again and clicked again."""
    for _ in range(3):
        assert page.evaluate(_MARK, [within, action]), f"no control for {action} on the page"
        try:
            page.click("[data-pick='1']", timeout=10_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"the control for {action} could not be clicked: {describe(page)}")


def fill_lobby_form(page: Page, url: str, game: str, players: int, seats: dict[int, str],
                    options: dict[str, str]) -> None:
    """Open the lobby and fill in the new-table form (seat values: 'me', 'invite',
    'bot:LEVEL'); the caller presses Create."""
    page.goto(url + "/")
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    for seat, choice in seats.items():
        page.select_option(f"#seat-{seat}", choice)
    page.click("#options-box summary")
    for name, value in options.items():
        page.fill(f"#opt-{name}", value)


# -- SCOUT ---------------------------------------------------------------------------------

def scout_move(page: Page, action: dict[str, Any]) -> None:
    """Make a SCOUT move with the hand, the active set and the controls."""
    kind = action["type"]
    if kind == "show":
        for i in range(action["start"], action["start"] + action["length"]):
            page.click(f"#board [data-hand='{i}']")
        click_action(page, action)
    elif kind == "scout":
        page.click(f"#board [data-end='{action['end']}']")
        click_action(page, action)
    elif kind == "insert":
        if action["flip"]:
            page.click("#board button:has-text('Flip it')")
        page.click(f"#board [data-gap='{action['position']}']")
    else:  # turn-hand, pass
        click_action(page, action)


def play_scout_turn(page: Page, rng: random.Random) -> None:
    moves = legal_moves(page)
    # Prefer showing (games end sooner), but scout now and then too.
    shows = [m for m in moves if m["type"] == "show"]
    action = rng.choice(shows if shows and rng.random() < 0.7 else moves)
    before = version(page)
    scout_move(page, action)
    wait_after(page, before)


# -- Clown 15 Go ---------------------------------------------------------------------------

def play_clown_turn(page: Page, rng: random.Random) -> bool:
    """One of our moves; True when we chose it (a single move is played by the page)."""
    moves = legal_moves(page)
    before = version(page)
    if len(moves) > 1:
        click_action(page, rng.choice(moves))
    wait_after(page, before)
    return len(moves) > 1


# -- So ein Zirkus -------------------------------------------------------------------------

def play_zirkus_turn(page: Page, rng: random.Random) -> None:
    moves = legal_moves(page)
    action = rng.choice(moves)
    before = version(page)
    if action["type"] == "move":
        clown = action["clown"]
        # Click the clown (its paths appear on the board), then a point on the chosen path.
        selector = f"#board .path[data-clown='{clown}'][data-path='{action['steps']}'] .hit"
        if not page.locator(selector).count():
            page.click(f"#board g.clown[data-clown='{clown}']")
        point = page.eval_on_selector(selector, """(p) => {
          const svg = p.ownerSVGElement, len = p.getTotalLength();
          const pt = p.getPointAtLength(len * 0.75).matrixTransform(svg.getScreenCTM());
          return [pt.x, pt.y];
        }""")
        page.mouse.click(point[0], point[1])
    else:
        click_action(page, action)
    wait_after(page, before)


# -- Tricky Landing ------------------------------------------------------------------------

# A flick on the table as a hand makes it: pointer events from our seat toward `angle`
# (degrees from straight ahead, clockwise) in steps of `step_cm` every 16 ms. The page measures
# the speed from the events' own times, so a slow machine only makes the throw shorter.
_FLICK = """async ([angle, step_cm, steps, curl]) => {
  const svg = document.querySelector('svg.tl-table'), m = svg.getScreenCTM();
  const seat = svg.querySelector('.tl-seat.mine').getBoundingClientRect();
  let x = seat.left + seat.width / 2, y = seat.top + seat.height / 2;
  const a = angle * Math.PI / 180, px = step_cm * 10 * m.a;
  const fire = (type) => svg.dispatchEvent(new PointerEvent(type, {clientX: x, clientY: y,
    pointerId: 1, pointerType: 'mouse', bubbles: true, isPrimary: true, buttons: 1}));
  fire('pointerdown');
  for (let k = 0; k < steps; k++) {
    await new Promise((r) => setTimeout(r, 16));
    const b = a + curl * k * Math.PI / 180;
    x += Math.sin(b) * px; y -= Math.cos(b) * px;
    fire('pointermove');
  }
  fire('pointerup');
}"""


def flick(page: Page, angle: float = 0.0, step_cm: float = 2.0, steps: int = 6,
          curl: float = 0.0) -> None:
    """Flick from our seat: about 125 cm/s by default, which stops near the target; `curl`
    turns each step that many degrees (a twist)."""
    page.evaluate(_FLICK, [angle, step_cm, steps, curl])


def aim_by_keys(page: Page, to_cm: tuple[int, int]) -> None:
    """Move the precise aim (keyboard) from where it is to whole centimetres `to_cm`."""
    now = page.inner_text("#tl-aim-text")
    x, y = (round(float(v)) for v in re.findall(r"-?\d+\.\d", now)[:2])
    page.focus("#board svg.tl-table")
    for key, d in (("ArrowRight", to_cm[0] - x), ("ArrowUp", to_cm[1] - y)):
        back = {"ArrowRight": "ArrowLeft", "ArrowUp": "ArrowDown"}[key]
        for _ in range(abs(d) // 5):
            page.keyboard.press(f"Shift+{key if d > 0 else back}")
        for _ in range(abs(d) % 5):
            page.keyboard.press(key if d > 0 else back)


def play_tricky_turn(page: Page, rng: random.Random) -> None:
    cards = page.eval_on_selector_all("#board .tl-hand-card", "els => els.map(e => e.dataset.card)")
    card = rng.choice(cards)
    before = version(page)
    page.click(f"#board .tl-hand-card[data-card='{card}']")
    throw(page, rng.uniform(-8, 8), before)


def throw(page: Page, angle: float, before: int) -> None:
    """Flick the chosen card at ``angle`` and wait for the throw (a version after
    ``before``). On a loaded machine the 16 ms between pointer events can stretch so far
    that the page measures a flick too slow to throw (and says so): a person flicks
    again."""
    for _ in range(3):
        flick(page, angle)
        page.wait_for_function(
            f"() => Number(document.body.dataset.version) > {before} || "
            "(document.getElementById('tl-said')?.textContent || '').startsWith('Too slow')",
            timeout=TURN_TIMEOUT_MS)
        if version(page) > before:
            return
        page.evaluate("document.getElementById('tl-said').textContent = ''")
    wait_after(page, before)


def play_turns(page: Page, turn: Any, rng: random.Random, turns: int) -> None:
    """Play at most `turns` of our turns with `turn(page, rng)`, fewer if the game ends,
    then wait until the page is ready again."""
    for _ in range(turns):
        if wait_ready(page) == "over":
            break
        turn(page, rng)
    wait_ready(page)


def play_to_end(page: Page, turn: Any, rng: random.Random, max_turns: int = 400) -> None:
    """Play our turns with `turn(page, rng)` until the page says the game is over."""
    for _ in range(max_turns):
        if wait_ready(page) == "over":
            return
        turn(page, rng)
    raise AssertionError(f"the game did not end within {max_turns} of our turns")
