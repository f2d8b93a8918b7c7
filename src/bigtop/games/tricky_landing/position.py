"""Loading and checking Tricky Landing positions (hand-written or dumped).

:func:`problems` lists every inconsistency of a state: it backs both ``audit()`` and the
loader, so a hand-written position is held to the same invariants as a played one. The
module sits below ``rules.py`` (which imports it) and reads a state through
:class:`TrickyLandingPosition`, the fields it checks.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Protocol, runtime_checkable

from bigtop.core.errors import InvalidStateError, inconsistent, shown
from bigtop.core.text import count
from bigtop.games.tricky_landing.cards import SUITS, sort_key, suit_of
from bigtop.games.tricky_landing.options import TrickyLandingOptions
from bigtop.games.tricky_landing.physics import ThrowModel
from bigtop.games.tricky_landing.tricks import Landing


@runtime_checkable
class TrickyLandingTable(Protocol):
    """What the position checks and the tensor read of a
    :class:`~bigtop.games.tricky_landing.rules.TrickyLandingGame`."""

    @property
    def num_players(self) -> int: ...
    @property
    def options(self) -> TrickyLandingOptions: ...
    @property
    def deck_set(self) -> frozenset[str]: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def leftover(self) -> int: ...
    @property
    def rounds(self) -> int: ...
    @property
    def model(self) -> ThrowModel: ...
    @property
    def seats(self) -> list[float]: ...


class TrickyLandingPosition(Protocol):
    """The fields of a :class:`~bigtop.games.tricky_landing.rules.TrickyLandingPosition` that make
    a position."""

    @property
    def game(self) -> TrickyLandingTable: ...
    round: int
    trick: int
    starter: int
    leader: int
    hands: list[list[str]]
    table: list[Landing]
    trump_card: str | None
    trump_suit: str | None
    won: list[list[str]]
    penalty: list[list[str]]
    discard: list[str]
    undealt: list[str]
    hidden: dict[str, int]
    last_table: list[Landing]
    last_trump: str | None
    totals: list[int]
    round_scores: list[list[int]]
    round_piles: list[list[list[int]]]
    finished: bool

_KEYS = {"round", "trick", "starter", "leader", "hands", "table", "trump_card", "trump_suit",
         "won", "penalty", "discard", "undealt", "hidden", "last_table", "last_trump",
         "totals", "round_scores", "round_piles", "finished"}


def _int(obj: Any, lo: int, hi: int, where: str) -> int:
    if isinstance(obj, bool) or not isinstance(obj, int) or not lo <= obj <= hi:
        raise InvalidStateError(f"{where} must be a whole number {lo}..{hi}, got {shown(obj)}")
    return obj


def _card(obj: Any, game: TrickyLandingTable, where: str) -> str:
    if not isinstance(obj, str) or obj not in game.deck_set:
        raise InvalidStateError(
            f"{where}: {shown(obj)} is not a card of the {game.num_players}-player deck")
    return obj


def _cards(obj: Any, game: TrickyLandingTable, where: str) -> list[str]:
    if not isinstance(obj, list):
        raise InvalidStateError(f"{where} must be a list of cards")
    return [_card(c, game, f"{where}[{i}]") for i, c in enumerate(obj)]


def _per_player(obj: Any, game: TrickyLandingTable, where: str) -> list[list[str]]:
    n = game.num_players
    if obj is None:
        return [[] for _ in range(n)]
    if not isinstance(obj, list) or len(obj) != n:
        raise InvalidStateError(f"{where} must list {n} piles, one per player")
    return [_cards(x, game, f"{where}[{q}]") for q, x in enumerate(obj)]


def _suit(obj: Any, where: str) -> str | None:
    if obj is not None and obj not in SUITS:
        raise InvalidStateError(f"{where} must be one of {', '.join(SUITS)} or null")
    return None if obj is None else str(obj)


def _float(obj: Any, where: str) -> float:
    if isinstance(obj, bool) or not isinstance(obj, int | float) or not math.isfinite(obj):
        raise InvalidStateError(f"{where} must be a finite number, got {shown(obj)}")
    return float(obj)


def _landings(obj: Any, game: TrickyLandingTable, where: str) -> list[Landing]:
    if obj is None:
        return []
    if not isinstance(obj, list):
        raise InvalidStateError(f"{where} must be a list of landed cards")
    out = []
    for i, c in enumerate(obj):
        w = f"{where}[{i}]"
        if not isinstance(c, dict) or set(c) != {"player", "card", "x", "y", "rotation",
                                                 "face"}:
            raise InvalidStateError(
                f"{w} must be {{player, card, x, y, rotation, face}}, got {shown(c)}")
        rot = _float(c["rotation"], f"{w}.rotation")
        if not 0.0 <= rot < 360.0:
            raise InvalidStateError(f"{w}.rotation must be in [0, 360) degrees")
        if c["face"] not in ("up", "down"):
            raise InvalidStateError(f"{w}.face must be 'up' or 'down'")
        out.append(Landing(_int(c["player"], 0, game.num_players - 1, f"{w}.player"),
                           _card(c["card"], game, f"{w}.card"),
                           _float(c["x"], f"{w}.x"), _float(c["y"], f"{w}.y"), rot,
                           c["face"] == "down"))
    return out


def _ints(obj: Any, n: int, where: str) -> list[int]:
    if (not isinstance(obj, list) or len(obj) != n
            or any(isinstance(x, bool) or not isinstance(x, int) for x in obj)):
        raise InvalidStateError(f"{where} must be a list of {n} whole numbers")
    return list(obj)


def load_position(s: TrickyLandingPosition, pos: dict[str, Any]) -> None:
    """Fill the fresh state ``s`` from its ``position`` JSON. Omitted fields take natural
    defaults (no table, no trump, empty piles, the undealt cards = every card not listed
    elsewhere); a field that cannot be read is refused at once, then every :func:`problems`
    of the whole position together (an :class:`InvalidStateError` listing them)."""
    game = s.game
    extra = sorted(set(pos) - _KEYS)
    if extra:
        raise InvalidStateError(f"unknown Tricky Landing position field {shown(extra[0])}")
    n = game.num_players
    s.round = _int(pos.get("round", 0), 0, game.rounds, "round")
    s.trick = _int(pos.get("trick", 0), 0, game.hand_size, "trick")
    finished = pos.get("finished", s.round == game.rounds)
    if not isinstance(finished, bool):
        raise InvalidStateError("finished must be true or false")
    s.finished = finished
    o = game.options
    leader = _int(pos["leader"], 0, n - 1, "leader") if "leader" in pos else None
    if "starter" in pos:
        s.starter = _int(pos["starter"], 0, n - 1, "starter")
    elif o.next_round_leader == "after-round-starter" or s.round == 0 or leader is None:
        s.starter = _round_starter(game, s.round)
    else:  # card-holder after the first round: known only from the card's holder
        s.starter = ((leader - s.trick) % n if o.next_leader == "clockwise" or s.trick == 0
                     else o.first_player)
    s.leader = (s.starter + s.trick) % n if leader is None else leader
    hands = pos.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise InvalidStateError(f"hands must list {n} hands")
    s.hands = [sorted(_cards(h, game, f"hands[{q}]"), key=sort_key)
               for q, h in enumerate(hands)]
    s.table = _landings(pos.get("table"), game, "table")
    s.trump_card = None if pos.get("trump_card") is None else _card(
        pos["trump_card"], game, "trump_card")
    default_suit = suit_of(s.trump_card) if s.trump_card else None
    s.trump_suit = _suit(pos.get("trump_suit", default_suit), "trump_suit")
    s.won = _per_player(pos.get("won"), game, "won")
    s.penalty = _per_player(pos.get("penalty"), game, "penalty")
    s.discard = _cards(pos.get("discard", []), game, "discard")
    hidden = pos.get("hidden")
    if hidden is None:
        s.hidden = {c.card: c.player for c in s.table if c.face_down}
    else:
        if not isinstance(hidden, dict):
            raise InvalidStateError("hidden must map cards to the players who threw them")
        s.hidden = {_card(c, game, "hidden"): _int(q, 0, n - 1, f"hidden[{shown(c)}]")
                    for c, q in sorted(hidden.items())}
    s.last_table = _landings(pos.get("last_table"), game, "last_table")
    s.last_trump = _suit(pos.get("last_trump"), "last_trump")
    if "undealt" in pos:
        s.undealt = sorted(_cards(pos["undealt"], game, "undealt"), key=sort_key)
    else:
        listed = set(_all_cards(s))
        s.undealt = sorted(game.deck_set - listed, key=sort_key)
    s.totals = _ints(pos.get("totals", [0] * n), n, "totals")
    rs = pos.get("round_scores", [])
    if not isinstance(rs, list):
        raise InvalidStateError("round_scores must be a list of rows")
    s.round_scores = [_ints(r, n, f"round_scores[{i}]") for i, r in enumerate(rs)]
    rp = pos.get("round_piles")
    if rp is None:
        if s.round_scores:
            raise InvalidStateError("round_piles (face-down and face-up counts per player and "
                                    "round) must back the round_scores")
        rp = []
    if not isinstance(rp, list):
        raise InvalidStateError("round_piles must be a list of rounds")
    s.round_piles = []
    for i, r in enumerate(rp):
        if not isinstance(r, list) or len(r) != n:
            raise InvalidStateError(f"round_piles[{i}] must list {n} [down, up] pairs")
        s.round_piles.append([_ints(x, 2, f"round_piles[{i}][{q}]") for q, x in enumerate(r)])
    trouble = problems(s)
    if trouble:
        raise inconsistent("Tricky Landing", trouble)


def _all_cards(s: TrickyLandingPosition) -> list[str]:
    out = [c for h in s.hands for c in h] + [c.card for c in s.table]
    out += [c for w in s.won for c in w] + [c for p in s.penalty for c in p]
    out += s.discard + s.undealt
    if s.trump_card is not None:
        out.append(s.trump_card)
    return out


def _round_starter(game: TrickyLandingTable, round_: int) -> int:
    """Who starts round ``round_`` (0-based; the last round once the game is over): the
    seat of option first_player, then "the next player leads the first trick of the next
    round" (R1). Under next_round_leader=card-holder only the first round's is known."""
    o = game.options
    if o.next_round_leader != "after-round-starter":
        return o.first_player
    return (o.first_player + min(round_, game.rounds - 1)) % game.num_players


def problems(s: TrickyLandingPosition) -> list[str]:
    """Every broken invariant of ``s`` (empty when the state is consistent)."""
    g = s.game
    n = g.num_players
    out: list[str] = []
    everything = _all_cards(s)
    counts = Counter(everything)
    twice = sorted((c for c, k in counts.items() if k > 1), key=sort_key)
    if twice:
        out.append(f"card {twice[0]} appears {counts[twice[0]]} times")
    foreign = [c for c in counts if c not in g.deck_set]
    if foreign:
        out.append(f"card {foreign[0]} is not in the {n}-player deck")
    missing = sorted(g.deck_set - set(counts), key=sort_key)
    if missing:
        out.append(f"{count(len(missing), 'card')} missing, e.g. {missing[0]}")
    if len(s.undealt) != g.leftover:
        out.append(f"{count(len(s.undealt), 'undealt card')}; {n} players leave {g.leftover}")
    if s.finished != (s.round == g.rounds):
        out.append("the game is finished exactly when every round has been played")
    if s.finished:
        if s.table or any(s.hands):
            out.append("a finished game has empty hands and an empty table")
        if s.trick != g.hand_size:
            out.append("a finished game ends after the last trick of its last round")
    else:
        if not 0 <= s.trick < g.hand_size:
            out.append(f"trick must be 0..{g.hand_size - 1} during a round")
        if len(s.table) >= n:
            out.append("a full table is resolved at once: at most players − 1 cards lie on it")
        for i, c in enumerate(s.table):
            if c.player != (s.leader + i) % n:
                out.append(f"table card {i} was thrown by P{c.player}, but the throwing "
                           f"order from the leader P{s.leader} gives P{(s.leader + i) % n}")
                break
        thrown = {c.player for c in s.table}
        for q in range(n):
            want = g.hand_size - s.trick - (1 if q in thrown else 0)
            if len(s.hands[q]) != want:
                out.append(f"P{q} holds {count(len(s.hands[q]), 'card')}; trick {s.trick + 1} with "
                           f"{count(len(s.table), 'card')} on the table needs {want}")
                break
    # The first player card: dealt to the round's starter, then passed on after each trick.
    o = g.options
    if o.next_round_leader == "after-round-starter" or s.round == 0:
        first = _round_starter(g, s.round)
        if s.starter != first:
            out.append(f"round {min(s.round, g.rounds - 1) + 1} is started by P{first} "
                       f"(first_player P{o.first_player}, then clockwise), not P{s.starter}")
    holder = (s.starter + s.trick) % n
    if s.trick == 0 and s.leader != holder:
        out.append(f"the round's starter P{s.starter} holds the first player card at its "
                   f"first trick, not P{s.leader}")
    elif o.next_leader == "clockwise" and s.leader != holder:
        out.append(f"the first player card passes clockwise after every trick from the "
                   f"starter P{s.starter}: trick {s.trick + 1} is led by P{holder}, "
                   f"not P{s.leader}")
    played = sum(map(len, s.won)) + sum(map(len, s.penalty)) + len(s.discard) + (
        1 if s.trump_card is not None else 0)
    if played != n * s.trick:
        out.append(f"{count(played, 'card')} in piles, discard and trump card, but "
                   f"{count(s.trick, 'resolved trick')} of {n} cards")
    if s.trump_card is not None and s.trump_suit != suit_of(s.trump_card):
        out.append("trump_suit must be the trump card's suit")
    if (s.trump_card is None and s.trump_suit is not None
            and g.options.trump_between_rounds == "cleared"):
        out.append("a trump suit without a trump card needs trump_between_rounds=carries-over")
    table_cards = {c.card: c for c in s.table}
    piles = {c for w in s.won for c in w} | set(s.discard)
    for c in s.table:
        if c.face_down and s.hidden.get(c.card) != c.player:
            out.append(f"{c.card} lies face down: only its thrower P{c.player} knows it")
        if not c.face_down and c.card in s.hidden:
            out.append(f"{c.card} lies face up, so it is no secret")
    for card, q in s.hidden.items():
        if card not in table_cards and card not in piles:
            out.append(f"hidden card {card} is neither on the table nor in a face-down pile")
        if not 0 <= q < n:
            out.append(f"hidden card {card} names no player")
    if s.last_table:
        if len(s.last_table) != n or sorted(c.player for c in s.last_table) != list(range(n)):
            out.append("the last trick must hold one card from every player")
        gone = piles | {c for p in s.penalty for c in p} | (
            {s.trump_card} if s.trump_card else set())
        if any(c.card not in gone for c in s.last_table):
            out.append("the last trick's cards must be in piles, discard or trump card")
    if not (len(s.round_scores) == len(s.round_piles) == s.round):
        out.append(f"round_scores and round_piles must have one row per played round "
                   f"({s.round})")
    else:
        for r, (row, piles_r) in enumerate(zip(s.round_scores, s.round_piles, strict=True)):
            for q in range(n):
                down, up = piles_r[q]
                if down < 0 or up < 0 or row[q] != down - 2 * up:
                    out.append(f"round {r + 1}: P{q} scored {row[q]}, but {down} face-down "
                               f"and {up} face-up cards make {down - 2 * up}")
        sums = [sum(row[q] for row in s.round_scores) for q in range(n)]
        if sums != s.totals:
            out.append(f"totals {s.totals} are not the sums of the round scores {sums}")
    for c in [*s.table, *s.last_table]:
        if not (math.isfinite(c.x) and math.isfinite(c.y) and 0.0 <= c.rotation < 360.0):
            out.append(f"{c.card} has no proper pose")
    return out
