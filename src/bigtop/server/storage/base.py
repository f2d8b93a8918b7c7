"""The storage interface the table master works through, and what it hands back."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from bigtop.server.model import ChatRecord, EventRecord, Meta, MoveRecord, Player, Seat
from bigtop.server.ratings import RatingUpdate


class TurnTaken(Exception):
    """A move for a log index already stored (the ``(table, idx)`` key refused it)."""


class SeatRefused(Exception):
    """The secret a person acted with no longer opens their seat (its token, or the player
    key of the identity sitting there), as the transaction that would have stored the
    change found it: nothing stored. The web layer answers it as a wrong token (403)."""


class Full(Exception):
    """Creating a table was refused: ``open_tables`` are open, the limit (of the server, or
    of its creator's address when ``creator`` is set)."""

    def __init__(self, open_tables: int, creator: str | None = None) -> None:
        super().__init__(open_tables)
        self.open_tables = open_tables
        self.creator = creator


@dataclass(frozen=True)
class Known:
    """What a worker already holds of a table: a read returns only what is newer."""

    version: int
    seat_rev: int
    status: str
    last_event: int


@dataclass(frozen=True)
class Stored:
    """A table as read: its row; its seats (None: unchanged since ``Known.seat_rev``); the
    events after ``Known.last_event`` and the moves from the index asked for. ``unchanged``:
    the row is exactly as known (nothing else was read)."""

    meta: Meta
    seats: tuple[Seat, ...] | None
    events: tuple[EventRecord, ...]
    moves: tuple[MoveRecord, ...]
    unchanged: bool = False
    snapshot: tuple[int, Any] | None = None
    """The latest snapshot (move index, position) when the whole table was read."""


@dataclass(frozen=True)
class Guard:
    """What a move was checked against: stored only if the table's row still has this
    version, seat revision and status ``playing``, and ``seat`` is still played by the
    mover: the person holding the token whose hash is ``token_hash``, or the identity
    sitting there whose player key has that hash (no bot playing for them), or the bot of
    level ``bot``. Checked in the transaction that stores the move,
    so a token revoked through any worker fails at once on every other."""

    version: int
    seat_rev: int
    seat: int
    token_hash: str | None = None
    bot: str | None = None


@dataclass(frozen=True)
class ClockUpdate:
    """A table's running clock from now on (``turn_started`` and ``deadline`` None: none
    runs), and the game clock of ``seat`` (None: no seat's changes) set to ``left``."""

    turn_started: float | None
    deadline: float | None
    seat: int | None = None
    left: float | None = None


@dataclass(frozen=True)
class RatingRow:
    """One identity's rating in one game."""

    player_id: str
    name: str
    game: str
    mu: float
    sigma: float
    games: int


class Storage(Protocol):
    """Tables kept somewhere. Every method is one transaction (thread-safe); none decides
    a rule of the game or the table: it stores what the master decided, and refuses what
    its keys and guards refuse."""

    dialect: str
    """``"sqlite"`` (one writer: a worker does its database work on one thread) or
    ``"postgresql"`` (several workers, told of each other's changes by :meth:`listen`)."""

    def create_table(self, meta: Meta, seats: Sequence[Seat], opening: Sequence[MoveRecord],
                     *, result: Any, bot_waiting: bool, idle_bucket: int,
                     max_open: int, max_open_per_creator: int,
                     rematch_of: str | None = None,
                     asker: tuple[int, str] | None = None) -> bool:
        """Store a new table, its seats and its opening chance outcomes (``result``: of a
        game over before anyone moved); :class:`Full` when ``max_open`` tables are open
        already, or ``max_open_per_creator`` created by ``meta.creator`` (a client
        address; "" is not counted) (nothing stored). ``rematch_of``: the table it is the
        rematch of, linked in the same transaction (False, nothing stored: that table has
        its rematch already). ``asker``: (seat, hash of the secret) of the person at
        ``rematch_of`` who asked for it, checked in that transaction (:class:`SeatRefused`,
        nothing stored, if it no longer opens that seat)."""

    def read(self, table_id: str, known: Known | None, from_move: int) -> Stored | None:
        """The table (None: no such table) as now stored, beyond what is ``known`` (with
        its latest snapshot when nothing is known and every move is asked for)."""

    def snapshot_at_most(self, table_id: str, idx: int) -> tuple[int, Any] | None:
        """The latest snapshot (move index, position JSON) at or before move ``idx``."""

    def append_moves(self, table_id: str, guard: Guard, moves: Sequence[MoveRecord], *,
                     status: str, result: Any, now: float, bot_waiting: bool | None = None,
                     idle_bucket: int | None = None, snapshot: Any = None,
                     clock: ClockUpdate | None = None,
                     rating: RatingUpdate | None = None) -> bool:
        """Store the moves (a player's and the chance outcomes after it) and the table's
        new version, only if ``guard`` holds (False: nothing stored); :class:`TurnTaken`
        when the first index is stored already. ``bot_waiting``: whether a bot is to move
        next (None: unchanged); ``idle_bucket``: the table's new ``updated_at`` bucket
        (None: unchanged); ``snapshot``: the position after these moves, kept for replays
        and rebuilds; ``clock``: the table's clock after them (None: a table without);
        ``rating``: the ratings a rated game's end changes, in this transaction."""

    def group(self) -> AbstractContextManager[Any]:
        """A block whose moves (this thread's :meth:`append_moves`) may be stored in one
        transaction, committed when it ends or when this thread needs another write first
        (group commit; SQLite). It raises if that commit failed."""

    def after_commit(self, fn: Callable[[], Any]) -> bool:
        """Run ``fn`` once the move this thread just stored is committed: True if it waits
        for a group's commit, False (``fn`` not run) if that move is committed already."""

    def claim(self, table_id: str, seat: int, token_hash: str, now: float) -> bool | None:
        """Mark a person's seat seen now and claimed, if ``token_hash`` still opens it: True
        if it was not claimed before, or its person was marked away (the table's seat
        revision moves on, and, where the
        arrival may start something, the game or a clock, the table is due for
        :meth:`bots_waiting` from ``now``: it is looked at again should the worker die
        before it does it; a started table without a clock, or whose clock runs, is not),
        False if it was, None: no such seat with that token. :meth:`take_free_seat` and
        :meth:`set_seat_player` mark the table due the same way."""

    def mark_present(self, present: Mapping[tuple[str, int], float]) -> None:
        """Store when these (table, seat) people were last seen."""

    def set_seat_token(self, table_id: str, seat: int, token_hash: str, *,
                       opened_by: tuple[str, int, str] | None = None,
                       invite: bool = False) -> bool:
        """Give a person's seat without a token this one (True also when it has this one
        already; False: it has another). ``opened_by``: (table, seat, hash of a secret) that
        must still open that seat, checked in the same transaction (:class:`SeatRefused`,
        nothing stored): a rematch's token goes only to who holds the old seat.
        ``invite``: the token is an invite still (derived from one the host can derive)."""

    def take_free_seat(self, table_id: str, seat: int, token_hash: str, now: float,
                       player_id: str | None = None) -> bool:
        """Give an unclaimed person's seat a new token, and the identity ``player_id``
        (False: it is not free, or that identity sits at the table already); the name it
        was invited by goes (the seat is no longer that person's)."""

    def set_seat_player(self, table_id: str, seat: int, token_hash: str, player_id: str,
                        now: float, *, new_token_hash: str | None = None) -> bool:
        """Record the identity ``player_id`` in the person's seat that ``token_hash`` opens
        (and claim it), if no identity sits there yet and ``player_id`` sits nowhere else
        at the table (False: nothing changed). ``new_token_hash``: the seat's token is an
        invite, ended here: only if it is one still, the seat's token becomes this one (no
        invite)."""

    def exchange_invite(self, table_id: str, seat: int, invite_hash: str, token_hash: str,
                        now: float) -> bool:
        """Exchange the invite token of a person's seat (its hash ``invite_hash``) for the
        token with ``token_hash``, no invite, and mark the seat claimed and its person here
        (the seat revision moves on; the table is due as :meth:`claim` says), only if the
        seat still has that token and it is still an invite: of two racing exchanges one
        wins. False: nothing changed."""

    def start_table(self, table_id: str, bots: Mapping[int, str],
                    opening: Sequence[MoveRecord], *, bot_waiting: bool, now: float,
                    idle_bucket: int, clock: ClockUpdate | None = None,
                    host: tuple[int, str] | None = None) -> bool:
        """Start a waiting table: bots of the given levels in those empty people's seats,
        then, if no person's seat is empty any more, the opening chance outcomes, the
        first turn's ``clock`` (None: a table without) and the table started (False,
        nothing stored: a seat is still empty, or it had started). ``host``: (seat, hash
        of the secret) of the host starting it, whose seat must still open to that secret
        in this transaction (else :class:`SeatRefused`); None: the last arrival starts it."""

    def set_listed(self, table_id: str, seat: int, secret_hash: str, listed: bool) -> bool:
        """List the table in the lobby or take it out, only if it is open, ``seat`` is its
        host's and the secret with ``secret_hash`` (a seat token or the player key of the
        identity sitting there) opens that seat, and, to list it, its creator did not
        choose the seed (the seats change: every worker hears of it). False: not changed."""

    def set_undo(self, table_id: str, version: int, seat_rev: int,
                 undo: dict[str, Any] | None) -> bool:
        """Store the take-back asked for (None: none), only if the table is still at this
        version and seat revision (False: nothing stored)."""

    def take_back(self, table_id: str, version: int, seat_rev: int, to: int, *, seat: int,
                  text: str, now: float, bot_waiting: bool,
                  clock: ClockUpdate | None = None) -> bool:
        """Cut the log back to ``to`` moves (the moves from it and the snapshots after it
        deleted, the event logged, the running ``clock`` set where given), only if the
        table is still at this version and seat revision (False: nothing changed)."""

    def set_here(self, table_id: str, seat: int, now: float) -> bool:
        """Mark a person present (True: they were not; the seats changed)."""

    def mark_gone(self, seen_before: float, limit: int) -> list[str]:
        """Mark people present but not seen since ``seen_before`` away (at most ``limit``);
        the tables that changed."""

    def set_bot_playing(self, table_id: str, seat: int, bot_playing: str | None, *,
                        only_if: str | None, kind: str, text: str, now: float,
                        secret_hash: str | None = None) -> bool:
        """Set who plays a person's seat and log the event; ``only_if`` guards it
        (``"absent"``: no bot plays it yet; ``"taken"``: one does). False: not changed.
        ``secret_hash``: the seat must still open to that secret in this transaction (its
        person reclaiming it; else :class:`SeatRefused`); None: not asked (the sweep)."""

    def set_clock(self, table_id: str, version: int, seat_rev: int,
                  clock: ClockUpdate) -> bool:
        """Set the table's running clock, if its row still has this version and seat
        revision (then the seat revision moves on, so every worker reads it). False: not."""

    def time_out(self, table_id: str, version: int, seat_rev: int, seat: int, *, now: float,
                 text: str, level: str | None, result: Any,
                 rating: RatingUpdate | None) -> bool:
        """Act on the running clock of ``seat`` that ran out (its game clock spent, its
        deadline cleared, a public ``timeout`` event), if the table's row still has this
        version and seat revision and its deadline has passed at ``now``: with ``level``, a
        bot of that level plays the seat from now on; else the game ends there with
        ``result`` (and ``rating`` changes). False: not changed (a move came first)."""

    def resign(self, table_id: str, version: int, seat_rev: int, seat: int, *, now: float,
               text: str, result: Any, rating: RatingUpdate | None) -> bool:
        """``seat`` gives up, if the open table's row still has this version and seat
        revision: the game ends with ``result`` (and ``rating`` changes); ``result`` None:
        the table closes unplayed (expires). A public ``resign`` event, the clock and any
        take-back asked for cleared. False: not changed (something came first)."""

    def clocks_due(self, now: float, limit: int) -> list[str]:
        """Up to ``limit`` open tables whose running clock ran out before ``now`` (an index
        finds them), the earliest first."""

    def leaderboard(self, game: str, limit: int) -> list[RatingRow]:
        """The best ``limit`` ratings of ``game`` (by μ − 3σ)."""

    def player_ratings(self, player_id: str) -> list[RatingRow]:
        """An identity's rating in every game it played rated, by game name."""

    def add_chat(self, table_id: str, seat: int, text: str, now: float,
                 max_count: int, secret_hash: str | None = None) -> ChatRecord | None:
        """Store a chat message of ``seat`` (None: the table holds ``max_count`` already;
        nothing stored). ``secret_hash``: the seat must still open to that secret in this
        transaction (else :class:`SeatRefused`); None: not asked (a trusted caller)."""

    def last_chat_id(self, table_id: str) -> int:
        """The id of the table's newest chat message (0: none)."""

    def chat_after(self, table_id: str, after: int, limit: int) -> list[ChatRecord]:
        """The table's chat messages after id ``after``, oldest first, at most ``limit``."""

    def take_token(self, bucket: str, now: float, rate: float, burst: int) -> float:
        """Take one token of the token bucket ``bucket`` (``burst`` tokens when full,
        ``rate`` more a second, as of the clock ``now``): 0.0, or (none taken) the seconds
        until one is there. One transaction that every worker's takes of the bucket queue
        on, so all workers together take at most what one would."""

    def forget_full_buckets(self, now: float, limit: int) -> int:
        """Delete up to ``limit`` token buckets that are full by ``now`` (a full bucket is
        the same as none; an index finds them); how many."""

    def create_player(self, player: Player, key_hash: str) -> None:
        """Store a new identity and the hash of its key."""

    def player_by_key(self, key_hash: str) -> Player | None:
        """The identity whose key has this hash (None: no such key)."""

    def rename_player(self, player_id: str, name: str) -> list[str]:
        """Rename an identity; the open tables where it sits (their seats changed)."""

    def player_seats(self, player_id: str, limit: int) -> list[tuple[str, int]]:
        """(table, seat) where the identity sits, the last changed table first."""

    def expire_unjoined(self, created_before: float, limit: int) -> list[str]:
        """Expire open tables created before ``created_before`` with a person's seat nobody
        has taken (at most ``limit``); their ids."""

    def delete_ended(self, before: float, limit: int) -> list[str]:
        """Delete finished and expired tables whose last change was before ``before``, with
        their seats, log, events, snapshots and chat (at most ``limit``); their ids."""

    def expire_idle(self, before: float, bucket_seconds: float, limit: int) -> list[str]:
        """Expire up to ``limit`` open tables with no move since ``before``, found by their
        ``idle_bucket`` (``updated_at // bucket_seconds``, indexed): a table expires at most
        one bucket late. Their ids."""

    def absent_seats(self, now: float, limit: int) -> list[tuple[str, str, int]]:
        """(table, takeover level, seat) of up to ``limit`` people away longer than their
        table allows (an index finds them)."""

    def bots_waiting(self, before: float, limit: int) -> list[str]:
        """Up to ``limit`` tables where a bot has been to move since before ``before`` (or
        whose seats changed then), the longest waiting first (an index finds them)."""

    def not_waiting(self, table_id: str, version: int, seat_rev: int) -> None:
        """No bot is to move at the table as of this version and seat revision."""

    def move_records(self, table_id: str) -> list[MoveRecord]:
        """The whole stored log of a table, oldest first."""

    def lobby_ids(self, limit: int) -> list[str]:
        """Listed open tables with a free person's seat, newest first."""

    def open_ids(self) -> list[str]:
        """Every open table."""

    def listen(self, stop: threading.Event, heard: Callable[[str], None]) -> None:
        """Call ``heard(table_id)`` for every change another worker commits, until ``stop``
        (returns at once where there are no other workers to hear)."""

    # -- the host's tools (``bigtop host``) ---------------------------------------------------
    def find_players(self, name: str | None, limit: int) -> list[dict[str, Any]]:
        """Up to ``limit`` identities, the newest first, whose name holds ``name`` (any
        case; None: all): ``id``, ``name``, ``created_at``, ``blocked`` (the host's note,
        or None) and ``tables`` (seats held at open tables)."""

    def player_name(self, player_id: str) -> str | None:
        """The identity's name (None: no such identity)."""

    def chat_lines(self, table_id: str | None, player_id: str | None,
                   limit: int) -> list[dict[str, Any]]:
        """Up to ``limit`` chat messages, the newest first, of one table and/or one
        identity (None: any): ``id``, ``table``, ``seat``, ``player`` (the identity sitting
        there, or None), ``name``, ``text``, ``created_at``."""

    def remove_chat(self, ids: Sequence[int], player_id: str | None) -> int:
        """Delete the chat messages with these ids, and every one written from a seat
        ``player_id`` sits at; how many were deleted."""

    def block_player(self, player_id: str, note: str, now: float) -> bool:
        """Block the identity: its key opens nothing from now on, on every worker (its
        hash kept aside, the tables where it sits told their seats changed). False: no
        such identity, or blocked already."""

    def unblock_player(self, player_id: str) -> bool:
        """Undo :meth:`block_player`. False: the identity is not blocked."""

    def blocked_note(self, key_hash: str) -> str | None:
        """The host's note on the blocked identity of this key (None: not blocked)."""

    def close_table(self, table_id: str, now: float, text: str) -> bool:
        """The host ends an open table now: expired, unplayed from here, its clock and
        any take-back cleared, a public ``closed`` event. False: no such open table."""

