"""The Ray backend (``pip install bigtop[ray]``): the runner's chunks of jobs as Ray tasks.

Each task plays the same :class:`~bigtop.sim.jobs.Job` s a local worker would, so a run on a
cluster gives the local run's records. Every node needs bigtop installed (the same version).
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator, Sequence
from typing import Any

from bigtop.core.errors import BigtopError
from bigtop.core.extras import require_extra
from bigtop.sim.jobs import Finished, Job, play_chunk


def _ray() -> Any:
    require_extra("ray", what="--ray")
    import ray

    return ray


def _check_reachable(address: str) -> None:
    """A ``host:port`` nobody listens on fails at once (Ray itself retries for minutes)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in address:
        return  # "auto", "local", "ray://…": Ray's own lookups
    try:
        with socket.create_connection((host, int(port)), timeout=5):
            pass
    except OSError as e:
        raise BigtopError(f"cannot connect to the Ray cluster at {address}: "
                          f"{e.strerror or e}") from None


def run_on_ray(address: str, chunks: Sequence[Sequence[Job]]) -> Iterator[list[Finished]]:
    """Connect to the cluster at ``address`` (what ``ray.init`` takes: ``host:port`` of a
    running head, ``auto``, ``ray://…``), play ``chunks`` as tasks and yield their
    results in order. A connection this call made is closed at the end, also on Ctrl-C
    (pending tasks are cancelled)."""
    ray = _ray()
    started = not ray.is_initialized()
    if started:
        _check_reachable(address)
        try:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        except (Exception, SystemExit) as e:  # ConnectionError, ValueError, an exit …
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise BigtopError(f"cannot connect to the Ray cluster at {address}: {first}") \
                from None
    task = ray.remote(play_chunk)
    refs = [task.remote(list(c)) for c in chunks]
    try:
        for ref in refs:
            while True:  # bounded waits, so that a Ctrl-C is seen at once
                try:
                    chunk = ray.get(ref, timeout=0.25)
                    break
                except ray.exceptions.GetTimeoutError:
                    continue
            yield list(chunk)
    except BaseException:
        for ref in refs:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
