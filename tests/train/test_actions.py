"""The action-scoring policy's training: the teacher's games replay to the moves played,
the gradients are right, the same seed gives the same weights (also when the games were
played in two runs), and the record says what made them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from bigtop.agents.neural import ActionPolicy
from bigtop.cli import app
from bigtop.train.actions import (
    Decisions,
    ImitationConfig,
    decisions,
    init_policy,
    loss_and_grads,
    policy_parameters,
    run_imitation,
)
from bigtop.train.imitate import play_chunks, replay, teacher_game
from bigtop.train.selfplay import Table

TABLE = Table("scout", 4, (("rounds", 1),))
TINY = ImitationConfig(TABLE, "easy", seed=5, games=4, hidden=(8,), epochs=2, batch=32,
                       eval_games=2, yardsticks=("easy",))


def _same(a: ActionPolicy, b: ActionPolicy) -> bool:
    x, y = a.arrays(), b.arrays()
    return x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)


def test_a_kept_game_replays_to_the_teachers_moves() -> None:
    g = teacher_game(TABLE, "easy", 3, 0)
    assert g == teacher_game(TABLE, "easy", 3, 0)
    game = TABLE.new_game()
    seen = [move for _, move in replay(TABLE, g)]
    assert seen == g.moves  # a SCOUT round draws no chance after the deal
    data = decisions(TABLE, [g])
    assert len(data) == sum(1 for s, _ in replay(TABLE, g) if len(s.legal_actions()) > 1)
    assert data.rows.shape[0] == data.ptr[-1] and game.num_players == 4


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(3)
    data = Decisions(rng.normal(size=(9, 5)).astype(np.float32), np.array([0, 3, 4, 9]),
                     np.array([2, 0, 3]))
    policy = init_policy(rng, data, (6, 4))
    policy.out = (rng.normal(size=(4, 1)).astype(np.float32), policy.out[1])
    ds = np.arange(3)
    _, grads = loss_and_grads(policy, data, ds, weight_decay=0.0)
    params = policy_parameters(policy)
    for name in ("layer0_w", "layer1_b", "out_w"):
        flat = params[name].reshape(-1)
        for i in (0, flat.size - 1):
            old = flat[i]
            flat[i] = old + 1e-2
            up = loss_and_grads(policy, data, ds, weight_decay=0.0)[0]
            flat[i] = old - 1e-2
            down = loss_and_grads(policy, data, ds, weight_decay=0.0)[0]
            flat[i] = old
            assert abs((up - down) / 2e-2 - grads[name].reshape(-1)[i]) < 2e-3


def test_same_seed_same_weights_and_games_kept_between_runs(tmp_path: Path) -> None:
    whole = run_imitation(TINY, tmp_path / "a", command="bigtop train scout --teacher easy")
    # The first two games in one run, all four in a second one: the same games.
    play_chunks(tmp_path / "b", TABLE, "easy", 5, 2)
    again = run_imitation(TINY, tmp_path / "b")
    assert _same(whole, again)
    record = json.loads((tmp_path / "a" / "final.json").read_text())
    assert record["seed"] == 5 and record["teacher"] == "easy" and record["games"] == 4
    assert record["command"].startswith("bigtop train scout") and set(record["shares"]) == {
        "easy"}
    assert _same(ActionPolicy.load(tmp_path / "a" / "final.npz"), whole)


def test_the_command_line_trains_from_a_teacher(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "scout", "-p", "4", "-o", "rounds=1",
                                      "--teacher", "easy", "--first-games", "2",
                                      "--hidden", "4", "--epochs", "1", "--eval-games", "0",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 games of easy" in result.output and (out / "final.npz").exists()
    bad = CliRunner().invoke(app, ["train", "scout", "--teacher", "grandmaster",
                                   "--out", str(out)])
    assert bad.exit_code != 0 and "unknown bot 'grandmaster'" in bad.output
