"""The hard level's search in Clown 15 Go: places with the same outcome are one candidate,
and the rollouts play to the game's end for the win."""

from __future__ import annotations

from bigtop.agents.levels import make_bot, search_profile
from bigtop.agents.planner import PlannerAgent
from bigtop.games.clown15go.bot import DEEP_SEARCH, SEARCH, distinct_places, easy_agent
from bigtop.games.clown15go.rules import ToPile, ToRow
from tests.games.clown15go.helpers import position

ROWS = [[f"R{k}" for k in range(1, 8)], [f"O{k}" for k in range(1, 8)]]


def test_equal_rows_are_one_candidate() -> None:
    # R8 fits both rows (each tops at 7) and P1's open 9: two distinct places.
    s = position(closed=[[], []], open=[[], ["O9"]], rows=ROWS, pending="R8", filler=0)
    assert s.legal_actions() == [ToRow(0), ToRow(1), ToPile(1)]
    assert distinct_places(s) == [ToRow(0), ToPile(1)]
    # The easy bot (the search's default move) picks the first of equal rows.
    assert easy_agent(s.game, 0).act(s) in distinct_places(s)
    # With the points rule colours count (one-colour rows score 150): every place stays.
    p = position(closed=[[], []], open=[[], ["O9"]], rows=ROWS, pending="R8", filler=0,
                 options={"points": True})
    assert distinct_places(p) == p.legal_actions()


def test_hard_searches_mediums_profile_over_distinct_places() -> None:
    """Hard is medium's search (60-step rollouts, the card difference) over the distinct
    places only: the win as reward tied every candidate once the piles' orders are public
    (G4), and hard lost to medium (docs/bots.md)."""
    s = position(closed=[[], []], open=[[], ["O9"]], rows=ROWS, pending="R8", filler=0)
    assert search_profile(s.game, "deep") == DEEP_SEARCH  # named for its game: a copy
    assert DEEP_SEARCH.candidates is distinct_places
    assert (DEEP_SEARCH.horizon, DEEP_SEARCH.score_scale) == (SEARCH.horizon, SEARCH.score_scale)
    assert DEEP_SEARCH.score_scale > 0
    bot = make_bot("hard", s.game, 0, seed=3)
    assert isinstance(bot, PlannerAgent) and bot.profile == DEEP_SEARCH
    # Deterministic for its seed; every candidate is a distinct place.
    assert bot.act(s.clone()) == make_bot("hard", s.game, 0, seed=3).act(s.clone())
    assert bot.act(s.clone()) in distinct_places(s)
