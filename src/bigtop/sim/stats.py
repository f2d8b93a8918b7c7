"""Small statistics with confidence intervals, no SciPy needed.

>>> lo, hi = wilson_interval(50, 100)
>>> round(lo, 3), round(hi, 3)
(0.404, 0.596)
>>> m = mean_interval([1.0, 2.0, 3.0, 4.0])
>>> m.mean, round(m.low, 3), round(m.high, 3)
(2.5, 1.235, 3.765)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional successes allowed for shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class MeanInterval:
    mean: float
    sd: float
    low: float
    high: float
    n: int


def mean_interval(values: Sequence[float], z: float = Z95) -> MeanInterval:
    """Mean, sample standard deviation and a normal-approximation 95% interval of the mean
    (t-quantiles would widen it slightly for n < 30)."""
    n = len(values)
    if n == 0:
        return MeanInterval(math.nan, math.nan, math.nan, math.nan, 0)
    m = sum(values) / n
    if n == 1:
        return MeanInterval(m, 0.0, m, m, 1)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return MeanInterval(m, sd, m - half, m + half, n)


@dataclass(frozen=True)
class SequentialTest:
    """A group-sequential test of a win share against a fair share: look every
    ``look_every`` trials, at most ``max_trials`` trials; at each look a Wilson interval with
    the Bonferroni-corrected level ``alpha / looks`` (two-sided) is checked, and the test
    stops as soon as it lies wholly above (``"stronger"``) or below (``"weaker"``) the fair
    share. The chance of any wrong decision over all looks is at most ``alpha``, as for one
    fixed-size test; a big difference is found after a few looks.

    >>> t = SequentialTest(fair=0.5, max_trials=1000, look_every=50)
    >>> t.looks, round(t.z, 2)
    (20, 3.02)
    >>> t.decide(40, 50), t.decide(26, 50), t.decide(26, 49)
    ('stronger', None, None)
    """

    fair: float
    max_trials: int = 1000
    look_every: int = 50
    alpha: float = 0.05

    @property
    def looks(self) -> int:
        return math.ceil(self.max_trials / self.look_every)

    @property
    def z(self) -> float:
        return NormalDist().inv_cdf(1.0 - self.alpha / (2 * self.looks))

    def interval(self, successes: float, trials: int) -> tuple[float, float]:
        """The corrected interval used at a look."""
        return wilson_interval(successes, trials, self.z)

    def decide(self, successes: float, trials: int) -> str | None:
        """``"stronger"``/``"weaker"`` if a look at ``trials`` decides, else None (also
        between looks)."""
        if trials == 0 or (trials % self.look_every and trials < self.max_trials):
            return None
        lo, hi = self.interval(successes, trials)
        if lo > self.fair:
            return "stronger"
        if hi < self.fair:
            return "weaker"
        return None
