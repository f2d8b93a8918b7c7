"""The table master: who may do what at a table, played through the core API (synchronous;
the web layer calls it from its database thread or pool). It decides; a
:class:`~bigtop.server.storage.Storage` keeps (as boardgame.io's ``master`` and ``db``).

The storage is the truth: a table is its game, options, seed and the append-only move log.
Each worker keeps the latest position of the tables it served in memory (an LRU of
``Settings.cached_tables``) and catches up from the log (moves after the version it has)
whenever the table's row says it moved on, so any number of workers can serve one table. A
move is played on the position in memory, without reading the storage first, and stored in
one short transaction that holds only if the row still has the version, seats and status
the position in memory was checked against. Two moves racing for one turn hit the log's
key and exactly one is stored (the other gets 409 with the current version); a table that
changed elsewhere (another worker, a seat taken over) makes the guard miss, and the move is
checked again on the table as it is now.

>>> from bigtop.server.db import make_engine, migrate
>>> from bigtop.server.settings import Settings
>>> from bigtop.server.storage import SqlStorage
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> master = TableMaster(SqlStorage(engine), Settings(db_url="sqlite://"))
>>> made = master.create(TableSpec("scout", 2, seed=3, listed=False,
...                                seats=(SeatSpec(), SeatSpec("bot", "random"))))
>>> t = master.load(made.table_id)
>>> t.version, t.state.current_player(), [s.kind for s in t.seats]
(0, 0, ['human', 'bot'])
>>> t = master.play(made.table_id, master.seat_of(t, made.tokens[0]), 0, {"index": 0})
>>> t.version, t.log[0].text.startswith("P0 ")
(1, True)
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import functools
import hashlib
import hmac
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from bigtop.agents.levels import BOT_NAMES
from bigtop.core.errors import BigtopError
from bigtop.core.game import CHANCE, Game, State
from bigtop.core.registry import capabilities, new_game
from bigtop.core.reveal import REVEAL_WORLDS, first_reveal
from bigtop.core.rng import check_seed
from bigtop.games import teaching
from bigtop.server import errors
from bigtop.server.clocks import LOSES, Clock, check_clock, time_out_result
from bigtop.server.model import (
    BOT,
    EXPIRED,
    FINISHED,
    HUMAN,
    PLAYING,
    ChatRecord,
    Created,
    Loaded,
    LogEntry,
    Meta,
    MoveRecord,
    Player,
    Seat,
    SeatSpec,
    TableSpec,
    draw_seed,
    hash_token,
    new_id,
    new_token,
    plain_text,
)
from bigtop.server.ratings import RatingUpdate
from bigtop.server.settings import Settings
from bigtop.server.storage import (
    ClockUpdate,
    Full,
    Guard,
    Known,
    SeatRefused,
    Storage,
    TurnTaken,
)

log = logging.getLogger("bigtop.server")

def _now() -> float:
    return time.time()


def _a(word: str) -> str:
    """The article before ``word``.

    >>> _a("easy"), _a("hard")
    ('an', 'a')
    """
    return "an" if word[:1] in "aeiou" else "a"


def log_line(line: str, before: State, after: State) -> str:
    """The public log line of the action from ``before`` to ``after``: its describe line
    (said before it) and what it did once played (a Tricky Landing throw: where the card
    landed, who won the trick), in the words of the game's ``teach`` module."""
    return teaching(after.game.name).played(line, before, after)


def _advance_chance(state: State) -> list[tuple[int, dict[str, Any], str]]:
    """Apply chance outcomes (from the state's seed) until a player is to act; each is
    logged like a move."""
    out = []
    while state.current_player() == CHANCE:
        action = state.sample_chance()
        line = state.describe(action)
        # The position before is needed only where the log says what the luck did.
        before = state.clone() if teaching(state.game.name).tells_outcomes else None
        state.apply(action)
        out.append((CHANCE, action.to_json(),
                    line if before is None else log_line(line, before, state)))
    return out


SEED_CHOICE = ("a chosen seed is only for a table no one else can sit at (bots only, or one "
               "person's seat, yours, with 'listed': false): whoever picks the seed knows "
               "every hand. Leave 'seed' out: the server draws one, every view shows its "
               "commitment and the export reveals it when the game ends")


def _rotated_options(loaded: Loaded, order: list[int]) -> dict[str, Any]:
    """The table's options for its seats in ``order`` (new seat k gets old seat
    ``order[k]``'s value of every per-player option given one per player)."""
    options = dict(loaded.meta.options)
    for info in type(loaded.state.game.options).info():
        value = options.get(info.name)
        if info.per_player and isinstance(value, list) and len(value) == len(order):
            options[info.name] = [value[k] for k in order]
    return options


def _person_options(game: Game, options: Mapping[str, Any],
                    seats: tuple[SeatSpec, ...]) -> dict[str, Any] | None:
    """``options`` with each of the game's ``person_options`` the creator left alone set per
    seat: the person's value for a person's seat, the option's default for a bot's (None:
    nothing to set). A person at the table page throws by hand (Tricky Landing's flick)."""
    wanted = capabilities(game.name).person_options
    if not any(s.kind == HUMAN for s in seats):
        return None
    defaults = game.options.to_json()
    filled = {name: [value if s.kind == HUMAN else defaults[name] for s in seats]
              for name, value in wanted if name not in options}
    return {**options, **filled} if filled else None


def _check_seed_choice(seats: tuple[SeatSpec, ...], listed: bool) -> None:
    """A creator may choose the seed only where nobody else can sit: bots only, or one
    person's seat (the creator's) at an unlisted table (practice, a puzzle, a tutorial).

    >>> _check_seed_choice((SeatSpec(), SeatSpec("bot", "easy")), listed=False)
    >>> try:
    ...     _check_seed_choice((SeatSpec(), SeatSpec()), listed=False)
    ... except errors.Unprocessable as e:
    ...     print(e.status, str(e)[:40])
    422 a chosen seed is only for a table no one
    """
    people = sum(1 for s in seats if s.kind == HUMAN)
    if people > 1 or (people == 1 and listed):
        raise errors.Unprocessable(SEED_CHOICE)


def undo_request(loaded: Loaded, seat: int) -> dict[str, Any] | None:
    """The take-back ``seat`` would ask for now: back to before its person's last move
    (one a bot made for them does not count); None when it made none."""
    mine = [e for e in loaded.log if e.kind == "move" and e.seat == seat and e.bot is None]
    if not mine:
        return None
    return {"seat": seat, "to": mine[-1].version - 1, "at": loaded.meta.version,
            "accepted": []}


VIEW_WORLDS = 4
"""Worlds per person and step when a view says beforehand whether a take-back would be
granted (:meth:`TableMaster.take_back`; asking checks with all of
:data:`~bigtop.core.reveal.REVEAL_WORLDS`). Each new step is looked at once, as the table
moves on, in every person's view: with 12 worlds that look was 85–90% of a SCOUT move's
server CPU (``bench/profile_move.py``: 0.85 ms a seat's view, compiled). A step that showed
a coin toss's worth goes unnoticed by the view 1 time in 16; asking then says why not."""


def state_at(loaded: Loaded, at: int, found: tuple[int, Any] | None) -> State:
    """The table's position after ``at`` moves, from ``found``, the latest snapshot at or
    before it (:meth:`TableMaster.snapshot_at_most`; None: from the start): at most
    ``Settings.snapshot_every`` moves are played.

    >>> from bigtop import new_state
    >>> s = new_state("scout", players=2, seed=1)
    >>> for _ in range(3): s.apply(s.legal_actions()[0])
    >>> snap = s.clone(); snap.apply(s.legal_actions()[0])
    >>> s.apply(s.legal_actions()[0]); s.apply(s.legal_actions()[0])
    >>> t = Loaded(None, (), s, (), 0)  # type: ignore[arg-type]
    >>> state_at(t, 5, (4, snap.to_json(with_history=False))) == s
    True
    """
    history = loaded.state.history
    game = loaded.state.game
    if found is None:
        state = game.new_initial_state(loaded.state.seed)
        start = 0
    else:
        start, position = found
        state = game.state_from_json(position)
        state.history = list(history[:start])
    for action in history[start:at]:
        state.apply(action)
    return state
def turn_clock(m: Meta, status: str, seats: tuple[Seat, ...], state: State,
               now: float) -> tuple[float | None, float | None]:
    """(turn start, deadline) of the clock that runs at a table of ``m``'s clock with
    these seats in ``state`` from ``now`` on; (None, None) where none runs: no clock, the
    game is not on, a bot is to move (a bot seat or a bot playing for a person), or a
    person's seat is not claimed yet (nobody's clock runs before everyone has arrived)."""
    if m.clock is None or status != PLAYING or not m.started:
        return None, None
    p = state.current_player()
    if p < 0 or seats[p].bot_level is not None or any(
            s.kind == HUMAN and not s.claimed for s in seats):
        return None, None
    return now, now + Clock.from_json(m.clock).allowance(seats[p].clock_left)


def opens_seat(seat: Seat, secret_hash: str) -> bool:
    """Whether ``seat``, as a table in memory has it, opens to the secret with this hash:
    its token, or the player key of the identity sitting there (a friend's seat, on any
    device). The storage's twin, checked in a writing transaction, is ``_opens_seat``."""
    return any(held is not None and hmac.compare_digest(held, secret_hash)
               for held in (seat.token_hash, seat.player_key_hash))


def seat_with_token(loaded: Loaded, digest: str) -> Seat | None:
    """The seat whose token has the hash ``digest`` (not a player key: an invite link or a
    seat token); None: no seat's."""
    return next((s for s in loaded.seats if s.token_hash is not None
                 and hmac.compare_digest(s.token_hash, digest)), None)


INVITE_USED = ("this invite link was opened already (or its token is no seat here); ask the "
               "host for the table, or open it where you first opened it")
"""The 403 of an invite token exchanged already (or of a token no seat has)."""


def wrong_token(table_id: str) -> errors.Forbidden:
    """The 403 of a token (or player key) that does not, or no longer, open a seat."""
    return errors.Forbidden(f"that token is not a seat at table {table_id}")


@contextlib.contextmanager
def refused_as_wrong_token(table_id: str) -> Iterator[None]:
    """A write the storage refused because the secret no longer opens the seat
    (:class:`SeatRefused`, found in its transaction) answered as :func:`wrong_token`."""
    try:
        yield
    except SeatRefused:
        raise wrong_token(table_id) from None


def check_room_for_event(loaded: Loaded, limit: int, then: str) -> None:
    """409 when ``loaded`` has logged ``limit`` events (``Limits.max_table_events``);
    ``then``: what follows from it."""
    logged = sum(1 for e in loaded.log if e.kind != "move")
    if logged >= limit:
        raise errors.Conflict(f"table {loaded.table_id} has logged {logged:,} take-backs and "
                              f"seat changes, its limit: {then}", version=loaded.version)


def rated_now(loaded: Loaded) -> bool:
    """Whether the table's end will change ratings: it is rated and no person's seat is
    held without an identity (a token alone)."""
    return loaded.meta.rated and not any(
        s.kind == HUMAN and s.claimed and s.player_id is None for s in loaded.seats)


ENDED_BY = {"timeout": "time", "resign": "resigned"}
"""The events after which a finished table's game may have ended early (not every timeout
ends it: a bot may play on), and the ``ending`` its result names."""


def timed_out_seats(loaded: Loaded) -> list[int]:
    """The seats that ran out of time at the table, in order."""
    return [e.seat for e in loaded.log if e.kind == "timeout"]


def table_result(loaded: Loaded) -> Any:
    """The result of a finished table: the game's own, or that of a game lost on time
    (:func:`~bigtop.server.clocks.time_out_result`); None while it is not over."""
    if loaded.meta.status != FINISHED:
        return None
    if loaded.state.is_terminal():
        return loaded.state.result()
    # Ended before the game did: the last seat that lost on time, or resigned.
    lost = [e for e in loaded.log if e.kind in ENDED_BY]
    return (time_out_result(loaded.state.scores(), lost[-1].seat, ENDED_BY[lost[-1].kind])
            if lost else None)


def waiting_line(loaded: Loaded) -> str:
    """"waiting for Ben and P2 to join" (the empty people's seats of a waiting table)."""
    names = [s.shown_name for s in loaded.waiting_for]
    if not names:
        return "waiting for the game to start"
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"waiting for {who} to join"


def lost_invites_note(lost: list[Seat]) -> str | None:
    """Why the free seats ``lost`` have no invite link to give again (None: none).

    >>> lost_invites_note([Seat(1, HUMAN, None, "h", False, 0.0, None)])[:31]
    'P1 is free, but its invite link'
    """
    if not lost:
        return None
    names = [s.shown_name for s in lost]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    many = len(lost) > 1
    return (f"{who} {'are' if many else 'is'} free, but {'their' if many else 'its'} invite "
            f"link{'s' if many else ''} cannot be shown again: this table was made before "
            "the server could give invite links again, and it keeps only a hash of each "
            "seat's secret. The links shown when the table was created still work; if they "
            "are lost, make a new table.")


def rematch_token(token: str, new_table: str) -> str:
    """The seat token of a rematch seat for the holder of ``token`` (the old seat's): a
    hash of that secret and the new table's id, so the same caller always gets the same
    token and nobody without the old token can compute it (128 bits, URL-safe).

    >>> t = rematch_token("abc", "T1")
    >>> len(t), t == rematch_token("abc", "T1"), t == rematch_token("abc", "T2")
    (22, True, False)
    """
    digest = hashlib.sha256(f"bigtop rematch\0{new_table}\0{token}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def invite_token(secret: str, table_id: str, seat: int) -> str:
    """The seat token of ``seat`` at a table, derived from the host's ``secret`` (their
    own seat token; that token itself derives from the creator's player key when the table
    was made with one): the host gets every unclaimed seat's invite link again at any time
    while the database keeps only hashes, and nobody without the secret can compute one.

    >>> t = invite_token("abc", "T1", 1)
    >>> len(t), t == invite_token("abc", "T1", 1), t == invite_token("abc", "T1", 2)
    (22, True, False)
    """
    digest = hashlib.sha256(f"bigtop invite\0{table_id}\0{seat}\0{secret}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


class TableMaster:
    """Create, load and play tables on one storage (thread-safe)."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.limits = settings.limits
        self._cache: OrderedDict[str, Loaded] = OrderedDict()  # least recently used first
        # Idle tables are found by the bucket of their last move (a 64th of the idle time):
        # its index entry changes once a bucket, not with every move.
        self._bucket_seconds = self.limits.idle_table_seconds / 64
        self._lock = threading.Lock()

    # -- creating -------------------------------------------------------------------------
    def create(self, spec: TableSpec, *, rematch_of: Loaded | None = None,
               asker: tuple[int, str] | None = None) -> Created:
        """Validate ``spec`` through the core and store a new table (with any opening chance
        outcomes in its log). ``rematch_of``: the finished table whose people sit down
        again (see :meth:`rematch`); ``asker``: (seat, hash of the secret) of the person
        there asking, checked in the transaction that stores the new table."""
        if not isinstance(spec.options, Mapping):
            raise errors.Unprocessable("options must be an object")
        try:
            game = new_game(spec.game, spec.players, spec.options)
            seed = draw_seed() if spec.seed is None else check_seed(spec.seed)
        except BigtopError as e:
            raise errors.Unprocessable(str(e)) from None
        seat_specs = spec.seats or tuple(SeatSpec() for _ in range(spec.players))
        if len(seat_specs) != spec.players:
            raise errors.Unprocessable(
                f"{len(seat_specs)} seats given for {spec.players} players")
        listed = spec.listed if spec.listed is not None else not any(
            s.invite is not None for s in seat_specs)
        if spec.seed is not None:
            _check_seed_choice(seat_specs, listed)
        by_hand = _person_options(game, spec.options, seat_specs)
        if by_hand is not None:
            try:
                game = new_game(spec.game, spec.players, by_hand)
            except BigtopError as e:
                raise errors.Unprocessable(str(e)) from None
        size = len(json.dumps(game.options.to_json(), ensure_ascii=False,
                              separators=(",", ":")).encode())
        if size > self.limits.max_options_bytes:
            raise errors.Unprocessable(
                f"the options take {size:,} bytes as JSON, more than the "
                f"{self.limits.max_options_bytes:,} a table may have (free text included)")
        for i, s in enumerate(seat_specs):
            if s.kind == BOT:
                if s.level not in BOT_NAMES:
                    raise errors.Unprocessable(
                        f"seat {i}: unknown bot level {s.level!r}; levels: {', '.join(BOT_NAMES)}")
            elif s.kind != HUMAN:
                raise errors.Unprocessable(f"seat {i}: kind must be 'human' or 'bot'")
            elif s.level is not None:
                raise errors.Unprocessable(f"seat {i}: a person's seat has no bot level")
            if s.invite is not None:
                if s.kind != HUMAN:
                    raise errors.Unprocessable(f"seat {i}: only a person's seat is invited")
                seat_specs = (*seat_specs[:i], replace(s, invite=self.name_of(s.invite)),
                              *seat_specs[i + 1:])
        if spec.takeover_level not in BOT_NAMES:
            raise errors.Unprocessable(
                f"unknown takeover level {spec.takeover_level!r}; levels: {', '.join(BOT_NAMES)}")
        if spec.takeover_after is not None and not (
                self.limits.min_takeover_seconds <= spec.takeover_after
                <= self.limits.max_takeover_seconds):
            raise errors.Unprocessable(
                f"takeover_after must be {self.limits.min_takeover_seconds:g} to "
                f"{self.limits.max_takeover_seconds:g} seconds")
        if spec.bot_seconds is not None and not 0.01 <= spec.bot_seconds <= 3600:
            raise errors.Unprocessable("bot_seconds must be 0.01 to 3600 (the server's own "
                                       "limit cuts it further)")
        clock = check_clock(spec.clock, spec.on_timeout, self.limits)
        if spec.rated and rematch_of is None:
            if spec.player_id is None:
                raise errors.NoPlayerKey(
                    "a rated table is between identities: create it with your player key "
                    "('Authorization: Bearer KEY'; POST /api/players makes one)")
            if spec.seed is not None:
                raise errors.Unprocessable("a rated table's seed is drawn by the server: "
                                           "leave 'seed' out")
        state = game.new_initial_state(seed)
        table_id = new_id(9)
        people = [i for i, s in enumerate(seat_specs) if s.kind == HUMAN]
        host = people[0] if people else None
        if spec.host_seat is not None:
            if spec.host_seat not in people:
                raise errors.Unprocessable(f"host_seat must be a person's seat: "
                                           f"{', '.join(map(str, people)) or 'none'}")
            host = spec.host_seat
        if rematch_of is not None:
            n = len(rematch_of.seats)
            host = None if rematch_of.meta.host_seat is None else (
                (rematch_of.meta.host_seat - 1) % n)
        # The host's seat token (from their player key, if they sent one), and every other
        # person's seat token from it: the host can get the invite links again.
        host_token = (invite_token(spec.key, table_id, host) if spec.key is not None
                      and host is not None else new_token())
        tokens = {i: host_token if i == host else invite_token(host_token, table_id, i)
                  for i in people}
        # Nothing is dealt or rolled before every person has arrived (a table created with
        # a player key has its creator seated; a rematch seats everyone at once). Tables
        # made without a key or an invite start at once unless asked to wait (scripts).
        wait = spec.wait if spec.wait is not None else (
            spec.player_id is not None or any(x.invite is not None for x in seat_specs))
        started = rematch_of is not None or not wait or not [
            i for i in people if not (spec.player_id is not None and i == host)]
        opening = _advance_chance(state) if started else []
        now = _now()
        terminal = state.is_terminal()
        meta = Meta(id=table_id, game=game.name, players=game.num_players,
                    options=game.options.to_json(), seed=seed, listed=listed,
                    takeover_after=spec.takeover_after, takeover_level=spec.takeover_level,
                    status=FINISHED if terminal else PLAYING, version=len(opening),
                    seat_rev=0, created_at=now, updated_at=now, bot_seconds=spec.bot_seconds,
                    seed_chosen=spec.seed is not None, creator=spec.creator,
                    chat_spectators_read=spec.chat_spectators_read, host_seat=host,
                    started=started, clock=None if clock is None else clock.to_json(),
                    on_timeout=spec.on_timeout, rated=spec.rated)
        left = None if clock is None else clock.game
        if rematch_of is None:
            # A table created with a player key seats its creator in the first person's
            # seat (claimed: nobody else may join there).
            creator = host if spec.player_id is not None else None
            # Every person's seat but the host's holds an invite: its token derives from
            # the host's, so the first to open it exchanges it (accept_invite).
            # Where the host has others to host, their seat is taken from the start, with or
            # without a key: the creator holds its token (else a stranger joining a listed
            # table first took it, and the host's powers over the others, before the
            # creator's page arrived). A table's one person's seat made without a key
            # stays free for whoever sits first (a table put up for a stranger).
            hosting = host if spec.player_id is not None or len(people) > 1 else None
            seat_list = [Seat(i, s.kind, s.level,
                              hash_token(tokens[i]) if i in tokens else None,
                              s.kind == BOT or i == hosting, now, None,
                              spec.player_id if i == creator else None, invite=s.invite,
                              here=i == creator, clock_left=left if s.kind == HUMAN else None,
                              invited=i in tokens and i != host)
                         for i, s in enumerate(seat_specs)]
        else:
            # The same people, rotated (seat k sits at k - 1): claimed, and without a token
            # until each asks for theirs (:meth:`rematch`); identities carried over.
            n = len(rematch_of.seats)
            old = [rematch_of.seats[(i + 1) % n] for i in range(n)]
            seat_list = [Seat(i, s.kind, s.level, None, True, now, None, s.player_id,
                              clock_left=left if s.kind == HUMAN else None,
                              invite=s.invite)  # a friend without an identity keeps the name
                         for i, s in enumerate(old)]
            tokens = {}
        turn_started, deadline = turn_clock(meta, meta.status, tuple(seat_list), state, now)
        meta = replace(meta, turn_started=turn_started, clock_deadline=deadline)
        to_move = state.current_player()
        try:
            made = self.storage.create_table(
                meta, seat_list, [MoveRecord(i, p, a, line) for i, (p, a, line)
                                  in enumerate(opening)],
                result=state.result() if terminal else None,
                bot_waiting=to_move >= 0 and seat_list[to_move].kind == BOT,
                idle_bucket=self._idle_bucket(now),
                max_open=self.limits.max_open_tables,
                max_open_per_creator=self.limits.max_open_tables_per_client,
                rematch_of=None if rematch_of is None else rematch_of.table_id, asker=asker)
        except Full as e:
            if e.creator is not None:
                raise errors.TooManyRequests(
                    f"this address has {e.open_tables} open tables, its limit: finish, "
                    "resign or close some first (a table nobody joined expires after "
                    f"{self.limits.unjoined_table_seconds / 3600:g} h)",
                    retry_after=60.0) from None
            raise errors.Unavailable(
                f"the server has {e.open_tables} open tables, its limit; try later") from None
        if not made:  # another request made this table's rematch first
            raced = self.load(rematch_of.table_id if rematch_of else table_id).meta.rematch_id
            assert raced is not None
            return Created(raced, {})
        return Created(table_id, tokens)

    def rematch(self, table_id: str, seat: int, token: str,
                asker: str = "") -> tuple[str, int, str | None]:
        """The rematch of a finished table (made by the first of its people to ask): the
        same people and bots, a new seed, seats rotated. Answers the new table, the caller's
        seat there and its token, derived from the caller's own seat token (the same
        answer each time they ask; nobody else can derive it); None when ``token`` is the
        caller's player key, which opens the new seat as it opened the old one. ``token``
        must open ``seat``: checked here, and again in the transactions that make the new
        table and give the new seat its token (403, nothing stored). ``asker``: the
        caller's client address, the new table's creator (its open tables count it; ""
        a trusted caller's, not counted)."""
        loaded = self.load(table_id)
        secret_hash = hash_token(token)
        if not opens_seat(loaded.seats[seat], secret_hash):
            raise wrong_token(table_id)
        m = loaded.meta
        if m.status != FINISHED:
            raise errors.Conflict(f"table {table_id} is {m.status}: a rematch follows the end",
                                  version=m.version)
        if loaded.seats[seat].kind != HUMAN:
            raise errors.Conflict(f"seat {seat} is a bot's seat")
        new_id = m.rematch_id
        if new_id is None:
            # Seats rotate (new seat k is old seat k + 1), and every per-player option with
            # them: a person keeps their own value (Tricky Landing's hand-thrown skill).
            order = [(k + 1) % m.players for k in range(m.players)]
            spec = TableSpec(m.game, m.players, _rotated_options(loaded, order), None,
                             tuple(SeatSpec(loaded.seats[k].kind, loaded.seats[k].level)
                                   for k in order),
                             m.listed, m.takeover_after, m.takeover_level,
                             chat_spectators_read=m.chat_spectators_read,
                             bot_seconds=m.bot_seconds, creator=asker, clock=m.clock,
                             on_timeout=m.on_timeout, rated=m.rated)
            # A new seed from the CSPRNG (seed None), committed in every view like any.
            with refused_as_wrong_token(table_id):
                new_id = self.create(spec, rematch_of=loaded,
                                     asker=(seat, secret_hash)).table_id
        new_seat = (seat - 1) % m.players
        by_key = loaded.seats[seat].token_hash != secret_hash
        if by_key:
            return new_id, new_seat, None
        mine = rematch_token(token, new_id)
        if self.load(new_id).seats[new_seat].token_hash == hash_token(mine):
            # Asked before: the seat holds this token already. Written again, it moved the
            # seat revision on, a new view for every socket there, at each ask.
            return new_id, new_seat, mine
        # Derived from an invite token not yet exchanged, the new token is one the host can
        # derive too: an invite still, which the page exchanges in its turn.
        with refused_as_wrong_token(table_id):
            if not self.storage.set_seat_token(new_id, new_seat, hash_token(mine),
                                               opened_by=(table_id, seat, secret_hash),
                                               invite=loaded.seats[seat].invited):
                raise errors.Conflict(
                    f"seat {new_seat} of table {new_id} has its token already")
        self.load(new_id)
        return new_id, new_seat, mine
    def _idle_bucket(self, t: float) -> int:
        return int(t // self._bucket_seconds)

    # -- loading --------------------------------------------------------------------------
    def cached(self, table_id: str) -> Loaded | None:
        """The table as this worker last knew it (None: not in memory). It may be behind
        the storage when another worker moved; :meth:`play` copes with that."""
        with self._lock:
            hit = self._cache.get(table_id)
            if hit is not None:
                self._cache.move_to_end(table_id)
            return hit

    def _remember(self, loaded: Loaded) -> Loaded:
        with self._lock:
            old = self._cache.get(loaded.table_id)
            if old is None or (loaded.meta.undos, loaded.version, loaded.meta.seat_rev,
                               loaded.last_event) >= (old.meta.undos, old.version,
                                                      old.meta.seat_rev, old.last_event):
                old = self._cache[loaded.table_id] = loaded
            self._cache.move_to_end(loaded.table_id)
            while len(self._cache) > self.settings.cached_tables:
                self._cache.popitem(last=False)  # rebuilt from the log when asked again
            return old

    def load(self, table_id: str) -> Loaded:
        """The table as the storage has it now (from memory plus whatever the log added)."""
        return self._remember(self._refresh(table_id))

    def _refresh(self, table_id: str) -> Loaded:
        have = self.cached(table_id)
        known = None if have is None else Known(have.version, have.meta.seat_rev,
                                                have.meta.status, have.last_event)
        start = 0 if have is None else len(have.state.history)
        stored = self.storage.read(table_id, known, start)
        if stored is None:
            raise errors.NotFound(f"no table {table_id!r}")
        if stored.unchanged and have is not None:
            return have
        if have is not None and stored.meta.undos != have.meta.undos:
            # Moves were taken back: the log this worker holds is no longer the table's.
            have = None
            stored = self.storage.read(table_id, None, 0)
            if stored is None:
                raise errors.NotFound(f"no table {table_id!r}")
        meta = stored.meta
        moves = stored.moves
        if have is None:
            game = new_game(meta.game, meta.players, meta.options)
            log: list[LogEntry] = []
            last_event = 0
            if stored.snapshot is not None and stored.snapshot[0] <= len(moves):
                # From the latest snapshot: the moves before it only read, not played.
                idx, position = stored.snapshot
                state = game.state_from_json(position)
                state.history = [game.action_from_json(m.action) for m in moves[:idx]]
                for mv in moves[:idx]:
                    log.append(LogEntry(f"m{mv.idx}", "move", mv.idx + 1, mv.seat, mv.text,
                                        mv.by_bot))
                moves = moves[idx:]
            else:
                state = game.new_initial_state(meta.seed)
        else:
            state = have.state.clone()
            log = list(have.log)
            last_event = have.last_event
        seat_list = stored.seats if stored.seats is not None else (
            have.seats if have is not None else ())
        for ev in stored.events:
            log.append(LogEntry(f"e{ev.id}", ev.kind, ev.at_version, ev.seat, ev.text))
            last_event = ev.id
        for mv in moves:
            if mv.idx != len(state.history):
                raise BigtopError(f"table {table_id}: move {mv.idx} missing from the log")
            state.apply_json(mv.action)
            log.append(LogEntry(f"m{mv.idx}", "move", mv.idx + 1, mv.seat, mv.text, mv.by_bot))
        meta = replace(meta, version=len(state.history))
        if have is None and stored.events:
            # Read whole: each event after the move it followed (events were read first).
            log.sort(key=lambda e: (e.version, e.kind != "move"))
        return Loaded(meta, seat_list, state, tuple(log), last_event)

    # -- seats and tokens -----------------------------------------------------------------
    def seat_of(self, loaded: Loaded, token: str | None) -> int | None:
        """The seat a token opens (None: no token, a spectator); a token of no seat at this
        table is refused."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for s in loaded.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        # A player key opens the seat its identity sat down in, on any device.
        for s in loaded.seats:
            if s.player_key_hash is not None and hmac.compare_digest(s.player_key_hash,
                                                                     digest):
                return s.seat
        raise wrong_token(loaded.table_id)

    def touch(self, table_id: str, seat: int, token: str) -> Loaded | None:
        """Mark ``seat`` present now (and claimed), if ``token`` still opens it. Returns the
        new table when that changed what others see (the seat was unclaimed, or its person
        marked away), else None."""
        if not self.storage.claim(table_id, seat, hash_token(token), _now()):
            return None
        return self.sync_clock(self.try_start(table_id) or self.load(table_id))

    def mark_present(self, present: Mapping[tuple[str, int], float]) -> None:
        """Store when these (table, seat) people were last seen, in one transaction."""
        self.storage.mark_present(present)

    def join(self, table_id: str, seat: int | None,
             player: Player | None = None) -> tuple[int, str]:
        """Take a free person's seat of a listed table: a fresh token (the old invite link of
        that seat stops working). With a ``player``, the seat is that identity's (one seat
        per identity and table)."""
        loaded = self.load(table_id)
        player_id = None if player is None else player.id
        if player is not None and any(s.player_id == player.id for s in loaded.seats):
            raise errors.Conflict(f"{player.name} sits at table {table_id} already")
        if player is None and loaded.meta.rated:
            raise errors.NoPlayerKey("a rated table's seats are taken with a player key "
                                     "('Authorization: Bearer KEY')")
        if loaded.meta.status != PLAYING:
            raise errors.GameOver(f"table {table_id} is {loaded.meta.status}")
        if not loaded.meta.listed:
            raise errors.Forbidden(f"table {table_id} is private: ask for an invite link")
        free = [s.seat for s in loaded.seats if s.kind == HUMAN and not s.claimed]
        if seat is None:
            if not free:
                raise errors.Conflict(f"table {table_id} has no free seat")
            seat = free[0]
        if not 0 <= seat < loaded.meta.players:
            raise errors.Unprocessable(f"seat must be 0..{loaded.meta.players - 1}")
        token = new_token()
        if not self.storage.take_free_seat(table_id, seat, hash_token(token), _now(),
                                           player_id):
            if player is not None:
                self._seated_meanwhile(table_id, player)
            raise errors.Conflict(f"seat {seat} of table {table_id} is not free")
        self.sync_clock(self.try_start(table_id) or self.load(table_id))
        return seat, token

    def _seated_meanwhile(self, table_id: str, player: Player) -> None:
        """After a seating the storage refused: the Conflict that says so, where the
        identity took another seat of the table meanwhile (a claim through another
        worker)."""
        if any(s.player_id == player.id for s in self.load(table_id).seats):
            raise errors.Conflict(f"{player.name} sits at table {table_id} already")

    # -- invites and the start -------------------------------------------------------------
    def try_start(self, table_id: str, bots: Mapping[int, str] | None = None, *,
                  host: tuple[int, str] | None = None) -> Loaded | None:
        """Start a waiting table once every person's seat is taken (``bots``: or give
        these empty seats to bots of those levels): the opening chance outcomes are drawn
        and logged only now. Returns the started table (None: it still waits, or had
        started; whoever raced us started it). ``host``: (seat, hash of the secret) of the
        host starting it, checked in the transaction that starts it (403 if it no longer
        opens that seat)."""
        loaded = self.load(table_id)
        bots = dict(bots or {})
        if loaded.meta.started or loaded.meta.status != PLAYING or any(
                s.seat not in bots for s in loaded.waiting_for):
            return None
        state = loaded.state.clone()
        opening = _advance_chance(state)
        to_move = state.current_player()
        now = _now()
        bot_waiting = to_move >= 0 and (to_move in bots or loaded.seats[to_move].kind == BOT)
        # The first turn's clock starts now (not at the first move), in the start's own
        # transaction (a worker dying between the two left it stopped).
        seats = tuple(replace(s, kind=BOT, level=bots[s.seat], token_hash=None, claimed=True,
                              invite=None) if s.seat in bots else s for s in loaded.seats)
        m = replace(loaded.meta, started=True)
        clock = None if m.clock is None else ClockUpdate(
            *turn_clock(m, PLAYING, seats, state, now))
        with refused_as_wrong_token(table_id):
            if not self.storage.start_table(
                    table_id, bots, [MoveRecord(i, p, a, line) for i, (p, a, line)
                                     in enumerate(opening)],
                    bot_waiting=bot_waiting, now=now, idle_bucket=self._idle_bucket(now),
                    clock=clock, host=host):
                return None
        return self.load(table_id)

    def start(self, table_id: str, seat: int, level: str, token: str | None = None) -> Loaded:
        """The host starts a waiting table now: a bot of ``level`` in every empty seat.
        ``token``: the host's seat token or player key (None: a trusted caller); the table
        starts only if it still opens ``seat``, checked in the transaction that starts it
        (the storage's; the start has no seat revision to guard it by)."""
        loaded = self.load(table_id)
        if seat != loaded.meta.host_seat:
            raise errors.NotHost(f"only the host (seat {loaded.meta.host_seat}) starts "
                                 f"table {table_id}")
        if level not in BOT_NAMES:
            raise errors.Unprocessable(
                f"unknown bot level {level!r}; levels: {', '.join(BOT_NAMES)}")
        if loaded.meta.status != PLAYING:
            raise errors.GameOver(f"table {table_id} is {loaded.meta.status}")
        if loaded.meta.started:
            raise errors.Conflict(f"table {table_id} has started", version=loaded.version)
        started = self.try_start(table_id, {s.seat: level for s in loaded.waiting_for},
                                 host=None if token is None else (seat, hash_token(token)))
        if started is None:
            raise errors.Conflict(f"table {table_id} changed meanwhile; look again",
                                  version=self.load(table_id).version)
        return started

    @staticmethod
    def own_seat(loaded: Loaded, token: str) -> int | None:
        """The seat ``token`` opens at ``loaded`` if it is its holder's own (no invite);
        None: an invite, or no seat's token."""
        found = seat_with_token(loaded, hash_token(token))
        return None if found is None or found.invited else found.seat

    def accept_invite(self, table_id: str, token: str) -> tuple[int, str]:
        """Exchange an invite link's token for the seat's own: a fresh token from the
        CSPRNG that only the caller learns. From then on the invite token opens nothing
        (the host, who can derive it, no longer opens the seat) and the seat is taken.
        A token that is its holder's own already (the host's, one from a lobby join or a
        rematch, one exchanged before) is answered unchanged, so a page may always ask.
        Answers (seat, token); 403 for a token that opens no seat here (an invite opened
        already, or none at all)."""
        loaded = self.load(table_id)
        digest = hash_token(token)
        found = seat_with_token(loaded, digest)
        if found is None:
            raise errors.InviteUsed(INVITE_USED)
        if not found.invited:
            return found.seat, token
        fresh = new_token()
        if not self.storage.exchange_invite(table_id, found.seat, digest, hash_token(fresh),
                                            _now()):
            raise errors.InviteUsed(INVITE_USED)  # another exchange came first
        self.sync_clock(self.try_start(table_id) or self.load(table_id))
        return found.seat, fresh

    def claim_seat(self, table_id: str, token: str, player: Player) -> Loaded:
        """An invite link opened by an identity: the seat its token opens becomes that
        identity's (its key then opens it on any device) and is taken. Answers the table
        (started, if that was the last empty seat). A token that is still an invite is
        ended here: the seat's token is replaced by one nobody learns, so from then on the
        identity's key alone opens the seat (the key is the holder's own secret and opens
        the seat on every device; a new token would be one more secret to keep). A seat
        token of the holder's own (an exchanged invite) keeps opening it beside the key."""
        loaded = self.load(table_id)
        digest = hash_token(token)
        found = seat_with_token(loaded, digest)
        if found is None:
            raise errors.Forbidden(f"that invite is not a seat at table {table_id} (any more)")
        if found.player_id == player.id:
            return loaded
        if found.player_id is not None:
            raise errors.Conflict(f"seat {found.seat} of table {table_id} is "
                                  f"{found.name}'s already")
        if any(s.player_id == player.id for s in loaded.seats):
            raise errors.Conflict(f"{player.name} sits at table {table_id} already")
        if loaded.meta.status != PLAYING:
            raise errors.GameOver(f"table {table_id} is {loaded.meta.status}")
        if not self.storage.set_seat_player(
                table_id, found.seat, digest, player.id, _now(),
                new_token_hash=hash_token(new_token()) if found.invited else None):
            self._seated_meanwhile(table_id, player)
            raise errors.Conflict(f"seat {found.seat} of table {table_id} was taken meanwhile")
        return self.sync_clock(self.try_start(table_id) or self.load(table_id))

    def invites(self, loaded: Loaded, seat: int,
                secret: str) -> tuple[list[tuple[Seat, str]], list[Seat]]:
        """Every person's seat nobody has taken yet and its token, for the host (who asks
        with ``secret``, their seat token or player key): derived again from it. Also the
        free seats whose token cannot be derived: those of a table made before invite
        links could be given again (migration 0010: it has no host seat, any person seated
        there may ask, and its tokens were drawn at random, only their hashes kept)."""
        host = loaded.meta.host_seat
        free = [s for s in loaded.seats if s.kind == HUMAN and not s.claimed
                and s.seat != host and s.token_hash is not None]
        if host is None and any(s.kind == HUMAN for s in loaded.seats):
            return [], free
        if seat != host or host is None:
            raise errors.NotHost(f"only the host (seat {host}) gets the invite links of "
                                 f"table {loaded.table_id}")
        mine = loaded.seats[host]
        root = secret
        if mine.token_hash is None or not hmac.compare_digest(mine.token_hash,
                                                              hash_token(secret)):
            root = invite_token(secret, loaded.table_id, host)  # asked with the player key
        out, lost = [], []
        for s in free:
            token = invite_token(root, loaded.table_id, s.seat)
            if s.token_hash is not None and hmac.compare_digest(s.token_hash,
                                                                hash_token(token)):
                out.append((s, token))
            else:
                lost.append(s)
        return out, lost

    def set_listed(self, table_id: str, seat: int, secret: str, listed: bool) -> Loaded:
        """The host (``seat``, asking with ``secret``: their seat token or player key) lists
        the table in the lobby or takes it out; authorized again in the transaction that
        changes it."""
        self._check_listing(self.load(table_id), seat, listed)
        if not self.storage.set_listed(table_id, seat, hash_token(secret), listed):
            # Changed meanwhile (the game ended, the seat changed hands): say what holds now.
            self._check_listing(self.load(table_id), seat, listed)
            raise errors.Forbidden(f"that token no longer opens the host's seat at table "
                                   f"{table_id}")
        return self.load(table_id)

    @staticmethod
    def _check_listing(loaded: Loaded, seat: int, listed: bool) -> None:
        m = loaded.meta
        if m.host_seat is None or seat != m.host_seat:
            raise errors.NotHost(f"only the host (seat {m.host_seat}) lists table "
                                 f"{loaded.table_id} or takes it out of the lobby")
        if m.status != PLAYING:
            raise errors.GameOver(f"table {loaded.table_id} is {m.status}: only an open table "
                                  "is listed in the lobby")
        if listed and m.seed_chosen:
            raise errors.Unprocessable(
                "this table's seed was chosen by its creator, so it is not listed: a "
                "stranger who sat down would play a game whose every hand you know. "
                "Invite a friend with their link, or make a table with a drawn seed")

    # -- undo by agreement -----------------------------------------------------------------
    def _must_accept(self, loaded: Loaded, seat: int) -> list[int]:
        """The people who must accept ``seat``'s take-back: every other person's seat that
        a person plays (bots accept; so does a bot playing for an absent person)."""
        return [s.seat for s in loaded.seats if s.seat != seat and s.kind == HUMAN
                and s.bot_playing is None]

    def _check_holder(self, loaded: Loaded, seat: int, token: str | None) -> None:
        """403 unless ``token`` (None: a trusted caller, not checked) opens ``seat`` of
        ``loaded``. Where the write that follows is guarded by ``loaded``'s seat revision
        (a take-back: :meth:`Storage.set_undo`, :meth:`Storage.take_back`), this holds at
        write time: every change of who holds a seat moves the revision on, so a token
        revoked after this load makes the write miss (409, nothing stored)."""
        if token is not None and not opens_seat(loaded.seats[seat], hash_token(token)):
            raise wrong_token(loaded.table_id)

    def ask_undo(self, table_id: str, seat: int, token: str | None = None) -> Loaded:
        """``seat`` asks to take back its last move (and everything after it). With nobody
        else to ask (bots only) it is taken back at once. ``token``: the asker's seat token
        or player key (None: a trusted caller), checked against the very load whose seat
        revision guards the write (:meth:`_check_holder`)."""
        loaded = self.load(table_id)
        self._check_holder(loaded, seat, token)
        m = loaded.meta
        if m.status != PLAYING:
            raise errors.GameOver(f"table {table_id} is {m.status}: nothing to take back")
        if m.rated:
            raise errors.Conflict(f"table {table_id} is rated: moves are not taken back",
                                  version=m.version)
        if not m.started:
            raise errors.Waiting(waiting_line(loaded), version=m.version)
        check_room_for_event(loaded, self.limits.max_table_events, "no more take-backs")
        if m.pending_undo is not None:
            raise errors.Conflict(f"{loaded.seats[m.pending_undo['seat']].shown_name} asked "
                                  "for a take-back already; answer it first",
                                  version=m.version)
        request = undo_request(loaded, seat)
        if request is None:
            raise errors.Conflict("you have no move to take back", version=m.version)
        back = self._back_to(loaded, request)  # 409 when a step since showed what it hides
        if not self._must_accept(loaded, seat):
            return self._take_back(loaded, request, back)
        if not self.storage.set_undo(table_id, m.version, m.seat_rev, request):
            raise errors.Conflict(f"table {table_id} changed meanwhile; look again",
                                  version=self.load(table_id).version)
        return self.load(table_id)

    def answer_undo(self, table_id: str, seat: int, accept: bool,
                    token: str | None = None) -> Loaded:
        """Another person accepts or declines the take-back asked for (the one who asked
        may withdraw it). When every person asked has accepted, the moves are taken back.
        ``token``: as for :meth:`ask_undo` (checked against the load guarding the write)."""
        loaded = self.load(table_id)
        self._check_holder(loaded, seat, token)
        m = loaded.meta
        request = m.pending_undo
        if request is None:
            raise errors.Conflict("no take-back is asked for now", version=m.version)
        if seat == request["seat"]:
            if accept:
                raise errors.Conflict("you asked for it: the others answer", version=m.version)
            request = None  # withdrawn
        elif seat not in self._must_accept(loaded, request["seat"]):
            raise errors.Conflict("a bot plays your seat: it accepts", version=m.version)
        elif not accept:
            request = None
        else:
            request = {**request, "accepted": sorted({*request["accepted"], seat})}
            if set(self._must_accept(loaded, request["seat"])) <= set(request["accepted"]):
                # Checked again: who must accept may have changed (a seat taken over).
                return self._take_back(loaded, request, self._back_to(loaded, request))
        if not self.storage.set_undo(table_id, m.version, m.seat_rev, request):
            raise errors.Conflict(f"table {table_id} changed meanwhile; look again",
                                  version=self.load(table_id).version)
        return self.load(table_id)

    def _back_to(self, loaded: Loaded, request: dict[str, Any]) -> State:
        """The position ``request`` goes back to; 409 with :meth:`unseen`'s line when a
        step since showed a person at the table what that position hides."""
        start = state_at(loaded, request["to"],
                         self.snapshot_at_most(loaded.table_id, request["to"]))
        why = self.unseen(loaded, request, start)
        if why is not None:
            raise errors.Conflict(why, version=loaded.version)
        return start

    def take_back(self, loaded: Loaded, seat: int | None,
                  kept: dict[Any, tuple[Any, ...]] | None = None) -> dict[str, Any] | None:
        """For ``seat``'s view: whether its person's last move could be taken back now,
        ``{"possible": bool, "why": the refusal's line or None}``, as :meth:`ask_undo`
        would decide (None: nothing to take back, a bot's or a spectator's view, a rated
        or a waiting table).

        Made for views, on the server's event loop: the position gone back to is replayed
        from the deal (no storage read) once while the person does not move again; then
        each step is looked at once, as it comes, from the position before it (kept in
        ``kept`` by the caller, without its history: a replayed state's history holds a
        few hundred kilobytes), with :data:`VIEW_WORLDS` worlds and for the asker only
        (asking checks everyone, with every world); a refusal once found stands until the
        person moves again (or the seats change): a step that showed something still
        shows it after more steps."""
        m = loaded.meta
        if (seat is None or m.status != PLAYING or m.rated or not m.started
                or loaded.seats[seat].kind != HUMAN):
            return None
        request = undo_request(loaded, seat)
        if request is None:
            return None
        kept = {} if kept is None else kept
        to = request["to"]
        key = (loaded.table_id, m.undos, seat, to, tuple(self._must_accept(loaded, seat)))
        found = kept.get(key)
        if found is not None and not found[0]:
            return {"possible": False, "why": found[1]}
        # Only the steps since the last look: the earlier ones showed nothing.
        since = to if found is None else found[2]
        if found is not None and since == m.version:
            return {"possible": True, "why": None}
        # Positions kept without their history (that is the table's): the one looked from
        # last time, or the table's at that version (kept as it went by), or replayed.
        at = kept.pop((loaded.table_id, m.undos, "at", since), None)  # only its mover's
        held = found[1] if found is not None else None if at is None else at[0]
        if held is None:
            start = state_at(loaded, since, None)
        else:
            start = held.clone()
            start.history = list(loaded.state.history[:since])
        why = self.unseen(loaded, request, start, since=since, worlds=VIEW_WORLDS,
                          asker_only=True)
        position = loaded.state.clone()
        position.history = []
        kept[(loaded.table_id, m.undos, "at", m.version)] = (position,)
        kept.pop(key, None)  # to the back of the line: the caller drops the oldest first
        kept[key] = (True, position, m.version) if why is None else (False, why, m.version)
        return {"possible": why is None, "why": why}

    def unseen(self, loaded: Loaded, request: dict[str, Any], start: State, *,
               since: int | None = None, worlds: int = REVEAL_WORLDS,
               asker_only: bool = False) -> str | None:
        """Why ``request`` cannot go back to ``start`` (its position), in the 409's words;
        None when it can. Refused when a step since showed a person at the table what that
        position hides (:func:`~bigtop.core.reveal.first_reveal`): replayed from the seed,
        the same roll, turned card or landing would come again, and an opponent's cards
        shown from their hand go back into it, known.

        Checked for the asker and for every person who must accept. What the asker's own
        moves showed the others is waived for them: the asker gives it away by asking (a
        misclicked Show between friends). Anything else a person saw counts even though
        they could decline: the bots and absent people who accept without asking play on
        against what they know.

        ``since``: ``start`` is the position after that many moves (default: the one gone
        back to), the steps before it known to show nothing; ``worlds`` per person and
        step (:func:`~bigtop.core.reveal.first_reveal`); ``asker_only``: what the asker saw
        only (a view's hint: what a step shows, it shows the table, bar a card seen by
        one person alone; asking checks everyone)."""
        asker = request["seat"]
        to = request["to"] if since is None else since
        others = [] if asker_only else self._must_accept(loaded, asker)
        moves = {e.version - 1 - to: e for e in loaded.log
                 if e.kind == "move" and e.version > to}
        own = [j for j, e in moves.items() if e.seat == asker]
        found = first_reveal(start, loaded.state.history[to:], [asker, *others],
                             waived={q: own for q in others}, worlds=worlds)
        if found is None:
            return None
        entry = moves.get(found.step)
        line = f"“{entry.text}”" if entry is not None else f"move {to + found.step + 1}"
        whom, they = (("you", "you") if found.seat == asker
                      else (loaded.seats[found.seat].shown_name, "they"))
        if found.chance:
            why = f"{line} after your move came from the table's seed and would come again"
        elif entry is not None and entry.seat == asker:
            why = f"your move ({line}) showed {whom} what {they} could not know before"
        else:
            mover = (f"{loaded.seats[entry.seat].shown_name}'s move" if entry is not None
                     and 0 <= entry.seat < len(loaded.seats) else "a move")
            why = f"{mover} after yours ({line}) showed {whom} what {they} could not know before"
        return f"{why}; a take-back cannot unsee it"

    def _take_back(self, loaded: Loaded, request: dict[str, Any], state: State) -> Loaded:
        """Go back to ``state``, the position :meth:`_back_to` gave for ``request``."""
        # Counted again in the load whose seat revision guards the write (every event
        # moves it on): events logged since the ask are counted.
        check_room_for_event(loaded, self.limits.max_table_events, "no more take-backs")
        table_id = loaded.table_id
        to = request["to"]
        p = state.current_player()
        who = loaded.seats[request["seat"]]
        line = (f"P{who.seat} took back their move" + (" (everyone agreed)" if request[
            "accepted"] else ""))
        now = _now()
        # The clock restarts for the seat now to move (the undone turn's deadline goes); the
        # game clocks keep what was spent.
        clock = None if loaded.meta.clock is None else ClockUpdate(
            *turn_clock(loaded.meta, PLAYING, loaded.seats, state, now))
        if not self.storage.take_back(
                table_id, loaded.version, loaded.meta.seat_rev, to, seat=who.seat, text=line,
                now=now, bot_waiting=p >= 0 and loaded.seats[p].bot_level is not None,
                clock=clock):
            raise errors.Conflict(f"table {table_id} changed meanwhile; look again",
                                  version=self.load(table_id).version)
        with self._lock:
            self._cache.pop(table_id, None)
        return self.load(table_id)

    def arrive(self, table_id: str, seat: int) -> Loaded | None:
        """Mark the person of ``seat`` here (stored and announced when it changes)."""
        if not self.storage.set_here(table_id, seat, _now()):
            return None
        return self.load(table_id)

    def seat_event(self, table_id: str, seat: int, kind: str, line: str,
                   bot_playing: str | None, *, only_if: str | None,
                   secret_hash: str | None = None) -> Loaded | None:
        """Set who plays a person's seat and log it publicly. ``only_if`` guards the change
        (``"absent"``: no bot yet; ``"taken"``: a bot plays it) so two workers do it once.
        ``secret_hash``: the seat must still open to that secret, checked in the
        transaction that changes it (403 if not)."""
        with refused_as_wrong_token(table_id):
            if not self.storage.set_bot_playing(table_id, seat, bot_playing, only_if=only_if,
                                                kind=kind, text=line, now=_now(),
                                                secret_hash=secret_hash):
                return None
        return self.sync_clock(self.load(table_id))

    # -- clocks ---------------------------------------------------------------------------
    def sync_clock(self, loaded: Loaded) -> Loaded:
        """Start or stop the table's clock where who plays changed without a move (the last
        person arrived; a bot took a seat or gave it back): a clock stopped mid-turn charges
        the time used to the seat's game clock. Guarded by the table's version and seats: a
        table that changed meanwhile is left to whoever changed it (a move sets the clock
        itself; a seat change comes here again)."""
        m = loaded.meta
        if m.clock is None:
            return loaded
        now = _now()
        started, deadline = turn_clock(m, m.status, loaded.seats, loaded.state, now)
        if (started is None) == (m.turn_started is None):
            return loaded
        seat = left = None
        if m.turn_started is not None:  # stopped: the turn's time so far is spent
            seat = loaded.state.current_player()
            have = loaded.seats[seat].clock_left
            left = None if have is None else max(0.0, have - (now - m.turn_started))
        if self.storage.set_clock(m.id, m.version, m.seat_rev,
                                  ClockUpdate(started, deadline, seat, left)):
            return self.load(m.id)
        return loaded

    def time_out(self, table_id: str) -> bool:
        """Act on the table's clock if it ran out (the sweep calls this for tables found
        due): the takeover bot plays the seat, or the seat loses and the game ends there
        (``on_timeout``). Done once, whichever worker comes first (guarded by the table's
        version and seats); False when nothing was due."""
        loaded = self.load(table_id)
        m = loaded.meta
        now = _now()
        if m.status != PLAYING or m.clock_deadline is None or m.clock_deadline > now:
            return False
        seat = loaded.state.current_player()
        if seat < 0 or loaded.seats[seat].bot_level is not None:
            return self.sync_clock(loaded) is not loaded  # a stale clock: stopped
        if m.on_timeout == LOSES:
            result = time_out_result(loaded.state.scores(), seat)
            done = self.storage.time_out(
                table_id, m.version, m.seat_rev, seat, now=now, level=None, result=result,
                text=f"P{seat} ran out of time and loses: the game ends",
                rating=self._rating(loaded, result["ranking"]))
        else:
            level = m.takeover_level
            done = self.storage.time_out(
                table_id, m.version, m.seat_rev, seat, now=now, level=level, result=None,
                text=f"P{seat} ran out of time: {_a(level)} {level} bot plays for them "
                     "until they come back", rating=None)
        if done:
            self.load(table_id)
        return done

    def close_by_host(self, table_id: str) -> bool:
        """The server's host ends an open table now (``bigtop host close``): it expires,
        unplayed from here; every page is told. False: no such open table."""
        return self.storage.close_table(table_id, _now(),
                                        "The server's host closed this table")

    def resign(self, table_id: str, seat: int, token: str | None = None) -> Loaded:
        """The person of ``seat`` gives up: the game ends there, they place last and every
        other player shares first (as a game lost on time; rated tables rate it so, once
        every person has moved). Before the game starts, the host closes the table so
        instead (it expires, unplayed).
        ``token``: their seat token or player key (None: a trusted caller), checked against
        the load whose version and seat revision guard the write (:meth:`_check_holder`),
        so a token revoked or a move made since changes nothing (409)."""
        loaded = self.load(table_id)
        self._check_holder(loaded, seat, token)
        m = loaded.meta
        if m.status != PLAYING:
            raise errors.GameOver(f"table {table_id} is {m.status}: nothing to give up")
        if loaded.seats[seat].kind != HUMAN:
            raise errors.Conflict(f"seat {seat} is a bot's seat", version=m.version)
        if not m.started:
            if seat != m.host_seat:
                raise errors.NotHost(f"only the host (seat {m.host_seat}) closes table "
                                     f"{table_id} before it starts")
            result, rating = None, None
            # Seats by number: a name is free text, stored once (the seat's row).
            text = f"P{seat} closed the table before the game started"
        else:
            result = time_out_result(loaded.state.scores(), seat, "resigned")
            rating = self._rating(loaded, result["ranking"])
            text = f"P{seat} resigned and places last: the game ends"
            moved = {e.seat for e in loaded.log if e.kind == "move" and e.bot is None}
            if rating is not None and any(s.kind == HUMAN and s.seat not in moved
                                          for s in loaded.seats):
                # A rated game given up before every person has moved is not rated (as
                # an abort): else two identities of one person could trade wins at once.
                rating = None
                text += " (unrated: not everyone had moved)"
        if not self.storage.resign(table_id, m.version, m.seat_rev, seat, now=_now(),
                                   text=text, result=result, rating=rating):
            raise errors.Conflict(f"table {table_id} changed meanwhile; look again",
                                  version=self.load(table_id).version)
        return self.load(table_id)

    # -- ratings --------------------------------------------------------------------------
    @staticmethod
    def _rating(loaded: Loaded, ranking: Any) -> RatingUpdate | None:
        """What the end of the table's game with these places changes (None: unrated)."""
        if not loaded.meta.rated or any(s.kind == HUMAN and s.player_id is None
                                        for s in loaded.seats):
            return None
        return RatingUpdate(
            loaded.meta.game,
            tuple((s.player_id, None) if s.kind == HUMAN else (None, s.level)
                  for s in loaded.seats),
            tuple(int(r) for r in ranking))

    def reclaim(self, table_id: str, seat: int, token: str | None = None) -> Loaded:
        """The person of ``seat`` takes it back from the bot playing for them (not with a
        game clock that ran out: their time is spent, the bot plays on). ``token``: their
        seat token or player key (None: a trusted caller); the seat is given back only if
        it still opens it, checked in the transaction that gives it back (the storage's:
        that change is guarded by who plays the seat, not by the seat revision)."""
        loaded = self.load(table_id)
        left = loaded.seats[seat].clock_left
        if left is not None and left <= 0:
            raise errors.Conflict("your game clock ran out: the bot plays your seat "
                                  "to the end")
        if loaded.seats[seat].bot_playing is None:
            return loaded  # no bot to send away: nothing to write
        # A reclaim is the one event a person brings about again and again (each takeover
        # needs one first): the bound holds it.
        check_room_for_event(loaded, self.limits.max_table_events, "the bot plays on")
        back = self.seat_event(table_id, seat, "reclaim", f"P{seat} is back and plays again",
                               None, only_if="taken",
                               secret_hash=None if token is None else hash_token(token))
        return back if back is not None else self.load(table_id)

    def sweep(self) -> list[str]:
        """Bots take over absent seats whose table allows it; idle tables and tables nobody
        joined expire; ended tables past their retention are deleted; full rate-limit
        buckets and identities nobody used are forgotten. Returns the ids of tables that
        changed."""
        now = _now()
        batch = self.settings.sweep_batch
        timed_out = [t for t in self.storage.clocks_due(now, batch) if self.time_out(t)]
        absent = self.storage.absent_seats(now, batch)
        changed = timed_out + self.storage.expire_idle(
            now - self.limits.idle_table_seconds, self._bucket_seconds, batch)
        changed += self.storage.expire_unjoined(now - self.limits.unjoined_table_seconds,
                                                batch)
        changed += self.storage.mark_gone(now - self.settings.presence_seconds, batch)
        self.storage.forget_full_buckets(now, batch)  # rate limits: only buckets in use stay
        forgotten = self.storage.forget_unused_players(
            now - self.limits.unused_player_seconds, batch)
        if forgotten:
            log.info("deleted %d identities nobody used", forgotten)
        gone = self.storage.delete_ended(now - self.limits.finished_table_seconds, batch)
        if gone:
            with self._lock:
                for table_id in gone:
                    self._cache.pop(table_id, None)
            log.info("deleted %d ended tables past their retention", len(gone))
            # Expired and deleted in one sweep (after a long downtime): nothing to announce.
            changed = [t for t in changed if t not in gone]
        for table_id, level, seat in absent:
            if self.seat_event(table_id, seat, "takeover",
                               f"P{seat} is away: {_a(level)} {level} bot plays for them "
                               "until they come back", level, only_if="absent") is not None:
                changed.append(table_id)
        return changed

    def tables_waiting_for_bots(self) -> list[str]:
        """Open tables where a bot has been to move for ``Settings.bot_stuck_seconds`` (a
        restart, a worker that died, a bot that failed), or whose seats changed since (a
        bot took or gave back a seat, a person arrived where that may start the game or a
        clock): only those are read (an index finds them), at most ``Settings.sweep_batch``
        of them. A table whose last person arrived but that has not started is started
        here, and a clock that should run but does not is started (the worker that stored
        the arrival died before it did)."""
        out = []
        for table_id in self.storage.bots_waiting(_now() - self.settings.bot_stuck_seconds,
                                                  self.settings.sweep_batch):
            loaded = self.load(table_id)
            # What a person's arrival starts (the game, once every seat is taken; a
            # clock), should the worker that stored the arrival have died before doing it.
            if (not loaded.meta.started and loaded.meta.status == PLAYING
                    and not loaded.waiting_for):
                loaded = self.try_start(table_id) or self.load(table_id)
            loaded = self.sync_clock(loaded)
            if loaded.bot_turn() is None:
                self.storage.not_waiting(table_id, loaded.version, loaded.meta.seat_rev)
            else:
                out.append(table_id)
        return out

    # -- playing --------------------------------------------------------------------------
    def play(self, table_id: str, seat: int | None, version: int, choice: Mapping[str, Any],
             bot: str | None = None, loaded: Loaded | None = None, *,
             token: str | None = None) -> Loaded:
        """Apply one action of ``seat`` to the table at ``version`` and store it (with the
        chance outcomes that follow) before returning. ``choice`` is ``{"action": JSON}``,
        ``{"index": i}`` (in the legal-action list) or ``{"id": n}`` (integer encoding).
        ``bot`` names the bot level moving for the seat (None: the person). ``loaded`` is
        the table as the caller knows it (else this worker's memory, else the storage).
        ``token`` is the person's seat token (the web layer always passes it; None: the
        seat's holder as ``loaded`` has it, for trusted callers): the move is stored only
        if that token still opens the seat, checked in the transaction that stores it.
        The storage is not read first: the transaction that stores the move decides (see
        the module's doc). A position in memory that is behind the client's version is
        brought up to date first."""
        token_hash = None if token is None else hash_token(token)
        fresh = False
        if loaded is None:
            loaded = self.cached(table_id)
        if loaded is None or version > loaded.version:  # moves this worker has not heard of
            loaded, fresh = self.load(table_id), True
        for _ in range(3):  # the table changed under us only so often (seats, expiry)
            try:
                done = self._play(loaded, seat, version, choice, bot, token_hash)
            except errors.Problem:
                if fresh:
                    raise
                done = None  # memory may be behind the storage: ask it before refusing
            if done is not None:
                return done
            loaded, fresh = self.load(table_id), True
        raise errors.Conflict(f"table {table_id} keeps changing; try again",
                              version=loaded.version)

    def _play(self, loaded: Loaded, seat: int | None, version: int, choice: Mapping[str, Any],
              bot: str | None, token_hash: str | None = None) -> Loaded | None:
        """:meth:`play` on ``loaded``; None when the table's row no longer matches it."""
        table_id = loaded.table_id
        if seat is None:
            raise errors.Unauthorized("moving needs a seat token; spectators only watch")
        if not 0 <= seat < len(loaded.seats):
            raise errors.Unprocessable(f"seat must be 0..{len(loaded.seats) - 1}")
        if bot is None and token_hash is not None and not opens_seat(loaded.seats[seat],
                                                                     token_hash):
            raise wrong_token(table_id)
        if loaded.meta.status == EXPIRED:
            if loaded.version >= self.limits.max_table_moves:
                raise errors.Gone(f"table {table_id} reached {self.limits.max_table_moves:,} "
                                  "moves, the server's limit for one game; it stopped there")
            raise errors.Gone(f"table {table_id} expired after being idle")
        if not loaded.meta.started:
            raise errors.Waiting(waiting_line(loaded) + ": the game starts when they arrive "
                                 "(or the host starts it with bots in their seats)",
                                 version=loaded.version)
        state = loaded.state
        if loaded.meta.status == FINISHED or state.is_terminal():
            raise errors.GameOver("the game is over; no more moves")
        if version != loaded.version:
            raise errors.StaleVersion(loaded.version, version)
        if state.current_player() != seat:
            raise errors.NotYourTurn(
                f"it is P{state.current_player()}'s turn, not P{seat}'s", version=loaded.version)
        deadline = loaded.meta.clock_deadline
        if bot is None and deadline is not None and _now() > deadline:
            # The row the move's transaction guards has this deadline (it changes only with
            # the version or the seats), so the check holds there too.
            raise errors.TimeRanOut("your time ran out; the server acts on it shortly",
                                  version=loaded.version)
        playing = loaded.seats[seat].bot_level
        if bot is None and playing is not None:
            raise errors.Conflict(
                f"a {playing} bot plays seat {seat}; reclaim the seat first",
                version=loaded.version)
        if bot is not None and playing != bot:
            raise errors.Conflict(f"no {bot} bot plays seat {seat} now",
                                  version=loaded.version)
        work = state.clone()
        action = self._choose(work, choice)
        try:
            line = work.describe(action)  # public: what every seat may know of the move
            work.apply(action)
        except BigtopError as e:
            raise errors.IllegalMove(str(e), version=loaded.version) from None
        # ``state`` (the table's, never changed) is the position before the move.
        rows = [(seat, action.to_json(), log_line(line, state, work)), *_advance_chance(work)]
        return self.store(loaded, work, rows, bot, token_hash)

    @staticmethod
    def _choose(state: State, choice: Mapping[str, Any]) -> Any:
        keys = [k for k in ("action", "index", "id") if k in choice]
        if len(keys) != 1:
            raise errors.Unprocessable("give exactly one of 'action', 'index' or 'id'")
        key = keys[0]
        value = choice[key]
        try:
            if key == "action":
                return state.game.action_from_json(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise errors.Unprocessable(f"{key!r} must be a whole number")
            if key == "index":
                legal = state.legal_actions()
                if not 0 <= value < len(legal):
                    raise errors.IllegalMove(
                        f"index {value} is not a legal action now (0..{len(legal) - 1})")
                return legal[value]
            return state.game.action_from_int(value)
        except errors.Problem:
            raise
        except (BigtopError, IndexError, KeyError, TypeError) as e:
            raise errors.IllegalMove(str(e) or f"{value!r} is not an action") from None

    def store(self, loaded: Loaded, work: State, rows: list[tuple[int, Any, str]],
              bot: str | None, token_hash: str | None = None) -> Loaded | None:
        """Store the move rows and the table's new version in one transaction, guarded by
        what ``loaded`` was checked against (its version, seats and status); None (nothing
        stored) when that guard misses; 409 when the turn was taken meanwhile.
        ``token_hash``: the hash of the secret the person moved with (their seat token or
        their player key; None: the seat's token as ``loaded`` has it)."""
        table_id = loaded.table_id
        start = loaded.version
        now = _now()
        terminal = work.is_terminal()
        end = start + len(rows)
        # A game that reaches the length bound stops there (every bot, the export and
        # `bigtop replay` handle a log of that length).
        status = FINISHED if terminal else (
            EXPIRED if end >= self.limits.max_table_moves else PLAYING)
        every = self.settings.snapshot_every
        snapshot = work.to_json(with_history=False) if end // every > start // every else None
        to_move = work.current_player()
        bot_next = status == PLAYING and to_move >= 0 and (
            loaded.seats[to_move].bot_level is not None)
        # Left as it is between people's moves (the hot path); a bot's turn set or cleared.
        bot_waiting = None if bot is None and not bot_next else bot_next
        bucket = self._idle_bucket(now)
        records = [MoveRecord(start + i, p, a, line, bot if i == 0 else None)
                   for i, (p, a, line) in enumerate(rows)]
        seat = rows[0][0]
        # Who may move the seat, checked again in the transaction that stores the move: a
        # bot of that level, or the holder of the token (or the player key of the identity
        # sitting there) the move was checked against.
        guard = Guard(start, loaded.meta.seat_rev, seat, bot=bot) if bot is not None else (
            Guard(start, loaded.meta.seat_rev, seat,
                  token_hash=token_hash or loaded.seats[seat].token_hash))
        result = work.result() if terminal else None
        m = loaded.meta
        seats_after = loaded.seats
        clock = None
        if m.clock is not None:
            # The mover's game clock is charged the turn's time (and given the increment);
            # the next person's turn starts now.
            charged = left = None
            if bot is None and m.turn_started is not None:
                left = Clock.from_json(m.clock).left_after(seats_after[seat].clock_left,
                                                           now - m.turn_started)
                if left is not None:
                    charged = seat
                    seats_after = tuple(replace(s, clock_left=left) if s.seat == seat else s
                                        for s in seats_after)
            started, deadline = turn_clock(m, status, seats_after, work, now)
            clock = ClockUpdate(started, deadline, charged, left)
        try:
            stored = self.storage.append_moves(
                table_id, guard, records, status=status, result=result, now=now,
                bot_waiting=bot_waiting, snapshot=snapshot,
                idle_bucket=None if bucket == self._idle_bucket(loaded.meta.updated_at)
                else bucket, clock=clock,
                rating=None if result is None else self._rating(loaded, result["ranking"]))
        except TurnTaken:
            # Another request stored a move for this version first.
            raise errors.StaleVersion(self.load(table_id).version, start) from None
        if not stored:
            return None
        log = list(loaded.log)
        log.extend(LogEntry(f"m{r.idx}", "move", r.idx + 1, r.seat, r.text, r.by_bot)
                   for r in records)
        meta = replace(loaded.meta, version=start + len(rows), updated_at=now, status=status)
        if clock is not None:
            meta = replace(meta, turn_started=clock.turn_started,
                           clock_deadline=clock.deadline)
        done = Loaded(meta, seats_after, work, tuple(log), loaded.last_event)
        # Kept in this worker's memory, where views are made from, only once committed: in
        # a group of moves (group commit, Storage.group) at the group's commit.
        if self.storage.after_commit(functools.partial(self._remember, done)):
            return done
        return self._remember(done)

    # -- chat -------------------------------------------------------------------------------
    def post_chat(self, table_id: str, seat: int, raw: str,
                  token: str | None = None) -> ChatRecord:
        """Store what ``seat`` wrote: plain text, trimmed, bounded (else 422); 409 when the
        table's chat is full. ``token``: the writer's seat token or player key (None: a
        trusted caller); stored only if it still opens ``seat``, checked in the
        transaction that stores it (403, nothing stored, if not)."""
        try:
            text = plain_text(raw, "text", self.limits.max_chat_chars)
        except ValueError as e:
            raise errors.Unprocessable(str(e)) from None
        with refused_as_wrong_token(table_id):
            stored = self.storage.add_chat(
                table_id, seat, text, _now(), self.limits.max_chat_messages,
                secret_hash=None if token is None else hash_token(token))
        if stored is None:
            raise errors.Conflict(
                f"table {table_id} holds {self.limits.max_chat_messages} chat messages, "
                "its limit")
        return stored

    def chat(self, table_id: str, after: int) -> list[ChatRecord]:
        """The chat messages after id ``after``, oldest first (``max_chat_page`` at most)."""
        return self.storage.chat_after(table_id, after, self.limits.max_chat_page)

    # -- players --------------------------------------------------------------------------
    def name_of(self, raw: str) -> str:
        """A player name as stored: plain text, trimmed, bounded (else 422)."""
        try:
            return plain_text(raw, "name", self.limits.max_name_chars)
        except ValueError as e:
            raise errors.Unprocessable(str(e)) from None

    def new_player(self, name: str) -> tuple[Player, str]:
        """A new identity and its key (128 random bits; shown once, stored hashed)."""
        player = Player(new_id(12), self.name_of(name), _now())
        key = new_token()
        self.storage.create_player(player, hash_token(key))
        return player, key

    def player(self, key: str | None) -> Player:
        """The identity of a player key (401: none sent, or no such key)."""
        if not key:
            raise errors.NoPlayerKey("send your player key: 'Authorization: Bearer KEY'")
        digest = hash_token(key)
        found = self.storage.player_by_key(digest)
        if found is None:
            # Only a key not found pays for this look; the host's note stays the host's.
            if self.storage.blocked_note(digest) is not None:
                raise errors.Blocked("this identity is blocked by the server's host")
            raise errors.NoPlayerKey("that player key is not known here")
        return found

    def rename(self, player: Player, name: str) -> tuple[Player, list[str]]:
        """Rename an identity; also the ids of the open tables that now show the new name."""
        renamed = replace(player, name=self.name_of(name))
        return renamed, self.storage.rename_player(player.id, renamed.name)

    def player_tables(self, player: Player) -> list[tuple[Loaded, int]]:
        """The tables where the identity sits and its seat there, the last changed first
        (at most ``max_my_tables``)."""
        out = []
        for table_id, seat in self.storage.player_seats(player.id, self.limits.max_my_tables):
            with contextlib.suppress(errors.NotFound):  # deleted meanwhile
                out.append((self.load(table_id), seat))
        return out

    # -- records --------------------------------------------------------------------------
    def snapshot_at_most(self, table_id: str, at: int) -> tuple[int, Any] | None:
        """The latest stored position at or before move ``at`` (for :func:`state_at`)."""
        return self.storage.snapshot_at_most(table_id, at)

    def move_rows(self, table_id: str) -> list[dict[str, Any]]:
        """The stored log of a table, oldest first (seat, action JSON, describe line)."""
        return [dataclasses.asdict(r) for r in self.storage.move_records(table_id)]

    def lobby(self) -> list[Loaded]:
        """Listed open tables with a free person's seat, newest first (at most
        ``lobby_tables_per_client`` of one creating address)."""
        lim = self.limits
        return [self.load(i) for i in self.storage.lobby_ids(lim.max_lobby_tables,
                                                              lim.lobby_tables_per_client)]
