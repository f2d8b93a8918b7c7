"""Tricky Landing figures for docs/tricky-landing.md.

    .venv/bin/python bench/bench_tricky_landing.py            # everything (a few minutes)
    .venv/bin/python bench/bench_tricky_landing.py throws     # throws per second
    .venv/bin/python bench/bench_tricky_landing.py calibrate  # hit / face-down shares
    .venv/bin/python bench/bench_tricky_landing.py actions    # random-play actions per second
    .venv/bin/python bench/bench_tricky_landing.py bot [N]    # heuristic bot vs random, N games
    .venv/bin/python bench/bench_tricky_landing.py pictures   # docs/img/tricky_landing/*
    .venv/bin/python bench/bench_tricky_landing.py misses [N] # miss rates in play, by skill

Every figure is seeded, so reruns print the same shares (timings vary with the machine).
"""

from __future__ import annotations

import math
import random
import sys
import time

import numpy as np

from bigtop.core.registry import new_game
from bigtop.core.rng import derive_normals
from bigtop.games.tricky_landing.bot import TrickyLandingBot
from bigtop.games.tricky_landing.physics import (
    Thrower,
    ThrowModel,
    seat_angle,
    simulate_throws,
    touches_target,
)
from bigtop.games.tricky_landing.rules import TrickyLandingState
from bigtop.sim.runner import against_random, win_share
from bigtop.sim.stats import wilson_interval

SEAT = seat_angle(0, 4)  # the bottom seat; aims are measured from the target's centre


def bench_throws() -> None:
    m = ThrowModel()
    simulate_throws(m, SEAT, 0.0, 0.0, 3.0, n=1000, seed=0)  # warm up
    best = math.inf
    for k in range(5):
        t = time.perf_counter()
        s = simulate_throws(m, SEAT, 0.0, 0.0, 3.0, n=100_000, seed=k)
        best = min(best, time.perf_counter() - t)
    print(f"vectorised: 100,000 throws in {best * 1e3:.1f} ms = {1e5 / best:,.0f} throws/s")
    t = time.perf_counter()
    touches_target(m, s)
    dt = time.perf_counter() - t
    print(f"vectorised touch test: 100,000 landings in {dt * 1e3:.1f} ms")
    n = 20_000
    thrower = Thrower(m, SEAT)  # what the game keeps per seat
    t = time.perf_counter()
    for i in range(n):
        thrower.landing(0.0, 0.0, 3.0, derive_normals(1, "throw", i))
    dt = time.perf_counter() - t
    print(f"scalar (game path, incl. derive_normals): {n / dt:,.0f} throws/s")
    t = time.perf_counter()
    for i in range(n):
        simulate_throws(m, SEAT, 0.0, 0.0, 3.0, n=1, seed=i)
    dt = time.perf_counter() - t
    print(f"vectorised path for single throws: {n / dt:,.0f} throws/s (why the game uses "
          "the scalar path)")


def bench_calibration() -> None:
    print("share touching the target / share face down, 100,000 throws each, seat 30 cm away")
    print("aim distance is measured from the centre across the line of throw (sideways)")
    for skill in (0.5, 0.8, 1.0, 2.0):
        m = ThrowModel(skill=skill)
        print(f"\nskill {skill}")
        print("| spin (rev/s) | " + " | ".join(f"aim {d} cm" for d in (0, 3, 6, 9, 12, 18))
              + " | face down |")
        print("|---" * 8 + "|")
        for spin in (0.0, 1.5, 3.0, 6.0):
            row = []
            down = 0.0
            for d in (0, 3, 6, 9, 12, 18):
                s = simulate_throws(m, SEAT, float(d), 0.0, spin, n=100_000, seed=7)
                row.append(f"{touches_target(m, s).mean():.1%}")
                down = float(s.face_down.mean())
            print(f"| {spin} | " + " | ".join(row) + f" | {down:.1%} |")
    for skill in (0.8, 1.0):
        m = ThrowModel(skill=skill)
        s = simulate_throws(m, SEAT, 0.0, -18.0, 3.0, n=100_000, seed=7)
        print(f"\nskill {skill}: aim 18 cm short (towards the thrower), medium spin: "
              f"{touches_target(m, s).mean():.2%} touch")


def bench_actions() -> None:
    for n in (3, 4, 5, 6):
        game = new_game("tricky-landing", n)
        steps = 0
        t = time.perf_counter()
        for seed in range(30):
            s = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply(legal[rng.randrange(len(legal))])
                steps += 1
        dt = time.perf_counter() - t
        print(f"{n} players: {steps / dt:,.0f} random actions/s ({steps // 30} per game)")


def bench_bot(games: int = 1000) -> None:
    print(f"heuristic bot vs random play, {games} seeded games per player count "
          "(the bot's seat rotates)")
    print("| players | bot win rate | 95% CI (Wilson) | fair share | bot mean score | "
          "random mean score |")
    print("|---|---|---|---|---|---|")
    for n in (3, 4, 5, 6):
        game = new_game("tricky-landing", n)
        wins = 0.0
        bot_scores: list[float] = []
        rand_scores: list[float] = []
        for seat, s in against_random(game, TrickyLandingBot, games, 1000):
            wins += win_share(seat, s)
            sc = s.scores()
            bot_scores.append(sc[seat])
            rand_scores.extend(sc[q] for q in range(n) if q != seat)
        rate = wins / games
        lo, hi = wilson_interval(wins, games)
        print(f"| {n} | {rate:.1%} | {lo:.1%}–{hi:.1%} | {1 / n:.1%} | "
              f"{np.mean(bot_scores):.1f} | {np.mean(rand_scores):.1f} |")


def miss_rates(skill: float | list[float], players: int = 4, games: int = 200,
               spin: float = 3.0) -> tuple[float, float, float]:
    """Shares of tricks, in played games with every throw aimed at the centre, in which
    exactly one card missed (a new trump), two or more missed, and every card missed."""
    game = new_game("tricky-landing", players, {"skill": skill})
    one = several = every = tricks = 0
    for seed in range(games):
        s = game.new_initial_state(seed)
        assert isinstance(s, TrickyLandingState)
        while not s.is_terminal():
            s.apply(s.action_from_text(f"{s.hands[s.current_player()][0]} 0 0 {spin}"))
            res = s.resolution() if not s.table else None
            if res is not None:  # a trick was just resolved (a round's last one is not
                # kept, and misses do not depend on the trick: it is left out)
                k = len(res.missed)
                tricks += 1
                one += k == 1
                several += k >= 2
                every += k == players
    return one / tricks, several / tricks, every / tricks


def bench_misses(games: int = 200) -> None:
    print(f"misses per trick in play: every throw at the centre with medium spin, {games} "
          "seeded games (3 rounds) per cell")
    print("| players | skill | one card missed (new trump) | two or more missed | all missed |")
    print("|---|---|---|---|---|")
    for n in (3, 4, 5, 6):
        for skill in (0.5, 0.6, 0.7, 0.8, 1.0, 1.5):
            one, several, every = miss_rates(skill, n, games)
            print(f"| {n} | {skill:g} | {one:.1%} | {several:.1%} | {every:.1%} |", flush=True)


def pictures() -> None:
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from bigtop.games.tricky_landing.render import render_png, render_svg
    from bigtop.games.tricky_landing.tricks import Landing

    out = Path(__file__).resolve().parent.parent / "docs" / "img" / "tricky_landing"
    out.mkdir(parents=True, exist_ok=True)

    def lay(*cards: tuple[str, float, float, float, bool]) -> list[Landing]:
        return [Landing(i, c, x, y, r, d) for i, (c, x, y, r, d) in enumerate(cards)]

    scenes = {
        "yellow3": (lay(("y3", 0.0, 8.0, 0.0, False), ("p7", 0.0, -8.0, 0.0, False),
                        ("y5", 6.0, 0.0, 0.0, False)), 3, "Example: the yellow 3"),
        "two_tricks": (lay(("g3", 0.0, 8.0, 0.0, False), ("g5", 0.0, 15.0, 0.0, False),
                           ("p9", 5.5, 12.0, 0.0, False), ("y1", 0.0, -8.0, 0.0, False)), 4,
                       "Multiple tricks on the target card"),
        "no_trump": (lay(("g2", -5.5, 6.5, 0.0, False), ("p5", 5.5, 6.5, 0.0, False),
                         ("b5", -1.0, 12.5, 90.0, False), ("y7", 0.0, 17.0, 0.0, False)), 4,
                     "Example with no trump suit (no lead suit)"),
    }
    for name, (table, players, title) in scenes.items():
        (out / f"{name}.svg").write_text(render_svg(table, players=players, title=title))
        render_png(table, str(out / f"{name}.png"), players=players, title=title)
    # A trick from a seeded game of the heuristic bot in every seat (random grid throws aim
    # at a deliberate miss 4 times in 9, which rarely makes a trick).
    game = new_game("tricky-landing", 5)
    s = game.new_initial_state(11)
    bots = [TrickyLandingBot(q) for q in range(5)]
    for _ in range(5 * 3):
        s.apply(bots[s.current_player()].act(s))
    (out / "game_trick.svg").write_text(render_svg(s))
    render_png(s, str(out / "game_trick.png"))
    # Where 2,000 throws at the centre land (medium spin, seat at the bottom).
    m = ThrowModel()
    smp = simulate_throws(m, SEAT, 0.0, 0.0, 3.0, n=2000, seed=3)
    hit = touches_target(m, smp)
    fig, ax = plt.subplots(figsize=(6, 6), dpi=100)
    ax.add_patch(Rectangle((-3.15, -4.4), 6.3, 8.8, fill=False, color="black", lw=2))
    ax.scatter(smp.x[hit], smp.y[hit], s=3, c="#1f77b4", label=f"touch ({hit.mean():.0%})")
    ax.scatter(smp.x[~hit], smp.y[~hit], s=3, c="#d62728", label="miss")
    down = smp.face_down
    ax.scatter(smp.x[down], smp.y[down], s=8, facecolors="none", edgecolors="black",
               linewidths=0.4, label=f"face down ({down.mean():.0%})")
    ax.plot([0], [-30], "k^")
    ax.set_xlim(-20, 20)
    ax.set_ylim(-32, 20)
    ax.set_aspect("equal")
    ax.set_xlabel("x (cm)")
    ax.set_ylabel("y (cm)")
    ax.set_title("2,000 throws aimed at the centre, medium spin, skill 1\n"
                 "(card centres; the thrower sits at the triangle)")
    ax.legend(loc="upper right", fontsize=8)
    fig.savefig(out / "landings.png", bbox_inches="tight")
    plt.close(fig)
    print(f"wrote pictures to {out}")


def main(argv: list[str]) -> None:
    what = argv[0] if argv else "all"
    if what in ("all", "throws"):
        bench_throws()
    if what in ("all", "calibrate"):
        bench_calibration()
    if what in ("all", "actions"):
        bench_actions()
    if what in ("all", "pictures"):
        pictures()
    if what in ("all", "misses"):
        bench_misses(int(argv[1]) if what == "misses" and len(argv) > 1 else 200)
    if what in ("all", "bot"):
        bench_bot(int(argv[1]) if len(argv) > 1 else 1000)


if __name__ == "__main__":
    main(sys.argv[1:])
