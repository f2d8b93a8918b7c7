"""One game of a run: the :class:`Job` that says everything it needs (plain data, so that
it pickles to worker processes and Ray tasks), the :class:`GameRecord` it gives, and
:func:`play_job`, the same in every process. The runner, the Ray backend and the statistics
all stand on this module.

>>> from bigtop.sim.runner import simulate
>>> simulate("scout", players=2, games=1, seed=1).records[0].shares()
[0.0, 1.0]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bigtop.agents.base import play_game
from bigtop.agents.levels import make_bot
from bigtop.core.game import Game, State
from bigtop.core.registry import new_game


def win_shares(winners: Sequence[int], players: int) -> list[float]:
    """Each seat's share of the win: ``1/k`` for each of ``k`` winners, and nothing for
    anybody when every seat shares first place (a game with no winner, such as a Clown 15 Go
    stall where everybody keeps the same number of cards).

    >>> win_shares([0, 2], 3), win_shares([1], 2), win_shares([0, 1], 2)
    ([0.5, 0.0, 0.5], [0.0, 1.0], [0.0, 0.0])
    """
    if no_winner(winners, players):
        return [0.0] * players
    return [1 / len(winners) if p in winners else 0.0 for p in range(players)]


def no_winner(winners: Sequence[int], players: int) -> bool:
    """True when every seat shares first place: nobody beat anybody."""
    return players > 1 and len(winners) == players


def win_share(seat: int, state: State) -> float:
    """The seat's share of the win in a finished game (see :func:`win_shares`)."""
    return win_shares(state.winners(), state.game.num_players)[seat]


@dataclass(frozen=True)
class GameRecord:
    """One finished game: what the engine reported and who played which seat."""

    index: int
    seed: int
    scores: list[float]
    ranking: list[int]
    winners: list[int]
    actions: int
    decisions: list[int]
    extra: dict[str, Any] = field(default_factory=dict)
    bots: list[str] = field(default_factory=list)
    deal: int = 0
    """The block of games played on the same cards (the game itself without rotation)."""

    @property
    def no_winner(self) -> bool:
        return no_winner(self.winners, len(self.scores))

    def shares(self) -> list[float]:
        """Each seat's share of the win (:func:`win_shares`)."""
        return win_shares(self.winners, len(self.scores))


@dataclass(frozen=True)
class Job:
    """Everything one game needs; plain data so that it pickles to worker processes and Ray."""

    game: str
    players: int
    options: str
    """The rule options as a canonical JSON object (also the worker's cache key)."""
    index: int
    deal: int
    seed: int
    bots: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    keep_state: bool = False
    """Also return the finished state's JSON (its action log, for ``bigtop replay``)."""


@dataclass(frozen=True)
class Finished:
    """A played job: its record, and its finished state's JSON when the job asked for it."""

    record: GameRecord
    state: dict[str, Any] | None


@lru_cache(maxsize=64)
def _game(name: str, players: int, options: str) -> Game:
    return new_game(name, players, json.loads(options))


def play_job(job: Job) -> Finished:
    """Play one job to the end (pure: the same job always gives the same record)."""
    game = _game(job.game, job.players, job.options)
    state = game.new_initial_state(job.seed)
    seated = [make_bot(b, game, p, s) for p, (b, s) in enumerate(zip(job.bots, job.bot_seeds,
                                                                     strict=True))]
    decisions = play_game(state, seated)
    result = state.result()
    extra = {k: v for k, v in result.items() if k not in ("scores", "ranking", "winners")}
    record = GameRecord(job.index, job.seed, state.scores(), state.ranking(), state.winners(),
                        len(state.history), decisions, extra, list(job.bots), job.deal)
    return Finished(record, state.to_json() if job.keep_state else None)


def play_chunk(jobs: Sequence[Job]) -> list[Finished]:
    """Play jobs one after the other (what a worker process or a Ray task runs)."""
    return [play_job(j) for j in jobs]
