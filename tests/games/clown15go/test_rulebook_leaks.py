"""Clown 15 Go leak hunt. Ruling G4: "Which rows exist, which cards are on them, and every open
pile's whole content are public; only the order of the closed piles is hidden, from everybody
including the owner." So nothing anybody is shown may depend on that order.

Method: for positions from random play under every advanced rule, redraw the closed piles
(``resample_hidden``) and check that the observation (and its JSON), the text and picture of
the table, the legal actions with their describe lines and the refusal messages stay the
same, for each seat and for a spectator."""

from __future__ import annotations

import json
import random

import pytest

from bigtop.core.registry import new_state
from bigtop.games.clown15go import svg_from_observation
from bigtop.games.clown15go.rules import (
    Borrow,
    Clown15GoState,
    LayDown,
    NewRow,
    Pass,
    ToOwnPile,
    ToPile,
    ToRow,
    TurnOver,
)
from tests.games.audit import refusals

PROBES = [NewRow(), ToRow(0), ToRow(5), ToPile(0), ToPile(1), ToOwnPile(), LayDown(),
          TurnOver(), Pass(), Borrow(0, -1), Borrow(1, 0)]

ADVANCED = [{}, {"open_pile_first": True, "borrowing": True},
            {"open_pile_first": True, "own_pile": True, "borrowing": True, "points": True},
            {"recycle": "shuffle", "own_pile": True}]


def seen(s: Clown15GoState, p: int | None) -> dict[str, object]:
    view = s.observation(p)
    out: dict[str, object] = {"observation": json.dumps(view, sort_keys=True),
                              "render": s.render(p), "svg": svg_from_observation(view)}
    if not s.is_terminal():
        out["legal"] = [s.describe(a) for a in s.legal_actions()]
        out["refusals"] = refusals(s, PROBES)
    return out


@pytest.mark.parametrize("options", ADVANCED)
def test_nothing_shown_depends_on_the_closed_order(options: dict[str, object]) -> None:
    rng = random.Random(1)
    checked = 0
    for seed in range(2):
        s = new_state("clown-15-go", 3, seed, {"sets": 3, **options})
        assert isinstance(s, Clown15GoState)
        step = 0
        while not s.is_terminal():
            if step % 5 == 0:
                p = step % 3
                twin = s.resample_hidden(p, rng.randrange(2**32))
                assert isinstance(twin, Clown15GoState)
                for viewer in (p, None):
                    assert seen(twin, viewer) == seen(s, viewer), s.to_json()
                checked += 1
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
            step += 1
    assert checked > 20

