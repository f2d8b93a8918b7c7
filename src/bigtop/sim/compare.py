"""Two rule variants on the same seeds, and every statistic's paired difference.

Game ``i`` of variant A and game ``i`` of variant B get the same state seed and bot seeds
(common random numbers), so a difference between them is the rules' doing and deal luck
largely cancels. Each statistic (win rate and mean score per seat, win rate per bot, games
with no winner, game length, the share of each way a game ended) is differenced per deal,
B − A; its mean gets Student's t 95% interval and a two-sided paired t-test, and the
Holm–Bonferroni procedure over all the rows decides which differences are significant at
α = 0.05 (so twenty rows do not make one lucky "significant" difference).

>>> c = compare("scout", 3, 6, seed=1, a={"hand_turn": "off"}, b={})
>>> row = c.differences()[0]
>>> row["statistic"], row["a"] + row["difference"] == row["b"]
('win rate P0', True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bigtop.core.errors import BigtopError
from bigtop.core.registry import new_game
from bigtop.core.rng import check_seed
from bigtop.sim.runner import (
    GameRecord,
    Progress,
    Run,
    check_games,
    make_jobs,
    run_jobs,
    seat_lineup,
)
from bigtop.sim.stats import mean_interval, t_two_sided_p
from bigtop.sim.summary import bot_names, deals, outcomes

ALPHA = 0.05
TEST = ("paired t-test on per-deal differences B − A (two-sided); significant: "
        "Holm–Bonferroni over all rows at α = 0.05")


def p_value(mean: float, sd: float, n: int) -> float:
    """Two-sided p-value of a mean difference over ``n`` deals: the paired t-test (``n - 1``
    degrees of freedom); where every deal differs by the same amount the spread says nothing
    and the sign test does: all ``n`` deals moved the same way, ``2 / 2^n`` (1 when nothing
    differs, and for one deal).

    >>> round(p_value(0.196, 1.0, 100), 4), p_value(0.0, 0.0, 5), p_value(1.0, 0.0, 3)
    (0.0528, 1.0, 0.25)
    """
    if n < 2 or (mean == 0 and sd == 0):
        return 1.0
    if sd == 0:
        return min(1.0, 2.0 ** (1 - n))
    return t_two_sided_p(abs(mean) / (sd / math.sqrt(n)), n - 1)


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> list[bool]:
    """Holm's step-down procedure: which hypotheses are rejected, family-wise error ≤ α.

    >>> holm([0.01, 0.04, 0.03, 0.5])
    [True, False, False, False]
    >>> holm([0.001, 0.02, 0.015])
    [True, True, True]
    """
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    out = [False] * len(p_values)
    m = len(p_values)
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (m - rank):
            break
        out[i] = True
    return out


Statistic = tuple[str, str, Callable[[GameRecord], float | None]]
"""A row: its name, its kind (for grouping plots), and its value in one game (None when the
game does not count for it, e.g. a bot not at the table)."""


def _held(r: GameRecord, bot: str, values: Sequence[float]) -> float | None:
    seats = [p for p, b in enumerate(r.bots) if b == bot]
    return sum(values[p] for p in seats) / len(seats) if seats else None


def _share(p: int) -> Callable[[GameRecord], float | None]:
    return lambda r: r.shares()[p]


def _bot_share(bot: str) -> Callable[[GameRecord], float | None]:
    return lambda r: _held(r, bot, r.shares())


def _score(p: int) -> Callable[[GameRecord], float | None]:
    return lambda r: r.scores[p]


def _ended(key: str, value: str) -> Callable[[GameRecord], float | None]:
    return lambda r: float(r.extra.get(key) == value)


def statistics(a: Sequence[GameRecord], b: Sequence[GameRecord], players: int) -> list[Statistic]:
    """The rows a comparison reports for these records."""
    rows: list[Statistic] = [(f"win rate P{p}", "win rate", _share(p)) for p in range(players)]
    bots = bot_names([*a, *b])
    if len(bots) > 1:
        rows += [(f"win rate {bot}", "win rate", _bot_share(bot)) for bot in bots]
    rows.append(("no winner", "win rate", lambda r: float(r.no_winner)))
    rows += [(f"score P{p}", "score", _score(p)) for p in range(players)]
    rows.append(("actions", "length", lambda r: float(r.actions)))
    ends_a, ends_b = outcomes(a), outcomes(b)
    for key in {**ends_a, **ends_b}:
        for v in sorted(set(ends_a.get(key, {})) | set(ends_b.get(key, {}))):
            rows.append((f"{key}={v}", "outcome", _ended(key, v)))
    return rows


def _deal_mean(games: Sequence[GameRecord],
               f: Callable[[GameRecord], float | None]) -> float | None:
    vals = [x for x in map(f, games) if x is not None]
    return sum(vals) / len(vals) if vals else None


@dataclass
class Comparison:
    """Variant A's and variant B's runs, played on the same seeds."""

    a: Run
    b: Run

    def differences(self) -> list[dict[str, Any]]:
        """One row per statistic: A's and B's means, B − A with its 95% interval, the
        paired test's p-value and whether it is significant after Holm."""
        n = self.a.game.num_players
        pairs = list(zip(deals(self.a.records), deals(self.b.records), strict=True))
        rows: list[dict[str, Any]] = []
        for name, kind, f in statistics(self.a.records, self.b.records, n):
            diffs, va, vb = [], [], []
            for da, db in pairs:
                x, y = _deal_mean(da, f), _deal_mean(db, f)
                if x is not None and y is not None:
                    diffs.append(y - x)
                    va.append(x)
                    vb.append(y)
            m = mean_interval(diffs)
            rows.append({
                "statistic": name, "kind": kind,
                "a": sum(va) / len(va) if va else math.nan,
                "b": sum(vb) / len(vb) if vb else math.nan,
                "difference": m.mean, "ci95": [m.low, m.high] if m.n >= 2 else None,
                "p_value": p_value(m.mean, m.sd, m.n), "deals": m.n,
            })
        for row, sig in zip(rows, holm([r["p_value"] for r in rows]), strict=True):
            row["significant"] = sig
        return rows

    def to_json(self) -> dict[str, Any]:
        a, b = self.a, self.b
        return {
            "game": a.game.name, "players": a.game.num_players, "seed": a.seed,
            "bots": a.bots, "bots_given": a.given, "rotate": a.rotate,
            "games": len(a.records), "requested_games": a.requested,
            "interrupted": a.interrupted,
            "variants": {
                "A": {"options": a.game.options.to_json(), "changed": a.game.options.changed(),
                      "summary": a.summary()},
                "B": {"options": b.game.options.to_json(), "changed": b.game.options.changed(),
                      "summary": b.summary()},
            },
            "test": TEST,
            "differences": self.differences(),
            "results": {"A": [asdict(r) for r in a.records],
                        "B": [asdict(r) for r in b.records]},
        }


def compare(name: str, players: int, games: int, seed: int = 0,
            a: Mapping[str, object] | None = None, b: Mapping[str, object] | None = None,
            bots: Sequence[str] = ("random",), progress: Progress | None = None, *,
            rotate: bool = False, workers: int = 1, ray_address: str | None = None,
            keep_states: bool = False) -> Comparison:
    """Play ``games`` games of each variant (rule options ``a`` and ``b``) on the same
    seeds; a Ctrl-C keeps whole pairs (whole deals when rotating)."""
    check_seed(seed)
    check_games(games)
    game_a, game_b = new_game(name, players, a), new_game(name, players, b)
    if game_a.options == game_b.options:
        raise BigtopError("the two variants have the same rules; give B's options after --vs")
    lineup = seat_lineup(list(bots) or ["random"], players)
    jobs_a = make_jobs(game_a, games, seed, lineup, rotate, keep_states)
    jobs_b = make_jobs(game_b, games, seed, lineup, rotate, keep_states)
    # A deal's games of both variants side by side: an interrupted run keeps whole pairs.
    n = players if rotate else 1
    jobs = []
    for k in range(0, games, n):
        jobs += jobs_a[k:k + n] + jobs_b[k:k + n]
    played = run_jobs(jobs, workers, ray_address,
                      None if progress is None else (lambda done: progress(done // 2)),
                      2 * n)
    fa = [f for k, f in enumerate(played.finished) if (k // n) % 2 == 0]
    fb = [f for k, f in enumerate(played.finished) if (k // n) % 2 == 1]

    def run(game: Any, finished: list[Any]) -> Run:
        return Run(game, seed, lineup, [f.record for f in finished], rotate, list(bots),
                   games, played.interrupted,
                   [f.state for f in finished if f.state is not None])

    return Comparison(run(game_a, fa), run(game_b, fb))
