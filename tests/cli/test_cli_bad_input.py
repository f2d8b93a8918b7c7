"""Bad input to the command line changes nothing: a file the user did not mean to replace is
left alone, a closed stdin or a full disk is one clear line (not "internal error"), and a
table of broken files and arguments, seeded, each ends in one line and exit code 2."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from bigtop.cli import app

runner = CliRunner()


def fails_cleanly(res: Result, message: str) -> None:
    assert res.exit_code == 2, (res.exit_code, res.output, res.exception)
    assert isinstance(res.exception, SystemExit), repr(res.exception)
    assert res.output.startswith("error:") and res.output.count("\n") == 1, res.output
    assert message in res.output, (message, res.output)


def test_a_new_game_never_replaces_an_existing_file(tmp_path: Path) -> None:
    """``--save FILE`` on a new game used to overwrite FILE at once (an earlier game, or any
    file); ``--load A --save B`` overwrote B. Both are refused before anything is written;
    the file's own --load, and a file this game wrote, still save."""
    other = tmp_path / "notes.json"
    other.write_text("my notes\n")
    fails_cleanly(runner.invoke(app, ["play", "scout", "--save", str(other)], input="quit\n"),
                  f"{other} exists")
    assert other.read_text() == "my notes\n"
    game = tmp_path / "game.json"
    res = runner.invoke(app, ["play", "scout", "-p", "2", "--save", str(game)], input="1\nquit\n")
    assert res.exit_code == 0, res.output
    saved = game.read_text()
    fails_cleanly(runner.invoke(app, ["play", "--load", str(game), "--save", str(other)],
                                input="quit\n"), f"{other} exists")
    assert other.read_text() == "my notes\n" and game.read_text() == saved
    # Going on with the same file writes it, as before.
    res = runner.invoke(app, ["play", "--load", str(game), "--save", str(game)], input="1\nquit\n")
    assert res.exit_code == 0 and game.read_text() != saved, res.output


def test_save_at_the_prompt_keeps_other_files(tmp_path: Path) -> None:
    other = tmp_path / "notes.json"
    other.write_text("my notes\n")
    mine = tmp_path / "mine.json"
    res = runner.invoke(app, ["play", "scout", "-p", "2"],
                        input=f"save {other}\nsave {mine}\n1\nsave {mine}\nquit\n")
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.split())
    assert f"{other} exists; save to another file" in out, out
    assert other.read_text() == "my notes\n"
    assert out.count(f"saved to {mine}") == 2  # its own file again: written
    assert len(json.loads(mine.read_text())["history"]) >= 1


def test_a_save_that_cannot_be_written_leaves_no_file(tmp_path: Path) -> None:
    """``--save DIR`` wrote ``DIR.tmp`` and then failed to rename it: the half-step stayed."""
    folder = tmp_path / "folder"
    folder.mkdir()
    fails_cleanly(runner.invoke(app, ["play", "scout", "--save", str(folder)], input="quit\n"),
                  "exists")  # a folder is in the way like any file
    res = runner.invoke(app, ["play", "scout"], input=f"save {tmp_path}/no/such.json\nquit\n")
    assert res.exit_code == 0 and "cannot write" in res.output, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def _with_stdin_closed(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from bigtop.cli import main; main()", *args],
                          preexec_fn=lambda: os.close(0), capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize(("args", "message"), [
    (["play", "scout"], "error: play reads your moves from stdin, which is closed\n"),
    (["render", "-"], "error: cannot read stdin: it is closed\n"),
])
def test_a_closed_stdin_is_one_clear_line(args: list[str], message: str) -> None:
    """``bigtop play scout 0<&-`` reported an internal error (RuntimeError: input(): lost
    sys.stdin), ``render -`` another (AttributeError)."""
    proc = _with_stdin_closed(*args)
    assert (proc.returncode, proc.stderr) == (2, message)


def test_play_loads_from_a_file_only(tmp_path: Path) -> None:
    """``play --load -`` read the game from stdin, then had no moves left to read, said
    "saved; go on with: bigtop play --load -" and would have saved to a file named "-"."""
    state = runner.invoke(app, ["state", "scout", "-p", "2", "--actions", "3"]).output
    fails_cleanly(runner.invoke(app, ["play", "--load", "-"], input=state),
                  "--load needs a file")


TABLE: list[tuple[list[str], str]] = [
    # --think is a number of seconds: the message names the flag, not the bots' parameter.
    (["play", "scout", "--think", "nan"], "--think must be a finite number, above 0, got nan"),
    (["play", "scout", "--think", "0"], "--think must be a finite number, above 0"),
    (["play", "scout", "--think", "-1"], "--think must be a finite number, above 0"),
    (["play", "scout", "--think", "inf"], "--think must be a finite number, above 0"),
    # A tournament has no --rotate: its message must not send the user looking for one.
    (["tournament", "scout", "--bots", "random,easy", "-n", "5", "-p", "3"],
     "a tournament plays every deal once per seating, so --games must be a multiple of the "
     "3 players (e.g. 3 or 6), got 5"),
    (["simulate", "scout", "-n", "5", "--rotate"], "with --rotate every deal is played once "
     "per rotation, so --games must be a multiple of the 3 players (e.g. 3 or 6), got 5"),
    # A process per worker: -w 1000 started a thousand processes for a thousand games.
    (["simulate", "scout", "-n", "1000", "-w", "1000"], "--workers must be at most"),
    (["simulate", "scout", "-w", "9" * 30], "--workers must be at most"),
    (["compare", "scout", "-n", "1000", "-w", "1000", "--vs", "-o", "rounds=1"],
     "--workers must be at most"),
    (["tournament", "scout", "--bots", "random,easy", "-w", "1000"], "--workers must be at most"),
    # train: every error read "--hidden: …" (a BigtopError is a ValueError), a seed no
    # other command takes was taken, empty yardstick names measured against nothing, and
    # --weights naming a folder failed only after the whole training.
    (["train", "chess"], "error: unknown game 'chess'"),
    (["train", "scout", "-o", "rounds=x"], "error: rule option 'rounds' takes a whole number"),
    (["train", "scout", "--hidden", "64,x"], "error: --hidden takes sizes like 128,64"),
    (["train", "scout", "--hidden", "0"], "error: --hidden: sizes from 1 to 4096, got '0'"),
    (["train", "scout", "--seed", "-1"], "seed must be an integer from 0 to"),
    (["train", "scout", "--seed", str(2**64)], "seed must be an integer from 0 to"),
    (["train", "scout", "--yardsticks", "easy,,heuristic"], "has an empty name"),
    (["train", "scout", "--weights", "."], "--weights .: is a folder"),
    (["train", "scout", "--weights", "no/such/w.npz"], "--weights no/such/w.npz: no folder"),
]


@pytest.mark.parametrize(("args", "message"), TABLE, ids=[" ".join(a)[:60] for a, _ in TABLE])
def test_bad_arguments(args: list[str], message: str, tmp_path: Path,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """One line, exit code 2, and nothing written where the command ran."""
    monkeypatch.chdir(tmp_path)
    fails_cleanly(runner.invoke(app, args, input="quit\n"), message)
    assert list(tmp_path.iterdir()) == []


def test_out_never_mixes_runs_and_is_whole_or_absent(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``--out DIR`` wrote into a folder that held an earlier run: a shorter run left the
    earlier games/00007.json… beside its own, one folder, two runs. A folder with files is
    refused before any game; an empty one is used; a run whose files cannot all be written
    leaves no folder (and no temporary one) behind."""
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    (earlier / "summary.json").write_text("{}\n")
    args = ["simulate", "scout", "-p", "2", "-n", "2", "-w", "1", "--seed", "3"]
    fails_cleanly(runner.invoke(app, [*args, "--out", str(earlier)]), "is not empty")
    assert [p.name for p in earlier.iterdir()] == ["summary.json"]
    empty = tmp_path / "empty"
    empty.mkdir()
    res = runner.invoke(app, [*args, "--out", str(empty)])
    assert res.exit_code == 0, res.output
    assert len(list((empty / "games").iterdir())) == 2
    here = tmp_path / "here"  # --out . in an empty folder (it cannot be renamed over)
    here.mkdir()
    monkeypatch.chdir(here)
    res = runner.invoke(app, [*args, "--out", "."])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in here.iterdir()) == sorted(p.name for p in empty.iterdir())
    monkeypatch.chdir(tmp_path)

    from bigtop.sim import output

    def full(*a: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output, "write_json", full)
    fails_cleanly(runner.invoke(app, [*args, "--out", str(tmp_path / "new" / "run")]),
                  "No space left on device")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["earlier", "empty", "here"]


def test_output_that_cannot_be_written_is_one_line() -> None:
    """``bigtop state scout > /dev/full`` said "internal error (OSError …); please report
    it"; with stdout closed (``>&-``) every command printed nothing and exited 0."""
    cmd = [sys.executable, "-c", "from bigtop.cli import main; main()", "games", "scout"]
    with open("/dev/full", "w") as full:
        proc = subprocess.run(cmd, stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=120, check=False)
    assert (proc.returncode, proc.stderr) == (
        2, "error: cannot write the output: No space left on device\n")
    proc = subprocess.run(cmd, preexec_fn=lambda: os.close(1), stderr=subprocess.PIPE,
                          text=True, timeout=120, check=False)
    assert (proc.returncode, proc.stderr) == (
        2, "error: stdout is closed (>&-): there is nowhere to print the output\n")


def test_a_picture_that_cannot_be_written_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``render --out`` wrote the picture straight into FILE: a write that failed half-way
    (a full disk) left half a picture, or half of the one that was there before."""
    from bigtop.cli import files

    state = tmp_path / "s.json"
    state.write_text(runner.invoke(app, ["state", "clown-15-go", "-p", "2"]).output)
    picture = tmp_path / "table.png"
    picture.write_bytes(b"the picture from before")

    class HalfWritten:
        def render_png(self, s: object, path: str, player: object) -> None:
            Path(path).write_bytes(b"\x89PNG half")
            raise OSError(28, "No space left on device")

    class Caps:
        picture = HalfWritten()

    monkeypatch.setattr(files, "capabilities", lambda name: Caps())
    fails_cleanly(runner.invoke(app, ["render", str(state), "--out", str(picture)]),
                  f"cannot write {picture}: No space left on device")
    assert picture.read_bytes() == b"the picture from before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json", "table.png"]
    monkeypatch.undo()
    res = runner.invoke(app, ["render", str(state), "--out", str(picture)])
    assert res.exit_code == 0 and picture.read_bytes()[:4] == b"\x89PNG", res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json", "table.png"]


def test_a_line_that_is_not_utf8_is_refused_at_the_prompt() -> None:
    """Where stdin decodes strictly (a UTF-8 locale outside Python's UTF-8 mode), a typed
    byte like 0xff ended the game with "internal error (UnicodeDecodeError …)"."""
    res = runner.invoke(app, ["play", "scout", "-p", "2"], input=b"\xff\xfe\nquit\n")
    assert res.exit_code == 0, (res.output, res.exception)
    assert "that line is not UTF-8 text" in res.output and "internal error" not in res.output


def test_quitting_says_whether_the_game_was_kept(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Quitting a game that nothing saved said only "bye"; 'save ~/FILE' looked for a folder
    named '~'."""
    monkeypatch.setenv("HOME", str(tmp_path))
    args = ["play", "scout", "-p", "2", "--seed", "3"]
    lost = runner.invoke(app, args, input="1\nquit\n")
    assert lost.exit_code == 0 and "not saved (type 'save FILE'" in lost.output, lost.output
    kept = runner.invoke(app, args, input="1\nsave ~/g.json\nquit\n")
    assert kept.exit_code == 0 and (tmp_path / "g.json").exists(), kept.output
    assert f"saved; go on with: bigtop play --load {tmp_path}/g.json" in kept.output
    later = runner.invoke(app, args, input="save ~/h.json\n1\nquit\n")
    assert f"the moves since 'save {tmp_path}/h.json' are not saved" in later.output


def test_a_state_file_that_does_not_load_is_named(tmp_path: Path) -> None:
    """"error: hands must list 2 hands" did not say which file: play --load, render and
    replay name it."""
    doc = json.loads(runner.invoke(app, ["state", "scout", "-p", "3"]).output)
    doc["players"] = 2
    path = tmp_path / "three-hands.json"
    path.write_text(json.dumps(doc))
    for args in (["render", str(path)], ["replay", str(path)], ["play", "--load", str(path)]):
        fails_cleanly(runner.invoke(app, args, input="quit\n"),
                      f"error: {path}: hands must list 2 hands")
    fails_cleanly(runner.invoke(app, ["render", "-"], input=json.dumps(doc)),
                  "error: stdin: hands must list 2 hands")


@pytest.mark.parametrize(("host", "message"), [
    ("no such host", "--host 'no such host': "),
    ("192.0.2.1", "cannot listen on 192.0.2.1 port 8000: "),  # TEST-NET-1: no local address
])
def test_serve_refuses_an_address_it_cannot_listen_on(
        host: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown host or another machine's address passed the port check, the database
    was created and migrated, and only then did uvicorn fail with its own lines."""
    import uvicorn

    def never(*a: object, **kw: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn, "run", never)
    db = tmp_path / "s.sqlite3"
    fails_cleanly(runner.invoke(app, ["serve", "--host", host, "--db", f"sqlite:///{db}"]),
                  message)
    assert not db.exists()


def test_every_command_has_a_short_summary_in_the_command_list() -> None:
    """`bigtop --help` gave train's whole docstring (six lines, ``--teacher`` in reST
    quotes) as its one-line summary."""
    res = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    rows = [line for line in res.output.splitlines() if line.startswith("│ ")]
    summaries: dict[str, int] = {}
    name = ""
    for row in rows:
        words = row.strip("│ ").split()
        if row.startswith("│ ") and not row.startswith("│  "):
            name = words[0]
        summaries[name] = summaries.get(name, 0) + 1
    assert summaries and max(summaries.values()) <= 2, summaries
    assert "``" not in res.output


def _mutants(seed: int, count: int) -> list[tuple[str, str]]:
    """``count`` broken state files (name, text), seeded: a value of every kind swapped for
    one of the wrong type or size, a key or list item dropped, or the file cut short."""
    rng = random.Random(seed)
    weird: list[object] = [None, True, -1, 0, 10**30, 1.5, "", "x", [], {}, [1, 2], "é" * 3]
    bases = {g: json.loads(runner.invoke(app, ["state", g, "-p", str(p), "--seed", "1",
                                               "--actions", "15"]).output)
             for g, p in (("scout", 3), ("tricky-landing", 3), ("so-ein-zirkus", 2),
                          ("clown-15-go", 3))}

    def paths(v: object, pre: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        out = [pre] if pre else []
        items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) \
            else []
        for k, x in items:
            out += paths(x, (*pre, k))
        return out

    cases = []
    for i in range(count):
        game = rng.choice(sorted(bases))
        doc = copy.deepcopy(bases[game])
        path = rng.choice(paths(doc))
        parent: Any = doc
        for k in path[:-1]:
            parent = parent[k]
        roll = rng.random()
        if roll < 0.6:
            parent[path[-1]] = rng.choice(weird)
        elif roll < 0.8:
            del parent[path[-1]]
        text = json.dumps(doc)
        if roll >= 0.8:
            text = text[:rng.randrange(len(text))]
        cases.append((f"{i}-{game}", text))
    return cases


def test_broken_state_files_are_one_line_and_change_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded and bounded (40 files, about 2 CPU seconds): render, replay and play --load
    of a broken state either work or end in exit code 2 with one error line; never an
    internal error, and no file appears."""
    monkeypatch.chdir(tmp_path)
    for name, text in _mutants(seed=7, count=40):
        state = tmp_path / "state.json"
        for args in (["render", "state.json", "--player", "0"], ["replay", "state.json"],
                     ["play", "--load", "state.json", "--bots", "random"]):
            state.write_text(text)
            res = runner.invoke(app, args, input="quit\n")
            said = (name, args[0], res.output[-300:])
            assert res.exit_code in (0, 2), said
            assert res.exception is None or isinstance(res.exception, SystemExit), said
            assert "internal error" not in res.output and "Traceback" not in res.output, said
            if res.exit_code == 2:
                assert res.stderr.startswith("error:") and res.stderr.count("\n") == 1, said
            assert [p.name for p in tmp_path.iterdir()] == ["state.json"], said


def test_a_save_that_fails_mid_game_does_not_end_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A --save file that could be written at the start but not after a move (a full disk)
    ended the game at once with exit code 2; the player now hears it and plays on."""
    from bigtop.cli.files import write_whole

    calls = []

    def full_after_the_first(path: str, write: Any) -> None:
        calls.append(path)
        if len(calls) > 1:
            raise OSError(28, "No space left on device")
        write_whole(path, write)

    monkeypatch.setattr("bigtop.cli.play.write_whole", full_after_the_first)
    save = tmp_path / "g.json"
    res = runner.invoke(app, ["play", "scout", "-p", "2", "--seed", "3", "--bots", "random",
                              "--save", str(save)], input="1\n0\n0\nquit\n")
    assert res.exit_code == 0, (res.output, res.exception)
    out = " ".join(res.output.split())
    assert f"cannot write {save}: No space left on device; the game goes on unsaved" in out
    assert out.count("cannot write") == 1 and "not saved" in out, out
    assert out.count("P0> ") >= 3  # played on
    assert json.loads(save.read_text())["history"] == []  # the start, whole


def test_compare_takes_one_vs() -> None:
    """A second --vs was dropped: -o rounds=2 --vs -o rounds=3 made B rounds=3, silently."""
    res = runner.invoke(app, ["compare", "scout", "-o", "rounds=1", "--vs", "-o", "rounds=2",
                              "--vs", "-o", "rounds=3"])
    assert res.exit_code == 2 and "Invalid value for '--vs': give it once" in res.output, \
        res.output


def test_compare_does_not_call_two_deals_significant() -> None:
    """Two deals of rounds=1 against rounds=2 printed p = 0.000 and '*': a normal
    approximation from two deals. The paired t-test (1 degree of freedom) and, where both
    deals differ alike, the sign test (p = 0.5) find nothing to call."""
    args = ["compare", "scout", "-p", "2", "-n", "2", "-w", "1", "-o", "rounds=1", "--vs",
            "-o", "rounds=2", "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)["differences"]
    assert rows and all(r["deals"] == 2 and r["p_value"] >= 0.05 and not r["significant"]
                        for r in rows)
