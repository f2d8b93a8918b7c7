"""Clown 15 Go statistics: per player count, with all-random and all-heuristic tables, the
average game length, how often ruling G3 ended the game, and the first seat's win rate.

    .venv/bin/python bench/clown15go_stats.py --games 10000 --players 2-6 [-o KEY=VALUE ...]
        [--time-budget SECONDS] [--jobs 2]

Ties are split (a win shared by k players counts 1/k). With a time budget, each (bot, player
count) cell gets an equal share of the time and the table states how many games it played.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from bigtop.agents.base import Agent, RandomAgent
from bigtop.core.options import parse_option_pairs
from bigtop.core.registry import new_game
from bigtop.games.clown15go.bot import Clown15GoBot
from bigtop.games.clown15go.rules import Clown15GoState


def _run(args: tuple[str, int, dict[str, str], int, float]) -> dict[str, float]:
    bot, n, opts, games, budget = args
    game = new_game("clown-15-go", n, opts)
    stop = time.monotonic() + budget
    played = turns = actions = g3 = turn_limit = first = 0.0
    for seed in range(games):
        if time.monotonic() > stop:
            break
        agents: list[Agent]
        if bot == "heuristic":
            agents = [Clown15GoBot(q) for q in range(n)]
        else:
            agents = [RandomAgent(seed * 16 + q) for q in range(n)]
        s = game.new_initial_state(seed)
        assert isinstance(s, Clown15GoState)
        k = 0
        while not s.is_terminal():
            s.apply(agents[s.current_player()].act(s))
            k += 1
        played += 1
        turns += s.turns
        actions += k
        reason = s.end_reason
        g3 += reason in ("stall", "turn-limit")
        turn_limit += reason == "turn-limit"
        w = s.winners()
        if 0 in w:
            first += 1 / len(w)
    return {"players": n, "games": played, "turns": turns / max(played, 1),
            "actions": actions / max(played, 1), "g3": g3 / max(played, 1),
            "turn_limit": turn_limit / max(played, 1), "first": first / max(played, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--players", default="2-6")
    ap.add_argument("--option", "-o", action="append", default=[])
    ap.add_argument("--time-budget", type=float, default=1e9, help="seconds for the whole run")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    lo, _, hi = a.players.partition("-")
    counts = list(range(int(lo), int(hi or lo) + 1))
    opts = parse_option_pairs(a.option)
    cells = [(bot, n) for bot in ("random", "heuristic") for n in counts]
    per_cell = a.time_budget * a.jobs / len(cells)
    t0 = time.monotonic()
    with ProcessPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(_run, [(b, n, opts, a.games, per_cell) for b, n in cells]))
    label = ", ".join(f"{k}={v}" for k, v in opts.items()) or "default options"
    print(f"Clown 15 Go, {label}; seeds 0..games-1; {time.monotonic() - t0:.0f} s\n")
    print("| bots | players | games | avg turns | avg actions | G3 ended | of which turn cap "
          "| first-seat win rate (fair) |")
    print("|---|---|---|---|---|---|---|---|")
    for (bot, _), r in zip(cells, rows, strict=True):
        n = int(r["players"])
        print(f"| {bot} | {n} | {int(r['games'])} | {r['turns']:.1f} | {r['actions']:.1f} "
              f"| {100 * r['g3']:.1f}% | {100 * r['turn_limit']:.1f}% "
              f"| {100 * r['first']:.1f}% ({100 / n:.1f}%) |")


if __name__ == "__main__":
    main()
