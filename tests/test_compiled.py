"""The compiled build (mypyc, where a C compiler exists) and the pure-Python package play
byte-identical games: every game, every player count, seeded random games, a few IS-MCTS
decisions and each game's own bots (a game of easy bots, a few medium decisions), compared
through ``to_json()`` between this process (compiled modules if built) and a subprocess
with ``BIGTOP_PURE=1`` (extension modules ignored).

Run as a script it prints the games' fingerprints (that is what the subprocess does).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import random
import subprocess
import sys
import warnings

from bigtop import _compiled
from bigtop.agents.base import play_random, random_step
from bigtop.agents.ismcts import ISMCTSAgent
from bigtop.agents.levels import make_bot
from bigtop.core.registry import game_names, get_game, new_game
from bigtop.interop.common import compact_json

SEEDS = (3, 1234567)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fingerprints() -> dict[str, str]:
    """A hash of the final JSON of each seeded game, by case name."""
    out: dict[str, str] = {}
    for name in game_names():
        cls = get_game(name)
        for players in range(cls.min_players, cls.max_players + 1):
            game = new_game(name, players)
            for seed in SEEDS:
                state = game.new_initial_state(seed)
                play_random(state, random.Random(seed))
                out[f"{name}/{players}/random/{seed}"] = _digest(compact_json(state.to_json()))
        # Search: resample_hidden, clone and rollouts, from the first decisions on.
        state = new_game(name, max(3, cls.min_players)).new_initial_state(SEEDS[1])
        agent = ISMCTSAgent(iterations=6, seed=2, max_rollout=400)
        for _ in range(4):
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_chance()
                continue
            state.apply(agent.act(state))
        out[f"{name}/ismcts"] = _digest(compact_json(state.to_json()))
        # The game's own bots (their modules are compiled too): a seeded game of easy bots,
        # then the first decisions of medium bots (the planner, easy bots in its rollouts).
        for level, decisions in (("easy", 400), ("medium", 3)):
            game = new_game(name, cls.min_players)
            state = game.new_initial_state(SEEDS[0])
            bots = [make_bot(level, game, seat, 11 + seat) for seat in range(game.num_players)]
            for _ in range(decisions):
                if state.is_terminal():
                    break
                if state.is_chance():
                    state.apply_chance()
                    continue
                state.apply(bots[state.current_player()].act(state))
            out[f"{name}/{level}"] = _digest(compact_json(state.to_json()))
    return out


def _fields(state: object) -> dict[str, object]:
    """A state's attributes but its caches (names with a leading underscore): a compiled
    class has no ``__dict__``, but ``__getstate__`` lists them in both modes."""
    fields = state.__getstate__()
    assert isinstance(fields, dict)
    return {k: v for k, v in fields.items() if not k.startswith("_")}


def test_clone_copies_every_attribute() -> None:
    """clone() is written field by field (no ``__dict__`` to copy when compiled): a field
    added to a state and forgotten in its clone fails here."""
    for name in game_names():
        cls = get_game(name)
        state = new_game(name, max(3, cls.min_players)).new_initial_state(7)
        rng = random.Random(7)
        step = 0
        while not state.is_terminal():
            if step % 5 == 0:
                copy = state.clone()
                assert _fields(copy) == _fields(state), name
                assert sorted(_fields(copy)) == sorted(_fields(state))
            random_step(state, rng)
            step += 1


def _pure_run() -> dict[str, object]:
    env = dict(os.environ, BIGTOP_PURE="1")
    done = subprocess.run([sys.executable, __file__], env=env, capture_output=True, text=True,
                          check=True, timeout=600)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_compiled_and_the_pure_package_play_the_same_games() -> None:
    pure = _pure_run()
    assert pure["compiled_modules"] == [], "BIGTOP_PURE=1 still loaded extension modules"
    assert pure["mode"] == "pure"
    here = fingerprints()
    assert pure["games"] == here
    assert len(here) > 30


def test_a_build_is_current_and_loaded() -> None:
    """Where setup.py compiled modules, this process runs them (a stale build would run pure
    Python, with a warning: rebuild with `make .venv/.bigtop-built`)."""
    try:
        record = json.loads(_compiled.BUILD_INFO.read_text())
    except FileNotFoundError:
        assert _compiled.mode() == "pure"  # nothing was compiled: pure Python throughout
        return
    modules = sorted(record["modules"])
    for module in modules:
        importlib.import_module(module)
    if os.environ.get(_compiled.PURE_ENV, "") not in ("", "0"):  # the suite run pure
        assert _compiled.compiled_modules() == []
        return
    assert _compiled.pure_reason is None, _compiled.pure_reason
    assert set(modules) <= set(_compiled.compiled_modules())


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        games = fingerprints()
    print(json.dumps({"mode": _compiled.mode(), "compiled_modules": _compiled.compiled_modules(),
                      "games": games}))
