"""The terminal screen of ``bigtop play``: plain text in colour (never read as rich markup),
numbered move menus laid out in columns to fit the screen, and reading typed numbers.

The screen is planned for 80 x 24: the board, the menu and the prompt must fit under each
other, so the menu gets the rows the board leaves and long menus are paged.

>>> read_number("12"), read_number("²"), read_number("-1"), read_number("٣")
(12, None, None, None)
>>> read_number("9" * 5000) == TOO_BIG
True
>>> print("\\n".join(columns([(0, "aa"), (1, "bbbb"), (7, "c")], width=20)))
  0 aa      7 c
  1 bbbb
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

SCREEN_WIDTH = 80
SCREEN_HEIGHT = 24
"""The smallest screen play is planned for; bigger terminals get more menu rows."""

_SEAT = r"\bP\d\b"

# Each game's card, suit and ball notation with the colour it is shown in.
_SUITS = {"y": "yellow", "p": "magenta", "g": "green", "b": "blue", "o": "dark_orange"}
_SUIT_WORDS = {"yellow": "yellow", "pink": "magenta", "green": "green", "blue": "blue",
               "orange": "dark_orange"}
_CLOWN_COLOURS = {"R": "red", "O": "dark_orange", "Y": "yellow", "G": "green", "B": "blue",
                  "V": "magenta", "K": "bright_black", "W": "bold white"}
_BALLS = {"R": "red", "Y": "yellow", "B": "blue", "G": "green"}
_BALL_WORDS = {"red": "red", "yellow": "yellow", "blue": "blue", "green": "green",
               "black": "bright_black", "white": "bold white"}


def _highlights(game: str) -> list[tuple[str, str]]:
    if game == "scout":
        return [(r"\b(10|[1-9])/(10|[1-9])\b", "bold cyan")]
    if game == "tricky-landing":
        out = [(rf"\b{s}(10|[1-9])\b", style) for s, style in _SUITS.items()]
        out += [(rf"\b{w} (10|[1-9])\b", style) for w, style in _SUIT_WORDS.items()]
        return out
    if game == "clown-15-go":
        return [(rf"\b{c}(1[0-5]|[1-9])\b", style) for c, style in _CLOWN_COLOURS.items()]
    if game == "so-ein-zirkus":
        # Ball letters inside a clown ``[0:RYB]`` or a hole ``(3:B)``.
        out = [(rf"(?<=[:RYBG]){c}(?=[RYBG]*[\])])", style) for c, style in _BALLS.items()]
        out += [(rf"\b{w}\b", style) for w, style in _BALL_WORDS.items()]
        return out
    return []


class Screen:
    """Prints a game's text in its colours. Text is never parsed as markup, so a player's
    input or a card like ``[1:RB]`` is shown as it is."""

    def __init__(self, game: str, console: Console | None = None) -> None:
        self.console = console or Console(highlight=False)
        self._rules = [(re.compile(rx), style) for rx, style in _highlights(game)]

    @property
    def height(self) -> int:
        """Rows to plan with: the terminal's, but never more than a non-terminal's 24."""
        return self.console.size.height if self.console.is_terminal else SCREEN_HEIGHT

    @property
    def width(self) -> int:
        return min(self.console.size.width, 120) if self.console.is_terminal \
            else SCREEN_WIDTH

    def text(self, line: str, style: str = "") -> Text:
        t = Text(line, style=style)
        for rx, colour in self._rules:
            t.highlight_regex(rx, colour)
        t.highlight_regex(_SEAT, "bold")
        return t

    def say(self, line: str = "", style: str = "") -> None:
        """One line (or several, separated by newlines) in the game's colours."""
        self.console.print(self.text(line, style), soft_wrap=False, overflow="fold")

    def note(self, line: str) -> None:
        """A line about the program rather than the game (dim). Not wrapped by us, so a
        command or path in it stays whole for copying (the terminal wraps it)."""
        self.console.print(Text(line, style="dim"), soft_wrap=True)

    def error(self, line: str) -> None:
        """A refused input or command, in red; like :meth:`note` not wrapped by us (a path in
        it stays whole)."""
        self.console.print(Text(line, style="red"), soft_wrap=True)

    def rule(self, title: str = "") -> None:
        self.console.rule(Text(title) if title else "", style="dim")

    def clear(self) -> None:
        if self.console.is_terminal:
            self.console.clear()


TOO_BIG = 10**9
"""What :func:`read_number` gives for ten digits or more: beyond every list and seat."""


def read_number(text: str) -> int | None:
    """``text`` as a whole number when it is ASCII digits only (``'²'.isdigit()`` is True in
    Python, and ``int('٣')`` is 3: neither is a number a player typed here)."""
    if text and text.isascii() and text.isdigit():
        return int(text) if len(text) <= 9 else TOO_BIG  # no 5000-digit int()
    return None


def columns(items: Sequence[tuple[int, str]], width: int) -> list[str]:
    """Numbered labels in as many columns as fit ``width``, filled column by column."""
    if not items:
        return []
    digits = max(3, max(len(str(i)) for i, _ in items))
    cells = [f"{i:>{digits}} {label}" for i, label in items]
    cell = max(len(c) for c in cells) + 2
    ncols = max(1, min(len(cells), (width + 2) // cell))
    nrows = -(-len(cells) // ncols)
    rows = []
    for r in range(nrows):
        parts = [cells[c * nrows + r] for c in range(ncols) if c * nrows + r < len(cells)]
        rows.append("".join(p.ljust(cell) for p in parts).rstrip())
    return rows


def fit_width(lines: Sequence[str], width: int) -> list[str]:
    """``lines`` with every line longer than ``width`` wrapped at spaces, the rest of it
    indented under its start, so that no row folds mid-word and the board's row count is
    what the screen shows.

    >>> fit_width(["  P0 (you): open top  W13 (8 open), 32 closed, 41 cards", "row"], 30)
    ['  P0 (you): open top  W13 (8', '      open), 32 closed, 41', '      cards', 'row']
    """
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)
    return out


def fit_columns(items: Sequence[tuple[int, str]], width: int, rows: int) -> int:
    """How many of ``items`` fit in ``rows`` rows of columns (at least one)."""
    lo, hi = 1, len(items)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if len(columns(items[:mid], width)) <= rows:
            lo = mid
        else:
            hi = mid - 1
    return lo
