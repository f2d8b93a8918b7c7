"""The network's training step in numpy: initialization, the loss and its gradients by
hand (masked softmax cross-entropy for the policy, squared error for the value), and Adam.

Everything draws from a seeded ``numpy.random.Generator``: the same seed and data give the
same weights, bit for bit, on one machine.

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> net = init_network(rng, inputs=np.arange(5), mean=np.zeros(5, np.float32),
...                    scale=np.ones(5, np.float32), hidden=(8,), actions=3)
>>> x = rng.normal(size=(4, 5)).astype(np.float32)
>>> legal = np.ones((4, 3), bool)
>>> loss, grads = loss_and_grads(net, x, legal, np.array([0, 1, 2, 0]), np.zeros(4, np.float32))
>>> sorted(grads) == sorted(parameters(net)) and loss["policy"] > 0
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from bigtop.agents.neural import F32, Network

VALUE_WEIGHT = 1.0
"""The value loss's weight beside the policy's."""


def init_network(rng: np.random.Generator, inputs: npt.NDArray[Any], mean: F32, scale: F32,
                 hidden: tuple[int, ...], actions: int, value_scale: float = 10.0) -> Network:
    """He-initialized ReLU layers, zero biases, small heads."""
    sizes = [len(inputs), *hidden]
    trunk = []
    for a, b in itertools.pairwise(sizes):
        w = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        trunk.append((w, np.zeros(b, np.float32)))
    h = sizes[-1]
    policy = ((rng.standard_normal((h, actions)) * 0.01).astype(np.float32),
              np.zeros(actions, np.float32))
    value = ((rng.standard_normal((h, 1)) * 0.01).astype(np.float32), np.zeros(1, np.float32))
    return Network(np.asarray(inputs, np.int64), mean.astype(np.float32),
                   scale.astype(np.float32), trunk, policy, value, value_scale)


def parameters(net: Network) -> dict[str, F32]:
    """The trainable arrays by name (views into the network: updating them updates it)."""
    out: dict[str, F32] = {}
    for i, (w, b) in enumerate(net.trunk):
        out[f"trunk{i}_w"], out[f"trunk{i}_b"] = w, b
    out["policy_w"], out["policy_b"] = net.policy
    out["value_w"], out["value_b"] = net.value
    return out


def loss_and_grads(net: Network, x: F32, legal: npt.NDArray[np.bool_],
                   action: npt.NDArray[Any], value: F32,
                   weight_decay: float = 1e-4) -> tuple[dict[str, float], dict[str, F32]]:
    """The losses and the gradient of their sum for a batch: standardized inputs ``x``
    (B, D), the legal actions' mask (B, A), the chosen actions (B,) and the value targets
    in points (B,)."""
    n = x.shape[0]
    acts = [x]
    pre = []
    h = x
    for w, b in net.trunk:
        z = h @ w + b
        pre.append(z)
        h = np.maximum(z, 0.0)
        acts.append(h)
    logits = h @ net.policy[0] + net.policy[1]
    logits = np.where(legal, logits, np.float32(-1e9))
    logits = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(logits) * legal
    probs = e / e.sum(axis=1, keepdims=True)
    rows = np.arange(n)
    policy_loss = float(-np.mean(np.log(probs[rows, action] + 1e-12)))
    v = (h @ net.value[0] + net.value[1])[:, 0]
    target = value / np.float32(net.value_scale)
    value_loss = float(np.mean((v - target) ** 2))
    d_logits = probs.copy()
    d_logits[rows, action] -= 1.0
    d_logits /= n
    d_v = (VALUE_WEIGHT * 2.0 * (v - target) / n)[:, None].astype(np.float32)
    grads: dict[str, F32] = {
        "policy_w": h.T @ d_logits, "policy_b": d_logits.sum(axis=0),
        "value_w": h.T @ d_v, "value_b": d_v.sum(axis=0),
    }
    dh = d_logits @ net.policy[0].T + d_v @ net.value[0].T
    for i in range(len(net.trunk) - 1, -1, -1):
        dz = dh * (pre[i] > 0)
        w = net.trunk[i][0]
        grads[f"trunk{i}_w"] = acts[i].T @ dz + weight_decay * w
        grads[f"trunk{i}_b"] = dz.sum(axis=0)
        if i:
            dh = dz @ w.T
    grads = {k: g.astype(np.float32) for k, g in grads.items()}
    return {"policy": policy_loss, "value": value_loss}, grads


@dataclass
class Adam:
    """Adam (Kingma and Ba) over a network's :func:`parameters`, state saved with a
    checkpoint."""

    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    step: int = 0
    m: dict[str, F32] = field(default_factory=dict)
    v: dict[str, F32] = field(default_factory=dict)

    def update(self, params: dict[str, F32], grads: dict[str, F32]) -> None:
        self.step += 1
        t = self.step
        c1 = 1 - self.beta1 ** t
        c2 = 1 - self.beta2 ** t
        for k, p in params.items():
            g = grads[k]
            m = self.m.setdefault(k, np.zeros_like(p))
            v = self.v.setdefault(k, np.zeros_like(p))
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            p -= (self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)).astype(np.float32)

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        out: dict[str, npt.NDArray[Any]] = {"adam_step": np.asarray(self.step, np.int64)}
        for k in self.m:
            out[f"adam_m_{k}"], out[f"adam_v_{k}"] = self.m[k], self.v[k]
        return out

    def load(self, a: Any) -> None:
        self.step = int(a["adam_step"])
        names = [k[len("adam_m_"):] for k in a if k.startswith("adam_m_")]
        self.m = {k: np.array(a[f"adam_m_{k}"], np.float32) for k in names}
        self.v = {k: np.array(a[f"adam_v_{k}"], np.float32) for k in names}
