"""SCOUT's believed determinization (``games/scout/bot.py``'s ``resample_believed``): fair
(it reads only what the seat sees), a true deal of the same cards, and believing what the
others' public moves suggest: a scouted card's hidden neighbours join it in a set, and each
hand shows its stronger side."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from bigtop.agents.ismcts import determinization
from bigtop.agents.levels import make_bot, search_profile
from bigtop.agents.planner import PlannerAgent
from bigtop.core.game import State
from bigtop.core.registry import new_game
from bigtop.games.scout.bot import _hand_value, resample_believed
from bigtop.games.scout.cards import canonical
from bigtop.games.scout.rules import ScoutState


def _midround(seed: int, moves: int = 30, players: int = 4,
              options: dict[str, object] | None = None) -> ScoutState:
    """A round played on by medium bots until some cards were scouted into hands."""
    game = new_game("scout", players, {"rounds": 1, **(options or {})})
    state = game.new_initial_state(seed)
    bots = [make_bot("medium", game, q, seed * 10 + q) for q in range(players)]
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(bots[state.current_player()].act(state))
    assert isinstance(state, ScoutState)
    return state


def _states_with_known_cards() -> list[ScoutState]:
    out = [s for seed in range(12) for s in [_midround(seed)]
           if not s.is_terminal() and any(any(k) for k in s.known[1:])]
    assert len(out) >= 6
    return out


def _cards(s: ScoutState) -> Counter[tuple[int, int]]:
    return Counter(canonical(c) for h in s.hands for c in h) + Counter(
        canonical(c) for c in s.unused)


def test_a_believed_deal_keeps_what_the_seat_sees_and_the_cards() -> None:
    for s in _states_with_known_cards():
        for seed in range(20):
            d = resample_believed(s, 0, seed)
            assert isinstance(d, ScoutState)
            assert d.problems() == []
            assert d.observation(0) == s.observation(0)
            assert _cards(d) == _cards(s)
            assert d == resample_believed(s, 0, seed)  # deterministic for a seed


def test_a_believed_deal_reads_only_what_the_seat_sees() -> None:
    """Two states alike for seat 0 (one is a redraw of the other's hidden cards) give the
    same believed deals."""
    for s in _states_with_known_cards():
        other = s.resample_hidden(0, 12345)
        assert other != s and other.observation(0) == s.observation(0)
        for seed in range(5):
            assert resample_believed(other, 0, seed) == resample_believed(s, 0, seed)


def _within_one(draw: list[State], states: list[ScoutState]) -> float:
    """The share of hidden cards beside a known card in another hand whose number is within
    one of that card's."""
    near = total = 0
    for d, s in zip(draw, states, strict=True):
        assert isinstance(d, ScoutState)
        for q in range(1, len(s.hands)):
            hand, known = d.hands[q], s.known[q]
            for i, k in enumerate(known):
                for j in (i - 1, i + 1):
                    if k and 0 <= j < len(hand) and not known[j]:
                        total += 1
                        near += abs(hand[i][0] - hand[j][0]) <= 1
    assert total > 100
    return near / total


def test_a_scouted_cards_hidden_neighbours_are_believed_to_join_it() -> None:
    states = _states_with_known_cards() * 20
    even = _within_one([s.resample_hidden(0, k) for k, s in enumerate(states)], states)
    believed = _within_one([resample_believed(s, 0, k) for k, s in enumerate(states)], states)
    # Drawn evenly about 0.29 are within one; NEIGHBOUR_ODDS make it about 0.7.
    assert even < 0.4 < 0.6 < believed


def test_each_other_hand_shows_its_stronger_side_unless_hands_are_never_turned() -> None:
    def weaker_sides(states: list[ScoutState]) -> int:
        weaker = 0
        for s in states:
            for seed in range(10):
                d = resample_believed(s, 0, seed)
                assert isinstance(d, ScoutState)
                for q in range(1, len(d.hands)):
                    tops = [c[0] for c in d.hands[q]]
                    turned = [c[0] if k else c[1] for c, k in zip(d.hands[q], d.known[q],
                                                                 strict=True)]
                    weaker += _hand_value(turned) > _hand_value(tops)
        return weaker

    # Only the cards drawn beside known ones keep their drawn side, so a few hands may
    # still be weaker turned; without known cards none is.
    fresh = [new_game("scout", 4, {"rounds": 1}).new_initial_state(k) for k in range(10)]
    assert all(isinstance(s, ScoutState) for s in fresh)
    assert weaker_sides(fresh) == 0  # type: ignore[arg-type]
    never = [_midround(seed, options={"hand_turn": "off"}) for seed in range(6)]
    assert weaker_sides(never) > 20
    for s in never:  # nothing scouted in, nothing turned: the even draw itself
        if not any(any(k) for k in s.known[1:]):
            assert resample_believed(s, 0, 3) == s.resample_hidden(0, 3)


def test_the_planner_draws_its_determinizations_as_the_profile_says() -> None:
    drawn: list[int] = []

    def count(state: State, seat: int, seed: int) -> State:
        drawn.append(seat)
        return state.resample_hidden(seat, seed)

    s = _midround(2, moves=5)
    me = s.current_player()
    even = replace(search_profile(s.game), determinize=None)
    assert determinization(even, s, me, 1) == s.resample_hidden(me, 1)
    PlannerAgent(6, 1, replace(even, determinize=count)).act(s)
    assert drawn == [me] * 6
