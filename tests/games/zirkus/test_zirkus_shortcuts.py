"""So ein Zirkus's shortcuts must equal the plain computations: the path cache leaves out the
clowns a walk cannot reach (``ZirkusGame.reach``), and the die is drawn without listing the
outcomes (``ZirkusState.sample_chance``)."""

from __future__ import annotations

import itertools
import random

import pytest

from bigtop.agents.base import random_step
from bigtop.core.game import State
from bigtop.core.registry import new_game
from bigtop.games.zirkus import Move, ZirkusGame

VARIANTS = [
    {},
    {"shoving": "shove"},
    {"shoving": "clumsy"},
    {"lazy_clown": True},
    {"short_move": "as-far-as-possible"},
    {"board": "4x10", "shoving": "clumsy"},
]


@pytest.mark.parametrize("options", VARIANTS,
                         ids=lambda o: ",".join(map(str, o.values())) or "default")
def test_masked_paths_equal_a_search_that_sees_every_clown(options: dict[str, object]) -> None:
    """For every field, ball count and (a sample of the) pairs of other clowns, the cached
    paths are those of a search that sees every clown, under each shoving rule and board."""
    g = new_game("so-ein-zirkus", 3, options)
    assert isinstance(g, ZirkusGame)
    size = g.size
    masked_away = 0
    for field in range(size):
        # The other two clowns anywhere (a sample of the pairs on the larger board).
        pairs = [p for p in itertools.combinations(range(size), 2) if field not in p]
        for a, b in pairs[:: max(1, len(pairs) // 120)]:
            occ = 1 << a | 1 << b
            for balls in (1, 2, 3):
                full = g._find_paths(field, occ, balls)
                assert list(g.paths(field, (a, b), balls)) == full, (field, a, b, balls)
                moves = g.move_list(0, field, occ, balls)
                assert all(isinstance(m, Move) for m in moves)
                assert [m.steps for m in moves if isinstance(m, Move)] == full
                masked_away += occ & ~g.reach[balls][field] != 0
    assert masked_away  # the masks did leave clowns out


def test_the_die_is_the_cores_draw() -> None:
    """Every roll of seeded games is the outcome the core's ``sample_chance`` would pick."""
    rolls = 0
    for seed in range(30):
        state = new_game("so-ein-zirkus", 2 + seed % 3).new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance():
                assert state.sample_chance() is State.sample_chance(state)
                rolls += 1
            random_step(state, rng)
    assert rolls > 500
