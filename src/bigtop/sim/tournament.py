"""A round robin between bots, rated with openskill (Weng–Lin Plackett–Luce: multiplayer,
ties allowed).

Every table of ``players`` seats plays the same number of games, each deal once per seating
(rotation), so no bot gets a better seat. With at least as many bots as seats the tables are
every combination of distinct bots; with fewer, every multiset of bots with at least two
different ones (a bot then holds several seats of a table). Games are rated one by one in
game order, so ratings are reproducible; a bot in several seats of a game moves by the mean
of its seats' updates. A bot's rating is ``μ`` with uncertainty ``σ``; the board is sorted
by the conservative ``μ − 3σ`` (openskill's ordinal).

>>> t = tournament("scout", 2, ["easy", "random"], games_per_table=4, seed=1)
>>> [row["bot"] for row in t.leaderboard()], len(t.records)
(['easy', 'random'], 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations, combinations_with_replacement
from typing import Any

from bigtop.core.errors import BigtopError
from bigtop.core.extras import require_extra
from bigtop.core.game import Game
from bigtop.core.limits import MAX_GAMES
from bigtop.core.registry import new_game
from bigtop.core.rng import check_seed
from bigtop.sim.runner import (
    GameRecord,
    Job,
    Progress,
    check_bots,
    check_games,
    check_rotation,
    make_jobs,
    run_jobs,
)
from bigtop.sim.summary import bot_stats

RATING = ("openskill Plackett–Luce (μ = 25, σ = 25/3 at the start); board sorted by "
          "μ − 3σ")

#: What needs openskill (the lab extra), in its error message.
RATINGS_NEED = "a tournament's ratings"


def tables(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups of a round robin (see the module's doc).

    >>> tables(["a", "b", "c"], 2)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> tables(["a", "b"], 3)
    [('a', 'a', 'b'), ('a', 'b', 'b')]
    """
    if len(bots) >= players:
        return list(combinations(bots, players))
    return [t for t in combinations_with_replacement(bots, players) if len(set(t)) > 1]


def check_total(n_tables: int, games_per_table: int) -> int:
    """The games of a whole round robin, at most :data:`~bigtop.core.limits.MAX_GAMES`.

    >>> check_total(10, 200_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bigtop.core.errors.BigtopError: a tournament of 10 tables × 200,000 games is 2,000,000 ...
    """
    total = n_tables * games_per_table
    if total > MAX_GAMES:
        raise BigtopError(f"a tournament of {n_tables} tables × {games_per_table:,} games is "
                          f"{total:,} games; a run plays at most {MAX_GAMES:,}")
    return total


@dataclass
class Tournament:
    game: Game
    seed: int
    bots: list[str]
    tables: list[tuple[str, ...]]
    games_per_table: int
    records: list[GameRecord]
    interrupted: bool = False
    states: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def ratings(self) -> dict[str, tuple[float, float]]:
        """Each bot's ``(μ, σ)`` after rating every game in order."""
        require_extra("lab", "openskill", what=RATINGS_NEED)
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        current = {b: model.rating(name=b) for b in self.bots}
        for r in self.records:
            teams = [[current[b]] for b in r.bots]
            rated = model.rate(teams, ranks=[float(x) for x in r.ranking])
            for bot in set(r.bots):
                seats = [p for p, b in enumerate(r.bots) if b == bot]
                old = current[bot]
                mu = old.mu + sum(rated[p][0].mu - old.mu for p in seats) / len(seats)
                sigma = sum(rated[p][0].sigma for p in seats) / len(seats)
                current[bot] = model.rating(mu=mu, sigma=sigma, name=bot)
        return {b: (current[b].mu, current[b].sigma) for b in self.bots}

    def leaderboard(self) -> list[dict[str, Any]]:
        """Bots, best first: rating, uncertainty, and their plain win rate and place."""
        ratings = self.ratings()
        plain = {s["bot"]: s for s in bot_stats(self.records)}
        board = []
        for bot, (mu, sigma) in ratings.items():
            s = plain.get(bot, {})
            board.append({
                "bot": bot, "mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma,
                "mu_2sigma": [mu - 2 * sigma, mu + 2 * sigma],
                "seat_games": s.get("seat_games", 0),
                "win_rate": s.get("win_rate"), "win_rate_ci95": s.get("win_rate_ci95"),
                "place_mean": s.get("place_mean"),
            })
        board.sort(key=lambda row: (-row["ordinal"], row["bot"]))
        for rank, row in enumerate(board, 1):
            row["rank"] = rank
        return board

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.name, "players": self.game.num_players,
            "options": self.game.options.to_json(), "seed": self.seed, "bots": self.bots,
            "tables": [list(t) for t in self.tables], "games_per_table": self.games_per_table,
            "games": len(self.records), "interrupted": self.interrupted, "rating": RATING,
            "leaderboard": self.leaderboard(),
            "results": [asdict(r) for r in self.records],
        }


def tournament_jobs(game: Game, bots: Sequence[str], games_per_table: int, seed: int,
                    keep_states: bool = False) -> tuple[list[tuple[str, ...]], list[Job]]:
    n = game.num_players
    line_ups = tables(bots, n)
    jobs: list[Job] = []
    for t, lineup in enumerate(line_ups):
        jobs += make_jobs(game, games_per_table, seed, lineup, rotate=True,
                          keep_state=keep_states, first_index=t * games_per_table)
    return line_ups, jobs


def tournament(name: str, players: int, bots: Sequence[str], games_per_table: int,
               seed: int = 0, options: Mapping[str, object] | None = None,
               progress: Progress | None = None, *, workers: int = 1,
               ray_address: str | None = None, keep_states: bool = False) -> Tournament:
    """Play the round robin of ``bots`` at ``players``-seat tables, ``games_per_table``
    games each (a multiple of ``players``: every deal in every seating)."""
    require_extra("lab", "openskill", what=RATINGS_NEED)  # before the games, not after
    check_seed(seed)
    check_games(games_per_table)
    game = new_game(name, players, options)
    bots = list(bots)
    check_bots(bots)
    if len(set(bots)) < 2:
        raise BigtopError("a tournament needs at least two different bots")
    if len(set(bots)) < len(bots):
        raise BigtopError(f"a bot is named twice in {','.join(bots)}")
    check_rotation(games_per_table, players, "a tournament plays every deal once per seating")
    check_total(len(tables(bots, players)), games_per_table)
    line_ups, jobs = tournament_jobs(game, bots, games_per_table, seed, keep_states)
    played = run_jobs(jobs, workers, ray_address, progress, players)
    return Tournament(game, seed, bots, line_ups, games_per_table,
                      [f.record for f in played.finished], played.interrupted,
                      [f.state for f in played.finished if f.state is not None])
