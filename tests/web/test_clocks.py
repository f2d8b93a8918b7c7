"""Clocks and ratings in the browser (issue 25): a rated table where a clock runs out, shown
live on the table page, and the ratings page's leaderboard after it."""

from __future__ import annotations

import pytest

from tests.web import drive
from tests.web.conftest import Browsers, Server


@pytest.mark.slow
def test_a_clock_runs_out_and_the_ratings_change(server: Server, browsers: Browsers) -> None:
    """A rated table with a 10 s clock a move where a time-out loses: the
    host's page counts down live and the player to move runs out of time; the leaderboard
    then lists both, provisional, among the bots' fixed anchors."""
    cleo = server.api("POST", "/api/players", {"name": "Cleo"})
    dora = server.api("POST", "/api/players", {"name": "Dora"})
    made = server.api("POST", "/api/tables", {
        "game": "scout", "players": 2, "options": {"rounds": 1}, "rated": True,
        "clock": {"per_move_seconds": 10}, "on_timeout": "lose",
        "seats": [{"kind": "human"}, {"kind": "human"}]}, token=cleo["key"])
    table = made["table"]
    server.api("POST", f"/api/tables/{table}/join", {"seat": 1}, token=dora["key"])
    host = browsers.new_page()
    host.goto(server.table_url(table, made["seats"][0]["token"]))
    host.wait_for_selector("#clocks .clock.running")
    first = float(host.get_attribute("#clocks .clock.running", "data-left") or 0)
    # Live: the running clock goes down without any new view.
    host.wait_for_function(f"Number(document.querySelector('#clocks .clock.running')"
                           f".dataset.left) < {first - 1}", timeout=8_000)
    browsers.shot(host, "friends-clock")
    loser = int(host.get_attribute("#clocks .clock.running", "data-clock-seat") or -1)
    # Nobody moves: the running seat runs out of time and loses (the server's sweep).
    host.wait_for_function("document.body.dataset.status === 'finished'", timeout=30_000)
    assert drive.wait_ready(host) == "over"
    assert "out of time" in host.inner_text(f"#clocks [data-clock-seat='{loser}']")
    assert drive.winners_said(host) == [1 - loser]

    ratings = host.context.new_page()
    ratings.goto(f"{server.url}/ratings.html?game=scout")
    ratings.wait_for_selector("#leaderboard-body tr[data-kind='player']")
    rows = ratings.eval_on_selector_all("#leaderboard-body tr", "els => els.map(e => e.innerText)")
    # (the worker's server is shared with the other browser tests: their players too)
    people = [r for r in rows if "Cleo" in r or "Dora" in r]
    assert len(people) == 2 and all("?" in r for r in people), rows
    assert any("bot (hard), fixed" in r for r in rows), rows
    # The winner above the loser.
    winner = "Dora" if loser == 0 else "Cleo"
    assert winner in people[0], people
    browsers.axe(ratings, "the ratings page")
    browsers.shot(ratings, "ratings")
