"""`bigtop play`: a game in the terminal against bots."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console

from bigtop.agents.levels import BOT_NAMES, SEARCH_BOTS, make_bot
from bigtop.cli._app import OptionArg, app, fail
from bigtop.core.errors import BigtopError
from bigtop.core.game import CHANCE, State
from bigtop.core.options import parse_option_pairs
from bigtop.core.registry import new_game
from bigtop.core.rng import check_seed


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
    bots: Annotated[str, typer.Option(
        help="Bot for every other seat: " + ", ".join(BOT_NAMES) + ".")] = "easy",
    option: OptionArg = None,
    confirm_forced: Annotated[bool, typer.Option(
        help="Ask for your move even when only one is legal (by default it is played and "
        "shown).")] = False,
    think: Annotated[float | None, typer.Option(
        help="At most this many seconds a move for searching bots (medium, hard, ismcts); "
        "by default they use their full iteration budget.")] = None,
) -> None:
    """Play a game in the terminal against bots."""
    console = Console()
    try:
        check_seed(seed)
        g = new_game(game, players, parse_option_pairs(option or []))
        if not 0 <= seat < players:
            raise BigtopError(f"seat must be 0..{players - 1}")
        if bots not in BOT_NAMES:
            raise BigtopError(f"bots must be one of {', '.join(BOT_NAMES)}")
        limit = think if bots in SEARCH_BOTS else None
        agents = {p: make_bot(bots, g, p, seed * 31 + p, time_limit=limit)
                  for p in range(players) if p != seat}
    except BigtopError as e:
        fail(str(e))
        return
    state = g.new_initial_state(seed)
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
