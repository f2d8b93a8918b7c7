"""SCOUT rulebook audit: scenarios for the rules test_rules.py does not pin exactly. Each test
quotes the sentence of the rulebook (001_df8c940f20f01f9a.txt, Finnish; English reading and
rulings S1–S7 in shared/rules/scout.md) it checks; docs/scout.md "Rulebook coverage" maps
every rule to its test."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bigtop.core.errors import IllegalActionError
from bigtop.core.registry import new_game, new_state
from bigtop.games.scout.cards import FULL_DECK, canonical, deck_for
from bigtop.games.scout.options import ScoutOptions
from bigtop.games.scout.rules import Insert, Pass, Scout, ScoutGame, ScoutState, Show, TurnHand
from tests.games.scout.helpers import position

DOCS = Path(__file__).resolve().parents[3] / "docs" / "scout.md"


def shows(s: ScoutState) -> list[Show]:
    return [a for a in s.legal_actions() if isinstance(a, Show)]


def play_round(s: ScoutState, rng: random.Random) -> None:
    """Random legal moves until the round (or game) is over."""
    r = s.round
    while s.round == r and not s.is_terminal():
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])


# -- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players,removed,size", [
    (5, set(), 9), (4, {(9, 10)}, 11), (3, {(a, 10) for a in range(1, 10)}, 12),
    (2, {(9, 10)}, 11)])
def test_setup_per_player_count(players: int, removed: set[tuple[int, int]], size: int) -> None:
    """"Pakasta poistetaan kortteja pelaajamäärän mukaisesti: 5 pelaajaa: mitään ei poisteta.
    2 tai 4: kortti jossa on 9 ja 10 poistetaan. 3: kortit joissa on numero 10, poistetaan.
    - Jakakaa kortit pelaajamäärän mukaisesti: 5 pelaajaa: jokaiselle 9 korttia. 4: jokaiselle
    11 korttia. 3: jokaiselle 12 korttia. 2: jokaiselle 11 korttia." and "Jokaiselle
    pelaajalle yksi tehotoimintomerkki." Two players: the other 22 cards sit out (S6)."""
    assert set(FULL_DECK) - set(deck_for(players)) == removed
    for seed in range(3):
        s = new_state("scout", players, seed)
        assert isinstance(s, ScoutState)
        assert [len(h) for h in s.hands] == [size] * players
        dealt = [canonical(c) for h in s.hands for c in h]
        assert len(set(dealt)) == len(dealt) and not set(dealt) & removed
        assert len(s.unused) == (22 if players == 2 else 0)
        assert s.show_tokens == [True] * players and s.scout_tokens == [0] * players
        assert s.active == [] and s.captured == [[]] * players
        assert s.to_act == 0 and s.phase == "turn"


def test_every_player_may_turn_the_hand_in_every_round() -> None:
    """"Korttien järjestystä kädessä ei saa muuttaa, mutta halutessaan koko korttikäden voi
    kääntää ylösalaisin." S1: once per player per round, before that player's first action;
    the chance comes back with each new deal."""
    s = new_state("scout", 3, 8)
    assert isinstance(s, ScoutState)
    rng = random.Random(8)
    for r in range(3):
        assert s.round == r and s.hand_decided == [False] * 3
        for _ in range(3):  # the first three turns of the round: each player's first
            if s.round != r:
                break
            p = s.to_act
            assert TurnHand() in s.legal_actions()
            s.apply(TurnHand())
            assert TurnHand() not in s.legal_actions() and s.to_act == p
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
            while s.phase != "turn" and s.round == r:
                s.apply(s.legal_actions()[0])
        play_round(s, rng)
    assert s.is_terminal()


def test_hand_turn_any_turn_once_is_a_choice_at_a_later_turn() -> None:
    """S1's option ``hand_turn=any-turn-once``: the hand may be turned at the start of any one
    of the player's turns, also after earlier actions, but only once per round. By default
    (``before-first-action``) the first action ends the chance."""
    def game(options: dict[str, Any] | None) -> ScoutState:
        s = position(3, hands=[[(2, 1), (3, 1)], [(9, 2), (9, 3), (4, 1)], [(2, 5)]],
                     active=[(6, 1), (7, 1), (8, 1)], owner=2, to_act=0, options=options)
        s.apply(Scout("left", False))  # P0 scouts the 6
        s.apply(Insert(0, False))
        s.apply(Show(0, 2))  # P1 beats 7-8 with 9-9
        s.apply(Scout("left", False))  # P2 scouts a 9
        s.apply(Insert(0, False))
        assert s.to_act == 0 and s.round == 0  # P0's second turn
        return s

    later = game({"hand_turn": "any-turn-once"})
    assert later.legal_actions()[0] == TurnHand()
    later.apply(TurnHand())
    assert later.hands[0] == [(1, 3), (1, 2), (1, 6)] and later.to_act == 0
    assert TurnHand() not in later.legal_actions()
    assert TurnHand() not in game(None).legal_actions()


def test_a_refused_hand_turn_names_the_hand_turn_rule_in_play() -> None:
    """S1's three readings refuse a turn of the hand each for its own reason, and the refusal
    says which: under ``hand_turn=off`` the hand may never be turned (not "before your first
    action"); under ``any-turn-once`` it may be turned at the start of a turn, so not in the
    middle of one (between a Scout and its Insert), and only once a round."""
    def refusal(s: ScoutState) -> str:
        with pytest.raises(IllegalActionError) as refused:
            s.apply(TurnHand())
        return str(refused.value)

    def fresh(hand_turn: str) -> ScoutState:
        return position(3, hands=[[(2, 1), (3, 1)], [(9, 2), (9, 3), (4, 1)], [(2, 5)]],
                        active=[(6, 1), (7, 1), (8, 1)], owner=2, to_act=0,
                        options={"hand_turn": hand_turn})

    off = fresh("off")
    assert TurnHand() not in off.legal_actions()
    assert "never" in refusal(off) and "first action" not in refusal(off)
    default = fresh("before-first-action")
    default.apply(Scout("left", False))
    assert "before your first action" in refusal(default)
    mid_turn = fresh("any-turn-once")
    mid_turn.apply(Scout("left", False))  # the hand is not decided yet, but a turn is under way
    assert mid_turn.hand_decided[0] is False
    assert "start of your turn" in refusal(mid_turn) and "first action" not in refusal(mid_turn)
    once = fresh("any-turn-once")
    once.apply(TurnHand())
    assert "once per round" in refusal(once) and "first action" not in refusal(once)


def test_a_refused_scout_of_the_last_card_names_the_rule() -> None:
    """S2's alternative ``scout_last_card=forbidden``: the last card of the active set may not
    be scouted; a Scout typed then is refused with that reason (the Scout & Show too)."""
    s = position(3, hands=[[(2, 1), (3, 1)], [(4, 2)], [(2, 5)]], active=[(9, 1)], owner=2,
                 to_act=0, options={"scout_last_card": "forbidden"})
    assert all(not isinstance(a, Scout) for a in s.legal_actions())
    for scout in (Scout("left", False), Scout("left", True)):
        with pytest.raises(IllegalActionError, match="last card of the active set may not "
                           "be scouted"):
            s.apply(scout)


# -- Show: what beats what -------------------------------------------------------------------


def test_show_on_an_empty_table_lists_every_set_in_the_hand() -> None:
    """"Kädessä olevien korttien järjestystä ei saa muuttaa ja vain vierekkäisiä kortteja saa
    pelata settinä. Yhden kortin setin saa pelata mistä vain." Hand tops 3 4 5 5 2: every
    single card, the runs 3-4, 3-4-5, 4-5 and the pair 5-5; not 5-5 with the 4 (5-4-5) nor
    5-2 nor 3-4-5-5."""
    s = position(3, hands=[[(3, 1), (4, 1), (5, 1), (5, 2), (2, 6)], [(4, 2)], [(6, 1)]],
                 owner=None, to_act=0, hand_decided=[True, True, True])
    assert s.legal_actions() == [Show(0, 1), Show(0, 2), Show(0, 3), Show(1, 1), Show(1, 2),
                                 Show(2, 1), Show(2, 2), Show(3, 1), Show(4, 1)]


@pytest.mark.parametrize("hand,active,legal", [
    # "Korttien määrä": more cards first: a run of three beats a pair of 9s.
    ([(1, 3), (2, 3), (3, 4)], [(9, 1), (9, 2)], [Show(0, 3)]),
    # "Samasta numerosta muodostuva setti" beats "Numerojärjestyksestä muodostuva setti".
    ([(2, 1), (2, 3)], [(8, 1), (9, 1)], [Show(0, 2)]),
    ([(9, 1), (8, 2)], [(2, 4), (2, 5)], []),
    # Same type and size: "numeroarvoltaan suurempi setti on voimmakkaampi" - strictly.
    ([(5, 1), (5, 2)], [(5, 3), (5, 4)], []),
    ([(6, 1), (6, 2)], [(5, 3), (5, 4)], [Show(0, 2)]),
    ([(4, 1), (3, 1)], [(3, 2), (4, 2)], []),  # 4-3 and 3-4 are equally strong
    ([(5, 1), (4, 1)], [(3, 2), (4, 2)], [Show(0, 2)]),
    ([(7, 1), (6, 1), (5, 1)], [(5, 2), (6, 2), (7, 2)], []),
    ([(8, 1), (7, 1), (6, 1)], [(5, 2), (6, 2), (7, 2)], [Show(0, 3)]),
    # Singles against a single: only a higher number.
    ([(4, 1), (7, 1), (5, 2)], [(5, 3)], [Show(1, 1)]),
    # A single never beats two cards; two never beat three.
    ([(9, 1), (9, 2)], [(1, 2), (2, 4), (3, 5)], []),
    # Three of a kind over a run of three, never the other way; four cards over three.
    ([(4, 1), (4, 2), (4, 3)], [(7, 1), (8, 1), (9, 1)], [Show(0, 3)]),
    ([(7, 1), (8, 1), (9, 1)], [(2, 4), (2, 5), (2, 6)], []),
    ([(1, 5), (2, 5), (3, 5), (4, 5)], [(9, 1), (9, 2), (9, 3)], [Show(0, 4)]),
    # Numbers do not wrap round: 10-1 is no run (only the 10 beats the 2).
    ([(10, 4), (1, 4)], [(2, 3)], [Show(0, 1)]),
])
def test_what_beats_what(hand: list[tuple[int, int]], active: list[tuple[int, int]],
                         legal: list[Show]) -> None:
    """"Esittäminen on edellistä korttisettiä voimakkaamman korttisetin pelaamista pöydälle.
    Korttisetin voimakkuus määräytyy tämän listan mukaan. Korkeampi on alempaa voimakkaampi.
    - Korttien määrä. - Samasta numerosta muodostuva setti. - Numerojärjestyksestä muodostuva
    setti. - Jos setti on samaa tyyppiä ja korttejakin on saman verran, numeroarvoltaan
    suurempi setti on voimmakkaampi.\""""
    s = position(4, hands=[hand, [(1, 10)], [(2, 10)], [(3, 10)]], active=active, owner=1,
                 to_act=0, hand_decided=[True] * 4)
    assert shows(s) == legal


# -- Scout and Scout & Show ------------------------------------------------------------------


def test_scout_takes_an_end_card_never_the_middle_one() -> None:
    """"Ota tuoreimmasta setistä yksi kortti jommasta kummasta päästä (ei keskeltä)": from a
    three-card set the player may take the left or the right card, nothing else; the middle
    card stays on the table in both cases."""
    for end, taken, rest in (("left", (4, 1), [(5, 1), (6, 1)]),
                             ("right", (6, 1), [(4, 1), (5, 1)])):
        s = position(3, hands=[[(9, 2)], [(2, 3)], [(2, 4)]],
                     active=[(4, 1), (5, 1), (6, 1)], owner=2, to_act=0,
                     hand_decided=[True] * 3)
        # (No Scout & Show: nothing in 9 and the scouted card beats the two cards left.)
        assert [a for a in s.legal_actions() if isinstance(a, Scout)] == [
            Scout("left", False), Scout("right", False)]
        s.apply(Scout(end, False))  # type: ignore[arg-type]
        assert s.pending == taken and s.active == rest and s.active_owner == 2


def test_scout_and_show_shows_against_what_is_left_and_only_once_per_round() -> None:
    """"Jos haluat, voit käyttää tehotoimintomerkin (auto), jolloin saat ensin Houkutella ja
    sitten Esittää." The Show comes after the Scout, so it must beat the set as the Scout left
    it (3-4-5 less its 5 is the run 3-4, which a pair of 2s beats). The token is then spent
    for the rest of the round; "jokaisella tulee olla yksi tehotoimintomerkki" in the next."""
    s = position(3, hands=[[(2, 1), (2, 6), (9, 1)], [(7, 1), (8, 4)], [(1, 6)]],
                 active=[(3, 1), (4, 1), (5, 1)], owner=2, to_act=0,
                 hand_decided=[True] * 3)
    assert shows(s) == []  # nothing beats a run of three
    s.apply(Scout("right", True))
    assert s.active == [(3, 1), (4, 1)] and not s.show_tokens[0]
    s.apply(Insert(3, False))  # the 5 at the far right: 2 2 9 5
    assert s.phase == "show" and s.to_act == 0
    assert s.legal_actions() == [Show(0, 2)]  # only the pair beats 3-4
    s.apply(Show(0, 2))
    assert s.active == [(2, 1), (2, 6)] and s.active_owner == 0
    assert s.captured[0][-2:] == [(3, 1), (4, 1)]
    # Once spent, the token is gone for the round: no Scout & Show, though a Show could follow.
    t = position(3, hands=[[(9, 1), (9, 2), (5, 3)], [(7, 1)], [(1, 6)]],
                 active=[(6, 2), (6, 3)], owner=2, to_act=0,
                 show_tokens=[False, True, True], hand_decided=[True] * 3)
    assert all(not (isinstance(a, Scout) and a.and_show) for a in t.legal_actions())
    assert Scout("left", False) in t.legal_actions()


def test_scout_and_show_pays_the_scout_token_to_the_owner() -> None:
    """"Tuoreimman setin omistaja saa tästä houkuttelumerkin voittopisteeksi." The Scout of a
    Scout & Show gives the owner their token like any Scout."""
    s = position(3, hands=[[(2, 1), (2, 6)], [(7, 1)], [(1, 6)]],
                 active=[(3, 1), (4, 1)], owner=1, to_act=0, hand_decided=[True] * 3)
    s.apply(Scout("left", True))
    assert s.scout_tokens == [0, 1, 0]


# -- the end of a round ----------------------------------------------------------------------


def test_two_players_round_ends_when_the_other_player_only_scouts() -> None:
    """"Kierros loppuu jos ... kukaan pelaajista ei ole kierroksella onnistuneesti Esittänyt
    vahvempaa settiä (ainoastaan houkutellut)." With two players a single Scout brings play
    back to the owner: the round ends and the owner pays nothing for the hand."""
    s = position(2, hands=[[(9, 1), (3, 6), (2, 7)], [(4, 2), (5, 1)]],
                 active=[(8, 1), (8, 2)], owner=0, to_act=1, filler=1,
                 hand_decided=[True, True])
    captured = [len(c) for c in s.captured]
    s.apply(Scout("left", False))
    s.apply(Insert(0, False))
    assert s.round == 1 and s.round_log[0]["ending"] == "unbeaten"
    assert s.round_scores[0] == [0 + 1, captured[1] - 3]  # P0: its token, no hand penalty


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_round_score_per_player_count(players: int) -> None:
    """"Jokainen kuvapuoli alaspäin käännetty (voitettu setti) kortti, antaa pisteen.
    Jokaisesta saamastaan houkuttelumerkistä saa pisteen. Jokaisesta käteen jääneestä kortista
    menettää pisteen, paitsi sen setin omistaja jonka settiä kukaan ei onnistunut Esittämällä
    ylittämään." The same count with every player count; here the last player shows the
    whole hand, so nobody is exempt and the others pay."""
    others: list[list[tuple[int, int]]] = [[(1, 2), (1, 3)], [(2, 3)], [(2, 4), (2, 5)],
                                           [(3, 4), (3, 5), (3, 6)]]
    hands = [*others[:players - 1], [(9, 1), (9, 2)]]
    s = position(players, hands=hands, active=[(7, 1), (7, 3)], owner=0,
                 to_act=players - 1, filler=0, hand_decided=[True] * players,
                 scout_tokens=[q % 3 for q in range(players)])
    captured = [len(c) for c in s.captured]
    in_hand = [len(h) for h in s.hands]
    s.apply(Show(0, 2))  # 9-9 beats 7-7 and empties the last hand
    log = s.round_log[0]
    assert log["ending"] == "emptied" and log["exempt"] is None
    expect = [captured[q] + q % 3 - in_hand[q] for q in range(players)]
    expect[-1] = captured[-1] + 2 + (players - 1) % 3  # the 7-7 captured, no hand
    assert s.round_scores[0] == expect


def test_start_player_rotates_clockwise_every_round() -> None:
    """"Aloittavan pelaajan merkki myötäpäivään seuraavalle" and "Kierroksia pelataan niin
    monta, kuin peliin osallistuvia pelaajiakin on." Starting from the chosen first player
    (S7: ``first_player=2``) the rounds of a four-player game start with P2, P3, P0, P1."""
    s = new_state("scout", 4, 6, {"first_player": 2})
    assert isinstance(s, ScoutState)
    rng = random.Random(6)
    starts = []
    while not s.is_terminal():
        starts.append(s.to_act)
        assert s.start_player == s.to_act
        play_round(s, rng)
    assert starts == [2, 3, 0, 1] and s.round == 4


# -- the winner ------------------------------------------------------------------------------


def _last_round(captured: tuple[int, int], tokens: list[int]) -> ScoutState:
    """A one-round two-player game: P0 holds 9/1 against P1's single 8/2; P1 holds 1/3 and
    1/4; the other 18 cards in play are the captured piles (sizes ``captured``)."""
    game = new_game("scout", 2, {"rounds": 1})
    assert isinstance(game, ScoutGame)
    hands = [[(9, 1)], [(1, 3), (1, 4)]]
    active = [(8, 2)]
    used = {canonical(c) for h in hands for c in h} | {canonical(c) for c in active}
    rest = [c for c in game.deck if c not in used]
    unused, rest = rest[:22], rest[22:]
    assert len(rest) == sum(captured)
    pos: dict[str, Any] = {
        "hands": [[list(c) for c in h] for h in hands], "active": [list(c) for c in active],
        "active_owner": 1, "to_act": 0, "unused": [list(c) for c in unused],
        "captured": [[list(c) for c in rest[:captured[0]]],
                     [list(c) for c in rest[captured[0]:]]],
        "scout_tokens": tokens, "hand_decided": [True, True]}
    s = game.state_from_json({"game": "scout", "players": 2, "options": game.options.to_json(),
                              "seed": 1, "position": pos})
    assert isinstance(s, ScoutState)
    return s


def test_highest_total_wins_and_a_tie_is_shared() -> None:
    """"Kierroksia pelataan niin monta, kuin peliin osallistuvia pelaajiakin on." and the
    points: the highest total wins. The rulebook names no tie-break, so tied players share
    the first place (``ranking`` 1, 1; both are winners)."""
    s = _last_round((8, 10), [0, 0])
    s.apply(Show(0, 1))  # P0: 8 + 1 captured = 9; P1: 10 captured - 2 in hand = 8
    assert s.is_terminal() and s.scores() == [9.0, 8.0]
    assert s.winners() == [0] and s.ranking() == [1, 2]
    tie = _last_round((8, 10), [0, 1])  # P1's scout token: 9 all
    tie.apply(Show(0, 1))
    assert tie.scores() == [9.0, 9.0] and tie.winners() == [0, 1] and tie.ranking() == [1, 1]
    assert tie.result()["round_endings"] == ["emptied"]


# -- the options and their documentation -----------------------------------------------------


def test_every_option_is_documented_with_its_default_and_the_rulebook_sentence() -> None:
    """docs/scout.md's option table lists every rule option with the default the code uses,
    and each option quotes the rulebook sentence its default follows."""
    text = DOCS.read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| `(\w+)` \| `([^`]*)`", text, flags=re.M))
    for info in ScoutOptions.info():
        assert info.name in table, info.name
        assert table[info.name] == str(info.default), info.name
        assert info.quote and info.quote in text, info.name
    assert set(table) == {i.name for i in ScoutOptions.info()}


def test_pass_only_when_nothing_else_is_possible() -> None:
    """S5: "A player who can neither Show nor Scout ... passes"; a pass never stands beside a
    Show or a Scout."""
    s = position(3, hands=[[(3, 1), (1, 4)], [(4, 2)], [(2, 5)]], active=[(9, 8)], owner=2,
                 to_act=0, options={"scout_last_card": "forbidden"},
                 hand_decided=[True] * 3)
    assert s.legal_actions() == [Pass()]
    t = position(3, hands=[[(3, 1), (1, 4)], [(4, 2)], [(2, 5)]], active=[(9, 8)], owner=2,
                 to_act=0, hand_decided=[True] * 3)
    assert Pass() not in t.legal_actions()


def test_positions_that_break_the_rules_are_refused() -> None:
    """``audit()`` (run after every fuzzed move and on every load) knows the rules' invariants:
    a Scout & Show spends the token (*"voit käyttää tehotoimintomerkin"*); with
    ``hand_turn=off`` no hand may be turned; a set on the table has its owner."""
    from bigtop.core.errors import InvalidStateError

    hands = [[(2, 1), (3, 1)], [(4, 2)], [(2, 5)]]
    with pytest.raises(InvalidStateError, match="Scout & Show without spending the token"):
        position(3, hands=hands, active=[(6, 1), (7, 1)], owner=2, phase="insert",
                 pending={"card": [8, 1], "and_show": True})
    with pytest.raises(InvalidStateError, match="hand_turn=off"):
        position(3, hands=hands, active=[(6, 1)], owner=2, options={"hand_turn": "off"},
                 hand_decided=[False, True, True])
    ok = position(3, hands=hands, active=[(6, 1), (7, 1)], owner=2, phase="insert",
                  pending={"card": [8, 1], "and_show": True}, show_tokens=[False, True, True])
    assert ok.phase == "insert" and ok.pending_and_show


def test_a_hand_written_position_knows_who_may_still_turn_the_hand() -> None:
    """S1: the hand may be turned *"once, after the deal, before the first turn of the
    round"* — before that player's first action. A hand-written position shows who has
    acted: P0 started the round and owns the active set, P1 is to act, and P2 has captured
    cards (it beat a set). Left out, ``hand_decided`` is true for P0 and P2; after P1 scouts,
    P2 may not turn its hand. Said false for P2, the position is refused; under
    ``hand_turn=any-turn-once`` P2 may still turn it once."""
    from bigtop.core.errors import InvalidStateError

    hands = [[(6, 1), (2, 5)], [(4, 2), (8, 3)], [(2, 7), (5, 1)]]
    s = position(3, hands=hands, active=[(9, 3)], owner=0, to_act=1, filler=2)
    assert s.hand_decided == [True, False, True]
    assert TurnHand() in s.legal_actions()  # P1 has not acted yet
    s.apply(Scout("left", False))
    s.apply(Insert(0, False))
    assert s.to_act == 2 and TurnHand() not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="before your first action"):
        s.apply(TurnHand())
    with pytest.raises(InvalidStateError, match="P2 beat a set"):
        position(3, hands=hands, active=[(9, 3)], owner=0, to_act=1, filler=2,
                 hand_decided=[True, False, False])
    t = position(3, hands=hands, active=[(9, 3)], owner=0, to_act=2, filler=2,
                 options={"hand_turn": "any-turn-once"})
    assert TurnHand() in t.legal_actions()


def test_a_position_where_a_player_scouts_their_own_set_is_refused() -> None:
    """*"kukaan pelaajista ei ole kierroksella onnistuneesti Esittänyt vahvempaa settiä
    (ainoastaan houkutellut)"*: when play comes back to the owner of the active set the round
    is over, so nobody ever scouts from their own set (and pays themselves a scout token). A
    position with the owner inserting a scouted card, or about to show after Scout & Show,
    is refused as in phase 'turn'."""
    from bigtop.core.errors import InvalidStateError

    hands = [[(6, 1), (2, 5)], [(4, 2)], [(2, 7)]]
    for and_show in [False, True]:
        with pytest.raises(InvalidStateError, match="the active set's owner"):
            position(3, hands=hands, active=[(9, 3)], owner=0, phase="insert",
                     pending={"card": [8, 3], "and_show": and_show},
                     show_tokens=[not and_show, True, True])
    with pytest.raises(InvalidStateError, match="the active set's owner"):
        position(3, hands=hands, active=[(9, 3)], owner=0)
    ok = position(3, hands=hands, active=[(9, 3)], owner=2, phase="insert",
                  pending={"card": [8, 3], "and_show": False})
    assert ok.to_act == 0 and ok.phase == "insert"


def test_a_position_with_an_emptied_hand_is_refused() -> None:
    """*"Kierros loppuu jos Esittämisen jälkeen pelaajan käsikortit loppuvat"*: the round ends
    the moment a Show empties a hand, so no live position has a player with no cards, whoever
    is to act (the player with none would otherwise scout cards back into an empty hand)."""
    from bigtop.core.errors import InvalidStateError

    for to_act, empty in [(0, 1), (0, 2), (1, 0)]:
        hands: list[list[tuple[int, int]]] = [[(6, 1), (2, 5)], [(4, 2)], [(2, 7)]]
        hands[empty] = []
        with pytest.raises(InvalidStateError, match=f"P{empty} has no cards"):
            position(3, hands=hands, active=[(9, 3)], owner=2 if to_act != 2 else 0,
                     to_act=to_act)


def test_the_rulebook_coverage_table_names_tests_that_exist() -> None:
    """The docs' *Rulebook coverage* checklist stays true: every test it names is defined in
    this directory."""
    from tests.games.coverage import named_but_missing

    count, missing = named_but_missing(DOCS, Path(__file__).parent)
    assert count > 30 and missing == []


# -- second audit (2026-12-01): rules pinned only by the fuzz test until now ------------------


def test_a_show_from_the_middle_closes_the_gap_in_the_hand() -> None:
    """"Kädessä olevien korttien järjestystä ei saa muuttaa ja vain vierekkäisiä kortteja saa
    pelata settinä." The order never changes, but a Show takes its cards out of the hand: the
    cards either side of it become neighbours. P0 shows the 9 from 5 9 5; at P0's next turn
    the two 5s are adjacent and may be shown as a pair."""
    s = position(4, hands=[[(5, 1), (9, 2), (5, 3)], [(1, 7), (2, 7), (3, 7), (4, 6)],
                           [(6, 1), (6, 2)], [(7, 4), (7, 5)]],
                 active=[(8, 1)], owner=3, to_act=0, hand_decided=[True] * 4)
    s.apply(Show(1, 1))  # the 9 beats the 8
    assert s.hands[0] == [(5, 1), (5, 3)]
    s.apply(Show(0, 3))  # P1: the run 1-2-3 beats the single 9
    for _ in range(2):  # P2 and P3 scout from the left: the 3 is left
        s.apply(Scout("left", False))
        s.apply(Insert(0, False))
    assert s.to_act == 0 and s.active == [(3, 7)]
    assert Show(0, 2) in shows(s)  # the pair 5-5, no longer split by the 9


def test_the_unbeaten_count_restarts_with_every_show() -> None:
    """"Kierros loppuu jos ... kukaan pelaajista ei ole kierroksella onnistuneesti Esittänyt
    vahvempaa settiä (ainoastaan houkutellut)." Four players: P1 scouts P0's 7-7-7, P2 beats
    what is left with 2-3-4-5; P3, P0 and P1 only scout. Play passing P0, the owner of the
    beaten set, does not end the round; coming back to P2 does, and P2 is exempt."""
    s = position(4, hands=[[(1, 2), (1, 3)], [(8, 1), (8, 2)],
                           [(2, 9), (3, 9), (4, 9), (5, 9), (1, 4)], [(6, 3), (6, 4)]],
                 active=[(7, 1), (7, 2), (7, 3)], owner=0, to_act=1, filler=3,
                 hand_decided=[True] * 4)
    filler = len(s.captured[3])
    s.apply(Scout("left", False))
    s.apply(Insert(0, False))
    s.apply(Show(0, 4))  # P2: a run of four beats the pair 7-7 and captures it
    assert s.active_owner == 2 and s.captured[2] == [(7, 2), (7, 3)]
    for p in (3, 0, 1):
        assert s.round == 0 and s.to_act == p
        s.apply(Scout("left", False))
        s.apply(Insert(0, False))
    log = s.round_log[0]
    assert s.round == 1 and log["ending"] == "unbeaten" and log["exempt"] == 2
    assert log["scout_tokens"] == [1, 0, 3, 0] and log["hand"] == [3, 4, 1, 3]
    assert s.round_scores[0] == [1 - 3, -4, 2 + 3, filler - 3]


def test_s2_after_the_table_empties_the_next_show_captures_nothing_and_restarts_the_count(
) -> None:
    """S2 (default ``empties-table``): once the last card of the active set is scouted, the
    next Show beats nothing (*"Jos päihitit edellisen korttisetin"* does not apply: nothing
    is captured) and the end-of-round count starts from that Show."""
    s = position(3, hands=[[(2, 1), (3, 1)], [(7, 2), (8, 2), (9, 2), (4, 2)], [(2, 5)]],
                 active=[(6, 1)], owner=2, to_act=0, filler=2, hand_decided=[True] * 3)
    s.apply(Scout("left", False))  # the table is empty; P2 gets its token
    s.apply(Insert(0, False))
    assert s.active == [] and s.active_owner is None and s.scout_tokens == [0, 0, 1]
    s.apply(Show(0, 3))  # P1: any set; nothing to capture
    assert s.captured[1] == [] and s.active_owner == 1
    for p in (2, 0):
        assert s.round == 0 and s.to_act == p
        s.apply(Scout("left", False))
        s.apply(Insert(0, False))
    assert s.round == 1 and s.round_log[0]["ending"] == "unbeaten"
    assert s.round_log[0]["exempt"] == 1 and s.round_scores[0][1] == 0 + 2


def _scout_and_show_out() -> ScoutState:
    """P0 holds one card, 5, against P2's run 3-4; Scout & Show takes the 4 and shows 4-5."""
    s = position(3, hands=[[(5, 1)], [(4, 2), (8, 3)], [(2, 5)]],
                 active=[(3, 1), (4, 1)], owner=2, to_act=0, filler=1,
                 hand_decided=[True] * 3, scout_tokens=[0, 1, 0])
    s.apply(Scout("right", True))
    s.apply(Insert(0, False))
    assert s.phase == "show" and Show(0, 2) in s.legal_actions()
    return s


def test_scout_and_show_that_empties_the_hand_ends_the_round() -> None:
    """"Kierros loppuu jos Esittämisen jälkeen pelaajan käsikortit loppuvat": the Show of a
    Scout & Show is a Show. P0 scouts the 4 and shows 4-5, its whole hand: the round ends,
    nobody is exempt (S3), P2 — the owner of the beaten set — pays for its hand too."""
    s = _scout_and_show_out()
    captured = [len(c) for c in s.captured]
    s.apply(Show(0, 2))
    log = s.round_log[0]
    assert s.round == 1 and log["ending"] == "emptied" and log["exempt"] is None
    assert s.round_scores[0] == [1, captured[1] + 1 - 2, 1 - 1]


def test_every_round_starts_afresh_and_the_totals_add_up() -> None:
    """"Aloittavan pelaajan merkki myötäpäivään seuraavalle ja houkuttelumerkit takaisin
    pöydän keskelle. Jakakaa pelaajamäärää vastaava määrä kortteja ja jokaisella tulee olla
    yksi tehotoimintomerkki." After the round the captured piles and scout tokens are gone,
    every player has a fresh hand and token, P1 starts; the round's scores (negative ones
    too) stay in the totals."""
    s = _scout_and_show_out()
    s.apply(Show(0, 2))
    assert s.round == 1 and s.to_act == 1 and s.phase == "turn"
    assert s.captured == [[], [], []] and s.scout_tokens == [0, 0, 0]
    assert s.show_tokens == [True] * 3 and s.hand_decided == [False] * 3
    assert [len(h) for h in s.hands] == [12] * 3 and s.active == [] and s.active_owner is None
    assert s.totals == s.round_scores[0] and s.totals[2] == 0 and min(s.totals) >= 0
    t = position(3, hands=[[(9, 1)], [(4, 2), (5, 1), (8, 3)], [(2, 5)]],
                 active=[(8, 7)], owner=2, to_act=0, filler=0)
    t.apply(Show(0, 1))
    assert t.totals[1] == -3 and t.scores()[1] == -3.0  # a total may be negative
