"""What the others' hands look like in SCOUT, against the determinizations a seat draws
(docs/bots.md#the-others-hands-believed-eighth-round).

Single four-player rounds of one bot in every seat; at each of seat 0's turns, every pair of
neighbouring cards in another hand with at least one of them hidden from seat 0 (``KU``: a
known, scouted-in card beside a hidden one; ``UU``: two hidden cards), counted by how far
apart their numbers are (equal, one apart, further) in the true hands and in ``--draws``
determinizations for seat 0 (``even``: ``state.resample_hidden``; ``believed``:
``games/scout/bot.py``'s ``resample_believed``)::

    .venv/bin/python bench/scout_neighbours.py medium --rounds 150 --draw even
    .venv/bin/python bench/scout_neighbours.py planning-player --rounds 150 --draw even
    .venv/bin/python bench/scout_neighbours.py medium --rounds 60 --draw believed
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from bigtop.core.game import State
from bigtop.core.registry import new_game
from bigtop.games.scout.bot import resample_believed
from bigtop.games.scout.rules import ScoutState

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_bots import bot

KINDS = ("equal", "one apart", "further")


def _pairs(counts: defaultdict[tuple[str, str], float], state: ScoutState,
           known: list[list[bool]], weight: float) -> None:
    for q in range(1, len(state.hands)):
        hand, seen = state.hands[q], known[q]
        for i in range(len(hand) - 1):
            if seen[i] and seen[i + 1]:
                continue
            d = abs(hand[i][0] - hand[i + 1][0])
            kind = "KU" if seen[i] or seen[i + 1] else "UU"
            counts[kind, KINDS[min(d, 2)]] += weight


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bot", help="the bot in every seat (bench_bots.py's names)")
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--draws", type=int, default=10)
    ap.add_argument("--draw", choices=("even", "believed"), default="even")
    ap.add_argument("--seed", type=int, default=5000)
    args = ap.parse_args(argv)
    game = new_game("scout", 4, {"rounds": 1})
    true: defaultdict[tuple[str, str], float] = defaultdict(float)
    drawn: defaultdict[tuple[str, str], float] = defaultdict(float)
    for r in range(args.rounds):
        state = game.new_initial_state(args.seed + r)
        bots = [bot(args.bot, game, q, args.seed + 4 * r + q) for q in range(4)]
        while not state.is_terminal():
            assert isinstance(state, ScoutState)
            if state.current_player() == 0 and state.phase == "turn":
                _pairs(true, state, state.known, 1.0)
                for k in range(args.draws):
                    d: State = (resample_believed(state, 0, k) if args.draw == "believed"
                                else state.resample_hidden(0, k))
                    assert isinstance(d, ScoutState)
                    _pairs(drawn, d, state.known, 1 / args.draws)
            state.apply(bots[state.current_player()].act(state))
    print(f"{args.bot}, {args.rounds} rounds, {args.draw} draws: true / drawn (ratio)")
    for kind in ("KU", "UU"):
        t = sum(v for (k, _), v in true.items() if k == kind)
        u = sum(v for (k, _), v in drawn.items() if k == kind)
        cells = [f"{x} {true[kind, x] / t:.3f} / {drawn[kind, x] / u:.3f} "
                 f"({true[kind, x] / t / (drawn[kind, x] / u):.2f})" for x in KINDS]
        print(f"{kind} {int(t):,} pairs: " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
