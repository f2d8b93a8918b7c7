"""Games of a teacher bot, kept as move lists to learn its moves from.

A teacher (any bot ``make_bot`` knows: ``medium``, ``hard``, a level with a network in it)
plays every seat of a table's games; each game is kept as its state seed and the list of its
moves (action integers), in chunks of games (``games/chunk-NNNN.json``). Features are made
from them afterwards by replaying the moves, so a change of the features needs no new games:
the teacher's search is what costs, a replay costs little.

Game ``i`` is seeded from the run's seed and ``i`` alone (its deal and every seat's bot), so
chunks may be played in any order or number of processes, and a stopped run resumes at the
first missing chunk with the same games.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bigtop.agents.levels import make_bot
from bigtop.core.game import CHANCE, State
from bigtop.core.rng import derive_seed
from bigtop.train.selfplay import Table

CHUNK = 25
"""Games a chunk file holds (a stopped run loses at most one chunk's games)."""


@dataclass(frozen=True)
class TeacherGame:
    """One game of the teacher: its state seed and its moves (chance outcomes included, as
    the state drew them)."""

    seed: int
    moves: list[int]
    cpu_s: float = field(default=0.0, compare=False)


def teacher_game(table: Table, teacher: str, seed: int, i: int) -> TeacherGame:
    """Game ``i`` of a run seeded ``seed``: ``teacher`` in every seat."""
    t = time.process_time()
    game = table.new_game()
    bots = [make_bot(teacher, game, q, derive_seed(seed, "teacher-agent", i, q))
            for q in range(game.num_players)]
    state_seed = derive_seed(seed, "teacher", i)
    state = game.new_initial_state(state_seed)
    moves: list[int] = []
    while not state.is_terminal():
        p = state.current_player()
        action = state.apply_chance() if p == CHANCE else bots[p].act(state)
        if p != CHANCE:
            state.apply(action)
        moves.append(game.action_to_int(action))
    return TeacherGame(state_seed, moves, time.process_time() - t)


def replay(table: Table, g: TeacherGame) -> Iterator[tuple[State, int]]:
    """Every position of a kept game where a seat chose a move, with that move; the state
    is the game's own (copy it to keep it)."""
    game = table.new_game()
    state = game.new_initial_state(g.seed)
    for move in g.moves:
        if state.current_player() == CHANCE:
            state.apply_chance()
            continue
        yield state, move
        state.apply(game.action_from_int(move))


def play_chunks(out: Path, table: Table, teacher: str, seed: int, games: int,
                progress: Any = None) -> list[TeacherGame]:
    """The run's first ``games`` games, from the chunks already in ``out/games`` and by
    playing the missing ones (a chunk written as soon as it is played)."""
    folder = out / "games"
    folder.mkdir(parents=True, exist_ok=True)
    kept: list[TeacherGame] = []
    for c in range((games + CHUNK - 1) // CHUNK):
        path = folder / f"chunk-{c:04d}.json"
        lo, hi = c * CHUNK, min(games, (c + 1) * CHUNK)
        rows = json.loads(path.read_text()) if path.exists() else []
        if len(rows) < hi - lo:
            have = {r["i"] for r in rows}
            for i in range(lo, hi):
                if i not in have:
                    g = teacher_game(table, teacher, seed, i)
                    rows.append({"i": i, "seed": g.seed, "moves": g.moves,
                                 "cpu_s": round(g.cpu_s, 3)})
                    if progress is not None:
                        progress("teacher games", i + 1, games)
            rows.sort(key=lambda r: r["i"])
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(rows) + "\n")
            tmp.replace(path)
        kept.extend(TeacherGame(r["seed"], r["moves"], r["cpu_s"]) for r in rows[:hi - lo])
    return kept
