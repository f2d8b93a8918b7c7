"""Random-play throughput of every registered game, side by side with OpenSpiel's C++
``crazy_eights`` and ``hearts`` driven by the same Python loop in the same run; the same loop
through bigtop's OpenSpiel adapter; and IS-MCTS iterations per second.

    .venv/bin/python bench/bench_games.py [--seconds 2] [--game scout] [--players default]
                                          [--pure] [--baseline REV] [--json]

Times are CPU seconds of this process (``time.process_time``), for bigtop and the references
alike: on a shared machine other jobs then hardly move the ratios (wall-clock rates did by
a factor of two from one second to the next).

Sections (all by default; ``--only random|adapter|ismcts`` picks some):

* ``random``: complete random games per second and actions per second (chance outcomes count
  as actions for both sides), and the ratio of actions/s to crazy_eights measured in this run
  (the machine is noisy; compare ratios, not absolute numbers).
* ``adapter``: the crazy_eights loop over ``bigtop_<game>`` (bigtop.interop.openspiel), at the
  default player count, as a ratio to the engine's own loop in this run. The game is loaded
  with ``num_seeds=64`` so that its first chance node (the seed: 65,536 outcomes by default,
  a few ms to list) does not dominate short games. References in the same loop: the
  *floor*, a Python game that does no work (a counter: two legal actions, 200 moves), i.e.
  what pyspiel's Python-game API and the loop cost per step by themselves, ``crazy_eights``
  (C++) again, and OpenSpiel's own Python games ``python_kuhn_poker`` and
  ``python_tic_tac_toe``. Each bigtop row says
  its µs per step and the ratio the floor allows, ``engine step / (engine step + floor)``.
* ``ismcts``: ``ISMCTSAgent(iterations=50, seed=1)`` deciding in four fixed positions of a
  seeded random game (at the default player count): iterations per second. The workload is
  the same in every run of the same code: the same positions, seeds and so the same trees.

``--pure`` measures everything again in a subprocess with ``BIGTOP_PURE=1`` (the pure-Python
package) and ``--baseline REV`` in a subprocess running the sources of git revision ``REV``
(for example ``main``): the ``×`` columns say how many times faster this run is. Those runs
are minutes apart on a shared machine, so each is first scaled by its own crazy_eights rate
(when the random section ran): the ratios compare speed relative to the same C++ yardstick.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bigtop.agents.base import play_random, random_step
from bigtop.agents.ismcts import ISMCTSAgent
from bigtop.core.game import pick_outcome
from bigtop.core.registry import game_names, get_game, new_game

DEFAULT_PLAYERS = 3  # the CLI's default player count
ISMCTS_ITERATIONS = 50
ISMCTS_STEPS = (0, 7, 15, 30)  # random steps from the start to each measured position
SECTIONS = ("random", "adapter", "ismcts")
REFERENCES = ("crazy_eights", "hearts")


def _time_loop(play_one: Callable[[int], int], seconds: float) -> tuple[float, float, int]:
    """Run whole games until ``seconds`` of CPU time pass; returns games/s, actions/s,
    games."""
    games = actions = 0
    start = time.process_time()
    while True:
        actions += play_one(games)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds and games >= 3:
            return games / elapsed, actions / elapsed, games


def bigtop_player(name: str, players: int, options: dict[str, object]) -> Callable[[int], int]:
    game = new_game(name, players, options)

    def play_one(i: int) -> int:
        return play_random(game.new_initial_state(i), random.Random(i))

    return play_one


def spiel_loop(game: object) -> Callable[[int], int]:
    """The Python loop over an OpenSpiel game (C++ or bigtop's adapter alike)."""

    def play_one(i: int) -> int:
        rng = random.Random(i)
        state = game.new_initial_state()  # type: ignore[attr-defined]
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick_outcome(state.chance_outcomes(), rng.random()))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        return n

    return play_one


def openspiel_player(name: str) -> Callable[[int], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return spiel_loop(pyspiel.load_game(name))


def adapter_player(name: str, players: int) -> Callable[[int], int] | None:
    try:
        from bigtop.interop.openspiel import load
    except ImportError:
        return None
    return spiel_loop(load(name, players=players, num_seeds=64))


FLOOR_GAME = "bench_counter_floor"
FLOOR_MOVES = 200
ADAPTER_REFERENCES = (FLOOR_GAME, "crazy_eights", "python_kuhn_poker", "python_tic_tac_toe")


def register_floor_game() -> None:
    """Register :data:`FLOOR_GAME` with OpenSpiel: a Python game whose every method is as
    cheap as a method can be (the adapter's shadowing of ``legal_actions`` and
    ``is_chance_node`` included), so that the loop over it costs what pyspiel's Python-game
    API and the loop itself cost per step: ``apply_action``'s two calls back into Python
    (``current_player``, ``_apply_action``), the loop's calls and its random index."""
    import pyspiel

    if FLOOR_GAME in pyspiel.registered_names():
        return
    game_type = pyspiel.GameType(
        short_name=FLOOR_GAME, long_name="a counter (the adapter benchmark's floor)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=0, num_players=2,
                            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                            max_game_length=FLOOR_MOVES)
    legal = [0, 1]

    class CounterState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: object) -> None:
            super().__init__(game)
            self.moves = 0

        def current_player(self) -> int:
            return self.moves & 1 if self.moves < FLOOR_MOVES else int(
                pyspiel.PlayerId.TERMINAL)

        def _legal_actions(self, player: int) -> list[int]:
            return legal[:]

        def legal_actions(self, player: int | None = None) -> list[int]:
            return legal[:]

        def _apply_action(self, action: int) -> None:
            self.moves += 1

        def is_terminal(self) -> bool:
            return self.moves >= FLOOR_MOVES

        def is_chance_node(self) -> bool:
            return False

        def returns(self) -> list[float]:
            return [0.0, 0.0]

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def __str__(self) -> str:
            return str(self.moves)

    class CounterGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, object] | None = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> CounterState:
            return CounterState(self)

    pyspiel.register_game(game_type, CounterGame)


def adapter_reference(name: str) -> Callable[[int], int] | None:
    """The loop over one of :data:`ADAPTER_REFERENCES` (None without open-spiel)."""
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker, tic_tac_toe  # noqa: F401 (registers)
    except ImportError:
        return None
    if name == FLOOR_GAME:
        register_floor_game()
    return spiel_loop(pyspiel.load_game(name))


def ismcts_rate(name: str, players: int, seconds: float) -> tuple[float, int]:
    """IS-MCTS iterations per second over the fixed positions (at least one pass)."""
    game = new_game(name, players, {})
    positions = []
    rng = random.Random(5)
    state = game.new_initial_state(5)
    step = 0
    for target in ISMCTS_STEPS:
        while step < target and not state.is_terminal():
            random_step(state, rng)
            step += 1
        while state.is_chance():
            state.apply_chance()
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            positions.append(state.clone())
    decisions = 0
    start = time.process_time()
    while True:
        for i, pos in enumerate(positions):
            ISMCTSAgent(iterations=ISMCTS_ITERATIONS, seed=1 + i).act(pos)
            decisions += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return decisions * ISMCTS_ITERATIONS / elapsed, decisions


def mode_line() -> str:
    try:
        from bigtop import _compiled
    except ImportError:
        return "pure Python (a revision without compiled modules)"
    return _compiled.describe()


def default_players(name: str) -> int:
    cls = get_game(name)
    return min(max(DEFAULT_PLAYERS, cls.min_players), cls.max_players)


def measure(names: list[str], players: str, sections: list[str],
            seconds: float) -> list[dict[str, object]]:
    """Every requested row, in a fixed order."""
    rows: list[dict[str, object]] = []
    if "random" in sections:
        for ref in REFERENCES:
            player = openspiel_player(ref)
            if player is None:
                print("open-spiel is not installed: no reference rows", file=sys.stderr)
                break
            gps, aps, k = _time_loop(player, seconds)
            rows.append({"section": "random", "game": f"openspiel:{ref}", "players": "default",
                         "games_per_s": gps, "per_s": aps, "games": k})
    if "adapter" in sections:
        for ref in ADAPTER_REFERENCES:
            player = adapter_reference(ref)
            if player is None:
                break
            gps, aps, k = _time_loop(player, seconds)
            rows.append({"section": "adapter", "game": f"openspiel:{ref}",
                         "players": "default", "games_per_s": gps, "per_s": aps, "games": k})
    for name in names:
        cls = get_game(name)
        counts = (range(cls.min_players, cls.max_players + 1) if players == "all"
                  else [default_players(name) if players == "default" else int(players)])
        for n in counts:
            if "random" in sections or ("adapter" in sections and n == default_players(name)):
                gps, aps, k = _time_loop(bigtop_player(name, n, {}), seconds)
                rows.append({"section": "random", "game": name, "players": n,
                             "games_per_s": gps, "per_s": aps, "games": k})
            if "adapter" in sections and n == default_players(name):
                adapter = adapter_player(name, n)
                if adapter is not None:
                    gps, aps, k = _time_loop(adapter, seconds)
                    rows.append({"section": "adapter", "game": name, "players": n,
                                 "games_per_s": gps, "per_s": aps, "games": k})
            if "ismcts" in sections and n == default_players(name):
                ips, k = ismcts_rate(name, n, seconds)
                rows.append({"section": "ismcts", "game": name, "players": n, "per_s": ips,
                             "games": k})
    return rows


def _key(row: dict[str, object]) -> tuple[str, str, str]:
    return (str(row["section"]), str(row["game"]), str(row["players"]))


def run_elsewhere(argv: list[str], env: dict[str, str], label: str) -> dict[str, object]:
    """This script's measurement in a subprocess (another mode or revision)."""
    print(f"measuring {label} in a subprocess ...", file=sys.stderr)
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv, "--json"],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{label} run failed:\n{done.stderr.strip()}")
    out: dict[str, object] = json.loads(done.stdout)
    return out


def baseline_env(rev: str, tmp: str) -> dict[str, str]:
    """An environment whose ``bigtop`` is revision ``rev``'s sources (pure Python)."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "-C", str(root), "archive", rev, "src"],
                             capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"git archive {rev} failed: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
    return dict(os.environ, PYTHONPATH=str(Path(tmp) / "src"), BIGTOP_PURE="1")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measured row")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--players", default="all",
                    help="'all' (random section), 'default' (3 where allowed) or a number")
    ap.add_argument("--only", action="append", choices=SECTIONS, help="only these sections")
    ap.add_argument("--pure", action="store_true",
                    help="also measure the pure-Python package (BIGTOP_PURE=1)")
    ap.add_argument("--baseline", metavar="REV", help="also measure git revision REV")
    ap.add_argument("--json", action="store_true", help="print JSON rows")
    args = ap.parse_args()
    names = args.game or game_names()
    sections = args.only or list(SECTIONS)
    child = ["--seconds", str(args.seconds), "--players", args.players]
    for name in names:
        child += ["--game", name]
    for section in sections:
        child += ["--only", section]
    others: list[tuple[str, dict[str, object]]] = []
    if args.pure:
        others.append(("pure", run_elsewhere(child, dict(os.environ, BIGTOP_PURE="1"),
                                             "the pure-Python package")))
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline:
            others.append((args.baseline, run_elsewhere(
                child, baseline_env(args.baseline, tmp), f"revision {args.baseline}")))
    rows = measure(names, args.players, sections, args.seconds)
    result: dict[str, object] = {"mode": mode_line(), "rows": rows}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print_tables(result, others)
    return 0


def print_tables(result: dict[str, object], others: list[tuple[str, dict[str, object]]]) -> None:
    rows: list[dict[str, object]] = result["rows"]  # type: ignore[assignment]
    by_key = {_key(r): r for r in rows}
    ref = by_key.get(("random", "openspiel:crazy_eights", "default"))
    print(f"this run: {result['mode']}")
    for label, other in others:
        print(f"{label}: {other['mode']}")
    other_rows = [(label, {_key(r): r for r in o["rows"]})  # type: ignore[attr-defined]
                  for label, o in others]
    # Runs minutes apart on a shared machine: scale each by its own crazy_eights rate.
    ref_key = ("random", "openspiel:crazy_eights", "default")
    scales = [float(ref["per_s"]) / float(keyed[ref_key]["per_s"])  # type: ignore[arg-type]
              if ref is not None and ref_key in keyed else 1.0 for _, keyed in other_rows]
    extra = "".join(f"{label[:10] + ' /s':>14}{'× ' + label[:8]:>11}" for label, _ in others)
    titles = {"random": ("actions/s", "vs crazy_eights"),
              "adapter": ("actions/s", "vs own loop"),
              "ismcts": ("iterations/s", "")}
    floor = by_key.get(("adapter", f"openspiel:{FLOOR_GAME}", "default"))
    for section in SECTIONS:
        part = [r for r in rows if r["section"] == section]
        if not part:
            continue
        unit, versus = titles[section]
        print(f"\n[{section}]")
        steps = f"{'µs/step':>9}{'floor allows':>14}" if section == "adapter" else ""
        print(f"{'game':<34}{'players':>8}{unit:>14}{versus:>17}{steps}{extra}")
        for r in part:
            per_s = float(r["per_s"])  # type: ignore[arg-type]
            if section == "random":
                base = ref
            elif section == "adapter":
                base = by_key.get(("random", str(r["game"]), str(r["players"])))
            else:
                base = None
            vs = f"{per_s / float(base['per_s']):.2f}" if base else "-"  # type: ignore[arg-type]
            line = f"{r['game']!s:<34}{r['players']!s:>8}{per_s:>14.0f}{vs:>17}"
            if section == "adapter":
                line += f"{1e6 / per_s:>9.2f}" + adapter_bound(base, floor)
            for (_, keyed), scale in zip(other_rows, scales, strict=True):
                o = keyed.get(_key(r))
                if o is None:
                    line += f"{'-':>14}{'-':>11}"
                else:
                    o_per_s = float(o["per_s"])
                    line += f"{o_per_s:>14.0f}{per_s / (o_per_s * scale):>11.2f}"
            print(line)


def adapter_bound(own: dict[str, object] | None, floor: dict[str, object] | None) -> str:
    """The ratio to its own loop that the floor leaves a game: engine step / (engine step +
    floor step), both in µs from this run's rates (blank for the reference rows)."""
    if own is None or floor is None:
        return f"{'':>14}"
    engine = 1.0 / float(own["per_s"])  # type: ignore[arg-type]
    step = 1.0 / float(floor["per_s"])  # type: ignore[arg-type]
    return f"{engine / (engine + step):>14.2f}"


if __name__ == "__main__":
    sys.exit(main())
