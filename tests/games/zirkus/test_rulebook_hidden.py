"""Leak hunt and fuzz for So ein Zirkus. [Optional Rules] Secret clown: "In secret, each
player draws a card that shows his colour. Players keep their colour secret until the end of
the game." No view a seat gets — the observation's JSON, the text picture, the SVG picture,
the describe lines of the moves, a refusal, a server's seat view — depends on the colours the
others drew; and random legal play from many seeds with every option set keeps every
invariant (``audit()`` after every move)."""

from __future__ import annotations

import json
import random

import pytest

from bigtop.agents.base import random_step
from bigtop.core.errors import BigtopError
from bigtop.core.registry import new_game
from bigtop.games.zirkus import Add, BackToStart, Move, Upend, ZirkusGame, ZirkusState
from bigtop.games.zirkus.render import render_svg
from bigtop.server.views import seat_view


def _secret_state(players: int, seed: int, **options: object) -> ZirkusState:
    g = new_game("so-ein-zirkus", players, {"secret_clown": True, **options})
    s = g.new_initial_state(seed)
    assert isinstance(s, ZirkusState)
    return s


def _views(s: ZirkusState, seat: int) -> list[str]:
    """Everything ``seat`` is shown now."""
    out = [json.dumps(s.observation(seat), sort_keys=True), s.render(seat),
           render_svg(s, player=seat), json.dumps(seat_view(s, seat), sort_keys=True)]
    out += [s.describe(a, seat) for a in s.legal_actions()]
    out += [s.describe(a) for a in s.legal_actions()]
    return out


def _probes(s: ZirkusState) -> list[object]:
    """Moves that are refused now (most of them), to compare the words of the refusals."""
    return [Add(k, c) for k in range(3) for c in ("red", "green")] + [
        Move(k, p) for k in range(3) for p in ("F", "FR", "LLF")] + [
        BackToStart(k, "A1") for k in range(3)] + [Upend(k) for k in range(3)]


def _refusals(s: ZirkusState) -> list[str]:
    out = []
    for a in _probes(s):
        try:
            s.describe(a)  # type: ignore[arg-type]
            out.append("legal")
        except BigtopError as e:
            out.append(str(e))
    return out


@pytest.mark.parametrize("players,options", [
    (2, {}), (3, {"shoving": "clumsy", "upside_down": True}),
    (4, {"tournament": "games", "tournament_games": 2, "lazy_clown": True})])
def test_no_view_depends_on_the_colours_others_drew(players: int, options: dict[str, object]
                                                   ) -> None:
    """Redrawing the others' colours (``resample_hidden``, which keeps the seat's own) changes
    nothing the seat is shown or told while the game goes on; at the end every colour is
    shown."""
    s = _secret_state(players, seed=players, **options)
    rng = random.Random(players)
    checked = 0
    while not s.is_terminal():
        if len(s.history) % 4 == 0:
            for seat in range(players):
                r = s.resample_hidden(seat, len(s.history))
                assert isinstance(r, ZirkusState)
                if r.colours == s.colours:
                    continue
                assert _views(r, seat) == _views(s, seat)
                assert _refusals(r) == _refusals(s)
                others = [c for q, c in enumerate(s.observation(seat)["colours"]) if q != seat]
                assert others == [None] * (players - 1)
                checked += 1
        random_step(s, rng)
    assert checked > 10
    assert None not in s.observation(0)["colours"] and None not in s.observation(None)["colours"]


def test_a_spectator_is_shown_no_colour_and_seat_views_list_moves_only_to_the_mover() -> None:
    """Without a seat (a spectator) no colour is shown until the end; the server's seat view
    gives the legal moves to the seat to move only."""
    s = _secret_state(3, seed=8)
    rng = random.Random(8)
    while s.is_chance() or s.current_player() != 1:
        random_step(s, rng)
    assert s.observation(None)["colours"] == [None, None, None]
    assert "colour secret" in s.render(None) and "P1: colour secret" in s.render(None)
    for seat in (None, 0, 2):
        assert seat_view(s, seat)["legal_actions"] == []
    assert len(seat_view(s, 1)["legal_actions"]) == len(s.legal_actions()) > 0


CASES = [(players, k) for k in range(len(ZirkusGame.conformance_options(4)))
         for players in (2, 3, 4)]


@pytest.mark.parametrize("players,k", CASES)
def test_random_play_keeps_every_invariant(players: int, k: int) -> None:
    """Fuzz: a seeded random game (a series with a tournament) for every option set of the
    conformance list and 2–4 players, ``audit()`` after every move, the JSON round trip every
    tenth move, and the history replays to the same state."""
    options = ZirkusGame.conformance_options(players)[k]
    g = new_game("so-ein-zirkus", players, options)
    s = g.new_initial_state(10 * k + players)
    assert isinstance(s, ZirkusState)
    rng = random.Random(k)
    while not s.is_terminal():
        random_step(s, rng)
        s.audit()
        if len(s.history) % 10 == 0:
            assert g.state_from_json(json.loads(json.dumps(s.to_json()))) == s
    replayed = g.new_initial_state(10 * k + players)
    for a in s.history:
        replayed.apply(a)
    assert replayed == s and s.result()["ending"] in ("six-hole", "no-balls", "turn-limit")
