"""Records: replay a table move by move, export a finished game as the engine's JSON."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from bigtop.core.limits import MAX_INT
from bigtop.server import errors
from bigtop.server.deps import RuntimeDep, TokenDep
from bigtop.server.edge import too_many_reads
from bigtop.server.master import state_at, waiting_line
from bigtop.server.model import FINISHED
from bigtop.server.net import client_address
from bigtop.server.routers.tables import PROBLEMS, open_table
from bigtop.server.runtime import fairness, in_thread
from bigtop.server.schemas import Replay, ReplayStep, Summary
from bigtop.server.views import named, summary

router = APIRouter(prefix="/api/tables", tags=["records"])


@router.get("/{table_id}/replay", response_model=Replay, responses=PROBLEMS)
async def replay(
    table_id: str, runtime: RuntimeDep, token: TokenDep, request: Request,
    at: Annotated[int | None, Query(ge=0, le=MAX_INT, description="Also show the position "
                                                                  "after this many moves.")] = None,
    steps: Annotated[bool, Query(description="false: leave the step list out (null), for a "
                                             "client stepping through a replay whose steps "
                                             "it has")] = True,
) -> Replay:
    """The game move by move. A finished game shows every action and (with ``at``) the whole
    state; an unfinished one only the public describe lines and, with ``at``, your own
    seat's observation then (the public one without a token). ``steps=false`` leaves the
    step list out: stepping through a long game, each position then costs what it shows,
    not the whole list again."""
    loaded, seat = await open_table(runtime, table_id, token)
    lim = runtime.limits
    if steps and loaded.version > lim.max_view_log:
        # Longer than a view's log, the step list grows with the game as an export does
        # (20,000 steps, 2 MB, cost some fifty views): a heavy read, its tokens taken
        # before it is made (server/edge.py took one).
        wait = request.app.state.reads.take(client_address(request),
                                            cost=lim.heavy_read_tokens - 1)
        if wait:
            raise too_many_reads(wait, lim)
    finished = loaded.meta.status == FINISHED
    history = loaded.state.history
    names = [s.name for s in loaded.seats]
    shown = [s.shown_name for s in loaded.seats]
    listed = [ReplayStep(version=e.version, seat=e.seat, text=named(e.text, names), bot=e.bot,
                         action=history[e.version - 1].to_json() if finished else None,
                         name=shown[e.seat] if 0 <= e.seat < len(shown) else None)
              for e in loaded.log if e.kind == "move"] if steps else None
    out = Replay(table=table_id, finished=finished, steps=listed, at=None, state=None,
                 observation=None, names=shown,
                 summary=Summary.model_validate(summary(loaded.state.result(), shown))
                 if finished else None,
                 **fairness(loaded.meta))
    if at is not None:
        if at > loaded.version:
            raise errors.Unprocessable(f"at must be 0..{loaded.version}")
        if not loaded.meta.started:  # nothing is dealt yet
            raise errors.Waiting(waiting_line(loaded), version=loaded.version)
        # From the latest stored position at or before ``at``: a bounded cost.
        found = await runtime.db(runtime.master.snapshot_at_most, table_id, at)
        state = await in_thread(state_at, loaded, at, found)
        out.at = at
        if finished:
            # The game is over: every hand and hidden card may be seen (never before).
            out.state = state.to_json()
            out.hands = [state.observation(k) for k in range(loaded.meta.players)]
        # The viewer's own view then (the public one without a token), also for a finished
        # game: the web page's replay draws it like the live table.
        out.observation = state.observation(seat)
    return out


@router.get("/{table_id}/export", responses=PROBLEMS)
async def export(table_id: str, runtime: RuntimeDep) -> dict[str, Any]:
    """The finished game as the engine's JSON (loadable by ``bigtop replay``), its ``seed``
    the one every view committed to. Refused (409) while the game goes on: the whole state
    shows every hand, and the seed every future deal."""
    loaded = await runtime.db(runtime.master.load, table_id)
    if loaded.meta.status != FINISHED:
        raise errors.Conflict("the game is not over; only a finished game can be exported "
                              "(its record shows every hand)")
    data: dict[str, Any] = loaded.state.to_json()
    return data
