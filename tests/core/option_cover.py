"""The option sets the fuzzers play (tests/core/test_fuzz_options.py, and the states
tests/core/test_fuzz.py starts from): a seeded pairwise covering of every game's rule
options at a player count."""

from __future__ import annotations

import random
import zlib
from functools import cache
from itertools import combinations

from bigtop.core.errors import BigtopError
from bigtop.core.registry import get_game


def axes(name: str, players: int) -> dict[str, tuple[object, ...]]:
    """The values each option takes in the sets: every choice and both sides of a flag
    (from the options' own declarations, so a new choice is covered without editing this),
    every starting seat, and for the numbers the default with small values that make the
    bounds bite (a new number option keeps its default until it is named here)."""
    cls = get_game(name)
    out: dict[str, tuple[object, ...]] = {}
    for info in cls.options_type.info():
        if info.choices is not None:
            out[info.name] = tuple(info.choices)
        elif info.type == "bool":
            out[info.name] = (False, True)
        elif info.name == "first_player":
            out[info.name] = tuple(range(players))
    out.update(_NUMBERS[name](players))
    return out


def _scout_numbers(players: int) -> dict[str, tuple[object, ...]]:
    # S9: 1 and 2 end a round at its first quiet turns; 0 is the rulebook's unbounded round.
    return {"rounds": (1, 2), "stall_turns": (100, 1, 2, 0)}


def _clown_numbers(players: int) -> dict[str, tuple[object, ...]]:
    # Whole sets of 15; a short deck keeps a game of many players quick.
    return {"sets": (1, 2, 3), "stall_rounds": (1, 2, 20), "max_turns": (40, 150),
            "colours": ("ROYGBVKW", "ZYXWVUTS")}


def _zirkus_numbers(players: int) -> dict[str, tuple[object, ...]]:
    return {"board": ("default", "4x10"), "tournament_games": (1, 2),
            "tournament_score": (8, 30), "turn_limit": (30, 1000)}


def _tricky_numbers(players: int) -> dict[str, tuple[object, ...]]:
    skills = tuple(round(0.4 + 0.3 * p, 1) for p in range(players))
    return {"rounds": (1, 2), "skill": (0.8, 0.3, 10.0, skills),
            "touch_tolerance_mm": (1.0, 0.0, 20.0), "friction": (0.35, 0.05, 2.0),
            "target_width_mm": (63.0, 300.0)}


_NUMBERS = {"scout": _scout_numbers, "clown-15-go": _clown_numbers,
            "so-ein-zirkus": _zirkus_numbers, "tricky-landing": _tricky_numbers}


def _allowed(name: str, players: int, opts: dict[str, object]) -> bool:
    """A set the game accepts and that is sure to end: SCOUT's unbounded round (S9's 0)
    only where a scouted-away set cannot empty the table (S2's alternatives), since S9
    exists because under the default the same cards can go round for ever."""
    if name == "scout" and opts.get("stall_turns") == 0 \
            and opts.get("scout_last_card", "empties-table") == "empties-table":
        return False
    try:  # (what Game.__init__ checks, without building the game's action table)
        get_game(name).options_type.from_mapping(opts).validate_for(players)
    except BigtopError:
        return False
    return True


@cache
def option_sets(name: str, players: int, extra: int = 0) -> tuple[dict[str, object], ...]:
    """A pairwise covering of :func:`axes` (greedy, seeded: the same sets every run), the
    defaults first; ``extra`` more random combinations after it. Each set lists only the
    options that differ from their defaults."""
    ax = axes(name, players)
    keys = sorted(ax)
    defaults = {i.name: i.default for i in get_game(name).options_type.info()}
    uncovered = {((a, va), (b, vb)) for a, b in combinations(keys, 2)
                 for va in ax[a] for vb in ax[b]}
    rng = random.Random(zlib.crc32(f"{name}:{players}".encode()))
    chosen: list[dict[str, object]] = [{}]
    for _ in range(500):
        if not uncovered:
            break
        pending = sorted(uncovered, key=repr)
        candidates = []
        for _ in range(30):
            (a, va), (b, vb) = rng.choice(pending)
            full = {k: rng.choice(ax[k]) for k in keys}
            full[a], full[b] = va, vb
            gain = sum(((x, full[x]), (y, full[y])) in uncovered
                       for x, y in combinations(keys, 2))
            candidates.append((gain, full))
        candidates.sort(key=lambda c: -c[0])  # stable: the first drawn of equal gains
        best = next((full for _, full in candidates
                     if _allowed(name, players, _changed(full, defaults))), None)
        if best is None:
            # Every candidate refused: its pairs stay uncovered (SCOUT's stall_turns=0 with
            # S2's default); drop the pair it was built for.
            uncovered.discard(rng.choice(pending))
            continue
        uncovered -= {((x, best[x]), (y, best[y])) for x, y in combinations(keys, 2)}
        chosen.append(_changed(best, defaults))
    for _ in range(extra):
        full = {k: rng.choice(ax[k]) for k in keys}
        if _allowed(name, players, _changed(full, defaults)):
            chosen.append(_changed(full, defaults))
    return tuple(chosen)


def _changed(full: dict[str, object], defaults: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in full.items() if v != defaults[k]}


def player_counts(name: str) -> list[int]:
    cls = get_game(name)
    return sorted({cls.min_players, cls.max_players})


def widest(name: str, players: int, count: int) -> list[dict[str, object]]:
    """The ``count`` sets of the covering that change the most options (the first drawn
    of equal ones)."""
    sets = option_sets(name, players)
    order = sorted(range(len(sets)), key=lambda k: (-len(sets[k]), k))
    return [sets[k] for k in order[:count]]
