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

from bigtop.core.errors import InvalidStateError, UnknownGameError, shown
from bigtop.core.game import Game, State
from bigtop.core.limits import check_state_payload
from bigtop.core.options import OptionInfo, RuleOptions
from bigtop.core.rng import check_seed

if TYPE_CHECKING:
    from bigtop.agents.base import Agent

# name -> module. Each module defines GAME (the Game subclass) and heuristic_agent(game, seat).
_MODULES: dict[str, str] = {
    "scout": "bigtop.games.scout",
    "tricky-landing": "bigtop.games.tricky_landing",
    "so-ein-zirkus": "bigtop.games.zirkus",
    "clown-15-go": "bigtop.games.clown15go",
}


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    min_players: int
    max_players: int
    options: list[OptionInfo]


def game_names() -> list[str]:
    return list(_MODULES)


def get_game(name: str) -> type[Game]:
    """The Game class registered as ``name``."""
    module = _MODULES.get(name)
    if module is None:
        raise UnknownGameError(f"unknown game {shown(name)}; games: {', '.join(_MODULES)}")
    cls: type[Game] = importlib.import_module(module).GAME
    return cls


def heuristic_agent_factory(name: str) -> Callable[[Game, int], Agent]:
    """The game's own heuristic bot maker, ``factory(game, seat) -> Agent``."""
    get_game(name)
    factory: Callable[[Game, int], Agent] = importlib.import_module(_MODULES[name]).heuristic_agent
    return factory


def game_module(name: str) -> ModuleType:
    """The game's package (for optional extras such as ``render_svg``)."""
    get_game(name)
    return importlib.import_module(_MODULES[name])


def list_games() -> list[GameInfo]:
    out = []
    for name in _MODULES:
        cls = get_game(name)
        out.append(GameInfo(name, cls.title, cls.min_players, cls.max_players,
                            cls.options_type.info()))
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
