"""What each game provides, declared once (OpenSpiel's ``GameType`` and ``register_game``).

Each game package declares one :class:`Capabilities` record, ``CAPABILITIES`` in its
``__init__.py``, and the registry (:mod:`bigtop.core.registry`) lists the packages by game
name: everything that asks what a game can do (the bot levels, the tensor adapters, the
server, the command line, teaching) reads the record through
:func:`bigtop.core.registry.capabilities` instead of probing the game's modules.

>>> from bigtop.core.registry import capabilities
>>> c = capabilities("so-ein-zirkus")
>>> c.chance, c.hidden_information, c.picture is not None
('chance-nodes', True, True)
>>> sorted(k for k, v in capabilities("scout").provides().items() if not v)
['chance_nodes', 'throws']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from bigtop.core.actions import Action
from bigtop.core.game import Game, State
from bigtop.core.teaching import Teaching
from bigtop.core.tensor import TensorLayout

if TYPE_CHECKING:  # the bots stand above the core; the record only names their makers
    from bigtop.agents.base import Agent
    from bigtop.agents.ismcts import SearchProfile

Chance = Literal["deals", "chance-nodes", "throws"]
"""Where a game's luck lies. ``deals``: only in shuffles drawn from the state's seed (SCOUT,
Clown 15 Go; no chance node); ``chance-nodes``: also in explicit chance outcomes with
probabilities (So ein Zirkus's die, ``chance_outcomes()``); ``throws``: an action's result is
drawn from the seed when it is applied (Tricky Landing's landings), so a log must say what
the luck did once the action is played."""


ActionFeatures = tuple[int, Callable[[State, Sequence[Action]], list[list[float]]]]
"""A game's action features for a learned action policy: how many columns a row has, and
``features(state, legal)``, one row per action of ``legal`` (the mover's legal actions or
some of them) describing it beside the mover's view of the position, reading nothing the
mover cannot see (:class:`bigtop.agents.neural.ActionPolicy`)."""


class Picture(Protocol):
    """A game's pictures of a position as a seat sees it (``games.picture.Pictures``)."""

    def render_svg(self, state: State, player: int | None = None) -> str: ...

    def render_png(self, state: State, path: str, player: int | None = None) -> None: ...


@dataclass(frozen=True)
class Capabilities:
    """One game's declared capabilities: the Game class and everything optional it provides.
    Every game has the integer action encoding (``Game.action_to_int``), JSON states and
    observations; the fields say what differs."""

    name: str
    """The registry name (``"scout"``)."""
    game: type[Game]
    teaching: Teaching
    """The ``teach`` module's functions."""
    heuristic_agent: Callable[[Game, int], Agent]
    """The game's first hand-written bot (``heuristic``), ``factory(game, seat)``."""
    search_profile: Callable[[Game], SearchProfile]
    """How the search levels play it (``medium``; rollouts by the game's bot)."""
    deep_search_profile: Callable[[Game], SearchProfile]
    """The deeper search profile (``hard`` where the game's budget asks for it)."""
    chance: Chance
    easy_agent: Callable[[Game, int], Agent] | None = None
    """The ``easy`` level's bot when it is not the heuristic bot."""
    observation_tensor: Callable[[Game], TensorLayout] | None = None
    """The game's own tensor layout (``layout(game)``); None: the adapters' generic hashed
    encoding of the observation JSON."""
    picture: Picture | None = None
    """SVG and PNG pictures of a position; None: text only."""
    action_features: ActionFeatures | None = None
    """What a learned action policy reads of each legal action (:data:`ActionFeatures`);
    None: the game has no action policy (``bigtop train --teacher`` refuses it)."""
    person_options: tuple[tuple[str, object], ...] = ()
    """Per-player rule options (``option(per_player=True)``) with the value a seat takes when
    a person plays it by hand on the server's table page and the table's creator left that
    option alone: Tricky Landing's ``skill``, since a person's flick is their own precision
    (the engine's release errors then model only the card). Bots keep the option's default.
    """
    seat_results: tuple[str, ...] = ()
    """The fields of ``State.result()`` that hold one value per seat (Clown 15 Go's
    ``cards_left``): the lab's data files give each seat its own column, ``cards_left_P2``.
    Other lists (per round, per player out) stay whole, whatever their length."""

    @property
    def hidden_information(self) -> bool:
        """Whether a player may not see everything, so ``resample_hidden`` redraws something
        (``Game.has_hidden_information``)."""
        return self.game.has_hidden_information

    def provides(self) -> dict[str, bool]:
        """The yes/no capabilities by name, as the game list shows them."""
        return {
            "integer_actions": True,
            "observation_tensor": self.observation_tensor is not None,
            "resample_hidden": self.hidden_information,
            "picture": self.picture is not None,
            "teach": True,
            "easy_bot": self.easy_agent is not None,
            "search_bots": True,
            "chance_nodes": self.chance == "chance-nodes",
            "throws": self.chance == "throws",
        }
