"""Browser tests: a real `bigtop serve` on a temporary SQLite file, driven through Debian's
chromium by Playwright (no browser download; `make chromium` installs it when missing).

Screenshots of every page go to ``BIGTOP_WEB_SHOTS`` (``make screenshots`` sets it to
docs/img/web) or, by default, to the test's temporary directory as artifacts.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from tests.server.conftest import ONE_CLIENT_MANY_TABLES

CHROMIUM = Path("/usr/bin/chromium")
# axe-core's axe.min.js from npm (`npm pack axe-core`), with its licence beside it.
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
# The pages pause between others' moves and animate throws; the tests run them fast (a
# hundredth: at a twentieth, Tricky Landing's 36 throws a game took a third of its tests' time).
SPEED = "0.01"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One `bigtop serve` process on a SQLite file; `kill()` is SIGKILL, `start()` restarts
    it on the same port and database."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    def start(self) -> None:
        cmd = [sys.executable, "-c", "from bigtop.cli import app; app()", "serve",
               "--host", "127.0.0.1", "--port", str(self.port), "--db", f"sqlite:///{self.db}",
               "--bot-delay", "0", *ONE_CLIENT_MANY_TABLES,
               # one bot process, not one a core: the browser and the other worker need them
               "--bot-processes", "1"]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"bigtop serve exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/games", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        raise RuntimeError("bigtop serve did not answer within 60 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        """A JSON request to the API (for setting up tables and checking results)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.url}{path}", data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    def create(self, game: str, players: int, seats: list[dict[str, Any]],
               options: dict[str, Any] | None = None, seed: int | None = None) -> dict[str, Any]:
        """A table; a test's `seed` makes its deal repeatable. The server takes a chosen seed
        only where nobody else can sit (fairness): bots only, or one person's unlisted table.
        Without a seed the server draws one, as it does for everybody."""
        spec: dict[str, Any] = {"game": game, "players": players, "seats": seats,
                                "options": options or {}}
        people = sum(s.get("kind", "human") == "human" for s in seats)
        if seed is None and not people:
            seed = 1
        if seed is not None:
            if people > 1:
                raise ValueError("a chosen seed is for tables with at most one person")
            spec["seed"] = seed
            if people:
                spec["listed"] = False
        made: dict[str, Any] = self.api("POST", "/api/tables", spec)
        return made

    def table_url(self, table: str, token: str | None = None) -> str:
        url = f"{self.url}/table.html?table={table}&speed={SPEED}"
        return url + (f"#token={token}" if token else "")


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server a test worker, shared by the browser tests as the browser is (a start
    costs a second or more of CPU; one a module started some 16 in a run). So a test finds
    other tests' tables and players there: it looks for its own."""
    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is missing: run `make chromium`")
    srv = Server(tmp_path_factory.mktemp("web") / "bigtop.sqlite")
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture
def server(shared_server: Server) -> Server:
    """The worker's server, started again if a test killed it and did not restart it."""
    if shared_server.proc is None or shared_server.proc.poll() is not None:
        shared_server.start()
    return shared_server


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def chromium(playwright: Playwright) -> Iterator[Browser]:
    """One chromium a test worker: every page gets a context of its own (cookies, storage
    and cache apart, as a fresh profile has them) instead of a browser started for it, which
    cost the suite a second or two of CPU a page."""
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                         args=CHROMIUM_ARGS)
    yield browser
    browser.close()


# Lines the browser itself logs as console errors when the server is down on purpose (the
# restart test) or answers an illegal attempt with its 4xx problem (expected).
NETWORK_NOISE = re.compile(r"ERR_CONNECTION_REFUSED|WebSocket connection to .* failed|"
                           r"net::ERR_|Failed to load resource: the server responded with a "
                           r"status of 4\d\d")


class Browsers:
    """Fresh browser contexts (a new profile each: nothing shared between two pages);
    every page's console errors and uncaught exceptions are collected and checked when the
    test ends."""

    def __init__(self, chromium: Browser, shots: Path) -> None:
        self.chromium = chromium
        self.shots = shots
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def new_page(self, width: int = 1280, height: int = 900,
                 reduced_motion: bool = False, keep_csp: bool = False) -> Page:
        # Playwright evaluates a string predicate (wait_for_function) with eval, which the
        # server's CSP forbids: pages drive with the CSP bypassed, and test_security.py's
        # pages (keep_csp) check that the pages themselves keep to it.
        context = self.chromium.new_context(
            viewport={"width": width, "height": height},
            reduced_motion="reduce" if reduced_motion else "no-preference",
            bypass_csp=not keep_csp)
        self.contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: self.errors.append(f"console: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e} {e.stack}"))
        page.set_default_timeout(45_000)  # generous: the suite shares 2 cores
        return page

    def allow_network_errors(self) -> None:
        """Move the browser's own network-failure lines out of the error list (expected
        while the server is down, or for the 4xx answer to an illegal attempt)."""
        self.allowed += [e for e in self.errors if NETWORK_NOISE.search(e)]
        self.errors = [e for e in self.errors if not NETWORK_NOISE.search(e)]

    def shot(self, page: Page, name: str) -> Path:
        """A full-page screenshot; for the docs, reduced to 256 colours (a fifth the bytes)."""
        path = self.shots / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        if os.environ.get("BIGTOP_WEB_SHOTS"):
            with Image.open(path) as im:
                small = im.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
            small.save(path, optimize=True)
        return path

    def axe(self, page: Page, where: str) -> None:
        """Run axe-core (vendored under tests/web/vendor, never fetched) on the page as it is:
        no serious or critical violation of its WCAG 2 A/AA rules."""
        if not page.evaluate("() => typeof window.axe === 'object'"):
            # Through the DevTools protocol: the page's CSP allows no inline script.
            page.evaluate(AXE.read_text())
        found = page.evaluate("""async () => {
          const r = await axe.run(document, {resultTypes: ['violations'], runOnly: {type: 'tag',
            values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}});
          return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
            .map((v) => `${v.id} (${v.impact}): ${v.help}: ` +
              v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '));
        }""")
        assert not found, f"axe on {where}:\n" + "\n".join(found)

    def close(self) -> None:
        for c in self.contexts:
            c.close()


@pytest.fixture
def browsers(chromium: Browser, tmp_path: Path) -> Iterator[Browsers]:
    shots = Path(os.environ["BIGTOP_WEB_SHOTS"]) if os.environ.get("BIGTOP_WEB_SHOTS") \
        else tmp_path / "shots"
    shots.mkdir(parents=True, exist_ok=True)
    b = Browsers(chromium, shots)
    yield b
    b.close()
    assert not b.errors, "errors in the browser console:\n" + "\n".join(b.errors)
