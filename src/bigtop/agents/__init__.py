"""Game-agnostic players."""

from bigtop.agents.base import Agent, RandomAgent
from bigtop.agents.ismcts import ISMCTSAgent

__all__ = ["Agent", "ISMCTSAgent", "RandomAgent"]
