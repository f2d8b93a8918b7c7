"""bigtop games as OpenSpiel Python games (``pip install bigtop[openspiel]``).

Importing this module registers every registered bigtop game with OpenSpiel as
``bigtop_<name>`` (dashes become underscores): ``bigtop_scout``, ``bigtop_clown_15_go``,
``bigtop_so_ein_zirkus``, ``bigtop_tricky_landing``. Games that are added to the bigtop
registry later can be registered with :func:`register_all` (or :func:`register`).

Game parameters: ``players`` (OpenSpiel's usual name), every rule option of the game under
its own name, and two that model bigtop's seed:

* ``seed`` (default -1). bigtop engines deal and shuffle from the state's seed instead of
  chance nodes. With ``seed=-1`` the OpenSpiel game therefore starts with one explicit
  **chance node that draws the seed** uniformly from ``0 .. num_seeds-1``; everything random
  that the engine derives from the seed follows from that outcome, so the OpenSpiel history
  (chance outcome + actions) determines the state, as OpenSpiel expects of an
  EXPLICIT_STOCHASTIC game. With ``seed=S >= 0`` there is no such node and the game is the
  bigtop game from seed S (used to replay a bigtop game exactly).
* ``num_seeds`` (default 65536): how many seeds that first chance node chooses from.

Chance nodes of the game itself (So ein Zirkus's die) are OpenSpiel chance nodes with the
engine's probabilities. Action ids are the game's fixed integer encoding
(:meth:`~bigtop.core.game.Game.action_to_int`); chance outcomes of the game use the same
ids, the seed node uses the seed itself.

Returns are the zero-sum ranking returns of :mod:`bigtop.interop.common` (utility
ZERO_SUM, in [-1, 1]), paid at the end (reward model TERMINAL).

>>> import pyspiel
>>> import bigtop.interop.openspiel
>>> game = pyspiel.load_game("bigtop_scout", {"players": 3, "rounds": 1, "seed": 7})
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions()) > 0
(0, True)
>>> state.bigtop_state().seed
7
"""

from __future__ import annotations

import json
import random
from bisect import bisect_left
from collections.abc import Callable
from operator import is_
from typing import Any

import numpy as np

from bigtop.core.actions import Action
from bigtop.core.errors import RuleOptionError, shown
from bigtop.core.extras import require_extra
from bigtop.core.game import Game, State
from bigtop.core.registry import game_names, get_game, load_state
from bigtop.interop.common import (
    GAMES,
    action_numbers,
    compact_json,
    openspiel_name,
    state_returns,
)
from bigtop.interop.tensors import FloatArray, TensorLayout, layout_for

require_extra("openspiel", what="bigtop.interop.openspiel")
import pyspiel  # noqa: E402  (after the check: a missing extra is one line)

#: Upper bound on player decisions that OpenSpiel is told (``max_game_length``); bigtop
#: games have no fixed bound, this is far beyond any real play.
MAX_GAME_LENGTH = 100_000
DEFAULT_NUM_SEEDS = 1 << 16
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_UNIFORM_CHANCE = State.chance_outcomes
_EXTRA_PARAMS = ("players", "seed", "num_seeds")
#: A rule option that takes one value per player (Tricky Landing's ``skill``) has a second
#: parameter, its name with this suffix, holding the values separated by ``;``.
PER_PLAYER_SUFFIX = "_per_player"

#: OpenSpiel names registered so far, by bigtop name.
REGISTERED: dict[str, str] = {}
#: The issue's games that could not be registered, with the reason.
SKIPPED: dict[str, str] = {}


class _ChanceMemo:
    """The last uniform chance node's outcome objects and their numbers, shared by the states
    of one game (a cache: the lists are never modified)."""

    __slots__ = ("chance", "legal", "outcomes")

    def __init__(self) -> None:
        self.outcomes: list[Action] = []
        self.legal: list[int] = []
        self.chance: list[tuple[int, float]] = []


class _Holder:
    """The bigtop state inside an OpenSpiel state, with each player's own actions so far.

    OpenSpiel clones a Python state by deep-copying its attributes and serializes it by
    pickling them; this holder makes the first a fast ``clone()`` and the second the state's
    exact bigtop JSON. It also keeps what the state's methods answer from, so that a step of
    a loop asks the engine each thing once (OpenSpiel's ``apply_action`` alone calls back
    into Python twice a step, a fixed cost: see docs/benchmarks.md):

    * ``to_act``: the player to act (bigtop's CHANCE and TERMINAL are OpenSpiel's numbers),
      set after every move;
    * ``legal``: the sorted numbers of the position's legal actions, at a chance node of its
      outcomes; ``chance``: the chance node's (outcome number, probability) pairs. Built on
      the first request, dropped by the next move, shared by clones (these lists are never
      modified, only replaced, and callers get copies). A listed number is applied without
      the engine's second look-up; anything else goes through the engine's check;
    * ``actions``: the game's action table (number -> the object the legal lists hold).
    """

    __slots__ = ("actions", "chance", "legal", "memo", "own", "state", "to_act")

    def __init__(self, state: State, own: list[list[int]],
                 memo: _ChanceMemo | None = None) -> None:
        self.state = state
        self.own = own
        self.to_act: int = state.current_player()
        self.actions: list[Action] = state.game.action_table.actions
        self.legal: list[int] | None = None
        self.chance: list[tuple[int, float]] | None = None
        self.memo = _ChanceMemo() if memo is None else memo

    def legal_numbers(self) -> list[int]:
        """The sorted numbers of the legal actions, of the outcomes at a chance node, none
        when terminal (cached until the next move; never hand this list out)."""
        legal = self.legal
        if legal is None:
            if self.to_act == _CHANCE:
                legal = self._chance_lists()[0]
            else:
                legal = self.legal = self.state.legal_action_numbers()
        return legal

    def chance_numbers(self) -> list[tuple[int, float]]:
        """The sorted (outcome number, probability) pairs of the chance node (cached until
        the next move, like :meth:`legal_numbers`; off a chance node the engine's error)."""
        chance = self.chance
        if chance is None:
            chance = self._chance_lists()[1]
        return chance

    def _chance_lists(self) -> tuple[list[int], list[tuple[int, float]]]:
        state = self.state
        if self.to_act == _CHANCE and type(state).chance_outcomes is _UNIFORM_CHANCE:
            # The core's outcomes: the legal list, 1/n each. Chance nodes repeat their lists
            # (a die's six faces): the same objects as last time give the same numbers.
            outcomes = state.legal_actions()
            memo = self.memo
            if len(outcomes) == len(memo.outcomes) and all(map(is_, outcomes, memo.outcomes)):
                legal, chance = memo.legal, memo.chance
            else:
                legal = state.legal_action_numbers()
                p = 1.0 / len(legal)  # State.chance_outcomes's own float
                chance = [(a, p) for a in legal]
                memo.outcomes, memo.legal, memo.chance = list(outcomes), legal, chance
        else:  # a game's own probabilities
            weighted = state.chance_outcomes()
            numbers = action_numbers(state.game, [a for a, _ in weighted])
            chance = sorted(zip(numbers, (p for _, p in weighted), strict=True))
            legal = [a for a, _ in chance]
        self.legal, self.chance = legal, chance
        return legal, chance

    def __deepcopy__(self, memo: dict[int, object]) -> _Holder:
        new: _Holder = _Holder.__new__(_Holder)
        new.state = self.state.clone()
        new.own = [list(a) for a in self.own]
        new.to_act = self.to_act
        new.actions = self.actions
        new.legal = self.legal
        new.chance = self.chance
        new.memo = self.memo
        return new

    def __reduce__(self) -> tuple[Any, tuple[str, list[list[int]]]]:
        return (_holder_from_json, (json.dumps(self.state.to_json()), self.own))


def _holder_from_json(text: str, own: list[list[int]]) -> _Holder:
    return _Holder(load_state(json.loads(text)), [list(a) for a in own])


# -- the game -------------------------------------------------------------------------------


def _game_type(cls: type[Game]) -> Any:
    params: dict[str, object] = {"players": max(2, cls.min_players)}
    for info in cls.options_type.info():
        if info.name in _EXTRA_PARAMS:
            raise ValueError(f"{cls.name}: rule option {info.name!r} clashes with an adapter "
                             "parameter")
        params[info.name] = info.default
        if info.per_player:
            # OpenSpiel parameters are scalars: one value per player comes as a string.
            params[info.name + PER_PLAYER_SUFFIX] = ""
    params["seed"] = -1
    params["num_seeds"] = DEFAULT_NUM_SEEDS
    information = (pyspiel.GameType.Information.IMPERFECT_INFORMATION
                   if cls.has_hidden_information
                   else pyspiel.GameType.Information.PERFECT_INFORMATION)
    return pyspiel.GameType(
        short_name=openspiel_name(cls.name),
        long_name=f"bigtop {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class BigtopOpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game wrapping one bigtop game configuration (see the module doc)."""

    bigtop_class: type[Game]
    game_type: Any

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec: dict[str, Any] = dict(self.game_type.parameter_specification)
        for key in params:
            if key not in spec:
                raise ValueError(f"{self.game_type.short_name} has no parameter {key!r}; "
                                 f"parameters: {', '.join(sorted(spec))}")
        full: dict[str, Any] = {k: params.get(k, default) for k, default in spec.items()}
        options = {k: v for k, v in full.items()
                   if k not in _EXTRA_PARAMS and not k.endswith(PER_PLAYER_SUFFIX)}
        for key in spec:
            if key.endswith(PER_PLAYER_SUFFIX) and full[key] != "":
                name = key.removesuffix(PER_PLAYER_SUFFIX)
                if full[name] != spec[name]:  # (OpenSpiel passes every parameter)
                    raise RuleOptionError(f"give {name} or {key}, not both")
                # bigtop's own option parser reads "0.7,1,1.3"; ';' keeps the game string's
                # commas for separating parameters.
                options[name] = str(full[key]).replace(";", ",")
        players = int(full["players"])
        self.bigtop_game: Game = self.bigtop_class(players, options)
        self.seed = int(full["seed"])
        self.num_seeds = int(full["num_seeds"])
        if self.num_seeds < 1:
            raise ValueError("num_seeds must be at least 1")
        nda = self.bigtop_game.num_distinct_actions()
        self._seed_outcomes: list[tuple[int, float]] | None = None
        self.chance_memo = _ChanceMemo()
        self.layout: TensorLayout = layout_for(self.bigtop_game)
        self._initial: State | None = (
            None if self.seed < 0 else self.bigtop_game.new_initial_state(self.seed))
        info = pyspiel.GameInfo(
            num_distinct_actions=nda,
            max_chance_outcomes=max(nda, self.num_seeds if self.seed < 0 else 0),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(self.game_type, info, full)

    def new_initial_state(self) -> BigtopOpenSpielState:
        return BigtopOpenSpielState(self)

    def __reduce__(self) -> tuple[Callable[[str], Any], tuple[str]]:
        # The game classes are made per bigtop game at run time; pickle by game string.
        return (_load_game_string, (str(self),))

    def seed_outcomes(self) -> list[tuple[int, float]]:
        """The seed node's outcomes: every seed, uniformly (built once per game; never hand
        this list out: callers get copies)."""
        if self._seed_outcomes is None:
            n = self.num_seeds
            self._seed_outcomes = [(s, 1.0 / n) for s in range(n)]
        return self._seed_outcomes

    def initial_bigtop_state(self) -> State | None:
        """The bigtop state a fresh OpenSpiel state starts from (None: the seed is drawn at a
        chance node first)."""
        return None if self._initial is None else self._initial.clone()

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> BigtopObserver:
        if isinstance(iig_obs_type, dict):  # called as make_py_observer(params)
            iig_obs_type, params = None, iig_obs_type
        return BigtopObserver(self, iig_obs_type, params)


def _load_game_string(text: str) -> Any:
    return pyspiel.load_game(text)


# -- the state ------------------------------------------------------------------------------


class BigtopOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state holding a bigtop state (``bigtop_state()``)."""

    def __init__(self, game: BigtopOpenSpielGame) -> None:
        super().__init__(game)
        initial = game.initial_bigtop_state()
        self._bt: _Holder | None = None
        if initial is not None:
            self._bt = _Holder(initial, [[] for _ in range(game.num_players())],
                               game.chance_memo)
        self._resample_count = 0

    # -- access ------------------------------------------------------------------------------
    def bigtop_state(self) -> State:
        """The wrapped bigtop state (raises before the seed is drawn). It is the live
        state, for reading: moves go through ``apply_action``, which also keeps OpenSpiel's
        history and the adapter's per-position answers."""
        if self._bt is None:
            raise ValueError("the seed has not been drawn yet (chance node)")
        return self._bt.state

    def _game(self) -> BigtopOpenSpielGame:
        game: BigtopOpenSpielGame = self.get_game()
        return game

    # -- OpenSpiel protocol ------------------------------------------------------------------
    def current_player(self) -> int:
        holder = self._bt
        return _CHANCE if holder is None else holder.to_act

    def _legal_actions(self, player: int) -> list[int]:
        holder = self._bt
        if holder is None or player != holder.to_act:
            return []
        return holder.legal_numbers()[:]

    # The next three shadow pyspiel's C++ methods of the same names for Python callers. The
    # C++ versions call back into Python for every question (``legal_actions()`` asks
    # ``current_player`` three times, ``is_terminal`` once and ``_legal_actions`` once, and
    # converts the list to a C++ vector and back); these answer from the holder directly,
    # with the same results. C++ callers (``random_sim_test``, the C++ algorithms) still go
    # through the C++ methods, which call the ``_``-methods above.
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The sorted legal action numbers of ``player`` (default: the player to act), as
        OpenSpiel's ``LegalActions``: empty when terminal; at a chance node the outcomes'
        numbers whoever asks; empty when it is not ``player``'s turn."""
        holder = self._bt
        if holder is None:
            return list(range(self._game().num_seeds))  # the seeds, in order
        if player is not None and player != holder.to_act and holder.to_act >= 0:
            if player < 0:
                raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
            return []
        return holder.legal_numbers()[:]  # terminal: the engine lists nothing

    def is_chance_node(self) -> bool:
        holder = self._bt
        return holder is None or holder.to_act == _CHANCE

    def is_player_node(self) -> bool:
        holder = self._bt
        return holder is not None and holder.to_act >= 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        holder = self._bt
        if holder is None:
            return self._game().seed_outcomes()[:]
        return holder.chance_numbers()[:]

    def _apply_action(self, action: int) -> None:
        # Called by OpenSpiel's C++ ApplyAction (which keeps the history) with a Python int.
        holder = self._bt
        if holder is None:
            game = self._game()
            if not 0 <= action < game.num_seeds:
                raise ValueError(f"seed outcome {action} is not in 0..{game.num_seeds - 1}")
            self._bt = _Holder(game.bigtop_game.new_initial_state(int(action)),
                               [[] for _ in range(game.num_players())], game.chance_memo)
            return
        state = holder.state
        player = holder.to_act
        legal = holder.legal
        if legal is not None and (i := bisect_left(legal, action)) < len(legal) \
                and legal[i] == action:
            # The usual case: the caller picked from legal_actions() or chance_outcomes()
            # (the list is sorted). The table's object is then legal: skip the engine's
            # second look-up.
            state.apply_listed(holder.actions[action])
        else:
            # Raises MalformedActionError / IllegalActionError (ValueErrors), changing
            # nothing.
            state.apply_int(action)
        holder.legal = holder.chance = None
        holder.to_act = state.current_player()
        if player >= 0:
            holder.own[player].append(action)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._game()
        if player == pyspiel.PlayerId.CHANCE and (
                self._bt is None or action >= game.bigtop_game.num_distinct_actions()):
            return f"seed {action}"
        try:
            return compact_json(game.bigtop_game.action_from_int(int(action)).to_json())
        except (IndexError, ValueError):
            return f"action {action}"

    def is_terminal(self) -> bool:
        holder = self._bt
        return holder is not None and holder.to_act == _TERMINAL

    def returns(self) -> list[float]:
        if self._bt is None:
            return [0.0] * self._game().num_players()
        return state_returns(self._bt.state)

    def __str__(self) -> str:
        # The whole bigtop state but its history (OpenSpiel keeps that), which would make
        # every call cost as much as the game is long.
        if self._bt is None:
            return "chance: drawing the seed"
        return compact_json(self._bt.state.to_json(with_history=False))

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float] | None = None
                                ) -> BigtopOpenSpielState:
        """A state the player cannot tell apart from this one (for IS-MCTS): bigtop's
        ``resample_hidden`` redraws everything the player cannot see, including the seed
        that drives future chance. The other players' action records (part of their
        information states) are dropped, since they might reveal their hidden cards."""
        new: BigtopOpenSpielState = self.clone()
        if self._bt is None:
            return new
        self._resample_count += 1
        u = probability_sampler() if probability_sampler is not None else random.random()
        seed = (int(u * 2**53) * 1_000_003 + self._resample_count) % 2**63
        own = [list(a) if q == player_id else [] for q, a in enumerate(self._bt.own)]
        new._bt = _Holder(self._bt.state.resample_hidden(player_id, seed), own, self._bt.memo)
        return new


def seeded_resampler(seed: int) -> Callable[[BigtopOpenSpielState, int], BigtopOpenSpielState]:
    """A reproducible resampler for ``ismcts.ISMCTSBot.set_resampler`` (the default one draws
    from an unseeded generator)."""
    rng = random.Random(seed)

    def resample(state: BigtopOpenSpielState, player: int) -> BigtopOpenSpielState:
        return state.resample_from_infostate(player, rng.random)

    return resample


# -- observations ---------------------------------------------------------------------------


class BigtopObserver:
    """OpenSpiel's Python observer: strings and tensors of one player's view.

    * observation (``perfect_recall=False``): the game's tensor layout
      (:mod:`bigtop.interop.tensors`) of ``state.observation(player)``; the string is that
      observation as compact JSON.
    * information state (``perfect_recall=True``): the same pieces plus ``last_action``, a
      one-hot (``num_distinct_actions``) of the player's own latest action; the string is the
      observation JSON followed by the list of all the player's own actions so far.

    Only the single-player private view with public information is provided (the two kinds
    OpenSpiel uses for ObservationTensor and InformationStateTensor).
    """

    def __init__(self, game: BigtopOpenSpielGame, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("bigtop observers give one player's view with public "
                             "information (private_info=SINGLE_PLAYER, public_info=True)")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.layout = game.layout
        pieces = list(self.layout.pieces())
        if self.perfect_recall:
            pieces.append(("last_action", (game.num_distinct_actions(),)))
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor: FloatArray = np.zeros(size, np.float32)
        self.dict: dict[str, FloatArray] = {}
        i = 0
        for name, shape in pieces:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[i:i + n].reshape(shape)
            i += n

    def set_from(self, state: BigtopOpenSpielState, player: int) -> None:
        self.tensor.fill(0.0)
        if state._bt is None:
            return
        self.layout.fill(state._bt.state, player, self.dict)
        own = state._bt.own[player]
        if self.perfect_recall and own:
            self.dict["last_action"][own[-1]] = 1.0

    def string_from(self, state: BigtopOpenSpielState, player: int) -> str:
        if state._bt is None:
            return "chance: drawing the seed"
        text = compact_json(state._bt.state.observation(player))
        if self.perfect_recall:
            return f"{text} own actions: {list(state._bt.own[player])}"
        return text


# -- registration ---------------------------------------------------------------------------


def register(name: str) -> str:
    """Register the bigtop game ``name`` with OpenSpiel (idempotent); returns its OpenSpiel
    name."""
    cls = get_game(name)  # first: it refuses a name that is no string (unhashable here)
    if name in REGISTERED:
        return REGISTERED[name]
    short = openspiel_name(name)
    game_type = _game_type(cls)
    game_cls = type(f"Bigtop{cls.__name__}OpenSpiel", (BigtopOpenSpielGame,),
                    {"bigtop_class": cls, "game_type": game_type})
    if short not in pyspiel.registered_names():
        pyspiel.register_game(game_type, game_cls)
    REGISTERED[name] = short
    SKIPPED.pop(name, None)
    return short


def register_all() -> dict[str, str]:
    """Register every game in the bigtop registry; note which of the issue's four games are
    missing (in :data:`SKIPPED`). Returns :data:`REGISTERED`."""
    names = game_names()
    for name in names:
        register(name)
    for name in GAMES:
        if name not in names:
            SKIPPED[name] = f"{name!r} is not in the bigtop registry (yet); not registered"
    return REGISTERED


def load(name: str, players: int | None = None, **params: object) -> Any:
    """``pyspiel.load_game`` for a bigtop game by its bigtop name, registering it if needed.

    >>> game = load("scout", players=2, rounds=1)
    >>> game.num_players(), game.get_type().short_name
    (2, 'bigtop_scout')
    """
    short = register(name)
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(short, {k: _parameter(k, v) for k, v in params.items()})


_INT64 = 2**63
"""OpenSpiel's integer parameters are C++ 64-bit integers."""


def _parameter(key: str, value: object) -> object:
    """``value`` as a game parameter pyspiel's binding takes: a numpy integer as an int; a
    value no game string can hold (None, a list, an integer beyond 64 bits), which the
    binding would fail on with a TypeError or a RuntimeError, is refused here. A value of
    the wrong one of the allowed kinds is left to OpenSpiel's own check (a SpielError)."""
    if isinstance(value, np.integer):
        value = int(value)
    elif isinstance(value, np.floating):
        value = float(value)
    if isinstance(value, int) and not isinstance(value, bool) and not (
            -_INT64 <= value < _INT64):
        raise RuleOptionError(f"parameter {key!r} is beyond a 64-bit integer: {shown(value)}")
    if not isinstance(value, bool | int | float | str):
        raise RuleOptionError(f"parameter {key!r} must be a number, a string or a bool, got "
                              f"{shown(value)}")
    return value


register_all()
