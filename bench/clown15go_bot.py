"""Clown 15 Go: the heuristic bot against random play over seeded games.

    .venv/bin/python bench/clown15go_bot.py --games 1000 [--players 2,3,4,5,6] [--jobs 2]

One heuristic seat (rotating: game i puts it in seat i mod players) against random players;
a shared win counts 1/k. For each rule set the bot's win share is printed with a 95% Wilson
interval next to the fair share 1/players.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from bigtop.core.registry import new_game
from bigtop.games.clown15go.bot import Clown15GoBot
from bigtop.sim.runner import against_random, win_share
from bigtop.sim.stats import wilson_interval

RULE_SETS: dict[str, dict[str, object]] = {
    "default (basic game: G2 last card turned, G5 a 1 to the middle)": {},
    "basic game, last_card=stays": {"last_card": "stays"},
    "advanced 1 (open pile first)": {"open_pile_first": True},
    "advanced 1 and 3 (open pile first, borrowing)": {"open_pile_first": True,
                                                      "borrowing": True},
    "advanced 4 (points) only": {"points": True},
    "all four advanced rules": {"open_pile_first": True, "own_pile": True, "borrowing": True,
                                "points": True},
}


def _run(args: tuple[str, int, int]) -> tuple[str, int, int, float]:
    label, n, games = args
    g = new_game("clown-15-go", n, RULE_SETS[label])
    wins = sum(win_share(seat, s) for seat, s in against_random(g, Clown15GoBot, games, 10))
    return label, n, games, wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", default="2,3,4,5,6")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    counts = [int(x) for x in a.players.split(",")]
    cells = [(label, n, a.games) for label in RULE_SETS for n in counts]
    with ProcessPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(_run, cells))
    print("| rules | players | games | heuristic win share (95% CI) | fair |")
    print("|---|---|---|---|---|")
    for label, n, games, wins in rows:
        lo, hi = wilson_interval(wins, games)
        print(f"| {label} | {n} | {games} | {100 * wins / games:.1f}% "
              f"({100 * lo:.1f}–{100 * hi:.1f}%) | {100 / n:.1f}% |")


if __name__ == "__main__":
    main()
