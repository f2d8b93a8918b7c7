"""Hand-written positions (loading and validation), JSON round trips, observations and
resampling (ruling G4), and perft counts for the positions documented in docs/clown-15-go.md."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bigtop.core.errors import InvalidStateError
from bigtop.core.perft import perft
from bigtop.core.registry import load_state, new_state
from bigtop.games.clown15go.rules import Clown15GoState
from tests.games.clown15go.helpers import position

ALL_ON = {"open_pile_first": True, "own_pile": True, "borrowing": True, "points": True}


def image_3() -> Clown15GoState:
    """docs: "Position A" (the rulebook's image 3)."""
    return position(2, closed=[["R15"], ["O14"]], open=[["R5", "O8", "O2"], ["R9"]],
                    rows=[["O1"]], filler=1, phase="turn", options={"open_pile_first": True})


def image_4() -> Clown15GoState:
    """docs: "Position B" (the rulebook's image 4)."""
    return position(4, closed=[[], ["O15"], [], ["R13"]],
                    open=[["O3"], ["R9"], ["O12"], ["R10"]],
                    rows=[["O1", "O2", "R3", "R4", "O5", "O6", "O7", "R8"]], filler=0,
                    to_act=3, phase="turn",
                    options={"open_pile_first": True, "borrowing": True})


def walk(players: int, seed: int, options: dict[str, Any], steps: int = 80) -> Clown15GoState:
    """docs: the seeded positions: from the deal, play legal[(len(history) * 7) % len]."""
    s = new_state("clown-15-go", players, seed=seed, options=options)
    for _ in range(steps):
        legal = s.legal_actions()
        s.apply(legal[len(s.history) * 7 % len(legal)])
    assert isinstance(s, Clown15GoState)
    return s


@pytest.mark.parametrize(("make", "counts"), [
    (image_3, [2, 3, 3, 3, 3]),
    (image_4, [3, 5, 6, 6, 6]),
    (lambda: walk(3, 2, {}), [1, 1, 2, 2, 2]),
    (lambda: walk(4, 3, {"sets": 4, **ALL_ON}), [2, 4, 8, 18, 35]),
    (lambda: walk(2, 5, {"placing": "voluntary"}), [1, 2, 2, 2, 3]),
], ids=["image-3", "image-4", "walk-3p", "walk-4p-all-rules", "walk-2p-voluntary"])
def test_perft(make: Any, counts: list[int]) -> None:
    s = make()
    assert [perft(s, d) for d in range(1, len(counts) + 1)] == counts


def test_hand_written_position_round_trips() -> None:
    s = image_4()
    data = s.to_json()
    again = load_state(json.loads(json.dumps(data)))
    assert again == s and again.legal_actions() == s.legal_actions()
    s.audit()


BASE: dict[str, Any] = {
    "closed": [["R2", "R3", "R4", "R5", "R6", "R7"], ["R8", "R9", "R10", "R11", "R12"]],
    "open": [["R13"], ["R14"]], "rows": [["R1"]], "pending": "R15",
}


def _load(pos: dict[str, Any], options: dict[str, Any] | None = None) -> None:
    load_state({"game": "clown-15-go", "players": 2, "options": {"sets": 1, **(options or {})},
                "seed": 0, "position": pos})


def test_base_position_is_valid() -> None:
    _load(BASE)


@pytest.mark.parametrize(("change", "message"), [
    ({"pending": "R2"}, "appears twice"),
    ({"pending": None}, "missing"),
    ({"pending": "G15"}, "not a card"),
    ({"rows": [["R1", "R3"]]}, "must run 1, 2, 3"),
    ({"closed": [["R2"]]}, "must list 2 piles"),
    ({"to_act": 2}, "to_act"),
    ({"phase": "over"}, "end_reason"),
    ({"phase": "turn"}, "turned card"),
    ({"points": [15, 0]}, "'points' must be"),
    ({"colour": "red"}, "unknown Clown 15 Go position field"),
    ({"recycled": [True]}, "recycled"),
    ({"quiet_turns": 3}, "quiet_turns"),
    ({"turns": 5, "quiet_turns": 5, "pass_streak": 2}, "stall limit"),
    ({"out_order": [0]}, "out_order"),
])
def test_inconsistent_positions_are_rejected(change: dict[str, Any], message: str) -> None:
    pos = copy.deepcopy(BASE)
    pos.update(change)
    with pytest.raises(InvalidStateError, match=message):
        _load(pos)


def test_observation_hides_only_the_closed_order() -> None:
    """G4: "Which rows exist, which cards are on them, and every open pile's whole content are
    public; only the order of the closed piles is hidden, from everybody including the
    owner." """
    s = new_state("clown-15-go", 3, seed=9)
    assert isinstance(s, Clown15GoState)
    while s.turns < 40:
        s.apply(s.legal_actions()[0])
    views = [s.observation(p) for p in range(3)]
    public = s.observation(None)
    for p, v in enumerate(views):
        assert v["player"] == p
        assert {**v, "player": None} == public  # nobody sees more than anybody else
    text = json.dumps(public)
    for q in range(3):
        if not s.recycled[q] and len(s.closed[q]) > 1:
            # the order of a dealt pile appears nowhere; only the union of them
            order = json.dumps(s.deck.texts(s.closed[q]))
            assert order not in text
    assert sorted(public["unseen"]) == sorted(
        s.deck.text(c) for q in range(3) if not s.recycled[q] for c in s.closed[q])


def test_resample_keeps_the_observation_and_redraws_the_order() -> None:
    s = new_state("clown-15-go", 2, seed=4)
    assert isinstance(s, Clown15GoState)
    while not any(s.recycled) and not s.is_terminal():
        s.apply(s.legal_actions()[0])
    changed = False
    for k in range(5):
        r = s.resample_hidden(0, k)
        assert isinstance(r, Clown15GoState)
        assert r.observation(0) == s.observation(0) and r.observation(1) == s.observation(1)
        r.audit()
        for q in range(2):
            assert sorted(r.closed[q]) == sorted(s.closed[q]) or not s.recycled[q]
        changed |= r.closed != s.closed
        assert r.seed != s.seed
    assert changed
