"""Rule options: a typed, documented, frozen structure per game.

A game declares its options as a frozen dataclass deriving from :class:`RuleOptions`, each field
made with :func:`option`, which records the documentation (and, for rulings, the rulebook sentence
the default follows) next to the default value.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo(RuleOptions):
...     rounds: int = option(3, doc="Rounds to play.", minimum=1)
...     deck: str = option("full", doc="Which deck.", choices=("full", "short"))
>>> Demo.from_mapping({"rounds": "5"}).rounds
5
>>> Demo.from_mapping({"colour": "red"})
Traceback (most recent call last):
...
bigtop.core.errors.RuleOptionError: unknown rule option 'colour'; known options: deck, rounds
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self, get_type_hints

from bigtop.core.errors import RuleOptionError, shown
from bigtop.core.limits import MAX_INT

_TRUE = {"true", "1", "yes", "on"}
# Numbers as people type them: ASCII digits only. Python's int() and float() also take
# "1_0" and other scripts' digits ("٣"), which nobody means as a rule option.
_INT_TEXT = re.compile(r"[+-]?[0-9]+")
_FLOAT_TEXT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_FALSE = {"false", "0", "no", "off"}


def option(
    default: Any,
    *,
    doc: str,
    choices: tuple[Any, ...] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    quote: str | None = None,
    per_player: bool = False,
) -> Any:
    """Declare one rule option: its default, what it means, and its allowed values.

    ``quote`` is the rulebook sentence the default reading follows (for rulings).
    ``per_player`` (numbers only): the value is one number for every player or a list of one
    number per player (a tuple; the game checks its length in ``validate_for``)."""
    meta = {"doc": doc, "choices": choices, "minimum": minimum, "maximum": maximum, "quote": quote,
            "per_player": per_player}
    return dataclasses.field(default=default, metadata=meta)


def first_player_option(quote: str) -> Any:
    """The shared ``first_player`` option: the seat that starts the first round (0..players-1,
    default 0). Rulebooks leave the choice to the table ("chosen by lot"); as an option it
    travels in the options JSON, so a saved game replays exactly. Games check the upper bound
    with :func:`check_first_player` in ``validate_for``."""
    return option(0, minimum=0, maximum=7,
                  doc="The seat that starts the first round (0 = P0); the rulebook lets the "
                  "players choose, e.g. by lot.", quote=quote)


def check_first_player(first_player: int, num_players: int) -> None:
    """Reject a starting seat that does not exist at this table.

    >>> check_first_player(3, 3)
    Traceback (most recent call last):
    ...
    bigtop.core.errors.RuleOptionError: rule option 'first_player' must be a seat 0..2, got 3
    """
    if not 0 <= first_player < num_players:
        raise RuleOptionError(
            f"rule option 'first_player' must be a seat 0..{num_players - 1}, got {first_player}")


@dataclass(frozen=True)
class OptionInfo:
    """What ``bigtop games`` prints about one option."""

    name: str
    type: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None
    minimum: float | None
    maximum: float | None
    quote: str | None
    per_player: bool = False


@dataclass(frozen=True)
class RuleOptions:
    """Base class of every game's options. Subclasses are frozen dataclasses."""

    @classmethod
    def info(cls) -> list[OptionInfo]:
        hints = get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            m = f.metadata
            out.append(
                OptionInfo(
                    name=f.name,
                    # A per-player number reads as such, not as its Python union type.
                    type="float or list" if m.get("per_player") else _type_name(hints[f.name]),
                    default=f.default,
                    doc=m.get("doc", ""),
                    choices=m.get("choices"),
                    minimum=m.get("minimum"),
                    maximum=m.get("maximum"),
                    quote=m.get("quote"),
                    per_player=m.get("per_player", False),
                )
            )
        return out

    @classmethod
    def from_mapping(cls, values: Mapping[str, object] | None = None) -> Self:
        """Build options from a mapping of names to values (JSON values, or strings as typed
        on a command line). Unknown names and bad values raise :class:`RuleOptionError`."""
        values = dict(values or {})
        infos = {i.name: i for i in cls.info()}
        unknown = sorted(map(str, set(values) - set(infos)))
        if unknown:
            raise RuleOptionError(
                f"unknown rule option {shown(unknown[0])}; known options: "
                f"{', '.join(sorted(infos))}"
            )
        kwargs = {name: _coerce(infos[name], raw) for name, raw in values.items()}
        return cls(**kwargs)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from their defaults."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if getattr(self, f.name) != f.default}

    def validate_for(self, num_players: int) -> None:
        """Cross-option and player-count checks; games override and raise RuleOptionError."""


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """Parse ``KEY=VALUE`` strings from a command line."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise RuleOptionError(f"rule option {shown(pair)} is not of the form KEY=VALUE")
        key = key.strip()
        if key in out:  # the last one silently winning hides a typo in a long command
            raise RuleOptionError(f"rule option {key!r} is given twice ({shown(out[key])} and "
                                  f"{shown(value.strip())})")
        out[key] = value.strip()
    return out


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", str(tp))


def _per_player(info: OptionInfo, raw: object) -> float | tuple[float, ...]:
    """A number, or a list of numbers (JSON list, or text ``[0.7,1,1,1.3]`` / ``0.7,1,1,1.3``).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Demo(RuleOptions):
    ...     skill: float | tuple[float, ...] = option(1.0, doc="Skill.", minimum=0.1,
    ...                                               per_player=True)
    >>> Demo.from_mapping({"skill": "[0.7, 1, 1, 1.3]"}).skill
    (0.7, 1.0, 1.0, 1.3)
    >>> Demo.from_mapping({"skill": 2}).skill
    2.0
    """
    what = f"rule option {info.name!r}"
    items: object = raw
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        items = [t.strip() for t in text.split(",")] if "," in text else text
    one = dataclasses.replace(info, per_player=False, type="float")
    if isinstance(items, list | tuple):
        if not items:
            raise RuleOptionError(f"{what} takes a number or a list of numbers, got {shown(raw)}")
        values = tuple(float(_coerce(one, x)) for x in items)
        return values[0] if len(values) == 1 else values
    return float(_coerce(one, items))


def _coerce(info: OptionInfo, raw: object) -> Any:
    what = f"rule option {info.name!r}"
    value: Any
    if info.per_player:
        return _per_player(info, raw)
    if info.type == "bool":
        if isinstance(raw, bool):
            value = raw
        elif isinstance(raw, str) and raw.lower() in _TRUE | _FALSE:
            value = raw.lower() in _TRUE
        else:
            raise RuleOptionError(f"{what} takes true or false, got {shown(raw)}")
    elif info.type == "int":
        if isinstance(raw, bool):
            raise RuleOptionError(f"{what} takes a whole number, got {shown(raw)}")
        if isinstance(raw, str):
            # Past 19 digits it is out of range anyway (and int() refuses 4,300).
            text = raw.strip()
            value = int(text) if len(text) <= 20 and _INT_TEXT.fullmatch(text) else None
        else:
            value = raw if isinstance(raw, int) else None
        if value is None or not -MAX_INT <= value <= MAX_INT:
            raise RuleOptionError(f"{what} takes a whole number, got {shown(raw)}")
    elif info.type == "float":
        if isinstance(raw, str):
            value = float(raw) if _FLOAT_TEXT.fullmatch(raw.strip()) else None
        else:
            value = float(raw) if isinstance(raw, int | float) and not isinstance(
                raw, bool) else None
        if value is None or not math.isfinite(value):
            raise RuleOptionError(f"{what} takes a finite number, got {shown(raw)}")
    elif info.type == "str":
        if not isinstance(raw, str):
            raise RuleOptionError(f"{what} takes a string, got {shown(raw)}")
        value = raw
    else:  # pragma: no cover - a game declared an unsupported type
        raise RuleOptionError(f"{what} has unsupported type {info.type}")
    if info.choices is not None and value not in info.choices:
        allowed = ", ".join(map(str, info.choices))
        raise RuleOptionError(f"{what} must be one of {allowed}; got {shown(raw)}")
    if info.minimum is not None and value < info.minimum:
        raise RuleOptionError(f"{what} must be at least {info.minimum}; got {shown(raw)}")
    if info.maximum is not None and value > info.maximum:
        raise RuleOptionError(f"{what} must be at most {info.maximum}; got {shown(raw)}")
    return value
