"""Bot strength and speed figures for docs/bots.md.

    .venv/bin/python bench/bench_bots.py match scout hard medium -p 4          # one match
    .venv/bin/python bench/bench_bots.py ladder --out bench/bots-results.jsonl         # every pair
    .venv/bin/python bench/bench_bots.py report bench/bots-ladder.jsonl bench/bots-scout.jsonl \
        --plot docs/bots-ladder.png                                 # table and plot, several files

A match puts bot A in one seat and bot B in every other seat; in game ``i`` (state seed
``derive_seed(seed, "game", i)``) A sits at seat ``i mod P`` and every bot's seed is
``derive_seed(seed, "agent", i, seat)``. A's win share (a shared first place counts 1/k) is
tested against the fair share 1/P with :class:`bigtop.sim.stats.SequentialTest`: a look every
``--look`` games, at most ``--max-games``, a Bonferroni-corrected Wilson interval at each
look, stop when it leaves the fair share (overall error at most 5%). Time per move is CPU
time (``time.process_time``) of each ``act`` call, so other processes on the machine do not
inflate it. ``ladder`` runs every pair of levels for every game (and the SCOUT yardsticks),
appending one JSON line per finished match, so an interrupted run resumes where it stopped.
``kill PID`` (SIGTERM) stops a ``match`` or ``ladder`` after the game in progress and still
reports the match so far (undecided).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from bigtop.agents.base import Agent
from bigtop.agents.ismcts import ISMCTSAgent
from bigtop.agents.levels import LEVELS, NEURAL, make_bot, search_bot, search_profile
from bigtop.agents.neural import (
    ActionPolicy,
    ActionPolicyAgent,
    Network,
    NeuralPolicyAgent,
    NeuralSearch,
    action_policy_for,
    action_profile,
    neural_profile,
)
from bigtop.agents.planner import PlannerAgent
from bigtop.core.errors import BigtopError
from bigtop.core.game import CHANCE, Game, State
from bigtop.core.registry import new_game
from bigtop.core.rng import derive_seed
from bigtop.games.scout.bot import HEURISTIC_ROLLOUTS, SEARCH, last_round, resample_believed
from bigtop.sim.stats import SequentialTest, mean_interval, wilson_interval

# The repository's root, so that ``bench.*`` imports work when this file runs as a script.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SETUPS: dict[str, tuple[int, dict[str, Any]]] = {
    "scout": (4, {}),
    "tricky-landing": (3, {"rounds": 1}),
    "so-ein-zirkus": (2, {}),
    "clown-15-go": (2, {"last_card": "turned"}),
}
"""The table each game's ladder is measured at: SCOUT's default game (four players, four
rounds: the game as played; single rounds, ``-o rounds=1``, are measured too), Tricky
Landing one round (its unit of play), Clown 15 Go with ``last_card=turned`` (now the
default)."""


SAMPLING: dict[str, tuple[int, int]] = {"clown-15-go": (6000, 200)}
"""Games at most and games between looks of the sequential test where a game needs other
than 1,000 and 20: Clown 15 Go's basic game is mostly luck (level differences of a few
hundredths need thousands of games; its games are quick)."""


def sampling(game: str, max_games: int | None, look: int | None) -> tuple[int, int]:
    """The sequential test's ``(max_games, look)`` for ``game``: the arguments where given,
    else :data:`SAMPLING`, else 1,000 and 20."""
    default = SAMPLING.get(game, (1000, 20))
    return (max_games or default[0], look or default[1])


OLD_SCOUT_SEARCH: dict[str, int] = {"medium-v1": 40, "hard-v1": 250}
"""SCOUT's earlier search levels (heuristic rollouts to the round's end, every legal action;
before issue #14's rework), kept to measure the new ones against: ``hard-v1`` or
``hard-v1@iterations``."""


OLD_SCOUT_PLANNER: dict[str, int] = {"hard-v2": 12, "hard-v3": 12}
"""SCOUT's earlier ``hard`` levels, kept to measure the new one against: ``hard-v2`` (the
1-ply planner with the standard profile, 12 determinizations a move) and ``hard-v3`` (the
same, in a one-round game its reward against the best other seat's gain: issue #14's
second and third rounds)."""


HARD_V5 = 48
"""SCOUT's ``hard`` of issue #14's fifth round, kept fixed as ``hard-v5``: the 1-ply planner
with the deep profile (the game's last round played for the final standing), 48
determinizations a move."""

NETS = Path(__file__).resolve().parent / "nets"
"""Trained networks of earlier ages (``bench/nets/<game>-<players>p-gen<N>.npz``, each with
its training record), kept as fixed yardsticks: ``policy-genN`` plays the policy head of
generation N alone, ``neural-genN`` the first ``neural`` level's planner with that network
(:data:`NEURAL_V1`)."""


NEURAL_V1 = 12
NEURAL_V1_SEARCH = NeuralSearch(horizon=8)
"""The first ``neural`` level (issue #26's first round), which ``neural-genN`` plays with an
earlier network: 12 determinizations of hard's deep profile, rule-of-thumb rollouts of
eight moves, then the value network."""

ACTION_POLICY_BOTS: tuple[str, ...] = ("action-policy-", "neural-actions-")
"""Bots that play an action policy kept in :data:`NETS` instead of the shipped one
(``bench/nets/<game>-<players>p-actions-<tag>.npz``, with its training record):
``action-policy-<tag>`` plays it alone, ``neural-actions-<tag>`` plays the ``neural``
level (:data:`~bigtop.agents.levels.NEURAL`) with it as the prior: e.g. a policy from
another teacher measured against the shipped one, or an earlier shipped one kept as a
yardstick."""

_ACTION_POLICIES: dict[Path, ActionPolicy] = {}


def kept_action_policy(game: Game, tag: str) -> ActionPolicy:
    """The action policy ``tag`` of ``game``'s table in :data:`NETS` (loaded once per
    process: every seat of every game shares it)."""
    stem = f"{game.name}-{game.num_players}p-actions-"
    path = NETS / f"{stem}{tag}.npz"
    if not tag or "/" in tag or not path.exists():
        have = sorted(q.stem.removeprefix(stem) for q in NETS.glob(f"{stem}*.npz"))
        raise BigtopError(f"no action policy {tag!r} for {game.name} with "
                          f"{game.num_players} players in {NETS} (kept there: "
                          f"{', '.join(have) or 'none'})")
    policy = _ACTION_POLICIES.get(path)
    if policy is None:
        policy = _ACTION_POLICIES[path] = ActionPolicy.load(path)
    return policy


def _policy_scorer(game: Game) -> Callable[[], Any]:
    def make() -> Any:
        policy = action_policy_for(game)
        return lambda state, legal: policy.score_actions(state, legal).tolist()
    return make


DRAWS: dict[str, Callable[[State, int, int], State] | None] = {
    "-believed": resample_believed, "-even": None}
"""``<bot>-believed``, ``<bot>-even``: a SCOUT search bot with its determinizations drawn
believing the others' public moves (``games/scout/bot.py``'s ``resample_believed``), or
every hidden card equally likely anywhere (``State.resample_hidden``)."""


YARDSTICK_PLANNING_PLAYER = "planning-player"
"""The public SCOUT AI project's baseline, the fixed point of its skill scale
(``scout_planning_player.py``)."""


def bot(spec: str, game: Game, seat: int, seed: int) -> Agent:
    """``name`` or ``name@iterations`` (e.g. ``ismcts@1000``), a SCOUT ``*-v1`` to ``*-v3``
    level or ``hard-v5``, SCOUT's ``planning-player``, the shipped ``policy`` head alone, the
    shipped ``action-policy`` alone, ``priorK@N`` (hard's deep planner, ``N``
    determinizations, default 48, searching only the action policy's ``K`` favourite
    candidates), a network of an earlier age (:data:`NETS`), or an action policy kept
    there (:data:`ACTION_POLICY_BOTS`)."""
    name, _, iters = spec.partition("@")
    if name == YARDSTICK_PLANNING_PLAYER:
        if game.name != "scout":
            raise BigtopError(f"{name} is a SCOUT bot")
        from bench.scout_planning_player import PlanningPlayer
        return PlanningPlayer()
    if name.endswith("-inferred"):
        # The deals believed, then weighed by the others' moves this round (the shipped
        # action policy as their model: bench/scout_inference.py; weaker, docs/bots.md).
        searcher = bot(name.removesuffix("-inferred") + (f"@{iters}" if iters else ""), game,
                       seat, seed)
        if not isinstance(searcher, PlannerAgent | ISMCTSAgent) or game.name != "scout":
            raise BigtopError(f"{name}: -inferred is for SCOUT's searching bots")
        assert searcher.profile is not None
        from bench.scout_inference import inferred

        searcher.profile = replace(searcher.profile, determinize=inferred(
            resample_believed, _policy_scorer(game)))
        return searcher
    if name.endswith("-structured"):  # the ninth round's third try (docs/bots.md)
        from bench.scout_inference import structured

        DRAWS["-structured"] = structured
    for suffix, draw in DRAWS.items():
        if name.endswith(suffix):
            # Another bot's search with the determinizations drawn the other way.
            searcher = bot(name.removesuffix(suffix) + (f"@{iters}" if iters else ""), game,
                           seat, seed)
            if not isinstance(searcher, PlannerAgent | ISMCTSAgent) or game.name != "scout":
                raise BigtopError(f"{name}: {suffix} is for SCOUT's searching bots")
            assert searcher.profile is not None
            searcher.profile = replace(searcher.profile, determinize=draw)
            return searcher
    if name == "hard-v5":
        if game.name != "scout":
            raise BigtopError(f"{name} is a SCOUT bot")
        # Its determinizations drawn evenly, as they were then.
        return PlannerAgent(int(iters) if iters else HARD_V5, seed,
                            replace(SEARCH, final_stage=last_round, determinize=None))
    reply, _, prior = name.partition("-") if name.startswith("reply") else ("", "", name)
    if prior.startswith("prior") and prior[5:].isdigit() and (not reply or reply[5:].isdigit()):
        # hard's deep planner searching only the action policy's top k candidates; with
        # ``replyF-``, the policy also plays each seat's first F moves of every rollout.
        first = int(reply[5:]) if reply else None
        return PlannerAgent(int(iters) if iters else HARD_V5, seed,
                            action_profile(search_profile(game, "deep"), top=int(prior[5:]),
                                           first=first))
    if name == "policy":
        return NeuralPolicyAgent()
    if name == "action-policy":
        return ActionPolicyAgent()
    if name.startswith(ACTION_POLICY_BOTS):
        kind = next(k for k in ACTION_POLICY_BOTS if name.startswith(k))
        policy = kept_action_policy(game, name.removeprefix(kind))
        if kind == "action-policy-":
            return ActionPolicyAgent(policy)
        # The neural level as levels.make_bot builds it, with this policy.
        return search_bot(NEURAL, game, seed, int(iters) if iters else None, policy=policy)
    if name.startswith(("policy-gen", "neural-gen")):
        kind, _, age = name.partition("-gen")
        path = NETS / f"{game.name}-{game.num_players}p-gen{age}.npz"
        net = Network.load(path)
        if kind == "policy":
            return NeuralPolicyAgent(net)
        return PlannerAgent(int(iters) if iters else NEURAL_V1, seed,
                            neural_profile(search_profile(game, "deep"), NEURAL_V1_SEARCH,
                                           net))
    if name in OLD_SCOUT_PLANNER:
        if game.name != "scout":
            raise BigtopError(f"{name} is a SCOUT bot")
        # hard-v3 counted a one-round game's reward against the best other seat's gain.
        # Their determinizations drawn evenly, as they were then.
        even = replace(SEARCH, determinize=None)
        profile = (replace(even, against_best=True)
                   if name == "hard-v3" and getattr(game, "rounds", None) == 1 else even)
        return PlannerAgent(int(iters) if iters else OLD_SCOUT_PLANNER[name], seed, profile)
    if name in OLD_SCOUT_SEARCH:
        if game.name != "scout":
            raise BigtopError(f"{name} is a SCOUT bot")
        return ISMCTSAgent(iterations=int(iters) if iters else OLD_SCOUT_SEARCH[name],
                           seed=seed, profile=HEURISTIC_ROLLOUTS)
    return make_bot(name, game, seat, seed, iterations=int(iters) if iters else None)


@dataclass
class Match:
    game: str
    players: int
    options: dict[str, Any]
    a: str
    b: str
    seed: int = 1
    games: int = 0
    a_share: float = 0.0  # summed win shares of A
    decision: str | None = None
    margins: list[float] = field(default_factory=list)
    a_times: list[float] = field(default_factory=list)
    b_times: list[float] = field(default_factory=list)

    def summary(self, test: SequentialTest) -> dict[str, Any]:
        lo, hi = wilson_interval(self.a_share, self.games)
        margin = mean_interval(self.margins)
        out = {k: v for k, v in asdict(self).items()
               if k not in ("margins", "a_times", "b_times")}
        out.update({
            "fair": test.fair, "share": self.a_share / max(self.games, 1),
            "ci95": [lo, hi], "sequential_interval": list(test.interval(self.a_share,
                                                                         self.games)),
            "max_games": test.max_trials, "look_every": test.look_every,
            "margin_mean": margin.mean, "margin_ci95": [margin.low, margin.high],
            "a_ms": _times(self.a_times), "b_ms": _times(self.b_times),
        })
        return out


def _times(ts: list[float]) -> dict[str, float]:
    if not ts:
        return {}
    s = sorted(ts)
    return {"mean": 1000 * sum(s) / len(s), "median": 1000 * s[len(s) // 2],
            "p90": 1000 * s[int(0.9 * (len(s) - 1))], "max": 1000 * s[-1], "moves": len(s)}


MAX_MOVES = 20_000
"""A game longer than this is an engine's endless loop (a SCOUT round can pass the same
cards round for ever: docs/bots.md#trained-networks), reported as an error, not waited for."""

_stop_requested = False
"""Set by SIGTERM (``kill PID``): the match in progress stops after its current game and is
reported, undecided, with the games played so far (to free the machine without losing
them)."""


def _request_stop(signum: int, frame: object) -> None:
    global _stop_requested
    _stop_requested = True


def play_one(name: str, a: str, b: str, players: int, options: dict[str, Any], seed: int,
             i: int) -> tuple[float, float, list[float], list[float]]:
    """Game ``i`` of a match: A's win share, A's margin (its score minus the best other
    seat's) and the CPU seconds of A's and B's moves."""
    game = new_game(name, players, options)
    seat = i % players
    agents = [bot(a if q == seat else b, game, q, derive_seed(seed, "agent", i, q))
              for q in range(players)]
    state = game.new_initial_state(derive_seed(seed, "game", i))
    a_times: list[float] = []
    b_times: list[float] = []
    while not state.is_terminal():
        p = state.current_player()
        if p == CHANCE:
            state.apply_chance()
            continue
        t = time.process_time()
        action = agents[p].act(state)
        (a_times if p == seat else b_times).append(time.process_time() - t)
        state.apply(action)
        if len(a_times) + len(b_times) > MAX_MOVES:
            raise BigtopError(f"{name} game {i} of {a} against {b} did not end within "
                              f"{MAX_MOVES} moves")
    winners = state.winners()
    sc = state.scores()
    return (1.0 / len(winners) if seat in winners else 0.0,
            sc[seat] - max(sc[q] for q in range(players) if q != seat), a_times, b_times)


def _play_one(args: tuple[Any, ...]) -> tuple[float, float, list[float], list[float]]:
    return play_one(*args)


def _default_signals() -> None:
    """A worker process dies of SIGTERM (``Pool.terminate``) and leaves Ctrl-C to the
    match's own process."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_match(name: str, a: str, b: str, players: int, options: dict[str, Any],
              max_games: int, look: int, seed: int, log: Any = None,
              time_budget: float | None = None, jobs: int = 1) -> dict[str, Any]:
    """Play A against B until the sequential test decides (or ``max_games``, or
    ``time_budget`` seconds of wall time: the match then reports itself undecided).
    ``jobs`` > 1 plays games in that many worker processes; the results are taken in game
    order, so the record is the same as with one."""
    new_game(name, players, options)  # bad names and options fail here, not in a worker
    test = SequentialTest(fair=1.0 / players, max_trials=max_games, look_every=look)
    m = Match(name, players, options, a, b, seed)
    start = time.time()
    tasks = ((name, a, b, players, options, seed, i) for i in range(max_games))
    pool = None
    if jobs > 1:
        import multiprocessing

        # A fork server, not a fork of this process: a fork of a process with threads (a
        # test runner's) can inherit a held lock, and the workers must not inherit this
        # process's SIGTERM handler either, or terminate() could not stop them.
        pool = multiprocessing.get_context("forkserver").Pool(jobs, _default_signals)
        results: Any = pool.imap(_play_one, tasks, chunksize=4)
    else:
        results = map(_play_one, tasks)
    try:
        for share, margin, a_times, b_times in results:
            m.games += 1
            m.a_share += share
            m.margins.append(margin)
            m.a_times.extend(a_times)
            m.b_times.extend(b_times)
            m.decision = test.decide(m.a_share, m.games)
            if log is not None and (m.games % 10 == 0 or m.decision):
                print(f"{name} {a} vs {b}: {m.games} games, share {m.a_share / m.games:.3f} "
                      f"({time.time() - start:.0f} s)", file=log, flush=True)
            if m.decision or _stop_requested or (time_budget is not None
                                                 and time.time() - start > time_budget):
                break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return m.summary(test)


def ladder_pairs(levels: Sequence[str] = LEVELS) -> list[tuple[str, str]]:
    """Every pair of levels, stronger first: neighbours first (the ladder's claims), then
    the pairs further apart."""
    pairs = [(levels[j], levels[i]) for i in range(len(levels))
             for j in range(i + 1, len(levels))]
    return sorted(pairs, key=lambda p: (levels.index(p[0]) - levels.index(p[1]),
                                        levels.index(p[0])))


SCOUT_YARDSTICKS: list[tuple[str, str, dict[str, Any]]] = [
    ("hard", "ismcts", {"rounds": 1}),
    ("hard", "heuristic", {}),
    ("hard", "ismcts@1000", {"rounds": 1}),
    ("medium", "ismcts", {"rounds": 1}),
    ("medium", "heuristic", {}),
    ("hard", "ismcts", {}),
    ("hard", "hard-v1", {"rounds": 1}),
    ("hard", "hard-v2", {"rounds": 1}),
    ("hard", "hard-v2", {"rounds": 4}),
    ("hard", "planning-player", {"rounds": 1}),
    ("hard", "planning-player", {}),
    ("medium", "planning-player", {"rounds": 1}),
    ("medium", "planning-player", {}),
    ("easy", "planning-player", {"rounds": 1}),
]
"""SCOUT against the older bots whose scores against the public SCOUT AI are known (issue
#14): one of ours against three of them, single rounds and full games; ``hard`` against
the earlier ones; and the levels against the public AI project's planning player, the
fixed point of its skill scale."""


YARDSTICKS: tuple[str, ...] = ("hard-v5", "planning-player", "policy-gen1")
"""SCOUT's fixed, versioned opponents (``yardsticks``): today's hard as it was in issue
#14's fifth round, the public SCOUT AI project's planning player, and the trained policy of
the first generation (``bench/nets``; later generations join as they are trained). They do
not change when the ladder does, so a ladder measured against them at two times is
comparable; what a bot would take against the public AI itself is measured with that AI
(issue #26), not predicted from these."""

LADDER_BOTS: tuple[str, ...] = ("easy", "medium", "hard")
"""The bots the ``yardsticks`` command measures against every yardstick: the ladder.
(``neural`` is SCOUT's four-player ``medium`` (``TRAINED_BUDGETS``): not played twice.
``hard`` is ``hard-v5`` today, so that match is a control, at the fair share; it measures
something once hard changes.)"""


def yardsticks(out: Path, bots: Sequence[str], against: Sequence[str], options: dict[str, Any],
               max_games: int, look: int, seed: int, budget: float | None, log: Any,
               jobs: int = 1) -> None:
    """One of each of ``bots`` against three of each yardstick (SCOUT, four players), a
    sequential match each, appended to ``out`` (a finished pair is skipped: resumable).
    Every name and option is checked first: a typo in the last yardstick fails at once, not
    after hours of the matches before it, and writes nothing."""
    game = new_game("scout", 4, options)
    for spec in (*bots, *against):
        bot(spec, game, 0, seed)
    for b in against:
        for a in bots:
            if _key("scout", a, b, options, seed) in _done(out):
                continue
            r = run_match("scout", a, b, 4, options, max_games, look, seed, log, budget, jobs)
            with out.open("a") as f:
                f.write(json.dumps(r) + "\n")
            print(json.dumps(r), file=log, flush=True)
            if _stop_requested:
                return


def _done(path: Path) -> set[str]:
    if not path.exists():
        return set()
    keys = set()
    for line in path.read_text().splitlines():
        r = json.loads(line)
        keys.add(_key(r["game"], r["a"], r["b"], r["options"], r.get("seed", 1),
                      r.get("players")))
    return keys


def _key(game: str, a: str, b: str, options: dict[str, Any], seed: int = 1,
         players: int | None = None) -> str:
    """A match's identity: a match replayed (same seed) replaces its record; another seed
    is another sample (older records, without a seed, were seed 1); another number of
    players than the game's table in :data:`SETUPS` is another match."""
    tail = f" seed={seed}" if seed != 1 else ""
    return f"{game}{_players(game, players)} {a} {b} {json.dumps(options, sort_keys=True)}{tail}"


def _players(game: str, players: int | None) -> str:
    """`` p=N`` where ``players`` is not the game's table in :data:`SETUPS`, else nothing."""
    return f" p={players}" if players is not None and players != SETUPS.get(game, (2,))[0] \
        else ""


def ladder(out: Path, games: Sequence[str], max_games: int | None, look: int | None, seed: int,
           budget: float | None, yardsticks: bool, log: Any, jobs: int = 1) -> None:
    todo: list[tuple[str, str, str, int, dict[str, Any]]] = []
    # Neighbouring levels of every game first (the ladder's claims), then the wider pairs.
    for a, b in ladder_pairs():
        for g in games:
            players, options = SETUPS[g]
            todo.append((g, a, b, players, options))
    todo.sort(key=lambda j: LEVELS.index(j[1]) - LEVELS.index(j[2]))
    if yardsticks:
        todo.extend(("scout", a, b, 4, o) for a, b, o in SCOUT_YARDSTICKS)
    for g, a, b, players, options in todo:
        if _key(g, a, b, options, seed) in _done(out):
            continue
        r = run_match(g, a, b, players, options, *sampling(g, max_games, look), seed, log,
                      budget, jobs)
        with out.open("a") as f:
            f.write(json.dumps(r) + "\n")
        print(json.dumps(r), file=log, flush=True)
        if _stop_requested:
            break


def _ms(x: float) -> str:
    return f"{x:.2f}" if x < 1 else f"{x:.0f}" if x >= 100 else f"{x:.1f}"


def read_matches(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """Every match record in ``paths`` (JSON lines), in order; a match (game, A, B, options)
    recorded again in a later line or file replaces the earlier record in its place (a pair
    re-measured after its bots changed). Several files: e.g. one per helper's games."""
    rows: dict[str, dict[str, Any]] = {}
    for path in paths:
        if not path.exists():
            raise BigtopError(f"no such results file: {path}")
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                key = _key(r["game"], r["a"], r["b"], r["options"], r.get("seed", 1),
                           r.get("players"))
            except (ValueError, KeyError, TypeError) as e:
                raise BigtopError(f"{path}:{n}: not a match record ({e})") from None
            rows[key] = r
    return list(rows.values())


def report(paths: Sequence[Path], plot: Path | None) -> str:
    """A markdown table of every match in ``paths`` (and a plot of the ladder)."""
    rows = read_matches(paths)
    lines = ["| game | A | B (×P−1) | games | A's share [95% CI] | fair | result | "
             "margin | A ms/move (mean, p90, max) | B ms/move (mean) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        opts = ",".join(f"{k}={v}" for k, v in r["options"].items())
        t = r["a_ms"]
        lines.append(
            f"| {r['game']}{_players(r['game'], r.get('players'))}{' ' + opts if opts else ''}"
            f" | {r['a']} | {r['b']} | {r['games']} | "
            f"{r['share']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] | {r['fair']:.3f} | "
            f"{r['decision'] or 'undecided'} | {r['margin_mean']:+.1f} | "
            f"{_ms(t['mean'])}, {_ms(t['p90'])}, {_ms(t['max'])} | {_ms(r['b_ms']['mean'])} |")
    if plot is not None:
        _plot(rows, plot)
    return "\n".join(lines)


def _plot(rows: list[dict[str, Any]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(SETUPS)
    fig, axes = plt.subplots(1, len(names), figsize=(4.2 * len(names), 3.6), sharey=True)
    for ax, g in zip(axes, names, strict=True):
        biggest: dict[tuple[str, str], dict[str, Any]] = {}  # a pair's largest sample
        for r in rows:
            if (r["game"] == g and r["options"] == SETUPS[g][1] and r["a"] in LEVELS
                    and r["b"] in LEVELS and r["games"] > biggest.get(
                        (r["a"], r["b"]), {"games": -1})["games"]):
                biggest[r["a"], r["b"]] = r
        mine = list(biggest.values())
        mine.sort(key=lambda r: (LEVELS.index(r["a"]), LEVELS.index(r["b"])))
        labels = [f"{r['a']}\nvs {r['b']}" for r in mine]
        share = [r["share"] for r in mine]
        err = [[r["share"] - r["ci95"][0] for r in mine], [r["ci95"][1] - r["share"]
                                                          for r in mine]]
        ax.bar(range(len(mine)), share, yerr=err, capsize=3, color="#4a7ab5")
        if mine:
            ax.axhline(mine[0]["fair"], color="#c44", linestyle="--", linewidth=1,
                       label="fair share")
        ax.set_xticks(range(len(mine)), labels, fontsize=7)
        ax.set_title(f"{g} ({SETUPS[g][0]} players)", fontsize=9)
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("win share of A (one A, the rest B)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` rule options (numbers and booleans as JSON)."""
    options: dict[str, Any] = {}
    for kv in pairs:
        k, _, v = kv.partition("=")
        options[k] = json.loads(v) if v[:1].isdigit() or v in ("true", "false") else v
    return options


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("match")
    m.add_argument("game")
    m.add_argument("a")
    m.add_argument("b")
    m.add_argument("-p", "--players", type=int)
    m.add_argument("-o", "--option", action="append", default=[])
    la = sub.add_parser("ladder")
    la.add_argument("--out", type=Path, default=Path("bench/bots-results.jsonl"))
    la.add_argument("--games", default=",".join(SETUPS))
    la.add_argument("--no-yardsticks", action="store_true")
    for p in (m, la):
        p.add_argument("--max-games", type=int, help="default 1000 (Clown 15 Go: 6000)")
        p.add_argument("--look", type=int, help="games between looks, default 20 (Clown "
                       "15 Go: 200)")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--budget", type=float, help="wall seconds per match at most")
        p.add_argument("--jobs", type=int, default=1, help="worker processes (games in "
                       "parallel; the same record)")
    r = sub.add_parser("report")
    r.add_argument("paths", type=Path, nargs="+")
    r.add_argument("--plot", type=Path)
    y = sub.add_parser("yardsticks", help="SCOUT's ladder against the fixed yardsticks")
    y.add_argument("--out", type=Path, default=Path("bench/bots-yardsticks.jsonl"))
    y.add_argument("--bots", default=",".join(LADDER_BOTS))
    y.add_argument("--against", default=",".join(YARDSTICKS))
    y.add_argument("-o", "--option", action="append", default=[],
                   help="rule options, default the full game (four rounds)")
    y.add_argument("--max-games", type=int, default=200)
    y.add_argument("--look", type=int, default=20)
    y.add_argument("--seed", type=int, default=1)
    y.add_argument("--budget", type=float, help="wall seconds per match at most")
    y.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, _request_stop)
    try:
        if args.cmd == "match":
            players, options = SETUPS.get(args.game, (2, {}))
            options = dict(options) | _options(args.option)
            print(json.dumps(run_match(args.game, args.a, args.b, args.players or players,
                                       options, *sampling(args.game, args.max_games,
                                                          args.look), args.seed,
                                       sys.stderr, args.budget, args.jobs)))
        elif args.cmd == "ladder":
            ladder(args.out, args.games.split(","), args.max_games, args.look, args.seed,
                   args.budget, not args.no_yardsticks, sys.stderr, args.jobs)
        elif args.cmd == "yardsticks":
            yardsticks(args.out, args.bots.split(","), args.against.split(","),
                       _options(args.option), args.max_games, args.look, args.seed,
                       args.budget, sys.stderr, args.jobs)
        else:
            print(report(args.paths, args.plot))
    except BigtopError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
