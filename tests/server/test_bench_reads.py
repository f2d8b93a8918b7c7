"""bench/bench_reads.py on a tiny load: every read it times answers 200 (it asserts so), the
largest So ein Zirkus board is a valid board, and it prints a row per endpoint."""

from __future__ import annotations

import json

import pytest
from bench import bench_reads

from bigtop.games.zirkus.board import parse_board


def test_the_largest_board_is_a_board() -> None:
    board = parse_board(json.loads(bench_reads.big_board()))
    assert (board.columns, board.rows) == (26, 99)


def test_each_read_is_timed(capsys: pytest.CaptureFixture[str]) -> None:
    bench_reads.run(tables=2, n=1, rounds=1)
    out = capsys.readouterr().out
    for name in ("view", "lobby", "picture cached", "picture uncached", "export"):
        assert f"\n{name} " in out
