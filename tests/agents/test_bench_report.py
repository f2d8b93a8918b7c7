"""bench/bench_bots.py report: several results files make one table; a match measured again
replaces its earlier record; a bad file is refused with one clear line. The bench's own
bots: the public AI project's planning player, action policies kept in bench/nets."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import bench.bench_bots
import pytest
from bench.bench_bots import (
    bot,
    kept_action_policy,
    main,
    read_matches,
    run_match,
    yardsticks,
)
from bench.scout_planning_player import PlanningPlayer, hand_value

from bigtop import new_state
from bigtop.agents.base import play_random
from bigtop.agents.levels import make_bot
from bigtop.agents.neural import ActionCandidates, ActionPolicyAgent, action_policy_for
from bigtop.agents.planner import PlannerAgent
from bigtop.core.errors import BigtopError
from bigtop.core.registry import new_game
from bigtop.games.scout.actions import Show
from bigtop.games.scout.rules import Insert, Scout, ScoutState, _strength


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


def test_a_match_at_another_table_size_is_another_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same bots at five players are not the four-player match measured again."""
    four = _record("scout", "easy", "random", 1)
    five = run_match("scout", "easy", "random", 5, {"rounds": 1}, max_games=1, look=1, seed=3)
    path = tmp_path / "scout.jsonl"
    path.write_text(json.dumps(four) + "\n" + json.dumps(five) + "\n")
    assert [r["players"] for r in read_matches([path])] == [4, 5]
    assert main(["report", str(path)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[2].startswith("| scout rounds=1 | easy |")
    assert table[3].startswith("| scout p=5 rounds=1 | easy |")


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


def test_a_match_in_worker_processes_is_the_same_record() -> None:
    one = run_match("so-ein-zirkus", "easy", "random", 2, {}, max_games=12, look=12, seed=5)
    two = run_match("so-ein-zirkus", "easy", "random", 2, {}, max_games=12, look=12, seed=5,
                    jobs=2)
    def same(r: dict[str, object]) -> dict[str, object]:
        return {k: v for k, v in r.items() if k not in ("a_ms", "b_ms")}
    assert same(one) == same(two)
    assert one["a_ms"]["moves"] == two["a_ms"]["moves"]


def test_another_seed_is_another_sample(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    first = run_match("so-ein-zirkus", "easy", "random", 2, {}, max_games=2, look=2, seed=3)
    again = run_match("so-ein-zirkus", "easy", "random", 2, {}, max_games=2, look=2, seed=3)
    other = run_match("so-ein-zirkus", "easy", "random", 2, {}, max_games=2, look=2, seed=4)
    path.write_text("".join(json.dumps(r) + "\n" for r in (first, again, other)))
    assert [r["seed"] for r in read_matches([path])] == [3, 4]


def _windows_value(tops: list[int]) -> float:
    """The planning player's hand value by brute force over every window."""
    total = 0.0
    for i in range(len(tops)):
        for k in range(2, len(tops) - i + 1):
            w = tops[i:i + k]
            if len(set(w)) == 1:
                total += k - 0.5
            elif all(b - a == 1 for a, b in itertools.pairwise(w)) or all(
                    a - b == 1 for a, b in itertools.pairwise(w)):
                total += k - 1
    return total


@pytest.mark.parametrize("tops", [[], [5], [3, 4, 5], [7, 7, 7, 2], [1, 2, 3, 2, 1],
                                  [4, 4, 5, 6, 6, 6, 9, 8, 7, 6], [10, 9, 9, 9, 8]])
def test_planning_player_hand_value_counts_every_set_window(tops: list[int]) -> None:
    assert hand_value(tops) == _windows_value(tops)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_planning_player_plays_whole_games_legally(players: int) -> None:
    # Every phase: turning the hand, Shows, Scouts, and Scout & Show with its insert and Show.
    seen: set[str] = set()
    for seed in range(6):
        s = new_state("scout", players=players, seed=seed, options={"rounds": 2})
        assert isinstance(s, ScoutState)
        bot = PlanningPlayer()
        while not s.is_terminal():
            a = bot.act(s)
            assert a in s.legal_actions()
            if isinstance(a, Scout):
                seen.add("scout & show" if a.and_show else "scout")
            elif isinstance(a, Insert) and s.pending_and_show:
                seen.add("insert for a show")
            s.apply(a)
    assert {"scout", "scout & show", "insert for a show"} <= seen


def test_planning_player_scout_and_show_keeps_a_show_possible() -> None:
    # After its Scout & Show the card goes where a Show beats what is left on the table.
    for seed in range(30):
        s = new_state("scout", players=4, seed=seed, options={"rounds": 1})
        assert isinstance(s, ScoutState)
        bot = PlanningPlayer()
        while not s.is_terminal():
            if s.phase == "show":
                rest = [c[0] for c in s.active]
                beat = _strength(rest, 0, len(rest)) if rest else -1
                tops = [c[0] for c in s.hands[s.current_player()]]
                assert any(_strength(tops, a.start, a.length) > beat
                           for a in s.legal_actions() if isinstance(a, Show))
            s.apply(bot.act(s))


def test_yardsticks_refuse_an_unknown_bot_before_playing_any_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A typo in the last yardstick fails at once and writes nothing (the matches before it
    take hours in full games)."""
    out = tmp_path / "y.jsonl"
    assert main(["yardsticks", "--out", str(out), "--bots", "easy",
                 "--against", "policy-gen1,hard-v6", "--max-games", "1", "--look", "1"]) == 2
    assert "unknown bot 'hard-v6'" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(BigtopError, match="unknown bot 'hard-v6'"):
        yardsticks(out, ["hard-v6"], ["policy-gen1"], {}, 1, 1, 1, None, None)
    assert not out.exists()


def test_a_kept_action_policy_plays_as_the_shipped_one_does(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """``neural-actions-<tag>`` is the ``neural`` level and ``action-policy-<tag>`` the policy
    alone, each with the policy kept as ``<game>-<players>p-actions-<tag>.npz`` in bench/nets:
    with a copy of the shipped policy they choose the shipped bots' moves."""
    monkeypatch.setattr(bench.bench_bots, "NETS", tmp_path)
    game = new_game("scout", 4, {"rounds": 1})
    action_policy_for(game).save(tmp_path / "scout-4p-actions-copy.npz")
    kept = kept_action_policy(game, "copy")
    neural = bot("neural-actions-copy", game, 1, 3)
    assert isinstance(neural, PlannerAgent) and isinstance(neural.profile.candidates,
                                                           ActionCandidates)
    assert neural.profile.candidates.policy is kept and neural.iterations == 8
    alone = bot("action-policy-copy", game, 1, 3)
    assert isinstance(alone, ActionPolicyAgent) and alone.policy is kept
    four = bot("neural-actions-copy@4", game, 1, 3)
    assert isinstance(four, PlannerAgent) and four.iterations == 4
    state = new_state("scout", 4, seed=5, options={"rounds": 1})
    rng = random.Random(1)
    compared = 0
    while not state.is_terminal() and compared < 6:
        if len(state.legal_actions()) > 3:  # where the prior prunes
            p = state.current_player()
            assert (bot("neural-actions-copy", game, p, 7).act(state)
                    == make_bot("neural", game, p, 7).act(state))
            assert bot("action-policy-copy", game, p, 7).act(state) == \
                ActionPolicyAgent().act(state)
            compared += 1
        play_random(state, rng, 1)
    assert compared == 6


def test_a_missing_kept_action_policy_is_refused_by_name(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(bench.bench_bots, "NETS", tmp_path)
    four, three = new_game("scout", 4, {"rounds": 1}), new_game("scout", 3, {"rounds": 1})
    action_policy_for(four).save(tmp_path / "scout-4p-actions-copy.npz")
    for name, game in (("neural-actions-other", four), ("action-policy-", four),
                       ("neural-actions-copy", three), ("action-policy-../copy", four)):
        with pytest.raises(BigtopError, match="no action policy") as e:
            bot(name, game, 0, 1)
        assert str(e.value).endswith("(kept there: copy)" if game is four
                                     else "(kept there: none)"), name
