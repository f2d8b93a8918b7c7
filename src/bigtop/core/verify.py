"""Checking a finished game's export against the seed committed to before it began.

A server commits to each table's seed (the hex SHA-256 of ``"{table}:{seed}"``) in every
view and reveals the seed in the export once the game is over (docs/server.md, "Fair
chance"). Replaying the export's history with :meth:`State.apply_json` proves little: it
accepts any legal chance outcome, so an export whose rolls were picked by hand replays as
well. :func:`verify_export` checks what the seed decides: every chance outcome in the
history is the one :meth:`State.sample_chance` draws from the seed at that step, and the
final position (deals, turned cards, where each throw landed, all drawn from the seed
inside the moves) is the export's, exactly.

>>> import bigtop
>>> s = bigtop.new_state("so-ein-zirkus", players=2, seed=5)
>>> for _ in range(4):
...     _ = s.apply_chance() if s.is_chance() else s.apply(s.legal_actions()[0])
>>> verify_export(s.to_json(), "t1", seed_commitment("t1", 5))
[]
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError, shown
from bigtop.core.game import State
from bigtop.core.limits import check_state_payload
from bigtop.core.registry import new_game
from bigtop.core.rng import check_seed


def seed_commitment(table: str, seed: int) -> str:
    """What a server shows of a table's seed before the game ends: the hex SHA-256 of the
    UTF-8 string ``"{table}:{seed}"`` (the table id salts it, so no two tables share one).

    >>> seed_commitment("abc", 7) == hashlib.sha256(b"abc:7").hexdigest()
    True
    """
    return hashlib.sha256(f"{table}:{seed}".encode()).hexdigest()


def verify_export(export: object, table: str, commitment: str) -> list[str]:
    """Every problem with ``export`` (a finished game's JSON, as ``GET
    /api/tables/{table}/export`` gives it) as the game of ``table`` whose views showed
    ``commitment``; empty when the seed is the one committed to and made every chance
    outcome, and replaying the history from it gives the export's position exactly. One
    sentence each; the replay stops at the first step that does not hold."""
    try:
        check_state_payload(export, "the export")
    except BigtopError as e:
        return [str(e)]
    assert isinstance(export, dict)
    name: Any = export.get("game")
    players: Any = export.get("players")
    problems: list[str] = []
    seed: Any = export.get("seed")
    try:
        seed = check_seed(seed)
    except BigtopError:
        return [f"the export has no seed ({shown(seed)}): only a finished game's export "
                "reveals it"]
    wanted = seed_commitment(table, seed)
    if not isinstance(commitment, str) or commitment.strip().lower() != wanted:
        # In full: a commitment is 64 hex digits (``shown`` would cut it short).
        given = (repr(commitment) if isinstance(commitment, str) and len(commitment) <= 128
                 else shown(commitment))
        problems.append(f"the seed {seed} is not the one committed to: the SHA-256 of "
                        f"\"{table}:{seed}\" is {wanted}, not {given}")
    try:
        game = new_game(name, players, export.get("options"))
    except BigtopError as e:
        return [*problems, f"the export names no game to replay: {e}"]
    history = export.get("history")
    if not isinstance(history, list):
        return [*problems, "the export's history is not a list of actions"]
    state = game.new_initial_state(seed)
    for step, raw in enumerate(history, 1):
        try:
            action = game.action_from_json(raw)
            if state.is_chance():
                drawn = state.sample_chance()
                if action != drawn:
                    return [*problems, (
                        f"step {step}: the history has {_told(state, action)} where the "
                        f"seed draws {_told(state, drawn)}; the rest is not checked")]
            state.apply(action)
        except BigtopError as e:
            return [*problems, f"step {step} cannot be played: {e}; the rest is not checked"]
    replayed = state.to_json()
    if replayed != export:
        differ = sorted(k for k in {*replayed, *export} if replayed.get(k) != export.get(k))
        problems.append("replayed from the seed, the game ends in another position than the "
                        f"export's (they differ in {', '.join(map(repr, differ))})")
    return problems


def _told(state: State, action: Action) -> str:
    """``action`` as the log would say it (its JSON if it is not legal here)."""
    try:
        return f"“{state.describe(action)}”"
    except BigtopError:
        return json.dumps(action.to_json())
