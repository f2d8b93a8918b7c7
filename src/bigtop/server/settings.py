"""The server's settings and every limit it enforces, in one place.

>>> s = Settings(db_url="sqlite:///:memory:")
>>> s.limits.max_body_bytes
65536
>>> s.is_postgresql
False
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from bigtop.core.errors import BigtopError
from bigtop.core.limits import MAX_HISTORY, MAX_JSON_BYTES

ENV_SETTINGS = "BIGTOP_SERVER_SETTINGS"
"""Environment variable through which `bigtop serve --workers N` hands its settings (JSON) to
the worker processes uvicorn spawns."""


@dataclass(frozen=True)
class Limits:
    """What a client may ask of the server. Every check the server makes on size, rate or
    count reads its number from here (documented in docs/server.md). The shape of JSON from
    outside (nesting, string and array lengths, numbers, no NaN, no key twice) is checked by
    the core's :mod:`bigtop.core.limits`, the same as for files and the command line.

    The per-address allowances for making things (tables, seats taken, identities) are
    sized for one address shared by many people: a family's or a school's NAT, or every
    browser of the machine `make run` serves on 127.0.0.1 (one address for all). They bound
    what one address makes an hour; the sizes, per-seat rates and socket counts bound what
    each thing costs.

    Where each is counted: the rates of creating tables, taking seats, new identities,
    renames and chat messages, and the open tables per client, in the database, shared by
    every worker (``rate_buckets``, ``tables``); the move rates (per seat, per client
    address) and the sockets per client address in each worker's memory (N workers that one
    client's requests are spread over allow it up to N times those).

    >>> Limits(max_body_bytes=10**9)
    Traceback (most recent call last):
    ...
    bigtop.core.errors.BigtopError: max_body_bytes may be at most MAX_JSON_BYTES (8388608)
    """

    max_body_bytes: int = 64 * 1024
    """Largest HTTP request body; more is refused with 413."""
    max_ws_message_bytes: int = 64 * 1024
    """Largest WebSocket message from a client; more is answered with an ``error``
    message (413), then the socket is closed (1009). uvicorn reads messages up to
    :attr:`ws_max_size` (twice this); one past that it closes at once (1009), unanswered."""
    moves_per_second: float = 10.0
    """Sustained moves per second per seat (over HTTP and all its WebSockets together);
    more: 429 with Retry-After. Counted in each worker's memory."""
    move_burst: int = 20
    """Moves a seat may send at once before the per-second rate applies."""
    client_moves_per_second: float = 30.0
    """Sustained moves per second per client address (server/net.py), over all its seats
    and tables; more: 429 with Retry-After. Counted in each worker's memory."""
    client_move_burst: int = 60
    """Moves one client address may send at once before that rate applies."""
    tables_per_hour: float = 60.0
    """Tables one client address may create per hour, sustained (token bucket); more: 429
    with Retry-After. Counted in the database: shared by every worker."""
    table_burst: int = 20
    """Tables one client address may create at once before that rate applies."""
    joins_per_hour: float = 240.0
    """Free seats one client address may take per hour (joined, or claimed with a player
    key), sustained; more: 429. Counted in the database: shared by every worker."""
    join_burst: int = 40
    """Seats one client address may take at once before that rate applies."""
    host_changes_per_hour: float = 120.0
    """Changes one client address may make to its tables' settings per hour (a host
    listing a table in the lobby or taking it out), sustained; more: 429."""
    host_change_burst: int = 20
    """Such changes one client address may make at once before that rate applies."""
    max_open_tables_per_client: int = 50
    """Open tables (not finished or expired) created from one client address; one more is
    refused with 429 until one of them ends or expires (counted in the database: shared by
    every worker)."""
    max_open_tables: int = 10_000
    """Tables not yet finished or expired; creating one more is refused with 503."""
    idle_table_seconds: float = 7 * 24 * 3600.0
    """A table with no move for this long expires (no more moves; export stays)."""
    unjoined_table_seconds: float = 6 * 3600.0
    """A table with a person's seat nobody has taken this long after it was created
    expires (it no longer counts toward the open tables of the server or its creator)."""
    finished_table_seconds: float = 30 * 24 * 3600.0
    """A finished or expired table is kept this long after its last change (replay,
    export), then deleted with its log."""
    max_takeover_seconds: float = 7 * 24 * 3600.0
    """Longest time limit a table may set before a bot takes over an absent seat."""
    min_takeover_seconds: float = 1.0
    """Shortest such limit (so a bot cannot snatch a seat between two packets)."""
    max_lobby_tables: int = 200
    """Most tables one lobby answer lists (newest first)."""
    max_options_bytes: int = 4096
    """A table's rule options as compact JSON (free text such as a So ein Zirkus board's
    name and note included); more is refused with 422. Stored once, in the table's row."""
    lobby_text_chars: int = 80
    """A lobby entry carries a summary of the options: each text longer than this is cut
    there (ending in "…"); the table's own view has them whole."""
    max_connections_per_table: int = 64
    """WebSocket connections one table accepts at once from spectators, and as many from
    its seats (each counted apart: spectators filling the table never keep its players
    from their live view)."""
    ws_send_seconds: float = 10.0
    """The longest a message to a WebSocket may wait for its client to take it (the
    socket's buffers full: a client that stopped reading); past it the socket is dropped
    from its table and closed (4408). A send that has to wait goes on in a task of its
    own (``Runtime.deliver``), so nobody else waits for it: not the move's answer, not the
    table's other sockets; a watchdog looks four times within this time (at least once a
    second)."""
    ipv6_prefix: int = 64
    """Every per-client limit keys an IPv6 client by this network prefix, not by its whole
    address (server/net.py): a home line or a rented server routinely gets a whole /64, so
    keyed by address one client could take a fresh allowance with each of its 2^64
    addresses. 128: each address on its own. IPv4 clients are keyed by address."""
    max_sockets_per_client: int = 32
    """WebSocket connections one client address (server/net.py) holds at once in one
    worker, over all tables; one more is refused (error message, close 4429). Counted in
    each worker's memory."""
    max_requests_per_client: int = 64
    """HTTP requests one client address has in progress at once in one worker (from the
    head's arrival to the answer's end, a body still coming included); one more is
    answered 429 at once, before any route reads it (server/edge.py). Behind a trusted
    proxy every connection is the proxy's, so :attr:`max_connections_per_client` counts
    none of a client's; Caddy passes a body on as it comes, and one address's thousand
    slow bodies held every one of :attr:`max_connections` for the request timeout, again
    and again (docs/deploy.md)."""
    max_header_bytes: int = 16 * 1024
    """Largest request head (request line and headers); more is answered 431 and the
    connection closed, as soon as that many bytes came (server/protocol.py)."""
    request_timeout_seconds: float = 15.0
    """A request must arrive whole (head and body) within this time from its first byte,
    and a new connection must start one within it: else 408 (or a plain close) — a
    half-sent request never holds a socket longer."""
    keep_alive_seconds: int = 5
    """An idle connection between two requests is closed after this long (uvicorn's
    keep-alive timeout)."""
    max_connections_per_client: int = 64
    """Open connections (HTTP and WebSocket, idle or half-sent) one client address holds
    in one worker; one more is answered 429 at once and closed (server/protocol.py).
    Counted by the TCP peer, an IPv6 one by its network (:attr:`ipv6_prefix`), before any
    byte of a request: a peer in ``Settings.trusted_proxies`` (a proxy, which carries
    everybody's connections) is not counted, so behind one this is the proxy's to bound
    (docs/deploy.md). Else one address held every one of :attr:`max_connections` with
    half-sent requests (1,000 in 0.03 s), and every other client got 503 while they
    lasted, again and again."""
    max_pipelined_requests: int = 32
    """Requests one connection may send ahead of their answers (HTTP pipelining); one more
    closes the connection (server/protocol.py). The parser reads every request of what
    arrived at once, and uvicorn queued each (about 1.2 KB of memory for a 29-byte
    request): 290 KB of requests from each of 50 connections that never read grew a
    worker by 200 MB. Browsers do not pipeline."""
    max_connections: int = 1000
    """Open connections (HTTP and WebSocket) one worker holds; one more is answered 503 at
    once and closed. Keep it below the process's open-file limit (``ulimit -n``, systemd's
    ``LimitNOFILE``), which also holds the database's and the bot pool's files."""
    max_view_log: int = 1000
    """Log entries a whole view carries at most (the latest; ``log_since`` says from
    where): a long game's first view stays small. The replay has every move."""
    max_table_moves: int = 20_000
    """Longest game (entries in a table's log, chance outcomes included): a table that
    reaches it stops (status ``expired``, 410 on moves). At most half the core's
    ``MAX_HISTORY`` (100,000), so its export loads in ``bigtop replay``; the longest games
    seen in play are far shorter (docs/server.md)."""
    max_table_events: int = 1000
    """Events a table logs at most beside its moves (take-backs, takeovers, reclaims,
    time-outs): past it a take-back is refused (409) and so is a reclaim (the bot that
    took the seat plays on; a takeover, the server's own, is never refused, and each
    further one needs a reclaim). A take-back deletes its moves but logs an event, so moving
    and taking back, on and on, grew a table's log without end at version 0, and every
    view with it (events of one version come whole, whatever ``max_view_log`` says)."""

    reads_per_minute: float = 1200.0
    """Sustained read tokens one client address may spend a minute (token bucket, in each
    worker's memory): every GET or HEAD (and WebSocket connect) of the API takes
    ``1``, a heavy one (the lobby, a picture, an export, a leaderboard, your own tables)
    ``heavy_read_tokens`` (server/edge.py; bench/bench_reads.py measures what each
    costs); more: 429 with Retry-After. Moves and other writes have rates of their own
    and take none."""
    read_burst: int = 400
    """Read tokens one client address may spend at once before that rate applies (a page
    and its first requests, a spectator's burst of refreshes)."""
    heavy_read_tokens: int = 10
    """What one heavy read takes of the read budget (its cost is ten to a hundred times a
    view's: docs/server.md, Limits)."""
    picture_cache_entries: int = 512
    """Pictures (SVG) a worker keeps, by table, version, take-backs and seat (or
    spectator); the least recently used go first."""
    picture_cache_bytes: int = 32 * 1024 * 1024
    """What those pictures may take in all (their text's length); one over an eighth of it
    is never kept."""
    ws_messages_per_second: float = 20.0
    """Sustained messages one WebSocket may send (moves, pings and refused ones alike);
    past it and ``ws_message_burst``: an ``error`` message (429), then the socket is
    closed (4429). Counted per socket; a move counts toward its seat's and its address's
    move rates as well. Ping frames (the protocol's own, answered without the app) take from
    a budget of their own at this rate and burst (server/protocol.py), closed 4429 alike."""
    ws_message_burst: int = 60
    """Messages one WebSocket may send at once before that rate applies."""
    ws_max_frames: int = 64
    """Frames one WebSocket message may come in (its first frame and the continuation
    frames after it); one more closes the socket (1009) at once (server/protocol.py):
    websockets bounds a message's bytes, not its fragments, and uvicorn keeps each until
    the last, so a message that never ended in empty frames grew the worker without end.
    Browsers send a message in one frame."""

    max_name_chars: int = 32
    """Longest player name (after trimming; no control characters)."""
    new_players_per_hour: float = 60.0
    """Sustained identities one client address may create (POST /api/players) an hour.
    Counted in the database: shared by every worker."""
    new_player_burst: int = 20
    """Identities a client address may create at once before that rate applies."""
    renames_per_hour: float = 60.0
    """Sustained renames (PATCH /api/players/me) one client address may make an hour
    (each writes every open table its identity sits at and sends every socket there a new
    view); more: 429. Counted in the database: shared by every worker."""
    rename_burst: int = 10
    """Renames a client address may make at once before that rate applies."""
    max_my_tables: int = 100
    """Most tables GET /api/players/me lists (the newest the identity sits at)."""
    max_chat_chars: int = 500
    """Longest chat message (after trimming; no control characters)."""
    chat_per_minute: float = 20.0
    """Sustained chat messages a minute per seat, and per client address. Counted in the
    database: shared by every worker."""
    chat_burst: int = 5
    """Chat messages a seat (or an address) may send at once before that rate applies."""
    max_chat_messages: int = 2000
    """Chat messages one table stores; more are refused (409)."""
    max_chat_page: int = 200
    """Most chat messages one GET answers (the oldest after ``after``)."""
    min_clock_seconds: float = 5.0
    """Shortest time control a table may have: per move, game clock (and the most an
    increment may be below it: 0)."""
    max_per_move_seconds: float = 7 * 24 * 3600.0
    """Longest ``clock.per_move_seconds``."""
    max_game_seconds: float = 30 * 24 * 3600.0
    """Longest ``clock.game_seconds``."""
    max_increment_seconds: float = 24 * 3600.0
    """Largest ``clock.increment_seconds``."""
    provisional_games: int = 5
    """A person's rating in a game is marked provisional until this many rated games."""
    max_leaderboard: int = 100
    """Most players GET /api/ratings/{game} lists (the best)."""

    @property
    def ws_max_size(self) -> int:
        """uvicorn's bound on a WebSocket message (``ws_max_size``), set above
        ``max_ws_message_bytes`` so that a message past the server's limit is read and
        answered with the documented 413 before the close; past this bound uvicorn closes
        the socket itself (1009) without reading the rest, unanswered."""
        return 2 * self.max_ws_message_bytes

    def __post_init__(self) -> None:
        for name in ("max_header_bytes", "request_timeout_seconds", "keep_alive_seconds",
                     "max_connections", "moves_per_second", "move_burst",
                     "client_moves_per_second", "client_move_burst", "tables_per_hour",
                     "table_burst", "joins_per_hour", "join_burst",
                     "host_changes_per_hour", "host_change_burst",
                     "max_open_tables_per_client", "unjoined_table_seconds",
                     "max_options_bytes", "lobby_text_chars",
                     "finished_table_seconds", "max_name_chars", "new_players_per_hour",
                     "new_player_burst", "renames_per_hour", "rename_burst",
                     "max_my_tables", "max_chat_chars", "chat_per_minute",
                     "chat_burst", "max_chat_messages", "max_chat_page", "min_clock_seconds",
                     "max_per_move_seconds", "max_game_seconds", "max_increment_seconds",
                     "ws_send_seconds",
                     "provisional_games", "max_leaderboard", "reads_per_minute",
                     "read_burst", "heavy_read_tokens", "picture_cache_entries",
                     "picture_cache_bytes", "ws_messages_per_second", "ws_message_burst",
                     "ws_max_frames", "max_connections_per_client",
                     "max_pipelined_requests", "max_table_events",
                     "max_requests_per_client"):
            if not getattr(self, name) > 0:
                raise BigtopError(f"{name} must be above 0")
        for name in ("max_body_bytes", "max_ws_message_bytes"):
            if getattr(self, name) > MAX_JSON_BYTES:
                raise BigtopError(
                    f"{name} may be at most MAX_JSON_BYTES ({MAX_JSON_BYTES})")
        if self.heavy_read_tokens > self.read_burst:
            raise BigtopError("heavy_read_tokens may be at most read_burst (else a heavy "
                              "read could never be made)")
        if not 1 <= self.ipv6_prefix <= 128:
            raise BigtopError("ipv6_prefix must be 1 to 128")
        if not 1 <= self.max_table_moves <= MAX_HISTORY // 2:
            raise BigtopError(f"max_table_moves must be 1 to {MAX_HISTORY // 2}")


@dataclass(frozen=True)
class Settings:
    """How one server process runs. ``db_url`` is an SQLAlchemy-style URL
    (``sqlite:///path`` or ``postgresql://user@host/db``)."""

    db_url: str
    limits: Limits = field(default_factory=Limits)
    bot_processes: int = field(default_factory=lambda: os.cpu_count() or 1)
    """Processes in the bot pool (bots think there, never on the event loop): at most this
    many bot moves at once, taken table by table (server/bots.py). 0: one thread of the
    server's own process, for an app run inside another program (the tests): nothing to
    start, but a bot past its hard cut is not interrupted (only a process can be), so
    `bigtop serve` always runs at least one process."""
    bot_move_seconds: float = 5.0
    """The most any bot move may take (wall clock): each move's limit is its level's budget
    (``MOVE_BUDGET_MS``: hard 1 s), cut by the table's ``bot_seconds`` and this, counted
    from when the server asks for the move (one that queued for the pool thinks what is
    left, at least a tenth of it: server/bots.py ``time_left``); a bot still thinking at
    1.5 times that is interrupted and a random legal move played."""
    bot_delay_seconds: float = 0.0
    """Pause before a bot moves (so people can follow; 0 in tests and benchmarks)."""
    sweep_seconds: float = 2.0
    """How often a worker stores who is present (requests, open WebSockets), then looks for
    absent seats, idle tables and bot turns nobody took."""
    presence_seconds: float = 30.0
    """A person counts as here while they made a request or held a WebSocket within this
    long; after it their seat shows away (views' ``seats[k].presence``). A present person's
    last sighting is stored at most every third of it, on every table."""
    sweep_batch: int = 200
    """Most tables one sweep touches for each of its tasks (expiring, taking over absent
    seats, bot turns nobody took; also the full rate-limit buckets it forgets); the rest
    wait for the next sweep. Each task finds what
    is due through an index and reads nothing else."""
    bot_stuck_seconds: float = 20.0
    """A bot turn nobody has played for this long (a restart, a worker that died, a bot
    that failed) is started again by the sweep."""
    snapshot_every: int = 500
    """Moves between two stored positions of a table: a replay at move K, or a table
    rebuilt after a restart, plays at most this many moves from the latest one."""
    view_cache_bytes: int = 32 * 1024 * 1024
    """What a worker keeps of the views it made, to send again (the same view to a mover's
    answer and its sockets, spectators), in bytes: view texts and the seat parts they are
    made of (observation, legal actions), in one budget (``runtime.ViewCache``: a text is
    charged its length, a part what its JSON text takes, what it takes in memory); the least
    recently used go first; one view over an eighth of it is never kept."""
    cached_tables: int = 4096
    """Tables whose position a worker keeps in memory (least recently used ones are
    dropped, then rebuilt from the log when asked for again)."""
    gc_freeze_seconds: float | None = 1.0
    """How often the worker freezes the objects made since, with Python's automatic
    collections off, so no collection walks them until the next full one
    (server/collector.py says why; None: Python's own collector, as it comes)."""
    gc_full_seconds: float = 600.0
    """How often at most a full collection looks at every object and frees the cyclic
    garbage made since the last (with 1,000 live tables it stops the worker for 0.3–0.8 s,
    by the machine)."""
    gc_full_growth: float = 1.0
    """A full collection comes sooner, at the next freeze, once the heap grew by this share
    of what it held after the last one (1: doubled, Go's default; server/collector.py)."""
    base_url: str = ""
    """Prefix of the invite and spectator links the server hands out ("" = same origin)."""
    static_dir: str | None = None
    """Directory served at / (the web front end); None = the package's if it exists."""
    migrate_on_start: bool = True
    """Migrate the database when the app starts (`bigtop serve` migrates once itself,
    before its workers start)."""
    api_docs: bool = True
    """Serve the interactive API docs at /docs: Swagger UI vendored in the package
    (web/static/vendor/swagger-ui), nothing from another host. False: only the schema at
    /openapi.json."""
    hsts_seconds: int = 365 * 24 * 3600
    """``Strict-Transport-Security: max-age`` sent on responses to HTTPS requests (the
    scheme as a trusted proxy reports it); 0: not sent."""
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    """Addresses or networks (CIDR) of the reverse proxies in front of the server. Only a
    peer in this list may name the client (the right-most ``X-Forwarded-For`` hop that is
    not a proxy) and the scheme (``X-Forwarded-Proto: https``); from anyone else those
    headers are ignored and the peer's own address is the client (server/net.py). The
    default trusts only this machine (a proxy on the same host, as docs/deploy.md sets it
    up); ``()`` trusts nobody."""

    blocked: tuple[str, ...] = ()
    """Addresses or networks (CIDR) the host turned away (``bigtop serve --block``): every
    request and WebSocket from a client there (the real client, behind trusted proxies) is
    answered 403 ``blocked`` before any other work (server/edge.py)."""

    def __post_init__(self) -> None:
        from bigtop.server.net import trusted_networks

        object.__setattr__(self, "trusted_proxies", tuple(self.trusted_proxies))
        object.__setattr__(self, "blocked", tuple(self.blocked))
        trusted_networks(self.trusted_proxies)  # refuse a malformed entry at once
        trusted_networks(self.blocked, "blocked")

    @property
    def is_postgresql(self) -> bool:
        return self.db_url.startswith(("postgresql", "postgres"))

    def to_env(self) -> str:
        """JSON form for :data:`ENV_SETTINGS`."""
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_env(cls) -> Settings:
        raw = os.environ.get(ENV_SETTINGS)
        if not raw:
            raise BigtopError(f"{ENV_SETTINGS} is not set")
        data = json.loads(raw)
        limits = Limits(**data.pop("limits"))
        return cls(limits=limits, **data)


def default_db_url() -> str:
    """SQLite in the user's data directory (created if missing)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("bigtop", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'server.sqlite3'}"
