"""Deck, deal, turn order, rounds, scoring, actions, JSON and positions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bigtop.core.errors import (
    IllegalActionError,
    InvalidStateError,
    MalformedActionError,
    RuleOptionError,
)
from bigtop.core.registry import load_state, new_game, new_state
from bigtop.games.tricky_landing.cards import HAND_SIZE, card_name, deck_for, leftover
from bigtop.games.tricky_landing.rules import (
    GRID_AIMS,
    GRID_SPINS,
    Throw,
    TrickyLandingGame,
    TrickyLandingState,
)
from tests.conftest import play_random
from tests.games.tricky_landing.helpers import (
    FAR,
    FAR2,
    RIGHT,
    TOP,
    arranged,
    finish_round_quickly,
    play_poses,
)


def _state(players: int = 3, seed: int = 0, **options: Any) -> TrickyLandingState:
    s = new_state("tricky-landing", players=players, seed=seed, options=options)
    assert isinstance(s, TrickyLandingState)
    return s


@pytest.mark.parametrize("players,top,hand", [(3, 8, 12), (4, 9, 11), (5, 10, 9), (6, 10, 8)])
def test_deck_and_deal(players: int, top: int, hand: int) -> None:
    """"3 players: clown cards 1-8 of each suit … 12 cards each" (and so on)."""
    deck = deck_for(players)
    assert len(deck) == 5 * top and HAND_SIZE[players] == hand
    s = _state(players, seed=4)
    assert all(len(h) == hand for h in s.hands)
    assert len(s.undealt) == leftover(players) == 5 * top - players * hand
    assert sorted(c for h in s.hands for c in h) + sorted(s.undealt) != []
    assert set(c for h in s.hands for c in h) | set(s.undealt) == set(deck)


def test_turn_order_and_first_player_card() -> None:
    """"Starting with the starting player and going clockwise, each player chooses one card"
    — "The first player card passes clockwise to the next player … after every trick.\""""
    s = _state(4, seed=1)
    assert s.leader == 0 and s.dealer == 3  # the dealer sits to the starting player's right
    order = []
    for _ in range(8):
        order.append(s.current_player())
        s.apply(s.legal_actions()[0])
    assert order == [0, 1, 2, 3, 1, 2, 3, 0]
    assert s.leader == 2


def test_next_leader_alternative() -> None:
    s = arranged(3, {0: ["y3"], 1: ["y5"], 2: ["b5"]}, options={"next_leader": "trick-winner"})
    play_poses(s, ("y3", TOP), ("y5", RIGHT), ("b5", FAR))
    assert s.leader == 1  # the yellow 5 won
    s = arranged(3, {0: ["y3"], 1: ["y5"], 2: ["b5"]})
    play_poses(s, ("y3", TOP), ("y5", RIGHT), ("b5", FAR))
    assert s.leader == 1  # clockwise from P0


def test_scoring_of_a_round() -> None:
    """"1 point for each face-down card; -2 points for each face-up card\""""
    s = _state(3, seed=2)
    finish_round_quickly(s)
    won_before = [len(w) for w in s.won]
    leader = s.leader
    cards = [s.hands[(leader + i) % 3][0] for i in range(3)]
    # The first two throwers miss (kept face up), the third hits alone.
    play_poses(s, (cards[0], FAR), (cards[1], FAR2), (cards[2], TOP))
    assert s.round == 1 and len(s.round_scores) == 1
    expect = [0, 0, 0]
    for i in range(3):
        q = (leader + i) % 3
        expect[q] = won_before[q] + (1 if i == 2 else 0) - (2 if i < 2 else 0)
    assert s.round_scores[0] == expect and s.totals == expect
    # A new round is dealt: the next player clockwise starts; the dealer is to their right.
    assert s.starter == 1 and s.leader == 1 and s.dealer == 0
    assert all(len(h) == 12 for h in s.hands) and s.won == [[], [], []]
    s.audit()


def test_next_round_leader_alternative() -> None:
    s = _state(3, seed=2, next_round_leader="card-holder")
    finish_round_quickly(s)
    holder = (s.leader + 1) % 3
    play_poses(s, *[(s.hands[(s.leader + i) % 3][0], TOP) for i in range(3)])
    assert s.starter == holder == s.leader


def test_trump_between_rounds() -> None:
    """T6: by default the trump card is collected between rounds; the option keeps the suit."""
    for option, suit in (("cleared", None), ("carries-over", "SUIT")):
        s = _state(3, seed=2, trump_between_rounds=option)
        finish_round_quickly(s)
        lone = s.hands[(s.leader + 2) % 3][0]
        play_poses(s, (s.hands[s.leader][0], TOP), (s.hands[(s.leader + 1) % 3][0], RIGHT),
                   (lone, FAR))
        assert s.trump_card is None
        assert s.trump_suit == (lone[0] if suit else None)
        s.audit()
        # JSON keeps it.
        assert s.game.state_from_json(s.to_json()) == s


def test_three_rounds_then_game_over() -> None:
    """"After 3 rounds, add up each player's round scores. The player with the highest total
    score wins. If players are tied, they share the victory.\""""
    s = play_random(_state(3, seed=5), random.Random(1))
    assert isinstance(s, TrickyLandingState)
    assert s.finished and s.round == 3 and len(s.round_scores) == 3
    assert s.scores() == [float(sum(r[q] for r in s.round_scores)) for q in range(3)]
    best = max(s.scores())
    assert s.winners() == [q for q in range(3) if s.scores()[q] == best]
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError):
        s.apply(Throw("y1", 0.0, 0.0, 3.0))


def test_rounds_option() -> None:
    s = play_random(_state(4, seed=5, rounds=1), random.Random(1))
    assert isinstance(s, TrickyLandingState) and len(s.round_scores) == 1


def test_legal_actions_are_the_grid() -> None:
    s = _state(4, seed=3)
    legal = s.legal_actions()
    assert len(legal) == 11 * len(GRID_AIMS) * len(GRID_SPINS)
    assert legal is s.legal_actions()
    g = s.game
    assert g.num_distinct_actions() == 45 * 27
    assert all(g.action_from_int(g.action_to_int(a)) is a for a in legal)


def test_continuous_throws_are_accepted() -> None:
    s = _state(4, seed=3)
    card = s.hands[0][0]
    a = Throw(card, 1.234, -2.5, -4.75)
    assert a not in s.legal_actions()
    s.apply(a)
    assert s.table[0].card == card and s.history == [a]
    assert s.game.state_from_json(json.loads(json.dumps(s.to_json()))) == s
    with pytest.raises(IllegalActionError):
        s.game.action_to_int(a)


@pytest.mark.parametrize("bad", [
    Throw("y1", 0.0, 0.0, 3.0),  # not in hand (P0 holds it or not: checked below)
    Throw("zz", 0.0, 0.0, 3.0),
    Throw("CARD", 50.0, 0.0, 3.0),
    Throw("CARD", 0.0, -45.5, 3.0),
    Throw("CARD", 0.0, 0.0, 11.0),
])
def test_bad_throws_are_rejected_and_change_nothing(bad: Throw) -> None:
    s = _state(4, seed=3)
    if bad.card == "CARD":
        bad = Throw(s.hands[0][0], bad.x, bad.y, bad.spin)
    elif bad.card in s.hands[0]:
        bad = Throw(s.hands[1][0], bad.x, bad.y, bad.spin)
    before = json.dumps(s.to_json())
    with pytest.raises(IllegalActionError):
        s.apply(bad)
    assert json.dumps(s.to_json()) == before


@pytest.mark.parametrize("x", [float("inf"), float("nan"), 10**400, True, "0"])
def test_non_finite_or_wrong_typed_throws_cannot_be_built(x: object) -> None:
    with pytest.raises(MalformedActionError):
        Throw("g2", x, 0.0, 3.0)  # type: ignore[arg-type]


def test_malformed_json_actions() -> None:
    s = _state(3)
    for obj in ({"type": "throw", "card": "y1"}, {"type": "throw", "card": 3, "x": 0, "y": 0,
                                                  "spin": 0},
                {"type": "throw", "card": "y1", "x": "0", "y": 0, "spin": 0}):
        with pytest.raises(MalformedActionError):
            s.apply_json(obj)


def test_action_from_text() -> None:
    s = _state(4, seed=3)
    card = s.hands[0][0]
    a = s.action_from_text(f"{card} 0 0 medium")
    assert a in s.legal_actions() and a == Throw(card, 0.0, 0.0, 3.0)
    assert s.action_from_text(card) == a  # centre, medium spin by default
    assert s.action_from_text(f"{card} 2.5 -3 4.5") == Throw(card, 2.5, -3.0, 4.5)
    assert s.action_from_text(f"{card.upper()} high") == Throw(card, 0.0, 0.0, 6.0)
    for bad in ("", "q9", f"{card} 1 2 3 4", f"{card} a b", f"{card} 0 0 fast", f"{card} 0 0 nan"):
        with pytest.raises(MalformedActionError):
            s.action_from_text(bad)
    assert s.describe(a, 0).startswith("You throw the")  # told to the thrower


def test_a_throw_is_described_publicly_without_its_card() -> None:
    """Regression (issue #10): `bigtop play` printed a bot's throw with the card's name before
    it landed; 13% land face down, so the card is secret. The public line names no card."""
    s = _state(4, seed=3)
    for a in s.legal_actions():
        assert isinstance(a, Throw)
        public = s.describe(a)
        assert "throws a card" in public and a.card not in public.split()
        assert card_name(a.card) not in public
        assert card_name(a.card) in s.describe(a, s.current_player())
        for other in range(1, 4):
            assert s.describe(a, other) == public


def test_replay_and_landings_are_deterministic() -> None:
    s = _state(5, seed=9)
    rng = random.Random(3)
    for _ in range(17):
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    r = _state(5, seed=9)
    for a in s.history:
        r.apply(a)
    assert r == s
    # Another seed throws the same card alike and it lands elsewhere (P0 holds it under both
    # seeds: the first throw's own card, y6, is not in seed 10's first hand).
    first = s.history[0]
    assert isinstance(first, Throw)
    here, other = _state(5, seed=9), _state(5, seed=10)
    card = min(set(here.hands[0]) & set(other.hands[0]))
    for t in (here, other):
        t.apply(Throw(card, first.x, first.y, first.spin))
    assert here.table and other.table and here.table != other.table


def test_observation_hides_hands_and_face_down_cards() -> None:
    s = arranged(3, {0: ["y3"], 1: ["y5"], 2: ["b5"]})
    play_poses(s, ("y3", TOP, True))
    o1 = s.observation(1)
    assert o1["table"][0]["card"] is None and o1["table"][0]["face"] == "down"
    assert s.observation(0)["table"][0]["card"] == "y3"
    assert s.observation(None)["table"][0]["card"] is None
    assert o1["hand"] == s.hands[1] and "hands" not in o1
    assert "seed" not in o1
    text = json.dumps(s.observation(2))
    for c in s.hands[0]:
        assert f'"{c}"' not in text or c in json.dumps(s.observation(2)["penalty"])


def test_resample_keeps_the_view_and_redraws_the_rest() -> None:
    s = arranged(3, {0: ["y3"], 1: ["y5"], 2: ["b5"]})
    play_poses(s, ("y3", TOP, True))
    for p in range(3):
        for seed in range(5):
            r = s.resample_hidden(p, seed)
            assert r.observation(p) == s.observation(p)
            r.audit()
            assert r.seed != s.seed
    r = s.resample_hidden(1, 0)
    assert isinstance(r, TrickyLandingState)
    assert r.hands[0] != s.hands[0] or r.table[0].card != "y3"


def test_hand_written_position_loads() -> None:
    g = new_game("tricky-landing", 3)
    s = arranged(3, {0: ["y3"], 1: ["y5"], 2: ["b5"]})
    pos = s.to_json()["position"]
    del pos["undealt"], pos["hidden"]  # derived when omitted
    data = {"game": "tricky-landing", "players": 3, "seed": 0, "position": pos}
    loaded = load_state(data)
    assert loaded == g.state_from_json(s.to_json())


@pytest.mark.parametrize("change,message", [
    (lambda p: p["hands"][0].append(p["hands"][1][0]), "appears 2 times"),
    (lambda p: p["hands"][0].pop(), "missing"),
    (lambda p: p["hands"][0].__setitem__(0, "y9"), "not a card of the 3-player deck"),
    (lambda p: p.__setitem__("leader", 3), "leader"),
    (lambda p: p.__setitem__("trick", 2), "holds 12 cards"),
    (lambda p: p.__setitem__("trump_card", p["undealt"].pop()), "undealt"),
    (lambda p: p.__setitem__("totals", [1, 0, 0]), "totals"),
    (lambda p: p.__setitem__("colour", "red"), "unknown"),
    (lambda p: p.__setitem__("table", [{"player": 0, "card": p["hands"][0].pop(), "x": 0,
                                        "y": 0, "rotation": 400, "face": "up"}]),
     "rotation"),
    (lambda p: p.__setitem__("table", [{"player": 1, "card": p["hands"][1].pop(), "x": 0,
                                        "y": 0, "rotation": 0, "face": "up"}]),
     "throwing order"),
])
def test_inconsistent_positions_are_rejected(change: Any, message: str) -> None:
    g = new_game("tricky-landing", 3)
    s = _state(3, seed=1)
    data = s.to_json()
    change(data["position"])
    with pytest.raises(InvalidStateError, match=message):
        g.state_from_json(data)


def _round_two_position(options: dict[str, Any] | None = None,
                        **fields: Any) -> dict[str, Any]:
    """A hand-written 3-player position at the first throw of round 2 (round 1 scored 0 each:
    every card discarded), under ``options``, with ``fields`` added."""
    deck = list(deck_for(3))
    pos: dict[str, Any] = {"round": 1, "hands": [deck[0:12], deck[12:24], deck[24:36]],
                           "round_scores": [[0, 0, 0]], "round_piles": [[[0, 0]] * 3]}
    pos.update(fields)
    return {"game": "tricky-landing", "players": 3, "seed": 0,
            "options": new_game("tricky-landing", 3, options or {}).options.to_json(),
            "position": pos}


def test_a_positions_first_player_card_follows_the_rounds_and_tricks() -> None:
    """*"The turn order moves clockwise, and the next player leads the first trick of the next
    round"* and *"The first player card passes clockwise … after every trick"*: a hand-written
    position without ``starter`` starts round r at first_player + r, and one whose card
    holder could not arise in play under those rules is refused."""
    s = load_state(_round_two_position())
    assert isinstance(s, TrickyLandingState)
    assert (s.starter, s.leader, s.dealer, s.current_player()) == (1, 1, 0, 1)
    t = load_state(_round_two_position({"first_player": 2}))
    assert isinstance(t, TrickyLandingState) and t.starter == 0
    with pytest.raises(InvalidStateError, match="round 2 is started by P1"):
        load_state(_round_two_position(starter=0))
    with pytest.raises(InvalidStateError, match="first player card"):
        load_state(_round_two_position(starter=1, leader=2))
    deck = deck_for(3)
    second_trick: dict[str, Any] = {
        "trick": 1, "discard": [deck[k] for k in (11, 23, 35)],
        "hands": [list(deck[0:11]), list(deck[12:23]), list(deck[24:35])]}
    with pytest.raises(InvalidStateError, match="first player card"):
        load_state(_round_two_position(starter=1, leader=0, **second_trick))
    # Under next_leader=trick-winner the card went to the trick's winner; the round's
    # starter is still first_player + round.
    v = load_state(_round_two_position({"next_leader": "trick-winner"}, leader=0,
                                       **second_trick))
    assert isinstance(v, TrickyLandingState) and (v.starter, v.leader) == (1, 0)
    # Under the alternatives another holder can arise, and loads.
    u = load_state(_round_two_position({"next_round_leader": "card-holder"}, starter=0))
    assert isinstance(u, TrickyLandingState) and u.leader == 0


def test_options_are_validated() -> None:
    with pytest.raises(RuleOptionError):
        TrickyLandingGame(4, {"lead_suit": "whatever"})
    with pytest.raises(RuleOptionError):
        TrickyLandingGame(4, {"skill": 0})
    with pytest.raises(RuleOptionError):
        TrickyLandingGame(2)
    g = TrickyLandingGame(4, {"skill": "2", "touch_tolerance_mm": "0.5"})
    assert g.model.skill == 2.0 and g.model.touch_tolerance_cm == 0.05


def test_conformance_options_cover_every_alternative() -> None:
    seen: dict[str, set[object]] = {}
    for n in range(3, 7):
        for opts in TrickyLandingGame.conformance_options(n):
            TrickyLandingGame(n, opts)
            for k, v in opts.items():
                seen.setdefault(k, set()).add(v)
    from bigtop.games.tricky_landing.options import TrickyLandingOptions

    for info in TrickyLandingOptions.info():
        if info.choices:
            assert seen.get(info.name, set()) | {info.default} == set(info.choices)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_audit(players: int) -> None:
    s = _state(players, seed=players)
    rng = random.Random(players)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
        s.audit()
    assert s.game.state_from_json(json.loads(json.dumps(s.to_json()))) == s


def test_the_documented_position_loads() -> None:
    """docs/tricky-landing.md's hand-written position example is valid."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "tricky-landing.md").read_text()
    block = text.split("<!-- position-example -->", 1)[1].split("```json", 1)[1]
    data = json.loads(block.split("```", 1)[0])
    s = load_state(data)
    assert isinstance(s, TrickyLandingState)
    assert s.current_player() == 0 and s.undealt == ["o5", "o6", "o7", "o8"]
    assert s.dealer == 2
    s.audit()


def test_resample_depends_only_on_the_view_and_seed() -> None:
    s = _state(4, seed=6)
    rng = random.Random(2)
    for _ in range(23):
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    for p in range(4):
        once = s.resample_hidden(p, 17)
        assert once.resample_hidden(p, 17) == once
        assert s.resample_hidden(p, 17) == once
        assert once.observation(p) == s.observation(p)


def test_observation_tensor() -> None:
    for players in (3, 6):
        s = _state(players, seed=players)
        rng = random.Random(1)
        for step in range(40):
            for p in range(players):
                t = s.game.observation_tensor(s, p)
                assert len(t) == 468 == s.game.observation_tensor_shape()[0]
                assert all(abs(v) <= 10 for v in t)
                if step % 9 == 0:
                    assert s.game.observation_tensor(s.resample_hidden(p, step), p) == t
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])


# -- per-player skill and aims in the thrower's frame (issue 11) -----------------------------


def test_per_player_skill() -> None:
    """Rulings: "release errors drawn from a per-player skill". ``skill`` is one number for
    everybody or one per player; a better thrower's card lands nearer the aim."""
    import math

    from typer.testing import CliRunner

    from bigtop.cli import app
    from bigtop.games.tricky_landing.physics import to_table

    g = TrickyLandingGame(4, {"skill": "[0.7,1,1,1.3]"})
    assert [m.skill for m in g.models] == [0.7, 1.0, 1.0, 1.3]
    assert TrickyLandingGame(4, {"skill": [2, 2, 2, 2]}).options.skill == (2.0,) * 4
    assert [m.skill for m in TrickyLandingGame(4, {"skill": 1.5}).models] == [1.5] * 4
    with pytest.raises(RuleOptionError, match="3 skills for 4 players"):
        TrickyLandingGame(4, {"skill": [1, 1, 1]})
    with pytest.raises(RuleOptionError):
        TrickyLandingGame(4, {"skill": "[1, 0, 1, 1]"})
    s = g.new_initial_state(5)
    assert load_state(json.loads(json.dumps(s.to_json()))) == s
    # The same seed and throws; only P0's skill differs: P0 lands nearer, P1 the same.
    sharp = _state(4, 5, skill=[4, 1, 1, 1])
    plain = _state(4, 5, skill=1)
    for st in (sharp, plain):
        for _ in range(2):
            st.apply(st.action_from_text(f"{st.hands[st.current_player()][0]} 5 0 none"))

    def off(c: Any, seat: float) -> float:
        ax, ay = to_table(seat, 5.0, 0.0)
        return math.hypot(c.x - ax, c.y - ay)

    assert off(sharp.table[0], g.seats[0]) < off(plain.table[0], g.seats[0]) / 3
    assert sharp.table[1] == plain.table[1]
    runner = CliRunner()
    res = runner.invoke(app, ["simulate", "tricky-landing", "-p", "4", "-n", "2", "--seed", "1",
                              "--option", "skill=[0.7,1,1,1.3]", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["options"]["skill"] == [0.7, 1.0, 1.0, 1.3]
    res = runner.invoke(app, ["play", "tricky-landing", "-p", "4", "--seed", "1",
                              "--option", "skill=[0.7,1,1,1.3]"], input="quit\n")
    assert res.exit_code == 0 and "Traceback" not in res.output, res.output
    res = runner.invoke(app, ["simulate", "tricky-landing", "-p", "4", "-n", "1",
                              "--option", "skill=[1,1]"])
    assert res.exit_code != 0 and "2 skills for 4 players" in res.output


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_aims_are_relative_to_the_thrower(players: int) -> None:
    """Rulings: each player "throws from about 30 cm from the target, towards it"; T10: the
    grid's aims are in the thrower's frame (x to the right, y away from them), so an aim
    called a deliberate miss misses from every seat: at the default skill each touches the
    target in (near) 0% of throws from every seat, with every grid spin (at most 0.6% in
    20,000 throws; 18 cm beyond touched 9% even at skill 1). Here 4,000 seeded throws per
    aim, seat and spin must stay below 1.2%."""
    import numpy as np

    from bigtop.games.tricky_landing.physics import simulate_throws, to_table, touches_target
    from bigtop.games.tricky_landing.rules import GRID_AIMS, GRID_SPINS

    g = TrickyLandingGame(players)
    for p, seat in enumerate(g.seats):
        for aim in GRID_AIMS[5:]:
            x, y = to_table(seat, *aim)
            for spin in GRID_SPINS:
                sample = simulate_throws(g.models[p], seat, x, y, spin, n=4000, seed=p)
                touched = float(np.mean(touches_target(g.model, sample)))
                assert touched < 0.012, (p, aim, spin, touched)
    # A sure-handed thrower's "short" miss lands between the target and their own seat.
    s = _state(players, 2, skill=10)
    for p in range(players):
        s.apply(s.action_from_text(f"{s.hands[p][0]} 0 -22 medium"))
        if not s.table:
            break
        c = s.table[-1]
        sx, sy = to_table(g.seats[p], 0.0, -30.0)  # the seat, in table coordinates
        assert math_dist(c.x, c.y, sx, sy) < 14 and math_dist(c.x, c.y, 0, 0) > 15


def math_dist(x1: float, y1: float, x2: float, y2: float) -> float:
    return float(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5)


def test_observation_tensor_uses_the_observers_frame() -> None:
    """The tensor gives table cards in the observer's frame, the one their aims use: a card 3
    cm to P1's right and 5 cm beyond the centre reads (3, 5) to P1, and (3, 5) to P0 only if
    it lay there in P0's frame."""
    from bigtop.games.tricky_landing.physics import to_table
    from bigtop.games.tricky_landing.tensor import _NCARDS, _SEATS

    s = _state(4, 1)
    g = s.game
    seat1 = g.seats[1]
    x, y = to_table(seat1, 3.0, 5.0)
    s.place_from_hand(s.hands[0][0], x, y, seat1 + 90.0 + 30.0, False)
    at = 2 * _NCARDS + 6 + 1 + _SEATS + _NCARDS + 1  # slot 0's x/30
    t1 = g.observation_tensor(s, 1)
    assert t1[at:at + 2] == pytest.approx([3 / 30, 5 / 30])
    assert t1[at + 2:at + 4] == pytest.approx([0.5, 3 ** 0.5 / 2])  # 2θ = 60° in P1's frame
    t0 = g.observation_tensor(s, 0)
    assert t0[at:at + 2] == pytest.approx([x / 30, y / 30])  # P0 sits at the bottom
