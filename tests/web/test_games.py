"""A complete game of each of the four games, played by clicking in the page against bots,
from the lobby's form to the final scores and the replay."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page

from tests.web import drive
from tests.web.conftest import Browsers, Server


def final_scores(page: Page) -> list[str]:
    lines: list[str] = page.eval_on_selector_all("#scores ol.final li",
                                                 "els => els.map(e => e.textContent)")
    return lines


def check_finished(server: Server, page: Page, table: str, token: str) -> None:
    """The page's final scores are the server's result."""
    view = server.api("GET", f"/api/tables/{table}", token=token)
    assert view["status"] == "finished"
    lines = final_scores(page)
    assert len(lines) == view["players"]
    # The top line says the game is over and who won, in words (not only in the side panel).
    assert drive.top_line(page).startswith("The game is over: ")
    assert drive.winners_said(page) == view["result"]["winners"], drive.top_line(page)
    code = view["result"].get("end_reason") or view["result"].get("ending")
    if code:  # how it ended, in words, never the engine's code ("six-hole")
        ending = page.inner_text("#ending")
        assert ending.startswith("The game ended: ") and code not in ending, ending
    for p, score in enumerate(view["result"]["scores"]):
        said = f"{score:g}"
        if view["game"] == "clown-15-go" and not view["options"]["points"]:
            left = view["result"]["cards_left"][p]  # the score is minus this: said as it is
            said = f"{left} card{'' if left == 1 else 's'} left"
        assert any(line.split(". ", 1)[1].startswith(f"P{p}")
                   and line.split(": ", 1)[1].split(" — ")[0] == said
                   for line in lines), (p, said, lines)


def test_scout_from_the_lobby_against_bots(server: Server, browsers: Browsers) -> None:
    page = browsers.new_page()
    drive.fill_lobby_form(page, server.url, "scout", 2, {1: "bot:random"}, {"rounds": "1"})
    browsers.shot(page, "lobby")
    page.click("#create-button")
    page.wait_for_url("**/table.html?table=*")
    table = page.url.split("table=")[1].split("#")[0].split("&")[0]
    token = page.url.split("#token=")[1]
    page.goto(server.table_url(table, token))
    rng = random.Random(1)
    drive.wait_ready(page)
    browsers.shot(page, "scout")
    drive.play_to_end(page, drive.play_scout_turn, rng)
    check_finished(server, page, table, token)
    assert page.get_attribute("#to-lobby", "href") == "/"  # what next: the lobby
    # How the round ended and each seat's points, as `bigtop play` says them.
    note = page.inner_text("#scores .round-note")
    assert note.startswith("Round 1 ended: ") and "P0: captured +" in note, note
    assert "_" not in note and "unbeaten" not in note and "emptied" not in note, note
    browsers.shot(page, "scout-final")
    # The replay: step back to the start and forward again.
    page.click("#open-replay")
    page.wait_for_selector("#replay:not([hidden])")
    page.click("#replay-first")
    page.wait_for_function("document.getElementById('replay-at').textContent.startsWith('move 0 ')")
    page.click("#replay-next")
    page.wait_for_function("document.getElementById('replay-at').textContent.startsWith('move 1 ')")
    # A past position's turn, not "Your turn." (nor for a seat's hands shown from its place).
    said = drive.top_line(page)
    assert re.fullmatch(r"In the replay: P[01]( \(you\))? to play\.", said), said
    browsers.shot(page, "scout-replay")
    browsers.axe(page, "SCOUT's replay")


def start_table(server: Server, browsers: Browsers, game: str, players: int,
                options: dict[str, object], bots: list[str], seed: int = 1
                ) -> tuple[Page, str, str]:
    """A table with us in seat 0 and bots elsewhere, opened in a fresh browser."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": b} for b in bots]
    made = server.create(game, players, seats, options, seed=seed)
    token = made["seats"][0]["token"]
    page = browsers.new_page()
    page.goto(server.table_url(made["table"], token))
    return page, made["table"], token


def test_clown_15_go_against_a_bot(server: Server, browsers: Browsers) -> None:
    page, table, token = start_table(server, browsers, "clown-15-go", 2,
                                     {"sets": 2, "stall_rounds": 3, "placing": "voluntary"},
                                     ["random"], seed=3)
    rng = random.Random(2)
    chosen = 0
    for _ in range(300):
        if drive.wait_ready(page) == "over":
            break
        if not chosen:  # the first real choice: places highlighted where the card may go
            browsers.shot(page, "clown-15-go")
        chosen += drive.play_clown_turn(page, rng)
    # Voluntary placing gives real choices (clicked on the board); a card that fits nowhere
    # is a forced move, which the page plays by itself and says so in the log.
    assert chosen > 0
    assert page.locator("#log-list li.log-auto").count() > 0
    check_finished(server, page, table, token)
    browsers.shot(page, "clown-15-go-final")


def test_so_ein_zirkus_against_a_bot(server: Server, browsers: Browsers) -> None:
    page, table, token = start_table(server, browsers, "so-ein-zirkus", 2, {}, ["easy"], seed=4)
    rng = random.Random(3)
    shot = luck = False
    for _ in range(300):
        if drive.wait_ready(page) == "over":
            break
        if not luck:
            log = server.api("GET", f"/api/tables/{table}", token=token)["log"]
            if any(e["kind"] == "move" and e["seat"] == 0 for e in log):
                # The bot's roll came after our move: the page says it cannot be taken
                # back instead of offering what the server refuses.
                assert page.locator("#undo-refused").is_visible(), drive.describe(page)
                assert page.locator("#undo-ask").count() == 0
                luck = True
        if not shot and any(m["type"] == "move" for m in drive.legal_moves(page)):
            # A picture with the paths of a clown drawn on the board.
            movers = page.locator("#board g.clown.legal")
            if movers.count() > 1:
                movers.first.click()
            browsers.shot(page, "so-ein-zirkus")
            shot = True
        drive.play_zirkus_turn(page, rng)
    assert luck
    check_finished(server, page, table, token)
    browsers.shot(page, "so-ein-zirkus-final")
    # The replay's start is before P0's first roll: the top line says whose turn it is, not
    # that the game is over.
    page.click("#open-replay")
    page.wait_for_selector("#replay:not([hidden])")
    page.click("#replay-first")
    page.wait_for_function("document.getElementById('replay-at').textContent.startsWith('move 0 ')")
    said = drive.top_line(page)
    assert said == "In the replay: P0 (you) to play.", said  # we are P0


@pytest.mark.slow
def test_tricky_landing_against_bots(server: Server, browsers: Browsers) -> None:
    page, table, token = start_table(server, browsers, "tricky-landing", 3, {"rounds": 1},
                                     ["easy", "random"], seed=5)
    drive.wait_ready(page)
    browsers.shot(page, "tricky-landing")
    # An aim beyond the table's 45 cm is refused with the engine's words; nothing changes.
    before = drive.version(page)
    drive.aim_by_keys(page, (50, 0))
    page.click("#tl-throw")
    page.wait_for_selector("#error:not([hidden])")
    assert "Not allowed" in page.inner_text("#error")
    browsers.allow_network_errors()
    assert drive.version(page) == before
    # A throw made with the keyboard: the arrow keys move the aim, Enter throws.
    page.click("#board .tl-hand-card >> nth=0")
    drive.aim_by_keys(page, (0, 0))
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    assert "aim (-1.0, 1.0) cm" in page.inner_text("#tl-aim-text")
    page.keyboard.press("Enter")
    drive.wait_after(page, before)
    rng = random.Random(4)
    shot = False
    for _ in range(40):
        if drive.wait_ready(page) == "over":
            break
        drive.play_tricky_turn(page, rng)
        lines = page.eval_on_selector_all("#board .tl-tricks li",
                                          "els => els.map(e => e.textContent)")
        # Every trick line is a whole sentence (a trick of face-down cards has no winner).
        assert not any(line.rstrip().endswith("won by") for line in lines), lines
        # Which trick it was is said first ("Trick 1: …" at the fifth trick misled).
        assert not lines or re.fullmatch(r"Last trick \(\d+ of 12\).*", lines[0]), lines
        if not shot and lines:
            browsers.shot(page, "tricky-landing-trick")
            shot = True
    check_finished(server, page, table, token)
    browsers.shot(page, "tricky-landing-final")
