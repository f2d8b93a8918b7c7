"""So ein Zirkus boards as data.

The rulebook gives neither the board size nor the hole positions (they are printed on the
wooden board); the published facts are 3 × 8 fields and six holes worth 1 to 6. A board is
therefore a small JSON file::

    {
      "name": "default",
      "note": "free text",
      "columns": 3,
      "rows": 8,
      "start": ["A1", "B1", "C1"],
      "holes": {"A3": 1, "C4": 2, "B5": 3, "A6": 4, "C7": 5, "B8": 6}
    }

Fields are named by column letter (A = left as seen from the start edge) and row number
(1 = the start edge). The clowns start on the first three start fields. Checks on load:
size 3..26 columns and 2..99 rows, at least three start fields, all on row 1, no field listed
twice, every hole on the grid and not on a start field, hole values 1..6 with exactly one
6-point hole (the last hole: filling it ends the game).

>>> b = load_board("default")
>>> b.columns, b.rows, b.field_name(b.six_hole_field)
(3, 8, 'B8')
>>> parse_board({"name": "x", "columns": 3, "rows": 4, "start": ["A1", "B1", "C1"],
...              "holes": {"A5": 6}})
Traceback (most recent call last):
...
bigtop.games.zirkus.board.BoardError: board 'x': hole A5 is off the 3 x 4 grid
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from bigtop.core.errors import InputLimitError, RuleOptionError, shown
from bigtop.core.limits import MAX_BOARD_FILE_BYTES, check_depth, check_text

MAX_COLUMNS = 26
MAX_ROWS = 99
NUM_CLOWNS: Final = 3  # Final: inlined by the compiled rules
_FIELD = re.compile(r"([A-Z])([1-9][0-9]?)")
_KEYS = {"name", "note", "columns", "rows", "start", "holes"}


class BoardError(RuleOptionError):
    """A board file or board object that is not a valid So ein Zirkus board."""


@dataclass(frozen=True)
class Board:
    """A validated board. Fields are numbered ``row * columns + column`` (both from 0)."""

    name: str
    note: str
    columns: int
    rows: int
    start: tuple[int, ...]
    """Start fields in file order; the clowns begin on the first three."""
    holes: tuple[tuple[int, int], ...]
    """(field, value) in file order; the hole index used in states is the position here."""

    @property
    def size(self) -> int:
        return self.columns * self.rows

    @property
    def six_hole(self) -> int:
        """Index (into ``holes``) of the 6-point hole."""
        return next(i for i, (_, v) in enumerate(self.holes) if v == 6)

    @property
    def six_hole_field(self) -> int:
        return self.holes[self.six_hole][0]

    def field_name(self, field: int) -> str:
        row, col = divmod(field, self.columns)
        return f"{chr(65 + col)}{row + 1}"

    def field_index(self, name: str) -> int:
        """The field called ``name`` (e.g. ``"B3"``); raise BoardError if there is none."""
        m = _FIELD.fullmatch(name) if isinstance(name, str) else None
        if m is None:
            raise BoardError(f"{shown(name)} is not a field name like 'B3'")
        col, row = ord(m.group(1)) - 65, int(m.group(2)) - 1
        if not (col < self.columns and row < self.rows):
            raise BoardError(f"field {name} is off the {self.columns} x {self.rows} grid")
        return row * self.columns + col

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "note": self.note,
            "columns": self.columns,
            "rows": self.rows,
            "start": [self.field_name(f) for f in self.start],
            "holes": {self.field_name(f): v for f, v in self.holes},
        }


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise BoardError(f"{shown(k)} is listed twice")
        out[k] = v
    return out


def parse_board(obj: object, where: str = "board") -> Board:
    """Validate a board given as a JSON object; raise :class:`BoardError` naming the fault."""
    if not isinstance(obj, dict):
        raise BoardError(f"{where}: a board must be a JSON object")
    name = obj.get("name", "custom")
    if not isinstance(name, str) or not name:
        raise BoardError(f"{where}: 'name' must be a non-empty string")
    what = f"board {shown(name)}"
    extra = sorted(set(obj) - _KEYS)
    if extra:
        raise BoardError(
            f"{what}: unknown key {shown(extra[0])} (keys: {', '.join(sorted(_KEYS))})")
    note = obj.get("note", "")
    if not isinstance(note, str):
        raise BoardError(f"{what}: 'note' must be a string")
    try:  # text, shown in views and pictures (written as UTF-8), to other people
        check_text([name, note], f"{where}: its name or note")
    except InputLimitError as e:
        raise BoardError(str(e)) from None
    cols, rows = obj.get("columns"), obj.get("rows")
    if type(cols) is not int or not 3 <= cols <= MAX_COLUMNS:
        raise BoardError(f"{what}: 'columns' must be a whole number 3..{MAX_COLUMNS}")
    if type(rows) is not int or not 2 <= rows <= MAX_ROWS:
        raise BoardError(f"{what}: 'rows' must be a whole number 2..{MAX_ROWS}")
    shape = Board(name, note, cols, rows, (), ())
    start_raw = obj.get("start")
    if not isinstance(start_raw, list) or not all(isinstance(s, str) for s in start_raw):
        raise BoardError(f"{what}: 'start' must be a list of field names")
    if len(start_raw) < NUM_CLOWNS:
        raise BoardError(f"{what}: needs at least {NUM_CLOWNS} start fields (one per clown)")
    start: list[int] = []
    for s in start_raw:
        try:
            f = shape.field_index(s)
        except BoardError as e:
            raise BoardError(f"{what}: start field {shown(s)}: {e}") from None
        if f in start:
            raise BoardError(f"{what}: start field {s} is listed twice")
        if f >= cols:
            raise BoardError(f"{what}: start field {s} is not on row 1 (the start edge)")
        start.append(f)
    holes_raw = obj.get("holes")
    if not isinstance(holes_raw, dict) or not holes_raw:
        raise BoardError(f"{what}: 'holes' must be an object of field: value")
    holes: list[tuple[int, int]] = []
    for s, v in holes_raw.items():
        if _FIELD.fullmatch(s) and not _on_grid(shape, s):
            raise BoardError(f"{what}: hole {s} is off the {cols} x {rows} grid")
        try:
            f = shape.field_index(s)
        except BoardError as e:
            raise BoardError(f"{what}: hole {shown(s)}: {e}") from None
        if f in start:
            raise BoardError(f"{what}: hole {s} is on a start field")
        if any(f == g for g, _ in holes):
            raise BoardError(f"{what}: hole {s} is listed twice")
        if type(v) is not int or not 1 <= v <= 6:
            raise BoardError(f"{what}: hole {s} must be worth 1..6 points, got {shown(v)}")
        holes.append((f, v))
    sixes = sum(1 for _, v in holes if v == 6)
    if sixes != 1:
        raise BoardError(f"{what}: needs exactly one 6-point hole (the last hole), has {sixes}")
    return Board(name, note, cols, rows, tuple(start), tuple(holes))


def _on_grid(shape: Board, name: str) -> bool:
    m = _FIELD.fullmatch(name)
    assert m is not None
    return ord(m.group(1)) - 65 < shape.columns and int(m.group(2)) <= shape.rows


def shipped_boards() -> list[str]:
    """Names of the boards shipped with bigtop (``board=<name>``)."""
    root = resources.files("bigtop.games.zirkus") / "boards"
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".json"))


def board_option(board: Board) -> str:
    """The ``board`` option value that embeds ``board``: its JSON, compact and canonical.

    >>> board_option(load_board("default"))[:18]
    '{"name":"default",'
    """
    return json.dumps(board.to_json(), ensure_ascii=False, separators=(",", ":"))


def looks_like_path(spec: str) -> bool:
    """Whether a command-line ``board=`` value names a file (a ``/`` or ``\\`` in it, or
    ending in ``.json``) rather than a shipped board."""
    return "/" in spec or "\\" in spec or spec.endswith(".json")


def load_board(spec: str) -> Board:
    """The board of a ``board`` option value: a shipped board's name (``"default"``,
    ``"4x10"``) or a board embedded as JSON text (what :func:`board_option` makes). Never a
    file: an option value comes from states and messages that strangers may write, so only
    :func:`read_board_file` (the command line) reads files. Errors are :class:`BoardError` (a
    RuleOptionError).

    >>> load_board("/etc/passwd")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bigtop.games.zirkus.board.BoardError: board '/etc/passwd' is neither a shipped board ...
    """
    if not isinstance(spec, str) or not spec:
        raise BoardError("board must be a shipped board name or a board as JSON")
    if spec.lstrip().startswith("{"):
        if len(spec) > MAX_BOARD_FILE_BYTES:
            raise BoardError(f"an embedded board is at most {MAX_BOARD_FILE_BYTES:,} characters")
        return _parse_board_text(spec, "embedded board")
    if spec not in shipped_boards():
        raise BoardError(f"board {shown(spec)} is neither a shipped board "
                         f"({', '.join(shipped_boards())}) nor a board as JSON; a board file is "
                         "read only when named on the command line (-o board=FILE.json)")
    text = (resources.files("bigtop.games.zirkus") / "boards" / f"{spec}.json").read_text(
        encoding="utf-8")
    return _parse_board_text(text, f"shipped board {shown(spec)}")


def read_board_file(path: str) -> str:
    """Read, check and embed a board file a user named on the command line: the ``board``
    option value to use instead of the path (see :func:`board_option`). At most
    :data:`~bigtop.core.limits.MAX_BOARD_FILE_BYTES` are read, so ``/dev/zero`` is refused."""
    try:
        with Path(path).open("rb") as f:
            data = f.read(MAX_BOARD_FILE_BYTES + 1)
    except OSError as e:
        raise BoardError(f"cannot read board file {path!r}: {e.strerror or e}") from None
    if len(data) > MAX_BOARD_FILE_BYTES:
        raise BoardError(f"board file {path!r} is larger than {MAX_BOARD_FILE_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BoardError(f"board file {path!r} is not UTF-8 text") from None
    return board_option(_parse_board_text(text, path))


def _parse_board_text(text: str, where: str) -> Board:
    try:
        check_depth(text, where)
        obj = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except BoardError as e:
        raise BoardError(f"{where}: {e}") from None
    except (json.JSONDecodeError, InputLimitError, RecursionError, ValueError) as e:
        raise BoardError(f"{where} is not valid JSON: {e}") from None
    return parse_board(obj, where)
