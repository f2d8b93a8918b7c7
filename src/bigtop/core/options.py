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
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self, get_type_hints

from bigtop.core.errors import RuleOptionError
from bigtop.core.limits import MAX_INT

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def option(
    default: Any,
    *,
    doc: str,
    choices: tuple[Any, ...] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    quote: str | None = None,
) -> Any:
    """Declare one rule option: its default, what it means, and its allowed values.

    ``quote`` is the rulebook sentence the default reading follows (for rulings)."""
    meta = {"doc": doc, "choices": choices, "minimum": minimum, "maximum": maximum, "quote": quote}
    return dataclasses.field(default=default, metadata=meta)


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
                    type=_type_name(hints[f.name]),
                    default=f.default,
                    doc=m.get("doc", ""),
                    choices=m.get("choices"),
                    minimum=m.get("minimum"),
                    maximum=m.get("maximum"),
                    quote=m.get("quote"),
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
                f"unknown rule option {unknown[0]!r}; known options: {', '.join(sorted(infos))}"
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
            raise RuleOptionError(f"rule option {pair!r} is not of the form KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", str(tp))


def _coerce(info: OptionInfo, raw: object) -> Any:
    what = f"rule option {info.name!r}"
    value: Any
    if info.type == "bool":
        if isinstance(raw, bool):
            value = raw
        elif isinstance(raw, str) and raw.lower() in _TRUE | _FALSE:
            value = raw.lower() in _TRUE
        else:
            raise RuleOptionError(f"{what} takes true or false, got {reprlib.repr(raw)}")
    elif info.type == "int":
        if isinstance(raw, bool):
            raise RuleOptionError(f"{what} takes a whole number, got {reprlib.repr(raw)}")
        try:
            value = int(raw) if isinstance(raw, int | str) else None
        except ValueError:
            value = None
        if value is None or not -MAX_INT <= value <= MAX_INT:
            raise RuleOptionError(f"{what} takes a whole number, got {reprlib.repr(raw)}")
    elif info.type == "float":
        try:
            value = float(raw) if isinstance(raw, int | float | str) and not isinstance(
                raw, bool) else None
        except ValueError:
            value = None
        if value is None or not math.isfinite(value):
            raise RuleOptionError(f"{what} takes a finite number, got {reprlib.repr(raw)}")
    elif info.type == "str":
        if not isinstance(raw, str):
            raise RuleOptionError(f"{what} takes a string, got {reprlib.repr(raw)}")
        value = raw
    else:  # pragma: no cover - a game declared an unsupported type
        raise RuleOptionError(f"{what} has unsupported type {info.type}")
    if info.choices is not None and value not in info.choices:
        allowed = ", ".join(map(str, info.choices))
        raise RuleOptionError(f"{what} must be one of {allowed}; got {reprlib.repr(raw)}")
    if info.minimum is not None and value < info.minimum:
        raise RuleOptionError(f"{what} must be at least {info.minimum}; got {reprlib.repr(raw)}")
    if info.maximum is not None and value > info.maximum:
        raise RuleOptionError(f"{what} must be at most {info.maximum}; got {reprlib.repr(raw)}")
    return value
