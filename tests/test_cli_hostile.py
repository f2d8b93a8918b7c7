"""Every `bigtop` command with hostile arguments and files (issue #10): a one-line error on
stderr, exit code 2, never a Python traceback; user text is never read as rich markup."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from bigtop.cli import app
from bigtop.cli._app import _GuardedTyper, fail

runner = CliRunner()

# Every command the app has: each gets the generic probes; these ones (all there were when
# this test was written) also get the hostile cases below.
COMMANDS = sorted({c.name or (c.callback.__name__ if c.callback else "").replace("_", "-")
                   for c in app.registered_commands})
KNOWN = {"games", "play", "simulate", "state", "render", "replay", "compare", "tournament",
         "serve", "bots"}


def run(args: list[str], stdin: str | bytes | None = None) -> Result:
    return runner.invoke(app, args, input=stdin)


def assert_fails_cleanly(res: Result, message: str = "") -> None:
    text = res.output
    assert res.exit_code == 2, (res.exit_code, text, res.exception)
    assert isinstance(res.exception, SystemExit), repr(res.exception)  # no escaping exception
    assert "Traceback" not in text, text
    if text.startswith("error:"):
        assert text.count("\n") == 1, f"not one line: {text!r}"
    assert message in text, (message, text)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("hostile")
    out: dict[str, Path] = {}

    def put(name: str, data: str | bytes) -> None:
        p = d / name
        if isinstance(data, bytes):
            p.write_bytes(data)
        else:
            p.write_text(data)
        out[name] = p

    put("binary", bytes(range(256)) * 4)
    put("latin1", '{"game": "scout", "x": "caf\xe9"}'.encode("latin-1"))
    put("deep", "[" * 100_000 + "]" * 100_000)
    put("deep_obj", '{"a":' * 50_000 + "1" + "}" * 50_000)
    put("huge_int", '{"game": "scout", "players": ' + "9" * 5000 + "}")
    put("nan", '{"game": "scout", "players": 3, "seed": NaN}')
    put("list", "[1, 2, 3]")
    put("empty", "")
    put("markup[b]", "[/x]")
    s = run(["state", "scout", "-p", "3", "--seed", "5", "--actions", "10"])
    state = json.loads(s.stdout)
    bad = json.loads(s.stdout)
    bad["history"][0] = {"type": "show", "start": 50, "length": 2}
    put("out_of_range_action", json.dumps(bad))
    bad = json.loads(s.stdout)
    bad["history"][0] = {"type": "show", "start": 10**400, "length": 2}
    put("huge_action", json.dumps(bad))
    bad = json.loads(s.stdout)
    bad["history"].append({"type": "insert", "position": True, "flip": False})
    put("bool_action", json.dumps(bad))
    bad = json.loads(s.stdout)
    bad["position"]["hands"][0][0] = [99, 1]
    put("bad_card", json.dumps(bad))
    put("scout", json.dumps(state))
    z = json.loads(run(["state", "so-ein-zirkus", "-p", "2"]).stdout)
    z["options"]["board"] = "/etc/passwd"
    put("zirkus_board_path", json.dumps(z))
    t = json.loads(run(["state", "tricky-landing", "-p", "3", "--seed", "2",
                        "--actions", "2"]).stdout)
    t["position"]["table"][0]["x"] = 1e6
    put("tricky_far", json.dumps(t))
    return out


HOSTILE_ARGS: list[tuple[list[str], str]] = [
    (["play", "x[/x]"], "unknown game 'x[/x]'"),
    (["play", "scout", "-o", "[/x]=1"], "unknown rule option '[/x]'"),
    (["play", "scout", "-o", "rounds=[/x]"], "[/x]"),
    (["play", "scout", "--bots", "[bold]x"], "unknown bot"),
    (["play", "scout", "--seat", "9"], "seat must be"),
    (["play", "scout", "--seed", "-1"], "seed must be"),
    (["play", "so-ein-zirkus", "-p", "2", "-o", "board=/dev/zero"], "larger than"),
    (["play", "so-ein-zirkus", "-p", "2", "-o", "board=/bin/ls"], "board file"),
    (["play", "so-ein-zirkus", "-p", "2", "-o", "board=[x]"], "neither a shipped board"),
    (["play", "so-ein-zirkus", "-p", "2", "-o", "board=[/x]"], "cannot read board file"),
    (["play", "so-ein-zirkus", "-p", "2", "-o", "board=/no/[/x].json"], "cannot read"),
    (["play", "scout", "-p", "9" * 5000], ""),
    (["simulate", "x[/x]"], "unknown game"),
    (["simulate", "scout", "--agents", "[/x]"], "[/x]"),
    (["simulate", "scout", "--games", "-3"], ""),
    (["simulate", "scout", "-o", "no_equals"], "KEY=VALUE"),
    (["simulate", "so-ein-zirkus", "-p", "2", "-o", "board=/dev/zero"], "larger than"),
    (["state", "x[/x]"], "unknown game"),
    (["state", "scout", "--seed", "9" * 30], ""),
    (["state", "scout", "-p", "0"], "takes 2 to 5"),
    (["state", "so-ein-zirkus", "-p", "2", "-o", "board=/dev/zero"], "larger than"),
    (["render", "/no/such/[/x].json"], "cannot read /no/such/[/x].json"),
    (["render", "/"], "cannot read"),
    (["render", "/dev/zero"], "bytes; at most"),
    (["replay", "/no/[/x]"], "cannot read"),
    (["replay", "/dev/zero"], "bytes; at most"),
    (["compare", "x[/x]", "--vs"], "unknown game 'x[/x]'"),
    (["compare", "scout", "-o", "[/x]=1", "--vs"], "unknown rule option '[/x]'"),
    (["compare", "scout", "--vs", "-o", "rounds=[/x]"], "got '[/x]'"),
    (["compare", "so-ein-zirkus", "-p", "2", "-o", "board=/dev/zero", "--vs"], "larger than"),
    (["tournament", "x[/x]", "--bots", "random,easy"], "unknown game 'x[/x]'"),
    (["tournament", "scout", "--bots", "[/x],easy"], "unknown bot '[/x]'"),
    (["tournament", "so-ein-zirkus", "-p", "2", "--bots", "random,easy", "-o",
      "board=/dev/zero"], "larger than"),
    # Refused before the server listens.
    (["serve", "--db", "x[/x]"], "got 'x[/x]'"),
    (["serve", "--port", "99999"], "--port must be"),
    (["serve", "--workers", "0"], "at least 1"),
    (["serve", "--bot-processes", "-1"], "at least 1"),
    (["simulate", "scout", "--games", "0"], "positive whole number"),
    (["simulate", "scout", "--workers", "-1"], "--workers must be 1 or more"),
    (["simulate", "tricky-landing", "-o", "seat_distance_cm=nan"], "finite number"),
    (["compare", "scout", "--vs", "--games", "-1"], "positive whole number"),
    (["compare", "scout", "--vs", "--seed", "-1"], "seed must be"),
    (["compare", "tricky-landing", "--vs", "-o", "seat_distance_cm=inf"], "finite number"),
    (["tournament", "scout", "--bots", "random,easy", "--games", "-1"],
     "positive whole number"),
    (["tournament", "scout", "--bots", "random,easy", "--workers", "0"], "1 or more"),
    (["tournament", "scout", "--bots", "random,easy", "-p", "-1"], "takes 2 to 5"),
    (["play", "scout", "--seat", "-1"], "seat must be"),
    (["play", "tricky-landing", "-o", "seat_distance_cm=-inf"], "finite number"),
    (["state", "scout", "--actions", "-1"], "0 or more"),
    (["games", "--no-such-flag"], ""),
    (["no-such-command"], ""),
    # The fuzz brief: huge numbers, empty and long names, a NUL, directories.
    (["bots", "x[/x]"], "unknown game 'x[/x]'"),
    (["bots", ""], "unknown game ''"),
    (["bots", "é" * 5000], "unknown game"),
    (["bots", "scout", "extra"], ""),
    (["games", "\x00"], "unknown game"),
    (["games", ""], "unknown game ''"),
    (["state", "scout", "-p", "9" * 30], "takes 2 to 5 players"),
    (["state", "scout", "--seed", str(2**63)], "seed must be an integer from 0 to"),
    (["state", "scout", "-o", "rounds=" + "9" * 5000], "takes a whole number"),
    (["state", "scout", "-o", "=1"], "KEY=VALUE"),
    (["simulate", "scout", "--seed", str(2**64)], "seed must be"),
    (["play", "scout", "--seed", str(2**63)], "seed must be"),
    (["render", ""], "cannot read"),
    (["render", "x\x00y"], "cannot read"),
    (["replay", ""], "cannot read"),
    (["replay", "/tmp"], "cannot read /tmp"),
    (["serve", "--port", "9" * 30], "--port must be"),
]


def _never_listen(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    def never(*a: object, **kw: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn, "run", never)


SERVE_NUMBERS = [
    (["--bot-delay", v], "--bot-delay must be a finite number, 0 or more")
    for v in ("nan", "inf", "-inf", "-0.5")
] + [
    (["--moves-per-second", v], "--moves-per-second must be a finite number, above 0")
    for v in ("nan", "inf", "0", "-3")
]


@pytest.mark.parametrize(("args", "message"), SERVE_NUMBERS,
                         ids=[" ".join(a) for a, _ in SERVE_NUMBERS])
def test_serve_refuses_meaningless_numbers_before_listening(
        args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """NaN, infinities and negative numbers are refused (a server that would start instead
    fails this test at once rather than listening)."""
    _never_listen(monkeypatch)
    db = tmp_path / "s.sqlite3"
    assert_fails_cleanly(run(["serve", "--db", f"sqlite:///{db}", *args]), message)
    assert not db.exists()  # refused before the database was touched


def test_the_hostile_cases_cover_the_known_commands() -> None:
    covered = {args[0] for args, _ in HOSTILE_ARGS}
    assert set(COMMANDS) >= KNOWN and covered >= KNOWN, KNOWN - covered


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_a_hostile_flag_and_argument(command: str) -> None:
    """Probes that never start the command's work: an unknown flag with markup in it, and an
    extra argument after it."""
    assert_fails_cleanly(run([command, "--no-such-flag-[/x]"]))
    assert_fails_cleanly(run([command, "--no-such-flag-[/x]", "x[/x]"]))


@pytest.mark.parametrize(("args", "message"), HOSTILE_ARGS,
                         ids=[" ".join(a)[:50] for a, _ in HOSTILE_ARGS])
def test_hostile_arguments(args: list[str], message: str,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    # A `serve` case that regressed into starting the server would listen forever: fail at once.
    _never_listen(monkeypatch)
    assert_fails_cleanly(run(args), message)


FILE_CASES = [
    ("binary", "not UTF-8"), ("latin1", "not UTF-8"), ("deep", "nested deeper"),
    ("deep_obj", "nested deeper"), ("huge_int", "out of range"), ("nan", "finite"),
    ("list", "must be a JSON object"), ("empty", "not JSON"), ("markup[b]", "markup[b]"),
    ("huge_action", "out of range"), ("bool_action", "must be int, got True"),
    ("bad_card", "no SCOUT card shows 99"), ("zirkus_board_path", "neither a shipped board"),
]


@pytest.mark.parametrize("command", ["render", "replay"])
@pytest.mark.parametrize(("name", "message"), FILE_CASES, ids=[n for n, _ in FILE_CASES])
def test_hostile_files(files: dict[str, Path], command: str, name: str, message: str) -> None:
    assert_fails_cleanly(run([command, str(files[name])]), message)


def test_hostile_stdin(files: dict[str, Path]) -> None:
    for name in ("binary", "deep", "huge_int"):
        assert_fails_cleanly(run(["render", "-"], files[name].read_bytes()))


def test_replay_of_an_out_of_range_action(files: dict[str, Path]) -> None:
    """Regression: replay described the action before applying it (IndexError)."""
    assert_fails_cleanly(run(["replay", str(files["out_of_range_action"])]),
                         "action 1 does not replay")


def test_a_tricky_landing_card_far_off_the_table_renders(files: dict[str, Path],
                                                         tmp_path: Path) -> None:
    """Regression: a card at x = 1e6 made the PNG enormous (MemoryError)."""
    png = tmp_path / "far.png"
    res = run(["render", str(files["tricky_far"]), "--out", str(png)])
    assert res.exit_code == 0, res.output
    assert 1_000 < png.stat().st_size < 1_000_000
    assert_fails_cleanly(run(["render", str(files["tricky_far"]), "--player", "-1"]),
                         "no player -1")


def test_render_writes_to_a_path_with_markup(files: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "[b]x[/b].svg"  # a directory "[b]x[", a file "b].svg"
    out.parent.mkdir()
    res = run(["render", str(files["tricky_far"]), "--out", str(out)])
    assert res.exit_code == 0 and out.exists() and str(out) in res.output, res.output
    assert_fails_cleanly(run(["render", str(files["tricky_far"]), "--out",
                              str(tmp_path / "no" / "dir" / "[/x].png")]), "cannot write")


def test_play_input_is_never_markup_and_digits_are_ascii() -> None:
    """Regression: typing [/x] in `play` raised MarkupError; '²' (isdigit() is true) raised
    ValueError; SCOUT's typed-move help lost [and-show]/[flip] to the markup parser."""
    entries = "[/x]\n²\n٣\n{" + '"a":' * 5000 + "}\n" + "9" * 5000 + "\nhelp\nquit\n"
    res = run(["play", "scout", "-p", "2", "--seed", "3", "-o", "rounds=1"], entries)
    assert res.exit_code == 0, (res.output, res.exception)
    assert res.output.count("try again") >= 5
    assert "cannot read '[/x]'" in res.output and "[and-show]" in res.output


def test_play_echoes_bracketed_descriptions_literally() -> None:
    res = run(["play", "tricky-landing", "-p", "3", "--seed", "1", "--seat", "2"],
              "[/x]\nquit\n")
    assert res.exit_code == 0, (res.output, res.exception)
    assert "throws a card" in res.output  # the bots' throws do not name their cards


def test_the_guard_turns_any_escaping_exception_into_one_line() -> None:
    guarded = _GuardedTyper()

    @guarded.command()
    def boom(kind: str) -> None:
        if kind == "recursion":
            raise RecursionError("deep")
        if kind == "memory":
            raise MemoryError
        if kind == "fail":
            fail("a [/x] message\nover two lines")
        raise KeyError(kind)

    @guarded.command()
    def other() -> None:
        raise typer.Exit(0)

    for kind, message in [("recursion", "nested too deeply"), ("memory", "out of memory"),
                          ("x[/x]", "internal error (KeyError: 'x[/x]')"),
                          ("fail", "a [/x] message over two lines")]:
        res = runner.invoke(guarded, ["boom", kind])
        assert_fails_cleanly(res, message)


def test_the_installed_command_prints_no_traceback(files: dict[str, Path]) -> None:
    """The real entry point (not the test runner) on a hostile file and argument."""
    for args in (["render", str(files["deep"])], ["play", "x[/x]"]):
        proc = subprocess.run([sys.executable, "-c", "from bigtop.cli import main; main()",
                               *args], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stderr and proc.stderr.startswith("error:")
        assert proc.stderr.count("\n") == 1


def test_serve_says_when_its_port_is_taken(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Another program listens on the port: one line naming the port and what to do, and
    the database is never created."""
    _never_listen(monkeypatch)
    db = tmp_path / "s.sqlite3"
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert_fails_cleanly(run(["serve", "--port", str(port), "--db", f"sqlite:///{db}"]),
                             f"port {port} on 127.0.0.1 is in use")
    assert not db.exists()


@pytest.mark.parametrize(("args", "message"), [
    (["render", "{state}", "--player", "9" * 30], "no player 999"),
    (["render", "{state}", "--player", "-5"], "no player -5"),
    (["render", "{state}", "--out", "{dir}"], "--out must end in .svg or .png"),
    (["render", "{state}", "--out", "{dir}/"], "--out must end in .svg or .png"),
    (["render", "{state}", "--out", "{dir}/no/such/x.svg"], "cannot write"),
    (["replay", "{state}", "--at", "-1"], ""),
    (["simulate", "scout", "--games", "1", "--out", "{state}"], "exists and is not a folder"),
    (["tournament", "scout", "--bots", "random,easy", "--games", "1", "--out", "{state}"],
     "exists and is not a folder"),
    (["compare", "scout", "-o", "rounds=1", "--vs", "-o", "rounds=2", "--games", "1",
      "--out", "{state}"], "exists and is not a folder"),
    (["simulate", "so-ein-zirkus", "-p", "2", "--games", "1", "-o", "board={dir}"],
     "Is a directory"),
], ids=lambda v: " ".join(v)[:40] if isinstance(v, list) else "")
def test_hostile_paths_and_numbers_with_a_real_state(
        args: list[str], message: str, files: dict[str, Path], tmp_path: Path) -> None:
    """Directories instead of files, files instead of directories, seats far out of range:
    refused before any work, nothing written."""
    filled = [a.format(state=files["scout"], dir=tmp_path) for a in args]
    assert_fails_cleanly(run(filled), message)
    assert list(tmp_path.iterdir()) == []
