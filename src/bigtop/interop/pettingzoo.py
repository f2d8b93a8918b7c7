"""bigtop games as PettingZoo AEC environments (``pip install bigtop[pettingzoo]``).

``env(game, players=N, **options)`` returns the game as a PettingZoo
:class:`~pettingzoo.AECEnv`:

* agents ``player_0 .. player_{N-1}`` (bigtop seats);
* action space ``Discrete(num_distinct_actions)``: the game's fixed integer encoding
  (:meth:`~bigtop.core.game.Game.action_to_int`);
* observation ``{"observation": float32 vector, "action_mask": int8 vector}``: the game's
  tensor layout of ``state.observation(agent)`` (:mod:`bigtop.interop.tensors`) and a mask that
  is 1 for the legal actions of the agent to act (all zero for the others);
* chance nodes (a die) are resolved inside ``step`` from the state's seed, as in bigtop;
* ``reset(seed=S)`` plays the bigtop game from seed ``S`` (so a seeded environment replays
  ``bigtop.new_state(game, N, seed=S)`` exactly); ``reset()`` without a seed draws the next
  seed from the environment's own generator, itself seeded by the last ``reset(seed=...)``;
* rewards are paid at the end: the zero-sum ranking returns of :mod:`bigtop.interop.common`;
* ``render()`` is the spectator's text view (``render_mode="ansi"`` returns it, ``"human"``
  prints it).

>>> from bigtop.interop.pettingzoo import env
>>> e = env("scout", players=2, rounds=1)
>>> e.reset(seed=3)
>>> e.agent_selection
'player_0'
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from bigtop.core.errors import BigtopError, MalformedActionError, shown
from bigtop.core.extras import require_extra
from bigtop.core.game import Game, State
from bigtop.core.registry import get_game, new_game
from bigtop.core.rng import MAX_SEED, check_seed
from bigtop.interop.common import state_returns
from bigtop.interop.tensors import TensorLayout, layout_for

require_extra("pettingzoo", what="bigtop.interop.pettingzoo")
import gymnasium  # noqa: E402  (after the check: a missing extra is one line)
from pettingzoo import AECEnv  # noqa: E402


def _agent(p: int) -> str:
    return f"player_{p}"


class BigtopEnv(AECEnv):  # type: ignore[misc]
    """One bigtop game configuration as an AEC environment (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None) -> None:
        super().__init__()
        # (isinstance first: ``in`` on a numpy array asks its truth value and raises.)
        if render_mode is not None and (not isinstance(render_mode, str)
                                        or render_mode not in self.metadata["render_modes"]):
            raise BigtopError(f"render_mode must be one of {self.metadata['render_modes']}, "
                              f"got {shown(render_mode)}")
        self.game = game
        self.render_mode = render_mode
        self.metadata = {  # type: ignore[misc]  # per instance: the name names the game
            **self.metadata, "name": f"bigtop_{game.name.replace('-', '_')}_v0"}
        self.layout: TensorLayout = layout_for(game)
        n = game.num_players
        nda = game.num_distinct_actions()
        self.possible_agents = [_agent(p) for p in range(n)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        bound = np.float32(self.layout.bound)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(
                    -bound, bound, (self.layout.size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (nda,), np.int8),
            }) for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(nda) for a in self.possible_agents}
        self._np_random = np.random.default_rng()
        self.state_: State | None = None
        self.agent_selection: str = self.possible_agents[0]

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def _seat(self, agent: object) -> int:
        """The seat of ``agent``; a clear error for a name that is none (a KeyError, or a
        TypeError for a list, is what the mapping alone would give)."""
        p = self.agent_name_mapping.get(agent) if isinstance(agent, str) else None
        if p is None:
            raise BigtopError(f"no agent {shown(agent)}; agents: "
                              f"{', '.join(self.possible_agents)}")
        return p

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    @property
    def bigtop_state(self) -> State:
        """The bigtop state being played (after ``reset``)."""
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    # -- the AEC protocol ------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``options`` is accepted for the API but unused: rule options are
        fixed when the environment is made."""
        if seed is not None:
            # A numpy integer too (gymnasium seeds pass them); int() would also have taken
            # 0.5, True or "7" and raised TypeError for a list: check_seed refuses those.
            game_seed = check_seed(int(seed) if isinstance(seed, np.integer) else seed)
            self._np_random = np.random.default_rng(game_seed)
        else:
            game_seed = int(self._np_random.integers(0, MAX_SEED, dtype=np.int64))
        self.state_ = self.game.new_initial_state(game_seed)
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _resolve_chance(self) -> None:
        state = self.bigtop_state
        while state.is_chance():
            state.apply_chance()

    def _select(self) -> None:
        state = self.bigtop_state
        if state.is_terminal():
            # Every agent is done; agent_iter visits each once more to step(None).
            self.terminations = {a: True for a in self.agents}
            returns = state_returns(state)
            self.rewards = {a: returns[self.agent_name_mapping[a]] for a in self.agents}
            if self.agent_selection not in self.agents:  # pragma: no cover - defensive
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = _agent(state.current_player())

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.bigtop_state
        if action is None:
            raise MalformedActionError(
                f"{agent} is still playing: step(None) is only for agents that are done; "
                "give an action number (see the action_mask)")
        # An illegal number raises IllegalActionError (a ValueError) and changes nothing;
        # numpy integers are accepted, a float or anything else is a MalformedActionError.
        state.apply_int(action)
        self._cumulative_rewards[agent] = 0.0
        self._resolve_chance()
        self.rewards = {a: 0.0 for a in self.agents}
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        p = self._seat(agent)
        state = self.bigtop_state
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if state.current_player() == p:
            mask[state.legal_action_numbers()] = 1
        return {"observation": self.layout.tensor(state, p), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use 'ansi' or "
                                  "'human'")
            return None
        text = "(no game yet: call reset())" if self.state_ is None else self.state_.render(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (text rendering only)."""


def env(game: str, players: int | None = None, render_mode: str | None = None,
        **options: object) -> BigtopEnv:
    """The bigtop game ``game`` (registry name) for ``players`` players (default: the
    fewest it allows) with rule ``options``, as a PettingZoo AEC environment."""
    n = get_game(game).min_players if players is None else players
    return BigtopEnv(new_game(game, n, options), render_mode=render_mode)
