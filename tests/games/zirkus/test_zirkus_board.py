"""Boards as data: the shipped boards load, a board file named on the command line is read
and embedded in the option (a state never names a file), and a bad file gets a clear error (a
RuleOptionError) naming the fault."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bigtop.core.errors import RuleOptionError
from bigtop.core.registry import get_game, load_state, new_game
from bigtop.games.zirkus import BoardError, ZirkusGame, board_option, load_board, parse_board

HERE = Path(__file__).parent
TEST_BOARD = HERE / "boards" / "board-4x10.json"


def good() -> dict[str, Any]:
    return {"name": "t", "columns": 3, "rows": 8, "start": ["A1", "B1", "C1"],
            "holes": {"A3": 1, "C4": 2, "B5": 3, "A6": 4, "C7": 5, "B8": 6}}


def test_default_board_is_the_published_size_with_holes_1_to_6() -> None:
    b = load_board("default")
    assert (b.columns, b.rows) == (3, 8)  # "a wooden grid of 3 × 8 fields"
    assert sorted(v for _, v in b.holes) == [1, 2, 3, 4, 5, 6]
    assert [b.field_name(f) for f in b.start] == ["A1", "B1", "C1"]
    assert {b.field_name(f): v for f, v in b.holes} == {
        "A3": 1, "C4": 2, "B5": 3, "A6": 4, "C7": 5, "B8": 6}
    assert parse_board(b.to_json()) == b


def cli_board(path: Path) -> dict[str, object]:
    """The options a command line ``-o board=PATH`` gives."""
    return get_game("so-ein-zirkus").command_line_options({"board": str(path)})


def zirkus(players: int, options: dict[str, object]) -> ZirkusGame:
    g = new_game("so-ein-zirkus", players, options)
    assert isinstance(g, ZirkusGame)
    return g


def test_board_option_loads_a_file_of_another_size() -> None:
    g = zirkus(3, cli_board(TEST_BOARD))
    assert (g.board.columns, g.board.rows) == (4, 10)
    assert g.board == load_board("4x10")  # the same layout ships as an example board
    assert g.num_distinct_actions() == 6 + 12 + 117 + 3 * 4 + 3 + 4


@pytest.mark.parametrize(("change", "message"), [
    ({"holes": {"A3": 1, "A9": 6}}, "hole A9 is off the 3 x 8 grid"),
    ({"holes": {"D3": 1, "B8": 6}}, "hole D3 is off the 3 x 8 grid"),
    ({"holes": {"A3": 1, "B5": 3}}, "needs exactly one 6-point hole"),
    ({"holes": {"A3": 6, "B5": 6}}, r"needs exactly one 6-point hole \(the last hole\), has 2"),
    ({"holes": {"A3": 7, "B8": 6}}, "must be worth 1..6 points"),
    ({"holes": {"A3": 0, "B8": 6}}, "must be worth 1..6 points"),
    ({"holes": {"B1": 2, "B8": 6}}, "hole B1 is on a start field"),
    ({"holes": {"b3": 2, "B8": 6}}, "is not a field name"),
    ({"holes": {}}, "'holes' must be an object"),
    ({"start": ["A1", "B1", "B1"]}, "start field B1 is listed twice"),
    ({"start": ["A1", "B1"]}, "needs at least 3 start fields"),
    ({"start": ["A1", "B1", "C2"]}, "start field C2 is not on row 1"),
    ({"columns": 2}, "'columns' must be a whole number 3..26"),
    ({"rows": 1}, "'rows' must be a whole number 2..99"),
    ({"rows": "8"}, "'rows' must be a whole number"),
    ({"colour": "red"}, "unknown key 'colour'"),
])
def test_bad_boards_are_refused_with_a_clear_error(change: dict[str, Any], message: str) -> None:
    data = good() | change
    with pytest.raises(BoardError, match=message):
        parse_board(data)


def test_bad_board_files(tmp_path: Path) -> None:
    dup = tmp_path / "dup.json"
    dup.write_text('{"name": "d", "columns": 3, "rows": 8, "start": ["A1", "B1", "C1"], '
                   '"holes": {"A3": 1, "A3": 2, "B8": 6}}')
    with pytest.raises(RuleOptionError, match="'A3' is listed twice"):
        cli_board(dup)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(RuleOptionError, match="is not valid JSON"):
        cli_board(broken)
    with pytest.raises(RuleOptionError, match="cannot read board file"):
        cli_board(tmp_path / "missing.json")
    with pytest.raises(RuleOptionError, match="'huge' is neither a shipped board"):
        new_game("so-ein-zirkus", 2, {"board": "huge"})
    off = tmp_path / "off.json"
    off.write_text(json.dumps(good() | {"holes": {"C9": 6}}))
    with pytest.raises(BoardError, match="hole C9 is off the 3 x 8 grid"):
        cli_board(off)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00{")
    with pytest.raises(BoardError, match="not UTF-8"):
        cli_board(binary)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 50_000 + "]" * 50_000)
    with pytest.raises(BoardError, match=r"larger than|nested deeper"):
        cli_board(deep)
    with pytest.raises(BoardError, match="nested deeper"):
        load_board("{" + '"a":[' * 100 + "]" * 100 + "}")


def test_a_board_option_never_reads_a_file(tmp_path: Path) -> None:
    """Regression: board=PATH in options (a state file, a message) read any file at load
    time (/dev/zero filled memory, /bin/ls crashed). Only the command line reads files."""
    path = tmp_path / "mini.json"
    path.write_text(json.dumps(good()))
    for spec in (str(path), "/dev/zero", "/bin/ls", "/etc/passwd", "x.json"):
        with pytest.raises(BoardError, match="neither a shipped board"):
            new_game("so-ein-zirkus", 2, {"board": spec})
        state = new_game("so-ein-zirkus", 2).new_initial_state(0).to_json()
        state["options"]["board"] = spec
        with pytest.raises(BoardError, match="neither a shipped board"):
            load_state(state)
    with pytest.raises(BoardError, match=r"larger than 65,536 bytes"):
        cli_board(Path("/dev/zero"))
    small_binary = tmp_path / "small.bin"
    small_binary.write_bytes(Path("/bin/ls").read_bytes()[:1000])
    with pytest.raises(BoardError, match=r"not UTF-8|not valid JSON"):
        cli_board(small_binary)


def test_an_embedded_board_makes_a_self_contained_state(tmp_path: Path) -> None:
    path = tmp_path / "mini.json"
    path.write_text(json.dumps({"name": "mini", "columns": 3, "rows": 3,
                                "start": ["A1", "B1", "C1"], "holes": {"B2": 1, "B3": 6}}))
    opts = cli_board(path)
    assert opts["board"] == board_option(load_board(str(opts["board"])))
    s = new_game("so-ein-zirkus", 2, opts).new_initial_state(4)
    path.unlink()  # the state does not need the file any more
    data = json.loads(json.dumps(s.to_json()))
    assert load_state(data) == s
    game = load_state(data).game
    assert isinstance(game, ZirkusGame) and game.board.name == "mini"


def test_a_custom_board_plays_and_its_states_carry_the_board(tmp_path: Path) -> None:
    path = tmp_path / "mini.json"
    path.write_text(json.dumps({"name": "mini", "columns": 3, "rows": 3,
                                "start": ["A1", "B1", "C1"], "holes": {"B2": 1, "B3": 6}}))
    g = zirkus(2, cli_board(path))
    s = g.new_initial_state(4)
    assert s.to_json()["position"]["board"]["holes"] == {"B2": 1, "B3": 6}
    # A state recorded on another board does not load into this game.
    other = new_game("so-ein-zirkus", 2).new_initial_state(4).to_json()
    other["options"]["board"] = g.options.board
    with pytest.raises(Exception, match="recorded on board 'default'"):
        g.state_from_json(other)
