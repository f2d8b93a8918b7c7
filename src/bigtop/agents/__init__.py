"""Game-agnostic players."""

from bigtop.agents.base import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent"]
