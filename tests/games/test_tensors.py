"""Every game's observation tensor, bit for bit, against recorded values: shipped network
weights and the training code read the layout, so a change to any entry, piece name, order,
shape or bound must be deliberate.

``tensors.json.gz`` holds, per case (game, players, options), the layout's pieces and bound
and observations taken along seeded random games (every player's, about ten positions a
game), each with the sha256 of its float32 tensor (``layout.tensor``) and, for games with a
``Game.observation_tensor`` list, of that list as float64. The observations are stored rather
than replayed, so that a rule change that alters random play does not touch this test; a
tensor depends on the observation (and the game's options) only.

Regenerate only for a deliberate layout change, and say so in the commit:
``PYTHONPATH=src python -m tests.games.test_tensors`` (it checks, while recording, that each
stored observation gives the same tensor as its live state).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from bigtop.agents.base import random_step
from bigtop.core.game import Game, State
from bigtop.core.registry import new_game
from bigtop.interop.tensors import layout_for

GOLDEN = Path(__file__).with_name("tensors.json.gz")

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("scout", 2, {}),
    ("scout", 3, {"rounds": 1}),
    ("scout", 5, {"rounds": 1}),
    ("clown-15-go", 2, {}),
    ("clown-15-go", 3, {"sets": 2, "points": True}),
    ("clown-15-go", 5, {"sets": 5, "recycle": "shuffle", "open_pile_first": True,
                        "borrowing": True, "borrowing_when": "placing", "placing": "voluntary",
                        "last_card": "stays", "one_on_pile": True}),
    ("clown-15-go", 4, {"sets": 4, "own_pile": True, "points": True}),
    ("clown-15-go", 8, {"points": True}),
    ("so-ein-zirkus", 2, {}),
    ("so-ein-zirkus", 3, {"board": "4x10", "shoving": "clumsy", "tournament": "games"}),
    ("so-ein-zirkus", 4, {"secret_clown": True, "tournament": "score",
                          "tournament_score": 10}),
    ("tricky-landing", 3, {"rounds": 1}),
    ("tricky-landing", 4, {"rounds": 2}),
    ("tricky-landing", 6, {"rounds": 1}),
]
SEEDS = (1, 2)
POSITIONS = 10  # per game, spread evenly, the last one included


class Recorded:
    """A stand-in state that only answers ``observation``: what a layout reads."""

    def __init__(self, game: Game, observations: list[Any]) -> None:
        self.game = game
        self._observations = observations

    def observation(self, player: int | None) -> Any:
        assert player is not None
        return self._observations[player]


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = case
    return f"{name}-{players}p" + "".join(f"-{k}={v}" for k, v in sorted(options.items()))


def _digest(values: Any, dtype: type[np.floating[Any]]) -> str:
    return hashlib.sha256(np.asarray(values, dtype).tobytes()).hexdigest()[:24]


def _list_tensor(game: Game, state: Any, player: int) -> list[float] | None:
    """``Game.observation_tensor``'s list, where the game has one (SCOUT has not): its
    layout's ``floats`` (the compiled method takes a real state only, not a
    :class:`Recorded`; test_the_games_list_is_its_layouts_floats checks they agree)."""
    if getattr(game, "observation_tensor", None) is None:
        return None
    return layout_for(game).floats(cast(State, state), player)


def _digests(game: Game, state: Any) -> dict[str, list[str]]:
    """Per player: the digest of the float32 tensor, and of the float64 list if any."""
    layout = layout_for(game)
    players = range(game.num_players)
    out = {"tensor": [_digest(layout.tensor(cast(State, state), p), np.float32)
                      for p in players]}
    lists = [_list_tensor(game, state, p) for p in players]
    if lists[0] is not None:
        out["list"] = [_digest(values, np.float64) for values in lists]
    return out


def _layout_record(game: Game) -> dict[str, Any]:
    layout = layout_for(game)
    return {"layout": type(layout).__name__, "size": layout.size, "bound": layout.bound,
            "pieces": [[name, list(shape)] for name, shape in layout.pieces()]}


def record() -> dict[str, Any]:
    """The golden record, from the code as it is (see the module doc)."""
    cases = []
    for case in CASES:
        name, players, options = case
        game = new_game(name, players, options)
        positions = []
        for seed in SEEDS:
            rng = random.Random(seed)
            states = [game.new_initial_state(seed)]
            while not states[-1].is_terminal():
                state = states[-1].clone()
                random_step(state, rng)
                states.append(state)
            picks = sorted({round(i * (len(states) - 1) / (POSITIONS - 1))
                            for i in range(POSITIONS)})
            for at in picks:
                state = states[at]
                observations = [json.loads(json.dumps(state.observation(p)))
                                for p in range(players)]
                got = _digests(game, Recorded(game, observations))
                if got != _digests(game, state):
                    raise AssertionError(f"{case_id(case)}: a stored observation gives "
                                         "another tensor than its state")
                positions.append({"observations": observations, **got})
        cases.append({"id": case_id(case), "game": name, "players": players,
                      "options": options, **_layout_record(game), "positions": positions})
    return {"cases": cases}


def _golden() -> dict[str, Any]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        return cast(dict[str, Any], json.load(f))


def test_the_golden_record_covers_every_case() -> None:
    assert [c["id"] for c in _golden()["cases"]] == [case_id(c) for c in CASES]


@pytest.mark.parametrize("index", range(len(CASES)), ids=[case_id(c) for c in CASES])
def test_tensors_are_bit_for_bit_as_recorded(index: int) -> None:
    want = _golden()["cases"][index]
    game = new_game(want["game"], want["players"], want["options"])
    assert _layout_record(game) == {k: want[k] for k in ("layout", "size", "bound", "pieces")}
    assert len(want["positions"]) >= POSITIONS
    for i, position in enumerate(want["positions"]):
        got = _digests(game, Recorded(game, position["observations"]))
        assert got == {k: v for k, v in position.items() if k != "observations"}, \
            f"position {i}"

# SCOUT has no list form (its tensor is the layout's array only); the others have both.
LIST_CASES = [case for case in CASES if case[0] != "scout"]


def test_only_scout_lacks_the_list_form() -> None:
    for name, players, options in CASES:
        game = new_game(name, players, options)
        has = getattr(game, "observation_tensor", None) is not None
        assert has == (name != "scout"), name


@pytest.mark.parametrize("case", LIST_CASES, ids=case_id)
def test_the_games_list_is_its_layouts_floats(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    game = new_game(name, players, options)
    method = cast(Any, game).observation_tensor
    state = game.new_initial_state(5)
    rng = random.Random(5)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.current_player() >= 0:
            for p in range(players):
                assert method(state, p) == layout_for(game).floats(state, p)
        random_step(state, rng)


if __name__ == "__main__":
    data = json.dumps(record(), sort_keys=True, separators=(",", ":"))
    with gzip.GzipFile(GOLDEN, "wb", mtime=0) as out:
        out.write(data.encode())
    print(f"{GOLDEN}: {GOLDEN.stat().st_size} bytes")
