"""Run a random policy through a bigtop game's PettingZoo environment loop (trains nothing).

    python examples/pettingzoo_random.py scout --players 3 --seed 7 --option rounds=1

Needs the extra: ``pip install bigtop[pettingzoo]``.
"""

from __future__ import annotations

import argparse

import numpy as np

from bigtop.interop.pettingzoo import env


def run(game: str, players: int | None = None, seed: int = 0, render: bool = False,
        **options: object) -> dict[str, object]:
    """Play one game with uniformly random legal actions; return steps, rewards, scores."""
    e = env(game, players=players, render_mode="human" if render else None, **options)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = {agent: 0.0 for agent in e.possible_agents}
    steps = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _info = e.last()
        rewards[agent] += reward
        if terminated or truncated:
            action = None  # the game is over for this agent
        else:
            legal = np.flatnonzero(observation["action_mask"])
            action = int(rng.choice(legal))
            steps += 1
        e.step(action)
    scores = e.bigtop_state.scores()
    e.close()
    return {"steps": steps, "rewards": rewards, "scores": scores}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--render", action="store_true")
    args = parser.parse_args()
    options = dict(pair.split("=", 1) for pair in args.option)
    print(run(args.game, args.players, args.seed, args.render, **options))


if __name__ == "__main__":
    main()
