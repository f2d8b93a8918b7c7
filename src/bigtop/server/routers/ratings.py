"""Ratings: GET /api/ratings/{game}, the leaderboard of a game's rated tables (no token)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from bigtop.core.registry import game_names
from bigtop.server import errors
from bigtop.server.deps import RuntimeDep
from bigtop.server.ratings import ANCHOR_SIGMA, ANCHORS, ordinal
from bigtop.server.runtime import Runtime
from bigtop.server.schemas import BotAnchor, Leaderboard, MyRating, PlayerRating
from bigtop.server.storage import RatingRow

router = APIRouter(prefix="/api/ratings", tags=["ratings"])

PROBLEMS: dict[int | str, dict[str, Any]] = {
    404: {"description": "Unknown game", "content": {"application/problem+json": {}}}}


def anchors() -> list[BotAnchor]:
    """The bot levels' fixed ratings, best first."""
    return sorted((BotAnchor(level=level, mu=mu, sigma=ANCHOR_SIGMA,
                             ordinal=ordinal(mu, ANCHOR_SIGMA))
                   for level, mu in ANCHORS.items()), key=lambda a: -a.ordinal)


def my_rating(runtime: Runtime, row: RatingRow) -> MyRating:
    return MyRating(game=row.game, mu=row.mu, sigma=row.sigma,
                    ordinal=ordinal(row.mu, row.sigma), games=row.games,
                    provisional=row.games < runtime.limits.provisional_games)


@router.get("/{game}", response_model=Leaderboard, responses=PROBLEMS)
async def leaderboard(game: str, runtime: RuntimeDep) -> Leaderboard:
    """The game's rated players, best ordinal (μ − 3σ) first (at most
    ``limits.max_leaderboard``), provisional ones marked, and the bots' fixed anchors."""
    if game not in game_names():
        raise errors.NotFound(f"unknown game {game!r}; games: {', '.join(game_names())}")
    rows = await runtime.db(runtime.master.storage.leaderboard, game,
                            runtime.limits.max_leaderboard)
    return Leaderboard(game=game, anchors=anchors(), players=[
        PlayerRating(rank=rank, player=r.player_id, name=r.name, mu=r.mu, sigma=r.sigma,
                     ordinal=ordinal(r.mu, r.sigma), games=r.games,
                     provisional=r.games < runtime.limits.provisional_games)
        for rank, r in enumerate(rows, 1)])
