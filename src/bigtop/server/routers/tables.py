"""Tables: create one, see it as your seat (or as a spectator), move, join a free seat, take
your seat back from a bot, and the picture of your view."""

from __future__ import annotations

import functools
import hashlib
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request, Response

from bigtop.agents.levels import DEFAULT_LEVEL
from bigtop.core.errors import BigtopError
from bigtop.core.limits import MAX_INT
from bigtop.core.registry import capabilities
from bigtop.server import errors
from bigtop.server.deps import KeyDep, RuntimeDep, TokenDep
from bigtop.server.edge import too_many_reads
from bigtop.server.master import lost_invites_note, waiting_line
from bigtop.server.model import FINISHED, HUMAN, Loaded, SeatSpec, TableSpec
from bigtop.server.net import client_address
from bigtop.server.runtime import Runtime, in_thread
from bigtop.server.schemas import (
    Accepted,
    AcceptIn,
    ClaimIn,
    CreateTable,
    Invite,
    Invites,
    Joined,
    JoinIn,
    MoveIn,
    Rematched,
    SeatLink,
    StartIn,
    TableChange,
    TableCreated,
)
from bigtop.server.schemas import TableView as TableViewModel

router = APIRouter(prefix="/api/tables", tags=["tables"])

PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"description": text, "content": {"application/problem+json": {}}}
    for code, text in [(400, "Malformed request"), (401, "No seat token"),
                       (403, "Wrong token"), (404, "No such table"),
                       (409, "Stale version, not your turn, game over"),
                       (410, "Table expired"), (413, "Body too large"),
                       (422, "Illegal action or invalid options"), (429, "Too many moves")]}


def invite_url(runtime: Runtime, table_id: str, token: str) -> str:
    """The capability link of a seat (the token after '#' never reaches a server log)."""
    return f"{runtime.settings.base_url}/?table={table_id}#token={token}"


def spectator_url(runtime: Runtime, table_id: str) -> str:
    """The public link of a table (no token: the spectators' view)."""
    return f"{runtime.settings.base_url}/?table={table_id}"


async def open_table(runtime: Runtime, table_id: str, token: str | None, *,
                     fresh: bool = True) -> tuple[Loaded, int | None]:
    """The table and the token's seat (None: spectator); marks the seat present.
    ``fresh=False`` (a move) takes the table from this worker's memory when it is there:
    the move's transaction checks it against the database anyway; a token it does not
    know is looked up in the database before it is refused (another worker gave it)."""
    loaded = None if fresh else runtime.master.cached(table_id)
    seat: int | None = None
    if loaded is not None:
        try:
            seat = runtime.master.seat_of(loaded, token)
        except errors.Forbidden:
            loaded = None
    if loaded is None:
        loaded = await runtime.db(runtime.master.load, table_id)
        seat = runtime.master.seat_of(loaded, token)
    return await runtime.seen(loaded, seat, token), seat


@router.post("", status_code=201, response_model=TableCreated, responses=PROBLEMS)
async def create_table(body: CreateTable, runtime: RuntimeDep, key: KeyDep,
                       request: Request) -> TableCreated:
    """A new table: any game, player count and rule options (checked by the engine). Each
    person's seat gets a secret token and an invite link (shown only here). With a player
    key (``Authorization: Bearer KEY``) its identity sits in the first person's seat."""
    client = client_address(request)
    await take_table_rate(runtime, client)
    player = None if key is None else await runtime.db(runtime.master.player, key)
    seats = tuple(SeatSpec(s.kind, s.level, s.invite) for s in body.seats) if body.seats else ()
    spec = TableSpec(game=body.game, players=body.players, options=body.options,
                     seed=body.seed, seats=seats, listed=body.listed,
                     takeover_after=body.takeover_after, takeover_level=body.takeover_level,
                     player_id=None if player is None else player.id,
                     chat_spectators_read=body.chat_spectators_read,
                     bot_seconds=body.bot_seconds, creator=client, wait=body.wait,
                     host_seat=body.host_seat,
                     key=key if player else None,
                     clock=None if body.clock is None else body.clock.model_dump(),
                     on_timeout=body.on_timeout, rated=body.rated)
    made = await runtime.db(runtime.master.create, spec)
    loaded = await runtime.db(runtime.master.load, made.table_id)
    runtime.kick(loaded)
    return TableCreated(
        table=made.table_id, version=loaded.version,
        spectator_url=spectator_url(runtime, made.table_id),
        seats=[SeatLink(seat=s.seat, kind=s.kind, level=s.level,
                        token=made.tokens.get(s.seat),
                        invite_url=invite_url(runtime, made.table_id, made.tokens[s.seat])
                        if s.seat in made.tokens else None)
               for s in loaded.seats],
        seed_commitment=loaded.meta.seed_commitment,
        seed_chosen_by_creator=loaded.meta.seed_chosen)


async def take_table_rate(runtime: Runtime, client: str) -> None:
    """Count a table made (created, or a rematch) toward the client address's rate, or
    429."""
    lim = runtime.limits
    await runtime.creates.check(client, f"one address may create {lim.table_burst} tables "
                                        f"at once and {lim.tables_per_hour:g} an hour")


@router.get("/{table_id}", response_model=TableViewModel, responses=PROBLEMS)
async def get_table(
    table_id: str, runtime: RuntimeDep, token: TokenDep,
    since: Annotated[int | None, Query(ge=0, le=MAX_INT, description="Only log entries after this "
                                                         "version (catching up).")] = None,
) -> Response:
    """The table as your seat sees it (no token: the public view)."""
    loaded, seat = await open_table(runtime, table_id, token)
    return Response(runtime.view_text(loaded, seat, since), media_type="application/json")


@router.patch("/{table_id}", response_model=TableViewModel, responses=PROBLEMS)
async def change_table(table_id: str, body: TableChange, runtime: RuntimeDep,
                       token: TokenDep, request: Request) -> Response:
    """The host lists the table in the lobby (``{"listed": true}``: anyone may take a free
    seat there) or takes it out (invite links only). Refused where the creator chose the
    seed, and at a table that is over. Answers the host's view."""
    lim = runtime.limits
    await runtime.host_changes.check(client_address(request),
                                     f"one address may change its tables "
                                     f"{lim.host_change_burst} times at once and "
                                     f"{lim.host_changes_per_hour:g} an hour")
    _, seat = await open_table(runtime, table_id, token)
    if seat is None or token is None:
        raise errors.Unauthorized("only the host lists a table: send your seat token or "
                                  "player key")
    done = await runtime.db(runtime.master.set_listed, table_id, seat, token, body.listed)
    await runtime.after_change(done)
    return Response(runtime.view_text(done, seat), media_type="application/json")


@router.post("/{table_id}/moves", response_model=TableViewModel, responses=PROBLEMS)
async def post_move(table_id: str, body: MoveIn, runtime: RuntimeDep, token: TokenDep,
                    request: Request) -> Response:
    """Play one action for your seat at the version you saw. It is stored before this
    answer (your new view) and before any other client hears of it."""
    loaded, seat = await open_table(runtime, table_id, token, fresh=False)
    if seat is None:
        raise errors.Unauthorized("moving needs a seat token; spectators only watch")
    choice = body.model_dump(exclude_none=True, exclude={"version"})
    done = await play(runtime, loaded, seat, body.version, choice, client_address(request),
                      token=token)
    # The view is built by the server itself, so it is sent as it is (the response model
    # documents it; validating it again would cost more than the move); its text is the
    # one the mover's WebSocket update got.
    return Response(runtime.view_text(done, seat, body.version), media_type="application/json")


async def play(runtime: Runtime, loaded: Loaded, seat: int, version: int,
               choice: dict[str, Any], client: str, token: str | None) -> Loaded:
    """The one path of a person's move (HTTP and WebSocket): rates (of the seat, however
    many sockets it has open, and of the client address), engine, store, broadcast. The
    move is stored only if ``token`` still opens ``seat`` (checked in the transaction that
    stores it, whatever this worker's memory says). Returns the table after the move."""
    lim = runtime.limits
    seat_key = (loaded.table_id, seat)
    runtime.moves.check(seat_key, f"a seat may move {lim.move_burst} times at once and "
                                  f"{lim.moves_per_second:g} times a second")
    runtime.client_moves.check(client, f"one address may move {lim.client_move_burst} times "
                                       f"at once and {lim.client_moves_per_second:g} a second")
    done = await runtime.db_move(loaded.table_id, functools.partial(
        runtime.master.play, loaded.table_id, seat, version, choice, None, loaded,
        token=token))
    await runtime.after_change(done)
    return done


async def take_seat_rate(runtime: Runtime, request: Request) -> None:
    """Count a seat taken (joined or claimed) toward the client address's rate, or 429."""
    lim = runtime.limits
    await runtime.joins.check(client_address(request),
                              f"one address may take {lim.join_burst} seats at once and "
                              f"{lim.joins_per_hour:g} an hour")


@router.post("/{table_id}/join", response_model=Joined, responses=PROBLEMS)
async def join(table_id: str, runtime: RuntimeDep, key: KeyDep, request: Request,
               body: JoinIn | None = None) -> Joined:
    """Take a free person's seat of a listed table; answers with your seat token. With a
    player key the seat is your identity's (your key opens it too, on any device)."""
    await take_seat_rate(runtime, request)
    player = None if key is None else await runtime.db(runtime.master.player, key)
    seat, token = await runtime.db(runtime.master.join, table_id,
                                  body.seat if body else None, player)
    # The last seat taken starts a waiting table: a bot may be the first to move.
    await runtime.after_change(await runtime.db(runtime.master.load, table_id))
    return Joined(table=table_id, seat=seat, token=token,
                  invite_url=invite_url(runtime, table_id, token))


@router.get("/{table_id}/invites", response_model=Invites, responses=PROBLEMS)
async def invites(table_id: str, runtime: RuntimeDep, token: TokenDep) -> Invites:
    """The host's invite links, at any time: every person's seat nobody has taken yet, its
    token and link (derived again from the host's own seat token or player key)."""
    loaded, seat = await open_table(runtime, table_id, token)
    if seat is None or token is None:
        raise errors.Unauthorized("the invite links are the host's: send your seat token or "
                                  "player key")
    found, lost = runtime.master.invites(loaded, seat, token)
    return Invites(table=table_id, invites=[
        Invite(seat=s.seat, invite=s.invite, token=t, invite_url=invite_url(runtime, table_id, t))
        for s, t in found], unavailable=[s.seat for s in lost], note=lost_invites_note(lost))


@router.post("/{table_id}/accept", response_model=Accepted, responses=PROBLEMS)
async def accept(table_id: str, body: AcceptIn, runtime: RuntimeDep,
                 request: Request) -> Accepted:
    """Exchange the token of an invite link you opened for your seat's own: a fresh token
    only you know (the host, who can work the link out again, opens your seat no more; the
    seat is taken). Open the seat with the token answered from then on. A token that is
    yours already is answered unchanged; an invite opened already is refused (403)."""
    # The table is loaded as for a view, so it takes a token of the address's read budget
    # first (server/edge.py; a POST takes none there): answered 200 without a rate of its
    # own, a token of one's own was an unbounded read.
    wait = request.app.state.reads.take(client_address(request))
    if wait:
        raise too_many_reads(wait, runtime.limits)
    own = runtime.master.own_seat(await runtime.db(runtime.master.load, table_id), body.token)
    if own is not None:
        # Nothing to exchange, nothing written: not counted as taking a seat (a page asks
        # on every first visit of a table, its host's included).
        return Accepted(table=table_id, seat=own, token=body.token)
    await take_seat_rate(runtime, request)  # an exchange, or a refusal
    seat, token = await runtime.db(runtime.master.accept_invite, table_id, body.token)
    if token != body.token:
        # Every socket opened with the invite token is closed (runtime.send); an arrival
        # may start the table (a bot to move first).
        await runtime.after_change(await runtime.db(runtime.master.load, table_id))
    return Accepted(table=table_id, seat=seat, token=token)


@router.post("/{table_id}/claim", response_model=TableViewModel, responses=PROBLEMS)
async def claim(table_id: str, body: ClaimIn, runtime: RuntimeDep, key: KeyDep,
                request: Request) -> Response:
    """Open an invite link as an identity: the seat of the link's token becomes yours (your
    player key opens it on any device from now on). Answers your view there."""
    await take_seat_rate(runtime, request)
    player = await runtime.db(runtime.master.player, key)
    done = await runtime.db(runtime.master.claim_seat, table_id, body.token, player)
    await runtime.after_change(done)
    loaded, seat = await open_table(runtime, table_id, key)
    return Response(runtime.view_text(loaded, seat), media_type="application/json")


@router.post("/{table_id}/start", response_model=TableViewModel, responses=PROBLEMS)
async def start(table_id: str, runtime: RuntimeDep, token: TokenDep,
                body: StartIn | None = None) -> Response:
    """The host starts a waiting table now: bots (``level``, default medium) take the
    seats nobody has taken; then the cards are dealt and the dice rolled."""
    _, seat = await open_table(runtime, table_id, token)
    if seat is None:
        raise errors.Unauthorized("starting a table needs the host's seat token or key")
    # The token is checked again in the transaction that starts the table.
    done = await runtime.db(runtime.master.start, table_id, seat,
                            body.level if body else DEFAULT_LEVEL, token)
    await runtime.after_change(done)
    return Response(runtime.view_text(done, seat), media_type="application/json")


@router.post("/{table_id}/undo", response_model=TableViewModel, responses=PROBLEMS)
async def ask_undo(table_id: str, runtime: RuntimeDep, token: TokenDep,
                   request: Request) -> Response:
    """Ask to take back your last move (and everything after it): every other person at
    the table must accept (``POST …/undo/accept``); bots accept. With nobody to ask it is
    taken back at once."""
    return await _seat_act(runtime, table_id, token, runtime.master.ask_undo, request)


@router.post("/{table_id}/undo/accept", response_model=TableViewModel, responses=PROBLEMS)
async def accept_undo(table_id: str, runtime: RuntimeDep, token: TokenDep,
                      request: Request) -> Response:
    """Accept the take-back asked for; the last to accept takes the moves back."""
    return await _seat_act(runtime, table_id, token,
                       functools.partial(_answer, runtime, accept=True), request)


@router.post("/{table_id}/undo/decline", response_model=TableViewModel, responses=PROBLEMS)
async def decline_undo(table_id: str, runtime: RuntimeDep, token: TokenDep,
                       request: Request) -> Response:
    """Decline the take-back asked for (the one who asked withdraws it so)."""
    return await _seat_act(runtime, table_id, token,
                       functools.partial(_answer, runtime, accept=False), request)


def _answer(runtime: Runtime, table_id: str, seat: int, token: str | None, *,
            accept: bool) -> Loaded:
    return runtime.master.answer_undo(table_id, seat, accept, token)


async def _seat_act(runtime: Runtime, table_id: str, token: str | None, act: Any,
                    request: Request) -> Response:
    """A seat's change to the table other than a move (a take-back's steps, resigning):
    counted as a move, of the seat and of the client address (as play() counts one)."""
    _, seat = await open_table(runtime, table_id, token)
    if seat is None:
        raise errors.Unauthorized("this needs a seat's token or player key")
    lim = runtime.limits
    runtime.moves.check((table_id, seat), f"a seat may move {lim.move_burst} times at once "
                                          f"and {lim.moves_per_second:g} times a second")
    runtime.client_moves.check(client_address(request),
                               f"one address may move {lim.client_move_burst} times at once "
                               f"and {lim.client_moves_per_second:g} a second")
    # The token is checked again against the table the write is guarded by (its seat
    # revision): one revoked since open_table changes nothing (403 or 409).
    done = await runtime.db(act, table_id, seat, token)
    await runtime.after_change(done)
    return Response(runtime.view_text(done, seat), media_type="application/json")


@router.post("/{table_id}/reclaim", response_model=TableViewModel, responses=PROBLEMS)
async def reclaim(table_id: str, runtime: RuntimeDep, token: TokenDep) -> dict[str, Any]:
    """Take your seat back from the bot that played it while you were away."""
    loaded, seat = await open_table(runtime, table_id, token)
    if seat is None:
        raise errors.Unauthorized("reclaiming a seat needs its token")
    if loaded.seats[seat].kind != HUMAN:
        raise errors.Conflict(f"seat {seat} is a bot's seat")
    # The token is checked again in the transaction that gives the seat back.
    done = await runtime.db(runtime.master.reclaim, table_id, seat, token)
    await runtime.after_change(done)
    return await in_thread(runtime.view, done, seat)


@router.post("/{table_id}/resign", response_model=TableViewModel, responses=PROBLEMS)
async def resign(table_id: str, runtime: RuntimeDep, token: TokenDep,
                 request: Request) -> Response:
    """Give up: the game ends now, you place last and everyone else shares first (a rated
    table rates it so). The host of a table still waiting for people closes it so, unplayed.
    Either way the table no longer counts among its creator's open tables."""
    return await _seat_act(runtime, table_id, token, runtime.master.resign, request)


@router.post("/{table_id}/rematch", response_model=Rematched, responses=PROBLEMS)
async def rematch(table_id: str, runtime: RuntimeDep, token: TokenDep,
                  request: Request) -> Rematched:
    """After the end: the same people and bots at a new table, a new seed, seats rotated.
    The first to ask makes it; everyone asks with their own seat token (or player key) and
    learns only their own new seat token. The old table's view names it (``rematch``)."""
    loaded, seat = await open_table(runtime, table_id, token)
    if seat is None or token is None:
        raise errors.Unauthorized("a rematch is asked for by a seat's token or player key")
    client = client_address(request)
    if loaded.meta.rematch_id is None and loaded.meta.status == FINISHED:
        # The first to ask makes a table: counted as one created (else a chain of rematches
        # of tables lost on time made tables past the rate without a move), and among the
        # asker's open tables (the old creator's let a stranger fill a host's).
        await take_table_rate(runtime, client)
    new_id, new_seat, new_tok = await runtime.db(runtime.master.rematch, table_id, seat, token,
                                                 client)
    await runtime.publish(table_id)
    runtime.kick(await runtime.db(runtime.master.load, new_id))
    return Rematched(table=new_id, seat=new_seat, token=new_tok,
                     invite_url=None if new_tok is None else invite_url(runtime, new_id,
                                                                        new_tok),
                     spectator_url=spectator_url(runtime, new_id))


@router.get("/{table_id}/picture.svg", responses={
    200: {"content": {"image/svg+xml": {}}},
    304: {"description": "Not modified (``If-None-Match`` named its ETag)"}, **PROBLEMS})
async def picture(
    table_id: str, runtime: RuntimeDep, token: TokenDep,
    if_none_match: Annotated[str | None, Header(description="The ETag of the picture you "
                                                            "hold.")] = None,
) -> Response:
    """An SVG of the table as your seat sees it (without a token: as a spectator sees it,
    no hidden card), for games that draw (``picture`` in GET /api/games). Drawn once per
    table version and seat (or spectator) and kept (``limits.picture_cache_entries``,
    ``picture_cache_bytes``); its ``ETag`` answers ``If-None-Match`` with 304."""
    loaded, seat = await open_table(runtime, table_id, token)
    picture = capabilities(loaded.meta.game).picture
    if picture is None:
        raise errors.NotFound(f"{loaded.state.game.title} has no picture")
    if not loaded.meta.started:  # nothing is dealt yet, so nothing is drawn
        raise errors.Waiting(waiting_line(loaded), version=loaded.version)
    m = loaded.meta
    # The seat is part of the key: one seat's picture (its hidden cards) is never
    # another's, nor a spectator's.
    key = (table_id, m.undos, m.version, seat)
    kept: tuple[bytes, str] | None = runtime.pictures.get(key)
    if kept is None:
        try:
            svg = await in_thread(lambda: picture.render_svg(loaded.state, seat))
        except BigtopError as e:
            raise errors.Unprocessable(str(e)) from None
        body = svg.encode()
        kept = (body, f'"{hashlib.sha256(body).hexdigest()[:32]}"')
        runtime.pictures.put(key, kept, len(body))
    body, etag = kept
    headers = {"ETag": etag, "Vary": "Authorization",
               "Cache-Control": picture_caching(m.status == FINISHED, seat is not None)}
    if if_none_match is not None and etag_matches(if_none_match, etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="image/svg+xml", headers=headers)


def picture_caching(finished: bool, seat: bool) -> str:
    """``Cache-Control`` of a picture: a seat's only in its own browser (``private``); a
    live table's asked again each time (``no-cache``: revalidated, a 304 while it did not
    change), a finished one's kept an hour (it never changes again).

    >>> picture_caching(False, True), picture_caching(True, False)
    ('private, no-cache', 'public, max-age=3600')
    """
    return ("private" if seat else "public") + (", max-age=3600" if finished else ", no-cache")


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (or ``*``); weak ones compare
    equal to strong ones (RFC 9110's weak comparison, as for GET).

    >>> etag_matches('W/"ab", "cd"', '"ab"'), etag_matches('"cd"', '"ab"')
    (True, False)
    """
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False
