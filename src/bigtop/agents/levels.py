"""One factory for every bot: the level ladder ``random < easy < medium < hard`` and the
older agent names, for every game.

``make_bot(name, game, seat, seed)`` is the only way the CLI, the simulation lab and the
server build a bot, so a level means the same player everywhere.

- ``random``: uniformly random legal moves.
- ``easy``: the game's hand-written bot (``easy_agent`` of the game package when it has one,
  else ``heuristic_agent``); a few milliseconds a move at most.
- ``medium`` and ``hard``: a search (IS-MCTS, or the 1-ply planner in the games of chance)
  with the game's :class:`~bigtop.agents.ismcts.SearchProfile` (heuristic rollouts, cut at
  the round's end or a horizon, score-difference reward), the game's iteration budgets and,
  for some hard levels, the game's deeper profile (:data:`BUDGETS`).
- ``heuristic``, ``ismcts``: the older bots, kept for scripts and as yardsticks — the game's
  first heuristic bot, and plain IS-MCTS (random rollouts, win reward, 200 iterations).

``time_limit`` (seconds) additionally caps a search bot's thinking time for interactive
play; without it every bot is deterministic for its seed.

>>> from bigtop.core.registry import new_game
>>> g = new_game("scout", 3)
>>> bot = make_bot("easy", g, seat=1, seed=7)
>>> s = g.new_initial_state(0)
>>> bot.act(s) in s.legal_actions()
True
>>> make_bot("hard", g, 0, 0).iterations == BUDGETS["scout"].hard.iterations
True
>>> make_bot("grandmaster", g, 0, 0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bigtop.core.errors.BigtopError: unknown bot 'grandmaster'; bots: random, easy, medium, hard, ...
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from bigtop.agents.base import Agent, RandomAgent
from bigtop.agents.ismcts import ISMCTSAgent, SearchProfile
from bigtop.agents.neural import ActionPolicy, action_policy_for, action_profile
from bigtop.agents.planner import PlannerAgent
from bigtop.core.errors import BigtopError, IllegalActionError, shown
from bigtop.core.game import Game
from bigtop.core.registry import capabilities, get_game, new_game
from bigtop.core.rng import check_seed

LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard")
"""The strength ladder, weakest first."""

ALIASES: tuple[str, ...] = ("heuristic", "ismcts")
"""Older agent names kept for scripts: each game's first hand-written bot, and plain IS-MCTS."""

BOT_NAMES: tuple[str, ...] = LEVELS + ALIASES

DEFAULT_LEVEL = "medium"
"""The bot a seat gets when nobody names one (`bigtop play`, the web lobby, a server
takeover): the cheapest search level, well inside 100 ms a move in every game, and the
level issue #14 asks to hold its own against the public SCOUT AI; ``easy`` plays by
rules of thumb and is there for beginners who ask for it."""

LEARNED: tuple[str, ...] = ("neural",)
"""Bots that play with a trained network (:mod:`bigtop.agents.neural`), for the tables
with shipped weights only (SCOUT with four and five players, Clown 15 Go with two and
four, So ein Zirkus with two so far); ``neural`` is ``medium`` where
:data:`TRAINED_BUDGETS` says so (SCOUT with four players), and off the ladder elsewhere
(docs/bots.md#trained-networks)."""

SEARCH_BOTS: tuple[str, ...] = ("medium", "hard", "ismcts", "neural", "medium-plain",
                                 "hard-plain")
"""The bots that search, and so take an iteration budget and a time limit."""


Method = Literal["tree", "planner"]
"""``tree``: :class:`~bigtop.agents.ismcts.ISMCTSAgent` with the game's profile;
``planner``: :class:`~bigtop.agents.planner.PlannerAgent` (1-ply, common random numbers)."""

Depth = Literal["standard", "deep"]
"""Which of the game's profiles a level searches with: ``standard`` is
``search_profile(game)`` of the game's package, ``deep`` its ``deep_search_profile(game)``
(longer rollouts, for a level with the time for them)."""


@dataclass(frozen=True)
class Search:
    """How a search level plays one game: the method, its iterations per decision (tree
    iterations, or determinizations for the planner) and the profile's depth."""

    method: Method
    iterations: int
    depth: Depth = "standard"
    top: int | None = None
    """With the table's trained action policy as a prior: search only its ``top`` favourite
    of the profile's candidates (:func:`~bigtop.agents.neural.action_profile`)."""


@dataclass(frozen=True)
class Budget:
    """The ``medium`` and ``hard`` searches of one game."""

    medium: Search
    hard: Search


BUDGETS: dict[str, Budget] = {
    "scout": Budget(medium=Search("planner", 4), hard=Search("planner", 48, depth="deep")),
    "tricky-landing": Budget(medium=Search("planner", 6),
                             hard=Search("planner", 32, depth="deep")),
    "so-ein-zirkus": Budget(medium=Search("planner", 6),
                            hard=Search("planner", 24, depth="deep")),
    "clown-15-go": Budget(medium=Search("planner", 6),
                          hard=Search("planner", 48, depth="deep")),
}
"""Chosen so that typical moves stay well inside the per-move budgets on one core (medium
≤ 100 ms, hard ≤ 1 s); docs/bots.md lists the measured times."""

NEURAL = Search("planner", 8, depth="deep", top=3)
"""``neural``: the 1-ply planner with the game's deep profile and the trained action
policy inside it as a prior, searching only its three favourite of the profile's
candidates (the plain medium searches them all: about twice as many, so ``neural``'s
determinizations cost a third to a half of medium's each), 8 determinizations a move: with
8 every move measured stayed inside medium's 100 ms (16 were as strong against medium
within the matches' intervals, but a tenth of their moves took longer: docs/bots.md)."""

TRAINED_BUDGETS: dict[tuple[str, int], Budget] = {
    ("scout", 4): Budget(medium=NEURAL, hard=BUDGETS["scout"].hard),
}
"""The tables whose levels search with the shipped action policy as a prior
(``Search.top``); every other table plays :data:`BUDGETS`. SCOUT with four players:
``medium`` is ``neural``, decided stronger than the plain medium and than ``easy``, and
below ``hard``, which stays the plain search (the policy's favourite three or four of its
candidates with twice the determinizations were not stronger than it):
docs/bots.md#the-ladder-with-the-action-policy-third-round."""

PLAIN: tuple[str, ...] = ("medium-plain", "hard-plain")
"""``medium`` and ``hard`` as :data:`BUDGETS` defines them, without a trained policy, at
every table: what those levels play where :data:`TRAINED_BUDGETS` has no entry, kept by
name where a table's levels now search with a policy (the teacher of the shipped action
policy was ``medium-plain``, then called ``medium``)."""


def budget_for(game: Game) -> Budget:
    """The ``medium`` and ``hard`` searches at ``game``'s table: :data:`TRAINED_BUDGETS`
    where it has the table, else the game's :data:`BUDGETS`.

    >>> budget_for(new_game("scout", 4)).medium.top, budget_for(new_game("scout", 3)).medium.top
    (3, None)
    """
    return TRAINED_BUDGETS.get((game.name, game.num_players), BUDGETS[game.name])


PLAIN_ISMCTS_ITERATIONS = 200
"""The ``ismcts`` alias: the older default."""


ABOUT: dict[str, str] = {
    "random": "plays any legal move at random",
    "easy": "plays by rules of thumb, at once; for a first game",
    "medium": "tries each move against a few guesses at the hidden cards and the luck",
    "hard": "the same search with more guesses and a longer look ahead; the strongest, up "
            "to a second a move",
    "heuristic": "the game's first hand-written bot",
    "ismcts": f"plain IS-MCTS search (random play-outs, {PLAIN_ISMCTS_ITERATIONS} iterations)",
}
"""Each bot in a few words for a player choosing one (the lobby shows them; ``bigtop bots``
has the details): the one place these words live. The ladder first, then the yardsticks
(:data:`ALIASES`), which measure the ladder and are no step of it."""


MOVE_BUDGET_MS: dict[str, float] = {"random": 1.0, "easy": 10.0, "medium": 100.0,
                                     "hard": 1000.0}
"""The most a level may think per move on one core (milliseconds); typical moves take far
less (docs/bots.md)."""


_EASY_NOTES: dict[str, str] = {
    "tricky-landing": ", aim and spin from the throw model",
    "clown-15-go": ", the next card's fit first, dumping breaks ties",
    "scout": ", a 1-ply planner on its own hand",
}


@dataclass(frozen=True)
class LevelInfo:
    """One bot as ``bigtop bots`` lists it."""

    name: str
    summary: str
    iterations: int | None
    budget_ms: float | None
    about: str = ""
    """:data:`ABOUT`: the bot in a player's words."""
    yardstick: bool = False
    """An older bot kept as a yardstick (:data:`ALIASES`), not a step of the ladder."""


def level_infos(game_name: str) -> list[LevelInfo]:
    """The ladder and the aliases for one game, weakest first.

    >>> [(i.name, i.iterations) for i in level_infos("scout")][:3]
    [('random', None), ('easy', None), ('medium', 4)]
    """
    budget = BUDGETS[game_name]
    game = new_game(game_name, get_game(game_name).min_players)

    def searching(search: Search) -> str:
        profile = search_profile(game, search.depth)
        if search.method == "planner":
            return (f"1-ply planner, {search.iterations} determinizations a move, every "
                    f"candidate under the same luck: {profile.summary}")
        return f"IS-MCTS, {search.iterations} iterations: {profile.summary}"

    def trained(level: str) -> str:
        # The tables of this game whose level searches with a trained action policy.
        words = []
        for (name, players), b in TRAINED_BUDGETS.items():
            search, plain = getattr(b, level), getattr(budget, level)
            if name == game_name and search.top is not None:
                deep = (" and the deep profile" if search.depth != plain.depth
                        else "")
                words.append(f"; with {players} players: {search.iterations} "
                             f"determinizations{deep}, only the trained action policy's "
                             f"{search.top} favourite candidates")
        return "".join(words)

    infos = [
        LevelInfo("random", "uniformly random legal moves", None, MOVE_BUDGET_MS["random"]),
        LevelInfo("easy", "the game's hand-written bot" + _EASY_NOTES.get(game_name, ""),
                  None, MOVE_BUDGET_MS["easy"]),
        LevelInfo("medium", searching(budget.medium) + trained("medium"),
                  budget.medium.iterations, MOVE_BUDGET_MS["medium"]),
        LevelInfo("hard", searching(budget.hard) + trained("hard"), budget.hard.iterations,
                  MOVE_BUDGET_MS["hard"]),
        LevelInfo("heuristic", "older name: the game's first hand-written bot", None, None),
        LevelInfo("ismcts", "older name: IS-MCTS with random rollouts and a win reward, "
                  f"{PLAIN_ISMCTS_ITERATIONS} iterations", PLAIN_ISMCTS_ITERATIONS, None),
    ]
    return [replace(i, about=ABOUT[i.name], yardstick=i.name in ALIASES) for i in infos]


def search_profile(game: Game, depth: Depth = "standard") -> SearchProfile:
    """The game's search profile, as its capability record declares it: ``search_profile``,
    or with ``depth="deep"`` ``deep_search_profile``.

    >>> search_profile(new_game("tricky-landing", 3), "deep").stage is not None
    True
    """
    record = capabilities(game.name)
    make = record.deep_search_profile if depth == "deep" else record.search_profile
    return replace(make(game), game=game.name)


def _easy(game: Game, seat: int, seed: int) -> Agent:
    record = capabilities(game.name)
    factory = record.easy_agent or record.heuristic_agent
    return _reseeded(factory(game, seat), seed)


def _heuristic(game: Game, seat: int, seed: int) -> Agent:
    return _reseeded(capabilities(game.name).heuristic_agent(game, seat), seed)


def _reseeded(agent: Agent, seed: int) -> Agent:
    reseed = getattr(agent, "reseed", None)
    if callable(reseed):
        reseed(seed)
    return agent


def make_bot(name: str, game: Game, seat: int, seed: int, *,
             iterations: int | None = None, time_limit: float | None = None) -> Agent:
    """A bot called ``name`` (a level or an alias) for ``seat`` of ``game``, deterministic
    for ``seed`` (unless ``time_limit`` seconds cut a search short). ``iterations``
    overrides a search bot's budget (``medium``, ``hard``, ``ismcts``). A ``game`` that is
    no :class:`Game`, a ``seat`` that is not one of its seats, or a ``seed`` that is no
    seed (:func:`~bigtop.core.rng.check_seed`, as a game's) is a :class:`BigtopError`.

    >>> from bigtop import new_game
    >>> make_bot("easy", new_game("scout", 2), 5, 1)
    Traceback (most recent call last):
    ...
    bigtop.core.errors.IllegalActionError: no seat 5 in a 2-player game (seats 0..1)
    """
    if not isinstance(game, Game):
        raise BigtopError(f"a bot is made for a game (bigtop.new_game), not {shown(game)}")
    n = game.num_players
    if type(seat) is not int or not 0 <= seat < n:  # the State.check_seat rule
        raise IllegalActionError(f"no seat {shown(seat)} in a {n}-player game "
                                 f"(seats 0..{n - 1})")
    seed = check_seed(seed)  # every level alike, before any bot's own generator sees it
    if iterations is not None and name not in SEARCH_BOTS:
        raise BigtopError(f"bot {name!r} does not search: iterations applies to "
                          f"{', '.join(SEARCH_BOTS)}")
    if time_limit is not None and name not in SEARCH_BOTS:
        raise BigtopError(f"bot {name!r} does not search: time_limit applies to "
                          f"{', '.join(SEARCH_BOTS)}")
    if name == "random":
        return RandomAgent(seed)
    if name == "easy":
        return _easy(game, seat, seed)
    if name == "heuristic":
        return _heuristic(game, seat, seed)
    if name == "ismcts":
        return ISMCTSAgent(iterations=iterations or PLAIN_ISMCTS_ITERATIONS, seed=seed,
                           time_limit=time_limit)
    if name == "neural":
        action_policy_for(game)  # a table without shipped weights is refused by name here
        return search_bot(NEURAL, game, seed, iterations, time_limit)
    if name in ("medium", "hard"):
        budget = budget_for(game)
        return search_bot(budget.medium if name == "medium" else budget.hard, game, seed,
                       iterations, time_limit)
    if name in PLAIN:
        budget = BUDGETS[game.name]
        return search_bot(budget.medium if name == "medium-plain" else budget.hard, game, seed,
                       iterations, time_limit)
    raise BigtopError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES + LEARNED + PLAIN)}")


def search_bot(search: Search, game: Game, seed: int, iterations: int | None = None,
               time_limit: float | None = None, policy: ActionPolicy | None = None) -> Agent:
    """The bot of ``search`` at ``game``'s table (``iterations``: other than the search's;
    ``policy``: another action policy than the table's shipped one, for a ``top`` prior)."""
    n = search.iterations if iterations is None else iterations
    profile = search_profile(game, search.depth)
    if search.top is not None:
        profile = action_profile(profile, top=search.top, policy=policy)
    if search.method == "planner":
        return PlannerAgent(n, seed, profile, time_limit=time_limit)
    return ISMCTSAgent(iterations=n, seed=seed, profile=profile, time_limit=time_limit)
