"""What `simulate`, `compare` and `tournament` share: their options, the progress bar, the
bot line-up and the tables (each fits 80 columns)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Protocol, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from bigtop.agents.levels import BOT_NAMES
from bigtop.cli._app import err
from bigtop.core.errors import BigtopError
from bigtop.sim.runner import Progress as ProgressFn
from bigtop.sim.runner import default_workers, parse_bots

BotsArg = Annotated[str | None, typer.Option(
    "--bots", "-b",
    help=f"Bots per seat, comma-separated ({', '.join(BOT_NAMES)}); fewer than the seats "
    "are cycled. Default: random.")]
AgentsArg = Annotated[str | None, typer.Option(
    "--agents", hidden=True, help="Deprecated: the old name of --bots.")]
RotateArg = Annotated[bool, typer.Option(
    "--rotate", help="Play every deal once per rotation of the line-up through the seats "
    "(--games must be a multiple of the players): separates seat advantage from bot "
    "strength.")]
WorkersArg = Annotated[int | None, typer.Option(
    "--workers", "-w", help="Worker processes (default: every core; at most 4 per core).")]
RayArg = Annotated[str | None, typer.Option(
    "--ray", metavar="ADDRESS",
    help="Run the games on the Ray cluster at ADDRESS (needs the extra: pip install "
    "bigtop\\[ray]).")]
OutArg = Annotated[str | None, typer.Option(
    "--out", metavar="DIR", help="Write games.csv, games.parquet, summary.json, every "
    "game's state (for `bigtop replay`) and PNG plots to DIR, a new or empty folder.")]
JsonArg = Annotated[bool, typer.Option("--json", help="Print one JSON document only.")]
SeedArg = Annotated[int, typer.Option(help="Seed of the whole run.")]
PlayersArg = Annotated[int, typer.Option("--players", "-p", help="Number of players.")]

INTERRUPTED = 130
"""The exit code after a Ctrl-C (128 + SIGINT), once what finished is reported."""


def resolve_bots(bots: str | None, agents: str | None) -> list[str]:
    """The bots from ``--bots`` (or the deprecated ``--agents``); default one random bot."""
    if bots is not None and agents is not None:
        raise BigtopError("give --bots only (--agents is its old name)")
    text = bots if bots is not None else agents
    return ["random"] if text is None else parse_bots(text)


WORKERS_PER_CORE = 4
"""``--workers`` may ask at most this many processes per core of this machine."""


def workers_or_default(workers: int | None, ray: str | None = None) -> int:
    """``--workers``, or every core. Without Ray a process is started per worker (up to one
    per game), so a slip like ``-w 1000`` would start a thousand of them: more than
    :data:`WORKERS_PER_CORE` per core is refused (they would not play any faster)."""
    if workers is None:
        return default_workers()
    if workers < 1:
        raise BigtopError(f"--workers must be 1 or more, got {workers}")
    most = WORKERS_PER_CORE * default_workers()
    if ray is None and workers > most:
        raise BigtopError(f"--workers must be at most {most} here ({WORKERS_PER_CORE} per "
                          f"core; more processes than cores play no faster), got {workers:,}")
    return workers


class _Speed(ProgressColumn):
    """Games per second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("–  games/s" if speed is None else f"{speed:.1f} games/s")


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[ProgressFn | None]:
    """A progress bar on stderr with games/s and the time left, only when stderr is a
    terminal; yields the callback to give the runner (None without a terminal)."""
    if not err.is_terminal:
        yield None
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  _Speed(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                  console=err, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


class Result(Protocol):
    def to_json(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=Result)


def play_and_write(label: str, total: int, out: str | None,
                   play: Callable[[ProgressFn | None], R], finished: Callable[[R], int],
                   write: Callable[[R, dict[str, Any], str], object]) -> tuple[R, dict[str, Any]]:
    """Check ``--out`` first, then ``play(progress)`` under a progress bar (a run stopped
    before its first game is an error), then ``write`` the files; returns the result and its
    JSON document."""
    if out is not None:
        from bigtop.sim.output import prepare_dir

        prepare_dir(out)
    with progress_bar(total, label) as progress:
        result = play(progress)
    if finished(result) == 0:
        err.print("[bold red]error:[/] interrupted before any game finished")
        raise typer.Exit(INTERRUPTED)
    doc = result.to_json()
    if out is not None:
        write(result, doc, out)
    return result, doc


def emit(doc: dict[str, Any], as_json: bool, interrupted: bool, out: str | None,
         report: Callable[[Console], None]) -> None:
    """Print ``doc`` as one JSON document, or the report; then exit 130 after a Ctrl-C."""
    if as_json:
        typer.echo(json.dumps(doc, ensure_ascii=False))
    else:
        console = report_console()
        report(console)
        if out is not None:
            console.print(f"files: {out}/ (games.csv, games.parquet, summary.json, games/, "
                          "*.png)")
    if interrupted:
        raise typer.Exit(INTERRUPTED)


def table(title: str, columns: list[str], left: int = 1) -> Table:
    """A compact table (no outer box, the first ``left`` columns left-aligned, numbers
    right-aligned) so that reports fit 80 columns."""
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for i, col in enumerate(columns):
        t.add_column(col, justify="left" if i < left else "right")
    return t


def ci(pair: list[float] | None, digits: int = 3) -> str:
    """``low–high``, or a dash where there is no interval (one deal)."""
    if pair is None:
        return "–"
    lo, hi = pair
    return f"{lo:.{digits}f}–{hi:.{digits}f}"


def report_console() -> Console:
    return Console(soft_wrap=False)


def print_rates(console: Console, summary: dict[str, Any]) -> None:
    """The per-seat and per-bot tables of a summary."""
    rotate = summary["rotate"]
    seats = table("per seat" + (" (every bot in every seat equally often)" if rotate else ""),
                  ["seat", "bot", "win rate", "95% CI", "score", "95% CI", "place"], 2)
    for s in summary["seats"]:
        seats.add_row(f"P{s['seat']}", "all" if rotate else s["bot"], f"{s['win_rate']:.3f}",
                      ci(s["win_rate_ci95"]), f"{s['score_mean']:.2f}",
                      ci(s["score_mean_ci95"], 2), f"{s['place_mean']:.2f}")
    console.print(seats)
    bots = summary["bots"]
    if len(bots) > 1 or rotate:
        note = "" if rotate else " (fixed seats: seat advantage is mixed in; try --rotate)"
        per_bot = table("per bot, per seat held" + note,
                        ["bot", "seat-games", "win rate", "95% CI", "score", "95% CI",
                         "place"])
        for b in bots:
            per_bot.add_row(b["bot"], str(b["seat_games"]), f"{b['win_rate']:.3f}",
                            ci(b["win_rate_ci95"]), f"{b['score_mean']:.2f}",
                            ci(b["score_mean_ci95"], 2), f"{b['place_mean']:.2f}")
        console.print(per_bot)


def print_footer(console: Console, summary: dict[str, Any]) -> None:
    """Game lengths, games with no winner or a shared win, how games ended."""
    k = summary["games"]
    nw = summary["no_winner"]
    console.print(f"actions per game: {summary['actions_mean']:.1f} "
                  f"(95% CI {ci(summary['actions_mean_ci95'], 1)})")
    console.print(f"no winner (every seat tied for first, counted as nobody's win): "
                  f"{nw['games']} ({100 * nw['rate']:.1f}%); shared wins: "
                  f"{summary['shared_wins']}")
    for key, counts in summary["outcomes"].items():
        console.print(f"{key}: " + ", ".join(
            f"{value} {n} ({100 * n / k:.1f}%)" for value, n in counts.items()))
    test = summary["seat_test"]
    if test is not None:
        verdict = "a seat advantage" if test["p_value"] < 0.05 else "no seat advantage shown"
        how = "exact p, few games" if test.get("exact") else "Pearson, win shares"
        console.print(f"equal seats? chi-square {test['chi2']:.2f} ({test['df']} df), "
                      f"p = {test['p_value']:.3f}: {verdict} at α = 0.05 [dim]({how})[/]")
    console.print(f"[dim]intervals: 95%, {summary['intervals']}[/]")
    if summary["interrupted"]:
        console.print(f"[bold yellow]interrupted:[/] {k} of {summary['requested_games']} "
                      "games finished; these are the first ones, as a shorter run would "
                      "have played them")
