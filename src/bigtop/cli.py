"""The ``bigtop`` command line.

``bigtop games`` lists games, player counts and rule options; ``bigtop play GAME`` plays in the
terminal against bots; ``bigtop simulate GAME`` runs many seeded bot games.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from bigtop.agents.base import play_random
from bigtop.core.errors import BigtopError
from bigtop.core.game import CHANCE, State
from bigtop.core.options import parse_option_pairs
from bigtop.core.registry import list_games, new_game
from bigtop.core.rng import check_seed
from bigtop.sim.runner import AGENT_KINDS, make_agent, simulate

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Play, simulate and study Tricky Landing, SCOUT, So ein Zirkus and Clown 15 Go.",
)
err = Console(stderr=True, soft_wrap=True)

OptionArg = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Rule option KEY=VALUE (repeatable); see `bigtop games`."),
]


def _fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(2)


@app.command()
def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the games, their player counts and rule options."""
    infos = list_games()
    if as_json:
        out = [{
            "name": g.name, "title": g.title, "min_players": g.min_players,
            "max_players": g.max_players,
            "options": [{"name": o.name, "type": o.type, "default": o.default, "doc": o.doc,
                         "choices": list(o.choices) if o.choices else None,
                         "minimum": o.minimum, "maximum": o.maximum, "quote": o.quote}
                        for o in g.options],
        } for g in infos]
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    console = Console()
    for g in infos:
        table = Table(title=f"{g.title}  ({g.name}, {g.min_players}–{g.max_players} players)",
                      title_justify="left", show_lines=False)
        table.add_column("option")
        table.add_column("default")
        table.add_column("values")
        table.add_column("meaning")
        for o in g.options:
            if o.choices:
                values = " | ".join(map(str, o.choices))
            else:
                lo = "" if o.minimum is None else f"{o.minimum:g}"
                hi = "" if o.maximum is None else f"{o.maximum:g}"
                values = f"{o.type} {lo}..{hi}" if (lo or hi) else o.type
            table.add_row(o.name, str(o.default), values, o.doc)
        console.print(table)


def _read_human_action(state: State, seat: int, console: Console) -> Any:
    legal = state.legal_actions()
    listed = len(legal) <= 80
    if listed:
        for i, a in enumerate(legal):
            console.print(f"  [cyan]{i:>3}[/] {state.describe(a)}")
    else:
        console.print(f"  ({len(legal)} legal actions; type one, or 'list' to see them all)")
    while True:
        try:
            text = input(f"P{seat}> ").strip()
        except EOFError:
            console.print("\nbye")
            raise typer.Exit(0) from None
        if text in ("q", "quit", "exit"):
            raise typer.Exit(0)
        if text in ("?", "help"):
            example = json.dumps(legal[0].to_json())
            console.print("Type the number of a listed action, an action as JSON "
                          f"(e.g. {example}), a game-specific move, 'list' or 'quit'.",
                          markup=False, highlight=False)
            continue
        if text == "list":
            for i, a in enumerate(legal):
                console.print(f"  [cyan]{i:>3}[/] {state.describe(a)}")
            continue
        if text == "":
            continue
        try:
            if text.isdigit() and listed:
                index = int(text)
                if not 0 <= index < len(legal):
                    raise BigtopError(f"choose a number from 0 to {len(legal) - 1}")
                return legal[index]
            if text.startswith("{"):
                try:
                    obj = json.loads(text)
                except json.JSONDecodeError as e:
                    raise BigtopError(f"that is not valid JSON: {e.msg}") from None
                action = state.game.action_from_json(obj)
            else:
                action = state.action_from_text(text)
            # Probe legality on a copy so a bad entry changes nothing.
            state.clone().apply(action)
            return action
        except BigtopError as e:
            console.print(f"[red]{e}[/] — try again ('help' explains the input)")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game name, see `bigtop games`.")] = "scout",
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 3,
    seed: Annotated[int, typer.Option(help="Seed for the deal and all chance.")] = 0,
    seat: Annotated[int, typer.Option(help="Your seat (0 plays first).")] = 0,
    bots: Annotated[str, typer.Option(help="Bots: heuristic, random or ismcts.")] = "heuristic",
    option: OptionArg = None,
    confirm_forced: Annotated[bool, typer.Option(
        help="Ask for your move even when only one is legal (by default it is played and "
        "shown).")] = False,
) -> None:
    """Play a game in the terminal against bots."""
    console = Console()
    try:
        check_seed(seed)
        g = new_game(game, players, parse_option_pairs(option or []))
        if not 0 <= seat < players:
            raise BigtopError(f"seat must be 0..{players - 1}")
        if bots not in AGENT_KINDS:
            raise BigtopError(f"bots must be one of {', '.join(AGENT_KINDS)}")
    except BigtopError as e:
        _fail(str(e))
        return
    state = g.new_initial_state(seed)
    agents = {p: make_agent(bots, g, p, seed * 31 + p) for p in range(players) if p != seat}
    console.print(f"[bold]{g.title}[/] — {players} players, you are P{seat}. "
                  "Type 'help' for how to enter moves.")
    for note in g.notes():
        console.print(f"[yellow]{note}[/]", highlight=False)
    last_shown: str | None = None
    while not state.is_terminal():
        p = state.current_player()
        if p == CHANCE:
            action = state.sample_chance()
            console.print(f"[dim]{state.describe(action)}[/]")
            state.apply(action)
            continue
        if p == seat:
            view = state.render(seat)
            if view != last_shown:
                console.rule()
                console.print(view, markup=False, highlight=False)
                last_shown = view
            if len(state.legal_actions()) == 1 and not confirm_forced:
                action = state.legal_actions()[0]
                console.print("[dim](your only move)[/]")
            else:
                action = _read_human_action(state, seat, console)
        else:
            action = agents[p].act(state)
        console.print(f"[green]{state.describe(action)}[/]")
        state.apply(action)
    console.rule("game over")
    console.print(state.render(seat), markup=False, highlight=False)
    result = state.result()
    console.print(f"Scores: {result['scores']}  Winners: "
                  + ", ".join(f"P{w}" for w in result["winners"]))


@app.command(name="simulate")
def simulate_cmd(
    game: Annotated[str, typer.Argument(help="Game name, see `bigtop games`.")],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 3,
    games_: Annotated[int, typer.Option("--games", "-n", help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    option: OptionArg = None,
    agents: Annotated[str, typer.Option(
        help="Comma-separated agent per seat (cycled): random, heuristic, ismcts.")] = "random",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document only.")] = False,
) -> None:
    """Play many seeded bot games; print win rates, scores and game lengths."""
    try:
        opts = parse_option_pairs(option or [])
        kinds = [a.strip() for a in agents.split(",") if a.strip()]
        new_game(game, players, opts)  # validate before showing a progress bar
        check_seed(seed)
    except BigtopError as e:
        _fail(str(e))
        return
    show_progress = sys.stderr.isatty()
    try:
        if show_progress:
            from rich.progress import Progress

            with Progress(console=err, transient=True) as bar:
                task = bar.add_task(f"{game} ×{games_}", total=games_)
                run = simulate(game, players, games_, seed, opts, kinds,
                               progress=lambda i: bar.update(task, completed=i))
        else:
            run = simulate(game, players, games_, seed, opts, kinds)
    except BigtopError as e:
        _fail(str(e))
        return
    if as_json:
        typer.echo(json.dumps(run.to_json(), ensure_ascii=False))
        return
    summary = run.summary()
    console = Console()
    table = Table(title=f"{run.game.title}: {summary['games']} games, {players} players, "
                        f"seed {seed}", title_justify="left")
    for col in ("seat", "agent", "win rate", "95% CI", "mean score", "sd", "95% CI of mean"):
        table.add_column(col)
    for s in summary["seats"]:
        table.add_row(
            f"P{s['seat']}", s["agent"], f"{s['win_rate']:.3f}",
            "{:.3f}–{:.3f}".format(*s["win_rate_ci95"]), f"{s['score_mean']:.2f}",
            f"{s['score_sd']:.2f}", "{:.2f}–{:.2f}".format(*s["score_mean_ci95"]))
    console.print(table)
    console.print(f"actions per game: {summary['actions_mean']:.1f} "
                  "(95% CI {:.1f}–{:.1f}); shared wins: {}".format(
                      *summary["actions_mean_ci95"], summary["shared_wins"]))
    k = summary["games"]
    for key, counts in summary["outcomes"].items():
        console.print(f"{key}: " + ", ".join(
            f"{value} {n} ({100 * n / k:.1f}%)" for value, n in counts.items()))


def _load_state_file(path: str) -> State:
    from pathlib import Path

    from bigtop.core.registry import load_state

    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text()
    except OSError as e:
        raise BigtopError(f"cannot read {path}: {e.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise BigtopError(f"{path} is not JSON: {e.msg} (line {e.lineno})") from None
    return load_state(data)


@app.command()
def state(
    game: Annotated[str, typer.Argument(help="Game name, see `bigtop games`.")],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the deal and all chance.")] = 0,
    actions: Annotated[int, typer.Option(help="Random actions to play first.")] = 0,
    option: OptionArg = None,
) -> None:
    """Print a state as JSON: a fresh deal, or after some random actions (for `render`,
    bug reports and hand-editing into puzzles)."""
    import random

    try:
        check_seed(seed)
        g = new_game(game, players, parse_option_pairs(option or []))
        if actions < 0:
            raise BigtopError("actions must be 0 or more")
    except BigtopError as e:
        _fail(str(e))
        return
    s = g.new_initial_state(seed)
    play_random(s, random.Random(seed), max_actions=actions)
    typer.echo(json.dumps(s.to_json(), ensure_ascii=False))


@app.command()
def render(
    path: Annotated[str, typer.Argument(help="A state JSON file (from `bigtop state`), or -.")],
    player: Annotated[int | None, typer.Option(
        help="Draw what this seat may see (default: everything).")] = None,
    out: Annotated[str | None, typer.Option(
        help="Write a picture (.svg or .png) where the game has one; else print text.")] = None,
) -> None:
    """Show a state: a text view, or a picture for games that draw (Tricky Landing)."""
    from bigtop.core.registry import game_module

    try:
        s = _load_state_file(path)
        n = s.game.num_players
        if player is not None and not 0 <= player < n:
            raise BigtopError(f"player must be 0..{n - 1}")
        if out is None:
            typer.echo(s.render(player))
            return
        module = game_module(s.game.name)
        suffix = out.rsplit(".", 1)[-1].lower()
        if suffix not in ("svg", "png"):
            raise BigtopError("--out must end in .svg or .png")
        if not hasattr(module, "render_svg"):
            raise BigtopError(f"{s.game.title} has no picture; leave out --out for text")
        if suffix == "svg":
            from pathlib import Path

            Path(out).write_text(module.render_svg(s, player=player))
        else:
            module.render_png(s, out, player=player)
    except BigtopError as e:
        _fail(str(e))
        return
    except OSError as e:
        _fail(f"cannot write {out}: {e.strerror}")
        return
    err.print(f"wrote {out}")


@app.command()
def replay(
    path: Annotated[str, typer.Argument(help="A state JSON file (from `bigtop state`), or -.")],
) -> None:
    """Replay a game from its seed and history, one line per action."""
    try:
        saved = _load_state_file(path)
    except BigtopError as e:
        _fail(str(e))
        return
    s = saved.game.new_initial_state(saved.seed)
    for i, action in enumerate(saved.history, 1):
        try:
            line = s.describe(action)
            s.apply(action)
        except BigtopError as e:
            _fail(f"action {i} does not replay from a fresh deal: {e}")
            return
        typer.echo(f"{i:>5}  {line}")
    if s != saved:
        _fail("the history does not lead to the saved position (it was hand-edited?)")
        return
    if s.is_terminal():
        result = s.result()
        typer.echo(f"final scores {result['scores']}, winners "
                   + ", ".join(f"P{w}" for w in result["winners"]))


def main() -> None:  # pragma: no cover
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
