"""bench/bench_bots.py report: several results files make one table; a match measured again
replaces its earlier record; a bad file is refused with one clear line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench.bench_bots import main, read_matches, run_match

from bigtop.core.errors import BigtopError


def _record(game: str, a: str, b: str, games: int) -> dict[str, object]:
    players, options = (2, {}) if game == "so-ein-zirkus" else (4, {"rounds": 1})
    return run_match(game, a, b, players, options, max_games=games, look=games, seed=3)


def test_report_reads_several_files_and_keeps_the_last_record(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    first, second = tmp_path / "ladder.jsonl", tmp_path / "scout.jsonl"
    old = _record("so-ein-zirkus", "easy", "random", 2)
    new = _record("so-ein-zirkus", "easy", "random", 4)
    other = _record("scout", "easy", "random", 1)
    first.write_text(json.dumps(old) + "\n" + json.dumps(new) + "\n")
    second.write_text(json.dumps(other) + "\n")
    rows = read_matches([first, second])
    assert [(r["game"], r["games"]) for r in rows] == [("so-ein-zirkus", 4), ("scout", 1)]
    assert main(["report", str(first), str(second)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert len(table) == 2 + 2
    assert table[2].startswith("| so-ein-zirkus | easy | random | 4 |")
    assert table[3].startswith("| scout rounds=1 | easy | random | 1 |")


def test_report_refuses_a_file_that_is_not_match_records(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "scout"}\n')
    with pytest.raises(BigtopError, match=r"bad.jsonl:1: not a match record"):
        read_matches([bad])
    assert main(["report", str(bad)]) == 2
    assert main(["report", str(tmp_path / "missing.jsonl")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("error: ") for line in err)
