"""Errors raised by the engines. Every one is a ``ValueError`` so callers can catch bad input
in one place, and each names what was wrong."""

import reprlib


class BigtopError(ValueError):
    """Base class of every error bigtop raises for bad input."""


class UnknownGameError(BigtopError):
    """No game is registered under that name."""


class RuleOptionError(BigtopError):
    """An unknown rule option, or a value the option does not accept."""


class MalformedActionError(BigtopError):
    """An action (object or JSON) that is not of the game's action form at all."""


class IllegalActionError(BigtopError):
    """A well-formed action that the rules do not allow in the current state.

    The state is left unchanged.
    """


class InvalidStateError(BigtopError):
    """A state (usually JSON, possibly hand-written) that is not consistent with the rules:
    a card twice, a wrong count, a player index out of range, ..."""


class InputLimitError(BigtopError):
    """Input beyond what bigtop accepts (see :mod:`bigtop.core.limits`): too large, too
    deeply nested, not UTF-8, not JSON, a number out of range or not finite."""


def shown(value: object) -> str:
    """``repr(value)`` cut to a short line, for error messages that quote input (which may
    be hostile: a 65,536-character string, a whole deck where a card was expected).

    >>> shown("y7"), shown(3)
    ("'y7'", '3')
    >>> shown("x" * 1000)
    "'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'"
    >>> shown(list(range(100)))
    '[0, 1, 2, 3, 4, 5, ...]'
    """
    return _SHORT.repr(value)


MAX_PROBLEMS_LENGTH = 400
"""Characters of problems an inconsistent position's refusal names; the rest are counted (a
position with a whole pile doubled has a hundred, and the message must stay one short
line)."""


def inconsistent(title: str, trouble: list[str]) -> InvalidStateError:
    """The refusal of a position with the problems ``trouble`` (``State.problems()``, which
    lists them all): as many whole problems as fit in :data:`MAX_PROBLEMS_LENGTH` characters
    (the first one at least, cut short if need be), and how many more there are."""
    named: list[str] = []
    length = 0
    for t in trouble:
        if named and length + len(t) > MAX_PROBLEMS_LENGTH:
            break
        named.append(t if len(t) <= MAX_PROBLEMS_LENGTH else t[:MAX_PROBLEMS_LENGTH - 3] + "...")
        length += len(named[-1]) + 2
    more = len(trouble) - len(named)
    tail = f"; and {more} more problem{'s' if more > 1 else ''}" if more else ""
    return InvalidStateError(f"inconsistent {title} position: {'; '.join(named)}{tail}")


class _ShortRepr(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        # Python refuses to print an integer of over 4,300 digits (ValueError: "Exceeds the
        # limit ... for integer string conversion"): the message quoting it would fail.
        try:
            return super().repr_int(x, level)
        except ValueError:
            return f"<an integer of {_digits(x)} digits>"


def _digits(x: int) -> int:
    """Decimal digits of ``x``, without printing it (exact: a power of ten decides)."""
    n = abs(x)
    d = max(1, int(n.bit_length() * 0.30102999566398120))  # log10(2)
    while 10**d <= n:
        d += 1
    while d > 1 and 10 ** (d - 1) > n:
        d -= 1
    return d


_SHORT = _ShortRepr()
_SHORT.maxstring = 40
_SHORT.maxother = 120  # an action's repr (a dataclass) stays whole unless a field is huge
