"""The sequential test behind the bot ladder: it stops early on big differences and keeps
its error rate at equal strength."""

from __future__ import annotations

import random

from bigtop.sim.stats import SequentialTest


def _run(test: SequentialTest, p: float, rng: random.Random) -> tuple[str | None, int]:
    wins = 0.0
    for n in range(1, test.max_trials + 1):
        wins += rng.random() < p
        decision = test.decide(wins, n)
        if decision:
            return decision, n
    return None, test.max_trials


def test_equal_strength_rarely_decides() -> None:
    """At the fair share a decision is an error; over 300 runs the rate stays near or below
    alpha = 5% (Bonferroni makes it conservative)."""
    test = SequentialTest(fair=0.25, max_trials=400, look_every=20)
    rng = random.Random(3)
    errors = sum(_run(test, 0.25, rng)[0] is not None for _ in range(300))
    assert errors <= 0.05 * 300 + 6


def test_a_big_difference_stops_at_the_first_looks() -> None:
    test = SequentialTest(fair=0.25, max_trials=1000, look_every=20)
    rng = random.Random(4)
    runs = [_run(test, 0.7, rng) for _ in range(50)]
    assert all(d == "stronger" for d, _ in runs)
    assert max(n for _, n in runs) <= 60


def test_a_weaker_player_is_found_weaker() -> None:
    test = SequentialTest(fair=0.5, max_trials=1000, look_every=20)
    assert _run(test, 0.2, random.Random(5))[0] == "weaker"


def test_decides_only_at_looks_and_at_the_end() -> None:
    test = SequentialTest(fair=0.5, max_trials=50, look_every=20)
    assert test.looks == 3
    assert test.decide(19, 19) is None
    assert test.decide(20, 20) == "stronger"
    assert test.decide(50, 50) == "stronger"
    assert test.decide(0, 0) is None
