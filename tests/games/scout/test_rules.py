"""SCOUT rule scenarios. Each test quotes the rulebook line it checks
(../shared/seeds/001_df8c940f20f01f9a.txt; English reading in ../shared/rules/scout.md)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from bigtop.core.errors import IllegalActionError, InvalidStateError, MalformedActionError
from bigtop.core.game import TERMINAL
from bigtop.core.registry import new_game, new_state
from bigtop.games.scout.cards import HAND_SIZE, canonical, deck_for
from bigtop.games.scout.rules import (
    Insert,
    Pass,
    Scout,
    ScoutState,
    Show,
    TurnHand,
    _strength,
)
from tests.games.scout.helpers import position


def scout_state(players: int, seed: int = 1, **options: object) -> ScoutState:
    s = new_state("scout", players, seed, options)
    assert isinstance(s, ScoutState)
    return s


def kinds(state: ScoutState) -> Counter[str]:
    return Counter(a.kind for a in state.legal_actions())


# -- set-up ----------------------------------------------------------------------------------


def test_deck_by_player_count() -> None:
    """"5 pelaajaa: mitään ei poisteta. 2 tai 4: kortti jossa on 9 ja 10 poistetaan.
    3: kortit joissa on numero 10, poistetaan.\""""
    assert len(deck_for(5)) == 45
    assert (9, 10) not in deck_for(4) and (9, 10) not in deck_for(2)
    assert len(deck_for(4)) == len(deck_for(2)) == 44
    assert all(10 not in c for c in deck_for(3)) and len(deck_for(3)) == 36
    # Every pair {a, b} with 1 <= a < b <= 10 once.
    assert sorted(deck_for(5)) == [(a, b) for a in range(1, 11) for b in range(a + 1, 11)]


@pytest.mark.parametrize("players,size", [(5, 9), (4, 11), (3, 12), (2, 11)])
def test_deal_sizes(players: int, size: int) -> None:
    """"5 pelaajaa: jokaiselle 9 korttia. 4: jokaiselle 11 korttia. 3: jokaiselle 12 korttia.
    2: jokaiselle 11 korttia.\""""
    s = scout_state(players)
    assert [len(h) for h in s.hands] == [size] * players
    assert HAND_SIZE[players] == size
    # S6: with two players the rest of the deck is not used that round.
    assert len(s.unused) == len(deck_for(players)) - players * size


def test_random_orientation_at_deal() -> None:
    """Cards are dealt in random orientation: both ends turn up over many deals."""
    ups: Counter[bool] = Counter()
    for seed in range(50):
        s = scout_state(4, seed)
        for h in s.hands:
            for c in h:
                ups[c[0] < c[1]] += 1
    assert 0.4 < ups[True] / sum(ups.values()) < 0.6


def test_turn_hand_reverses_order_and_flips_every_card() -> None:
    """"Korttien järjestystä kädessä ei saa muuttaa, mutta halutessaan koko korttikäden voi
    kääntää ylösalaisin." Turning reverses the order and shows every card's other number."""
    s = scout_state(3)
    before = list(s.hands[0])
    s.apply(TurnHand())
    assert s.hands[0] == [(b, a) for a, b in reversed(before)]
    assert s.current_player() == 0  # turning is not the turn's action
    assert TurnHand() not in s.legal_actions()  # once


def test_s1_turn_only_before_first_action() -> None:
    s = scout_state(3)
    assert TurnHand() in s.legal_actions()
    s.apply(next(a for a in s.legal_actions() if isinstance(a, Show)))
    # P1 may still turn; P0 may not any more this round.
    assert TurnHand() in s.legal_actions()
    s.apply(next(a for a in s.legal_actions() if isinstance(a, Scout)))
    s.apply(s.legal_actions()[0])
    s.apply(next(a for a in s.legal_actions() if not isinstance(a, TurnHand)))
    if s.current_player() == 0:
        assert TurnHand() not in s.legal_actions()


def test_s1_options() -> None:
    off = scout_state(3, hand_turn="off")
    assert TurnHand() not in off.legal_actions()
    anytime = scout_state(3, hand_turn="any-turn-once")
    anytime.apply(next(a for a in anytime.legal_actions() if isinstance(a, Show)))
    for _ in range(3):  # P1 and P2 act; back at P0, who may still turn once
        if anytime.current_player() == 0:
            break
        act = next(a for a in anytime.legal_actions() if not isinstance(a, TurnHand))
        anytime.apply(act)
        if anytime.phase == "insert":
            anytime.apply(anytime.legal_actions()[0])
    if anytime.current_player() == 0 and anytime.round == 0:
        assert TurnHand() in anytime.legal_actions()


# -- Show ------------------------------------------------------------------------------------


def test_strength_order() -> None:
    """"Korttien määrä. Samasta numerosta muodostuva setti. Numerojärjestyksestä muodostuva
    setti. Jos setti on samaa tyyppiä ja korttejakin on saman verran, numeroarvoltaan suurempi
    setti on voimmakkaampi.\""""
    def st(*tops: int) -> int:
        return _strength(list(tops), 0, len(tops))

    assert st(1, 2, 3) > st(9, 9)  # more cards first
    assert st(2, 2) > st(8, 9)  # same number beats a run of the same size
    assert st(3, 3) > st(2, 2) and st(5, 6, 7) > st(4, 5, 6)  # then higher numbers
    assert st(7, 6, 5) == st(5, 6, 7)  # descending runs count like ascending ones
    assert st(10) > st(9) > st(1)
    assert st(1, 3) < 0 and st(4, 5, 7) < 0 and st(5, 5, 6) < 0  # not sets


def test_show_only_adjacent_cards_and_stronger_sets() -> None:
    """"Kädessä olevien korttien järjestystä ei saa muuttaa ja vain vierekkäisiä kortteja saa
    pelata settinä. Yhden kortin setin saa pelata mistä vain." and the set must be stronger."""
    s = position(3, hands=[[(5, 1), (9, 2), (5, 3), (6, 1)], [(4, 2), (4, 3)], [(2, 1)]],
                 active=[(5, 4), (5, 7)], owner=2, to_act=0)
    legal = s.legal_actions()
    # 5 . 5 6: the two 5s are not adjacent; 5-6 is a run of 2, weaker than the pair 5-5.
    assert Show(2, 2) not in legal
    assert [a for a in legal if isinstance(a, Show)] == []
    with pytest.raises(IllegalActionError, match="not stronger"):
        s.apply(Show(2, 2))
    with pytest.raises(IllegalActionError, match="neither all the same number"):
        s.apply(Show(0, 2))
    # P1's pair of 4s is weaker than the pair of 5s; a higher pair would win.
    t = position(3, hands=[[(6, 1), (6, 2), (3, 1)], [(4, 2)], [(2, 1)]],
                 active=[(5, 4), (5, 7)], owner=2, to_act=0)
    assert [a for a in t.legal_actions() if isinstance(a, Show)] == [Show(0, 2)]


def test_beaten_set_is_captured_and_new_set_is_active() -> None:
    """"Jos päihitit edellisen korttisetin, käännä sen kortit ja ota ne itsellesi
    voittopisteiksi. Pelaamasi uusi korttisetti on nyt pöydällä, ja se on tuorein setti.\""""
    s = position(3, hands=[[(7, 1), (8, 1), (9, 1), (2, 3)], [(4, 2)], [(2, 1)]],
                 active=[(5, 4), (5, 7)], owner=2, to_act=0)
    before = len(s.captured[0])
    s.apply(Show(0, 3))
    assert s.active == [(7, 1), (8, 1), (9, 1)] and s.active_owner == 0
    assert len(s.captured[0]) == before + 2
    assert s.hands[0] == [(2, 3)]
    assert s.current_player() == 1


# -- Scout -----------------------------------------------------------------------------------


def test_scout_from_either_end_flip_and_insert_anywhere() -> None:
    """"Ota tuoreimmasta setistä yksi kortti jommasta kummasta päästä (ei keskeltä) ja
    sijoita se osaksi käsikorttejasi minne tahansa kohtaan. Saat myös tässä kohdin kääntää
    ottamasi kortin toistepäin." and "Tuoreimman setin omistaja saa tästä houkuttelumerkin.\""""
    s = position(3, hands=[[(2, 1), (3, 1)], [(4, 2)], [(2, 5)]],
                 active=[(6, 1), (7, 1), (8, 1)], owner=2, to_act=0)
    scouts = [a for a in s.legal_actions() if isinstance(a, Scout)]
    assert Scout("left", False) in scouts and Scout("right", False) in scouts
    s.apply(Scout("right", False))
    assert s.active == [(6, 1), (7, 1)] and s.scout_tokens[2] == 1
    assert s.pending == (8, 1) and s.current_player() == 0
    # Anywhere: before, between, after the two cards; either number up.
    assert len(s.legal_actions()) == 2 * 3
    s.apply(Insert(1, True))
    assert s.hands[0] == [(2, 1), (1, 8), (3, 1)]
    assert s.known[0] == [False, True, False]  # everybody saw that card
    assert s.current_player() == 1


def test_scout_and_show_once_per_round() -> None:
    """"Jos haluat, voit käyttää tehotoimintomerkin (auto), jolloin saat ensin Houkutella ja
    sitten Esittää." One token per round."""
    s = position(3, hands=[[(6, 1), (2, 5), (9, 3)], [(4, 2)], [(2, 7)]],
                 active=[(6, 2), (7, 3)], owner=2, to_act=0)
    assert Scout("left", True) in s.legal_actions()
    s.apply(Scout("left", True))  # takes the 6: 6 next to 6 makes a pair beating the 7
    assert not s.show_tokens[0]
    inserts = s.legal_actions()
    # Only insertions that leave a Show possible: the 6 beside the other 6, or anything that
    # keeps the 9 (which already beats the remaining 7).
    assert Insert(0, False) in inserts
    s.apply(Insert(0, False))
    assert s.phase == "show"
    shows = s.legal_actions()
    assert all(isinstance(a, Show) for a in shows) and Show(0, 2) in shows
    s.apply(Show(0, 2))
    assert s.active == [(6, 2), (6, 1)] and s.captured[0][-1] == (7, 3)
    assert s.current_player() == 1


def test_scout_and_show_not_offered_when_no_show_could_follow() -> None:
    s = position(3, hands=[[(1, 5), (7, 9)], [(4, 2)], [(2, 6)]],
                 active=[(8, 2), (8, 3), (8, 4)], owner=2, to_act=0)
    assert all(not (isinstance(a, Scout) and a.and_show) for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="no Show would be possible"):
        s.apply(Scout("left", True))


def test_s2_last_card_empties_table() -> None:
    s = position(3, hands=[[(2, 1), (3, 1)], [(4, 2)], [(2, 5)]],
                 active=[(6, 1)], owner=2, to_act=0)
    assert [a for a in s.legal_actions() if isinstance(a, Scout)] == [
        Scout("left", False), Scout("left", True)]
    s.apply(Scout("left", False))
    assert s.active == [] and s.active_owner is None
    s.apply(Insert(0, False))
    # P1 faces an empty table: any valid set, no scouting (S4).
    assert kinds(s) == Counter({"show": 1, "turn-hand": 1})
    forbidden = position(3, hands=[[(2, 1), (3, 1)], [(4, 2)], [(2, 5)]],
                         active=[(6, 1)], owner=2, to_act=0,
                         options={"scout_last_card": "forbidden"})
    assert all(not isinstance(a, Scout) for a in forbidden.legal_actions())


def test_s4_first_player_must_show() -> None:
    s = scout_state(4)
    assert set(kinds(s)) <= {"show", "turn-hand"}


def test_s5_pass_when_nothing_is_possible() -> None:
    s = position(3, hands=[[(3, 1), (1, 4)], [(4, 2)], [(2, 5)]],
                 active=[(9, 8)], owner=2, to_act=0,
                 options={"scout_last_card": "forbidden", "hand_turn": "off"})
    assert s.legal_actions() == [Pass()]
    s.apply(Pass())
    assert s.current_player() == 1
    with pytest.raises(IllegalActionError):
        position(3, hands=[[(9, 1)], [(4, 2)], [(2, 5)]], active=[(8, 7)], owner=2,
                 to_act=0).apply(Pass())


# -- end of a round and scoring --------------------------------------------------------------


def _go_round(s: ScoutState, turns: int) -> None:
    """Play ``turns`` turns of the endless round S9 bounds: on the empty table Show the
    leftmost card; otherwise Scout the set away and put the card at the hand's right end.
    With three players and two cards each every hand stays at one to three cards."""
    for _ in range(turns):
        if s.is_terminal() or s.round_log:
            return
        if s.active:
            s.apply(Scout("left", False))
            s.apply(Insert(len(s.hands[s.to_act]), False))
        else:
            s.apply(Show(0, 1))


def test_s9_a_round_that_beats_no_set_for_stall_turns_turns_ends_stalled() -> None:
    """The rulebook's two ends need never come (S2: a scouted-away set empties the table):
    S9 ends such a round after ``stall_turns`` turns in a row with no set beaten; nobody is
    exempt (not even the owner of the set on the table)."""
    hands = [[(2, 1), (3, 1)], [(4, 2), (5, 1)], [(2, 5), (6, 3)]]
    s = position(3, hands=hands, to_act=0, options={"rounds": 1})
    _go_round(s, 99)
    assert not s.round_log and s.quiet_turns == 99
    assert s.problems() == []
    again = new_state_like(s)  # a position file keeps the count
    assert again.quiet_turns == 99
    _go_round(s, 1)
    assert s.is_terminal()
    (log,) = s.round_log
    assert log["ending"] == "stalled" and log["exempt"] is None
    assert log["hand"] == [len(h) for h in s.hands] and all(log["hand"])
    for q in range(3):
        assert s.round_scores[0][q] == (log["captured"][q] + log["scout_tokens"][q]
                                        - log["hand"][q])
    assert s.result()["round_endings"] == ["stalled"]
    assert s.problems() == []
    short = position(3, hands=hands, to_act=0, options={"stall_turns": 3, "rounds": 2})
    _go_round(short, 3)
    assert short.round_log[0]["ending"] == "stalled" and short.quiet_turns == 0
    with pytest.raises(InvalidStateError, match="S9"):
        position(3, hands=hands, to_act=0, options={"stall_turns": 3}, quiet_turns=3)


def new_state_like(s: ScoutState) -> ScoutState:
    state = s.game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert isinstance(state, ScoutState)
    return state


def test_s9_a_beaten_set_restarts_the_count_and_zero_means_no_bound() -> None:
    s = position(3, hands=[[(2, 1), (3, 1)], [(4, 2), (5, 1)], [(2, 5), (6, 3)]], to_act=0,
                 options={"stall_turns": 5})
    s.apply(Show(0, 1))  # 2 on the empty table: nothing beaten
    assert s.quiet_turns == 1
    s.apply(Show(0, 1))  # P1's 4 beats it
    assert s.quiet_turns == 0
    s.apply(Scout("left", False))
    s.apply(Insert(0, False))
    assert s.quiet_turns == 1
    endless = position(3, hands=[[(2, 1), (3, 1)], [(4, 2), (5, 1)], [(2, 5), (6, 3)]],
                       to_act=0, options={"stall_turns": 0})
    _go_round(endless, 3000)
    assert not endless.round_log and endless.quiet_turns == 3000


def test_round_ends_when_a_hand_empties_everybody_else_pays() -> None:
    """"Kierros loppuu jos Esittämisen jälkeen pelaajan käsikortit loppuvat" and
    "Jokaisesta käteen jääneestä kortista menettää pisteen\""""
    s = position(3, hands=[[(9, 1)], [(4, 2), (5, 1)], [(2, 5)]],
                 active=[(8, 7)], owner=2, to_act=0, filler=1,
                 scout_tokens=[1, 0, 2])
    captured = [len(c) for c in s.captured]
    s.apply(Show(0, 1))
    assert s.round == 1 and s.round_log[0]["ending"] == "emptied"
    assert s.round_scores[0] == [captured[0] + 1 + 1, captured[1] - 2, 2 - 1]
    assert s.start_player == 1 and s.current_player() == 1  # the start passes clockwise
    assert [len(h) for h in s.hands] == [12, 12, 12]  # dealt again
    assert s.show_tokens == [True] * 3 and s.scout_tokens == [0] * 3


def test_round_ends_when_play_returns_to_unbeaten_owner_who_is_exempt() -> None:
    """"...tai kukaan pelaajista ei ole kierroksella onnistuneesti Esittänyt vahvempaa settiä
    (ainoastaan houkutellut)" and "paitsi sen setin omistaja jonka settiä kukaan ei
    onnistunut Esittämällä ylittämään.\""""
    s = position(3, hands=[[(9, 1), (3, 6)], [(4, 2), (5, 1), (8, 3)], [(2, 5)]],
                 active=[(8, 7), (8, 6), (8, 5)], owner=0, to_act=1, filler=2,
                 hand_decided=[True, True, True])
    s.apply(Scout("left", False))
    s.apply(Insert(0, False))
    s.apply(Scout("left", False))
    s.apply(Insert(0, False))
    assert s.round == 1 and s.round_log[0]["ending"] == "unbeaten"
    assert s.round_log[0]["exempt"] == 0
    # P0: 2 scout tokens, no penalty for the two cards in hand.
    assert s.round_scores[0][0] == 0 + 2
    assert s.round_scores[0][1] == -4  # four cards in hand


def test_exemption_none_option() -> None:
    s = position(3, hands=[[(9, 1), (3, 6)], [(4, 2)], [(2, 5)]],
                 active=[(8, 7), (8, 6), (8, 5)], owner=0, to_act=1, filler=2,
                 hand_decided=[True, True, True], options={"exemption": "none"})
    for _ in range(2):
        s.apply(Scout("left", False))
        s.apply(Insert(0, False))
    assert s.round_log[0]["ending"] == "unbeaten" and s.round_log[0]["exempt"] is None
    assert s.round_scores[0][0] == 2 - 2  # two scout tokens, two cards in hand


def test_as_many_rounds_as_players_then_terminal() -> None:
    """"Kierroksia pelataan niin monta, kuin peliin osallistuvia pelaajiakin on.\""""
    for n in (2, 3, 4, 5):
        s = scout_state(n, seed=n)
        rng = random.Random(n)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        assert s.round == n == len(s.round_scores)
        assert s.current_player() == TERMINAL
        assert s.scores() == [float(sum(r[q] for r in s.round_scores)) for q in range(n)]
    short = scout_state(3, rounds=1)
    assert short.game.rounds == 1


# -- errors and positions --------------------------------------------------------------------


def test_bad_actions_change_nothing() -> None:
    s = scout_state(3)
    before = json.dumps(s.to_json())
    for bad in (Show(0, 40), Show(-1, 1), Insert(0, False), Scout("left", False)):
        with pytest.raises(IllegalActionError):
            s.apply(bad)
    for obj in ({"type": "show", "start": 0}, {"type": "show", "start": "0", "length": 1},
                {"type": "scout", "end": "middle", "and_show": False},
                {"type": "show", "start": 0, "length": 1, "extra": 1}):
        with pytest.raises(MalformedActionError):
            s.apply_json(obj)
    assert json.dumps(s.to_json()) == before


def test_hand_written_position_validation() -> None:
    good = position(3, hands=[[(9, 1)], [(4, 2)], [(2, 5)]], active=[(8, 7)], owner=2)
    data = good.to_json()
    game = good.game

    def broken(**change: object) -> dict[str, object]:
        d: dict[str, Any] = json.loads(json.dumps(data))
        del d["position"]["known"]
        d["position"].update(change)
        return d

    with pytest.raises(InvalidStateError, match="appears twice"):
        game.state_from_json(broken(hands=[[[9, 1], [1, 9]], [[4, 2]], [[2, 5]]]))
    with pytest.raises(InvalidStateError, match="missing"):
        game.state_from_json(broken(hands=[[], [[4, 2]], [[2, 5]]]))
    with pytest.raises(InvalidStateError, match="no SCOUT card"):
        game.state_from_json(broken(hands=[[[9, 9]], [[4, 2]], [[2, 5]]]))
    with pytest.raises(InvalidStateError, match="not in the 3-player deck"):
        game.state_from_json(broken(hands=[[[10, 1]], [[4, 2]], [[2, 5]]]))
    with pytest.raises(InvalidStateError, match="active_owner"):
        game.state_from_json(broken(active_owner=None))
    with pytest.raises(InvalidStateError, match="not a valid set"):
        game.state_from_json(broken(active=[[8, 7], [3, 2]]))
    with pytest.raises(InvalidStateError, match="unknown SCOUT position field"):
        game.state_from_json(broken(colour="red"))
    with pytest.raises(InvalidStateError, match="3 players"):
        new_game("scout", 4).state_from_json(data)


def test_json_round_trip_and_play_continues_identically() -> None:
    s = scout_state(4, seed=9)
    rng = random.Random(3)
    for _ in range(60):
        s.apply(rng.choice(s.legal_actions()))
    copy = s.game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert copy == s
    rng1, rng2 = random.Random(5), random.Random(5)
    while not s.is_terminal():
        s.apply(rng1.choice(s.legal_actions()))
        copy.apply(rng2.choice(copy.legal_actions()))
    assert copy == s and copy.scores() == s.scores()


def test_observation_hides_other_hands() -> None:
    s = scout_state(3, seed=4)
    view = s.observation(1)
    assert view["hands"][1] == [list(c) for c in s.hands[1]]
    assert view["hands"][0] == [None] * 12 and view["hand_sizes"] == [12, 12, 12]
    assert "seed" not in json.dumps(view)
    public = s.observation(None)
    assert all(all(c is None for c in h) for h in public["hands"])


def test_resample_keeps_known_cards_and_redraws_the_rest() -> None:
    s = position(3, hands=[[(9, 1), (3, 4)], [(4, 2), (6, 5)], [(2, 5)]],
                 active=[(8, 7)], owner=2, to_act=0,
                 known=[[False, False], [False, True], [False]])
    other = s.resample_hidden(0, 11)
    assert isinstance(other, ScoutState)
    assert other.hands[0] == s.hands[0]
    assert other.hands[1][1] == (6, 5)
    assert other.observation(0) == s.observation(0)
    pool = {canonical(c) for q in (1, 2) for c in s.hands[q]} - {(5, 6)}
    assert {canonical(other.hands[1][0]), canonical(other.hands[2][0])} <= pool | set(
        map(canonical, s.captured[2]))  # drawn from the cards P0 cannot see
    assert other.seed != s.seed


def test_show_generation_matches_the_definition() -> None:
    """The fast generator agrees with a brute-force reading of the rule on random hands."""
    rng = random.Random(1)
    for _ in range(300):
        n = rng.randrange(1, 14)
        tops = [rng.randrange(1, 11) for _ in range(n)]
        hand = [(v, 11 - v if v != 11 - v else 1) for v in tops]
        hand = [(a, b if a != b else (a % 10) + 1) for a, b in hand]
        active_len = rng.randrange(0, 4)
        active_tops = [rng.randrange(1, 11)] * active_len
        state = scout_state(3)
        beat = _strength(active_tops, 0, active_len) if active_len else -1
        fast = state._show_actions(hand, beat)
        slow = [Show(s, k) for s in range(n) for k in range(1, n - s + 1)
                if _strength(tops, s, k) > beat]
        assert fast == slow, (tops, active_tops)


def test_typed_moves() -> None:
    s = scout_state(3)
    assert s.action_from_text("show 0 1") == Show(0, 1)
    assert s.action_from_text("Scout right and-show") == Scout("right", True)
    assert s.action_from_text("insert 4 flip") == Insert(4, True)
    assert s.action_from_text("turn") == TurnHand() and s.action_from_text("pass") == Pass()
    for bad in ("show", "show a b", "scout middle", "insert 1 upside", "dance", ""):
        with pytest.raises(MalformedActionError, match="cannot read"):
            s.action_from_text(bad)


def test_scout_and_show_availability_matches_brute_force() -> None:
    """Scout & Show is offered exactly when some insertion of either number leaves a set
    that beats what remains of the active set (checked by trying every insertion)."""
    from bigtop.games.scout.rules import _best_strength

    rng = random.Random(7)
    checked = 0
    for seed in range(400):
        s = scout_state(3, seed=seed % 50)
        for _ in range(rng.randrange(1, 30)):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
        if s.is_terminal() or s.phase != "turn" or not s.active or not s.show_tokens[
                s.to_act]:
            continue
        tops = [c[0] for c in s.hands[s.to_act]]
        for end in ("left", "right"):
            rest = s._reduced_active(end)
            beat = _strength(rest, 0, len(rest)) if rest else -1
            card = s.active[0] if end == "left" else s.active[-1]
            brute = any(_best_strength([*tops[:p], v, *tops[p:]]) > beat
                        for v in card for p in range(len(tops) + 1))
            offered = Scout(end, True) in s.legal_actions()
            if len(s.active) == 1 and end == "right":
                continue  # one card has one end
            assert offered == brute, (tops, s.active, end)
            checked += 1
    assert checked > 100


# -- revised rulings (issue 11) --------------------------------------------------------------


def test_s2_alternative_round_ends_when_play_returns_to_the_former_owner() -> None:
    """"Kierros loppuu jos ... kukaan pelaajista ei ole kierroksella onnistuneesti Esittänyt
    vahvempaa settiä (ainoastaan houkutellut)." Read as the public SCOUT AI does
    (``scout_last_card=ends-round-at-owner``): a set scouted away still ends the round when play
    comes back to its owner, who keeps their hand without penalty. The default empties the
    table and the owner must Show."""
    hands = [[(2, 1), (3, 1)], [(4, 2)], [(2, 5)]]
    alt = position(3, hands=hands, active=[(6, 1)], owner=1, to_act=0, filler=2,
                   options={"scout_last_card": "ends-round-at-owner"})
    alt.apply(Scout("left", False))
    assert alt.active == [] and alt.active_owner == 1
    alt.apply(Insert(0, False))
    assert alt.round == 1 and alt.round_log[0]["ending"] == "unbeaten"
    assert alt.round_log[0]["exempt"] == 1
    assert alt.round_scores[0][1] == 1  # one scout token, no penalty for the hand
    default = position(3, hands=hands, active=[(6, 1)], owner=1, to_act=0, filler=2)
    default.apply(Scout("left", False))
    default.apply(Insert(0, False))
    assert default.round == 0 and default.to_act == 1 and default.active_owner is None
    assert set(kinds(default)) <= {"show", "turn-hand"}
    assert default.game.options.scout_last_card == "empties-table"


def test_s5_pass_is_offered_beside_turning_the_hand() -> None:
    """S5: "A player who can neither Show nor Scout ... passes". With
    ``scout_last_card=forbidden`` and a one-card active set, a player whose hand cannot beat
    it may pass; turning the hand stays a choice, it is not forced."""
    s = position(3, hands=[[(3, 1), (1, 4)], [(4, 2)], [(2, 5)]],
                 active=[(9, 8)], owner=2, to_act=0,
                 options={"scout_last_card": "forbidden"})
    assert s.legal_actions() == [TurnHand(), Pass()]
    s.apply(Pass())
    assert s.current_player() == 1 and s.hand_decided[0]


def test_scouting_a_one_card_set_from_either_end() -> None:
    """"Ota tuoreimmasta setistä yksi kortti jommasta kummasta päästä (ei keskeltä)": a
    one-card set's only card is at both ends. Typed, ``scout right`` takes it like ``left``;
    the action list names it once (as left), and the API says so when given ``right``."""
    s = position(3, hands=[[(2, 1), (3, 1)], [(4, 2)], [(2, 5)]],
                 active=[(6, 1)], owner=2, to_act=0)
    assert Scout("right", False) not in s.legal_actions()  # listed once, as left
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="both ends are the same card"):
        s.apply_json({"type": "scout", "end": "right", "and_show": False})
    assert s.to_json() == before
    assert s.action_from_text("scout right and-show") == Scout("left", True)
    s.apply(s.action_from_text("scout right"))
    assert s.pending == (6, 1) and s.active == [] and s.scout_tokens[2] == 1
    wide = position(3, hands=[[(2, 1), (3, 1)], [(4, 2)], [(2, 5)]],
                    active=[(6, 1), (7, 1)], owner=2, to_act=0)
    assert wide.action_from_text("scout right") == Scout("right", False)
    wide.apply(Scout("right", False))
    assert wide.pending == (7, 1)


def test_s7_first_player_is_chosen() -> None:
    """"Valitkaa aloittava pelaaja." The first round's starting player is the option
    ``first_player`` (default seat 0); later rounds pass clockwise from it."""
    from bigtop import load_state

    s = scout_state(4, seed=3, first_player=2)
    assert s.current_player() == 2 and s.start_player == 2
    assert load_state(s.to_json()) == s
    rng = random.Random(1)
    while s.round == 0:
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    assert s.start_player == 3 and s.current_player() == 3
    assert scout_state(4).current_player() == 0
    with pytest.raises(ValueError, match="first_player"):
        new_game("scout", 3, {"first_player": 3})
