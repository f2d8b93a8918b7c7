"""What the take-back check costs (docs/server.md, "Undo by agreement").

    .venv/bin/python bench/bench_reveal.py              # 200 take-backs per game
    .venv/bin/python bench/bench_reveal.py --samples 50

A typical take-back: in a game of random moves (seeded), a seat asks at its turn to take
back its previous move and all that followed (the others' moves and the chance outcomes up
to its turn again). ``first_reveal`` is timed for the asker alone (one person and bots) and
for every seat as a person (the others checked too, the asker's own moves waived for them,
as the server does). Printed per game: milliseconds per check (median and the slowest in
twenty), the ratio to one plain replay of the same steps in the same process (the machine
is shared and noisy; the ratio holds better than the milliseconds), and how many of the
take-backs the check allows.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bigtop.core.actions import Action
from bigtop.core.game import State
from bigtop.core.registry import new_state
from bigtop.core.reveal import first_reveal

GAMES = [("scout", 4), ("clown-15-go", 2), ("so-ein-zirkus", 2), ("tricky-landing", 4)]


def take_backs(name: str, players: int, samples: int, seed: int
               ) -> list[tuple[State, list[Action], int]]:
    """``samples`` (start, steps, asker): the position before the asker's previous move and
    what was played since, at the asker's turn in games of random moves."""
    rng = random.Random(seed)
    out: list[tuple[State, list[Action], int]] = []
    g = 0
    while len(out) < samples:
        s = new_state(name, players=players, seed=seed + g)
        g += 1
        last: dict[int, int] = {}  # seat -> history length before its latest move
        while not s.is_terminal() and len(out) < samples:
            p = s.current_player()
            if p >= 0 and p in last and rng.random() < 0.2:
                at = last[p]
                start = new_state(name, players=players, seed=s.seed)
                for a in s.history[:at]:
                    start.apply(a)
                out.append((start, list(s.history[at:]), p))
            if p >= 0:
                last[p] = len(s.history)
                s.apply(rng.choice(s.legal_actions()))
            else:
                s.apply_chance()
    return out


def timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - t, out


def replay(start: State, steps: list[Action]) -> None:
    s = start.clone()
    for a in steps:
        s.apply(a)


def movers(start: State, steps: list[Action], seat: int) -> list[int]:
    """The steps that ``seat`` played (the server reads them off its log)."""
    s = start.clone()
    out = []
    for j, a in enumerate(steps):
        if s.current_player() == seat:
            out.append(j)
        s.apply(a)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{'game':<18}{'who':<12}{'steps':>6}{'ms median':>11}{'ms p95':>8}"
          f"{'x replay':>10}{'allowed':>9}")
    for name, players in GAMES:
        runs = take_backs(name, players, args.samples, args.seed)
        base = [timed(replay, start, steps)[0] for start, steps, _ in runs]
        for who in ("asker", "everyone"):
            times, allowed = [], 0
            for start, steps, asker in runs:
                seats = [asker] if who == "asker" else [
                    asker, *(q for q in range(players) if q != asker)]
                own = movers(start, steps, asker)
                waived = {q: own for q in seats[1:]}
                t, found = timed(first_reveal, start, steps, seats, waived=waived)
                times.append(t)
                allowed += found is None
            ratio = statistics.median(t / b for t, b in zip(times, base, strict=True))
            steps_median = statistics.median(len(s) for _, s, _ in runs)
            print(f"{f'{name} {players}p':<18}{who:<12}{steps_median:>6g}"
                  f"{statistics.median(times) * 1000:>11.2f}"
                  f"{statistics.quantiles(times, n=20)[-1] * 1000:>8.2f}"
                  f"{ratio:>10.1f}{allowed / len(runs):>9.0%}")


if __name__ == "__main__":
    main()
