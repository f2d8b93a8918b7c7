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

Construction checks field types exactly, so a wrong-typed action never reaches a game's rules
(``True`` is not an int, ``0.0`` is not an int, a float field takes an int as its float):

>>> Insert(True)
Traceback (most recent call last):
...
bigtop.core.errors.MalformedActionError: action 'insert': field 'position' must be int, got True
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, get_args, get_origin, get_type_hints

from bigtop.core.errors import IllegalActionError, MalformedActionError, shown
from bigtop.core.limits import MAX_ACTION_INT, MAX_STRING_LENGTH


@dataclass(frozen=True, slots=True)
class Action:
    """Base class of every game's actions. ``kind`` is the action's name in JSON."""

    kind: ClassVar[str] = "action"

    def __post_init__(self) -> None:
        # Exact field types at construction: an action with an equal but wrong-typed value
        # (0.0 for 0, True for 1) would pass a legality check by ``==`` and then break the
        # rules code half-way through a move, or land in a history that no longer loads.
        cls = type(self)
        for name, tp in _field_types(cls):
            v = getattr(self, name)
            checked = _check_value(cls.kind, name, tp, v)
            if checked is not v:
                object.__setattr__(self, name, checked)

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
    """``v`` as a value of field type ``tp`` (a float field takes an int as its float, a tuple
    field a list); raise :class:`MalformedActionError` for anything else."""
    def bad() -> MalformedActionError:
        tname = getattr(tp, "__name__", str(tp).replace("typing.", ""))
        return MalformedActionError(
            f"action {kind!r}: field {name!r} must be {tname}, got {shown(v)}")

    if tp is int:
        if type(v) is not int or not -MAX_ACTION_INT <= v <= MAX_ACTION_INT:
            raise bad()
        return v
    if tp is str:
        if type(v) is not str or len(v) > MAX_STRING_LENGTH:
            raise bad()
        return v
    if tp is bool:
        if type(v) is not bool:
            raise bad()
        return v
    if tp is float:
        if type(v) is int and -MAX_ACTION_INT <= v <= MAX_ACTION_INT:
            return float(v)
        if type(v) is not float or not math.isfinite(v):
            raise bad()
        return v
    origin = get_origin(tp)
    if origin is Literal:
        # Compare type and value: 1.0 == 1 and True == 1 must not select a literal.
        if not any(type(a) is type(v) and a == v for a in get_args(tp)):
            raise bad()
        return v
    if origin is tuple:
        args = get_args(tp)
        if type(v) not in (list, tuple):
            raise bad()
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_check_value(kind, name, args[0], x) for x in v)
        if len(args) != len(v):
            raise bad()
        return tuple(_check_value(kind, name, a, x) for a, x in zip(args, v, strict=True))
    raise bad()  # pragma: no cover - unsupported field type in a game's action


def as_index(value: object) -> int:
    """``value`` as a plain ``int`` if it is an integer (numpy integers included, as RL code
    passes them), else :class:`MalformedActionError`. Used where integers enter from outside:
    action numbers.

    >>> import numpy as np
    >>> as_index(np.int64(3)), as_index(3)
    (3, 3)
    >>> as_index(3.0)
    Traceback (most recent call last):
    ...
    bigtop.core.errors.MalformedActionError: 3.0 is not an integer
    """
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        raise MalformedActionError(f"{shown(value)} is not an integer")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise MalformedActionError(f"{shown(value)} is not an integer") from None


def typed_text(text: object, title: str) -> str:
    """``text`` as the string of a typed move (``State.action_from_text``); a value that is no
    string is a MalformedActionError (a compiled game's parser would raise TypeError)."""
    if not isinstance(text, str):
        raise MalformedActionError(f"a typed move must be text, not {shown(text)}, in "
                                   f"{title}")
    return text


def action_from_json(obj: object, classes: Sequence[type[Action]]) -> Action:
    """Parse the JSON form of an action into one of ``classes``; raise
    :class:`MalformedActionError` naming what is wrong."""
    if not isinstance(obj, dict):
        raise MalformedActionError(f"an action must be a JSON object, got {shown(obj)}")
    kind = obj.get("type")
    by_kind = {c.kind: c for c in classes}
    cls = by_kind.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise MalformedActionError(
            f"unknown action type {shown(kind)}; expected one of "
            f"{', '.join(sorted(by_kind))}"
        )
    fields = _field_types(cls)
    names = {n for n, _ in fields}
    # Keys may be anything in a dict built by hand; name the first unknown one by its repr
    # (sorting mixed str/int keys would fail).
    extra = [k for k in obj if k != "type" and k not in names]
    if extra:
        raise MalformedActionError(f"action {kind!r} has no field {shown(extra[0])}")
    kwargs = {}
    for name, _ in fields:
        if name not in obj:
            raise MalformedActionError(f"action {kind!r} needs field {name!r}")
        kwargs[name] = obj[name]
    return cls(**kwargs)  # the constructor checks the field types


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
        # By identity: legal lists hand out these very objects, so numbering a list hashes
        # no dataclass. The table keeps its actions alive, so the ids stay valid.
        self.by_id = {id(a): i for i, a in enumerate(self.actions)}

    def __len__(self) -> int:
        return len(self.actions)

    def to_int(self, action: Action) -> int:
        try:
            return self.index[action]
        except (KeyError, TypeError):
            raise IllegalActionError(f"{shown(action)} has no action number") from None

    def numbers(self, actions: Sequence[Action]) -> list[int]:
        """:meth:`to_int` of each of ``actions``, by identity where it can.

        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True)
        ... class Bid(Action):
        ...     kind = "bid"
        ...     n: int
        >>> table = ActionTable([Bid(1), Bid(2)])
        >>> table.numbers([table.actions[1], Bid(1)])
        [1, 0]
        """
        by_id = self.by_id
        try:
            return [by_id[id(a)] for a in actions]
        except KeyError:  # an equal action object that is not the table's own
            return [self.to_int(a) for a in actions]

    def from_int(self, index: object) -> Action:
        """The action numbered ``index`` (a Python or numpy integer); MalformedActionError for
        anything else or a number out of range."""
        i = as_index(index)
        if not 0 <= i < len(self.actions):
            raise MalformedActionError(
                f"{shown(i)} is not an action number (0..{len(self.actions) - 1})")
        return self.actions[i]
