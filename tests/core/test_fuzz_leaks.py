"""Leak hunt, every game (the fuzz brief, part 1): everything a seat is told must be the same
in every position that seat cannot tell apart.

- **What a seat sees** — its observation, the text board, the SVG picture, and when it is to
  move its legal actions with their JSON, their describe lines (its own and the public one)
  and the move menu (``featured``) — is unchanged when everything that seat cannot see is
  resampled; a spectator's (seat ``None``) when any seat's hidden part is resampled.
- **What a seat is refused** — the message for each of a set of probe actions, legal or not,
  and, for the seat to move, the answer to every action number and to a sample of typed
  moves (``bigtop play``'s prompt) — is unchanged too (an error naming a card in another
  hand would be a leak).
- **What every seat is told of a move** — its describe line as told to that seat (the public
  one for a spectator), and the round and trick summaries — is a function of what that seat
  sees before and after the move: two moves that no other seat can tell apart get the same
  text.

Positions come from seeded random games; hypothesis picks position, seat and resampling
seeds (profiles as in ``tests/core/test_fuzz.py``).
"""

from __future__ import annotations

import contextlib
import functools
import json
import random
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.conftest import random_game_states
from tests.core.test_fuzz import field_values, fuzz
from tests.games.audit import refusals

from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError
from bigtop.core.game import Game, State
from bigtop.core.registry import game_module, game_names, get_game, new_game
from bigtop.games import teaching
from bigtop.games.scout.rules import ScoutGame, ScoutState
from bigtop.games.tricky_landing.actions import Throw
from bigtop.games.tricky_landing.rules import TrickyLandingState

GAMES = game_names()


@cache
def positions(name: str) -> tuple[State, ...]:
    """Every fifth position of two seeded random games at the least and the most players."""
    cls = get_game(name)
    out: list[State] = []
    for n in sorted({cls.min_players, cls.max_players}):
        for seed in (3, 4):
            out.extend(s for s in random_game_states(new_game(name, n), seed, every=5)
                       if not s.is_terminal())
    return tuple(out)


def told(s: State, seat: int | None) -> str:
    """Everything ``seat`` is shown of ``s``, as one text. The seat to move is also told
    what it asks: the answer to every action number (what an integer interface such as
    PettingZoo's ``step`` refuses, and in what words) and to each move typed as ``bigtop
    play``'s prompt reads it (:func:`typed`)."""
    out: dict[str, Any] = {"observation": s.observation(seat), "render": s.render(seat)}
    render_svg = getattr(game_module(s.game.name), "render_svg", None)
    if render_svg is not None:
        out["svg"] = render_svg(s, player=seat)
    if seat is not None and s.current_player() == seat:
        legal = s.legal_actions()
        out["legal"] = [(a.to_json(), s.describe(a, seat), s.describe(a)) for a in legal]
        out["menu"] = teaching(s.game.name).featured(s)
        out["numbers"] = answers([functools.partial(played_number, s, i)
                                  for i in range(s.game.num_distinct_actions())])
        out["typed"] = answers([functools.partial(typed, s, text)
                                for text in typed_texts(s.game)])
    return json.dumps(out, sort_keys=True, default=repr)


def answers(asks: list[Callable[[], object]]) -> list[str]:
    """What each of ``asks`` answers (as JSON) or the message it is refused with."""
    out = []
    for ask in asks:
        try:
            out.append(json.dumps(ask(), default=repr))
        except BigtopError as e:
            out.append(f"{type(e).__name__}: {e}")
    return out


def played_number(s: State, number: int) -> object:
    """The action number ``number``, checked as ``apply_int`` checks it before playing."""
    action = s.game.action_from_int(number)
    s.check_playable(action)
    return action.to_json()


def typed(s: State, text: str) -> object:
    """The move ``text`` reads as at the seat to move's prompt, checked as the prompt
    checks it (``bigtop play``: parsed, then refused if not playable now)."""
    action = s.action_from_text(text)
    s.check_playable(action)
    return action.to_json()


@cache
def typed_texts(game: Game) -> tuple[str, ...]:
    """Moves a player might type at ``game``'s prompt, the same at every position: the
    examples its ``commands`` line quotes, each with one word swapped for a word of the
    game's moves (every card, colour, path, end, field and number its actions name, and
    0..12), a seeded sample of at most 150, most of them not legal at a given position."""
    examples = re.findall(r"'([^']+)'", teaching(game.name).commands(game))
    words = {str(i) for i in range(13)}
    for a in game.action_table.actions:
        words.update(str(v) for v in a.to_json().values()
                     if isinstance(v, str | int) and not isinstance(v, bool))
    out = set(examples)
    for example in examples:
        parts = example.split()
        out.update(" ".join([*parts[:i], w, *parts[i + 1:]])
                   for i in range(len(parts)) for w in words)
    texts = sorted(out)
    return tuple(sorted(random.Random(0).sample(texts, min(150, len(texts)))))


def probes(s: State, rng: random.Random, per_kind: int = 12) -> list[Action]:
    """Actions made of the game's own field values, mostly illegal here."""
    out: list[Action] = []
    for cls, fields in field_values(s.game.name, s.game.num_players).items():
        if not all(fields.values()):
            continue
        for _ in range(per_kind):
            with contextlib.suppress(BigtopError):
                out.append(cls(**{f: rng.choice(v) for f, v in fields.items()}))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_fuzz_what_a_seat_is_told_ignores_what_it_cannot_see(name: str) -> None:
    @fuzz
    @given(st.data())
    def prop(data: st.DataObject) -> None:
        s = data.draw(st.sampled_from(positions(name)))
        n = s.game.num_players
        seat = data.draw(st.none() | st.integers(0, n - 1))
        # A spectator sees less than any seat: resample what some seat cannot see.
        keeper = seat if seat is not None else data.draw(st.integers(0, n - 1))
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        mine = told(s, seat)
        tries = probes(s, rng) if seat is not None and seat == s.current_player() else []
        refused = refusals(s, tries)
        for k in range(2):
            other = s.resample_hidden(keeper, data.draw(st.integers(0, 2**63 - 1)))
            assert told(other, seat) == mine, (name, seat, k)
            assert refusals(other, tries) == refused, (name, seat, k)

    prop()


MOVE_NOT_IN_VIEWS = ("so-ein-zirkus", "tricky-landing", "clown-15-go")
"""Games whose views do not tell apart every two moves that their public lines name
differently: So ein Zirkus records no clown's path, Tricky Landing no throw's aim and spin
(two aims can land alike), Clown 15 Go's card put on the own open pile (advanced rule 2)
can end the turn just as laying it down does. Their moves hold nothing hidden but a Tricky
Landing card that lands face down, which :func:`seen_move` leaves out of the key."""


def seen_move(a: Action, name: str, view: str) -> str | None:
    """The move ``a`` as a seat whose view after it is ``view`` (JSON) saw it played: None
    where the views record the whole move; else its JSON, but for a card the view does not
    name (a Tricky Landing card that landed face down is thrown, unseen)."""
    if name not in MOVE_NOT_IN_VIEWS:
        return None
    move = a.to_json()
    if "card" in move and json.dumps(move["card"]) not in view:
        move["card"] = None
    return json.dumps(move)


def public_texts_hunt(name: str, players: int, seed: int, every: int, widest: int,
                      options: dict[str, object] | None = None) -> int:
    """Play a seeded random game; at every ``every``-th decision try the first ``widest``
    legal actions and note, for every other seat, (its view before, its view after) -> the
    public describe line, and (views, line) -> the round and trick summaries and what the
    log adds to the line for that seat (``outcome``, ``trick_result``). A second text for
    the same key is a leak. Returns the number of keys compared."""
    lesson = teaching(name)
    game = new_game(name, players, options)
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    seen: dict[tuple[Any, ...], str] = {}
    step = 0
    while not s.is_terminal():
        if not s.is_chance() and step % every == 0:
            mover = s.current_player()
            hidden = any(s.resample_hidden(p, 1).to_json()["position"]
                         != s.to_json()["position"] for p in range(players))
            views = {p: json.dumps(s.observation(p), sort_keys=True)
                     for p in [None, *range(players)] if p != mover}
            for a in s.legal_actions()[:widest]:
                after = s.clone()
                after.apply(a)
                line = s.describe(a)
                summary = json.dumps([lesson.round_summary(s, after),
                                      lesson.trick_summary(s, after)])
                for p, before in views.items():
                    now = json.dumps(after.observation(p), sort_keys=True)
                    # A round's end deals afresh: the view after it no longer shows where
                    # the last card went, so only the summary is keyed there.
                    if hidden and summary == "[[], []]":
                        # The line as told to p (bigtop play tells a bot's move to its one
                        # person so), keyed by what p saw, and where the views do not record
                        # the whole move (a path, an aim) by the move as p saw it played.
                        told_p = s.describe(a, p)
                        key: tuple[Any, ...] = ("line", p, before, now, seen_move(a, name, now))
                        assert seen.setdefault(key, told_p) == told_p, (name, step, p, told_p)
                    key = ("summary", p, before, now, line)
                    assert seen.setdefault(key, summary) == summary, (name, step, p, line)
                    # What the log adds to the line once the move is played, as told to p
                    # (where a throw landed, who took the trick).
                    said = json.dumps([lesson.outcome(s, after, p),
                                       lesson.trick_result(s, after, p)])
                    key = ("outcome", p, before, now, line)
                    assert seen.setdefault(key, said) == said, (name, step, p, said)
        if s.is_chance():
            s.apply_chance()
        else:
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
        step += 1
    return len(seen)


@pytest.mark.parametrize("name", GAMES)
def test_public_texts_of_a_move_follow_from_what_each_seat_sees(name: str) -> None:
    cls = get_game(name)
    assert public_texts_hunt(name, cls.min_players, seed=7, every=3, widest=40) > 50


def test_the_public_text_hunt_can_fail() -> None:
    """The key of the hunt above does tell moves apart by hidden parts: a describe line that
    named the card a SCOUT player scouted into an unseen place would differ for one key."""
    s = new_game("scout", 3).new_initial_state(2)
    views = {json.dumps(s.clone().observation(1), sort_keys=True)}
    lines = set()
    for a in s.legal_actions():
        after = s.clone()
        after.apply(a)
        views.add(json.dumps(after.observation(1), sort_keys=True))
        lines.add(s.describe(a))
    assert len(lines) > 1 and len(views) > 2


def test_what_a_seat_is_told_includes_the_answers_to_what_it_asks() -> None:
    """The hunt above can fail through a refusal's words: a SCOUT whose every refusal
    named the first card of P1's hand tells P0 its position apart from a redrawn twin by
    the answers to action numbers and to typed moves, where nothing else P0 is shown does."""

    class Leaky(ScoutState):
        def _why_illegal(self, action: Action) -> str:
            return f"{ScoutState._why_illegal(self, action)} (P1 holds {self.hands[1][0]})"

    game = new_game("scout", 3)
    assert isinstance(game, ScoutGame)
    honest = game.new_initial_state(2)
    twin = honest.resample_hidden(0, 5)
    assert isinstance(honest, ScoutState) and isinstance(twin, ScoutState)
    assert twin.hands[1][0] != honest.hands[1][0]
    assert told(twin, 0) == told(honest, 0)
    leaky = []
    for hands, unused in ((honest.hands, honest.unused), (twin.hands, twin.unused)):
        s = Leaky(game, 2)
        s._deal()
        s.hands, s.unused = [list(h) for h in hands], list(unused)
        assert s.observation(0) == honest.observation(0) and not s.problems()
        leaky.append(json.loads(told(s, 0)))
    mine, theirs = leaky
    assert {k for k in mine if mine[k] != theirs[k]} == {"numbers", "typed"}


def test_a_card_that_lands_face_down_is_no_part_of_the_key() -> None:
    """The hunt's key holds a Tricky Landing throw's aim but not a card the others did not
    see: two cards thrown alike that land face down give every other seat the same key, so a
    line naming the card would be caught (keyed by the whole move it could not be)."""
    game = new_game("tricky-landing", 3)
    for s in random_game_states(game, 5, every=1):
        assert isinstance(s, TrickyLandingState)
        if s.is_terminal() or s.trick or s.table:
            continue  # the first throw of a round: the next seat sees only where it lands
        mover, other = s.current_player(), (s.current_player() + 1) % 3
        aims: dict[tuple[float, float, float], list[Throw]] = {}
        for a in s.legal_actions():
            if isinstance(a, Throw) and s.landing_of(a).face_down:
                aims.setdefault((a.x, a.y, a.spin), []).append(a)
        pair = next((acts[:2] for acts in aims.values() if len(acts) > 1), None)
        if pair is None:
            continue
        keys = set()
        for a in pair:
            after = s.clone()
            after.apply(a)
            view = json.dumps(after.observation(other), sort_keys=True)
            keys.add((view, seen_move(a, game.name, view)))
            assert json.dumps(a.card) in json.dumps(after.observation(mover))
        assert len(keys) == 1 and pair[0].card != pair[1].card
        return
    raise AssertionError("no throw landed face down")
