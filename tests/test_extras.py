"""The light install: ``pip install bigtop`` plays every game without the optional stacks, and
whatever needs an extra that is missing says which one, in one line (bigtop.core.extras).

A missing package is simulated with ``sys.modules[name] = None`` (``import`` then raises
ModuleNotFoundError and ``find_spec`` finds nothing); tests/test_wheel.py checks the same in a
venv where they are really absent.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bigtop.cli import app
from bigtop.core.extras import EXTRAS, MissingExtraError, require_extra

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

#: The heavy stacks that neither importing bigtop nor playing, simulating or rendering text
#: may import (the server's, the lab's, Ray, the adapters').
OPTIONAL_STACKS = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "orjson",
                   "websockets", "platformdirs", "psycopg", "pyarrow", "matplotlib", "openskill",
                   "ray", "pyspiel", "pettingzoo", "gymnasium", "scipy")

#: A move that is always listed, for each game's terminal prompt (Tricky Landing numbers its
#: throws from 1).
FIRST_MOVE = {"tricky-landing": "1"}

#: Plays every game from the command line as a person would (random bots, the first listed
#: move each turn), then `simulate` without files, lets every bot level decide a move in
#: every game, then prints which of OPTIONAL_STACKS got imported. tests/test_wheel.py runs
#: it in a venv made from the built wheel.
CORE_SESSION = """
import json, sys
from typer.testing import CliRunner
from bigtop.cli import app
from bigtop.core.registry import game_names, get_game
first_move, stacks = json.loads(sys.argv[1])
runner = CliRunner()
played = {}
for name in game_names():
    players = str(get_game(name).min_players)
    res = runner.invoke(app, ["play", name, "-p", players, "--seed", "5", "--bots", "random"],
                        input=(first_move.get(name, "0") + "\\n") * 4000)
    assert res.exit_code == 0, (name, res.output[-2000:])
    played[name] = "Winner" in res.output or "Places" in res.output or "Scores" in res.output
    res = runner.invoke(app, ["simulate", name, "-p", players, "--games", "2", "--bots",
                              "random", "--json"])
    assert res.exit_code == 0, (name, res.output[-2000:])
    assert json.loads(res.stdout)["summary"]["games"] == 2, res.stdout[:500]
# Every bot level, and the trained one where its weights ship, decides a move in every game.
from bigtop.agents.levels import BOT_NAMES, LEARNED, make_bot
from bigtop.core.errors import BigtopError
from bigtop.core.registry import new_game
decided = {}
for name in game_names():
    for players in sorted({get_game(name).min_players, 4}):
        game = new_game(name, players)
        state = game.new_initial_state(5)
        while state.is_chance():
            state.apply_chance()
        for level in BOT_NAMES + LEARNED:
            try:
                bot = make_bot(level, game, state.current_player(), 1)
            except BigtopError:  # no trained network for this table
                assert level in LEARNED, (name, level)
                continue
            state.clone().apply(bot.act(state))
            decided[level] = True
assert set(decided) >= set(BOT_NAMES), decided
for command in (["games"], ["bots"], ["state", "scout", "-p", "3", "--actions", "5"]):
    res = runner.invoke(app, command)
    assert res.exit_code == 0, (command, res.output[-2000:])
print(json.dumps({"played": played, "imported": [m for m in stacks if m in sys.modules]}))
"""


def run_core_session(python: str, cwd: Path | None = None,
                     env: dict[str, str] | None = None) -> dict[str, object]:
    done = subprocess.run([python, "-c", CORE_SESSION, json.dumps([FIRST_MOVE, OPTIONAL_STACKS])],
                          capture_output=True, text=True, timeout=900, cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_playing_every_game_imports_no_optional_stack() -> None:
    result = run_core_session(sys.executable)
    assert result["imported"] == []
    assert all(result["played"].values()), result["played"]  # type: ignore[attr-defined]


# -- the extras ----------------------------------------------------------------------------


def _distribution_name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_extras_are_pyprojects() -> None:
    """EXTRAS names pyproject.toml's extras (``all`` is all of them), and each module it
    lists comes from a distribution of that extra."""
    declared = PYPROJECT["project"]["optional-dependencies"]
    assert set(declared) - {"all"} == set(EXTRAS)
    (everything,) = declared["all"]
    assert everything.startswith("bigtop[") and everything.endswith("]")
    assert set(everything[len("bigtop["):-1].split(",")) == set(EXTRAS)
    providers = importlib.metadata.packages_distributions()
    for extra, info in EXTRAS.items():
        dists = {_distribution_name(r) for r in declared[extra]}
        for module in info.modules:
            found = {d.lower().replace("_", "-") for d in providers.get(module, [])}
            assert found & dists, (extra, module, found, dists)


def test_the_core_needs_none_of_the_extras() -> None:
    core = {_distribution_name(r) for r in PYPROJECT["project"]["dependencies"]}
    assert core == {"typer", "rich", "numpy", "mypy-extensions", "typing-extensions"}
    for extra in PYPROJECT["project"]["optional-dependencies"].values():
        assert not core & {_distribution_name(r) for r in extra}


def test_require_extra_names_the_extra_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    require_extra("lab")  # all installed here
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(MissingExtraError) as e:
        require_extra("lab", what="bigtop simulate --out")
    assert str(e.value) == ("bigtop simulate --out needs the lab extra (pyarrow is not "
                            "installed): pip install 'bigtop[lab]'")
    assert isinstance(e.value, ValueError) and e.value.extra == "lab"
    with pytest.raises(MissingExtraError, match=r"^simulations on a Ray cluster \(--ray\)"):
        require_extra("ray", "no_such_module_for_bigtop")
    with pytest.raises(KeyError):
        require_extra("no-such-extra")


def _state_file(tmp_path: Path) -> str:
    runner = CliRunner()
    res = runner.invoke(app, ["state", "tricky-landing", "-p", "3", "--actions", "3"])
    assert res.exit_code == 0, res.output
    path = tmp_path / "state.json"
    path.write_text(res.stdout)
    return str(path)


MISSING = [
    # (missing module, command, the extra its message names)
    ("fastapi", ["serve", "--port", "1"], "server"),
    ("uvicorn", ["serve"], "server"),
    ("psycopg", ["serve", "--db", "postgresql://nobody@localhost/none"], "postgresql"),
    ("pyarrow", ["simulate", "scout", "--games", "2", "--out", "{tmp}/run"], "lab"),
    ("matplotlib", ["compare", "scout", "--games", "2", "-o", "rounds=1", "--vs", "-o",
                    "rounds=2", "--out", "{tmp}/run"], "lab"),
    ("openskill", ["tournament", "scout", "--bots", "random,easy", "--games", "3"], "lab"),
    ("matplotlib", ["render", "{state}", "--out", "{tmp}/picture.png"], "lab"),
    ("ray", ["simulate", "scout", "--games", "2", "--ray", "127.0.0.1:1"], "ray"),
]


@pytest.mark.parametrize(("module", "command", "extra"), MISSING,
                         ids=[f"{m}-{c[0]}" for m, c, _ in MISSING])
def test_a_command_without_its_extra_says_which_to_install(
        module: str, command: list[str], extra: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state_file(tmp_path) if "{state}" in command else ""
    args = [a.format(tmp=tmp_path, state=state) for a in command]
    monkeypatch.setitem(sys.modules, module, None)
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2, res.output
    message = res.stderr.strip()
    assert "\n" not in message, message
    assert message.endswith(f"({module} is not installed): pip install 'bigtop[{extra}]'"), \
        message
    assert not (tmp_path / "run").exists()  # refused before any game was played
    assert not (tmp_path / "picture.png").exists()


@pytest.mark.parametrize(("module", "extra", "missing"), [
    ("bigtop.interop.openspiel", "openspiel", "pyspiel"),
    ("bigtop.interop.pettingzoo", "pettingzoo", "gymnasium"),
    ("bigtop.server", "server", "sqlalchemy"),
])
def test_importing_an_adapter_without_its_extra_says_which_to_install(
        module: str, extra: str, missing: str) -> None:
    code = (f"import sys; sys.modules[{missing!r}] = None\n"
            f"from bigtop.core.extras import MissingExtraError\n"
            f"try:\n    import {module}\nexcept MissingExtraError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout == (f"{module} needs the {extra} extra ({missing} is not installed): "
                           f"pip install 'bigtop[{extra}]'\n")
