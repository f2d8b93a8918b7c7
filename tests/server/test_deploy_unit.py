"""docs/deploy.md's systemd unit, read out of the guide: `systemd-analyze verify` accepts it
(every key known, every value parsed, the units it needs found), and its ExecStart command
line is one `bigtop serve` takes, with the options the guide gives, so that a renamed or
removed option breaks this test instead of a host's server.

systemd-analyze needs no running systemd (none runs in a container): it loads the unit
files from disk. It does check that ExecStart's program exists and is executable, so the
guide's /opt/bigtop/app/.venv/bin/bigtop becomes this venv's `bigtop`; and that the units
named in Requires= exist, so where Debian's postgresql.service is not installed a stub of
that name stands in. No warning is ignored: any output at all fails the test."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from typer.testing import CliRunner

from bigtop.cli import app
from bigtop.server.settings import ENV_SETTINGS, Settings
from tests.server.conftest import BIGTOP
from tests.server.deploy_doc import block, need, replace
from tests.server.pg import free_port

SERVER = "/opt/bigtop/app/.venv/bin/bigtop"  # where the guide's section 1 builds it
POSTGRESQL_UNIT = Path("/lib/systemd/system/postgresql.service")


def exec_start(unit: str) -> list[str]:
    """The words of the unit's ExecStart line (a trailing backslash continues a line)."""
    lines = unit.replace("\\\n", " ").splitlines()
    found = [line.partition("=")[2] for line in lines if line.startswith("ExecStart=")]
    assert len(found) == 1, f"the unit has {len(found)} ExecStart= lines, not one"
    return shlex.split(found[0])


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    need(Path(analyze or "/usr/bin/systemd-analyze"), "systemd's systemd-analyze")
    unit = tmp_path / "bigtop.service"
    unit.write_text(replace(block("ini"), SERVER + " ", BIGTOP + " "))
    if not POSTGRESQL_UNIT.exists():
        (tmp_path / "postgresql.service").write_text("[Service]\nExecStart=/bin/true\n")
    # The test's directory first, then systemd's own unit directories (the trailing colon).
    env = {"SYSTEMD_UNIT_PATH": f"{tmp_path}:", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([analyze or "systemd-analyze", "verify", str(unit)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_the_units_command_line_is_bigtop_serve(pg_url: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    words = exec_start(block("ini"))
    assert words[:2] == [SERVER, "serve"]
    # The guide's own options, on this test's database and a free port; the server is not
    # started (uvicorn.run is the last step), everything before it is the real command.
    args = replace(" ".join(words[2:]), "postgresql://bigtop@/bigtop", pg_url)
    args = replace(args, "--port 8000", f"--port {free_port()}")
    monkeypatch.delenv(ENV_SETTINGS, raising=False)  # serve sets it; undone after the test
    with mock.patch("uvicorn.run") as run:
        done = CliRunner().invoke(app, ["serve", *args.split()])
    assert done.exit_code == 0, done.output
    kwargs: Mapping[str, Any] = run.call_args.kwargs
    assert (kwargs["host"], kwargs["workers"]) == ("127.0.0.1", 4)
    assert kwargs["ws_per_message_deflate"] is False  # uncompressed unless a host asks
    settings = Settings.from_env()  # what serve hands its workers
    assert (settings.bot_processes, settings.db_url) == (2, pg_url)


@pytest.mark.parametrize("flag, deflate", [((), False), (("--no-ws-compression",), False),
                                           (("--ws-compression",), True)])
def test_a_host_may_turn_websocket_compression_on(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  flag: tuple[str, ...], deflate: bool) -> None:
    monkeypatch.delenv(ENV_SETTINGS, raising=False)
    with mock.patch("uvicorn.run") as run:
        done = CliRunner().invoke(app, ["serve", "--db", f"sqlite:///{tmp_path}/t.sqlite3",
                                        "--port", str(free_port()), *flag])
    assert done.exit_code == 0, done.output
    assert run.call_args.kwargs["ws_per_message_deflate"] is deflate
