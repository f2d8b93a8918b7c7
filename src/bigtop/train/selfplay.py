"""Self-play: games of one table played by the improvement operator in every seat, each
decision recorded for the network (the mover's view, its legal actions, the move played and
the points the mover then made to the end of the round).

The improvement operator is the game's 1-ply planner (:class:`~bigtop.agents.planner.
PlannerAgent`): with no network yet, with the game's own search profile (the ``medium``
search); afterwards with the current network inside it (:func:`~bigtop.agents.neural.
neural_profile`). Its moves are better than the network's own, so imitating them and
predicting their outcomes improves the network, which improves the next games' planner —
the expert-iteration (AlphaZero-style) loop. ``samples=0`` lets the game's rollout bot play
instead (cheap games for a first value estimate).

Each game is seeded from the run's seed, the generation and its number alone, so games may
be played in any number of worker processes and the record is the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bigtop.agents.base import Agent
from bigtop.agents.levels import search_profile
from bigtop.agents.neural import Encoder, Network, NeuralSearch, neural_profile
from bigtop.agents.planner import PlannerAgent
from bigtop.core.game import CHANCE, Game
from bigtop.core.registry import new_game
from bigtop.core.rng import derive_seed


@dataclass
class Records:
    """Decisions as arrays: each row's nonzero features (``idx``/``val`` from ``ptr``), its
    legal actions (``legal`` from ``legal_ptr``), the action played and the value target."""

    idx: npt.NDArray[np.int32]
    val: npt.NDArray[np.float32]
    ptr: npt.NDArray[np.int64]
    legal: npt.NDArray[np.int32]
    legal_ptr: npt.NDArray[np.int64]
    action: npt.NDArray[np.int32]
    value: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return len(self.action)

    @classmethod
    def join(cls, parts: list[Records]) -> Records:
        def offsets(ptrs: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int64]:
            out = [np.zeros(1, np.int64)]
            base = 0
            for p in ptrs:
                out.append(p[1:] + base)
                base += int(p[-1])
            return np.concatenate(out)

        return cls(np.concatenate([p.idx for p in parts]),
                   np.concatenate([p.val for p in parts]),
                   offsets([p.ptr for p in parts]),
                   np.concatenate([p.legal for p in parts]),
                   offsets([p.legal_ptr for p in parts]),
                   np.concatenate([p.action for p in parts]),
                   np.concatenate([p.value for p in parts]))

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        return dict(self.__dict__)

    @classmethod
    def from_arrays(cls, a: Any) -> Records:
        return cls(*(np.asarray(a[k]) for k in ("idx", "val", "ptr", "legal", "legal_ptr",
                                               "action", "value")))

    def dense(self, rows: npt.NDArray[Any], width: int,
              column_of: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """The rows' features as a dense (len(rows), width) matrix; feature ``i`` goes to
        column ``column_of[i]`` (dropped where that is -1)."""
        out = np.zeros((len(rows), width), np.float32)
        r, at = _ranges(self.ptr, rows)
        cols = column_of[self.idx[at]]
        keep = cols >= 0
        out[r[keep], cols[keep]] = self.val[at][keep]
        return out

    def legal_mask(self, rows: npt.NDArray[Any], actions: int) -> npt.NDArray[np.bool_]:
        out = np.zeros((len(rows), actions), bool)
        r, at = _ranges(self.legal_ptr, rows)
        out[r, self.legal[at]] = True
        return out


def _ranges(ptr: npt.NDArray[np.int64], rows: npt.NDArray[Any]) -> tuple[
        npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For the ``rows`` of a ragged array with offsets ``ptr``: each element's position in
    ``rows`` and its index in the flat array.

    >>> r, at = _ranges(np.array([0, 2, 5, 6]), np.array([2, 0]))
    >>> r.tolist(), at.tolist()
    ([0, 1, 1], [5, 0, 1])
    """
    starts = ptr[rows]
    lengths = ptr[np.asarray(rows) + 1] - starts
    r = np.repeat(np.arange(len(rows), dtype=np.int64), lengths)
    first = np.repeat(np.cumsum(lengths) - lengths, lengths)
    at = np.repeat(starts, lengths) + np.arange(int(lengths.sum()), dtype=np.int64) - first
    return r, at


@dataclass(frozen=True)
class Table:
    """The game and table the network is trained for."""

    game: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()

    def new_game(self) -> Game:
        return new_game(self.game, self.players, dict(self.options))


def operator(game: Game, seat: int, seed: int, samples: int, how: NeuralSearch,
             net: Network | None) -> Agent:
    """The improvement operator for one seat (see the module doc)."""
    base = search_profile(game)
    if samples == 0:
        assert base.rollout is not None
        return base.rollout(game, seat)
    profile = base if net is None else neural_profile(base, how, net)
    return PlannerAgent(samples, seed, profile)


def play(table: Table, seed: int, generation: int, i: int, samples: int, how: NeuralSearch,
         net: Network | None) -> Records:
    """Game ``i`` of a generation, every decision recorded."""
    game = table.new_game()
    enc = Encoder(game)
    agents = [operator(game, q, derive_seed(seed, "agent", generation, i, q), samples, how,
                       net) for q in range(game.num_players)]
    state = game.new_initial_state(derive_seed(seed, "selfplay", generation, i))
    stage = search_profile(game).stage
    feats: list[npt.NDArray[np.float32]] = []
    legals: list[list[int]] = []
    actions: list[int] = []
    movers: list[int] = []
    starts: list[float] = []
    values: list[float] = []
    open_from = 0  # the first record of the stage in progress

    def close() -> None:
        end = state.scores()
        for k in range(open_from, len(movers)):
            values.append(end[movers[k]] - starts[k])

    current = stage(state) if stage is not None else 0
    while not state.is_terminal():
        if stage is not None and stage(state) != current:
            close()
            open_from = len(movers)
            current = stage(state)
        p = state.current_player()
        if p == CHANCE:
            state.apply_chance()
            continue
        legal = state.legal_actions()
        action = agents[p].act(state)
        if len(legal) > 1:
            feats.append(enc.encode(state, p))
            legals.append([game.action_to_int(a) for a in legal])
            actions.append(game.action_to_int(action))
            movers.append(p)
            starts.append(state.scores()[p])
        state.apply(action)
    close()
    nz = [np.flatnonzero(f) for f in feats]
    return Records(
        np.concatenate([z.astype(np.int32) for z in nz]) if nz else np.zeros(0, np.int32),
        np.concatenate([f[z] for f, z in zip(feats, nz, strict=True)]) if nz
        else np.zeros(0, np.float32),
        np.concatenate([[0], np.cumsum([len(z) for z in nz])]).astype(np.int64),
        np.concatenate([np.asarray(x, np.int32) for x in legals]) if legals
        else np.zeros(0, np.int32),
        np.concatenate([[0], np.cumsum([len(x) for x in legals])]).astype(np.int64),
        np.asarray(actions, np.int32), np.asarray(values, np.float32))


def yardstick_game(table: Table, seed: int, yardstick: str, k: int, agent: Agent) -> float:
    """Game ``k`` of a curve's match: ``agent`` in seat ``k mod players`` against the
    ``yardstick`` bot in every other seat, the deal and the bots seeded from ``seed`` and
    ``k`` (so every generation and policy meets the same deals); the seat's win share."""
    from bigtop.agents.base import play_game
    from bigtop.agents.levels import make_bot
    from bigtop.core.rng import derive_seed

    game = table.new_game()
    seat = k % game.num_players
    agents: list[Agent] = [agent if q == seat else
                           make_bot(yardstick, game, q, derive_seed(seed, "eval-agent", k, q))
                           for q in range(game.num_players)]
    state = game.new_initial_state(derive_seed(seed, "eval", k))
    play_game(state, agents)
    winners = state.winners()
    return 1.0 / len(winners) if seat in winners else 0.0
