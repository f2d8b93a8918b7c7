"""The search levels' throw odds: the cached, prefiltered touch test is exact."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bigtop.core.registry import new_game
from bigtop.games.tricky_landing.bot import (
    Landings,
    _touching,
    intention_odds,
    landings,
    table_odds,
)
from bigtop.games.tricky_landing.physics import FloatArray, ThrowModel, _gap, _Vector
from bigtop.games.tricky_landing.rules import TrickyLandingGame


def _full_odds(model: ThrowModel, land: Landings, poses: tuple[tuple[float, float, float], ...]
               ) -> tuple[FloatArray, FloatArray]:
    """intention_odds without the bounding-circle prefilter or caches: every landing gets
    the exact touch test."""
    hw, hh = model.card_half
    joined = land.on_target.astype(bool)
    for (x, y, r) in poses:
        gap = _gap(land.x, land.y, land.rotation, hw, hh, x, y, r, hw, hh, _Vector)
        joined |= np.asarray(gap) <= model.touch_tolerance_cm
    j = joined.astype(np.float64)
    return (j * land.face_up).mean(axis=1), j.mean(axis=1)


def test_prefiltered_odds_equal_the_exact_test_everywhere() -> None:
    """Cards near the target, at the edge of reach and far off: the odds with the
    bounding-circle prefilter (and from the cache, asked twice) are exactly the odds from
    the exact test of every landing."""
    g = new_game("tricky-landing", 4)
    assert isinstance(g, TrickyLandingGame)
    rng = random.Random(3)
    near = far = 0
    for seat in range(4):
        land = landings(g.models[seat], g.seats[seat])
        for _ in range(12):
            poses = tuple((rng.uniform(-25, 25), rng.uniform(-25, 25), rng.uniform(0, 360))
                          for _ in range(rng.randrange(1, 4)))
            want = _full_odds(g.model, land, poses)
            for got in (intention_odds(g.model, land, list(poses)),
                        table_odds(g.model, land, poses), table_odds(g.model, land, poses)):
                assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
            for pose in poses:
                hits = _touching(g.model, land, pose)
                near += bool(hits.any())
                far += not np.all(hits[np.hypot(land.x - pose[0], land.y - pose[1]) < 11.0])
    assert near > 10 and far > 10  # both the exact test and the prefilter were exercised


def test_cached_touch_masks_are_read_only() -> None:
    """The masks are shared by every later caller: writing to one must fail."""
    g = new_game("tricky-landing", 3)
    assert isinstance(g, TrickyLandingGame)
    hits = _touching(g.model, landings(g.models[0], g.seats[0]), (0.0, 4.0, 90.0))
    assert hits.any()
    with pytest.raises(ValueError):
        hits[0, 0] = not hits[0, 0]
