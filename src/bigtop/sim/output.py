"""A run's files: one row per game (CSV and Parquet), the JSON summary, every game's state
(its action log: ``bigtop replay DIR/games/00007.json``) and the plots.

>>> from bigtop.sim.runner import simulate
>>> run = simulate("scout", 2, 2, seed=1, bots=["easy", "random"])
>>> row = game_rows(run.records)[0]
>>> [k for k in row][:8]
['game', 'deal', 'seed', 'bot_P0', 'bot_P1', 'score_P0', 'score_P1', 'place_P0']
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import shutil
import tempfile
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bigtop.core.errors import BigtopError
from bigtop.core.extras import require_extra
from bigtop.core.registry import capabilities

if TYPE_CHECKING:
    from bigtop.core.game import Game
    from bigtop.sim.compare import Comparison
    from bigtop.sim.jobs import GameRecord
    from bigtop.sim.summary import Run
    from bigtop.sim.tournament import Tournament

Scalar = str | int | float | bool | None


def prepare_dir(path: str) -> Path:
    """Check, before a run, that ``path`` can become the output folder (nothing is written
    yet); created when the run has finished. The files need the lab extra."""
    require_extra("lab", "pyarrow", "matplotlib", what="--out")
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise BigtopError(f"--out {path}: exists and is not a folder")
    if p.is_dir() and any(p.iterdir()):
        # An earlier run's games/00007.json would stay beside this run's: one folder, two runs.
        raise BigtopError(f"--out {path}: the folder is not empty (an earlier run?); give a "
                          "new folder or empty it first")
    ancestor = p
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise BigtopError(f"--out {path}: {ancestor} is not a folder")
    if not os.access(ancestor, os.W_OK):
        raise BigtopError(f"--out {path}: {ancestor} is not writable")
    return p


def _scalar(v: object) -> bool:
    return v is None or isinstance(v, str | int | float | bool)


def seat_results(game: Game) -> tuple[str, ...]:
    """The game's result fields with one value per seat (its capability record's
    ``seat_results``).

    >>> from bigtop.core.registry import new_game
    >>> seat_results(new_game("clown-15-go", 3)), seat_results(new_game("scout", 3))
    (('cards_left',), ())
    """
    return capabilities(game.name).seat_results


def game_rows(records: Sequence[GameRecord], variant: str | None = None,
              per_seat: Collection[str] = ()) -> list[dict[str, Scalar]]:
    """One flat row per game: seats as ``_P0``, ``_P1``… columns, and so the result fields
    ``per_seat`` names (:func:`seat_results`); any other list (per round, per player out)
    is JSON text, whatever its length."""
    rows: list[dict[str, Scalar]] = []
    for r in records:
        n = len(r.scores)
        row: dict[str, Scalar] = {"game": r.index, "deal": r.deal, "seed": r.seed}
        if variant is not None:
            row["variant"] = variant
        shares = r.shares()
        for name, values in (("bot", r.bots), ("score", r.scores), ("place", r.ranking),
                             ("win_share", shares), ("decisions", r.decisions)):
            for p in range(n):
                row[f"{name}_P{p}"] = values[p] if p < len(values) else None
        row["winners"] = " ".join(f"P{w}" for w in r.winners)
        row["no_winner"] = r.no_winner
        row["actions"] = r.actions
        for key, value in r.extra.items():
            if (key in per_seat and isinstance(value, list) and len(value) == n
                    and all(map(_scalar, value))):
                for p in range(n):
                    row[f"{key}_P{p}"] = value[p]
            elif _scalar(value):
                row[key] = value
            else:
                row[key] = json.dumps(value, ensure_ascii=False)
        rows.append(row)
    return rows


def write_rows(rows: Sequence[dict[str, Scalar]], folder: Path) -> None:
    """``games.csv`` and ``games.parquet``: every row gets every column (empty where its
    game, or its variant, has no such field), in the order the columns first appear."""
    require_extra("lab", "pyarrow", what="games.parquet")
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = list(dict.fromkeys(k for row in rows for k in row))
    rows = [{k: row.get(k) for k in columns} for row in rows]
    with (folder / "games.csv").open("w", newline="") as f:
        if rows:
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)
    pq.write_table(pa.Table.from_pylist(list(rows)), folder / "games.parquet")


def write_states(states: Sequence[dict[str, Any]], records: Sequence[GameRecord],
                 folder: Path, prefix: str = "") -> None:
    """Each game's finished state as ``games/<prefix><index>.json``."""
    games = folder / "games"
    games.mkdir(exist_ok=True)
    width = max(5, len(str(max((r.index for r in records), default=0))))
    for state, r in zip(states, records, strict=True):
        (games / f"{prefix}{r.index:0{width}d}.json").write_text(json.dumps(state) + "\n")


@contextmanager
def out_dir(path: str) -> Iterator[Path]:
    """The folder to write a run's files in: a hidden one, renamed to ``path`` once every
    file is written (or, where ``path`` is an empty folder already, such as the current
    one, made inside it and emptied into it), and removed (with any parent folder made for
    it) when a file cannot be written, so that ``--out`` holds a whole run or nothing."""
    p = prepare_dir(path)
    there = p.is_dir()  # empty (prepare_dir checked)
    missing = [a for a in p.parents if not a.exists()]
    made = missing[-1] if missing else None  # the outermost parent folder made for the run
    tmp: Path | None = None
    moved: list[Path] = []
    try:
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(dir=p if there else p.parent, suffix=".tmp",
                                        prefix=".bigtop-run." if there else f".{p.name}."))
            yield tmp
            if there:
                for entry in sorted(tmp.iterdir()):
                    os.replace(entry, p / entry.name)
                    moved.append(p / entry.name)
                tmp.rmdir()
            else:
                os.chmod(tmp, 0o777 & ~umask())  # as a plain new folder (mkdtemp's: 0700)
                os.replace(tmp, p)
        except OSError as e:
            raise BigtopError(f"--out {path}: cannot write the files ({e.strerror or e}); "
                              "nothing was kept") from None
    except BaseException:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        for entry in moved:  # what was moved into the folder before the failure
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    entry.unlink(missing_ok=True)
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
        raise


def umask() -> int:
    """The process's file-creation mask (read by setting it, then set back): what a plain
    new file or folder would get, for the ones made by ``tempfile`` (0600, 0700)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_json(doc: dict[str, Any], folder: Path) -> None:
    (folder / "summary.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")


def write_run(run: Run, doc: dict[str, Any], path: str) -> Path:
    """Every file of ``bigtop simulate --out`` (``doc``: the run's JSON document)."""
    from bigtop.sim.plots import plot_run

    with out_dir(path) as folder:
        write_rows(game_rows(run.records, per_seat=seat_results(run.game)), folder)
        write_json(doc, folder)
        write_states(run.states, run.records, folder)
        plot_run(run.game.title, doc["summary"], run.records, folder)
    return Path(path)


def write_comparison(c: Comparison, doc: dict[str, Any], path: str) -> Path:
    """Every file of ``bigtop compare --out``: both variants' rows (a ``variant`` column),
    states (``games/A-…``, ``games/B-…``) and plots (``A-*.png``, ``B-*.png``), and
    ``differences.png``."""
    from bigtop.sim.plots import plot_differences, plot_run

    with out_dir(path) as folder:
        write_rows(game_rows(c.a.records, "A", seat_results(c.a.game))
                   + game_rows(c.b.records, "B", seat_results(c.b.game)), folder)
        write_json(doc, folder)
        for name, run in (("A", c.a), ("B", c.b)):
            write_states(run.states, run.records, folder, f"{name}-")
            plot_run(f"{run.game.title} {name}", doc["variants"][name]["summary"], run.records,
                     folder, f"{name}-")
        plot_differences(f"{c.a.game.title}: B − A per deal", doc["differences"], folder)
    return Path(path)


def write_tournament(t: Tournament, doc: dict[str, Any], path: str) -> Path:
    """Every file of ``bigtop tournament --out``: rows, states and ``ratings.png``."""
    from bigtop.sim.plots import plot_ratings

    with out_dir(path) as folder:
        write_rows(game_rows(t.records, per_seat=seat_results(t.game)), folder)
        write_json(doc, folder)
        write_states(t.states, t.records, folder)
        plot_ratings(f"{t.game.title}: round robin ({len(t.records)} games)", doc["leaderboard"],
                     folder)
    return Path(path)
