"""PNG plots of a run (matplotlib, no display needed): score distribution per seat, win
rates with their 95% intervals, game lengths; for a comparison, each difference with its
interval; for a tournament, the ratings with their uncertainty."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from matplotlib.figure import Figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from bigtop.sim.jobs import GameRecord

DPI = 110


def _errorbars(ax: Axes, labels: Sequence[str], rates: Sequence[float],
               intervals: Sequence[Sequence[float]], colour: str) -> None:
    # (clamped: a rounding error must not make a bar's end negative)
    lows = [max(0.0, r - lo) for r, (lo, _) in zip(rates, intervals, strict=True)]
    highs = [max(0.0, hi - r) for r, (_, hi) in zip(rates, intervals, strict=True)]
    xs = range(len(labels))
    ax.bar(xs, rates, color=colour, alpha=0.75)
    ax.errorbar(xs, rates, yerr=[lows, highs], fmt="none", ecolor="black", capsize=4)
    ax.set_xticks(list(xs), list(labels))


def plot_run(title: str, summary: dict[str, Any], records: Sequence[GameRecord],
             folder: Path, prefix: str = "") -> list[Path]:
    """``scores.png``, ``win_rates.png`` and ``lengths.png`` in ``folder``."""
    n = len(summary["seats"])
    out = []
    fig = Figure(figsize=(1.2 + 1.1 * n, 3.6), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    ax.boxplot([[r.scores[p] for r in records] for p in range(n)], showmeans=True)
    ax.set_xticks(range(1, n + 1), [f"P{p}" for p in range(n)])
    ax.set_ylabel("score")
    ax.set_title(f"{title}: scores per seat ({len(records)} games)", fontsize=10)
    out.append(folder / f"{prefix}scores.png")
    fig.savefig(out[-1])

    bots = summary["bots"]
    fig = Figure(figsize=(2.5 + 1.0 * (n + len(bots)), 3.6), dpi=DPI, layout="constrained")
    seat_ax, bot_ax = fig.subplots(1, 2, sharey=True, gridspec_kw={
        "width_ratios": [n + 1, max(1.6, len(bots))]})
    seats = summary["seats"]
    nw = summary["no_winner"]
    _errorbars(seat_ax, [f"P{s['seat']}" for s in seats] + ["no\nwinner"],
               [s["win_rate"] for s in seats] + [nw["rate"]],
               [s["win_rate_ci95"] for s in seats] + [nw["ci95"]], "tab:blue")
    _errorbars(bot_ax, [b["bot"] for b in bots], [b["win_rate"] for b in bots],
               [b["win_rate_ci95"] for b in bots], "tab:orange")
    for ax, what in ((seat_ax, "per seat"), (bot_ax, "per bot\n(per seat held)")):
        ax.axhline(summary["baseline_win_rate"], color="grey", linestyle="--", linewidth=1)
        ax.set_title(what, fontsize=10)
    seat_ax.set_ylabel("win rate (95% interval); dashed: 1/players")
    fig.suptitle(f"{title}: win rates", fontsize=10)
    out.append(folder / f"{prefix}win_rates.png")
    fig.savefig(out[-1])

    fig = Figure(figsize=(5.5, 3.4), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    lengths = [r.actions for r in records]
    ax.hist(lengths, bins=min(40, max(5, len(set(lengths)))), color="tab:green", alpha=0.8)
    ax.axvline(summary["actions_mean"], color="black", linewidth=1,
               label=f"mean {summary['actions_mean']:.1f}")
    ax.set_xlabel("actions per game (chance steps included)")
    ax.set_ylabel("games")
    ax.legend()
    ax.set_title(f"{title}: game length", fontsize=10)
    out.append(folder / f"{prefix}lengths.png")
    fig.savefig(out[-1])
    return out


def plot_differences(title: str, rows: Sequence[dict[str, Any]], folder: Path) -> Path:
    """``differences.png``: each statistic's paired difference B − A with its 95% interval,
    one panel per kind of statistic (each on its own scale), significant ones (after Holm's
    correction) in red."""
    kinds = list(dict.fromkeys(row["kind"] for row in rows))
    groups = [[row for row in rows if row["kind"] == kind] for kind in kinds]
    fig = Figure(figsize=(6.4, 0.8 + sum(0.5 + 0.3 * len(g) for g in groups)), dpi=DPI,
                 layout="constrained")
    axes = fig.subplots(len(groups), 1, squeeze=False,
                        gridspec_kw={"height_ratios": [1 + len(g) for g in groups]})[:, 0]
    for ax, kind, group in zip(axes, kinds, groups, strict=True):
        ys = list(range(len(group)))[::-1]
        for y, row in zip(ys, group, strict=True):
            d, (lo, hi) = row["difference"], row["ci95"] or (row["difference"],) * 2
            ax.errorbar([d], [y], xerr=[[max(0.0, d - lo)], [max(0.0, hi - d)]], fmt="o",
                        color="tab:red" if row["significant"] else "tab:grey", capsize=3)
        ax.axvline(0.0, color="black", linewidth=1)
        ax.set_yticks(ys, [row["statistic"] for row in group], fontsize=8)
        ax.set_ylim(-0.7, len(group) - 0.3)
        ax.set_title(kind, fontsize=9, loc="left")
    axes[-1].set_xlabel("difference B − A (95% interval); red: significant after Holm")
    fig.suptitle(title, fontsize=10)
    path = folder / "differences.png"
    fig.savefig(path)
    return path


def plot_ratings(title: str, board: Sequence[dict[str, Any]], folder: Path) -> Path:
    """``ratings.png``: each bot's openskill μ with ±2σ."""
    fig = Figure(figsize=(5.5, 1.0 + 0.45 * len(board)), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    ys = list(range(len(board)))[::-1]
    ax.errorbar([b["mu"] for b in board], ys, xerr=[2 * b["sigma"] for b in board],
                fmt="o", capsize=4, color="tab:purple")
    ax.set_yticks(ys, [b["bot"] for b in board])
    ax.set_xlabel("openskill rating μ ± 2σ")
    ax.set_title(title, fontsize=10)
    path = folder / "ratings.png"
    fig.savefig(path)
    return path
