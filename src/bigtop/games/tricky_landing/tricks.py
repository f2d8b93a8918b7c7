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
from typing import Any, Final

from bigtop.games.tricky_landing.cards import number_of, suit_of
from bigtop.games.tricky_landing.options import TrickyLandingOptions
from bigtop.games.tricky_landing.physics import ThrowModel, touching, turned


# These three are made for every throw or trick: explicit (compiled) constructors and Final
# fields instead of ``frozen=True``, as for physics.Pose (see there).
@dataclass(init=False, unsafe_hash=True, slots=True)
class Landing:
    """A thrown card at rest: who threw it, which card, where (cm), how turned (degrees) and
    whether it shows its back."""

    player: Final[int]
    card: Final[str]
    x: Final[float]
    y: Final[float]
    rotation: Final[float]
    face_down: Final[bool]

    def __init__(self, player: int, card: str, x: float, y: float, rotation: float,
                 face_down: bool) -> None:
        self.player = player
        self.card = card
        self.x = x
        self.y = y
        self.rotation = rotation
        self.face_down = face_down

    @property
    def pose(self) -> tuple[float, float, float]:
        return (self.x, self.y, self.rotation)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "card": self.card, "x": self.x, "y": self.y,
                "rotation": self.rotation, "face": "down" if self.face_down else "up"}


@dataclass(init=False, unsafe_hash=True)
class Trick:
    """One trick on the target card; numbers are indices into the landing list."""

    members: Final[tuple[int, ...]]
    direct: Final[tuple[int, ...]]
    """Members touching the target card directly."""
    lead: Final[str | None]
    """The lead suit, or None (T1)."""
    winners: Final[tuple[int, ...]]
    """Winning cards (several when shared; none when every card is face down)."""
    taken: Final[tuple[tuple[int, ...], ...]]
    """For each winner, the cards they collect (face down in front of them)."""
    discarded: Final[tuple[int, ...]]

    def __init__(self, members: tuple[int, ...], direct: tuple[int, ...], lead: str | None,
                 winners: tuple[int, ...], taken: tuple[tuple[int, ...], ...],
                 discarded: tuple[int, ...]) -> None:
        self.members = members
        self.direct = direct
        self.lead = lead
        self.winners = winners
        self.taken = taken
        self.discarded = discarded

    def to_json(self) -> dict[str, Any]:
        return {"members": list(self.members), "direct": list(self.direct), "lead": self.lead,
                "winners": list(self.winners), "taken": [list(t) for t in self.taken],
                "discarded": list(self.discarded)}


@dataclass(init=False, unsafe_hash=True)
class Resolution:
    """What happened to every card of a finished trick."""

    tricks: Final[tuple[Trick, ...]]
    trick_of: Final[tuple[int, ...]]
    """For each landing, the index of its trick, or -1 when it missed."""
    missed: Final[tuple[int, ...]]
    new_trump: Final[int | None]
    """The single missed card that becomes the trump card (T4), if any."""
    kept_face_up: Final[tuple[int, ...]]
    """Missed cards their throwers keep face up (T4, several misses)."""
    missed_discarded: Final[tuple[int, ...]]
    touches: Final[tuple[tuple[int, int], ...]]
    """Every touching pair of clown cards (landing indices)."""

    def __init__(self, tricks: tuple[Trick, ...], trick_of: tuple[int, ...],
                 missed: tuple[int, ...], new_trump: int | None, kept_face_up: tuple[int, ...],
                 missed_discarded: tuple[int, ...], touches: tuple[tuple[int, int], ...]
                 ) -> None:
        self.tricks = tricks
        self.trick_of = trick_of
        self.missed = missed
        self.new_trump = new_trump
        self.kept_face_up = kept_face_up
        self.missed_discarded = missed_discarded
        self.touches = touches

    def to_json(self) -> dict[str, Any]:
        return {"tricks": [t.to_json() for t in self.tricks], "trick_of": list(self.trick_of),
                "missed": list(self.missed), "new_trump": self.new_trump,
                "kept_face_up": list(self.kept_face_up),
                "missed_discarded": list(self.missed_discarded),
                "touches": [list(p) for p in self.touches]}


def _reach(start: int, allowed: int, adj: list[int]) -> int:
    """The cards (a bit set) connected to card ``start`` through cards in ``allowed`` (a bit
    set holding ``start``), using the touches ``adj`` (one bit set per card). A table holds
    at most six cards, so sets of landing indices are small ints."""
    seen = 1 << start
    todo = seen
    while todo:
        i = (todo & -todo).bit_length() - 1  # the lowest card still to visit
        todo &= todo - 1
        new = adj[i] & allowed & ~seen
        seen |= new
        todo |= new
    return seen


def _members(bits: int) -> list[int]:
    """The landing indices in a bit set, ascending."""
    out = []
    i = 0
    while bits:
        if bits & 1:
            out.append(i)
        bits >>= 1
        i += 1
    return out


def resolve_trick(table: list[Landing], trump: str | None, options: TrickyLandingOptions,
                  model: ThrowModel | None = None) -> Resolution:
    """Resolve every card on the table (in landing order) under trump suit ``trump``."""
    test = touching(model or options.throw_model())
    k = len(table)
    xs: list[float] = []
    ys: list[float] = []
    cs: list[float] = []
    ss: list[float] = []
    direct = 0  # the cards touching the target card directly
    for i, card in enumerate(table):
        c, s = turned(card.rotation)  # each card turned once for every test
        xs.append(card.x)
        ys.append(card.y)
        cs.append(c)
        ss.append(s)
        if test.touches_target(card.x, card.y, c, s):
            direct |= 1 << i
    adj = [0] * k
    touches = []
    for i in range(k):
        for j in range(i + 1, k):
            if test.cards_touch(xs[i], ys[i], cs[i], ss[i], xs[j], ys[j], cs[j], ss[j]):
                adj[i] |= 1 << j
                adj[j] |= 1 << i
                touches.append((i, j))
    # Groups of connected cards, in order of their first card to land.
    everyone = (1 << k) - 1
    grouped = 0
    groups: list[int] = []
    for i in range(k):
        if not grouped >> i & 1:
            group = _reach(i, everyone, adj)
            grouped |= group
            groups.append(group)
    tricks: list[Trick] = []
    trick_of = [-1] * k
    for group in groups:
        if not group & direct:
            continue
        members = _members(group)
        for i in members:
            trick_of[i] = len(tricks)
        tricks.append(_resolve_one(table, members, group & direct, adj, trump, options))
    missed = tuple([i for i in range(k) if trick_of[i] < 0])
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


def _resolve_one(table: list[Landing], members: list[int], direct: int, adj: list[int],
                 trump: str | None, options: TrickyLandingOptions) -> Trick:
    """One trick: its ``members`` (ascending) and those touching the target, ``direct`` (a
    bit set), with the touches ``adj`` (a bit set per card)."""
    hits = _members(direct)
    # T1: the lead suit.
    rule = options.lead_suit
    if rule == "first-toucher":
        has_lead = True
    elif rule == "all-pairs-touch":
        # Every direct card touches every other one.
        has_lead = all((adj[a] | 1 << a) & direct == direct for a in hits)
    else:  # the direct cards are connected through touches among themselves
        has_lead = _reach(hits[0], direct, adj) == direct
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
    numbers = [number_of(table[i].card) for i in pool]
    best = max(numbers)
    winners = [pool[j] for j in range(len(pool)) if numbers[j] == best]
    if options.ties == "first-landed":
        winners = winners[:1]
    down_discarded = options.face_down_cards == "discarded"
    shared = [i for i in members if not (down_discarded and table[i].face_down)]
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
