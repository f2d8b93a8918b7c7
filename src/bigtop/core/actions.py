"""Actions: small frozen dataclasses, one class per kind of move, with a JSON form.

The JSON form of an action is ``{"type": <kind>, <field>: <value>, ...}``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Insert(Action):
...     kind = "insert"
...     position: int
>>> Insert(3).to_json()
{'type': 'insert', 'position': 3}
>>> action_from_json({"type": "insert", "position": 3}, (Insert,))
Insert(position=3)
>>> action_from_json({"type": "insert", "position": "3"}, (Insert,))
Traceback (most recent call last):
...
bigtop.core.errors.MalformedActionError: action 'insert': field 'position' must be int, got '3'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, get_args, get_origin, get_type_hints

from bigtop.core.errors import IllegalActionError, MalformedActionError


@dataclass(frozen=True, slots=True)
class Action:
    """Base class of every game's actions. ``kind`` is the action's name in JSON."""

    kind: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out


_FIELD_TYPES: dict[type[Action], tuple[tuple[str, Any], ...]] = {}


def _field_types(cls: type[Action]) -> tuple[tuple[str, Any], ...]:
    if cls not in _FIELD_TYPES:
        hints = get_type_hints(cls)
        _FIELD_TYPES[cls] = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))
    return _FIELD_TYPES[cls]


def _check_value(kind: str, name: str, tp: Any, v: Any) -> Any:
    def bad() -> MalformedActionError:
        tname = getattr(tp, "__name__", str(tp).replace("typing.", ""))
        return MalformedActionError(f"action {kind!r}: field {name!r} must be {tname}, got {v!r}")

    origin = get_origin(tp)
    if origin is Literal:
        if v not in get_args(tp) or (type(v) is bool and not any(type(a) is bool for a in
                                                                 get_args(tp))):
            raise bad()
        return v
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(v, list | tuple):
            raise bad()
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_check_value(kind, name, args[0], x) for x in v)
        if len(args) != len(v):
            raise bad()
        return tuple(_check_value(kind, name, a, x) for a, x in zip(args, v, strict=True))
    if tp is bool:
        if not isinstance(v, bool):
            raise bad()
        return v
    if tp is int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise bad()
        return v
    if tp is float:
        if isinstance(v, bool) or not isinstance(v, int | float) or v != v:
            raise bad()
        return float(v)
    if tp is str:
        if not isinstance(v, str):
            raise bad()
        return v
    raise bad()  # pragma: no cover - unsupported field type in a game's action


def action_from_json(obj: object, classes: Sequence[type[Action]]) -> Action:
    """Parse the JSON form of an action into one of ``classes``; raise
    :class:`MalformedActionError` naming what is wrong."""
    if not isinstance(obj, dict):
        raise MalformedActionError(f"an action must be a JSON object, got {obj!r}")
    kind = obj.get("type")
    by_kind = {c.kind: c for c in classes}
    cls = by_kind.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise MalformedActionError(
            f"unknown action type {kind!r}; expected one of {', '.join(sorted(by_kind))}"
        )
    fields = _field_types(cls)
    names = {n for n, _ in fields}
    extra = sorted(set(obj) - names - {"type"})
    if extra:
        raise MalformedActionError(f"action {kind!r} has no field {extra[0]!r}")
    kwargs = {}
    for name, tp in fields:
        if name not in obj:
            raise MalformedActionError(f"action {kind!r} needs field {name!r}")
        kwargs[name] = _check_value(kind, name, tp, obj[name])
    return cls(**kwargs)


class ActionTable:
    """A game's fixed integer encoding: every action it can ever list, interned once, in a
    fixed order. Legal-action lists hand out these same objects, so a bot's choice is found
    by identity.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Bid(Action):
    ...     kind = "bid"
    ...     n: int
    >>> table = ActionTable([Bid(1), Bid(2)])
    >>> len(table), table.to_int(Bid(2)), table.from_int(0)
    (2, 1, Bid(n=1))
    """

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = list(actions)
        self.index = {a: i for i, a in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise ValueError("an action table lists an action twice")

    def __len__(self) -> int:
        return len(self.actions)

    def to_int(self, action: Action) -> int:
        try:
            return self.index[action]
        except (KeyError, TypeError):
            raise IllegalActionError(f"{action!r} has no action number") from None

    def from_int(self, index: int) -> Action:
        if isinstance(index, bool) or not isinstance(index, int) or not (
            0 <= index < len(self.actions)
        ):
            raise IndexError(index)
        return self.actions[index]
