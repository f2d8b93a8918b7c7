"""What storing presence (here / away, the same on every worker) costs, beside a move: the
table master on SQLite (a file, as `bigtop serve` uses), two-person SCOUT tables whose two
people have arrived, in turns in the same process, so the ratios hold however busy the
machine is.

- *a move* (the reference): a person's move stored (``TableMaster.play``);
- *the heartbeat*: the sweep's one statement storing when every present person was last
  seen (``mark_present``), per seat written;
- *away* and *back*: a person marked away by the sweep (``mark_gone``, one short
  transaction a seat) and marked here again when they come back (``arrive``): each bumps
  the table's seat revision, so every worker reads the seats again;
- *the update*: what every worker then does for its clients: another worker brings the
  table up to date (``load``) and makes the view text of each seat and a spectator, after
  a presence change beside the same after a move.

Then, at the default settings (a present seat's sighting is stored every third of
``presence_seconds``, 10 s; tables with a takeover time every sweep, 2 s), the heartbeat's
share of a table's cost when it makes one move a second (bench_server.py's load).

    .venv/bin/python bench/bench_presence.py --tables 200 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import TableSpec
from bigtop.server.runtime import Runtime
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage

SEATS = 2


@dataclass
class Bench:
    """Two workers (masters) on one database and the tables they serve."""

    master: TableMaster
    other: Runtime
    tables: list[tuple[str, dict[int, str]]]


def setup(url: str, tables: int) -> Bench:
    engine = make_engine(url)
    migrate(engine)
    settings = Settings(db_url=url)
    master = TableMaster(SqlStorage(engine), settings)
    other = Runtime(TableMaster(SqlStorage(make_engine(url)), settings), settings)
    made = []
    for _ in range(tables):
        t = master.create(TableSpec("scout", SEATS, options={"rounds": 20}))
        for seat, token in t.tokens.items():
            master.touch(t.table_id, seat, token)  # arrived: claimed and here
        other.master.load(t.table_id)
        made.append((t.table_id, dict(t.tokens)))
    return Bench(master, other, made)


def timed(fn: Callable[..., object], *args: Any, **kwargs: Any) -> float:
    """Seconds ``fn(*args, **kwargs)`` took."""
    start = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - start


def update(b: Bench, table_id: str) -> None:
    """Another worker's part of a change: the table brought up to date, the view text of
    each seat and a spectator made."""
    loaded = b.other.master.load(table_id)
    for seat in (*range(SEATS), None):
        b.other.view_text(loaded, seat)


def one_round(b: Bench) -> dict[str, float]:
    """Microseconds for each operation, averaged over the tables."""
    n = len(b.tables)
    out: dict[str, float] = {}
    # A move at each table, then the other worker's update for it.
    move = upd = 0.0
    for table_id, tokens in b.tables:
        t = b.master.load(table_id)
        p = t.state.current_player()
        move += timed(b.master.play, table_id, p, t.version, {"index": 0},
                      token=tokens[p])
        upd += timed(update, b, table_id)
    out["a move"] = move / n
    out["update after a move"] = upd / n
    # The heartbeat: every present seat in one statement.
    now = time.time()
    seen = {(table_id, s): now for table_id, _ in b.tables for s in range(SEATS)}
    out["heartbeat, per seat"] = timed(b.master.mark_present, seen) / len(seen)
    # Everybody away (one sweep), then back one by one, each followed by the update.
    gone = timed(b.master.storage.mark_gone, time.time() + 1, len(seen))
    out["away, per seat"] = gone / len(seen)
    back = upd = 0.0
    for table_id, _ in b.tables:
        for s in range(SEATS):
            back += timed(b.master.arrive, table_id, s)
            upd += timed(update, b, table_id)
    out["back, per seat"] = back / len(seen)
    out["update after a presence change"] = upd / len(seen)
    return {k: v * 1e6 for k, v in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        b = setup(f"sqlite:///{Path(folder) / 'bench.sqlite3'}", args.tables)
        rounds = [one_round(b) for _ in range(args.rounds)]
    med = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
    ref = med["a move"]
    print(f"{args.tables} tables of {SEATS} people, median of {args.rounds} rounds "
          "(µs; ratio to a move)")
    for name, us in med.items():
        print(f"  {name:32} {us:8.0f} µs  {us / ref:5.2f}")
    settings = Settings(db_url="sqlite://")
    for label, every in (("presence only", settings.presence_seconds / 3),
                         ("with takeover", settings.sweep_seconds)):
        share = SEATS * med["heartbeat, per seat"] / every / ref
        print(f"  heartbeat per table-second ({label}, every {every:g} s): "
              f"{share:.3f} of a move a second")
    print(f"  a person coming and going (away + back, two updates) costs "
          f"{(med['away, per seat'] + med['back, per seat']) / ref:.2f} moves' storing and "
          f"{2 * med['update after a presence change'] / med['update after a move']:.2f} "
          "moves' updates")


if __name__ == "__main__":
    main()
