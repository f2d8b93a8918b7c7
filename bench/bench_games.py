"""Random-play throughput of every registered game, side by side with OpenSpiel's C++
``crazy_eights`` and ``hearts`` driven by the same Python loop in the same run.

    .venv/bin/python bench/bench_games.py [--seconds 2] [--game scout] [--json]

Figures: complete random games per second and actions per second (chance outcomes count as
actions for both sides), and the ratio of actions/s to crazy_eights measured in this run (the
machine is noisy; compare ratios, not absolute numbers).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable

from bigtop.agents.base import play_random
from bigtop.core.game import pick_outcome
from bigtop.core.registry import game_names, get_game, new_game


def _time_loop(play_one: Callable[[int], int], seconds: float) -> tuple[float, float, int]:
    """Run whole games until ``seconds`` pass; returns games/s, actions/s, games."""
    games = actions = 0
    start = time.perf_counter()
    while True:
        actions += play_one(games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and games >= 3:
            return games / elapsed, actions / elapsed, games


def bigtop_player(name: str, players: int, options: dict[str, object]) -> Callable[[int], int]:
    game = new_game(name, players, options)

    def play_one(i: int) -> int:
        return play_random(game.new_initial_state(i), random.Random(i))

    return play_one


def openspiel_player(name: str) -> Callable[[int], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)

    def play_one(i: int) -> int:
        rng = random.Random(i)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick_outcome(state.chance_outcomes(), rng.random()))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        return n

    return play_one


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measured row")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--json", action="store_true", help="print JSON rows")
    args = ap.parse_args()
    names = args.game or game_names()
    rows: list[dict[str, object]] = []
    reference = None
    for ref in ("crazy_eights", "hearts"):
        player = openspiel_player(ref)
        if player is None:
            print("open-spiel is not installed: no reference rows", file=sys.stderr)
            break
        gps, aps, k = _time_loop(player, args.seconds)
        rows.append({"game": f"openspiel:{ref}", "players": "default", "games_per_s": gps,
                     "actions_per_s": aps, "games": k})
        if reference is None:
            reference = aps
    for name in names:
        cls = get_game(name)
        for n in range(cls.min_players, cls.max_players + 1):
            gps, aps, k = _time_loop(bigtop_player(name, n, {}), args.seconds)
            rows.append({"game": name, "players": n, "games_per_s": gps, "actions_per_s": aps,
                         "games": k})
    for r in rows:
        r["ratio_to_crazy_eights"] = (float(r["actions_per_s"]) / reference  # type: ignore[arg-type]
                                      if reference else None)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'game':<28}{'players':>8}{'games/s':>12}{'actions/s':>12}{'vs crazy_eights':>17}")
    for r in rows:
        ratio = r["ratio_to_crazy_eights"]
        ratio_s = f"{ratio:.2f}" if isinstance(ratio, float) else "-"
        print(f"{r['game']:<28}{r['players']!s:>8}{r['games_per_s']:>12.1f}"
              f"{r['actions_per_s']:>12.0f}{ratio_s:>17}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
