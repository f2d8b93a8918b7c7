"""A throwaway PostgreSQL cluster (Debian's postgresql) in a temporary directory, run as an
unprivileged user on a unix socket: for the server's tests and its load benchmark."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: run `make postgresql`")
    return Path(found[-1]).parent


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def _as_user(user: str | None, cmd: list[str]) -> list[str]:
    return cmd if user is None else ["runuser", "-u", user, "--", *cmd]


@contextmanager
def throwaway_cluster() -> Iterator[str]:
    """Start a cluster; yield a URL template with ``{db}`` for the database name."""
    bin_dir = _pg_bin()
    root = Path(tempfile.mkdtemp(prefix="bigtop-pg-"))
    user = None
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        user = "postgres" if _user_exists("postgres") else "nobody"
        shutil.chown(root, user)
    data, sock = root / "data", root / "sock"
    try:
        subprocess.run(_as_user(user, ["mkdir", str(sock)]), check=True)
        subprocess.run(_as_user(user, [str(bin_dir / "initdb"), "-D", str(data), "-A",
                                       "trust", "-U", "bigtop", "--no-sync", "-E", "UTF8"]),
                       check=True, capture_output=True)
        port = free_port()
        opts = (f"-p {port} -k {sock} -c listen_addresses='' -c fsync=off "
                "-c max_connections=300")
        subprocess.run(_as_user(user, [str(bin_dir / "pg_ctl"), "-D", str(data), "-o", opts,
                                       "-l", str(root / "log"), "-w", "start"]),
                       check=True, capture_output=True)
        yield f"postgresql://bigtop@/{{db}}?host={sock}&port={port}"
    finally:
        subprocess.run(_as_user(user, [str(bin_dir / "pg_ctl"), "-D", str(data), "-m",
                                       "immediate", "stop"]), capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def new_database(cluster: str) -> str:
    """A fresh, empty database on ``cluster``; returns its URL."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(cluster.format(db="postgres"), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return cluster.format(db=name)
