"""Per-game ratings of people at rated tables: openskill's Weng–Lin Plackett–Luce model
(multiplayer, ties shared), the same as the lab's tournaments. Bots are fixed anchors: a bot
seat plays with its level's rating (:data:`ANCHORS`), which is never updated, so the scale
stays where the bot ladder puts it.

>>> new = rate({}, [("a", None), (None, "hard")], [1, 2])
>>> new["a"][0] > MU  # beat the hard bot: up
True
>>> list(new)  # the bot's anchor is not returned (never stored)
['a']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MU, SIGMA = 25.0, 25.0 / 3.0
"""A new person's rating (openskill's defaults)."""

ANCHOR_SIGMA = 1.0
ANCHORS: dict[str, float] = {"random": 15.0, "easy": 20.0, "medium": 25.0, "hard": 30.0}
"""Each bot level's fixed μ (σ = :data:`ANCHOR_SIGMA`): the scale's fixed points, chosen
by the ladder's order (a new person starts level with medium), not measured per game. A
level not listed here (the analysts' yardsticks) plays as medium's anchor."""


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating boards are sorted by: μ − 3σ."""
    return mu - 3.0 * sigma


def anchor(level: str) -> tuple[float, float]:
    return ANCHORS.get(level, ANCHORS["medium"]), ANCHOR_SIGMA


@dataclass(frozen=True)
class RatingUpdate:
    """What the end of a rated game changes: the game, each seat's identity (None: a bot)
    and bot level (None: a person), and each seat's place (1 = best; ties share)."""

    game: str
    seats: tuple[tuple[str | None, str | None], ...]
    ranking: tuple[int, ...]

    @property
    def players(self) -> list[str]:
        return [p for p, _ in self.seats if p is not None]

    def rate(self, current: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        return rate(current, self.seats, self.ranking)


def rate(current: Mapping[str, tuple[float, float]],
         seats: Sequence[tuple[str | None, str | None]],
         ranking: Sequence[int]) -> dict[str, tuple[float, float]]:
    """The new (μ, σ) of each person seated (``current``: their ratings before; a person
    not in it starts at :data:`MU`, :data:`SIGMA`) after a game with these places."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = []
    for player, level in seats:
        mu, sigma = (current.get(player, (MU, SIGMA)) if player is not None
                     else anchor(level or "medium"))
        teams.append([model.rating(mu=mu, sigma=sigma)])
    rated = model.rate(teams, ranks=[float(r) for r in ranking])
    return {player: (rated[i][0].mu, rated[i][0].sigma)
            for i, (player, _) in enumerate(seats) if player is not None}
