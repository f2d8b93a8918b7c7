"""Run many seeded games with bots and summarise them.

Every game ``i`` of a run with seed ``S`` uses the state seed ``derive_seed(S, "game", i)``
and agent seeds ``derive_seed(S, "agent", i, seat)``, so a run is reproducible to the byte.

>>> from bigtop.sim.runner import simulate
>>> run = simulate("scout", players=3, games=4, seed=1)
>>> len(run.records), run.records[0].actions > 0
(4, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from bigtop.agents.base import Agent, RandomAgent, play_game
from bigtop.agents.levels import BOT_NAMES, make_bot
from bigtop.core.errors import BigtopError
from bigtop.core.game import Game, State
from bigtop.core.registry import new_game
from bigtop.core.rng import check_seed, derive_seed
from bigtop.sim.stats import mean_interval, wilson_interval

AGENT_KINDS = BOT_NAMES


def against_random(
    game: Game, make: Callable[[int], Agent], games: int, random_stride: int
) -> Iterator[tuple[int, State]]:
    """One agent against random players, its seat rotating: game ``i`` starts from seed
    ``i`` with ``make(seat)`` in seat ``i mod players`` and ``RandomAgent(random_stride * i +
    q)`` in every other seat ``q``. Yields ``(seat, finished state)`` per game.

    >>> g = new_game("scout", 2)
    >>> [(seat, s.is_terminal()) for seat, s in against_random(g, RandomAgent, 2, 10)]
    [(0, True), (1, True)]
    """
    n = game.num_players
    for i in range(games):
        seat = i % n
        agents = [make(q) if q == seat else RandomAgent(random_stride * i + q)
                  for q in range(n)]
        state = game.new_initial_state(i)
        play_game(state, agents)
        yield seat, state


def win_share(seat: int, state: State) -> float:
    """The seat's share of the win: 1/k when it is one of k winners, else 0."""
    winners = state.winners()
    return 1 / len(winners) if seat in winners else 0.0


@dataclass(frozen=True)
class GameRecord:
    index: int
    seed: int
    scores: list[float]
    ranking: list[int]
    winners: list[int]
    actions: int
    decisions: list[int]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Run:
    game: Game
    seed: int
    agents: list[str]
    records: list[GameRecord]

    def summary(self) -> dict[str, Any]:
        n = self.game.num_players
        k = len(self.records)
        seats = []
        for p in range(n):
            # A shared victory counts as a fraction of a win for each winner.
            wins = sum(1 / len(r.winners) for r in self.records if p in r.winners)
            lo, hi = wilson_interval(wins, k)
            sc = mean_interval([r.scores[p] for r in self.records])
            seats.append({
                "seat": p,
                "agent": self.agents[p],
                "win_rate": wins / k if k else 0.0,
                "win_rate_ci95": [lo, hi],
                "score_mean": sc.mean,
                "score_sd": sc.sd,
                "score_mean_ci95": [sc.low, sc.high],
            })
        acts = mean_interval([float(r.actions) for r in self.records])
        return {
            "games": k,
            "seats": seats,
            "actions_mean": acts.mean,
            "actions_mean_ci95": [acts.low, acts.high],
            "shared_wins": sum(1 for r in self.records if len(r.winners) > 1),
            "outcomes": self.outcomes(),
        }

    def outcomes(self) -> dict[str, dict[str, int]]:
        """How often each value of a categorical result field occurred (a field of
        ``State.result()`` that is a string in every game, e.g. Clown 15 Go's
        ``end_reason``), most frequent first."""
        out: dict[str, dict[str, int]] = {}
        if not self.records:
            return out
        for key in self.records[0].extra:
            values = [r.extra.get(key) for r in self.records]
            if all(isinstance(v, str) for v in values):
                counts = Counter(str(v) for v in values)
                out[key] = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "players": self.game.num_players,
            "options": self.game.options.to_json(),
            "seed": self.seed,
            "agents": self.agents,
            "summary": self.summary(),
            "results": [asdict(r) for r in self.records],
        }


def make_agent(kind: str, game: Game, seat: int, seed: int) -> Agent:
    """Kept for scripts: the same as :func:`bigtop.agents.levels.make_bot`."""
    return make_bot(kind, game, seat, seed)


def simulate(
    name: str,
    players: int,
    games: int,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    agents: Sequence[str] = ("random",),
    progress: Callable[[int], None] | None = None,
) -> Run:
    """Play ``games`` games of ``name``; ``agents`` names each seat's agent (cycled)."""
    check_seed(seed)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise BigtopError(f"games must be a positive whole number, got {games!r}")
    game = new_game(name, players, options)
    kinds = [agents[p % len(agents)] for p in range(players)] if agents else ["random"] * players
    for kind in kinds:
        if kind not in AGENT_KINDS:
            raise BigtopError(f"unknown agent {kind!r}; agents: {', '.join(AGENT_KINDS)}")
    records = []
    for i in range(games):
        gseed = derive_seed(seed, "game", i)
        state = game.new_initial_state(gseed)
        seated = [make_agent(kinds[p], game, p, derive_seed(seed, "agent", i, p))
                  for p in range(players)]
        decisions = play_game(state, seated)
        result = state.result()
        extra = {k: v for k, v in result.items() if k not in ("scores", "ranking", "winners")}
        records.append(GameRecord(i, gseed, state.scores(), state.ranking(), state.winners(),
                                  len(state.history), decisions, extra))
        if progress is not None:
            progress(i + 1)
    return Run(game, seed, kinds, records)
