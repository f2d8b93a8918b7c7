"""One factory for every bot: the level ladder ``random < easy < medium < hard`` and the
older agent names, for every game.

``make_bot(name, game, seat, seed)`` is the only way the CLI, the simulation lab and the
server build a bot, so a level means the same player everywhere.

>>> from bigtop.core.registry import new_game
>>> g = new_game("scout", 3)
>>> bot = make_bot("easy", g, seat=1, seed=7)
>>> s = g.new_initial_state(0)
>>> bot.act(s) in s.legal_actions()
True
>>> make_bot("grandmaster", g, 0, 0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bigtop.core.errors.BigtopError: unknown bot 'grandmaster'; bots: random, easy, medium, hard, ...
"""

from __future__ import annotations

from bigtop.agents.base import Agent, RandomAgent
from bigtop.core.errors import BigtopError
from bigtop.core.game import Game
from bigtop.core.registry import heuristic_agent_factory

LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard")
"""The strength ladder, weakest first."""

ALIASES: tuple[str, ...] = ("heuristic", "ismcts")
"""Older agent names kept for scripts: each game's hand-written bot, and plain IS-MCTS."""

BOT_NAMES: tuple[str, ...] = LEVELS + ALIASES


def _heuristic(game: Game, seat: int, seed: int) -> Agent:
    agent = heuristic_agent_factory(game.name)(game, seat)
    reseed = getattr(agent, "reseed", None)
    if callable(reseed):
        reseed(seed)
    return agent


def make_bot(name: str, game: Game, seat: int, seed: int) -> Agent:
    """A bot called ``name`` (a level or an alias) for ``seat`` of ``game``, deterministic
    for ``seed``."""
    if name == "random":
        return RandomAgent(seed)
    if name in ("easy", "heuristic"):
        return _heuristic(game, seat, seed)
    if name in ("medium", "ismcts"):
        from bigtop.agents.ismcts import ISMCTSAgent

        return ISMCTSAgent(seed=seed)
    if name == "hard":
        from bigtop.agents.ismcts import ISMCTSAgent

        return ISMCTSAgent(iterations=1000, seed=seed)
    raise BigtopError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}")
