"""The pages under the server's Content-Security-Policy, and seat tokens that never travel
in a URL: every request and WebSocket the table page makes, and the picture it opens."""

from __future__ import annotations

import re
import urllib.request

from playwright.sync_api import Page

from tests.web import drive
from tests.web.conftest import Browsers, Server

# Records every CSP violation the page meets (an init script runs before the page's own
# and is not subject to its policy).
WATCH_CSP = """window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));"""


def csp_violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.__csp || []")
    return found


def watched(browsers: Browsers) -> Page:
    page = browsers.new_page(keep_csp=True)
    page.add_init_script(WATCH_CSP)
    return page


def test_every_page_keeps_to_the_content_security_policy(server: Server,
                                                         browsers: Browsers) -> None:
    made = server.create("so-ein-zirkus", 2, [{"kind": "human"}, {"kind": "bot",
                                                                  "level": "random"}])
    token = made["seats"][0]["token"]
    page = watched(browsers)
    for url, ready in [(server.url + "/", "#game option"),
                       (server.table_url(made["table"], token), "#board svg, #board *"),
                       (server.table_url(made["table"]), "#board *"),
                       (server.url + "/docs", ".swagger-ui .info")]:
        response = page.goto(url)
        assert response is not None
        assert "script-src 'self'" in response.headers["content-security-policy"], url
        page.wait_for_selector(ready, state="attached")
        page.wait_for_timeout(300)  # let the page draw what it draws after its first view
        assert csp_violations(page) == [], url
    # The watch works: an inline style attribute is refused, and said so.
    page.goto(server.url + "/")
    page.evaluate("document.body.setAttribute('style', 'color: red')")
    page.wait_for_function("window.__csp.length > 0")
    assert "style-src" in csp_violations(page)[0]
    browsers.errors = [e for e in browsers.errors if "Content Security Policy" not in e]


def _texts(svg: str) -> set[str]:
    return set(re.findall(r"<text[^>]*>([^<]+)</text>", svg))


def test_no_request_url_carries_the_seat_token(server: Server, browsers: Browsers) -> None:
    made = server.create("scout", 2, [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                         options={"rounds": 1})
    table, token = made["table"], made["seats"][0]["token"]
    page = watched(browsers)
    urls: list[str] = []
    page.context.on("request", lambda r: urls.append(r.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    page.goto(server.table_url(table, token))
    assert drive.wait_ready(page) == "turn"  # the seat's own moves: the token was sent
    # A move made elsewhere reaches the page over its WebSocket, which serves the seat
    # (the seat's moves come back on it, after the bot's answer where there is one).
    before = drive.version(page)
    server.api("POST", f"/api/tables/{table}/moves", {"version": before, "index": 0},
               token=token)
    drive.wait_after(page, before)
    assert drive.wait_ready(page) == "turn"
    assert any(u.startswith("ws://") and "/ws" in u for u in urls), urls

    # The picture link holds no token; a click opens the seat's own picture as a blob.
    href = page.get_attribute("#picture-link", "href") or ""
    assert href.endswith(f"/api/tables/{table}/picture.svg"), href
    with page.context.expect_page() as opened:
        page.click("#picture-link")
    picture = opened.value
    picture.wait_for_load_state()
    assert picture.url.startswith("blob:"), picture.url
    req = urllib.request.Request(f"{server.url}/api/tables/{table}/picture.svg",
                                 headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=30) as r:
        own = r.read().decode()
    with urllib.request.urlopen(f"{server.url}/api/tables/{table}/picture.svg", timeout=30) as r:
        public = r.read().decode()
    mine_only = _texts(own) - _texts(public)
    assert mine_only, "the seat's picture shows nothing the public one does not"
    shown = picture.evaluate("document.documentElement.textContent")
    assert all(t in shown for t in mine_only), (mine_only, shown[:300])

    assert urls and not [u for u in urls if token in u], [u for u in urls if token in u]
    assert csp_violations(page) == []
