"""The server's data: what a table, a seat and a log line are, as the table master reasons
about them and the storage keeps them (no SQL, no rules here).

>>> len(hash_token("x")), len(new_token())
(64, 22)
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bigtop.agents.levels import DEFAULT_LEVEL
from bigtop.core.game import State
from bigtop.core.limits import text_problem
from bigtop.core.verify import seed_commitment  # the one definition, beside its check

PLAYING, FINISHED, EXPIRED = "playing", "finished", "expired"
HUMAN, BOT = "human", "bot"


def hash_token(token: str) -> str:
    """What the database stores of a seat token (SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def new_id(nbytes: int) -> str:
    """A table's or an identity's id: ``nbytes`` random bytes, URL-safe, never starting
    with "-" (a command line read ``bigtop host close -Pq…`` as an option).

    >>> all(not new_id(9).startswith("-") and len(new_id(9)) == 12 for _ in range(500))
    True
    """
    while True:
        made = secrets.token_urlsafe(nbytes)
        if not made.startswith("-"):
            return made


def draw_seed() -> int:
    """A table's seed: 63 bits from the operating system's CSPRNG (never a creator's choice
    at a table strangers may sit at; see :meth:`TableMaster.create`)."""
    return secrets.randbits(63)


BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols drawn as blank space (Hangul fillers, the blank Braille pattern)."""


def plain_text(raw: str, what: str, max_chars: int) -> str:
    """``raw`` trimmed, if it is plain text of 1 to ``max_chars`` characters: no control
    characters, line breaks or reordering marks. It is stored and shown as it is, never
    interpreted as markup (the web page sets it with ``textContent``).

    >>> plain_text("  Anna <b> ", "name", 32)
    'Anna <b>'
    >>> plain_text("A" + chr(10) + "B", "name", 32)
    Traceback (most recent call last):
    ...
    ValueError: name: no control characters or line breaks (U+000A at 2)
    >>> plain_text("   ", "name", 32)
    Traceback (most recent call last):
    ...
    ValueError: name: empty
    >>> plain_text(chr(0x200B) + chr(0x3164), "name", 32)
    Traceback (most recent call last):
    ...
    ValueError: name: nothing visible (only spaces, marks or invisible characters)
    """
    text = raw.strip()
    if not text:
        raise ValueError(f"{what}: empty")
    if len(text) > max_chars:
        raise ValueError(f"{what}: at most {max_chars} characters, not {len(text)}")
    problem = text_problem(text)  # the core's rule (core/limits.py), as for a board's name
    if problem is not None:
        raise ValueError(f"{what}: {problem}")
    if not any(unicodedata.category(ch)[0] not in "ZMC" and ch not in BLANK_LETTERS
               for ch in text):
        # A name or a chat line that shows as nothing (zero-width spaces, a byte-order
        # mark, Hangul fillers) would leave a seat or a line that looks empty.
        raise ValueError(f"{what}: nothing visible (only spaces, marks or invisible "
                         "characters)")
    return text


@dataclass(frozen=True)
class Player:
    """An identity without a password: whoever holds its key (stored hashed) is it."""

    id: str
    name: str
    created_at: float


@dataclass(frozen=True)
class SeatSpec:
    """One seat at creation: a person, or a bot of a level from ``BOT_NAMES``. ``invite``:
    the name of the person the host invites to a person's seat (shown while the table
    waits for them; an invited seat keeps the table out of the lobby unless it is listed)."""

    kind: str = HUMAN
    level: str | None = None
    invite: str | None = None


@dataclass(frozen=True)
class TableSpec:
    game: str
    players: int
    options: Mapping[str, object] = field(default_factory=dict)
    seed: int | None = None
    seats: tuple[SeatSpec, ...] = ()
    listed: bool | None = None
    """Shown in the lobby (None: unless a seat is invited by name)."""
    takeover_after: float | None = None
    takeover_level: str = DEFAULT_LEVEL
    player_id: str | None = None
    """The identity creating the table (sits in the first person's seat)."""
    chat_spectators_read: bool = True
    bot_seconds: float | None = None
    creator: str = ""
    """The client address asking (server/net.py), for the per-client cap of open tables."""
    clock: Mapping[str, Any] | None = None
    """The time control as asked (``clocks.check_clock`` checks it; None: none)."""
    on_timeout: str = "bot"
    rated: bool = False
    host_seat: int | None = None
    """The creator's seat (None: the first person's)."""
    wait: bool | None = None
    """Wait for every person before dealing (None: when created with a player key or with
    an invited seat)."""
    key: str | None = field(default=None, repr=False)
    """The creator's player key (the host's seat token derives from it, so the key alone
    gets the invite links again)."""


@dataclass(frozen=True)
class Seat:
    seat: int
    kind: str
    level: str | None
    token_hash: str | None
    claimed: bool
    last_seen: float
    bot_playing: str | None
    """The level of the bot playing for an absent person (takeover), else None."""
    player_id: str | None = None
    """The identity that sat down here with its player key (None: a seat token only)."""
    name: str | None = None
    """That identity's name (read with the seat, not stored in it)."""
    player_key_hash: str | None = field(default=None, repr=False)
    """The SHA-256 of that identity's key (read with the seat): the key opens the seat as
    its token does, on every device."""
    clock_left: float | None = None
    """Seconds left on this person's game clock at the start of the current turn (None: no
    game clock, or a bot's seat)."""
    invite: str | None = None
    """The name the host gave the person invited here (None: none given)."""
    here: bool = False
    """The person is present (a request lately, or an open WebSocket, on any worker)."""
    invited: bool = False
    """The seat's token is still an invite: derived from the host's secret (the host can
    work it out again), not yet exchanged for one only its holder knows
    (:meth:`~bigtop.server.master.TableMaster.accept_invite`)."""

    @property
    def label(self) -> str:
        """The seat's own mark, as the engines write it (``P0``, ``P1``…)."""
        return f"P{self.seat}"

    @property
    def shown_name(self) -> str:
        """What views and log lines call the seat: its person's name, else the name the
        host invited them by, else the seat's label."""
        return self.name or self.invite or self.label

    @property
    def bot_level(self) -> str | None:
        """Which bot moves for this seat now (a bot seat, or a taken-over one)."""
        return self.level if self.kind == BOT else self.bot_playing


@dataclass(frozen=True)
class LogEntry:
    """One line of the public log: a move's describe line or an event (takeover, return).
    ``version`` is the table's version after the move (for events: when it happened)."""

    id: str
    kind: str
    version: int
    seat: int
    text: str
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "version": self.version, "seat": self.seat,
                "text": self.text, "bot": self.bot}


@dataclass(frozen=True)
class Meta:
    """A table's row: what it is and where it stands."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    listed: bool
    takeover_after: float | None
    takeover_level: str
    status: str
    version: int
    seat_rev: int
    created_at: float
    updated_at: float
    chat_spectators_read: bool = True
    """Whether spectators read the table's chat (the host's choice; players always do)."""
    rematch_id: str | None = None
    """The table of this finished table's rematch (None: none yet)."""
    bot_seconds: float | None = None
    """The table's limit on one bot move (None: the level's and the server's)."""
    seed_chosen: bool = False
    """The creator chose the seed (allowed only where no stranger can sit)."""
    creator: str = ""
    """The client address that created the table (its open tables are capped)."""
    clock: dict[str, Any] | None = None
    """The time control (``Clock.to_json``; None: none)."""
    on_timeout: str = "bot"
    """What a person's time-out does: ``"bot"`` (the takeover bot plays on) or ``"lose"``."""
    rated: bool = False
    """The end updates the people's ratings of this game."""
    turn_started: float | None = None
    """When the running clock's turn began (None: no clock runs)."""
    clock_deadline: float | None = None
    """When the running clock runs out (None: no clock runs)."""
    host_seat: int | None = None
    """The creator's seat (the first person's): its holder gets the invite links again."""
    started: bool = True
    """False while a person's seat is empty: nothing is dealt or rolled, nobody moves."""
    undo: dict[str, Any] | None = None
    """A take-back asked for: ``{"seat", "to", "at", "accepted"}`` (it stands only while the
    table is at version ``at``)."""
    undos: int = 0
    """How many take-backs the table had (each cut its log back)."""

    @property
    def pending_undo(self) -> dict[str, Any] | None:
        """The take-back asked for at the current version of the open table (None: none;
        a game that ended meanwhile, on time, has nothing left to take back)."""
        u = self.undo
        return u if (u is not None and u.get("at") == self.version
                     and self.status == PLAYING) else None

    @property
    def seed_commitment(self) -> str:
        return seed_commitment(self.id, self.seed)


@dataclass(frozen=True)
class ChatRecord:
    """One stored chat message of a seat."""

    id: int
    seat: int
    text: str
    created_at: float


@dataclass(frozen=True)
class Loaded:
    """A table as one worker knows it: read-only (``state`` must not be changed; play on a
    clone)."""

    meta: Meta
    seats: tuple[Seat, ...]
    state: State
    log: tuple[LogEntry, ...]
    last_event: int

    @property
    def version(self) -> int:
        return self.meta.version

    @property
    def table_id(self) -> str:
        return self.meta.id

    @property
    def waiting_for(self) -> list[Seat]:
        """The people's seats nobody has taken yet, while the game waits for them."""
        if self.meta.started:
            return []
        return [s for s in self.seats if s.kind == HUMAN and not s.claimed]

    def bot_turn(self) -> tuple[int, str] | None:
        """(seat, level) when a bot is to move now."""
        if self.meta.status != PLAYING or not self.meta.started:
            return None
        p = self.state.current_player()
        if p < 0:
            return None
        level = self.seats[p].bot_level
        return None if level is None else (p, level)


@dataclass(frozen=True)
class Created:
    table_id: str
    tokens: dict[int, str]
    """Seat -> secret token, for the people's seats (shown once, stored hashed)."""


@dataclass(frozen=True)
class MoveRecord:
    """One stored move (chance outcomes too): its index in the log (the table's version
    before it), who played it, the action's JSON, its public log line, the bot level."""

    idx: int
    seat: int
    action: Any
    text: str
    by_bot: str | None = None


@dataclass(frozen=True)
class EventRecord:
    """One stored public event (a bot took a seat, a person came back)."""

    id: int
    at_version: int
    seat: int
    kind: str
    text: str
