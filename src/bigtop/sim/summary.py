"""The statistics of a run: per seat, per bot, games with no winner, lengths, how games ended.

Intervals are 95%. The independent unit is the deal: without rotation every game is its own
deal and a win rate gets the Wilson score interval; with rotation the ``n`` games of a deal
share their cards, so every statistic is the mean of per-deal means with Student's t interval
(counting those games as independent would make the intervals too narrow).

>>> from bigtop.sim.runner import simulate
>>> s = simulate("scout", 3, 6, seed=2, bots=["easy", "random"], rotate=True).summary()
>>> [b["bot"] for b in s["bots"]], [b["seat_games"] for b in s["bots"]]
(['easy', 'random'], [12, 6])
>>> round(sum(x["win_rate"] for x in s["seats"]) + s["no_winner"]["rate"], 9)
1.0
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import groupby
from typing import Any

from bigtop.core.game import Game
from bigtop.sim.jobs import GameRecord
from bigtop.sim.stats import (
    equal_shares_test,
    exact_equal_shares_p,
    mean_interval,
    wilson_interval,
)

WILSON = "Wilson score interval (games are independent)"
DEAL_MEANS = "Student's t interval of per-deal means (the games of a deal share its cards)"


@dataclass(frozen=True)
class Estimate:
    """A mean over trials with its 95% interval."""

    mean: float
    low: float
    high: float
    n: int

    def ci(self) -> list[float] | None:
        """``[low, high]``, or None where there is no interval (a mean over one deal)."""
        return None if math.isnan(self.low) else [self.low, self.high]


def deals(records: Sequence[GameRecord]) -> list[list[GameRecord]]:
    """The records grouped by deal, in order."""
    return [list(g) for _, g in groupby(records, key=lambda r: r.deal)]


def estimate(units: Sequence[Sequence[float]], proportion: bool = False) -> Estimate:
    """The mean of values grouped in independent units (units without values are left out):
    a proportion whose units are single trials gets the Wilson interval, anything else the
    Student's t interval of the unit means (a proportion whose units all agree, where that
    interval shrinks to a point, gets the Wilson interval over units instead).

    >>> e = estimate([[1.0], [0.0], [1.0], [1.0]], proportion=True)
    >>> e.mean, round(e.low, 3), round(e.high, 3)
    (0.75, 0.301, 0.954)
    >>> estimate([[1.0, 0.0], [1.0, 1.0]]).mean
    0.75
    """
    units = [u for u in units if u]
    if proportion and all(len(u) == 1 for u in units):
        k = len(units)
        s = sum(u[0] for u in units)
        lo, hi = wilson_interval(s, k)
        return Estimate(s / k if k else float("nan"), lo, hi, k)
    means = [sum(u) / len(u) for u in units]
    m = mean_interval(means)
    n = sum(len(u) for u in units)
    if not proportion:
        if len(means) < 2:  # one deal says nothing about the spread
            return Estimate(m.mean, math.nan, math.nan, n)
        return Estimate(m.mean, m.low, m.high, n)
    if m.high - m.low < 1e-12:
        lo, hi = wilson_interval(sum(means), len(means))
        return Estimate(m.mean, lo, hi, n)
    return Estimate(m.mean, max(0.0, m.low), min(1.0, m.high), n)  # a rate stays in [0, 1]


def _units(groups: Sequence[Sequence[GameRecord]],
           value: Callable[[GameRecord], list[float]]) -> list[list[float]]:
    return [[v for r in g for v in value(r)] for g in groups]


def _sd(values: Sequence[float]) -> float:
    return mean_interval(values).sd


def outcomes(records: Sequence[GameRecord]) -> dict[str, dict[str, int]]:
    """How often each value of a categorical result field occurred (a field of
    ``State.result()`` that is a string in every game, e.g. Clown 15 Go's ``end_reason``),
    most frequent first."""
    out: dict[str, dict[str, int]] = {}
    if not records:
        return out
    for key in records[0].extra:
        values = [r.extra.get(key) for r in records]
        if all(isinstance(v, str) for v in values):
            counts = Counter(str(v) for v in values)
            out[key] = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return out


def bot_names(records: Sequence[GameRecord]) -> list[str]:
    """Every bot that played, in order of first appearance."""
    return list(dict.fromkeys(b for r in records for b in r.bots))


def _by(groups: Sequence[Sequence[GameRecord]],
        seats: Callable[[GameRecord], list[int]]) -> dict[str, Estimate]:
    """Win rate, score and place over the seats ``seats(record)`` of every game."""
    def values(get: Callable[[GameRecord, int], float]) -> list[list[float]]:
        return _units(groups, lambda r: [get(r, p) for p in seats(r)])

    return {
        "win": estimate(values(lambda r, p: r.shares()[p]), proportion=True),
        "score": estimate(values(lambda r, p: r.scores[p])),
        "place": estimate(values(lambda r, p: float(r.ranking[p]))),
    }


def _seat(p: int) -> Callable[[GameRecord], list[int]]:
    return lambda r: [p]


def _held_by(bot: str) -> Callable[[GameRecord], list[int]]:
    return lambda r: [p for p, b in enumerate(r.bots) if b == bot]


def seat_stats(records: Sequence[GameRecord], players: int,
               lineup: Sequence[str] | None = None) -> list[dict[str, Any]]:
    groups = deals(records)
    out = []
    for p in range(players):
        e = _by(groups, _seat(p))
        out.append({
            "seat": p,
            "bot": lineup[p] if lineup is not None else "rotating",
            "win_rate": e["win"].mean, "win_rate_ci95": e["win"].ci(),
            "score_mean": e["score"].mean, "score_sd": _sd([r.scores[p] for r in records]),
            "score_mean_ci95": e["score"].ci(),
            "place_mean": e["place"].mean,
        })
    return out


def bot_stats(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Per bot: its win rate per seat it held (a bot in two seats of a game has two tries),
    mean score and mean place."""
    groups = deals(records)
    out = []
    for bot in bot_names(records):
        e = _by(groups, _held_by(bot))
        out.append({
            "bot": bot, "seat_games": e["win"].n,
            "win_rate": e["win"].mean, "win_rate_ci95": e["win"].ci(),
            "score_mean": e["score"].mean, "score_mean_ci95": e["score"].ci(),
            "place_mean": e["place"].mean,
        })
    return out


SEAT_TEST = ("Pearson chi-square of the seats' win shares against equal shares (one bot in "
             "every seat, independent games); the exact multinomial p-value where the wins "
             "are whole and can fall in few ways")


def seat_test(run: Run) -> dict[str, Any] | None:
    """Is any seat better? Only asked where the answer means seat advantage: the same bot
    in every seat and independent games (with rotation the games of a deal share cards)."""
    if run.rotate or len(set(run.bots)) != 1 or not run.records:
        return None
    n = run.game.num_players
    wins = [sum(r.shares()[p] for r in run.records) for p in range(n)]
    stat, df, p = equal_shares_test(wins)
    exact = exact_equal_shares_p(wins)
    return {"test": SEAT_TEST, "chi2": stat, "df": df,
            "p_value": p if exact is None else exact, "exact": exact is not None}


def summarise(run: Run) -> dict[str, Any]:
    """The whole summary of a run (what ``bigtop simulate --json`` prints as ``summary``)."""
    records = run.records
    n = run.game.num_players
    groups = deals(records)
    nowin = estimate(_units(groups, lambda r: [float(r.no_winner)]), proportion=True)
    acts = estimate(_units(groups, lambda r: [float(r.actions)]))
    return {
        "games": len(records),
        "requested_games": run.requested or len(records),
        "interrupted": run.interrupted,
        "deals": len(groups),
        "rotate": run.rotate,
        "lineup": run.bots,
        "cycled": len(run.given) < n if run.given else False,
        "intervals": WILSON if all(len(g) == 1 for g in groups) else DEAL_MEANS,
        "baseline_win_rate": 1 / n,
        "seats": seat_stats(records, n, None if run.rotate else run.bots),
        "bots": bot_stats(records),
        "no_winner": {"games": sum(r.no_winner for r in records), "rate": nowin.mean,
                      "ci95": nowin.ci()},
        "shared_wins": sum(1 for r in records if 1 < len(r.winners) < n),
        "actions_mean": acts.mean,
        "actions_mean_ci95": acts.ci(),
        "actions_sd": _sd([float(r.actions) for r in records]),
        "outcomes": outcomes(records),
        "seat_test": seat_test(run),
    }


@dataclass
class Run:
    """The records of a run and how they were made; :meth:`summary` has the statistics."""

    game: Game
    seed: int
    bots: list[str]
    """The line-up of seat 0, 1, … (of the first game when rotating)."""
    records: list[GameRecord]
    rotate: bool = False
    given: list[str] = field(default_factory=list)
    """The bots as given (fewer than the seats: they were cycled)."""
    requested: int = 0
    interrupted: bool = False
    states: list[dict[str, Any]] = field(default_factory=list, repr=False)
    """Each game's finished state JSON when asked for (``keep_states``)."""

    @property
    def agents(self) -> list[str]:
        """The older name of :attr:`bots`."""
        return self.bots

    def summary(self) -> dict[str, Any]:
        return summarise(self)

    def outcomes(self) -> dict[str, dict[str, int]]:
        return outcomes(self.records)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "players": self.game.num_players,
            "options": self.game.options.to_json(),
            "seed": self.seed,
            "bots": self.bots,
            "bots_given": self.given or self.bots,
            "rotate": self.rotate,
            "summary": self.summary(),
            "results": [asdict(r) for r in self.records],
        }
