"""`bigtop state`, `render` and `replay`: states as files."""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from bigtop.agents.base import play_random
from bigtop.cli._app import OptionArg, app, err, fail, game_options
from bigtop.core.errors import BigtopError
from bigtop.core.game import State
from bigtop.core.limits import MAX_JSON_BYTES, parse_json_limited
from bigtop.core.registry import capabilities, load_state, new_game
from bigtop.core.rng import check_seed
from bigtop.core.text import numbers
from bigtop.games import teaching
from bigtop.sim.output import umask


def write_whole(path: str, write: Callable[[str], object]) -> None:
    """``write(name)`` writes the file into a temporary ``name`` beside ``path`` (with the
    same suffix, which may pick the format), then it is renamed to ``path``: a failed write
    leaves ``path`` as it was and no temporary file. OSError as the write raised it."""
    folder, base = os.path.split(path)
    fd, tmp = tempfile.mkstemp(dir=folder or ".", prefix=f".{base}.",
                               suffix=os.path.splitext(base)[1] or ".tmp")
    try:
        os.fchmod(fd, 0o666 & ~umask())  # as a plain new file (mkstemp's is 0600)
        os.close(fd)
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def load_state_file(path: str) -> State:
    """Read a state file (or stdin for ``-``) within the input limits and load it,
    validated; BigtopError otherwise."""
    # Read one byte more than allowed, so an endless file (/dev/zero) stops at the limit.
    if path == "-" and sys.stdin is None:  # started with fd 0 closed (`0<&-`)
        raise BigtopError("cannot read stdin: it is closed")
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_JSON_BYTES + 1)
        else:
            with Path(path).open("rb") as f:
                data = f.read(MAX_JSON_BYTES + 1)
    except (OSError, ValueError) as e:  # ValueError: a NUL in the path (an embedded null byte)
        raise BigtopError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}"
                          ) from None
    name = "stdin" if path == "-" else path
    doc = parse_json_limited(data, name)  # (its messages name the file already)
    try:
        return load_state(doc)
    except BigtopError as e:
        # "hands must list 2 hands" says what is wrong, not where: name the file.
        raise BigtopError(f"{name}: {e}") from None


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
    try:
        check_seed(seed)
        g = new_game(game, players, game_options(game, option))
        if actions < 0:
            raise BigtopError("actions must be 0 or more")
    except BigtopError as e:
        fail(str(e))
        return
    s = g.new_initial_state(seed)
    play_random(s, random.Random(seed), max_actions=actions)
    typer.echo(json.dumps(s.to_json(), ensure_ascii=False))


@app.command()
def render(
    path: Annotated[str, typer.Argument(help="A state JSON file (from `bigtop state`), or -.")],
    player: Annotated[int | None, typer.Option(
        help="Draw what this seat may see, its hand included (default: what a spectator "
        "sees, no hidden cards).", show_default=False)] = None,
    out: Annotated[str | None, typer.Option(
        help="Write a picture (.svg or .png) where the game has one; else print text.")] = None,
) -> None:
    """Show a state: a text view, or a picture (.svg or .png) of what a seat sees."""
    try:
        s = load_state_file(path)
        s.check_seat(player)
        if out is None:
            typer.echo(s.render(player))
            return
        picture = capabilities(s.game.name).picture
        suffix = out.rsplit(".", 1)[-1].lower()
        if suffix not in ("svg", "png"):
            raise BigtopError("--out must end in .svg or .png")
        if picture is None:
            raise BigtopError(f"{s.game.title} has no picture; leave out --out for text")
        if suffix == "svg":
            svg = picture.render_svg(s, player)
            write_whole(out, lambda tmp: Path(tmp).write_text(svg))
        else:
            write_whole(out, lambda tmp: picture.render_png(s, tmp, player))
    except BigtopError as e:
        fail(str(e))
        return
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror}")
        return
    err.print(f"wrote {out}", markup=False, highlight=False)


@app.command()
def replay(
    path: Annotated[str, typer.Argument(help="A state JSON file (from `bigtop state`), or -.")],
) -> None:
    """Replay a game from its seed and history, one line per action, with how each round
    (and trick) ended."""
    try:
        saved = load_state_file(path)
    except BigtopError as e:
        fail(str(e))
        return
    teach = teaching(saved.game.name)
    s = saved.game.new_initial_state(saved.seed)
    for i, action in enumerate(saved.history, 1):
        try:
            line = s.describe(action)  # refuses an action that is not legal here
            before = s.clone()
            s.apply(action)
        except BigtopError as e:
            fail(f"action {i} does not replay from a fresh deal: {e}")
            return
        typer.echo(f"{i:>5}  {teach.played(line, before, s, results=False)}")
        for note in teach.trick_summary(before, s) + teach.round_summary(before, s):
            typer.echo(f"       {note}")
    if s != saved:
        fail("the history does not lead to the saved position (it was hand-edited?)")
        return
    if s.is_terminal():
        result = s.result()
        typer.echo(f"final scores {numbers(result['scores'])}; winners "
                   + ", ".join(f"P{w}" for w in result["winners"]))
