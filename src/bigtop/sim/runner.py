"""Run many seeded games with bots, on one core, every core or a Ray cluster.

A run is a list of :class:`Job` s, one per game; a job says everything a game needs (game,
options, the state seed, each seat's bot and bot seed), so a game's record does not depend on
which process plays it, and records are merged in game order: the same seed gives the same
records whatever ``workers`` is.

Every game ``i`` of a run with seed ``S`` uses the bot seeds ``derive_seed(S, "agent", i,
seat)``. Without rotation game ``i`` is deal ``i`` with the state seed ``derive_seed(S,
"game", i)``. With ``rotate=True`` the games come in blocks of ``n`` (the player count): block
``d`` plays the one deal ``derive_seed(S, "game", d)`` ``n`` times, game ``d·n + r`` with the
line-up shifted ``r`` seats, so every bot sits in every seat equally often on the very same
cards and seat advantage and bot strength separate.

>>> from bigtop.sim.runner import simulate
>>> run = simulate("scout", players=3, games=4, seed=1)
>>> len(run.records), run.records[0].actions > 0
(4, True)
>>> r = simulate("scout", 2, 4, seed=1, bots=["easy", "random"], rotate=True).records
>>> [rec.bots for rec in r]
[['easy', 'random'], ['random', 'easy'], ['easy', 'random'], ['random', 'easy']]
>>> [rec.deal for rec in r], r[0].seed == r[1].seed, r[1].seed == r[2].seed
([0, 0, 1, 1], True, False)
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from bigtop.agents.base import Agent, RandomAgent, play_game
from bigtop.agents.levels import BOT_NAMES, make_bot
from bigtop.core.errors import BigtopError
from bigtop.core.game import Game, State
from bigtop.core.limits import MAX_GAMES
from bigtop.core.registry import new_game
from bigtop.core.rng import check_seed, derive_seed
from bigtop.sim.jobs import (
    Finished,
    GameRecord,
    Job,
    no_winner,
    play_chunk,
    play_job,
    win_share,
    win_shares,
)
from bigtop.sim.ray_backend import run_on_ray
from bigtop.sim.summary import Run

__all__ = [  # the jobs and the run's records live below this module; importable from here
    "Finished", "GameRecord", "Job", "Run", "against_random", "no_winner", "play_chunk",
    "play_job", "simulate", "win_share", "win_shares",
]

AGENT_KINDS = BOT_NAMES

Progress = Callable[[int], None]
"""Called with the number of games finished so far."""


def against_random(
    game: Game, make: Callable[[int], Agent], games: int, random_stride: int
) -> Iterator[tuple[int, State]]:
    """One agent against random players, its seat rotating: game ``i`` starts from seed
    ``i`` with ``make(seat)`` in seat ``i mod players`` and ``RandomAgent(random_stride * i +
    q)`` in every other seat ``q``. Yields ``(seat, finished state)`` per game.

    >>> g = new_game("scout", 2)
    >>> [(seat, s.is_terminal()) for seat, s in against_random(g, RandomAgent, 2, 10)]
    [(0, True), (1, True)]
    """
    n = game.num_players
    for i in range(games):
        seat = i % n
        agents = [make(q) if q == seat else RandomAgent(random_stride * i + q)
                  for q in range(n)]
        state = game.new_initial_state(i)
        play_game(state, agents)
        yield seat, state


def parse_bots(text: str) -> list[str]:
    """Bot names from ``--bots`` (comma-separated); an empty name or an unknown one is an
    error rather than a silent random player.

    >>> parse_bots("hard, medium")
    ['hard', 'medium']
    >>> parse_bots(",,")
    Traceback (most recent call last):
    ...
    bigtop.core.errors.BigtopError: --bots ',,' has an empty name; give names like hard,medium
    """
    names = [b.strip() for b in text.split(",")]
    if not text.strip() or any(not b for b in names):
        raise BigtopError(f"--bots {text!r} has an empty name; give names like hard,medium")
    check_bots(names)
    return names


def check_bots(names: Iterable[str]) -> None:
    """Every name is a bot :func:`~bigtop.agents.levels.make_bot` knows."""
    for b in names:
        if b not in BOT_NAMES:
            raise BigtopError(f"unknown bot {b!r}; bots: {', '.join(BOT_NAMES)}")


def seat_lineup(bots: Sequence[str], players: int) -> list[str]:
    """One bot per seat: fewer bots than seats are cycled (``hard,medium`` for four seats is
    ``hard, medium, hard, medium``); more bots than seats is an error.

    >>> seat_lineup(["hard", "medium"], 4)
    ['hard', 'medium', 'hard', 'medium']
    """
    if not bots:
        raise BigtopError("no bots given; give names like hard,medium")
    check_bots(bots)
    if len(bots) > players:
        raise BigtopError(f"{len(bots)} bots for {players} seats: give at most {players}")
    return [bots[p % len(bots)] for p in range(players)]


def rotated(lineup: Sequence[str], shift: int) -> list[str]:
    """The line-up moved ``shift`` seats on: seat ``p`` gets ``lineup[(p - shift) mod n]``.

    >>> rotated(["a", "b", "c"], 1)
    ['c', 'a', 'b']
    """
    n = len(lineup)
    return [lineup[(p - shift) % n] for p in range(n)]


def make_jobs(game: Game, games: int, seed: int, lineup: Sequence[str], rotate: bool,
              keep_state: bool = False, first_index: int = 0) -> list[Job]:
    """The jobs of a run (see the module's doc for the seeds)."""
    n = game.num_players
    if rotate:
        check_rotation(games, n)
    options = json.dumps(game.options.to_json(), sort_keys=True)
    jobs = []
    for i in range(first_index, first_index + games):
        deal = i // n if rotate else i
        bots = rotated(lineup, i % n) if rotate else list(lineup)
        jobs.append(Job(game.name, n, options, i, deal, derive_seed(seed, "game", deal),
                        tuple(bots), tuple(derive_seed(seed, "agent", i, p) for p in range(n)),
                        keep_state))
    return jobs


def check_rotation(games: int, players: int,
                   why: str = "with --rotate every deal is played once per rotation") -> None:
    """With rotation every deal is played once per seating, so the games must fill deals
    (``why``: the message's reason; a tournament, which has no --rotate, says its own)."""
    if games % players:
        lower, upper = games - games % players, games - games % players + players
        hint = f"{lower} or {upper}" if lower else str(upper)
        raise BigtopError(f"{why}, so --games must be a multiple of the {players} players "
                          f"(e.g. {hint}), got {games}")


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover (not Linux)
        return os.cpu_count() or 1


def _chunks(jobs: Sequence[Job], workers: int) -> list[list[Job]]:
    # Several chunks per worker balance uneven game lengths; chunks of a few games keep the
    # progress bar moving with slow bots (a search bot's game can take minutes).
    size = max(1, min(4, len(jobs) // (workers * 16)))
    return [list(jobs[i:i + size]) for i in range(0, len(jobs), size)]


def _ignore_sigint() -> None:
    # Ctrl-C goes to the whole process group: the parent stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class Played:
    """What a run of jobs gave back: the finished games, in game order, and whether it was
    stopped before the end."""

    finished: list[Finished]
    interrupted: bool


def run_jobs(jobs: Sequence[Job], workers: int = 1, ray_address: str | None = None,
             progress: Progress | None = None, block: int = 1) -> Played:
    """Play ``jobs`` in one process (``workers=1``), in ``workers`` processes, or on the Ray
    cluster at ``ray_address``; the results come back in job order. Ctrl-C stops the run:
    the first games finished are kept (cut to whole blocks of ``block`` jobs, e.g. the
    seatings of a deal), so what is reported is exactly what a shorter run gives."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise BigtopError(f"workers must be a positive whole number, got {workers!r}")
    done: list[Finished] = []
    interrupted = False
    # Every path hands back results in job order, so what has been reported is always the
    # first games and a Ctrl-C keeps exactly them.
    try:
        if ray_address is not None:
            for chunk in run_on_ray(ray_address, _chunks(jobs, 4 * workers)):
                _collect(chunk, done, progress)
        elif min(workers, len(jobs)) <= 1:
            for job in jobs:
                _collect([play_job(job)], done, progress)
        else:
            _run_pool(jobs, workers, done, progress)
    except KeyboardInterrupt:
        interrupted = True
        del done[len(done) - len(done) % block:]
    return Played(done, interrupted or len(done) < len(jobs))


def _collect(chunk: Sequence[Finished], done: list[Finished], progress: Progress | None) -> None:
    done.extend(chunk)
    if progress is not None:
        progress(len(done))


def _run_pool(jobs: Sequence[Job], workers: int, done: list[Finished],
              progress: Progress | None) -> None:
    methods = multiprocessing.get_all_start_methods()
    # Workers are forked from a fork server (one clean process that has imported the
    # engines), not from this process: a fork of a process with other threads (a progress
    # bar's, a test runner's) can inherit a lock some thread held, and such a worker hung
    # Pool.terminate() on a Ctrl-C. The jobs carry everything a worker needs.
    ctx: multiprocessing.context.BaseContext
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__])
    else:
        ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(min(workers, len(jobs)), initializer=_ignore_sigint)
    try:
        # imap, not imap_unordered: results in job order (the pool still plays ahead while
        # a long game holds one worker).
        chunks = _chunks(jobs, workers)
        results = pool.imap(play_chunk, chunks)
        for _ in chunks:
            while True:
                # A bounded wait: a Ctrl-C that lands on another thread (the progress
                # bar's) is only seen once this thread runs Python again.
                try:
                    chunk = results.next(timeout=0.25)
                    break
                except multiprocessing.TimeoutError:
                    continue
            _collect(chunk, done, progress)
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()


def make_agent(kind: str, game: Game, seat: int, seed: int) -> Agent:
    """Kept for scripts: the same as :func:`bigtop.agents.levels.make_bot`."""
    return make_bot(kind, game, seat, seed)


def check_games(games: object, what: str = "games") -> int:
    """A run's game count: a positive whole number, at most :data:`~bigtop.core.limits.
    MAX_GAMES` (``what`` names the count in the message).

    >>> check_games(10**12)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bigtop.core.errors.BigtopError: games must be at most 1,000,000 (a run's limit), got ...
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise BigtopError(f"{what} must be a positive whole number, got {games!r}")
    if games > MAX_GAMES:
        raise BigtopError(f"{what} must be at most {MAX_GAMES:,} (a run's limit), "
                          f"got {games:,}")
    return games


def simulate(
    name: str,
    players: int,
    games: int,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    bots: Sequence[str] = ("random",),
    progress: Progress | None = None,
    *,
    rotate: bool = False,
    workers: int = 1,
    ray_address: str | None = None,
    keep_states: bool = False,
    agents: Sequence[str] | None = None,
) -> Run:
    """Play ``games`` games of ``name`` with ``bots`` in the seats (cycled when fewer;
    ``agents`` is the older name). ``rotate`` plays each deal once per rotation of the
    line-up; ``workers`` processes (or the Ray cluster at ``ray_address``) share the games,
    with the same records. A Ctrl-C returns the games finished so far, marked
    ``interrupted``."""
    check_seed(seed)
    check_games(games)
    game = new_game(name, players, options)
    given = list(agents if agents is not None else bots) or ["random"]
    lineup = seat_lineup(given, players)
    jobs = make_jobs(game, games, seed, lineup, rotate, keep_states)
    played = run_jobs(jobs, workers, ray_address, progress, players if rotate else 1)
    return Run(game, seed, lineup, [f.record for f in played.finished], rotate, given, games,
               played.interrupted,
               [f.state for f in played.finished if f.state is not None])
