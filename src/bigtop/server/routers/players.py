"""Players: identities without passwords. Create one (a name; answered with a secret key),
rename it, and list its tables on any device (``Authorization: Bearer KEY``)."""

from __future__ import annotations

from typing import Any, Literal, cast

from fastapi import APIRouter, Request

from bigtop.server.deps import KeyDep, RuntimeDep
from bigtop.server.model import PLAYING, Loaded
from bigtop.server.net import client_address
from bigtop.server.routers.ratings import my_rating
from bigtop.server.routers.tables import spectator_url
from bigtop.server.runtime import Runtime, current_player, fairness, seat_info, table_status, terms
from bigtop.server.schemas import Me, MyTable, NewPlayer, PlayerCreated, PlayerOut, SeatInfo

router = APIRouter(prefix="/api/players", tags=["players"])

PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"description": text, "content": {"application/problem+json": {}}}
    for code, text in [(400, "Malformed request"), (401, "No or unknown player key"),
                       (413, "Body too large"), (422, "Invalid name"),
                       (429, "Too many new players from this address")]}

Standing = Literal["your_turn", "waiting", "finished"]
ORDER = {"your_turn": 0, "waiting": 1, "finished": 2}


def table_state(loaded: Loaded, seat: int) -> Standing:
    """Where the identity stands at a table: your_turn, waiting or finished."""
    if loaded.meta.status != PLAYING:
        return "finished"
    if not loaded.meta.started:
        return "waiting"
    if (loaded.state.current_player() == seat
            and loaded.seats[seat].bot_level is None):
        return "your_turn"
    return "waiting"


def my_table(runtime: Runtime, loaded: Loaded, seat: int) -> MyTable:
    m = loaded.meta
    return MyTable(
        table=m.id, game=m.game, title=loaded.state.game.title, players=m.players,
        options=m.options, version=m.version, seat=seat,
        status=cast(Literal["waiting", "playing", "finished", "expired"], table_status(m)),
        state=table_state(loaded, seat),
        current_player=current_player(loaded), updated_at=m.updated_at,
        seats=[SeatInfo(**seat_info(s)) for s in loaded.seats],
        spectator_url=spectator_url(runtime, m.id), **fairness(m), **terms(loaded))


@router.post("", status_code=201, response_model=PlayerCreated, responses=PROBLEMS)
async def create_player(body: NewPlayer, request: Request,
                        runtime: RuntimeDep) -> PlayerCreated:
    """A new identity: its id, name and secret key (shown only here; keep it, it is the
    only way to be this player on another device)."""
    name = runtime.master.name_of(body.name)  # a bad name costs no rate
    await runtime.new_players.check(
        client_address(request),
        f"at most {runtime.limits.new_players_per_hour:g} new players an hour from one address")
    player, key = await runtime.db(runtime.master.new_player, name)
    return PlayerCreated(id=player.id, name=player.name, key=key)


@router.get("/me", response_model=Me, responses=PROBLEMS)
async def me(runtime: RuntimeDep, key: KeyDep) -> Me:
    """Your identity, your tables on every device (your turn first, then waiting, then
    finished; the last changed first in each) and your rating in each game played rated."""
    player = await runtime.db(runtime.master.player, key)
    found = await runtime.db(runtime.master.player_tables, player)
    tables = sorted((my_table(runtime, t, seat) for t, seat in found),
                    key=lambda t: (ORDER[t.state], -t.updated_at))
    rated = await runtime.db(runtime.master.storage.player_ratings, player.id)
    return Me(id=player.id, name=player.name, tables=tables,
              ratings=[my_rating(runtime, r) for r in rated])


@router.patch("/me", response_model=PlayerOut, responses=PROBLEMS)
async def rename(body: NewPlayer, request: Request, runtime: RuntimeDep,
                 key: KeyDep) -> PlayerOut:
    """Change your name (every open table you sit at shows it at once)."""
    runtime.master.name_of(body.name)  # a bad name costs no rate
    lim = runtime.limits
    # Each rename writes every open table the identity sits at and sends their sockets a
    # new view: bounded per client address like every other change.
    await runtime.renames.check(client_address(request),
                                f"at most {lim.rename_burst} renames at once and "
                                f"{lim.renames_per_hour:g} an hour from one address")
    player = await runtime.db(runtime.master.player, key)
    # And per identity: its key used from many addresses renamed it as often as each of
    # them may (every rename writes every open table it sits at, other people's too).
    await runtime.renames.check(f"player {player.id}",
                                f"one identity may be renamed {lim.rename_burst} times at "
                                f"once and {lim.renames_per_hour:g} times an hour")
    renamed, changed = await runtime.db(runtime.master.rename, player, body.name)
    for table_id in changed:
        await runtime.publish(table_id)
    return PlayerOut(id=renamed.id, name=renamed.name)
