"""So ein Zirkus figures for docs/so-ein-zirkus.md.

    .venv/bin/python bench/bench_zirkus.py            # bot vs random, 1,000 games per count
    .venv/bin/python bench/bench_zirkus.py --speed    # actions/second and game endings

Bot vs random: in game i the heuristic bot sits at seat i % P, the other seats play random
legal actions; game seeds are derive_seed(seed, "game", i). A game counts as a win for the bot
if it is among the winners (shared first places are counted and reported separately).
"""

from __future__ import annotations

import argparse
import collections
import random
import time
from typing import Any

from bigtop.agents.base import play_random
from bigtop.core.registry import new_game
from bigtop.games.zirkus.bot import bot_vs_random
from bigtop.games.zirkus.rules import ZirkusState

VARIANTS: list[dict[str, Any]] = [
    {},
    {"lazy_clown": True},
    {"shoving": "shove"},
    {"shoving": "clumsy"},
    {"secret_clown": True},
    {"upside_down": True},
    {"short_move": "as-far-as-possible"},
    {"drop_on_stop": False},
    {"board": "4x10"},
]


def speed(players: int, games: int, options: dict[str, Any]) -> dict[str, Any]:
    game = new_game("so-ein-zirkus", players, options)
    actions = 0
    endings: collections.Counter[str] = collections.Counter()
    turns: list[int] = []
    t0 = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        assert isinstance(state, ZirkusState)
        actions += play_random(state, rng)
        for rec in state.games:
            endings[rec["ending"]] += 1
            turns.append(rec["turns"])
    dt = time.perf_counter() - t0
    turns.sort()
    return {"actions_per_s": actions / dt, "endings": dict(endings),
            "turns_median": turns[len(turns) // 2], "turns_max": turns[-1]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--speed", action="store_true")
    args = ap.parse_args()
    if args.speed:
        for opts in VARIANTS:
            for p in (2, 3, 4):
                r = speed(p, args.games, opts)
                print(f"{p}p {opts or 'defaults'}: {r['actions_per_s']:,.0f} actions/s, "
                      f"turns median {r['turns_median']} max {r['turns_max']}, "
                      f"endings {r['endings']}")
        return
    for p in (2, 3, 4):
        r = bot_vs_random(p, args.games, args.seed)
        print(f"{p} players: heuristic bot wins {r['wins']}/{r['games']} = "
              f"{r['win_rate']:.3f} ± {1.96 * r['se']:.3f} (95%), {r['shared']} shared; "
              f"random baseline {r['baseline']:.3f}; mean margin over the best random "
              f"{r['mean_margin']:+.2f} points")


if __name__ == "__main__":
    main()
