"""Position problems, not asserts: every game's consistency check (``State.problems()``,
python-chess's ``Board.status()`` style) lists what is wrong, ``audit()`` and the loaders
raise an :class:`InvalidStateError` naming it, and all of it holds under ``python -O``.

The module checks with :func:`check`, never a bare ``assert``, so that it can fail under
``python -O`` too: :func:`test_the_position_tests_pass_under_python_O` runs it (and the
games' own position tests that do the same) in a child ``python -O -m pytest``.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bigtop.agents.base import random_step
from bigtop.core.errors import InvalidStateError
from bigtop.core.game import State
from bigtop.core.registry import game_names, load_state, new_state

ROOT = Path(__file__).resolve().parents[2]

# The games' own position tests also run under -O: their refusals are pytest.raises
# checks, which -O leaves in place (their plain asserts vanish there; this module's do not).
OPTIMISED_TOO = ("tests/games/clown15go/test_positions.py",
                 "tests/games/tricky_landing/test_rules.py",
                 "tests/games/zirkus/test_zirkus_rules.py")


def check(condition: object, message: str) -> None:
    """``assert condition, message`` that survives ``python -O``."""
    if not condition:
        pytest.fail(message)


def played(name: str, players: int, seed: int, *, until: Callable[[State], bool]) -> State:
    """A seeded random game of ``name`` played until ``until(state)`` (or its end)."""
    state = new_state(name, players, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal() and not until(state):
        random_step(state, rng)
    return state


def refusal(data: dict[str, Any]) -> str:
    """The message of the InvalidStateError loading ``data`` raises."""
    with pytest.raises(InvalidStateError) as caught:
        load_state(data)
    return str(caught.value)


def test_optimisation_flag_is_what_the_run_asked_for() -> None:
    # The child run below sets BIGTOP_EXPECT_O=1: the tests there really ran without asserts.
    if os.environ.get("BIGTOP_EXPECT_O") == "1":
        check(sys.flags.optimize >= 1, "the child run was meant to be python -O")


@pytest.mark.parametrize("name", game_names())
def test_played_positions_have_no_problems(name: str) -> None:
    for seed in (1, 2):
        state = new_state(name, 3, seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.is_terminal():
                break
            check(state.problems() == [], f"{name}: {state.problems()}")
            random_step(state, rng)
        check(state.problems() == [], f"{name}: {state.problems()}")


def test_scout_finished_round_with_a_captured_card_too_many_is_refused() -> None:
    """The issue's example: under -O this loaded, without -O its refusal was empty."""
    state = played("scout", 3, 5, until=lambda s: s.to_json()["position"]["round"] >= 1)
    data = state.to_json()
    data["position"]["round_log"][0]["captured"][1] += 1
    message = refusal(data)
    check(re.search(r"round 1: P1 scored -?\d+, but .* make -?\d+", message),
          f"the refusal names the round and the seat: {message!r}")
    check(message.startswith("inconsistent SCOUT position: "), message)
    # The same state built in memory: problems() lists it, audit() raises it.
    broken = load_state(state.to_json())
    broken.round_log[0]["captured"][1] += 1  # type: ignore[attr-defined]
    trouble = broken.problems()
    check(len(trouble) == 1 and trouble[0].startswith("round 1: P1 scored"), str(trouble))
    with pytest.raises(InvalidStateError, match="round 1: P1 scored"):
        broken.audit()


def _bump_first_total(data: dict[str, Any]) -> None:
    data["position"]["totals"][0] += 1


# One tampered field per game; each must be refused with a message that names it.
TAMPERED: dict[str, tuple[Callable[[State], bool], Callable[[dict[str, Any]], None], str]] = {
    "scout": (lambda s: s.to_json()["position"]["round"] >= 1, _bump_first_total,
              r"totals \[.*\] are not the sums of the round scores"),
    "clown-15-go": (lambda s: len(s.history) > 30,
                    lambda d: d["position"]["open"][0].append(d["position"]["open"][1][0])
                    if d["position"]["open"][1] else d["position"]["closed"][0].append(
                        d["position"]["closed"][1][0]),
                    r"appears twice"),
    "so-ein-zirkus": (lambda s: len(s.history) > 30, _bump_first_total,
                      r"totals must be the sums of the games' scores"),
    "tricky-landing": (lambda s: s.to_json()["position"]["round"] >= 1, _bump_first_total,
                       r"totals \[.*\] are not the sums of the round scores"),
}


@pytest.mark.parametrize("name", game_names())
def test_an_inconsistent_position_is_refused_with_its_problem_named(name: str) -> None:
    until, tamper, pattern = TAMPERED[name]
    state = played(name, 3, 7, until=until)
    data = state.to_json()
    tamper(data)
    message = refusal(data)
    check(message.strip(), f"{name}: an empty refusal")
    check(re.search(pattern, message), f"{name}: {message!r} does not name the problem")


def test_problems_are_listed_together() -> None:
    """Two broken invariants, two problems, one message naming both."""
    state = played("scout", 3, 5, until=lambda s: s.to_json()["position"]["round"] >= 1)
    data = state.to_json()
    data["position"]["round_log"][0]["captured"][0] += 1
    data["position"]["round_log"][0]["captured"][2] += 1
    message = refusal(data)
    check("round 1: P0 scored" in message and "round 1: P2 scored" in message, message)


def test_the_position_tests_pass_under_python_O() -> None:
    """``python -O`` strips ``assert``: the consistency checks must not depend on it. Runs
    this module and the games' position tests in a child ``python -O -m pytest`` (bounded:
    a few hundred quick tests, five minutes at most)."""
    if sys.flags.optimize or os.environ.get("BIGTOP_EXPECT_O"):
        pytest.skip("already the -O run")
    env = dict(os.environ, BIGTOP_EXPECT_O="1", PYTHONDONTWRITEBYTECODE="1")
    targets = [str(Path(__file__).relative_to(ROOT)), *OPTIMISED_TOO]
    done = subprocess.run(
        [sys.executable, "-O", "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider",
         *targets], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        check=False)
    tail = (done.stdout + done.stderr)[-3000:]
    check(done.returncode == 0, f"python -O run failed:\n{tail}")
    passed = re.search(r"(\d+) passed", done.stdout)
    check(passed and int(passed.group(1)) >= 10, f"too few tests ran under -O:\n{tail}")
