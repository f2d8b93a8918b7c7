"""Pictures of a So ein Zirkus position, drawn from an observation (with secret clown a seat
sees only its own colour): the board with its start fields and holes (points, and the ball in
a filled hole), the three clowns with their ball stacks (bottom to top; the top ball decides
who may move the clown), the die, each player's colour and points, and the supply.

Element hooks for a web page: each field ``<g class="field" data-field="B3">`` (start fields
also ``data-start="true"``), each hole ``<g class="hole" data-field data-points
data-ball>``, each clown ``<g class="clown" data-clown data-field data-balls>`` (balls bottom
to top, comma-separated), the die ``<g class="die" data-face>``, each player ``<g
class="player" data-player data-colour>``.

>>> from bigtop import new_state
>>> s = new_state("so-ein-zirkus", players=2, seed=1)
>>> svg = svg_from_observation(s.observation(0))
>>> svg.count('class="field"'), svg.count('class="hole"'), svg.count('class="clown"')
(24, 6, 3)
"""

from __future__ import annotations

from string import ascii_uppercase
from typing import Any

from bigtop.core.text import count
from bigtop.games.picture import Canvas, Pictures

BALL_COLOURS = {"red": "#e74c3c", "yellow": "#f4d03f", "blue": "#3498db", "green": "#27ae60"}
FACE_COLOURS = {**BALL_COLOURS, "black": "#1c1c1c", "white": "#fdfefe"}
FIELD = 72.0
_MARGIN = 20.0
_TOP = 70.0
_LETTERS = ascii_uppercase
"""Column letters, as board.field_name names them (a board has up to 26 columns)."""


def _field_xy(name: str, rows: int) -> tuple[float, float]:
    """Top-left corner of a field: columns A, B, ... left to right, row 1 at the bottom."""
    col = _LETTERS.index(name[0])
    row = int(name[1:])
    return _MARGIN + 30 + col * FIELD, _TOP + (rows - row) * FIELD


def canvas_from_observation(obs: dict[str, Any]) -> Canvas:
    """The picture of a So ein Zirkus observation as a
    :class:`~bigtop.games.picture.Canvas`."""
    board = obs["board"]
    cols, rows = board["columns"], board["rows"]
    board_w = 30 + cols * FIELD
    width = _MARGIN * 2 + board_w + 300
    height = max(_TOP + rows * FIELD + 40, 420.0)
    status = ("game over" + (f" ({obs['ending']})" if obs["ending"] else "")
              if obs["finished"] else
              f"P{obs['turn_of']} rolled {obs['roll']}" if obs["phase"] != "roll" else
              f"P{obs['turn_of']} to roll")
    c = Canvas(width, height, title=f"So ein Zirkus, turn {obs['turn']}: {status}")
    c.text(_MARGIN, 28, f"So ein Zirkus — game {obs['game_number']}, turn {obs['turn']} "
           f"· {status}", size=18)
    view = "spectator" if obs["player"] is None else f"P{obs['player']}'s view"
    c.text(_MARGIN, 50, f"{view} · board {board['name']} ({cols} × {rows})", size=12,
           fill="#444444")
    start = set(board["start"])
    holes: dict[str, int] = board["holes"]
    for r in range(rows, 0, -1):
        y = _TOP + (rows - r) * FIELD
        c.text(_MARGIN + 12, y + FIELD / 2 + 5, str(r), size=12, anchor="middle")
    for k in range(cols):
        c.text(_MARGIN + 30 + k * FIELD + FIELD / 2, _TOP + rows * FIELD + 18, _LETTERS[k],
               size=12, anchor="middle")
    for r in range(1, rows + 1):
        for k in range(cols):
            name = f"{_LETTERS[k]}{r}"
            x, y = _field_xy(name, rows)
            is_start = name in start
            with c.group(cls="field", data_field=name,
                         data_start="true" if is_start else None):
                c.rect(x, y, FIELD, FIELD, fill="#f9e79f" if is_start else "#fdf2e9",
                       stroke="#a04000", stroke_width=1.5)
                if is_start:
                    c.text(x + 5, y + FIELD - 5, "start", size=10, fill="#7e5109")
            if name in holes:
                ball = obs["holes"].get(name)
                with c.group(cls="hole", data_field=name, data_points=holes[name],
                             data_ball=ball, tooltip=f"{name}: hole worth {holes[name]}"
                             + (f", holds {ball}" if ball else "")):
                    cx, cy = x + FIELD / 2, y + FIELD / 2
                    c.circle(cx, cy, 24, fill="#1b2631")
                    if ball:
                        c.circle(cx, cy, 14, fill=BALL_COLOURS[ball], stroke="#000000")
                    c.text(x + FIELD - 6, y + 14, str(holes[name]), size=13, anchor="end",
                           weight="bold", fill="#a04000")
    # Clowns: a hat-and-body figure with its balls stacked above it, bottom to top.
    off_board = 0
    for k, clown in enumerate(obs["clowns"]):
        balls = clown["balls"]
        if clown["field"] is None:  # pushed off the board (clumsy clown), waiting to restart
            x, y = _MARGIN + board_w + 20 + off_board * 60, height - 100
            off_board += 1
        else:
            x, y = _field_xy(clown["field"], rows)
        tip = (f"clown {k} on {clown['field'] or 'no field'}: "
               + (", ".join(balls) + " (top last)" if balls else "no balls"))
        with c.group(cls="clown", data_clown=k, data_field=clown["field"],
                     data_balls=",".join(balls), tooltip=tip):
            bx = x + FIELD / 2
            c.polygon([(bx - 16, y + FIELD - 6), (bx + 16, y + FIELD - 6), (bx + 9, y + FIELD - 26),
                       (bx - 9, y + FIELD - 26)], fill="#ffffff", stroke="#000000",
                      stroke_width=1.5)
            c.text(bx, y + FIELD - 11, str(k), size=12, anchor="middle", weight="bold")
            for i, ball in enumerate(balls):
                c.circle(bx, y + FIELD - 33 - i * 13, 7, fill=BALL_COLOURS[ball],
                         stroke="#000000")
    # The side panel: die, players, supply.
    px = _MARGIN + board_w + 24
    face = obs["roll"] if obs["phase"] != "roll" else None
    with c.group(cls="die", data_face=face):
        c.text(px, _TOP + 12, "Die", size=13, weight="bold")
        c.rect(px, _TOP + 20, 44, 44, fill=FACE_COLOURS.get(face or "", "#ecf0f1"),
               stroke="#000000", rx=6)
        c.text(px + 56, _TOP + 48, face or "not rolled", size=13)
    y = _TOP + 96
    c.text(px, y, "Players", size=13, weight="bold")
    for q, colour in enumerate(obs["colours"]):
        y += 26
        acting = q == obs["to_act"] or (obs["phase"] == "roll" and q == obs["turn_of"])
        tags = [t for t, on in (("you", q == obs["player"]), ("to play", acting)) if on]
        total = (f", total {obs['totals'][q]}" if obs["games"] else "")
        with c.group(cls="player", data_player=q, data_colour=colour):
            c.circle(px + 8, y - 5, 8, fill=BALL_COLOURS.get(colour or "", "#bdc3c7"),
                     stroke="#000000")
            c.text(px + 22, y, f"P{q}{' (' + ', '.join(tags) + ')' if tags else ''}: "
                   f"{colour or 'secret colour'}, {count(obs['points'][q], 'point')}{total}",
                   size=12, weight="bold" if acting else "normal")
    y += 40
    c.text(px, y, "Supply", size=13, weight="bold")
    for colour, left in obs["supply"].items():
        if colour not in obs["in_play"] and not left:
            continue
        y += 22
        c.text(px, y, f"{colour}:" + ("" if left else " none left"), size=12)
        for i in range(left):
            c.circle(px + 70 + i * 18, y - 4, 7, fill=BALL_COLOURS[colour], stroke="#000000")
    return c


PICTURES = Pictures(canvas_from_observation)
"""The game's pictures, as its capability record declares them."""
svg_from_observation = PICTURES.svg_from_observation
render_svg = PICTURES.render_svg
render_png = PICTURES.render_png
