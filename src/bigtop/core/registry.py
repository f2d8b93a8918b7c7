"""The game registry: create games and states by name, list what exists.

>>> from bigtop.core.registry import new_state, list_games
>>> s = new_state("scout", players=4, seed=3)
>>> s.game.num_players
4
>>> [g.name for g in list_games()][:1]
['scout']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from bigtop.core.capabilities import Capabilities
from bigtop.core.errors import BigtopError, InvalidStateError, UnknownGameError, shown
from bigtop.core.game import Game, State
from bigtop.core.limits import check_state_payload
from bigtop.core.options import OptionInfo, RuleOptions
from bigtop.core.rng import check_seed

if TYPE_CHECKING:
    from bigtop.agents.base import Agent

# name -> package. Each package declares CAPABILITIES, its capability record
# (bigtop.core.capabilities), and GAME, its Game subclass.
_MODULES: dict[str, str] = {
    "scout": "bigtop.games.scout",
    "tricky-landing": "bigtop.games.tricky_landing",
    "so-ein-zirkus": "bigtop.games.zirkus",
    "clown-15-go": "bigtop.games.clown15go",
}


_RECORDS: dict[str, Capabilities] = {}


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    min_players: int
    max_players: int
    options: list[OptionInfo]
    provides: dict[str, bool]
    """What the game provides (:meth:`Capabilities.provides`)."""


def game_names() -> list[str]:
    return list(_MODULES)


def capabilities(name: str) -> Capabilities:
    """What game ``name`` provides: its declared capability record (importing its package
    registers it)."""
    # A name read from JSON may be a list or an object, which a dict lookup cannot hash.
    module = _MODULES.get(name) if isinstance(name, str) else None
    if module is None:
        raise UnknownGameError(f"unknown game {shown(name)}; games: {', '.join(_MODULES)}")
    record = _RECORDS.get(name)
    if record is None:
        record = importlib.import_module(module).CAPABILITIES
        if record.name != name or record.game.name != name:
            raise BigtopError(f"{module} declares the capabilities of {record.name!r}")
        _RECORDS[name] = record
    return record


def get_game(name: str) -> type[Game]:
    """The Game class registered as ``name``."""
    return capabilities(name).game


def heuristic_agent_factory(name: str) -> Callable[[Game, int], Agent]:
    """The game's own heuristic bot maker, ``factory(game, seat) -> Agent``."""
    return capabilities(name).heuristic_agent


def game_module(name: str) -> ModuleType:
    """The game's package (its classes and functions by name; what the game provides is in
    :func:`capabilities`)."""
    capabilities(name)
    return importlib.import_module(_MODULES[name])


def list_games() -> list[GameInfo]:
    out = []
    for name in _MODULES:
        record = capabilities(name)
        cls = record.game
        out.append(GameInfo(name, cls.title, cls.min_players, cls.max_players,
                            cls.options_type.info(), record.provides()))
    return out


def new_game(
    name: str, players: int, options: RuleOptions | Mapping[str, object] | None = None
) -> Game:
    return get_game(name)(players, options)


def new_state(
    name: str, players: int, seed: int = 0,
    options: RuleOptions | Mapping[str, object] | None = None,
) -> State:
    """A fresh state of game ``name``.

    >>> new_state("scout", players=9)
    Traceback (most recent call last):
    ...
    bigtop.core.errors.RuleOptionError: SCOUT takes 2 to 5 players, got 9
    """
    return new_game(name, players, options).new_initial_state(check_seed(seed))


def load_state(data: object) -> State:
    """Load any game's state from its JSON form (validated; the input limits of
    :mod:`bigtop.core.limits` first)."""
    check_state_payload(data)
    if not isinstance(data, dict):
        raise InvalidStateError("a state must be a JSON object")
    name = data.get("game")
    if not isinstance(name, str):
        raise InvalidStateError("a state must name its 'game'")
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidStateError("a state must give 'players' as a whole number")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise InvalidStateError("'options' must be an object")
    game = new_game(name, players, options)
    return game.state_from_json(data)
