"""What bigtop accepts from outside: one set of explicit limits, enforced the same way by the
loader (``load_state``), the command line and the server.

Input from a file, a socket or a hand-built dict passes through two checks:

- :func:`parse_json_limited` turns bytes or text into JSON values: at most
  :data:`MAX_JSON_BYTES`, strict UTF-8, nesting at most :data:`MAX_DEPTH` deep (checked before
  parsing, so a deep document cannot exhaust the stack), no ``NaN``/``Infinity``, no number
  beyond the limits below, no key twice in an object.
- :func:`check_json_value` checks values already in memory (what a web framework parsed, what a
  caller built): only JSON types, string keys, the same depth, length and number limits.
  :func:`check_state_payload` adds the state-specific ones (the history length) and is what
  ``load_state`` calls first.

Every violation is an :class:`~bigtop.core.errors.InputLimitError` (a ``BigtopError``) with a
one-line message; nothing is changed.

>>> parse_json_limited(b'{"a": [1, 2.5, null]}')
{'a': [1, 2.5, None]}
>>> parse_json_limited('[' * 100 + ']' * 100)
Traceback (most recent call last):
...
bigtop.core.errors.InputLimitError: input is nested deeper than 32 levels
>>> parse_json_limited('{"x": NaN}')
Traceback (most recent call last):
...
bigtop.core.errors.InputLimitError: input: NaN is not a number bigtop accepts (finite numbers only)
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterator
from typing import Any, Final

from bigtop.core.errors import InputLimitError, shown

MAX_JSON_BYTES: Final = 8 * 1024 * 1024
"""A state file or message: 8 MiB (a long So ein Zirkus tournament's history fits easily)."""
MAX_DEPTH: Final = 32
"""Nesting of arrays and objects (a state needs about 6)."""
MAX_CONTAINER_LENGTH: Final = 100_000
"""Elements of one array or object."""
MAX_HISTORY: Final = 100_000
"""Actions in a state's ``history``."""
MAX_STRING_LENGTH: Final = 65_536
"""Characters in one string (an embedded So ein Zirkus board is the longest, a few KiB)."""
MAX_INT: Final = 2**63 - 1
"""Largest magnitude of an integer (seeds are 0..2**63-1; every count is far smaller)."""
MAX_ACTION_INT: Final = MAX_INT
"""Largest magnitude of an integer field of an action."""
MAX_BOARD_FILE_BYTES: Final = 64 * 1024
"""A So ein Zirkus board file named on the command line."""
MAX_GAMES: Final = 1_000_000
"""Games one run of the simulation lab may play: ``simulate`` (``--games``), ``compare`` (per
variant) and ``tournament`` (every table together). A million random SCOUT games take about
8 minutes on two cores and some 3 GB for their records, which stay in memory until the
report; a larger count is a typing slip, refused before anything starts."""

_MAX_INT_DIGITS: Final = len(str(MAX_INT))
_JSON_TYPES = (str, int, float, bool, type(None), list, dict)
# Strings (with their escapes) are skipped when counting brackets for the depth check.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
# A JSON escape of a UTF-16 surrogate (half of a pair, or a lone one: no Unicode text).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def _reject_constant(name: str) -> Any:
    raise InputLimitError(f"input: {name} is not a number bigtop accepts (finite numbers only)")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS or abs(int(text)) > MAX_INT:
        raise InputLimitError(f"input: the integer {text[:30]}{'...' if len(text) > 30 else ''} "
                              f"is out of range (at most {MAX_INT} in magnitude)")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputLimitError(f"input: the number {text[:30]} is too large")
    return value


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise InputLimitError(f"input: key {k[:60]!r} appears twice in one object")
        out[k] = v
    return out


def check_depth(text: str, what: str = "input") -> None:
    """Raise :class:`InputLimitError` if the JSON ``text`` nests deeper than
    :data:`MAX_DEPTH` (a scan of the brackets outside strings, before any parsing; a text
    with no more opening brackets than that, in strings or not, cannot nest deeper and is
    not scanned: a move message has one).

    >>> check_depth("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    >>> check_depth('["' + "[" * 40 + '"]')  # brackets in a string do not nest
    >>> check_depth("[" * (MAX_DEPTH + 1))
    Traceback (most recent call last):
    ...
    bigtop.core.errors.InputLimitError: input is nested deeper than 32 levels
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for m in _BRACKETS.finditer(_STRING.sub('""', text)):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise InputLimitError(f"{what} is nested deeper than {MAX_DEPTH} levels")
        else:
            depth -= 1


def parse_json_limited(data: str | bytes, what: str = "input") -> Any:
    """Parse JSON from outside within the limits; ``what`` names the source in errors.

    >>> parse_json_limited(b'\\xff\\xfe')
    Traceback (most recent call last):
    ...
    bigtop.core.errors.InputLimitError: input is not UTF-8 text (byte 0 is 0xff)
    """
    size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
    if size > MAX_JSON_BYTES:
        raise InputLimitError(f"{what} is {size:,} bytes; at most {MAX_JSON_BYTES:,} are accepted")
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputLimitError(
                f"{what} is not UTF-8 text (byte {e.start} is 0x{data[e.start]:02x})") from None
    else:
        text = data
    text = text.removeprefix("\ufeff")
    check_depth(text, what)
    try:
        value = _DECODER.decode(text)
    except InputLimitError as e:
        raise InputLimitError(str(e).replace("input", what, 1)) from None
    except json.JSONDecodeError as e:
        raise InputLimitError(f"{what} is not JSON: {e.msg} (line {e.lineno}, column {e.colno})"
                              ) from None
    except (RecursionError, ValueError) as e:  # pragma: no cover - guarded by the checks above
        raise InputLimitError(f"{what} is not acceptable JSON: {e}") from None
    if len(text) > _SHORT:
        check_json_value(value, what)
    if _SURROGATE_ESCAPE.search(text):
        check_unicode(value, what)
    return value


def check_unicode(value: object, what: str = "input") -> None:
    r"""Raise :class:`InputLimitError` if a string of the JSON ``value`` (or a key) holds a
    lone UTF-16 surrogate (JSON may escape one, ``"\ud800"``): no Unicode text, it cannot
    be written as UTF-8, so nothing that holds one could be stored or sent on. A whole
    pair is one character (an emoji) and fine.

    >>> check_unicode({"name": chr(0x1F3AA), "x": [1, "a"]})
    >>> check_unicode({"name": ["ok", "x" + chr(0xD800)]})
    Traceback (most recent call last):
    ...
    bigtop.core.errors.InputLimitError: input: \ud800 is half of a surrogate pair, not text
    """
    for v in _strings(value):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError as e:
            raise InputLimitError(f"{what}: \\u{ord(v[e.start]):04x} is half of a "
                                  "surrogate pair, not text") from None


def _strings(value: object) -> Iterator[str]:
    """Every string of the JSON ``value``, keys included."""
    stack: list[object] = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            stack.extend(v)
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)


BIDI_CONTROLS: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                                 "\u2066\u2067\u2068\u2069")
"""The bidirectional control marks (Arabic letter mark, left-to-right and right-to-left
marks, embeddings, overrides, isolates and their ends): invisible, they reorder the text
around them, so a name, a chat line or a board's name could show as something else, or
turn around the line it is shown in ("Trojan Source")."""


UNSHOWN_CATEGORIES: Final = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories that free text may not hold: control characters (NUL among them,
which PostgreSQL refuses in text and XML in a picture), surrogates, private-use and
unassigned code points, line and paragraph separators."""


def text_problem(text: str) -> str | None:
    """What makes ``text`` no single line of free text to show other people (a bidirectional
    control mark, :data:`BIDI_CONTROLS`; a control character or line break,
    :data:`UNSHOWN_CATEGORIES`), with the first such character and its place; None if
    nothing does.

    >>> text_problem("Anna")
    >>> text_problem("A" + chr(10) + "B")
    'no control characters or line breaks (U+000A at 2)'
    """
    for i, ch in enumerate(text, 1):
        if ch in BIDI_CONTROLS:
            return f"no bidirectional control marks (U+{ord(ch):04X} at {i})"
        if unicodedata.category(ch) in UNSHOWN_CATEGORIES:
            return f"no control characters or line breaks (U+{ord(ch):04X} at {i})"
    return None


def check_text(value: object, what: str = "input") -> None:
    """:func:`check_unicode`, and no string of ``value`` with a :func:`text_problem`: the
    check of free text that people show each other (names, chat, a board's name and note).

    >>> check_text(["Anna", "سلام"])
    >>> check_text({"name": "abc" + chr(0x202E) + "gpj.exe"}, "board")
    Traceback (most recent call last):
    ...
    bigtop.core.errors.InputLimitError: board: no bidirectional control marks (U+202E at 4)
    >>> check_text(["x" + chr(0)], "board")
    Traceback (most recent call last):
    ...
    bigtop.core.errors.InputLimitError: board: no control characters or line breaks (U+0000 at 2)
    """
    check_unicode(value, what)
    for v in _strings(value):
        problem = text_problem(v)
        if problem is not None:
            raise InputLimitError(f"{what}: {problem}")


_DECODER: Final = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float,
                                   parse_constant=_reject_constant,
                                   object_pairs_hook=_no_duplicate_keys)
"""``json.loads`` with the hooks, made once (``json.loads`` given any hook makes a decoder
and its scanner for every call: half the time of parsing a move message)."""
_SHORT: Final = min(MAX_STRING_LENGTH, MAX_CONTAINER_LENGTH)
"""Characters of JSON text that cannot hold a string or a container past its length limit
(each character or element takes at least one character of text); what else
:func:`check_json_value` checks the parse did already (the depth before it, and the hooks:
integers within range, finite floats, string keys)."""


def check_json_value(value: object, what: str = "input") -> None:
    """Check a value already in memory: JSON types only (dict with str keys, list, str, int,
    float, bool, None; a tuple counts as a list), at most :data:`MAX_DEPTH` deep, containers
    and strings within their lengths, integers within :data:`MAX_INT`, floats finite.

    >>> check_json_value({"a": [1, 2]})
    >>> check_json_value({1: "a", "b": 2})
    Traceback (most recent call last):
    ...
    bigtop.core.errors.InputLimitError: input: object key 1 is not a string
    >>> check_json_value([float("inf")])
    Traceback (most recent call last):
    ...
    bigtop.core.errors.InputLimitError: input: inf is not a finite number
    """
    # Iterative, so a deeply nested object from a caller cannot exhaust the stack.
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        t = type(v)
        if t is str:
            if len(v) > MAX_STRING_LENGTH:  # type: ignore[arg-type]
                raise InputLimitError(
                    f"{what}: a string of {len(v):,} characters (at most "  # type: ignore
                    f"{MAX_STRING_LENGTH:,})")
        elif t is int:
            if not -MAX_INT <= v <= MAX_INT:  # type: ignore[operator]
                raise InputLimitError(
                    f"{what}: an integer out of range (at most {MAX_INT} in magnitude)")
        elif t is float:
            if not math.isfinite(v):  # type: ignore[arg-type]
                raise InputLimitError(f"{what}: {v!r} is not a finite number")
        elif t is bool or v is None:
            pass
        elif t is list or t is tuple or t is dict:
            if depth > MAX_DEPTH:
                raise InputLimitError(f"{what} is nested deeper than {MAX_DEPTH} levels")
            items: Any = v
            if len(items) > MAX_CONTAINER_LENGTH:
                raise InputLimitError(f"{what}: a list or object of {len(items):,} elements "
                                      f"(at most {MAX_CONTAINER_LENGTH:,})")
            if t is dict:
                for k in items:
                    if type(k) is not str:
                        raise InputLimitError(f"{what}: object key {shown(k)} is not a string")
                    if len(k) > MAX_STRING_LENGTH:
                        raise InputLimitError(f"{what}: an object key is too long")
                items = items.values()
            stack.extend((x, depth + 1) for x in items)
        else:
            raise InputLimitError(f"{what}: a {t.__name__} is not a JSON value")


def check_state_payload(data: object, what: str = "state") -> None:
    """:func:`check_json_value` plus the limits of a state: a JSON object whose ``history``
    has at most :data:`MAX_HISTORY` actions. ``load_state`` calls it before anything else.

    >>> check_state_payload({"history": [{}] * (MAX_HISTORY + 1)})
    Traceback (most recent call last):
    ...
    bigtop.core.errors.InputLimitError: state: the history has 100,001 actions (at most 100,000)
    """
    if not isinstance(data, dict):
        raise InputLimitError(f"{what} must be a JSON object")
    history = data.get("history")
    if isinstance(history, list | tuple) and len(history) > MAX_HISTORY:
        raise InputLimitError(f"{what}: the history has {len(history):,} actions "
                              f"(at most {MAX_HISTORY:,})")
    check_json_value(data, what)
