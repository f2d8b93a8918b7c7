"""What a clock costs a move: the table master playing two-person SCOUT tables on SQLite (a
file, as `bigtop serve` uses), a table without a clock beside one with a game clock and
increment (the move then also writes the next deadline and the mover's clock), in turns in
the same process, so the ratio holds however busy the machine is.

    .venv/bin/python bench/bench_clocks.py --moves 300 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import TableSpec
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage


def per_move(master: TableMaster, clock: dict[str, Any] | None, moves: int) -> float:
    """Microseconds per stored move (a person's, by seat token) at a new table."""
    made = master.create(TableSpec("scout", 2, options={"rounds": 20}, clock=clock))
    for seat, token in made.tokens.items():
        master.touch(made.table_id, seat, token)  # both arrived: the clock runs
    table = master.load(made.table_id)
    done = 0
    start = time.perf_counter()
    while done < moves and table.meta.status == "playing":
        p = table.state.current_player()
        table = master.play(made.table_id, p, table.version, {"index": 0},
                            token=made.tokens[p])
        done += 1
    return (time.perf_counter() - start) / done * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        engine = make_engine(url)
        migrate(engine)
        master = TableMaster(SqlStorage(engine), Settings(db_url=url))
        plain, clocked = [], []
        for _ in range(args.rounds):
            plain.append(per_move(master, None, args.moves))
            clocked.append(per_move(master, {"game_seconds": 10**6, "increment_seconds": 1},
                                    args.moves))
    a, b = statistics.median(plain), statistics.median(clocked)
    print(f"no clock:   {a:7.0f} µs a move (median of {args.rounds})")
    print(f"game clock: {b:7.0f} µs a move; ratio {b / a:.2f}")


if __name__ == "__main__":
    main()
