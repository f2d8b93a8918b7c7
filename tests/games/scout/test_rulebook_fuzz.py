"""SCOUT fuzz against an independent reading of the rulebook (001_df8c940f20f01f9a.txt,
English reading in shared/rules/scout.md): random legal play from many seeds under every
conformance option set; after every move ``audit()`` holds and the engine's legal actions
equal those a brute-force reading of the rules gives, and the move did what the rulebook says.

The oracle here is deliberately naive (every window of the hand, every insertion tried) and
shares no code with the engine's generators."""

from __future__ import annotations

import random

import pytest

from bigtop.core.registry import new_state
from bigtop.games.scout.cards import Card, canonical
from bigtop.games.scout.rules import Insert, Pass, Scout, ScoutGame, ScoutState, Show, TurnHand
from tests.games.audit import play_checked


def set_strength(tops: list[int]) -> tuple[int, int, int] | None:
    """"Korttien määrä. Samasta numerosta muodostuva setti. Numerojärjestyksestä muodostuva
    setti. ... numeroarvoltaan suurempi setti on voimmakkaampi": (cards, same-number?, value),
    compared as a tuple; None if the cards form no set."""
    if not tops:
        return None
    if len(tops) == 1:
        return (1, 0, tops[0])
    if all(t == tops[0] for t in tops):
        return (len(tops), 1, tops[0])
    for step in (1, -1):
        if all(tops[i + 1] - tops[i] == step for i in range(len(tops) - 1)):
            return (len(tops), 0, min(tops))
    return None


def beats(tops: list[int], active: list[int]) -> bool:
    mine = set_strength(tops)
    if mine is None:
        return False
    theirs = set_strength(active)
    return theirs is None or mine > theirs


def any_show(tops: list[int], active: list[int]) -> bool:
    n = len(tops)
    return any(beats(tops[i:j], active) for i in range(n) for j in range(i + 1, n + 1))


def reference_legal(s: ScoutState) -> set[object]:
    """The legal actions as the rulebook and rulings S1–S5 define them."""
    o = s.game.options
    p = s.to_act
    tops = [c[0] for c in s.hands[p]]
    active = [c[0] for c in s.active]
    n = len(tops)
    if s.phase == "insert":
        assert s.pending is not None
        out: set[object] = set()
        for pos in range(n + 1):
            for flip in (False, True):
                v = s.pending[1] if flip else s.pending[0]
                if not s.pending_and_show or any_show([*tops[:pos], v, *tops[pos:]], active):
                    out.add(Insert(pos, flip))
        return out
    shows = {Show(i, j - i) for i in range(n) for j in range(i + 1, n + 1)
             if beats(tops[i:j], active)}
    if s.phase == "show":
        return set(shows)
    out = set(shows)
    if active and (len(active) > 1 or o.scout_last_card != "forbidden"):
        ends = ["left"] if len(active) == 1 else ["left", "right"]  # one card, one end
        for end in ends:
            out.add(Scout(end, False))  # type: ignore[arg-type]
            card = s.active[0] if end == "left" else s.active[-1]
            rest = active[1:] if end == "left" else active[:-1]
            if s.show_tokens[p] and any(any_show([*tops[:pos], v, *tops[pos:]], rest)
                                        for v in card for pos in range(n + 1)):
                out.add(Scout(end, True))  # type: ignore[arg-type]
    if not out:
        out.add(Pass())  # S5
    if not s.hand_decided[p]:
        out.add(TurnHand())
    return out


def check_effect(before: ScoutState, action: object, after: ScoutState) -> None:
    """What the rulebook says each move does (within a round)."""
    p = before.to_act
    if after.round != before.round:
        return  # the round ended: test_rulebook_scenarios pins the scoring
    if isinstance(action, Show):
        shown = before.hands[p][action.start:action.start + action.length]
        assert after.active == shown and after.active_owner == p
        # "käännä sen kortit ja ota ne itsellesi voittopisteiksi"
        assert after.captured[p] == before.captured[p] + before.active
        assert after.hands[p] == (before.hands[p][:action.start]
                                  + before.hands[p][action.start + action.length:])
        assert after.to_act == (p + 1) % before.game.num_players
    elif isinstance(action, Scout):
        # "Ota tuoreimmasta setistä yksi kortti jommasta kummasta päästä (ei keskeltä)"
        taken = before.active[0] if action.end == "left" else before.active[-1]
        assert after.pending == taken and len(after.active) == len(before.active) - 1
        owner = before.active_owner
        assert owner is not None
        # "Tuoreimman setin omistaja saa tästä houkuttelumerkin voittopisteeksi."
        assert after.scout_tokens[owner] == before.scout_tokens[owner] + 1
        assert after.show_tokens[p] == (before.show_tokens[p] and not action.and_show)
    elif isinstance(action, Insert):
        assert before.pending is not None
        card = before.pending[::-1] if action.flip else before.pending
        assert after.hands[p] == [*before.hands[p][:action.position], card,
                                  *before.hands[p][action.position:]]
        assert after.known[p][action.position]
    elif isinstance(action, TurnHand):
        assert after.hands[p] == [(b, a) for a, b in reversed(before.hands[p])]
        assert after.to_act == p
    # Hands other than the actor's never change within a round.
    for q in range(before.game.num_players):
        if q != p:
            assert after.hands[q] == before.hands[q]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_play_matches_the_reference_and_audits(players: int) -> None:
    """Random legal play, 3 seeds per conformance option set; audit() and the reference
    after every move, and the whole deal conserved at every round."""
    steps = 0
    for options in ScoutGame.conformance_options(players):
        for seed in range(3):
            s = new_state("scout", players, seed * 101 + players, options)
            assert isinstance(s, ScoutState)
            rng = random.Random(seed)
            steps += play_checked(s, rng, reference_legal, check_effect)
            assert s.round == s.game.rounds
    assert steps > 100


def test_every_deal_is_a_fresh_shuffle_of_the_whole_deck() -> None:
    """"Jakakaa pelaajamäärää vastaava määrä kortteja" each round: every round deals the
    player count's whole deck anew (two players: 22 of the 44 cards)."""
    s = new_state("scout", 3, 4)
    assert isinstance(s, ScoutState)
    rng = random.Random(0)
    deals: list[tuple[int, list[list[Card]]]] = []
    while not s.is_terminal():
        if not s.history or s.round != deals[-1][0]:
            deals.append((s.round, [list(h) for h in s.hands]))
            assert sorted(canonical(c) for h in s.hands for c in h) == sorted(s.game.deck)
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    assert [r for r, _ in deals] == [0, 1, 2]
    assert deals[0][1] != deals[1][1] != deals[2][1]


def _structured_tops(rng: random.Random, n: int) -> list[int]:
    """Tops rich in sets: stretches of one number and of runs up or down, then noise."""
    tops: list[int] = []
    while len(tops) < n:
        kind = rng.randrange(3)
        k = rng.randrange(1, 5)
        v = rng.randrange(1, 10)
        step = 0 if kind == 0 else (1 if kind == 1 else -1)
        tops += [min(9, max(1, v + step * i)) for i in range(k)]
    return tops[:n]


def _cards_for(tops: list[int], free: list[tuple[int, int]],
               rng: random.Random) -> list[tuple[int, int]] | None:
    """Cards from ``free`` showing ``tops`` (each card turned so that its top is the wanted
    number), or None when the deck runs out of such cards."""
    out = []
    for v in tops:
        options = [c for c in free if v in c]
        if not options:
            return None
        c = rng.choice(options)
        free.remove(c)
        out.append((v, c[1] if c[0] == v else c[0]))
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hand_written_positions_match_the_reference(players: int) -> None:
    """Positions random play seldom reaches (long runs and many equal numbers in hand and on
    the table, a scouted card waiting, a spent token), loaded from JSON: the legal actions
    still equal the brute-force reading, in phases turn, insert and show."""
    from bigtop.core.errors import InvalidStateError
    from bigtop.core.registry import new_game

    game = new_game("scout", players)  # one game: building its action table is the cost
    assert isinstance(game, ScoutGame)
    rng = random.Random(players)
    checked = 0
    for _ in range(400):
        free = list(game.deck)
        rng.shuffle(free)
        hand = _cards_for(_structured_tops(rng, rng.randrange(1, 11)), free, rng)
        length = rng.randrange(1, 5)
        v = rng.randrange(1, 10 - length)
        step = rng.choice([0, 1, -1]) if length > 1 else 0
        active_tops = [v + step * i if step >= 0 else v + length - 1 - i
                       for i in range(length)]
        active = _cards_for(active_tops, free, rng)
        others = [_cards_for([rng.randrange(1, 10)], free, rng) for _ in range(players - 1)]
        if hand is None or active is None or any(o is None for o in others):
            continue
        phase = rng.choice(["turn", "turn", "insert", "show"])
        extra: dict[str, object] = {"hand_decided": [rng.random() < 0.5] * players,
                                    "show_tokens": [phase == "turn" and rng.random() < 0.7]
                                    + [True] * (players - 1), "phase": phase}
        if phase == "insert":
            pending = free.pop()
            extra["pending"] = {"card": list(pending), "and_show": rng.random() < 0.5}
            extra["show_tokens"] = [not extra["pending"]["and_show"]] + [True] * (  # type: ignore[index]
                players - 1)
        hands = [hand, *[o for o in others if o]]
        captured: list[list[list[int]]] = [[] for _ in range(players)]
        captured[1] = [list(c) for c in free]  # the rest of the deck, so every card is placed
        pos = {"hands": [[list(c) for c in h] for h in hands],
               "active": [list(c) for c in active], "active_owner": rng.randrange(1, players),
               "to_act": 0, "captured": captured, **extra}
        try:
            s = game.state_from_json({"game": "scout", "players": players, "seed": 1,
                                      "options": game.options.to_json(), "position": pos})
        except InvalidStateError:
            continue  # e.g. phase show with no Show possible: refused, as it should be
        assert isinstance(s, ScoutState)
        assert set(s.legal_actions()) == reference_legal(s), s.to_json()
        checked += 1
    assert checked > 150
