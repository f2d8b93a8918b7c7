"""Game-agnostic players."""

from bigtop.agents.base import Agent, RandomAgent, play_game, play_random, random_step
from bigtop.agents.ismcts import ISMCTSAgent

__all__ = ["Agent", "ISMCTSAgent", "RandomAgent", "play_game", "play_random", "random_step"]
