"""Leak hunt and fuzz for Tricky Landing. [Round Setup] "Hands must not be shown to other
players." and [Resolving Face-Down Cards in a Trick]: a card that landed face down is known
to its thrower only. No view a seat gets — the observation's JSON, the text picture, the SVG
picture, the describe lines of the moves, the refusal of a move, the replay of an unfinished
game, a server's seat view — names a card that seat cannot know. And random legal play (grid
and off-grid throws) from many seeds keeps every invariant (``audit()`` after every move)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bigtop.cli import app
from bigtop.core.errors import IllegalActionError
from bigtop.core.registry import new_game, new_state
from bigtop.games.tricky_landing.cards import card_name
from bigtop.games.tricky_landing.render import render_svg
from bigtop.games.tricky_landing.rules import Throw, TrickyLandingState
from bigtop.server.views import seat_view
from tests.games.tricky_landing.helpers import (
    ALTERNATIVES,
    FAR,
    RIGHT,
    TOP,
    arranged,
    play_poses,
)


def _secrets(s: TrickyLandingState, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) cannot know: the other hands, the undealt
    leftovers, the cards the others threw face down (never turned up)."""
    out = set(s.undealt)
    for q, hand in enumerate(s.hands):
        if q != seat:
            out |= set(hand)
    return out | {c for c, owner in s.hidden.items() if owner != seat}


def _named(text: str, cards: set[str]) -> list[str]:
    """The cards of ``cards`` that ``text`` names ("y1" or "yellow 1", but not "y10")."""
    found = []
    for c in cards:
        pat = rf"(?<![A-Za-z0-9])({re.escape(c)}|{re.escape(card_name(c))})(?![0-9])"
        if re.search(pat, text):
            found.append(c)
    return found


def _throw(s: TrickyLandingState, rng: random.Random) -> Throw:
    """A random grid throw, or one time in three a random throw off the grid."""
    legal = s.legal_actions()
    a = legal[rng.randrange(len(legal))]
    assert isinstance(a, Throw)
    if rng.random() < 1 / 3:
        return Throw(a.card, rng.uniform(-45, 45), rng.uniform(-45, 45), rng.uniform(-10, 10))
    return a


# Clumsy throwers (skill 0.4) miss and land face down often: many secrets and every kind of
# resolution.
LEAK_CASES = [(3, {"skill": 0.4}), (4, {"skill": 0.4, "face_down_cards": "discarded"}),
              (5, {"skill": 0.4, "several_misses": "discarded", "face_down_miss": "discarded"}),
              (6, {"skill": 0.4, "trump_between_rounds": "carries-over"})]


@pytest.mark.parametrize("players,options", LEAK_CASES)
def test_no_view_names_a_card_its_seat_cannot_know(players: int, options: dict[str, Any]
                                                   ) -> None:
    s = new_state("tricky-landing", players=players, seed=players, options={**options,
                                                                         "rounds": 2})
    assert isinstance(s, TrickyLandingState)
    rng = random.Random(players)
    step = secrets_seen = 0
    while not s.is_terminal():
        a = _throw(s, rng)
        if step % 3 == 0:
            for seat in (None, *range(players)):
                secret = _secrets(s, seat)
                views = [json.dumps(s.observation(seat)), s.render(seat), s.describe(a, seat)]
                if step % 12 == 0:
                    views.append(render_svg(s, player=seat))
                for v in views:
                    assert not _named(v, secret), (step, seat, _named(v, secret))
        s.apply(a)
        step += 1
        secrets_seen += len(s.hidden)
    assert secrets_seen > 0, "no card ever lay face down unseen: the hunt proved little"


def test_resampling_the_unknown_changes_nothing_a_seat_is_shown() -> None:
    """What a seat is shown depends only on what it may know: redrawing everything hidden
    from it (``resample_hidden``) leaves its text picture, its SVG picture and the describe
    lines of every legal move (told to it) unchanged."""
    s = new_state("tricky-landing", players=4, seed=3, options={"skill": 0.4})
    assert isinstance(s, TrickyLandingState)
    rng = random.Random(5)
    for step in range(30):
        if step % 5 == 4:
            for seat in range(4):
                r = s.resample_hidden(seat, step)
                assert r.render(seat) == s.render(seat)
                assert render_svg(r, player=seat) == render_svg(s, player=seat)
                if seat != s.current_player():
                    assert [r.describe(a, seat) for a in r.legal_actions()[::27]] == [
                        s.describe(a, seat) for a in s.legal_actions()[::27]]
        s.apply(_throw(s, rng))


def test_seat_views_list_moves_only_to_the_seat_to_move() -> None:
    """The server's view of a seat (``seat_view``): the seat to move gets its moves, naming its
    own cards; every other seat and a spectator get none (the moves would show the mover's
    hand)."""
    s = new_state("tricky-landing", players=3, seed=4)
    assert isinstance(s, TrickyLandingState)
    s.apply(s.legal_actions()[0])
    mover = s.current_player()
    for seat in (None, 0, 1, 2):
        view = seat_view(s, seat)
        text = json.dumps(view)
        assert not _named(text, _secrets(s, seat))
        if seat == mover:
            cards = {item["action"]["card"] for item in view["legal_actions"]}
            assert cards == set(s.hands[mover])
        else:
            assert view["legal_actions"] == []


def test_refusals_do_not_tell_where_a_card_lies() -> None:
    """A refused throw says only that the thrower has no such card: the same words whether the
    card is in another hand, undealt, face down on the table or in a face-down pile."""
    s = arranged(3, {0: ["y3", "g4"], 1: ["y5", "b2"], 2: ["b5", "g1"]})
    play_poses(s, ("y3", TOP, True), ("y5", RIGHT), ("b5", FAR))
    # P1 leads trick 2 and throws the blue 2 face down; P2 is to throw.
    play_poses(s, ("b2", TOP, True))
    assert s.current_player() == 2
    places = {"in P0's hand": "g4", "undealt": s.undealt[0], "face down on the table": "b2",
              "in a face-down pile": "y3"}
    messages = {}
    for where, card in places.items():
        with pytest.raises(IllegalActionError) as e:
            s.apply(Throw(card, 0.0, 0.0, 3.0))
        messages[where] = str(e.value).replace(repr(card), "CARD")
        with pytest.raises(IllegalActionError) as e:
            s.describe(Throw(card, 0.0, 0.0, 3.0), 2)
        assert str(e.value).replace(repr(card), "CARD") == messages[where]
    assert len(set(messages.values())) == 1, messages


def test_the_replay_of_an_unfinished_game_names_no_secret_card(tmp_path: Path) -> None:
    """`bigtop replay` of a game still going on is public: one line per throw and a summary
    per trick, never a card in a hand, undealt or lying face down unseen."""
    s = new_state("tricky-landing", players=4, seed=6, options={"skill": 0.4})
    assert isinstance(s, TrickyLandingState)
    rng = random.Random(2)
    for _ in range(30):
        s.apply(_throw(s, rng))
    assert not s.is_terminal() and s.hidden and s.table
    path = tmp_path / "game.json"
    path.write_text(json.dumps(s.to_json()))
    out = CliRunner().invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert len(out.output.splitlines()) >= 30
    assert not _named(out.output, _secrets(s, None))
    # Cards that landed face up are public and the replay shows them as their tricks end.
    assert "won by" in out.output


OPTION_SETS: list[dict[str, object]] = [*ALTERNATIVES, {"skill": 0.3},
                                        {"skill": 2.5, "touch_tolerance_mm": 5.0}]


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_random_play_keeps_every_invariant(k: int) -> None:
    """Fuzz: one seeded game per option set (every alternative, 3–6 players), grid and
    off-grid throws, ``audit()`` after every move, the JSON round trip every fifth move, and
    the history replays to the same state."""
    players = 3 + k % 4
    options = {**OPTION_SETS[k], "rounds": 1 + k % 2}
    game = new_game("tricky-landing", players, options)
    s = game.new_initial_state(100 + k)
    assert isinstance(s, TrickyLandingState)
    rng = random.Random(k)
    while not s.is_terminal():
        s.apply(_throw(s, rng))
        s.audit()
        if len(s.history) % 5 == 0:
            assert game.state_from_json(json.loads(json.dumps(s.to_json()))) == s
    replayed = game.new_initial_state(100 + k)
    for a in s.history:
        replayed.apply(a)
    assert replayed == s and len(s.round_scores) == options["rounds"]
