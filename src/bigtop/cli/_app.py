"""The Typer application and what every command shares: the error console, ``--option``
and the one way a command fails (a one-line message on stderr, exit code 2).

Every command is guarded: whatever escapes it (a :class:`BigtopError` a command forgot to
catch, or an engine bug) becomes that one-line error, never a Python traceback. User text is
never read as rich markup (``[/x]`` typed anywhere is printed as it is).
"""

from __future__ import annotations

import errno
import functools
import math
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from bigtop.core.errors import BigtopError

_F = TypeVar("_F", bound=Callable[..., Any])


class _GuardedTyper(typer.Typer):
    """A Typer app whose commands turn any escaping exception into :func:`fail`."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[_F], _F]:
        def decorator(f: _F) -> _F:
            # The command list of `bigtop --help` keeps the docstring's line breaks; its
            # short help is the first paragraph as one line, so rich wraps it to the screen.
            short = " ".join((f.__doc__ or "").split("\n\n")[0].split())
            register = super(_GuardedTyper, self).command(
                *args, **({"short_help": short} if short else {}) | kwargs)

            @functools.wraps(f)
            def guarded(*a: Any, **kw: Any) -> Any:
                if sys.stdout is None and f.__name__ not in _NO_STDOUT:
                    # Started with fd 1 closed (`>&-`): every line would be dropped and the
                    # command would seem to succeed.
                    fail("stdout is closed (>&-): there is nowhere to print the output")
                try:
                    return f(*a, **kw)
                except (typer.Exit, typer.Abort, typer.TyperException, SystemExit):
                    raise
                except KeyboardInterrupt:
                    # Ctrl-C before a command has anything to report (e.g. while a long
                    # simulation is still being planned): one line and the shell's code.
                    err.print("interrupted (Ctrl-C)", highlight=False)
                    raise typer.Exit(130) from None
                except BrokenPipeError:
                    # The reader went away (`bigtop bots | head -3`): stop quietly, as other
                    # Unix tools do; stdout goes to devnull so that the exit flush is silent.
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                    raise typer.Exit(141) from None
                except BigtopError as e:
                    fail(str(e))
                except RecursionError:
                    fail("the input is nested too deeply")
                except MemoryError:
                    fail("out of memory (the input is too large)")
                except OSError as e:  # the system refused a read or write: not a bigtop bug
                    if e.filename is not None:
                        fail(f"{e.filename}: {e.strerror or e}")
                    if e.errno in _WRITE_ERRORS:
                        # Output the command could not write: `bigtop state > /dev/full`.
                        fail(f"cannot write the output: {e.strerror}")
                    fail(f"input/output error: {e.strerror or e}")
                except Exception as e:  # an engine bug: still one line, and a way to report it
                    fail(f"internal error ({type(e).__name__}: {e}); please report it")

            register(guarded)
            return f

        return decorator


_NO_STDOUT = {"serve"}
"""Commands that print nothing on stdout (serve logs on stderr): they run with it closed."""
_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF}


app = _GuardedTyper(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Play, simulate and study Tricky Landing, SCOUT, So ein Zirkus and Clown 15 Go.",
)
err = Console(stderr=True, soft_wrap=True)

OptionArg = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Rule option KEY=VALUE (repeatable); see `bigtop games`."),
]


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr (one line, the message never read as markup) and
    exit with code 2."""
    line = " ".join(str(message).split())
    err.print(Text.assemble(("error:", "bold red"), " ", line), highlight=False)
    raise typer.Exit(2)


def seconds_or_rate(option: str, value: float, *, zero: bool) -> float:
    """``value`` of a numeric ``--option`` if it is finite and not negative (``zero``: 0 is
    allowed, else it must be above 0); else a :class:`BigtopError` naming the option. Typer
    reads ``nan`` and ``inf`` as floats, so every float option needs this check.

    >>> seconds_or_rate("--bot-delay", 0.0, zero=True)
    0.0
    >>> seconds_or_rate("--bot-delay", float("nan"), zero=True)
    Traceback (most recent call last):
    ...
    bigtop.core.errors.BigtopError: --bot-delay must be a finite number, 0 or more, got nan
    """
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        bound = "0 or more" if zero else "above 0"
        raise BigtopError(f"{option} must be a finite number, {bound}, got {value}")
    return value


def game_options(game: str, pairs: list[str] | None) -> dict[str, object]:
    """The ``--option KEY=VALUE`` pairs of a command line for ``game``: parsed, and a file the
    user named read where the game takes one (So ein Zirkus ``board=FILE.json``, embedded)."""
    from bigtop.core.options import parse_option_pairs
    from bigtop.core.registry import get_game

    return get_game(game).command_line_options(parse_option_pairs(pairs or []))
