"""A newcomer plays a whole game of each game in an 80x24 terminal (a real pty, read back
through a terminal emulator): reads the rules, plays, undoes, saves by quitting, resumes
with --load, plays to the end and sees every round's summary. Seeded, against quick bots."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pyte
import pytest
from tests.conftest import default_ctrl_c
from typer.testing import CliRunner

from bigtop.cli import app
from bigtop.core.registry import load_state

BIGTOP = str(Path(sys.executable).with_name("bigtop"))
ROWS, COLS = 24, 80
PROMPT = re.compile(r"P(\d)> ")
WAIT = re.compile(r"press Enter|Pass the terminal to P\d")
OVER = "game over"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """``bigtop ARGS`` in an 80x24 pty; everything it prints also goes to a VT100
    emulator, so a test can look at the screen as the player sees it."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(COLS), LINES=str(ROWS))
        env.pop("NO_COLOR", None)
        self.child = pexpect.spawn(BIGTOP, list(args), dimensions=(ROWS, COLS), env=env,
                                   encoding="utf-8", timeout=60, preexec_fn=default_ctrl_c)
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.Stream(self.screen)
        self.text = ""

    def expect(self, patterns: list[object]) -> int:
        i = int(self.child.expect(patterns))
        seen = self.child.before + (self.child.after if isinstance(self.child.after, str)
                                    else "")
        self.stream.feed(seen)
        self.text += seen
        return i

    def send(self, line: str) -> None:
        self.child.sendline(line)

    @property
    def plain(self) -> str:
        """What was printed, without colour and cursor codes."""
        return ANSI.sub("", self.text).replace("\r", "")

    def lines(self) -> list[str]:
        return [row.rstrip() for row in self.screen.display]

    def close(self) -> int:
        self.child.expect(pexpect.EOF)
        self.stream.feed(self.child.before)
        self.text += self.child.before
        self.child.close()
        return int(self.child.exitstatus or 0)


def _board_on_screen(t: Terminal, head: str) -> None:
    """At a prompt after a move the whole board (its first line) and the prompt are on the
    24 rows, and nothing is wider than 80 columns."""
    rows = t.lines()
    assert any(head in row for row in rows), "\n".join(rows)
    assert re.match(r"P\d>", rows[t.screen.cursor.y]), "\n".join(rows)


def _play_to_the_end(t: Terminal, head: str, choose: str = "0") -> tuple[int, str]:
    """Answer every prompt with ``choose`` and every pause with Enter; count prompts."""
    prompts = 0
    while True:
        i = t.expect([PROMPT, WAIT, OVER])
        if i == 0:
            prompts += 1
            _board_on_screen(t, head)
            t.send(choose)
        elif i == 1:
            t.send("")
        else:
            t.expect(["Scores: .*Winner"])
            assert t.close() == 0
            return prompts, t.plain


GAMES = [
    # game, arguments, the board's first line, a sentence of its rules, what a round's
    # summary says and how many there are
    ("scout", ["-p", "3", "--seed", "5", "-o", "rounds=2", "--bots", "easy,random"],
     "SCOUT — round", "Scout & Show, once per round", r"Round \d of 2 over: ", 2),
    ("clown-15-go", ["-p", "2", "--seed", "5", "-o", "sets=6", "-o", "last_card=turned",
                     "--bots", "easy"],
     "Clown 15 Go — turn", "a 1 starts a new row",
     r"Game over: [^\n]*\n\s*P0: \d+ cards? left", 1),
    ("so-ein-zirkus", ["-p", "2", "--seed", "3", "--bots", "easy"],
     "So ein Zirkus (default board)", "(on any face), your turn is lost",
     r"Game over: [^\n]*\n\s*Holes", 1),
    ("tricky-landing", ["-p", "3", "--seed", "2", "-o", "rounds=1", "--bots", "random"],
     "Tricky Landing — round", "A thrown card may land face up or face down",
     r"Round 1 of 1 over:", 1),
]


@pytest.mark.parametrize(("game", "args", "head", "rule", "summary", "rounds"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_a_newcomer_plays_a_whole_game(tmp_path: Path, game: str, args: list[str],
                                       head: str, rule: str, summary: str,
                                       rounds: int) -> None:
    save = tmp_path / "game.json"
    t = Terminal("play", game, *args, "--save", str(save))
    t.expect([PROMPT])
    assert "Type 'rules' to learn the game" in t.plain
    _board_on_screen(t, head)
    colours = {cell.fg for row in t.screen.buffer.values() for cell in row.values()}
    assert len(colours - {"default"}) >= 1  # cards, suits or balls in colour
    t.send("rules")
    t.expect([PROMPT])
    assert rule in " ".join(t.plain.split())
    assert "Ruling" not in t.plain  # plain words, no ruling codes
    first = "1" if game == "tricky-landing" else "0"  # the menu's first number
    t.send(first)  # a first move
    moves = 1
    while t.expect([PROMPT, WAIT]) == 1:
        t.send("")
    _board_on_screen(t, head)
    before_undo = json.loads(save.read_text())["history"]
    t.send("undo")
    t.expect(["took back"])
    t.expect([PROMPT])
    _board_on_screen(t, head)
    after_undo = json.loads(save.read_text())["history"]
    assert len(after_undo) < len(before_undo)  # the save file follows the undo
    t.send("1" if game != "tricky-landing" else "28")  # another move this time
    for _ in range(3):
        while t.expect([PROMPT, WAIT, OVER]) == 1:
            t.send("")
        t.send(first)
        moves += 1
    t.expect([PROMPT])
    t.send("log")
    t.expect([PROMPT])
    t.send("quit")
    t.expect(["bye"])
    assert t.close() == 0
    assert f"bigtop play --load {save}" in t.plain.replace("\n", "")
    first_text = t.plain

    # The save file is the engine's JSON: replay and render read it.
    saved = load_state(json.loads(save.read_text()))
    assert len(saved.history) > moves
    runner = CliRunner()
    assert runner.invoke(app, ["replay", str(save)]).exit_code == 0
    assert runner.invoke(app, ["render", str(save), "--player", "0"]).exit_code == 0

    # Resume and play to the end; every round is summarised.
    bots = args[args.index("--bots") + 1]
    t = Terminal("play", "--load", str(save), "--bots", bots)
    t.expect(["resumed after"])
    prompts, text = _play_to_the_end(t, head, first)
    assert prompts > 0
    assert len(re.findall(summary, first_text + text)) == rounds, text
    final = load_state(json.loads(save.read_text()))
    assert final.is_terminal() and final.history[:len(saved.history)] == saved.history
    assert "Traceback" not in text
    # The whole game replays from the file, rounds marked.
    out = runner.invoke(app, ["replay", str(save)]).output
    assert len(re.findall(summary, out)) == rounds


def test_hot_seat_hint_and_bad_input(tmp_path: Path) -> None:
    """Two people at one terminal: the screen is handed over between them; hint names a
    move; typed nonsense (markup, other digits) is explained and changes nothing."""
    t = Terminal("play", "scout", "-p", "3", "--seed", "2", "--humans", "0,2",
                 "--bots", "random", "-o", "rounds=1")
    t.expect([PROMPT])
    t.send("[bold]x[/]")
    t.expect(["cannot read '\\[bold\\]x\\[/\\]'"])
    t.send("²")
    t.expect(["cannot read"])
    t.send("undo")
    t.expect(["undo works in games against bots only"])
    t.send("hint")
    t.expect(["hint: "])
    t.expect([r"\(type \d+\)"])
    t.send("0")
    seats = set()
    for _ in range(8):
        i = t.expect([PROMPT, WAIT, OVER])
        if i == 2:
            break
        if i == 1:
            t.send("")
            continue
        assert t.child.match is not None
        seats.add(int(t.child.match.group(1)))
        t.send("0")
    assert seats == {0, 2}
    assert "Pass the terminal to P2" in t.plain
    t.child.sendcontrol("d")  # end of input leaves cleanly
    t.expect(["bye"])
    assert t.close() == 0


def test_ctrl_c_while_a_bot_thinks_leaves_cleanly(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    t = Terminal("play", "tricky-landing", "-p", "3", "--bots", "hard", "--save", str(save))
    t.expect([PROMPT])
    t.send("1")
    t.expect(["is thinking"])  # the spinner of a searching bot
    t.child.sendintr()
    t.expect(["bye"])
    assert t.close() == 0
    assert "Traceback" not in t.plain
    # Your move and any bot move that finished before the interrupt (a fast search may finish
    # one before Ctrl-C lands), never a half-made one: the file still loads.
    saved = json.loads(save.read_text())
    assert 1 <= len(saved["history"]) < 3
    assert len(load_state(saved).history) == len(saved["history"])
