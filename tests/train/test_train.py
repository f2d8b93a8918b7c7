"""Self-play training: seeded and reproducible (same seed, same weights, also when a run is
interrupted and resumed), the losses fall, the checkpoint records what made it, and bad
command lines are refused."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bigtop.agents.neural import Network, NeuralSearch
from bigtop.cli import app
from bigtop.train import Config, Table, run
from bigtop.train.learn import Adam, init_network, loss_and_grads, parameters

TINY = Config(Table("scout", 3, (("rounds", 1),)), seed=5, generations=2, games=2,
              first_games=6, samples=1, search=NeuralSearch(horizon=1), hidden=(16,),
              epochs=2, batch=64, eval_games=3, yardsticks=("easy",))


def _same(a: Network, b: Network) -> bool:
    x, y = a.arrays(), b.arrays()
    return x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)


def test_same_seed_same_weights_and_a_resumed_run_ends_the_same(tmp_path: Path) -> None:
    whole = run(TINY, tmp_path / "a")
    again = run(TINY, tmp_path / "b")
    assert _same(whole, again)
    # Interrupted after the first generation, then resumed by the same call.
    run(TINY, tmp_path / "c", stop_after=1)
    assert json.loads((tmp_path / "c" / "progress.json").read_text())[
        "generations_done"] == 1
    assert not (tmp_path / "c" / "final.npz").exists()
    resumed = run(TINY, tmp_path / "c")
    assert _same(whole, resumed)
    other = run(Config(**{**TINY.__dict__, "seed": 6}), tmp_path / "d")
    assert not _same(whole, other)
    saved = Network.load(tmp_path / "a" / "final.npz")
    assert _same(saved, whole)
    record = json.loads((tmp_path / "a" / "final.json").read_text())
    assert record["seed"] == 5 and record["generations"] == 2
    assert [c["generation"] for c in record["curve"]] == [1, 2]
    assert set(record["curve"][0]["shares"]) == {"easy"}
    assert (tmp_path / "a" / "nets" / "gen-000.npz").exists()


def test_a_run_with_other_settings_is_not_resumed(tmp_path: Path) -> None:
    run(Config(**{**TINY.__dict__, "generations": 1, "eval_games": 0}), tmp_path)
    with pytest.raises(Exception, match="other settings"):
        run(TINY, tmp_path)


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(3)
    net = init_network(rng, np.arange(6), np.zeros(6, np.float32), np.ones(6, np.float32),
                       (5, 4), actions=4)
    x = rng.normal(size=(7, 6)).astype(np.float32)
    legal = rng.random((7, 4)) < 0.7
    legal[:, 0] = True
    action = np.array([0] * 7)
    value = rng.normal(size=7).astype(np.float32) * 10

    def total() -> float:
        loss, _ = loss_and_grads(net, x, legal, action, value, weight_decay=0.0)
        return loss["policy"] + loss["value"]

    _, grads = loss_and_grads(net, x, legal, action, value, weight_decay=0.0)
    params = parameters(net)
    for name in ("trunk0_w", "trunk1_b", "policy_w", "value_w"):
        p = params[name]
        flat = p.reshape(-1)
        for i in (0, flat.size // 2, flat.size - 1):
            old = flat[i]
            flat[i] = old + 1e-2
            up = total()
            flat[i] = old - 1e-2
            down = total()
            flat[i] = old
            assert abs((up - down) / 2e-2 - grads[name].reshape(-1)[i]) < 2e-3, name


def test_adam_lowers_the_loss() -> None:
    rng = np.random.default_rng(4)
    net = init_network(rng, np.arange(8), np.zeros(8, np.float32), np.ones(8, np.float32),
                       (16,), actions=3)
    x = rng.normal(size=(64, 8)).astype(np.float32)
    action = (x[:, 0] > 0).astype(int)  # a rule the network can learn
    value = (5 * x[:, 1]).astype(np.float32)
    legal = np.ones((64, 3), bool)
    adam = Adam(lr=1e-2)
    first, _ = loss_and_grads(net, x, legal, action, value)
    for _ in range(200):
        _, g = loss_and_grads(net, x, legal, action, value)
        adam.update(parameters(net), g)
    last, _ = loss_and_grads(net, x, legal, action, value)
    assert last["policy"] < first["policy"] / 2 and last["value"] < first["value"] / 2


@pytest.mark.parametrize(("args", "message"), [
    (["train", "nosuchgame"], "unknown game"),
    (["train", "scout", "--hidden", "12,x"], "--hidden"),
    (["train", "scout", "--hidden", "0"], "--hidden"),
    (["train", "scout", "-p", "9"], "players"),
    (["train", "scout", "--yardsticks", "grandmaster"], "unknown bot"),
])
def test_bad_command_lines_are_refused(args: list[str], message: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "run").exists()


def test_the_command_trains_and_writes_the_weights(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, [
        "train", "scout", "-p", "3", "-o", "rounds=1", "--out", str(out), "--generations",
        "1", "--first-games", "4", "--hidden", "8", "--epochs", "1", "--eval-games", "2",
        "--yardsticks", "easy", "--weights", str(tmp_path / "w.npz")])
    assert result.exit_code == 0, result.output
    net = Network.load(tmp_path / "w.npz")
    assert net.meta["command"].startswith("bigtop train scout") and net.meta["seed"] == 1
    assert (out / "curve.png").exists()
