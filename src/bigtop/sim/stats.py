"""Small statistics with confidence intervals, no SciPy needed.

>>> lo, hi = wilson_interval(50, 100)
>>> round(lo, 3), round(hi, 3)
(0.404, 0.596)
>>> m = mean_interval([1.0, 2.0, 3.0, 4.0])
>>> m.mean, round(m.low, 3), round(m.high, 3)  # Student's t, 3 degrees of freedom
(2.5, 0.446, 4.554)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
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


def mean_interval(values: Sequence[float], level: float = 0.95) -> MeanInterval:
    """Mean, sample standard deviation and Student's t interval of the mean (``n - 1``
    degrees of freedom: the spread is estimated from the same values, which the normal
    interval ignores; at 2 values its "95%" covered about 70%)."""
    n = len(values)
    if n == 0:
        return MeanInterval(math.nan, math.nan, math.nan, math.nan, 0)
    m = sum(values) / n
    if n == 1:
        return MeanInterval(m, 0.0, m, m, 1)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return MeanInterval(m, sd, m - half, m + half, n)


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified Lentz),
    which converges fast for ``x < (a + 1) / (a + b + 2)``."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function ``I_x(a, b)``.

    >>> round(incomplete_beta(2.0, 3.0, 0.4), 6)  # 1 - (0.6^4 + 4 * 0.4 * 0.6^3)
    0.5248
    """
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: int) -> float:
    """``P(|T| >= |t|)`` for Student's t with ``df`` degrees of freedom.

    >>> round(t_two_sided_p(2.0, 10), 6)
    0.073388
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if math.isinf(t):
        return 0.0
    return min(1.0, incomplete_beta(df / 2, 0.5, df / (df + t * t)))


@lru_cache(maxsize=256)
def t_quantile(q: float, df: int) -> float:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom, ``0.5 < q < 1``
    (bisection on :func:`t_two_sided_p`).

    >>> round(t_quantile(0.975, 4), 4)
    2.7764
    """
    if not 0.5 < q < 1.0:
        raise ValueError("q must lie between 0.5 and 1")
    tail = 2 * (1 - q)
    lo, hi = 0.0, 2.0
    while t_two_sided_p(hi, df) > tail:
        lo, hi = hi, 2 * hi
    while hi - lo > 1e-12 * hi:
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > tail:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for a chi-square variable with ``df`` degrees of freedom (closed forms of
    the regularised upper gamma function for whole ``df``, each term worked out in logs:
    with many degrees of freedom ``exp(-x/2)`` underflowed while the series' terms
    overflowed, and 2,001 degrees of freedom at x = 2,100 gave 1.0 for 0.061).

    >>> round(chi2_sf(3.841458820694124, 1), 6), round(chi2_sf(7.814727903251178, 3), 6)
    (0.05, 0.05)
    >>> round(chi2_sf(2100.0, 2001), 4)
    0.0605
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if x <= 0:
        return 1.0
    h = x / 2
    log_h = math.log(h)
    if df % 2 == 0:  # the sum over i < df/2 of e^-h h^i / i!
        total = math.fsum(math.exp(i * log_h - math.lgamma(i + 1) - h)
                          for i in range(df // 2))
    else:  # erfc(sqrt h) + the sum over 1 <= i <= (df-1)/2 of e^-h h^(i-1/2) / Γ(i+1/2)
        total = math.erfc(math.sqrt(h)) + math.fsum(
            math.exp((i - 0.5) * log_h - math.lgamma(i + 0.5) - h)
            for i in range(1, (df + 1) // 2))
    return min(1.0, total)


def equal_shares_test(counts: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's chi-square goodness of fit of ``counts`` to equal shares: ``(statistic,
    degrees of freedom, p-value)``.

    >>> stat, df, p = equal_shares_test([50, 50, 50])
    >>> stat, df, p
    (0.0, 2, 1.0)
    """
    k = len(counts)
    total = sum(counts)
    if k < 2 or total <= 0:
        return (0.0, max(0, k - 1), 1.0)
    expected = total / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return (stat, k - 1, chi2_sf(stat, k - 1))


EXACT_OUTCOMES = 20_000
"""Above this many ways for the wins to fall on the seats, :func:`exact_equal_shares_p`
leaves the test to the chi-square approximation (by then several wins a seat)."""


def exact_equal_shares_p(counts: Sequence[float]) -> float | None:
    """The exact p-value of Pearson's statistic for whole ``counts`` under equal shares:
    the multinomial probability of every way the same total can fall on the seats with a
    statistic at least as large. None where a count is fractional (shared wins) or the
    ways number more than :data:`EXACT_OUTCOMES`.

    >>> exact_equal_shares_p([4, 0]), exact_equal_shares_p([3, 0, 0])  # 2/16, 3/27
    (0.125, 0.1111111111111111)
    """
    k = len(counts)
    if k < 2 or any(c != int(c) or c < 0 for c in counts):
        return None
    total = int(sum(counts))
    if total == 0 or math.comb(total + k - 1, k - 1) > EXACT_OUTCOMES:
        return None

    def stat(xs: Sequence[float]) -> float:
        return sum((x * k - total) ** 2 for x in xs)  # Pearson's, times total / k

    observed = stat(counts) - 1e-9 * total * total
    log_ways = math.lgamma(total + 1) - total * math.log(k)
    p = 0.0

    def fill(seats: list[int], left: int) -> None:
        nonlocal p
        if len(seats) == k - 1:
            xs = [*seats, left]
            if stat(xs) >= observed:
                p += math.exp(log_ways - sum(math.lgamma(x + 1) for x in xs))
            return
        for x in range(left + 1):
            fill([*seats, x], left - x)

    fill([], total)
    return min(1.0, p)


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
