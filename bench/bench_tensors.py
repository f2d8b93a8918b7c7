"""Observation tensors: µs per ``layout.tensor(state, player)`` for every game, beside the
observation it is computed from (``state.observation(player)``), timed in the same run.

    .venv/bin/python bench/bench_tensors.py [--seconds 1] [--game NAME] [--baseline REV]
                                            [--json]

The positions are every 5th state of two seeded random games (the same in every run), each
seen by every player; each game is measured at 3 players and at its most. A pass times every
(position, player) once, the observation's pass and the tensor's in turn, until ``--seconds``
of CPU time (``time.process_time``) per row; the figures are the fastest pass's, per call,
which a loaded machine moves least. ``encode`` is the tensor's time less the observation's:
the layout's own work.

``--baseline REV`` measures the same in a subprocess running the sources of git revision
``REV`` (pure Python, as ``bench_games.py --baseline``) and prints its ``encode`` beside this
run's: ``×`` is how many times faster this run's encoding is (above 1: faster now). For a
like-for-like comparison run this one pure too (``BIGTOP_PURE=1``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bigtop.agents.base import random_step
from bigtop.core.game import State
from bigtop.core.registry import game_names, get_game, new_game
from bigtop.interop.tensors import TensorLayout, layout_for

# The repository's root, so that ``bench.*`` imports work when this file runs as a script.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.bench_games import baseline_env, mode_line

SEEDS = (1, 2)
EVERY = 5


def positions(name: str, players: int) -> list[State]:
    game = new_game(name, players)
    out: list[State] = []
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        step = 0
        while not state.is_terminal():
            if step % EVERY == 0:
                out.append(state.clone())
            random_step(state, rng)
            step += 1
        out.append(state)
    return out


def fastest_pass(layout: TensorLayout, seen: list[tuple[State, int]],
                 seconds: float) -> tuple[float, float]:
    """(observation µs, tensor µs) per call: the fastest of passes taken in turn."""
    best = [float("inf"), float("inf")]
    spent = 0.0
    while spent < seconds or best[1] == float("inf"):
        start = time.process_time()
        for state, p in seen:
            state.observation(p)
        middle = time.process_time()
        for state, p in seen:
            layout.tensor(state, p)
        end = time.process_time()
        spent += end - start
        best = [min(best[0], (middle - start) / len(seen)),
                min(best[1], (end - middle) / len(seen))]
    return best[0] * 1e6, best[1] * 1e6


def measure(names: list[str], seconds: float) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name in names:
        cls = get_game(name)
        for players in sorted({min(max(3, cls.min_players), cls.max_players), cls.max_players}):
            states = positions(name, players)
            layout = layout_for(states[0].game)
            seen = [(state, p) for state in states for p in range(players)]
            observe, tensor = fastest_pass(layout, seen, seconds)
            rows.append({"game": name, "players": players, "size": layout.size,
                         "calls": len(seen), "observation_us": observe,
                         "tensor_us": tensor, "encode_us": tensor - observe})
    return rows


def run_baseline(rev: str, argv: list[str]) -> dict[str, Any]:
    print(f"measuring revision {rev} in a subprocess ...", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv, "--json"],
                              env=baseline_env(rev, tmp), capture_output=True, text=True,
                              check=False)
    if done.returncode != 0:
        raise SystemExit(f"revision {rev} run failed:\n{done.stderr.strip()}")
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU time per row")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--baseline", metavar="REV", help="also measure git revision REV")
    ap.add_argument("--json", action="store_true", help="print JSON rows")
    args = ap.parse_args()
    names = args.game or game_names()
    child = ["--seconds", str(args.seconds)]
    for name in names:
        child += ["--game", name]
    base = run_baseline(args.baseline, child) if args.baseline else None
    rows = measure(names, args.seconds)
    if args.json:
        print(json.dumps({"mode": mode_line(), "rows": rows}, indent=1))
        return 0
    print(mode_line())
    head = f"{'game':<16}{'players':>8}{'size':>6}{'observation µs':>16}{'tensor µs':>11}" \
           f"{'encode µs':>11}"
    if base is not None:
        print(f"baseline {args.baseline}: {base['mode']}")
        head += f"{args.baseline + ' encode':>18}{'×':>7}"
    print(head)
    old = {(r["game"], r["players"]): r for r in base["rows"]} if base else {}
    for row in rows:
        line = f"{row['game']:<16}{row['players']:>8}{row['size']:>6}" \
               f"{row['observation_us']:>16.1f}{row['tensor_us']:>11.1f}{row['encode_us']:>11.1f}"
        was = old.get((row["game"], row["players"]))
        if was is not None:
            line += f"{was['encode_us']:>18.1f}{was['encode_us'] / row['encode_us']:>7.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
