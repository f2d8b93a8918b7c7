"""Behind a real reverse proxy: Debian's nginx (as docs/deploy.md sets it up: TLS, WebSocket
upgrade, X-Forwarded-For/-Proto) in front of two `bigtop serve` workers on one PostgreSQL
database, all on loopback. WebSockets work through it; per-client limits see the address
nginx saw (X-Forwarded-For is believed only from the proxy: nginx connects from 127.0.0.2,
the only trusted proxy); X-Forwarded-Proto https is honoured (HSTS), and not from others.

`make test` installs nginx (and openssl) when missing (`make nginx`): the test fails there
without them and is skipped only when run outside make."""

from __future__ import annotations

import json
import os
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets.sync.client
from websockets.exceptions import ConnectionClosed

from tests.server.pg import free_port

NGINX = Path("/usr/sbin/nginx")
PROXY_ADDRESS = "127.0.0.2"  # nginx connects to the workers from here (proxy_bind)
CLIENT_A, CLIENT_B = "127.0.0.1", "127.0.0.3"
PER_CLIENT = 2  # live connections one client address may hold (per worker)

CONFIG = """
daemon off;
master_process off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream bigtop {{
        hash $remote_addr consistent;  # a client stays on one worker
        server 127.0.0.1:{one};
        server 127.0.0.1:{two};
    }}
    server {{
        listen 127.0.0.1:{port} ssl;
        ssl_certificate {tmp}/cert.pem;
        ssl_certificate_key {tmp}/key.pem;
        location / {{
            proxy_pass http://bigtop;
            proxy_bind {proxy};
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""


def _need(path: Path, what: str) -> None:
    if path.exists():
        return
    if os.environ.get("MAKELEVEL"):  # under make, `make nginx` has installed it
        pytest.fail(f"{what} is missing: `make nginx` installs it")
    pytest.skip(f"{what} is not installed (`make nginx` installs it; `make test` does)")


@pytest.fixture
def proxy(pg_url: str, server_factory: Any, tmp_path: Path) -> Iterator[dict[str, Any]]:
    _need(NGINX, "Debian's nginx (/usr/sbin/nginx)")
    openssl = shutil.which("openssl")
    _need(Path(openssl or "/usr/bin/openssl"), "openssl")
    workers = [server_factory(pg_url, "--trusted-proxy", PROXY_ADDRESS,
                              "--limit", f"max_sockets_per_client={PER_CLIENT}").start(120)
               for _ in range(2)]
    subprocess.run([openssl or "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                    "-days", "2", "-subj", "/CN=localhost", "-keyout", str(tmp_path / "key.pem"),
                    "-out", str(tmp_path / "cert.pem")], check=True, capture_output=True,
                   timeout=60)
    port = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(CONFIG.format(tmp=tmp_path, one=workers[0].port, two=workers[1].port,
                                  port=port, proxy=PROXY_ADDRESS))
    nginx = subprocess.Popen([str(NGINX), "-c", str(conf), "-p", str(tmp_path)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    base = f"https://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/api/games", verify=False, timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if nginx.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("nginx did not come up: "
                                   + (tmp_path / "error.log").read_text()[-2000:])
            time.sleep(0.1)
        yield {"base": base, "port": port, "workers": workers}
    finally:
        nginx.terminate()
        try:
            nginx.wait(10)
        except subprocess.TimeoutExpired:
            nginx.kill()
            nginx.wait()


def tls() -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # our throwaway certificate
    return ctx


def live(port: int, path: str, source: str, *, secure: bool = True,
         protocols: list[str] | None = None,
         headers: dict[str, str] | None = None) -> websockets.sync.client.ClientConnection:
    """A WebSocket to ``path`` from the loopback address ``source``."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(30)
    sock.connect(("127.0.0.1", port))
    scheme = "wss" if secure else "ws"
    return websockets.sync.client.connect(
        f"{scheme}://localhost:{port}{path}", sock=sock, ssl=tls() if secure else None,
        subprotocols=protocols or ["bigtop"], additional_headers=headers, open_timeout=30)  # type: ignore[arg-type]


def message(ws: websockets.sync.client.ClientConnection) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return out


def refused(ws: websockets.sync.client.ClientConnection) -> int:
    """The close code after the server's error message (429 expected)."""
    assert message(ws)["problem"]["status"] == 429
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=30)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def test_websockets_scheme_and_client_addresses_through_nginx(proxy: dict[str, Any]) -> None:
    base, port = proxy["base"], proxy["port"]
    api = httpx.Client(base_url=base, verify=False, timeout=30)
    # HTTPS at the proxy: the workers hear it from X-Forwarded-Proto and say HSTS.
    games = api.get("/api/games")
    assert games.status_code == 200 and "max-age=" in games.headers["strict-transport-security"]
    assert "frame-ancestors 'none'" in games.headers["content-security-policy"]
    # A client that reaches a worker directly cannot claim HTTPS (it is no trusted proxy).
    direct = proxy["workers"][0].base
    spoof = httpx.get(direct + "/api/games", headers={"x-forwarded-proto": "https"})
    assert spoof.status_code == 200 and "strict-transport-security" not in spoof.headers

    # A game through the proxy over WebSockets: the seat's token in the subprotocol; a
    # spectator elsewhere sees the move (another worker, maybe: LISTEN/NOTIFY).
    made = api.post("/api/tables", json={"game": "scout", "players": 2}).json()
    table, tok = made["table"], made["seats"][0]["token"]
    path = f"/api/tables/{table}/ws"
    with live(port, path, CLIENT_A, protocols=["bigtop", f"bigtop.token.{tok}"]) as seat, \
            live(port, path, CLIENT_B) as watcher:
        assert seat.subprotocol == "bigtop"
        mine = message(seat)["view"]
        assert mine["seat"] == 0 and mine["legal_actions"]
        assert message(watcher)["view"]["seat"] is None
        seat.send(json.dumps({"type": "move", "version": mine["version"], "index": 0}))
        seen = message(watcher)["view"]
        while seen["version"] == mine["version"]:  # P0 claiming the seat is news too
            seen = message(watcher)["view"]
        assert seen["version"] == mine["version"] + 1

    # Per-client limits see the address nginx saw: A's sockets are counted as A's whatever
    # X-Forwarded-For A writes itself (nginx appends the real one, the right-most untrusted
    # hop); B, another address, is not held back by A.
    with ExitStack() as held:
        for i in range(PER_CLIENT):
            ws = held.enter_context(live(port, path, CLIENT_A,
                                         headers={"x-forwarded-for": f"10.9.9.{i}"}))
            assert message(ws)["type"] == "view"
        with live(port, path, CLIENT_A, headers={"x-forwarded-for": "10.9.9.99"}) as extra:
            assert refused(extra) == 4429
        with live(port, path, CLIENT_B) as other:
            assert message(other)["type"] == "view"
    # Straight to a worker, X-Forwarded-For is not believed: three "different" clients from
    # one address are one client.
    worker_port = proxy["workers"][1].port
    with ExitStack() as held:
        for i in range(PER_CLIENT):
            ws = held.enter_context(live(worker_port, path, "127.0.0.5", secure=False,
                                         headers={"x-forwarded-for": f"198.51.100.{i}"}))
            assert message(ws)["type"] == "view"
        with live(worker_port, path, "127.0.0.5", secure=False,
                  headers={"x-forwarded-for": "198.51.100.77"}) as extra:
            assert refused(extra) == 4429
    api.close()
