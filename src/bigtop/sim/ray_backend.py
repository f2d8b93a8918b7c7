"""The Ray backend (``pip install bigtop[ray]``): the runner's chunks of jobs as Ray tasks.

Each task plays the same :class:`~bigtop.sim.runner.Job` s a local worker would, so a run on a
cluster gives the local run's records. Every node needs bigtop installed (the same version).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import Any

from bigtop.core.errors import BigtopError
from bigtop.sim.runner import Finished, Job, play_chunk


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BigtopError("--ray needs Ray: pip install 'bigtop[ray]'") from None
    return ray


def run_on_ray(address: str, chunks: Sequence[Sequence[Job]]) -> Iterator[list[Finished]]:
    """Connect to the cluster at ``address`` (``host:port`` of a running head, ``auto``, or
    ``local`` for a new one-machine instance), play ``chunks`` as tasks and yield their
    results in order. A connection this call made is closed at the end, also on Ctrl-C
    (pending tasks are cancelled)."""
    ray = _ray()
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(address=None if address == "local" else address,
                     include_dashboard=False if address == "local" else None,
                     logging_level=logging.WARNING, log_to_driver=False,
                     configure_logging=True)
        except Exception as e:  # Ray raises ConnectionError, ValueError, RuntimeError …
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise BigtopError(f"cannot connect to the Ray cluster at {address}: {first}") \
                from None
    task = ray.remote(play_chunk)
    refs = [task.remote(list(c)) for c in chunks]
    try:
        for ref in refs:
            yield list(ray.get(ref))
    except BaseException:
        for ref in refs:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
