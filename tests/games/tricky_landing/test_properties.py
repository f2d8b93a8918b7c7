"""Properties of trick resolution over many random tables (seeded, fast)."""

from __future__ import annotations

import random

import pytest

from bigtop.games.tricky_landing.cards import deck_for, number_of, suit_of
from bigtop.games.tricky_landing.options import TrickyLandingOptions
from bigtop.games.tricky_landing.tricks import Landing, resolve_trick

OPTIONS = [TrickyLandingOptions(), TrickyLandingOptions(lead_suit="first-toucher"),
           TrickyLandingOptions(lead_suit="all-pairs-touch", ties="first-landed"),
           TrickyLandingOptions(face_down_cards="discarded", face_down_lead="no-lead"),
           TrickyLandingOptions(several_misses="discarded", face_down_miss="discarded")]


@pytest.mark.parametrize("opts", OPTIONS)
def test_every_card_ends_somewhere_exactly_once(opts: TrickyLandingOptions) -> None:
    rng = random.Random(7)
    for _ in range(400):
        n = rng.randint(3, 6)
        cards = rng.sample(deck_for(n), n)
        table = [Landing(q, c, rng.uniform(-14, 14), rng.uniform(-14, 14),
                         rng.uniform(0, 360), rng.random() < 0.2) for q, c in enumerate(cards)]
        trump = rng.choice([None, "y", "p", "g", "b", "o"])
        res = resolve_trick(table, trump, opts)
        places: list[int] = []
        for t in res.tricks:
            for taken in t.taken:
                places.extend(taken)
            places.extend(t.discarded)
            assert set(t.direct) <= set(t.members) and t.direct
            # Winners are face-up members; a trump on the trick always wins.
            for w in t.winners:
                assert w in t.members and not table[w].face_down
            ups = [i for i in t.members if not table[i].face_down]
            if not ups:
                assert t.winners == () and set(t.discarded) == set(t.members)
                continue
            assert t.winners
            trumps = [i for i in ups if suit_of(table[i].card) == trump]
            if trumps:
                assert {suit_of(table[w].card) for w in t.winners} == {trump}
                assert number_of(table[t.winners[0]].card) == max(
                    number_of(table[i].card) for i in trumps)
            elif t.lead is not None:
                assert {suit_of(table[w].card) for w in t.winners} == {t.lead}
            # Equal shares.
            assert len({len(x) for x in t.taken}) == 1
        places.extend(res.missed)
        assert sorted(places) == list(range(n))
        assert (res.new_trump is not None) + len(res.kept_face_up) + len(
            res.missed_discarded) >= (1 if res.missed else 0)
        if len(res.missed) == 1 and opts.face_down_miss == "names-suit":
            assert res.new_trump == res.missed[0]
        if len(res.missed) >= 2:
            assert res.new_trump is None
