"""The command line's words: one game's options, help texts, errors that quote the user,
replays that mark rounds, play's arguments and what the games' texts no longer say."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bigtop.agents.base import play_random
from bigtop.cli import app
from bigtop.cli.screen import fit_width
from bigtop.core.registry import new_state
from bigtop.games.clown15go.rules import Clown15GoState
from bigtop.games.scout.rules import ScoutState
from bigtop.games.tricky_landing.rules import Throw, TrickyLandingState

runner = CliRunner()


def test_games_shows_one_game_in_80_columns() -> None:
    res = runner.invoke(app, ["games", "scout"])
    assert res.exit_code == 0
    assert "SCOUT" in res.output and "Tricky Landing" not in res.output
    assert "hand_turn" in res.output and "default unbeaten-set" in res.output
    assert max(len(line) for line in res.output.splitlines()) <= 80
    one = json.loads(runner.invoke(app, ["games", "clown-15-go", "--json"]).output)
    assert one["name"] == "clown-15-go"
    # What the game's capability record declares (bigtop.core.capabilities).
    assert one["provides"]["picture"] and one["provides"]["observation_tensor"]
    assert not one["provides"]["chance_nodes"] and one["provides"]["easy_bot"]
    res = runner.invoke(app, ["games", "chess"])
    assert res.exit_code == 2 and "unknown game 'chess'" in res.output


def test_render_help_says_the_real_default() -> None:
    res = runner.invoke(app, ["render", "--help"], env={"COLUMNS": "200"})
    assert "default: what a spectator sees, no hidden cards" in " ".join(res.output.split())


def test_the_command_list_wraps_each_summary_to_the_screen() -> None:
    """A docstring's line break is not a break in `bigtop --help` (it read 'per game,' then
    'with their search budgets' on a line of its own)."""
    res = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    lines = {line.split()[1]: line for line in res.output.splitlines()
             if line.startswith("│ ") and len(line.split()) > 2}
    assert "per game, with their search budgets" in lines["bots"], res.output
    assert "paired difference B − A" in lines["compare"], res.output


def test_errors_are_never_read_as_markup() -> None:
    res = runner.invoke(app, ["play", "[bold]x[/bold]"])
    assert res.exit_code == 2
    assert "unknown game '[bold]x[/bold]'" in res.output


def test_replay_marks_every_round(tmp_path: Path) -> None:
    s = new_state("scout", 3, seed=4, options={"rounds": 2})
    play_random(s, random.Random(4))
    path = tmp_path / "scout.json"
    path.write_text(json.dumps(s.to_json()))
    out = runner.invoke(app, ["replay", str(path)]).output
    assert "Round 1 of 2 over: " in out and "Round 2 of 2 over: " in out
    assert "final scores " in out and ".0" not in out.splitlines()[-1]


@pytest.mark.parametrize(("args", "message"), [
    (["--seat", "1", "--humans", "0,1"], "not both"),
    (["--humans", "0,x"], "seat numbers like 0,2"),
    (["--humans", "0,²"], "seat numbers like 0,2"),
    (["--bots", "hard,easy,easy"], "one per bot seat (2: P1, P2), got 3"),
    (["--bots", "genius"], "unknown bot 'genius'"),
    (["--load", "missing.json"], "cannot read missing.json"),
    (["--load", "x.json", "--seed", "0"], "leave out --seed"),
])
def test_play_refuses_bad_arguments(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["play", *args])
    assert res.exit_code == 2 and message in res.output, res.output
    assert "Traceback" not in res.output


def test_play_saves_every_move_undoes_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    args = ["play", "scout", "-p", "2", "--seed", "3", "-o", "rounds=1", "--save", str(save)]
    res = runner.invoke(app, args, input="1\n1\nundo\nlog\nquit\n")
    assert res.exit_code == 0, res.output
    assert "took back" in res.output and "You show" in res.output
    first = json.loads(save.read_text())
    assert first["game"] == "scout" and first["history"]
    # A saved game goes on where it stopped, and the same moves give the same game.
    again = runner.invoke(app, ["play", "--load", str(save)], input="0\n" * 200)
    assert again.exit_code == 0 and "resumed after" in again.output
    assert "game over" in again.output
    twice = tmp_path / "h.json"
    twice.write_text(json.dumps(first))
    runner.invoke(app, ["play", "--load", str(twice)], input="0\n" * 200)
    assert json.loads(twice.read_text()) == json.loads(save.read_text())
    # A finished game just shows how it ended.
    over = runner.invoke(app, ["play", "--load", str(save)])
    assert over.exit_code == 0 and "game over" in over.output and "Scores:" in over.output


def test_the_menu_and_your_own_log_lines_speak_to_you() -> None:
    """Your moves are listed as moves to make ("show 1/10", "turn your hand upside down"),
    not as the log's "P0 shows 1/10" about you; the log says "You show", the bots' moves
    stay "P1 shows"."""
    res = runner.invoke(app, ["play", "scout", "-p", "2", "--seed", "3", "-o", "rounds=1"],
                        input="1\nquit\n")
    assert res.exit_code == 0, res.output
    menu = res.output.split("P0>")[0].split("Your hand")[1]
    assert "0 turn your hand upside down" in menu and "1 show 1/10" in menu, menu
    assert "shows" not in menu and "their" not in menu and "P0" not in menu, menu
    assert "P0> You show 1/10\nP1 shows" in res.output, res.output


def test_play_reads_only_ascii_digits_as_numbers() -> None:
    res = runner.invoke(app, ["play", "scout", "-p", "2", "--seed", "1"], input="٣\n²\nq\n")
    assert res.exit_code == 0
    assert res.output.count("cannot read") == 2


def test_describe_and_render_polish() -> None:
    tl = new_state("tricky-landing", 3, seed=1)
    assert isinstance(tl, TrickyLandingState)
    card = tl.hands[0][0]
    line = tl.describe(Throw(card, -0.0, 5.0, 0.0))  # a negative zero reads as no side at all
    assert line.endswith("at 5 cm beyond the target's centre with no spin"), line
    assert "left" not in line and "right" not in line and "-0" not in line
    scout = new_state("scout", 2, seed=1)
    assert isinstance(scout, ScoutState)
    scout.hands[1] = scout.hands[1][:1]
    assert "P1 (1 card)" in scout.render(0)
    clown = new_state("clown-15-go", 3, seed=1)
    assert isinstance(clown, Clown15GoState)
    assert "P" not in clown.game.deck.colours  # a card never reads like a seat
    s = new_state("so-ein-zirkus", 2, seed=2)
    play_random(s, random.Random(2))
    text = s.render(0)
    assert "Game over: " in text and "(six-hole)" not in text


def test_readme_play_lines_print_what_they_say(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    readme = Path(__file__).parents[2] / "README.md"
    lines = [line for line in readme.read_text().splitlines()
             if line.startswith(".venv/bin/bigtop play")]
    said = {
        "you are P0 against three medium bots":
            r"You: P0\. Bots: P1 medium, P2 medium, P3 medium\.",
        "P1 hard, P2 easy": r"You: P0\. Bots: P1 hard, P2 easy\.",
        "go on with a saved game": r"resumed after \d+ moves",
        "hot-seat: P0 and P2 at this keyboard": r"You: P0, P2\. Bots: P1 medium\.",
    }
    monkeypatch.chdir(tmp_path)
    seen = set()
    for line in lines:
        command, comment = (part.strip() for part in line.split("#", 1))
        res = runner.invoke(app, command.split()[1:], input="1\nquit\n")
        assert res.exit_code == 0, res.output
        assert re.search(said[comment], res.output), (line, res.output)
        seen.add(comment)
    assert seen == set(said)


def test_play_commands_and_pause(tmp_path: Path) -> None:
    """Every command at the prompt answers, and changes nothing in the game."""
    later = tmp_path / "later.json"
    res = runner.invoke(app, ["play", "so-ein-zirkus", "-p", "2", "--seed", "4"],
                        input=f"help\nrules\nboard\nlist\nlog all\nsave {later}\nsave\n"
                              "undo\nquit\n")
    assert res.exit_code == 0, res.output
    out = res.output
    for said in ("Commands:", "So ein Zirkus. Three clowns",
                 f"saved to {later}; go on later with: bigtop play --load {later}",
                 "save where?", "there is no move of yours to take back"):
        assert said in " ".join(out.split()), said
    saved = json.loads(later.read_text())
    assert saved["history"] and saved["history"][-1]["type"] == "roll"  # before any move
    paused = runner.invoke(app, ["play", "so-ein-zirkus", "-p", "2", "--seed", "4", "--pause"],
                           input="\n" * 3 + "quit\n")
    assert "(Enter)" in paused.output and paused.exit_code == 0


def test_a_long_board_line_is_wrapped_at_spaces_not_folded() -> None:
    """Clown 15 Go's seat lines outgrow 80 columns once the open piles fill up; the play
    screen wraps them at a space, indented, so every board row is counted and whole."""
    s = new_state("clown-15-go", 3, seed=3)
    rng = random.Random(3)
    while max(len(line) for line in s.render(0).splitlines()) <= 80:
        assert play_random(s, rng, max_actions=1) == 1
    lines = s.render(0).splitlines()
    fitted = fit_width(lines, 80)
    assert len(fitted) > len(lines) and max(len(line) for line in fitted) <= 80
    assert " ".join(fitted).split() == " ".join(lines).split()  # every word, none cut
    long = next(i for i, line in enumerate(fitted) if len(line) > 60 and
                fitted[i + 1].startswith("      "))
    assert not fitted[long].endswith(" ")


def test_a_closed_pipe_stops_quietly(tmp_path: Path) -> None:
    """`bigtop replay game.json | head -1`: once the reader is gone the command stops with
    the shell's broken-pipe code and says nothing (it used to report an internal error)."""
    save = tmp_path / "game.json"
    save.write_text(runner.invoke(app, ["state", "scout", "-p", "2", "--seed", "1",
                                        "--actions", "4"]).output)
    read, write = os.pipe()
    os.close(read)  # the reader left before the first line: every write is a broken pipe
    proc = subprocess.run([sys.executable, "-c", "from bigtop.cli import app; app()",
                           "replay", str(save)], stdout=write, stderr=subprocess.PIPE,
                          timeout=120, check=False)
    os.close(write)
    assert proc.returncode == 141 and proc.stderr == b""


def test_the_last_line_of_play_names_seats_and_counts_as_the_game_does() -> None:
    """Clown 15 Go's last line says cards left, not the engine's score (minus the cards
    left), and marks your seat."""
    res = runner.invoke(app, ["play", "clown-15-go", "-p", "2", "--seed", "5", "-o", "sets=1",
                              "--bots", "random"], input="0\n" * 400)
    assert res.exit_code == 0, res.output
    last = " ".join(res.output.split("game over")[-1].split())
    assert re.search(r"Scores: P0 \(you\) \d+ cards? left, P1 \d+ cards? left\. "
                     r"Winner: P\d", last), last


def test_a_short_menu_takes_only_its_own_numbers() -> None:
    """Tricky Landing's menu numbers one throw per card (1, 28, 55, …): '2' is refused, not
    played as some unlisted throw; after 'list' every number is a move."""
    res = runner.invoke(app, ["play", "tricky-landing", "-p", "3", "--bots", "random"],
                        input="2\nlist\n2\nquit\n")
    out = " ".join(res.output.split())
    assert res.exit_code == 0, res.output
    assert "2 is not a listed move: type one of the numbers shown (1, 28, 55, 82, …)" in out
    assert out.count("You throw") == 1, out


def test_play_calls_named_seats_by_their_names() -> None:
    """``--names``: every line, the turn's heading, the prompt, the board and the scores
    call the named seats by name; an unnamed seat keeps its label."""
    args = ["play", "scout", "-p", "3", "--seed", "3", "-o", "rounds=1", "--bots", "random",
            "--names", "Anna,,Bob"]
    res = runner.invoke(app, args, input="0\n" * 300)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "You: Anna. Bots: P1 random, Bob random." in out
    assert "Anna's turn" in out and "Anna> " in out and "Bob " in out and "P1 " in out
    assert not re.search(r"\bP[02]\b", out)
    assert re.search(r"Scores: Anna \(you\) .*, P1 .*, Bob ", out)
    bad = runner.invoke(app, ["play", "scout", "-p", "2", "--names", "A,B,C"])
    assert bad.exit_code == 2 and "3 names for 2 seats" in bad.output
