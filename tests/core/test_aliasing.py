"""What a state hands out is the caller's to change: mutating the JSON of ``to_json``, an
``observation``, ``result`` and the other lists and objects a state or game returns never
changes that state, nor another state of the same game (the fuzz brief, part 3: a returned
object shared with the engine's own data, e.g. a cached board, would let a caller, a test or
a server's view filter rewrite the game)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from bigtop.core.game import State
from bigtop.core.registry import game_names, get_game, load_state, new_game

GAMES = game_names()


def scramble(value: Any) -> None:
    """Change every container in ``value`` in place (every leaf replaced, a key or an item
    added)."""
    if isinstance(value, dict):
        for key in list(value):
            if isinstance(value[key], dict | list):
                scramble(value[key])
            else:
                value[key] = "scrambled"
        value["scrambled"] = 1
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, dict | list):
                scramble(item)
            else:
                value[i] = "scrambled"
        value.append("scrambled")


def play_on(s: State, rng: random.Random) -> None:
    """One step of random play: the chance outcome, or a random legal action."""
    if s.is_chance():
        s.apply_chance()
    else:
        s.apply(rng.choice(s.legal_actions()))


def handed_out(s: State) -> list[tuple[str, Callable[[], Any]]]:
    n = s.game.num_players
    out: list[tuple[str, Callable[[], Any]]] = [
        ("to_json", s.to_json), ("to_json(with_history=False)",
                                 lambda: s.to_json(with_history=False)),
        ("game.to_json", s.game.to_json), ("options.to_json", s.game.options.to_json),
        ("scores", s.scores), ("ranking", s.ranking), ("winners", s.winners),
        ("legal_action_numbers", s.legal_action_numbers),
        *[(f"observation({p})", lambda p=p: s.observation(p)) for p in [None, *range(n)]],
    ]
    if s.is_terminal():
        out.append(("result", s.result))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_mutating_what_a_state_returns_changes_no_state(name: str) -> None:
    cls = get_game(name)
    rng = random.Random(7)
    for n in sorted({cls.min_players, cls.max_players}):
        game = new_game(name, n, cls.conformance_options(n)[0])
        s = game.new_initial_state(3)
        witness = game.new_initial_state(4)
        kept_witness = json.dumps(witness.to_json())
        for step in range(200):
            if step % 23 == 0 or s.is_terminal():
                kept = json.dumps(s.to_json())
                for what, call in handed_out(s):
                    scramble(call())
                    assert json.dumps(s.to_json()) == kept, f"{name}: changing {what}"
                assert json.dumps(witness.to_json()) == kept_witness, name
            if s.is_terminal():
                break
            play_on(s, rng)


@pytest.mark.parametrize("name", GAMES)
def test_a_loaded_state_keeps_nothing_of_its_json_and_a_clone_nothing_of_its_original(
        name: str) -> None:
    """Changing the JSON a state was loaded from, or playing on the state a clone was made
    of, changes neither the loaded state nor the clone."""
    cls = get_game(name)
    rng = random.Random(11)
    n = cls.max_players
    s = new_game(name, n, cls.conformance_options(n)[-1]).new_initial_state(5)
    for step in range(200):
        if step % 17 == 0:
            data = s.to_json()
            loaded = load_state(data)
            kept = json.dumps(loaded.to_json())
            scramble(data)
            assert json.dumps(loaded.to_json()) == kept, name
            clone = s.clone()
            for _ in range(3):
                if not s.is_terminal():
                    play_on(s, rng)
            assert json.dumps(clone.to_json()) == kept, name
        if s.is_terminal():
            break
        play_on(s, rng)
