"""Loading and checking SCOUT positions (hand-written or dumped).

:func:`problems` lists every inconsistency of a state, independently of the move code: it
backs ``audit()`` and the loader, so a hand-written position is held to the same invariants
as a played one. The module sits below ``rules.py`` (which imports it): it reads a state
through :class:`ScoutPosition`, the fields it checks, never through the rules module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from bigtop.core.errors import InvalidStateError, inconsistent, shown
from bigtop.core.game import JSON
from bigtop.core.text import count
from bigtop.games.scout.cards import Card, canonical
from bigtop.games.scout.options import ScoutOptions

PHASES = ("turn", "insert", "show")
ENDINGS = ("emptied", "unbeaten", "stalled")
"""How a round can end: a player emptied the hand, play came back to the owner of a set
nobody beat, or (S9) ``stall_turns`` turns in a row beat no set."""
"""A turn's phases: its start, a scouted card to insert, a Show after Scout & Show."""

_KEYS = {"round", "to_act", "phase", "hands", "known", "active", "active_owner", "captured",
         "scout_tokens", "show_tokens", "hand_decided", "pending", "unused", "totals",
         "round_scores", "round_log", "quiet_turns", "finished"}


@runtime_checkable
class ScoutTable(Protocol):
    """What the position checks and the tensor read of a
    :class:`~bigtop.games.scout.rules.ScoutGame`."""

    @property
    def num_players(self) -> int: ...
    @property
    def options(self) -> ScoutOptions: ...
    @property
    def rounds(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def deck(self) -> tuple[Card, ...]: ...
    @property
    def deck_set(self) -> frozenset[Card]: ...
    @property
    def max_hand(self) -> int: ...


class ScoutPosition(Protocol):
    """The fields of a :class:`~bigtop.games.scout.rules.ScoutState` that make a position."""

    @property
    def game(self) -> ScoutTable: ...
    round: int
    to_act: int
    phase: str
    hands: list[list[Card]]
    known: list[list[bool]]
    active: list[Card]
    active_owner: int | None
    captured: list[list[Card]]
    scout_tokens: list[int]
    show_tokens: list[bool]
    hand_decided: list[bool]
    pending: Card | None
    pending_and_show: bool
    unused: list[Card]
    totals: list[int]
    round_scores: list[list[int]]
    round_log: list[JSON]
    quiet_turns: int
    finished: bool

    @property
    def start_player(self) -> int: ...
    def active_strength(self) -> int: ...
    def legal_actions(self) -> Sequence[object]: ...


def _card(obj: Any, where: str) -> Card:
    if (not isinstance(obj, list) or len(obj) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in obj)):
        raise InvalidStateError(f"{where}: a card is [top, bottom], got {shown(obj)}")
    a, b = obj
    if not (1 <= a <= 10 and 1 <= b <= 10) or a == b:
        raise InvalidStateError(f"{where}: no SCOUT card shows {a} and {b}")
    return (a, b)


def _cards(obj: Any, where: str) -> list[Card]:
    if not isinstance(obj, list):
        raise InvalidStateError(f"{where} must be a list of cards")
    return [_card(c, f"{where}[{i}]") for i, c in enumerate(obj)]


def _int_list(obj: Any, n: int, where: str, default: int | bool) -> list[Any]:
    if obj is None:
        return [default] * n
    kind = bool if isinstance(default, bool) else int
    if (not isinstance(obj, list) or len(obj) != n
            or not all(type(x) is kind for x in obj)):
        raise InvalidStateError(f"{where} must be a list of {n} {kind.__name__} values")
    return list(obj)


def _round_log(obj: Any, rounds: int, n: int) -> list[JSON]:
    if obj is None:
        if rounds:
            raise InvalidStateError("round_log is required once rounds have been played")
        return []
    if not isinstance(obj, list) or len(obj) != rounds:
        raise InvalidStateError("round_log must have one entry per round played")
    out = []
    for i, r in enumerate(obj):
        if (not isinstance(r, dict) or set(r) != {"ending", "exempt", "captured",
                                                 "scout_tokens", "hand"}
                or r["ending"] not in ENDINGS
                or not (r["exempt"] is None
                        or (type(r["exempt"]) is int and 0 <= r["exempt"] < n))):
            raise InvalidStateError(f"round_log[{i}] is malformed")
        entry = dict(r)
        for key in ("captured", "scout_tokens", "hand"):
            entry[key] = _int_list(r[key], n, f"round_log[{i}].{key}", 0)
        out.append(entry)
    return out


def load_position(s: ScoutPosition, pos: JSON) -> None:
    """Fill the fresh state ``s`` from a (possibly hand-written) position and check it fully:
    a field that cannot be read is refused at once, then every :func:`problems` of the whole
    position at once (an :class:`InvalidStateError` listing them)."""
    game = s.game
    n = game.num_players
    extra = sorted(set(pos) - _KEYS)
    if extra:
        raise InvalidStateError(f"unknown SCOUT position field {shown(extra[0])}")
    s.round = pos.get("round", 0)
    if type(s.round) is not int or not 0 <= s.round <= game.rounds:
        raise InvalidStateError(f"round must be 0..{game.rounds}")
    s.finished = pos.get("finished", False) is True
    if s.finished != (s.round == game.rounds):
        raise InvalidStateError("a finished game has played every round, and only then")
    hands = pos.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise InvalidStateError(f"hands must list {n} hands")
    s.hands = [_cards(h, f"hands[{q}]") for q, h in enumerate(hands)]
    known = pos.get("known")
    if known is None:
        s.known = [[False] * len(h) for h in s.hands]
    else:
        if not isinstance(known, list) or len(known) != n:
            raise InvalidStateError(f"known must list {n} lists")
        s.known = [_int_list(k, len(s.hands[q]), f"known[{q}]", False)
                   for q, k in enumerate(known)]
    s.active = _cards(pos.get("active", []), "active")
    owner = pos.get("active_owner")
    if s.active:
        if type(owner) is not int or not 0 <= owner < n:
            raise InvalidStateError("an active set needs an active_owner (a player)")
    elif owner is not None and (game.options.scout_last_card != "ends-round-at-owner"
                                or type(owner) is not int or not 0 <= owner < n):
        raise InvalidStateError("active_owner must be null when the table is empty"
                                " (or, under scout_last_card=ends-round-at-owner, the owner"
                                " of the set scouted away)")
    s.active_owner = owner
    captured = pos.get("captured")
    if captured is None:
        s.captured = [[] for _ in range(n)]
    else:
        if not isinstance(captured, list) or len(captured) != n:
            raise InvalidStateError(f"captured must list {n} piles")
        s.captured = [_cards(c, f"captured[{q}]") for q, c in enumerate(captured)]
    s.scout_tokens = _int_list(pos.get("scout_tokens"), n, "scout_tokens", 0)
    s.show_tokens = _int_list(pos.get("show_tokens"), n, "show_tokens", True)
    decided = pos.get("hand_decided")
    s.hand_decided = _int_list(decided, n, "hand_decided", game.options.hand_turn == "off")
    s.totals = _int_list(pos.get("totals"), n, "totals", 0)
    rs = pos.get("round_scores", [])
    if not isinstance(rs, list) or len(rs) != s.round:
        raise InvalidStateError("round_scores must list one score row per round played")
    s.round_scores = [_int_list(r, n, "round_scores[]", 0) for r in rs]
    s.round_log = _round_log(pos.get("round_log"), s.round, n)
    s.quiet_turns = pos.get("quiet_turns", 0)
    if type(s.quiet_turns) is not int or s.quiet_turns < 0:
        raise InvalidStateError("quiet_turns must be a whole number 0 or more")
    phase = pos.get("phase", "turn")
    if phase not in PHASES:
        raise InvalidStateError(f"phase must be one of {', '.join(PHASES)}")
    s.phase = phase
    pending = pos.get("pending")
    if phase == "insert":
        if not isinstance(pending, dict) or set(pending) != {"card", "and_show"} or not \
                isinstance(pending["and_show"], bool):
            raise InvalidStateError("phase 'insert' needs pending {card, and_show}")
        s.pending = _card(pending["card"], "pending.card")
        s.pending_and_show = pending["and_show"]
    elif pending is not None:
        raise InvalidStateError("pending must be null outside phase 'insert'")
    to_act = pos.get("to_act", s.start_player if s.round < game.rounds else 0)
    if type(to_act) is not int or not 0 <= to_act < n:
        raise InvalidStateError(f"to_act must be a player 0..{n - 1}")
    s.to_act = to_act
    if "unused" in pos:
        s.unused = _cards(pos["unused"], "unused")
    else:
        listed = {canonical(c) for c in _all_cards(s)}
        s.unused = sorted(game.deck_set - listed) if n == 2 else []
    if (decided is None and game.options.hand_turn == "before-first-action"
            and not s.finished):
        # S1: whoever has evidently acted this round may no longer turn the hand.
        s.hand_decided = [why is not None for why in acted_this_round(s)]
    trouble = problems(s)
    if trouble:
        raise inconsistent("SCOUT", trouble)
    if not s.finished and s.phase == "show" and not s.legal_actions():
        raise InvalidStateError("phase 'show' but no Show is possible")


def _all_cards(s: ScoutPosition) -> list[Card]:
    out = [c for h in s.hands for c in h] + s.active + [c for cs in s.captured for c in cs]
    out += s.unused
    if s.pending is not None:
        out.append(s.pending)
    return out


def acted_this_round(s: ScoutPosition) -> list[str | None]:
    """For each player, what shows that they have acted in this round (None: nothing the
    position holds does): under hand_turn=before-first-action their chance to turn the hand
    is gone (S1). Turns go clockwise from the round's start player, so the players from it up
    to the one to act have had a turn."""
    n = len(s.hands)
    start = s.start_player
    return [
        "showed the active set" if q == s.active_owner else
        "beat a set" if s.captured[q] else
        "holds a scout token" if s.scout_tokens[q] else
        "scouted a card" if any(s.known[q]) else
        "used Scout & Show" if not s.show_tokens[q] else
        "is scouting" if q == s.to_act and s.phase != "turn" else
        f"had a turn before P{s.to_act} (this round started with P{start})"
        if (q - start) % n < (s.to_act - start) % n else None
        for q in range(n)]


def problems(s: ScoutPosition) -> list[str]:
    """Every broken invariant of ``s`` (empty when the position is consistent): cards
    conserved, each finished round's score recomputed from the rulebook, the phase and the
    tokens consistent with whose turn it is."""
    g = s.game
    n = g.num_players
    out: list[str] = []
    # Conservation: every card of the deck exactly once (either way up).
    seen: set[Card] = set()
    for c in map(canonical, _all_cards(s)):
        if c in seen:
            out.append(f"card {c[0]}/{c[1]} appears twice")
        elif c not in g.deck_set:
            out.append(f"card {c[0]}/{c[1]} is not in the {n}-player deck")
        seen.add(c)
    missing = sorted(g.deck_set - seen)
    if missing:
        out.append(f"{count(len(missing), 'card')} missing, e.g. {missing[0][0]}/{missing[0][1]}")
    leftover = len(g.deck) - n * g.hand_size
    if len(s.unused) != leftover:
        out.append(f"{count(len(s.unused), 'unused card')}; {n} players leave {leftover} out of "
                   "the deal")
    if len(s.known) != len(s.hands) or any(
            len(h) != len(k) for h, k in zip(s.hands, s.known, strict=True)):
        out.append("'known' must have one entry per card in each hand")
    if any(t < 0 for t in s.scout_tokens):
        out.append("scout_tokens cannot be negative")
    if not len(s.round_scores) == len(s.round_log) == s.round:
        out.append(f"round_scores and round_log must have one row per round played ({s.round})")
    # Each round's score, recomputed from the rulebook: +1 per captured card, +1 per scout
    # token, -1 per card in hand except for the owner of the set nobody beat (S3).
    for r, (scores, log) in enumerate(zip(s.round_scores, s.round_log, strict=False)):
        exempt = log["exempt"]
        if exempt is not None and not (log["ending"] == "unbeaten"
                                       and g.options.exemption == "unbeaten-set"):
            out.append(f"round {r + 1}: only the owner of an unbeaten set is exempt, and only "
                       "under exemption=unbeaten-set")
        if log["ending"] == "emptied" and 0 not in log["hand"]:
            out.append(f"round {r + 1} ended with every hand holding cards, yet nobody's set "
                       "went unbeaten or stalled")
        if sum(log["captured"]) + sum(log["hand"]) > n * g.hand_size:
            out.append(f"round {r + 1}: more cards captured and in hand than were dealt")
        for q in range(n):
            hand = 0 if q == exempt else log["hand"][q]
            want = log["captured"][q] + log["scout_tokens"][q] - hand
            if scores[q] != want:
                out.append(f"round {r + 1}: P{q} scored {scores[q]}, but "
                           f"{count(log['captured'][q], 'captured card')}, "
                           f"{count(log['scout_tokens'][q], 'scout token')} and "
                           f"{count(hand, 'card')} in hand make {want}")
    bound = g.options.stall_turns
    if not s.finished and bound and s.quiet_turns >= bound:
        out.append(f"{s.quiet_turns} turns in a row beat no set: under stall_turns={bound} "
                   "the round has ended (S9)")
    totals = [sum(r[q] for r in s.round_scores) for q in range(n)]
    if totals != s.totals:
        out.append(f"totals {s.totals} are not the sums of the round scores {totals}")
    if s.finished != (s.round == g.rounds):
        out.append("the game is finished exactly when every round has been played")
    if (s.pending is not None) != (s.phase == "insert"):
        out.append("a scouted card waits to be inserted in phase 'insert', and only then")
    if s.active:
        if s.active_strength() < 0:
            out.append("the active set is not a valid set")
        if s.active_owner is None:
            out.append("an active set without an owner")
    elif s.active_owner is not None and g.options.scout_last_card != "ends-round-at-owner":
        out.append("an empty table has no owner (S2)")
    if not s.finished:
        p = s.to_act
        spent = not s.show_tokens[p]
        if s.phase == "show" and not spent:
            out.append("phase 'show' follows a spent Scout & Show token")
        if s.pending_and_show and not spent:
            out.append("Scout & Show without spending the token")
        # A Show that empties a hand ends the round at once, so in a live round every
        # player holds cards (not only the one to act).
        out.extend(f"P{q} has no cards (the round would be over)"
                   for q, hand in enumerate(s.hands) if not hand)
        # In any phase: a player never scouts from (or acts after) their own set, because
        # play coming back to its owner ends the round.
        if p == s.active_owner:
            out.append("play came back to the active set's owner: the round is over")
    if g.options.hand_turn == "off" and not all(s.hand_decided):
        out.append("hand_turn=off, yet a hand may be turned")
    if g.options.hand_turn == "before-first-action" and not s.finished:
        out.extend(f"P{q} {why}, so (S1) their hand may no longer be turned this round: "
                   f"hand_decided[{q}] must be true"
                   for q, why in enumerate(acted_this_round(s))
                   if why is not None and not s.hand_decided[q])
    return out
