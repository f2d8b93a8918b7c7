"""The Game/State protocol every engine implements (OpenSpiel's split, python-chess's care).

A :class:`Game` is an immutable configuration: which game, how many players, which rule options.
A :class:`State` is one position of a play of that game. It is mutable (``apply`` changes it in
place; ``clone`` copies it) and pure: no I/O, and every random event is derived from the state's
``seed`` and the number of actions applied so far (see :mod:`bigtop.core.rng`).

Players are numbered ``0 .. num_players-1`` clockwise. ``current_player()`` is a player, or
:data:`CHANCE` when the next action is a chance outcome (a die roll), or :data:`TERMINAL`.
"""

from __future__ import annotations

import abc
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, cast

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

from bigtop.core.actions import Action, ActionTable, action_from_json, typed_text
from bigtop.core.errors import (
    BigtopError,
    IllegalActionError,
    InvalidStateError,
    MalformedActionError,
    RuleOptionError,
    inconsistent,
    shown,
)
from bigtop.core.limits import check_state_payload
from bigtop.core.options import RuleOptions
from bigtop.core.rng import chance_uniform, check_seed, derive_seed

# Final: compiled modules inline them (a plain module constant is a dict look-up per use).
CHANCE: Final = -1
TERMINAL: Final = -4

JSON = dict[str, Any]


_Outcome = TypeVar("_Outcome")


def pick_outcome(outcomes: Sequence[tuple[_Outcome, float]], r: float) -> _Outcome:
    """The outcome a uniform draw ``r`` in [0, 1) selects from ``(outcome, probability)``
    pairs (the last one if rounding leaves the probabilities short of 1).

    >>> pick_outcome([("a", 0.5), ("b", 0.5)], 0.7)
    'b'
    """
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if r < acc:
            return outcome
    return outcomes[-1][0]


_O = TypeVar("_O", bound=RuleOptions, default=RuleOptions, covariant=True)
_G = TypeVar("_G", bound="Game", default="Game", covariant=True)


def _own_abc_caches(cls: type) -> None:
    """Give ``cls`` the ABC bookkeeping of its own that ``ABCMeta.__new__`` makes for every
    class it creates. mypyc creates its classes without it, so every compiled ABC (Game,
    State, each compiled game's classes) used ``abc.ABC``'s one ``_abc_impl``: one shared
    isinstance cache. Once ``isinstance(zirkus_state, Game)`` had cached ZirkusState as no
    instance, ``isinstance(zirkus_state, State)`` answered False too (a take-back was refused
    with "start must be a State"); a bot's ``isinstance(state, ScoutState)`` did the same.
    Interpreted classes (and the pure build) have their own already."""
    # CPython's own ABCMeta step; absent where abc falls back to _py_abc, whose classes
    # (and so no compiled ones) keep their caches in attributes of their own anyway.
    init = getattr(abc, "_abc_init", None)
    if init is not None and "_abc_impl" not in vars(cls):
        init(cls)


STATE_FIELDS: Final = ("game", "players", "options", "seed", "position", "history")
"""The fields of a state's JSON form (:meth:`State.to_json`); a loader refuses any other."""


# The type parameters let a game say its options' type (``Game[ScoutOptions]``) and a state
# its game's (``State[ScoutGame]``) without re-declaring the attribute, which a compiled
# (mypyc) class may not do. Games defined outside the compiled modules subclass them too.
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC, Generic[_O]):
    """One game under one configuration (player count and rule options)."""

    name: ClassVar[str]
    """Registry name, e.g. ``"scout"``."""
    title: ClassVar[str]
    """Printed name, e.g. ``"SCOUT"``."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: ClassVar[type[RuleOptions]]
    action_types: ClassVar[tuple[type[Action], ...]]
    has_hidden_information: ClassVar[bool] = True
    """False only for games where every player sees everything (no resampling to test)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _own_abc_caches(cls)  # a compiled game's class too (see there)

    @classmethod
    def conformance_options(cls, num_players: int) -> list[dict[str, object]]:
        """Option combinations the conformance harness plays for this player count: the
        defaults plus every option's alternatives (in combination where the game allows)."""
        return [{}]

    # Parameters that come from users are typed ``object`` where the method checks them
    # itself: a compiled method would refuse another type with a bare TypeError first.
    def __init__(
        self, num_players: object, options: RuleOptions | Mapping[str, object] | None = None
    ) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not (
            self.min_players <= num_players <= self.max_players
        ):
            raise RuleOptionError(
                f"{self.title} takes {self.min_players} to {self.max_players} players, "
                f"got {shown(num_players)}"
            )
        if options is None or isinstance(options, Mapping):
            options = self.options_type.from_mapping(options)
        elif not isinstance(options, self.options_type):
            raise RuleOptionError(f"{self.title} options must be {self.options_type.__name__}")
        options.validate_for(num_players)
        self.num_players = num_players
        self.options: _O = cast("_O", options)

    @classmethod
    def command_line_options(cls, values: dict[str, str]) -> dict[str, object]:
        """Rule options as typed on a command line (``KEY=VALUE`` strings), made ready for
        :meth:`__init__`: the one place a game may read a file the user named (So ein Zirkus
        ``board=FILE.json`` is read and embedded). Option values in states and messages never
        name files. By default the values pass unchanged."""
        return dict(values)

    def notes(self) -> list[str]:
        """What a player should know about this configuration before playing (e.g. a
        ruling's consequence); printed by ``bigtop play``. Empty by default."""
        return []

    # -- states -------------------------------------------------------------------------
    def new_initial_state(self, seed: object = 0) -> State:
        """The position before the first action, from a seed (``0..2**63-1``; anything else
        is a BigtopError: a seed of -1, None or "x" used to make a state whose JSON would
        not load)."""
        return self._new_initial_state(check_seed(seed))

    @abstractmethod
    def _new_initial_state(self, seed: int) -> State:
        """The game's opening position for a checked seed."""

    @abstractmethod
    def _state_from_position(self, position: JSON, seed: int) -> State:
        """Build and validate a state from the game-specific part of its JSON.
        Raise InvalidStateError (or any BigtopError) for an inconsistent position."""

    def state_from_json(self, data: object) -> State:
        """Load a state from its JSON form, validating everything. The envelope must name this
        game, player count and options. The input limits (:mod:`bigtop.core.limits`) are
        checked first; a live position without a legal action, or one that fails ``audit()``,
        is refused."""
        check_state_payload(data)
        assert isinstance(data, dict)
        unknown = sorted(shown(k) for k in data if k not in STATE_FIELDS)
        if unknown:
            raise InvalidStateError(
                f"unknown state field{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
                f"(a state has {', '.join(STATE_FIELDS)})")
        if data.get("game") != self.name:
            raise InvalidStateError(
                f"state is for game {shown(data.get('game'))}, not {self.name!r}")
        if data.get("players") != self.num_players:
            raise InvalidStateError(
                f"state is for {shown(data.get('players'))} players, not {self.num_players}"
            )
        opts = data.get("options", {})
        if not isinstance(opts, dict):
            raise InvalidStateError("'options' must be an object")
        if self.options_type.from_mapping(opts) != self.options:
            raise InvalidStateError("state options differ from the game's options")
        try:
            seed = check_seed(data.get("seed"))
        except BigtopError as e:
            raise InvalidStateError(str(e)) from None
        position = data.get("position")
        if not isinstance(position, dict):
            raise InvalidStateError("'position' must be an object")
        history = data.get("history", [])
        if not isinstance(history, list):
            raise InvalidStateError("'history' must be a list of actions")
        try:
            actions = [self.action_from_json(a) for a in history]
        except BigtopError as e:
            raise InvalidStateError(f"bad action in the history: {e}") from None
        try:
            state = self._state_from_position(position, seed)
            # A live position must offer a move (else nobody can ever play on), and the
            # position must pass the engine's own invariant checks.
            if not state.is_terminal() and not state.legal_actions():
                raise InvalidStateError(
                    f"the position is not over but player {state.current_player()} has no "
                    f"legal action")
            state.audit()
        except InvalidStateError:
            raise
        except (BigtopError, KeyError, TypeError, IndexError, AttributeError, ValueError,
                OverflowError) as e:
            raise InvalidStateError(f"bad {self.name} position: {e}") from None
        state.history = actions
        return state

    def to_json(self) -> JSON:
        return {"game": self.name, "players": self.num_players, "options": self.options.to_json()}

    # -- actions ------------------------------------------------------------------------
    def action_from_json(self, obj: object) -> Action:
        return action_from_json(obj, self.action_types)

    # Set by each game's __init__: every action it can list, interned, in a fixed order.
    action_table: ActionTable

    def num_distinct_actions(self) -> int:
        """Size of the fixed integer encoding of actions (for this player count/options)."""
        return len(self.action_table)

    def action_to_int(self, action: Action) -> int:
        return self.action_table.to_int(action)

    def action_from_int(self, index: object) -> Action:
        """The action numbered ``index`` (a Python or numpy integer); MalformedActionError if
        there is none."""
        return self.action_table.from_int(index)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled (and deep-copied) as what makes it: its class, players and options. The
        default way makes the object without calling ``__init__``, which a compiled class
        cannot (mypyc builds its instances only through the constructor).

        >>> import copy, pickle
        >>> from bigtop import new_game
        >>> g = new_game("scout", 3)
        >>> pickle.loads(pickle.dumps(g)) == g == copy.deepcopy(g)
        True
        """
        return (type(self), (self.num_players, self.options))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Game) and self.name == other.name
                and self.num_players == other.num_players and self.options == other.options)

    def __hash__(self) -> int:
        return hash((self.name, self.num_players, self.options))

    def __repr__(self) -> str:
        changed = self.options.changed()
        extra = f", {changed}" if changed else ""
        return f"<{type(self).__name__} {self.num_players} players{extra}>"


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC, Generic[_G]):
    """One position. Subclasses implement the underscore methods and the observation."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _own_abc_caches(cls)  # a compiled game's class too (see there)

    def __init__(self, game: _G, seed: int) -> None:
        self.game: _G = game
        self.seed = seed
        self.history: list[Action] = []
        self._legal: list[Action] | None = None

    # -- whose turn -------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """A player index, :data:`CHANCE` or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance(self) -> bool:
        return self.current_player() == CHANCE

    # -- actions ------------------------------------------------------------------------
    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Every legal action (or chance outcome) now; never empty in a live state."""

    def legal_actions(self) -> list[Action]:
        """Legal actions of the player to act (chance outcomes at a chance node), in a fixed
        order. Empty only when the state is terminal. The list must not be modified."""
        if self._legal is None:
            self._legal = [] if self.is_terminal() else self._legal_actions()
        return self._legal

    def legal_action_numbers(self) -> list[int]:
        """The action numbers (:meth:`Game.action_to_int`) of :meth:`legal_actions`,
        ascending: what interfaces with integer actions list (OpenSpiel's legal actions,
        PettingZoo's action mask). A fresh list, the caller's to keep. Games whose lists
        follow the table's order may build it faster.

        >>> from bigtop import new_state
        >>> s = new_state("scout", players=3, seed=1)
        >>> s.legal_action_numbers() == sorted(map(s.game.action_to_int, s.legal_actions()))
        True
        """
        numbers = self.game.action_table.numbers(self.legal_actions())
        numbers.sort()
        return numbers

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: each outcome with its probability. Uniform unless overridden."""
        if not self.is_chance():
            raise IllegalActionError("not a chance node")
        outcomes = self.legal_actions()
        return [(a, 1.0 / len(outcomes)) for a in outcomes]

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply a legal action. Only called after the legality check."""

    def check_playable(self, action: object) -> None:
        """Raise :class:`MalformedActionError` if ``action`` is not one of this game's action
        objects, :class:`IllegalActionError` (naming the reason) if it is not legal now. The
        one check ``apply`` and ``describe`` share."""
        if not isinstance(action, self.game.action_types):
            raise MalformedActionError(f"{shown(action)} is not a {self.game.title} action")
        if self._is_legal(action):
            return
        if self.is_terminal():
            raise IllegalActionError(f"the game is over; {shown(action)} cannot be played")
        try:
            why = self._why_illegal(action)
        except Exception:  # the reason is a courtesy: never let it turn a refusal into a crash
            why = State._why_illegal(self, action)
        raise IllegalActionError(why)

    def apply(self, action: Action) -> None:
        """Apply ``action``; raise :class:`IllegalActionError` (a ``ValueError``) and leave the
        state unchanged if it is not legal now.

        All or nothing: an action from outside (parsed from JSON, built by hand, a throw off
        the grid) is applied with a snapshot, so should the rules code fail half-way the
        state is restored and the error is an :class:`IllegalActionError` too. The engine's
        own objects from :meth:`legal_actions` (what bots, ``apply_int`` and simulations
        pass) skip the snapshot: it would cost a quarter to three fifths of the throughput,
        and their moves are what the conformance harness plays."""
        legal = self.legal_actions()
        for listed in legal:
            if listed is action:
                break
        else:
            self.check_playable(action)
            self._apply_restoring(action)
            return
        self._apply(action)
        self.history.append(action)
        self._legal = None

    def _apply_restoring(self, action: Action) -> None:
        # The snapshot leaves out the history (``_apply`` never changes it; copying it would
        # make every move cost O(length of the game)).
        history, self.history = self.history, []
        try:
            snapshot = self.clone()
        finally:
            self.history = history
        try:
            self._apply(action)
        except Exception as e:
            self._become(snapshot)
            self.history = history
            raise IllegalActionError(
                f"{shown(action)} could not be applied ({type(e).__name__}: {e}); the state is "
                "unchanged") from e
        self.history.append(action)
        self._legal = None

    def _become(self, other: State) -> None:
        """Take every attribute of ``other`` (a clone of this state): a compiled class has no
        ``__dict__``, but it pickles, so its ``__getstate__``/``__setstate__`` list them."""
        fields: Any = other.__getstate__()
        setstate = getattr(self, "__setstate__", None)
        if setstate is not None:
            setstate(fields)
        else:
            self.__dict__.clear()
            self.__dict__.update(fields)

    def apply_listed(self, action: Action) -> None:
        """Apply ``action`` taken from this very state's :meth:`legal_actions` (or drawn by
        :meth:`sample_chance`) without looking for it in the list again: the step of rollouts
        and search, which pick from the list themselves. Anything else must go through
        :meth:`apply`, which checks it.

        >>> from bigtop import new_state
        >>> s = new_state("scout", players=3, seed=1)
        >>> s.apply_listed(s.legal_actions()[0]); len(s.history)
        1
        >>> s.apply_listed(None)
        Traceback (most recent call last):
        ...
        bigtop.core.errors.MalformedActionError: None is not a SCOUT action
        """
        # Found by identity in the list the caller picked from (pointer compares, no
        # dataclass __eq__); anything else, or no list yet, is checked by apply, so a
        # foreign object cannot reach _apply (it used to be appended to the history).
        legal = self._legal
        if legal is not None:
            for listed in legal:
                if listed is action:
                    self._apply(action)
                    self.history.append(action)
                    self._legal = None
                    return
        self.apply(action)

    def _is_legal(self, action: Action) -> bool:
        """Whether ``apply`` accepts ``action``: by default, being listed. A game with
        continuous actions (a throw aimed anywhere) accepts more than it lists."""
        legal = self.legal_actions()
        # Agents usually pass an object taken from this very list: find it by identity
        # first, as ``in`` would call the dataclass ``__eq__`` on every entry before it.
        for listed in legal:
            if listed is action:
                return True
        return action in legal

    def apply_json(self, obj: object) -> Action:
        """Parse and apply an action given in JSON; returns the parsed action."""
        action = self.game.action_from_json(obj)
        self.apply(action)
        return action

    def apply_int(self, index: object) -> Action:
        """Apply an action given by its integer encoding (a Python or numpy integer)."""
        try:
            action = self.game.action_from_int(index)
        except MalformedActionError:
            raise MalformedActionError(
                f"{shown(index)} is not an action number of {self.game.title} "
                f"(0..{self.game.num_distinct_actions() - 1})") from None
        self.apply(action)
        return action

    def apply_chance(self) -> Action:
        """At a chance node, draw an outcome from the state's seed (deterministic) and apply it."""
        chosen = self.sample_chance()
        self.apply(chosen)
        return chosen

    def sample_chance(self) -> Action:
        """The outcome :meth:`apply_chance` would apply, without applying it."""
        return pick_outcome(self.chance_outcomes(), chance_uniform(self.seed, len(self.history)))

    def _why_illegal(self, action: Action) -> str:
        """A sentence saying why ``action`` is not legal; games may be more specific."""
        return f"{shown(action)} is not legal now (player {self.current_player()} to act)"

    # -- results ------------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[float]:
        """Each player's score so far (final when terminal); higher is better unless the game
        overrides :meth:`ranking`."""

    def ranking(self) -> list[int]:
        """Each player's place, 1 = best; tied players share a place (1, 2, 2, 4)."""
        return places(self.scores())

    def winners(self) -> list[int]:
        return [p for p, place in enumerate(self.ranking()) if place == 1]

    def result(self) -> JSON:
        """A summary for logs and simulations; games may add fields (e.g. why it ended)."""
        return {"scores": self.scores(), "ranking": self.ranking(), "winners": self.winners()}

    # -- seats --------------------------------------------------------------------------
    def check_seat(self, player: object, *, spectator: bool = True) -> int | None:
        """``player`` if it is a seat ``0..n-1`` (or None, a spectator, where allowed); else
        :class:`IllegalActionError`. The one seat check of every public method that takes a
        seat (``True`` is not seat 1, ``"0"`` is not seat 0, -1 is not the last seat).

        >>> from bigtop import new_state
        >>> new_state("scout", players=3).check_seat(True)
        Traceback (most recent call last):
        ...
        bigtop.core.errors.IllegalActionError: no player True in a 3-player game (seats 0..2)
        """
        if player is None and spectator:
            return None
        n = self.game.num_players
        if type(player) is not int or not 0 <= player < n:
            raise IllegalActionError(
                f"no player {shown(player)} in a {n}-player game (seats 0..{n - 1})")
        return player

    # -- text ---------------------------------------------------------------------------
    def describe(self, action: Action, player: object = None) -> str:
        """One human-readable line for ``action`` played now (call before applying), as told
        to ``player``. By default (None) it is public (servers broadcast it), so it says only
        what every player may know: a Tricky Landing throw does not name the card, which may
        land face down; told to the thrower (``describe(a, seat)``, e.g. listing one's own
        options) it does, in the second person ("You throw the yellow 2 …"), as every game
        speaks to the seat about to move. It cannot say what the action's luck will do (a
        throw's landing): the logs add that once it is played (``Teaching.played``). A
        foreign or illegal action is an error, as in :meth:`apply`."""
        seat = self.check_seat(player)
        self.check_playable(action)
        return self._describe(action, seat)

    @abstractmethod
    def _describe(self, action: Action, player: int | None) -> str:
        """The line of :meth:`describe` for a legal action, told to ``player`` (a checked
        seat, or None: everyone)."""

    def render(self, player: object = None) -> str:
        """A text picture of the position as ``player`` sees it (None: a spectator)."""
        return self._render(self.check_seat(player))

    def _render(self, player: int | None) -> str:
        return json.dumps(self._observation(player), indent=1)

    def action_from_text(self, text: object) -> Action:
        """Parse a typed action (terminal play); games with rich actions override (each first
        checks the text with :func:`~bigtop.core.actions.typed_text`)."""
        text = typed_text(text, self.game.title)
        raise MalformedActionError(f"cannot read {shown(text)} as a {self.game.title} action")

    # -- JSON ---------------------------------------------------------------------------
    @abstractmethod
    def _position_json(self) -> JSON:
        """The game-specific part of the state's JSON (everything, hidden parts included)."""

    def to_json(self, *, with_history: bool = True) -> JSON:
        """The whole state; ``game.state_from_json(s.to_json()) == s``. Without the history
        it is the position alone (cheap in long games; loads with an empty history)."""
        out = self.game.to_json()
        out["seed"] = self.seed
        out["position"] = self._position_json()
        if with_history:
            out["history"] = [a.to_json() for a in self.history]
        return out

    def observation(self, player: object) -> JSON:
        """What ``player`` may see (None: the public view for spectators). Never contains
        another player's hidden cards, nor the seed (which would predict future chance); it
        contains all public information a player with perfect memory has."""
        return self._observation(self.check_seat(player))

    @abstractmethod
    def _observation(self, player: int | None) -> JSON:
        """:meth:`observation` for a checked seat."""

    def resample_hidden(self, player: object, seed: object) -> State:
        """A new state consistent with ``observation(player)``: everything ``player`` cannot
        see is drawn afresh from ``seed`` (including the seed that drives future chance), so
        a search from it learns nothing hidden. The result must depend only on what
        ``player`` sees and on ``seed`` (draw from a sorted pool), so that
        ``s.resample_hidden(p, k).resample_hidden(p, k) == s.resample_hidden(p, k)``."""
        seat = self.check_seat(player, spectator=False)
        assert seat is not None
        return self._resample_hidden(seat, check_seed(seed))

    @abstractmethod
    def _resample_hidden(self, player: int, seed: int) -> State:
        """:meth:`resample_hidden` for a checked seat and seed."""

    @abstractmethod
    def problems(self) -> list[str]:
        """Every broken invariant of the position, checked independently of the move code
        (every card or piece conserved, counts and score bookkeeping consistent with the
        rulebook's scoring), one sentence each; empty when the position is consistent
        (python-chess's ``Board.status()``). Plain code, not ``assert``: it holds under
        ``python -O`` too."""

    def audit(self) -> None:
        """Raise :class:`InvalidStateError` listing :meth:`problems`, if there are any. The
        loaders call it, and the conformance harness after every action."""
        trouble = self.problems()
        if trouble:
            raise inconsistent(self.game.title, trouble)

    def clone(self) -> State:
        copy = self.game.state_from_json(self.to_json())
        return copy

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled (and deep-copied) as its game and its JSON, which holds the whole position
        and history exactly (a compiled class cannot be made without its constructor, nor
        can the compiled objects inside a position).

        >>> import copy, pickle
        >>> from bigtop import new_state
        >>> s = new_state("scout", players=3, seed=1)
        >>> s.apply(s.legal_actions()[0])
        >>> pickle.loads(pickle.dumps(s)) == s == copy.deepcopy(s)
        True
        """
        return (_state_from_json, (self.game, self.to_json()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def fresh_seed(self, seed: int) -> int:
        """Seed for a resampled state; depends on the given seed and the history length."""
        return derive_seed(seed, "resample", len(self.history))


# The two bases themselves (their subclasses get theirs in __init_subclass__).
_own_abc_caches(Game)
_own_abc_caches(State)


def _state_from_json(game: Game, data: JSON) -> State:
    """A pickled state, made again (:meth:`State.__reduce__`)."""
    return game.state_from_json(data)


def places(scores: Sequence[float]) -> list[int]:
    """Competition ranking, higher score better: ``places([3, 5, 5, 1]) == [3, 1, 1, 4]``."""
    return [1 + sum(1 for t in scores if t > s) for s in scores]


def seat_to_act(state: object, game: str | None = None) -> int:
    """The seat a bot is asked to act for in ``state`` (its ``current_player()``), checked
    first by every bot's ``act``: a finished game or a chance node (nobody's decision) is
    an :class:`IllegalActionError`; no state at all, or (with ``game``, the name of the
    game the bot plays) a state of another game, a :class:`BigtopError`; each said plainly
    (an empty list of legal actions used to surface as an IndexError from inside the bot).

    >>> from bigtop import new_state
    >>> seat_to_act(new_state("scout", players=2, seed=1), "scout")
    0
    >>> seat_to_act(new_state("scout", players=2, seed=1), "clown-15-go")
    Traceback (most recent call last):
    ...
    bigtop.core.errors.BigtopError: this bot plays clown-15-go, not scout
    """
    # The game by its name: a bot knows its game's name, not necessarily its state class.
    if not isinstance(state, State):
        raise BigtopError(f"a bot acts in a game state, not in a {type(state).__name__}")
    if game is not None and state.game.name != game:
        raise BigtopError(f"this bot plays {game}, not {state.game.name}")
    p = state.current_player()
    if p >= 0:
        return p
    if state.is_terminal():
        raise IllegalActionError(f"the {state.game.title} game is over: no one acts in it")
    raise IllegalActionError(f"chance acts now in {state.game.title} (apply_chance), not "
                             "a player")
