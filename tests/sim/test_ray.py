"""`--ray ADDRESS`: the same games on a Ray cluster, here a one-CPU head on loopback started
(and stopped, by its own process group) by the test."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bigtop.cli import app

cli = CliRunner()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    ray = Path(sys.executable).with_name("ray")
    port = _free_port()
    log = tmp_path_factory.mktemp("ray") / "head.log"
    with log.open("w") as out:
        head = subprocess.Popen(
            [str(ray), "start", "--head", "--block", "--node-ip-address=127.0.0.1",
             f"--port={port}", "--num-cpus=1", "--include-dashboard=false",
             "--disable-usage-stats"],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:  # until the head listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if head.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the Ray head did not start: " + log.read_text()) \
                        from None
                time.sleep(0.5)
        yield f"127.0.0.1:{port}"
    finally:
        # The head and every process it started share its process group. Its graceful stop
        # waits half a minute for its agents, so the group gets a few seconds, then a kill.
        os.killpg(head.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(5)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)
        head.wait(10)


def test_a_ray_cluster_gives_the_local_records(ray_head: str) -> None:
    args = ["simulate", "scout", "-p", "3", "-n", "9", "--seed", "7", "--bots", "easy,random",
            "--rotate", "--json"]
    local = cli.invoke(app, [*args, "--workers", "1"])
    remote = cli.invoke(app, [*args, "--ray", ray_head])
    assert remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)
    assert remote.stdout == local.stdout  # one JSON document, byte for byte


def test_an_unreachable_cluster_is_one_clear_line() -> None:
    port = _free_port()  # nothing listens there
    res = cli.invoke(app, ["simulate", "scout", "-n", "2", "--ray", f"127.0.0.1:{port}"])
    assert res.exit_code == 2, res.output
    assert "cannot connect to the Ray cluster at 127.0.0.1:" in res.output
    assert "Traceback" not in res.output
