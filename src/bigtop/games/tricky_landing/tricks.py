"""Resolving the cards on the table once every player has thrown: a pure function of the
landed cards (poses and faces, in landing order), the trump suit and the rule options.

>>> from bigtop.games.tricky_landing.options import TrickyLandingOptions
>>> opts = TrickyLandingOptions()
>>> table = [Landing(0, "y3", 0.0, 4.0, 0.0, False), Landing(1, "y5", 0.0, -4.0, 0.0, False),
...          Landing(2, "b9", 30.0, 0.0, 0.0, False)]
>>> out = resolve_trick(table, None, opts)
>>> out.tricks[0].lead, out.tricks[0].winners, out.missed, out.new_trump
('y', (1,), (2,), 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bigtop.games.tricky_landing.cards import number_of, suit_of
from bigtop.games.tricky_landing.options import TrickyLandingOptions
from bigtop.games.tricky_landing.physics import ThrowModel, cards_touch, touches_target_card


@dataclass(frozen=True, slots=True)
class Landing:
    """A thrown card at rest: who threw it, which card, where (cm), how turned (degrees) and
    whether it shows its back."""

    player: int
    card: str
    x: float
    y: float
    rotation: float
    face_down: bool

    @property
    def pose(self) -> tuple[float, float, float]:
        return (self.x, self.y, self.rotation)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "card": self.card, "x": self.x, "y": self.y,
                "rotation": self.rotation, "face": "down" if self.face_down else "up"}


@dataclass(frozen=True)
class Trick:
    """One trick on the target card; numbers are indices into the landing list."""

    members: tuple[int, ...]
    direct: tuple[int, ...]
    """Members touching the target card directly."""
    lead: str | None
    """The lead suit, or None (T1)."""
    winners: tuple[int, ...]
    """Winning cards (several when shared; none when every card is face down)."""
    taken: tuple[tuple[int, ...], ...]
    """For each winner, the cards they collect (face down in front of them)."""
    discarded: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"members": list(self.members), "direct": list(self.direct), "lead": self.lead,
                "winners": list(self.winners), "taken": [list(t) for t in self.taken],
                "discarded": list(self.discarded)}


@dataclass(frozen=True)
class Resolution:
    """What happened to every card of a finished trick."""

    tricks: tuple[Trick, ...]
    trick_of: tuple[int, ...]
    """For each landing, the index of its trick, or -1 when it missed."""
    missed: tuple[int, ...]
    new_trump: int | None
    """The single missed card that becomes the trump card (T4), if any."""
    kept_face_up: tuple[int, ...]
    """Missed cards their throwers keep face up (T4, several misses)."""
    missed_discarded: tuple[int, ...]
    touches: tuple[tuple[int, int], ...]
    """Every touching pair of clown cards (landing indices)."""

    def to_json(self) -> dict[str, Any]:
        return {"tricks": [t.to_json() for t in self.tricks], "trick_of": list(self.trick_of),
                "missed": list(self.missed), "new_trump": self.new_trump,
                "kept_face_up": list(self.kept_face_up),
                "missed_discarded": list(self.missed_discarded),
                "touches": [list(p) for p in self.touches]}


def _connected(nodes: list[int], adj: list[set[int]]) -> bool:
    """Whether ``nodes`` are connected using only edges among themselves."""
    if len(nodes) <= 1:
        return True
    inside = set(nodes)
    seen = {nodes[0]}
    todo = [nodes[0]]
    while todo:
        i = todo.pop()
        for j in adj[i]:
            if j in inside and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(inside)


def resolve_trick(table: list[Landing], trump: str | None, options: TrickyLandingOptions,
                  model: ThrowModel | None = None) -> Resolution:
    """Resolve every card on the table (in landing order) under trump suit ``trump``."""
    model = model or options.throw_model()
    k = len(table)
    poses = [c.pose for c in table]
    direct = [touches_target_card(model, p) for p in poses]
    adj: list[set[int]] = [set() for _ in range(k)]
    touches = []
    for i in range(k):
        for j in range(i + 1, k):
            if cards_touch(model, poses[i], poses[j]):
                adj[i].add(j)
                adj[j].add(i)
                touches.append((i, j))
    # Groups of connected cards, in order of their first card to land.
    group_of = [-1] * k
    groups: list[list[int]] = []
    for i in range(k):
        if group_of[i] >= 0:
            continue
        g = len(groups)
        members = [i]
        group_of[i] = g
        todo = [i]
        while todo:
            a = todo.pop()
            for b in adj[a]:
                if group_of[b] < 0:
                    group_of[b] = g
                    members.append(b)
                    todo.append(b)
        groups.append(sorted(members))
    tricks: list[Trick] = []
    trick_of = [-1] * k
    for members in groups:
        hits = [i for i in members if direct[i]]
        if not hits:
            continue
        for i in members:
            trick_of[i] = len(tricks)
        tricks.append(_resolve_one(table, members, hits, adj, trump, options))
    missed = tuple(i for i in range(k) if trick_of[i] < 0)
    new_trump: int | None = None
    kept: tuple[int, ...] = ()
    gone: tuple[int, ...] = ()
    if len(missed) == 1:
        (m,) = missed
        if table[m].face_down and options.face_down_miss == "discarded":
            gone = missed  # T7 alternative
        else:
            new_trump = m  # T4, T7
    elif missed:
        if options.several_misses == "kept-face-up":
            kept = missed
        else:
            gone = missed
    return Resolution(tuple(tricks), tuple(trick_of), missed, new_trump, kept, gone,
                      tuple(touches))


def _resolve_one(table: list[Landing], members: list[int], hits: list[int],
                 adj: list[set[int]], trump: str | None, options: TrickyLandingOptions
                 ) -> Trick:
    # T1: the lead suit.
    rule = options.lead_suit
    if rule == "first-toucher":
        has_lead = True
    elif rule == "all-pairs-touch":
        has_lead = all(b in adj[a] for a in hits for b in hits if a < b)
    else:
        has_lead = _connected(hits, adj)
    lead: str | None = None
    if has_lead:
        if options.face_down_lead == "no-lead":
            if not table[hits[0]].face_down:
                lead = suit_of(table[hits[0]].card)
        else:
            for i in hits:
                if not table[i].face_down:
                    lead = suit_of(table[i].card)
                    break
    # T2/T3: only face-up cards compete.
    up = [i for i in members if not table[i].face_down]
    if not up:
        return Trick(tuple(members), tuple(hits), lead, (), (), tuple(members))
    trumps = [i for i in up if trump is not None and suit_of(table[i].card) == trump]
    if trumps:
        pool = trumps
    elif lead is not None:
        pool = [i for i in up if suit_of(table[i].card) == lead]
    else:
        pool = up
    best = max(number_of(table[i].card) for i in pool)
    winners = [i for i in pool if number_of(table[i].card) == best]
    if options.ties == "first-landed":
        winners = winners[:1]
    shared = [i for i in members if not (table[i].face_down
                                         and options.face_down_cards == "discarded")]
    discarded = [i for i in members if i not in shared]
    if len(winners) == 1:
        taken: list[tuple[int, ...]] = [tuple(shared)]
    else:
        # Each winner takes an equal share: their own card first, then the others in landing
        # order; the remainder is discarded. T8 'apart': face-up and face-down cards are
        # shared out each on their own (winners are face up).
        piles = [shared] if options.shared_face_down == "with-the-rest" else [
            [i for i in shared if not table[i].face_down],
            [i for i in shared if table[i].face_down]]
        got = {w: [w] for w in winners}
        for pile in piles:
            quota = len(pile) // len(winners)
            rest = [i for i in pile if i not in got]
            for w in winners:
                want = quota - (1 if w in pile else 0)
                got[w].extend(rest[:want])
                rest = rest[want:]
            discarded.extend(rest)
        taken = [tuple(sorted(got[w])) for w in winners]
    return Trick(tuple(members), tuple(hits), lead, tuple(winners), tuple(taken),
                 tuple(sorted(discarded)))
