"""Behind a real reverse proxy, as docs/deploy.md sets it up (TLS, WebSocket upgrade,
X-Forwarded-For/-Proto, the 64 KB body limit), all on loopback:

- Debian's nginx in front of two `bigtop serve` workers on one PostgreSQL database (nginx
  connects from 127.0.0.2, the only trusted proxy: X-Forwarded-For is believed from the
  proxy and from no one else);
- Debian's Caddy with the guide's own Caddyfile (read out of docs/deploy.md) in front of
  one worker on SQLite with the default trusted proxies (this host). One worker is enough:
  the nginx case already plays across two workers on PostgreSQL, and what Caddy adds is
  only the proxy's part; a SQLite file needs no database made first.

Through either, WebSockets work; per-client limits see the address the proxy saw, whatever
X-Forwarded-For the client writes itself; X-Forwarded-Proto https is honoured (HSTS), and
not from others; a body over the 64 KB limit is refused with 413 (by nginx itself; behind
Caddy by the worker, docs/deploy.md 4' says why); nginx's per-address connection cap
(``limit_conn``, here just above the worker's socket limit) refuses one address's next
request with 429 while another address is served (Caddy has none: deploy.md 4').

`make test` installs nginx, Caddy and openssl when missing (`make hosting`): the test fails
there without them and is skipped only when run outside make."""

from __future__ import annotations

import contextlib
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

from tests.server.deploy_doc import block, need, replace
from tests.server.pg import free_port

NGINX = Path("/usr/sbin/nginx")
PROXY_ADDRESS = "127.0.0.2"  # nginx connects to the workers from here (proxy_bind)
# Neither is 127.0.0.1: that is a trusted proxy where Caddy runs (the default setting).
CLIENT_A, CLIENT_B = "127.0.0.4", "127.0.0.3"
STRANGER = "127.0.0.5"  # reaches a worker directly: no trusted proxy in either setup
PER_CLIENT = 2  # live connections one client address may hold (per worker)
PROXY_CONNS = PER_CLIENT + 1  # nginx's limit_conn (the guide's is 64: twice the default)

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
    limit_conn_zone $binary_remote_addr zone=per_client:1m;
    upstream bigtop {{
        hash $remote_addr consistent;  # a client stays on one worker
        server 127.0.0.1:{one};
        server 127.0.0.1:{two};
    }}
    server {{
        listen 127.0.0.1:{port} ssl;
        ssl_certificate {tmp}/cert.pem;
        ssl_certificate_key {tmp}/key.pem;
        client_max_body_size 64k;
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
            limit_conn per_client {conns};
            limit_conn_status 429;
        }}
    }}
}}
"""


CADDY = Path("/usr/bin/caddy")
# What a loopback test adds to the guide's Caddyfile, each for a reason:
CADDY_GLOBALS = """{{
    # no admin API on localhost:2019 (another test process may hold that port)
    admin off
    # no HTTP listener on port 80 for redirects (taken, or not ours to bind)
    auto_https disable_redirects
    # certificates from Caddy's own local CA: no ACME, no network
    local_certs
    # and that CA is not put into the machine's trust store
    skip_install_trust
    # its state (the CA, the certificates) in the test's directory, not in ~/.local/share
    storage file_system {tmp}/caddy-data
}}
"""


def _nginx(request: pytest.FixtureRequest, server_factory: Any,
           tmp_path: Path) -> tuple[list[Any], subprocess.Popen[bytes], int, Path]:
    need(NGINX, "Debian's nginx (/usr/sbin/nginx)")
    openssl = shutil.which("openssl")
    need(Path(openssl or "/usr/bin/openssl"), "openssl")
    pg_url: str = request.getfixturevalue("pg_url")
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
                                  port=port, proxy=PROXY_ADDRESS, conns=PROXY_CONNS))
    nginx = subprocess.Popen([str(NGINX), "-c", str(conf), "-p", str(tmp_path)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    return workers, nginx, port, tmp_path / "error.log"


def _caddy(server_factory: Any, tmp_path: Path) -> tuple[list[Any], subprocess.Popen[bytes],
                                                         int, Path]:
    need(CADDY, "Debian's caddy (/usr/bin/caddy)")
    # The guide's setup: the default trusted proxies (this host), so no --trusted-proxy.
    worker = server_factory(f"sqlite:///{tmp_path / 'tables.sqlite3'}",
                            "--limit", f"max_sockets_per_client={PER_CLIENT}").start(120)
    port = free_port()
    # Only the site's name (both names the test's clients use, on a free port) and the
    # upstream's port change: every other line is the guide's.
    site = replace(block("caddy"), "play.example.org",
                   f"https://localhost:{port}, https://127.0.0.1:{port}")
    site = replace(site, "127.0.0.1:8000", f"127.0.0.1:{worker.port}")
    conf = tmp_path / "Caddyfile"
    conf.write_text(CADDY_GLOBALS.format(tmp=tmp_path) + site)
    log = tmp_path / "caddy.log"
    # HOME and XDG_*: Caddy writes its autosave and lock files there; never the real ones.
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    with open(log, "wb") as out:
        caddy = subprocess.Popen([str(CADDY), "run", "--config", str(conf), "--adapter",
                                  "caddyfile"], stdout=out, stderr=subprocess.STDOUT,
                                 env=env)
    return [worker], caddy, port, log


@pytest.fixture(params=["nginx", "caddy"])
def proxy(request: pytest.FixtureRequest, server_factory: Any,
          tmp_path: Path) -> Iterator[dict[str, Any]]:
    if request.param == "nginx":
        workers, proc, port, log = _nginx(request, server_factory, tmp_path)
    else:
        workers, proc, port, log = _caddy(server_factory, tmp_path)
    base = f"https://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/api/games", verify=False, timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{request.param} did not come up: "
                                   + (log.read_text()[-2000:] if log.exists() else ""))
            time.sleep(0.1)
        yield {"base": base, "port": port, "workers": workers, "name": request.param}
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def tls() -> ssl.SSLContext:
    """The test's own sockets' TLS: TLS 1.2 at most. websockets' sync client reads in a
    thread of its own while the caller writes, both on one OpenSSL connection, which is not
    safe for that: under TLS 1.3 the reading thread takes in the server's post-handshake
    session tickets while the handshake request is written, and now and then the request
    is lost (the proxy waits for it, the client for the answer, then hangs joining its
    reader; measured with Caddy: about one handshake in 900 under TLS 1.3, none in 4,200
    under TLS 1.2). A client-side race: browsers and the proxies are not concerned."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # our throwaway certificate
    ctx.maximum_version = ssl.TLSVersion.TLSv1_2
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


@contextlib.contextmanager
def held_open(port: int, source: str) -> Iterator[None]:
    """A request from ``source`` whose body never comes whole: nginx holds it open."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(30)
    sock.connect(("127.0.0.1", port))
    with tls().wrap_socket(sock, server_hostname="localhost") as secure:
        secure.sendall(b"POST /api/tables HTTP/1.1\r\nHost: localhost\r\n"
                       b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        time.sleep(0.5)  # nginx has read the head and counts the request
        yield


def get_from(base: str, source: str) -> httpx.Response:
    with httpx.Client(transport=httpx.HTTPTransport(local_address=source, verify=False),
                      timeout=30) as c:
        return c.get(base + "/api/games")


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


def test_websockets_scheme_and_client_addresses_through_the_proxy(
        proxy: dict[str, Any]) -> None:
    base, port = proxy["base"], proxy["port"]
    api = httpx.Client(base_url=base, verify=False, timeout=30)
    # HTTPS at the proxy: the workers hear it from X-Forwarded-Proto and say HSTS.
    games = api.get("/api/games")
    assert games.status_code == 200 and "max-age=" in games.headers["strict-transport-security"]
    assert "frame-ancestors 'none'" in games.headers["content-security-policy"]
    # A client that reaches a worker directly cannot claim HTTPS (it is no trusted proxy).
    direct = proxy["workers"][0].base
    with httpx.Client(transport=httpx.HTTPTransport(local_address=STRANGER)) as stranger:
        spoof = stranger.get(direct + "/api/games", headers={"x-forwarded-proto": "https"})
    assert spoof.status_code == 200 and "strict-transport-security" not in spoof.headers
    # A body over Limits.max_body_bytes is refused (413). nginx refuses it itself, before any
    # worker reads it (a worker's own refusal is a JSON problem; nginx's is not). The guide's
    # Caddyfile leaves it to the worker: Caddy 2.6's request_body max_size answers 502, or
    # drops the connection, or passes the request on, by a race (docs/deploy.md, 4').
    big = api.post("/api/tables", content=b"x" * (100 * 1024),
                   headers={"content-type": "application/json"})
    assert big.status_code == 413
    assert ("json" in big.headers["content-type"]) == (proxy["name"] == "caddy")

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

    # Per-client limits see the address the proxy saw: A's sockets are counted as A's whatever
    # X-Forwarded-For A writes itself (nginx appends the real one, the right-most untrusted
    # hop; Caddy replaces it with the real one); B, another address, is not held back by A.
    with ExitStack() as held:
        for i in range(PER_CLIENT):
            ws = held.enter_context(live(port, path, CLIENT_A,
                                         headers={"x-forwarded-for": f"10.9.9.{i}"}))
            assert message(ws)["type"] == "view"
        with live(port, path, CLIENT_A, headers={"x-forwarded-for": "10.9.9.99"}) as extra:
            assert refused(extra) == 4429
        with live(port, path, CLIENT_B) as other:
            assert message(other)["type"] == "view"
        if proxy["name"] == "nginx":
            # nginx's limit_conn (docs/deploy.md 4): what A holds open at the proxy, its two
            # sockets and a request whose body is still coming, is its cap; one more request
            # is refused there (429), never reaching a worker; B is not held back.
            with held_open(port, CLIENT_A):
                assert get_from(base, CLIENT_A).status_code == 429
                assert get_from(base, CLIENT_B).status_code == 200
            assert get_from(base, CLIENT_A).status_code == 200
    # Straight to a worker, X-Forwarded-For is not believed: three "different" clients from
    # one address are one client.
    worker_port = proxy["workers"][-1].port
    with ExitStack() as held:
        for i in range(PER_CLIENT):
            ws = held.enter_context(live(worker_port, path, STRANGER, secure=False,
                                         headers={"x-forwarded-for": f"198.51.100.{i}"}))
            assert message(ws)["type"] == "view"
        with live(worker_port, path, STRANGER, secure=False,
                  headers={"x-forwarded-for": "198.51.100.77"}) as extra:
            assert refused(extra) == 4429
    api.close()
