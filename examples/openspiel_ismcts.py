"""OpenSpiel's Python IS-MCTS bot (seat 0) against random players in a bigtop game.

    python examples/openspiel_ismcts.py scout --players 3 --simulations 50 --param rounds=1

Needs the extra: ``pip install bigtop[openspiel]``.
"""

from __future__ import annotations

import argparse

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from bigtop.interop import openspiel as bos


def run(game_name: str, players: int | None = None, simulations: int = 50, seed: int = 0,
        **params: object) -> list[float]:
    """Play one game; return OpenSpiel's returns (zero-sum, from the final ranking)."""
    game = bos.load(game_name, players=players, **params)
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                           random_state=rs, allow_inconsistent_action_sets=True)
    bot.set_resampler(bos.seeded_resampler(seed))  # reproducible world samples
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    returns: list[float] = state.returns()
    return returns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    params: dict[str, object] = {}
    for pair in args.param:
        key, value = pair.split("=", 1)
        params[key] = int(value) if value.lstrip("-").isdigit() else value
    print(run(args.game, args.players, args.simulations, args.seed, **params))


if __name__ == "__main__":
    main()
