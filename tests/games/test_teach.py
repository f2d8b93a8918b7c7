"""Every game's teaching text and round summaries (``bigtop.games.teaching``)."""

from __future__ import annotations

import random
import re

import pytest

from bigtop.agents.base import random_step
from bigtop.core.actions import Action
from bigtop.core.game import State
from bigtop.core.registry import game_names, new_game
from bigtop.games import teaching
from bigtop.games.scout.rules import ScoutState
from bigtop.games.tricky_landing.actions import Throw
from bigtop.games.tricky_landing.rules import TrickyLandingState
from bigtop.games.zirkus.rules import ZirkusState

CONFIGS = [
    ("scout", 3, {"rounds": 2}),
    ("scout", 2, {"hand_turn": "off", "exemption": "none", "scout_last_card": "forbidden"}),
    ("scout", 3, {"scout_last_card": "ends-round-at-owner", "rounds": 1}),
    ("clown-15-go", 3, {"sets": 3}),
    ("clown-15-go", 3, {"sets": 3, "one_on_pile": True, "borrowing": True,
                        "borrowing_when": "placing", "last_card": "stays"}),
    ("clown-15-go", 2, {"sets": 2, "points": True, "borrowing": True, "own_pile": True,
                        "open_pile_first": True, "recycle": "shuffle"}),
    ("so-ein-zirkus", 2, {}),
    ("so-ein-zirkus", 3, {"tournament": "games", "tournament_games": 2, "upside_down": True}),
    ("so-ein-zirkus", 2, {"shoving": "clumsy", "short_move": "as-far-as-possible",
                          "drop_on_stop": False, "tournament": "score", "tournament_score": 8}),
    ("tricky-landing", 3, {"rounds": 2}),
    ("tricky-landing", 5, {"lead_suit": "all-pairs-touch", "face_down_lead": "no-lead",
                           "ties": "first-landed", "face_down_cards": "discarded",
                           "several_misses": "discarded", "next_leader": "trick-winner",
                           "trump_between_rounds": "carries-over", "face_down_miss": "discarded",
                           "next_round_leader": "card-holder", "rounds": 1}),
    ("tricky-landing", 4, {"trump_between_rounds": "carries-over", "rounds": 10,
                           "next_round_leader": "card-holder", "ties": "first-landed"}),
]
RULING_CODE = re.compile(r"\b[STZ]\d+\b|[Rr]uling")  # (G and R letters are also cards)


def test_every_game_teaches() -> None:
    assert {c[0] for c in CONFIGS} == set(game_names())


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_rules_in_plain_words_fit_the_screen(name: str, players: int,
                                              options: dict[str, object]) -> None:
    g = new_game(name, players, options)
    t = teaching(name)
    for text, most in ((t.rules_text(g), 22), (t.intro(g), 4)):
        lines = text.splitlines()
        assert 0 < len(lines) <= most, text
        assert all(len(line) <= 78 for line in lines), text
        assert not RULING_CODE.search(text), text


def test_the_rules_follow_the_options() -> None:
    """Each alternative of a rule that changes play changes the words (a few samples)."""
    def words(name: str, players: int, options: dict[str, object]) -> str:
        return " ".join(teaching(name).rules(new_game(name, players, options)))

    assert "pushes it a field on" not in words("so-ein-zirkus", 2, {})
    assert "onto a free field, not off the board, once a move" in words(
        "so-ein-zirkus", 2, {"shoving": "shove"})
    assert "restarts empty" in words("so-ein-zirkus", 2, {"shoving": "clumsy"})
    assert "until a total reaches 12" in words("so-ein-zirkus", 2, {
        "tournament": "score", "tournament_score": 12})
    assert "turned over and shuffled" in words("clown-15-go", 2, {"recycle": "shuffle"})
    assert "shuffled" not in words("clown-15-go", 2, {})
    default = words("tricky-landing", 3, {})
    assert "linked only through other cards" in default
    assert "do not touch each other" in words("tricky-landing", 3, {
        "lead_suit": "all-pairs-touch"})
    assert "no lead suit" not in words("tricky-landing", 3, {"lead_suit": "first-toucher"})
    assert "carries over" in words("tricky-landing", 3, {"trump_between_rounds": "carries-over"})
    assert "A sole winner throws first next" in words("tricky-landing", 3, {
        "next_leader": "trick-winner"})


def test_clown_15_go_intro_names_the_goal_of_the_points_game() -> None:
    """Advanced rule 4: "You can also win, if you are not the first to lose all your cards
    ... The player with the most points wins!" The two lines read before the first move say
    so, not the basic game's "Lose all your cards to win"."""
    t = teaching("clown-15-go")
    assert "Lose all your cards to win." in t.intro(new_game("clown-15-go", 3))
    points = t.intro(new_game("clown-15-go", 3, {"points": True}))
    assert "Lose all your cards to win" not in points and "most points wins" in points
    assert len(points.splitlines()) <= 4


def test_zirkus_commands_name_the_restart_of_the_clumsy_clown() -> None:
    """Clumsy clown: "The ejected clown returns to play on a starting square"; the mover
    types where (``restart B1``), so the typing help names it, and only in that variant."""
    t = teaching("so-ein-zirkus")
    assert "'restart B1'" in t.commands(new_game("so-ein-zirkus", 2, {"shoving": "clumsy"}))
    for shoving in ("off", "shove"):
        assert "restart" not in t.commands(new_game("so-ein-zirkus", 2, {"shoving": shoving}))


def test_the_typing_help_names_only_moves_the_rules_in_play_allow() -> None:
    """Clown 15 Go turns a card over by itself unless rule 1 or 3 makes it a choice, and a
    pass exists only under G2's ``last_card=stays``; SCOUT's hand is never turned under
    ``hand_turn=off``: the typing help leaves those words out where they can never apply."""
    def help_words(name: str, options: dict[str, object]) -> str:
        return teaching(name).commands(new_game(name, 3, options))

    basic = help_words("clown-15-go", {})
    assert "'turn'" not in basic and "'pass'" not in basic and "'lay'" in basic
    assert "'turn'" in help_words("clown-15-go", {"open_pile_first": True})
    assert "'turn'" in help_words("clown-15-go", {"borrowing": True})
    assert "'pass'" in help_words("clown-15-go", {"last_card": "stays"})
    assert "'turn'" in help_words("scout", {})
    assert "'turn'" not in help_words("scout", {"hand_turn": "off"})


def test_tricky_landing_intro_tells_what_a_miss_does() -> None:
    """[Objective] "If a throw misses the target, the trump suit for the next trick is set.
    However, if several players miss, everyone is penalized": a lone miss costs nothing, so
    the intro says what a lone miss and several misses do (it said "Missing costs points"),
    and under ``several_misses=discarded`` that several misses are discarded."""
    t = teaching("tricky-landing")
    default = " ".join(t.intro(new_game("tricky-landing", 3)).split())
    assert "A lone miss sets the trump; several misses cost points." in default
    discarded = " ".join(t.intro(new_game("tricky-landing", 3, {
        "several_misses": "discarded"})).split())
    assert "several misses are discarded" in discarded and "cost points" not in discarded


# An option that matters only beside another one is read with that one on.
NEEDS: dict[tuple[str, str], dict[str, object]] = {
    ("clown-15-go", "borrowing_when"): {"borrowing": True},
}


@pytest.mark.parametrize("name", sorted(game_names()))
def test_every_alternative_of_a_rule_changes_the_rules_text(name: str) -> None:
    """Each alternative of every rule option with named values (and every switch) is told: the
    rules a player reads under it differ from the default's, so nobody plays one rule while
    reading another (Tricky Landing's T8, shared_face_down=apart, read as the default)."""
    t = teaching(name)
    info = new_game(name, 3).options.info()
    for option in info:
        if option.choices is not None:
            values: list[object] = [v for v in option.choices if v != option.default]
        elif isinstance(option.default, bool):
            values = [not option.default]
        else:
            continue
        base = NEEDS.get((name, option.name), {})
        default = t.rules_text(new_game(name, 3, base))
        for value in values:
            text = t.rules_text(new_game(name, 3, {**base, option.name: value}))
            assert text != default, (option.name, value)


def _summaries(name: str, players: int, options: dict[str, object],
               seed: int) -> tuple[list[list[str]], list[list[str]], State]:
    g = new_game(name, players, options)
    t = teaching(name)
    s = g.new_initial_state(seed)
    rng = random.Random(seed)
    rounds: list[list[str]] = []
    tricks: list[list[str]] = []
    while not s.is_terminal():
        before = s.clone()
        random_step(s, rng)
        if lines := t.round_summary(before, s):
            rounds.append(lines)
        if lines := t.trick_summary(before, s):
            tricks.append(lines)
    return rounds, tricks, s


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_each_round_is_summarised_once(name: str, players: int,
                                       options: dict[str, object]) -> None:
    rounds, tricks, s = _summaries(name, players, options, seed=3)
    expected = (s.game.rounds if isinstance(s, ScoutState | TrickyLandingState)
                else len(s.games) if isinstance(s, ZirkusState) else 1)
    ends = [r for r in rounds if re.match(r"(Round \d+ of \d+|Game( \d+)?) over", r[0])]
    assert len(ends) == expected, rounds
    assert all(f"P{q}" in "\n".join(ends[-1]) for q in range(players))
    if name == "tricky-landing":
        assert isinstance(s, TrickyLandingState)
        assert len(tricks) == s.game.rounds * s.game.hand_size
    else:
        assert tricks == []


def test_scout_round_lines_add_up() -> None:
    rounds, _, s = _summaries("scout", 3, {"rounds": 2}, seed=5)
    assert isinstance(s, ScoutState)
    for r, lines in enumerate(rounds):
        for q, line in enumerate(lines[1:]):
            m = re.search(r"captured \+(\d+), tokens \+(\d+), (?:hand -(\d+)|hand empty|"
                          r"pays nothing for the hand) = ([+-]\d+)", line)
            assert m, line
            got = int(m[1]) + int(m[2]) - int(m[3] or 0)
            assert got == int(m[4]) == s.round_scores[r][q]


def test_tricky_landing_round_lines_add_up() -> None:
    rounds, tricks, s = _summaries("tricky-landing", 3, {"rounds": 1}, seed=2)
    assert isinstance(s, TrickyLandingState)
    assert tricks[-1][0] == "Trick 12 of 12:"  # the round's last trick, though re-dealt
    lines = rounds[0]
    assert lines[0] == "Round 1 of 1 over:"
    for q, line in enumerate(lines[1:]):
        assert line.endswith(f"(total {s.totals[q]})")
        assert f"= {s.round_scores[0][q]:+d}" in line


def _card(throw: Action) -> str:
    assert isinstance(throw, Throw), throw
    return throw.card


def test_long_menus_are_grouped() -> None:
    """SCOUT's inserts get short labels (every one listed); Tricky Landing numbers one throw
    per card, and the numbers are those of the full legal list."""
    s = new_game("scout", 3).new_initial_state(3)
    s.apply(s.legal_actions()[1])  # P0 shows a card
    s.apply(next(a for a in s.legal_actions() if a.kind == "scout"))
    items, note = teaching("scout").featured(s) or ([], "")
    assert [i for i, _ in items] == list(range(len(s.legal_actions())))
    assert all(re.fullmatch(r"\d+/\d+ at \d+", label) for _, label in items) and note
    t = new_game("tricky-landing", 4).new_initial_state(1)
    assert isinstance(t, TrickyLandingState)
    items, note = teaching("tricky-landing").featured(t) or ([], "")
    legal = t.legal_actions()
    assert [_card(legal[i]) for i, _ in items] == t.hands[0]
    assert all(label.startswith(_card(legal[i]) + " ") for i, label in items)
    assert teaching("so-ein-zirkus").featured(new_game("so-ein-zirkus", 2)
                                             .new_initial_state(1)) is None


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS[::2],
                         ids=[f"{c[0]}-{c[1]}" for c in CONFIGS[::2]])
def test_refusals_are_in_the_games_words(name: str, players: int,
                                         options: dict[str, object]) -> None:
    """What `play` and the table page say for an illegal move names no ruling code ("so it
    cannot move (Z1)", "pass (G2)")."""
    from tests.games.audit import refusals

    game = new_game(name, players, options)
    rng = random.Random(7)
    said: set[str] = set()
    for seed in range(2):
        state = game.new_initial_state(seed)
        for step in range(400):
            if state.is_terminal():
                break
            if step % 7 == 0 and state.current_player() >= 0:
                ints = rng.sample(range(game.num_distinct_actions()),
                                  min(60, game.num_distinct_actions()))
                said.update(refusals(state, [game.action_from_int(i) for i in ints]))
            random_step(state, rng)
    said.discard("-")
    assert len(said) >= 3, said  # the probes were refused in several ways
    coded = [m for m in said if RULING_CODE.search(m) or re.search(r"\([A-Z]\d+\)", m)]
    assert not coded, coded
