"""`bigtop compare` (two rule variants on the same seeds) and `bigtop tournament` (a rated
round robin between bots)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
import typer.core
from rich.console import Console

from bigtop.cli._app import OptionArg, app, fail, game_options
from bigtop.cli._lab import (
    BotsArg,
    JsonArg,
    OutArg,
    PlayersArg,
    RayArg,
    RotateArg,
    SeedArg,
    WorkersArg,
    ci,
    emit,
    play_and_write,
    resolve_bots,
    table,
    workers_or_default,
)
from bigtop.core.errors import BigtopError
from bigtop.core.limits import MAX_GAMES
from bigtop.sim.runner import check_games

VS_KEY = "bigtop.vs_options"


def split_vs(args: list[str]) -> tuple[list[str], list[str]]:
    """Take variant B's rule options out of a command line: every ``-o``/``--option`` after
    ``--vs`` (and bare ``KEY=VALUE`` words right after it) belong to B; everything else is
    left for the usual parsing.

    >>> split_vs(["scout", "-o", "a=1", "--vs", "-o", "a=2", "-n", "5", "--option=b=3"])
    (['scout', '-o', 'a=1', '--vs', '-n', '5'], ['a=2', 'b=3'])
    >>> split_vs(["scout", "-o", "a=1", "--vs", "a=2", "c=4"])
    (['scout', '-o', 'a=1', '--vs'], ['a=2', 'c=4'])
    """
    if "--vs" not in args:
        return args, []
    at = args.index("--vs")
    rest, b = list(args[:at + 1]), []
    tail = args[at + 1:]
    i = 0
    while i < len(tail) and "=" in tail[i] and not tail[i].startswith("-"):
        b.append(tail[i])
        i += 1
    while i < len(tail):
        word = tail[i]
        if word in ("-o", "--option") and i + 1 < len(tail):
            b.append(tail[i + 1])
            i += 2
            continue
        if word.startswith("--option="):
            b.append(word.removeprefix("--option="))
        elif word.startswith("-o") and len(word) > 2 and not word.startswith("--"):
            b.append(word[2:])
        else:
            rest.append(word)
        i += 1
    return rest, b


class _VsCommand(typer.core.TyperCommand):
    """Lets ``-o`` appear on both sides of ``--vs`` (Click would merge the two groups)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args.count("--vs") > 1:  # a third variant, or B's options split in two?
            raise typer.BadParameter("give it once: every -o after it is variant B's",
                                     ctx=ctx, param_hint="'--vs'")
        rest, b = split_vs(list(args))
        ctx.meta[VS_KEY] = b
        return list(super().parse_args(ctx, rest))


def _changed(options: dict[str, Any]) -> str:
    """``KEY=VALUE`` as typed on the command line (booleans as true/false)."""
    return ", ".join(f"{k}={json.dumps(v) if isinstance(v, bool) else v}"
                     for k, v in options.items()) or "the defaults"


@app.command(name="compare", cls=_VsCommand)
def compare_cmd(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game name, see `bigtop games`.")],
    players: PlayersArg = 3,
    games_: Annotated[int, typer.Option(
        "--games", "-n", help=f"Games per variant (at most {MAX_GAMES:,}).")] = 200,
    seed: SeedArg = 0,
    option: OptionArg = None,
    vs: Annotated[bool, typer.Option(
        "--vs", help="Variant B's rule options follow: --vs -o KEY=VALUE … (nothing after "
        "it: the default rules). Options before --vs are variant A's.")] = False,
    bots: BotsArg = None,
    rotate: RotateArg = False,
    workers: WorkersArg = None,
    ray: RayArg = None,
    out: OutArg = None,
    as_json: JsonArg = False,
) -> None:
    """Play two rule variants on the same seeds; print each statistic's paired difference
    B − A with its 95% interval and which differences are significant."""
    from bigtop.sim.compare import TEST, compare

    try:
        if not vs:
            raise BigtopError("say variant B after --vs, e.g. -o rounds=1 --vs -o rounds=2")
        check_games(games_, "--games")
        opts_a = game_options(game, option)
        opts_b = game_options(game, ctx.meta.get(VS_KEY, []))
        given = resolve_bots(bots, None)
        n_workers = workers_or_default(workers, ray)
        # compare() checks everything before the first game is played.
        from bigtop.sim.output import write_comparison

        c, doc = play_and_write(
            f"{game} A/B ×{games_}", games_, out, lambda progress: compare(
                game, players, games_, seed, opts_a, opts_b, given, progress, rotate=rotate,
                workers=n_workers, ray_address=ray, keep_states=out is not None),
            lambda c: len(c.a.records), write_comparison)
    except BigtopError as e:
        fail(str(e))

    def report(console: Console) -> None:
        va, vb = doc["variants"]["A"], doc["variants"]["B"]
        console.print(f"[bold]{c.a.game.title}[/]: {doc['games']} games per variant on the "
                      f"same seeds, {players} players, seed {seed}, bots "
                      f"{', '.join(c.a.bots)}" + (" (rotated)" if rotate else ""))
        console.print(f"A: {_changed(va['changed'])}")
        console.print(f"B: {_changed(vb['changed'])}")
        t = table("B − A, paired per deal", ["statistic", "A", "B", "B − A", "95% CI", "p",
                                              ""])
        for row in doc["differences"]:
            digits = 3 if row["kind"] in ("win rate", "outcome") else 2
            t.add_row(row["statistic"], f"{row['a']:.{digits}f}", f"{row['b']:.{digits}f}",
                      f"{row['difference']:+.{digits}f}", ci(row["ci95"], digits),
                      f"{row['p_value']:.3f}", "[bold]*[/]" if row["significant"] else "")
        console.print(t)
        console.print(f"* {TEST}")
        if doc["interrupted"]:
            console.print(f"[bold yellow]interrupted:[/] {doc['games']} of "
                          f"{doc['requested_games']} pairs finished (the first ones)")

    emit(doc, as_json, c.a.interrupted, out, report)


@app.command(name="tournament")
def tournament_cmd(
    game: Annotated[str, typer.Argument(help="Game name, see `bigtop games`.")],
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="Two or more different bots, comma-separated.")],
    players: PlayersArg = 3,
    games_: Annotated[int | None, typer.Option(
        "--games", "-n", help="Games per table, a multiple of the players (every deal in "
        f"every seating; at most {MAX_GAMES:,} games in all). Default: 5 deals.")] = None,
    seed: SeedArg = 0,
    option: OptionArg = None,
    workers: WorkersArg = None,
    ray: RayArg = None,
    out: OutArg = None,
    as_json: JsonArg = False,
) -> None:
    """A round robin between bots at every table of PLAYERS seats; prints an openskill
    leaderboard (rating μ, uncertainty σ) with plain win rates and places."""
    from bigtop.core.registry import new_game
    from bigtop.sim.tournament import RATING, check_total, tables, tournament

    try:
        opts = game_options(game, option)
        # The engine checks the player count first: the line-ups below need a valid one
        # (a negative count made itertools fail with an internal error).
        new_game(game, players, opts)
        names = resolve_bots(bots, None)
        per_table = games_ if games_ is not None else 5 * players
        check_games(per_table, "--games")
        n_workers = workers_or_default(workers, ray)
        # Refused before anything starts (no progress bar, no --out folder).
        total = check_total(len(tables(names, players)), per_table)
        from bigtop.sim.output import write_tournament

        t, doc = play_and_write(
            f"{game} round robin ×{total}", total, out, lambda progress: tournament(
                game, players, names, per_table, seed, opts, progress, workers=n_workers,
                ray_address=ray, keep_states=out is not None),
            lambda t: len(t.records), write_tournament)
    except BigtopError as e:
        fail(str(e))

    def report(console: Console) -> None:
        console.print(f"[bold]{t.game.title}[/]: round robin of {len(t.bots)} bots, "
                      f"{len(t.tables)} tables of {players} × {per_table} games "
                      f"({len(t.records)} games), seed {seed}")
        board = table("leaderboard", ["#", "bot", "μ", "σ", "μ − 3σ", "games", "win rate",
                                      "95% CI", "place"], 2)
        for row in doc["leaderboard"]:
            played = row["seat_games"] > 0  # (an interrupted run may not reach every bot)
            board.add_row(str(row["rank"]), row["bot"], f"{row['mu']:.2f}",
                          f"{row['sigma']:.2f}", f"{row['ordinal']:.2f}",
                          str(row["seat_games"]),
                          f"{row['win_rate']:.3f}" if played else "–",
                          ci(row["win_rate_ci95"]) if played else "–",
                          f"{row['place_mean']:.2f}" if played else "–")
        console.print(board)
        console.print(f"[dim]rating: {RATING}; games: seats held; win rate per seat "
                      "held, 95% interval of per-deal means[/]")
        if t.interrupted:
            console.print(f"[bold yellow]interrupted:[/] {len(t.records)} of {total} games "
                          "finished (the first ones)")

    emit(doc, as_json, t.interrupted, out, report)
