"""SCOUT leak hunt: nothing a seat is shown depends on another seat's hidden cards.

Method: for positions from random play, redraw every card seat ``p`` cannot see
(``resample_hidden(p, …)``: other hands' unknown cards, the cards out of the deal) and check
that what ``p`` is shown stays byte-identical: the observation and its JSON, the text and the
picture of the table, the legal actions when ``p`` is to act (and their describe lines), the
error messages of refused actions, the describe lines of the moves played so far (what a
replay of the unfinished game prints), and the round summaries."""

from __future__ import annotations

import json
import random

import pytest

from bigtop.core.registry import new_state
from bigtop.games.scout import svg_from_observation
from bigtop.games.scout.rules import Insert, Pass, Scout, ScoutState, Show, TurnHand
from bigtop.games.scout.teach import round_summary
from tests.games.audit import refusals

PROBES = [Show(0, 1), Show(0, 2), Show(1, 3), Show(5, 4), Show(0, 40), Scout("left", False),
          Scout("right", True), Insert(0, False), Insert(3, True), TurnHand(), Pass()]


def seen_by(s: ScoutState, p: int) -> dict[str, object]:
    view = s.observation(p)
    seen: dict[str, object] = {
        "observation": json.dumps(view, sort_keys=True),
        "render": s.render(p),
        "svg": svg_from_observation(view),
        "public": json.dumps(s.observation(None), sort_keys=True),
    }
    if s.current_player() == p:
        legal = s.legal_actions()
        seen["legal"] = [a.to_json() for a in legal]
        seen["describe"] = [s.describe(a) for a in legal]
        seen["refusals"] = refusals(s, PROBES)
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_what_a_seat_sees_does_not_depend_on_hidden_cards(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(3):
        s = new_state("scout", players, seed, {"rounds": 2})
        assert isinstance(s, ScoutState)
        step = 0
        while not s.is_terminal():
            if step % (2 if players == 2 else 7) == 0:
                for p in range(players):
                    twin = s.resample_hidden(p, rng.randrange(2**32))
                    assert isinstance(twin, ScoutState)
                    assert seen_by(twin, p) == seen_by(s, p), (p, s.to_json())
                    checked += 1
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
            step += 1
    assert checked > 30


def test_describe_lines_name_only_what_the_move_makes_public() -> None:
    """A replay prints ``describe`` for each move: a Show names the cards that become the
    active set; every other move's line is the same whatever the other hands hold."""
    rng = random.Random(5)
    for seed in range(4):
        s = new_state("scout", 3, seed)
        assert isinstance(s, ScoutState)
        while not s.is_terminal():
            legal = s.legal_actions()
            a = legal[rng.randrange(len(legal))]
            line = s.describe(a)
            before = s.clone()
            others = [q for q in range(3) if q != s.to_act]
            if not isinstance(a, Show):
                for q in others:
                    twin = s.resample_hidden(q, rng.randrange(2**32))
                    assert twin.describe(a) == line
            s.apply(a)
            if isinstance(a, Show):
                hand = before.hands[before.to_act]
                shown = hand[a.start:a.start + a.length]
                allowed = {f"{x}/{y}" for x, y in shown + before.active}
                named = {w.strip(",") for w in line.split() if "/" in w}
                # The shown cards, each named, and the beaten set: nothing else of the hand.
                assert {f"{x}/{y}" for x, y in shown} <= named <= allowed
            for note in round_summary(before, s):
                assert "/" not in note  # a round summary counts cards, never names one


def test_a_replay_of_an_unfinished_game_shows_no_hidden_card() -> None:
    """What ``bigtop replay`` prints for a saved, unfinished game (one describe line per move
    and the round summaries) is the same for every redraw of the cards nobody has seen."""
    s = new_state("scout", 4, 12)
    assert isinstance(s, ScoutState)
    rng = random.Random(2)
    for _ in range(120):
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    assert not s.is_terminal()

    def replay_lines(state: ScoutState) -> list[str]:
        fresh = state.game.new_initial_state(state.seed)
        lines = []
        for a in state.history:
            before = fresh.clone()
            lines.append(fresh.describe(a))
            fresh.apply(a)
            lines.extend(round_summary(before, fresh))
        return lines

    lines = replay_lines(s)
    assert len(lines) >= 120
    # Every card named in the replay was on the table at some point (shown or scouted).
    public = set()
    fresh = s.game.new_initial_state(s.seed)
    assert isinstance(fresh, ScoutState)
    for a in s.history:
        if isinstance(a, Show):
            public |= {c for c in fresh.hands[fresh.to_act][a.start:a.start + a.length]}
        fresh.apply(a)
        public |= set(fresh.active) | ({fresh.pending} if fresh.pending else set())
    named = {tok for line in lines for tok in line.replace(",", " ").split() if "/" in tok}
    assert named <= {f"{a}/{b}" for a, b in public} | {f"{b}/{a}" for a, b in public}
