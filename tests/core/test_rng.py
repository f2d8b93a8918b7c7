"""derive_normals: deterministic, standard normal, independent across its four draws; and
shuffle, which must draw random.shuffle's permutations."""

from __future__ import annotations

import math
import random
import statistics

from bigtop.core.rng import derive_normals, shuffle


def test_derive_normals_is_deterministic_and_keyed() -> None:
    assert derive_normals(5, "throw", 1) == derive_normals(5, "throw", 1)
    assert derive_normals(5, "throw", 1) != derive_normals(5, "throw", 2)
    assert derive_normals(5, "throw", 1) != derive_normals(6, "throw", 1)


def test_derive_normals_are_standard_normal_and_uncorrelated() -> None:
    n = 20_000
    draws = [derive_normals(11, "t", i) for i in range(n)]
    for k in range(4):
        col = [d[k] for d in draws]
        # Mean within ~4 standard errors, variance within ~4 of its standard errors.
        assert abs(statistics.fmean(col)) < 4 / math.sqrt(n)
        assert abs(statistics.pvariance(col) - 1.0) < 4 * math.sqrt(2 / n)
        tail = sum(1 for z in col if abs(z) > 1.959964) / n
        assert abs(tail - 0.05) < 4 * math.sqrt(0.05 * 0.95 / n)
    for a in range(4):
        for b in range(a + 1, 4):
            r = statistics.correlation([d[a] for d in draws], [d[b] for d in draws])
            assert abs(r) < 4 / math.sqrt(n)


def test_shuffle_is_random_shuffle() -> None:
    """bigtop's compiled shuffle draws exactly the permutation of ``random.Random.shuffle``
    (the seeded deals depend on it)."""
    for seed in range(60):
        for n in (0, 1, 2, 3, 7, 40, 44, 65, 130):
            ours, theirs = list(range(n)), list(range(n))
            shuffle(random.Random(f"{seed}/deal"), ours)
            random.Random(f"{seed}/deal").shuffle(theirs)
            assert ours == theirs, (seed, n)
