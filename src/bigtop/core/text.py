"""Small helpers for the human text every game and the CLI print: counted nouns and numbers
without float noise (no ``1 cards``, ``-0.0`` or ``19.0`` for a whole number).

>>> count(1, "card"), count(3, "card"), count(0, "point")
('1 card', '3 cards', '0 points')
>>> number(19.0), number(-0.0), number(2.5), number(-3)
('19', '0', '2.5', '-3')
>>> decimal(-0.04, 1), decimal(13.77, 1)
('0.0', '13.8')
>>> numbers([19.0, -2.0, 0.5])
'19, -2, 0.5'
>>> print(paragraphs(["A short line.", "* a bullet that is long enough to wrap onto a "
...                   "second line"], width=30))
A short line.
 * a bullet that is long
   enough to wrap onto a
   second line
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` followed by ``noun``, in the plural unless ``n`` is 1 (``plural`` overrides the
    added ``s``)."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def number(x: float) -> str:
    """A score or coordinate as a person writes it: whole numbers without ``.0``, no minus
    zero, otherwise up to 6 significant digits."""
    if x == 0:
        return "0"  # also -0.0
    if float(x).is_integer():
        return str(int(x))
    return f"{x:g}"


def decimal(x: float, places: int) -> str:
    """``x`` with a fixed number of decimals and no minus zero (``-0.04`` gives ``0.0``)."""
    text = f"{x:.{places}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def numbers(xs: Iterable[float]) -> str:
    """Several numbers, comma-separated, each as :func:`number` writes it."""
    return ", ".join(number(x) for x in xs)


def paragraphs(items: Iterable[str], width: int = 78) -> str:
    """Teaching text: each item wrapped to ``width`` columns; an item starting with ``* `` is
    a bullet with a hanging indent; empty items are left out (optional sentences)."""
    out = []
    for item in items:
        if not item:
            continue
        if item.startswith("* "):
            out.append(textwrap.fill(item[2:], width, initial_indent=" * ", break_on_hyphens=False,
                                     subsequent_indent="   "))
        else:
            out.append(textwrap.fill(item, width, break_on_hyphens=False))
    return "\n".join(out)


class Told:
    """How a move's line names its mover, told to ``player``: the mover themselves is
    spoken to (``You show …``, ``your hand``), everybody else (and the public, ``None``)
    hears of seat ``P{mover}`` (``P2 shows …``, ``their hand``). A seat's own move options
    and its own log lines read naturally; the public log stays in the third person.

    >>> you, them = Told(2, 2), Told(2, None)
    >>> f"{you.who} {you.verb('turns')} {you.their} hand", f"{them.who} {them.verb('turns')}"
    ('You turn your hand', 'P2 turns')
    >>> [you.verb(v) for v in ("passes", "goes", "pushes", "carries", "cannot")]
    ['pass', 'go', 'push', 'carry', 'cannot']
    """

    __slots__ = ("their", "who", "you")

    def __init__(self, mover: int, player: int | None) -> None:
        self.you = player is not None and player == mover
        self.who = "You" if self.you else f"P{mover}"
        self.their = "your" if self.you else "their"

    def verb(self, third: str) -> str:
        """``third`` (a verb in the third person singular: shows, passes) as said of the
        mover: unchanged, or the plain form after "You"."""
        if not self.you or not third.endswith("s"):
            return third
        if third.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
            return third[:-2]
        if third.endswith("ies"):
            return third[:-3] + "y"
        return third[:-1]


_SEAT_LABEL = re.compile(r"\bP(\d{1,2})\b")


def named(text: str, names: Sequence[str | None]) -> str:
    """A line of the engine's (which calls seats ``P0``, ``P1``…) with each seat that has a
    name called by it; the others keep their label. One pass: a name that looks like a
    label is not replaced again.

    >>> named("P0 shows 8/10; P1 scouts from P0", ["Anna", None])
    'Anna shows 8/10; P1 scouts from Anna'
    >>> named("P1 and P7, SP1, P12x", ["P1", "Ben"])
    'Ben and P7, SP1, P12x'
    """
    if not any(names):
        return text

    def one(m: re.Match[str]) -> str:
        k = int(m[1])
        name = names[k] if k < len(names) else None
        return name or m[0]

    return _SEAT_LABEL.sub(one, text)
