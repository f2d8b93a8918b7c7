"""Pictures of a Clown 15 Go position, drawn from an observation (everybody sees the same: the
middle rows, every open pile, the turned card and the size of each closed pile; ruling G4).

Element hooks for a web page: each middle row ``<g class="row" data-row>`` (0 = oldest) with
its cards ``<g class="card" data-card="R7">``; each player ``<g class="player"
data-player>`` holding ``<g class="closed-pile" data-player data-count>`` and ``<g
class="open-pile" data-player>`` (its top card also has ``data-top="true"``); the turned card
``<g class="card pending" data-card>``.

>>> from bigtop import new_state
>>> s = new_state("clown-15-go", players=3, seed=2)
>>> svg = svg_from_observation(s.observation(0))
>>> svg.count('class="closed-pile"'), 'class="card pending" data-card="' in svg
(3, True)
"""

from __future__ import annotations

from typing import Any

from bigtop.core.text import count
from bigtop.games.picture import Canvas, Pictures

COLOURS = {"R": "#e74c3c", "O": "#f39c12", "Y": "#f7dc6f", "G": "#27ae60", "B": "#3498db",
           "V": "#8e44ad", "K": "#1c1c1c", "W": "#fdfefe", "P": "#8e44ad"}
"""Face colours of the default box's letters (violet ``V``; purple ``P``, its letter before,
for a box given with ``colours``); other letters get a grey."""
_DARK = {"R", "G", "B", "V", "P", "K"}
CARD_W, CARD_H, STEP = 40.0, 58.0, 22.0
_MARGIN = 20.0
_SHOWN = 12  # open-pile cards drawn (the rest is counted)


def _card(c: Canvas, x: float, y: float, text: str, *, cls: str = "card", full: bool = True,
          **attrs: object) -> None:
    """A card; ``full=False`` (covered in a cascade) draws only the corner number."""
    letter, num = text[0], text[1:]
    fill = COLOURS.get(letter, "#bdc3c7")
    fg = "#ffffff" if letter in _DARK else "#000000"
    with c.group(cls=cls, data_card=text, tooltip=text, **attrs):
        c.rect(x, y, CARD_W, CARD_H, fill=fill, stroke="#333333", rx=4)
        c.text(x + 4, y + 14, num, size=13, fill=fg, weight="bold")
        if full:
            c.text(x + CARD_W / 2, y + CARD_H / 2 + 8, num, size=20, anchor="middle",
                   fill=fg, weight="bold")
            c.text(x + CARD_W - 4, y + CARD_H - 5, letter, size=10, anchor="end", fill=fg)
        else:
            c.text(x + 4, y + CARD_H - 5, letter, size=10, fill=fg)


def canvas_from_observation(obs: dict[str, Any]) -> Canvas:
    """The picture of a Clown 15 Go observation as a :class:`~bigtop.games.picture.Canvas`."""
    players = obs["players"]
    n = len(players)
    rows = obs["rows"]
    width = 980.0
    row_h = CARD_H + 12
    columns = 2 if len(rows) > 3 else 1  # a row is at most 15 cards: two fit side by side
    middle_h = 40 + max(1, (len(rows) + columns - 1) // columns) * row_h
    panel_w = (width - 3 * _MARGIN) / 2
    panel_h = CARD_H + 52
    top_players = 70 + middle_h + 16
    height = top_players + ((n + 1) // 2) * (panel_h + 12) + 10
    to_act = obs["to_act"]
    over = obs["phase"] == "over"
    status = (f"game over ({obs['end_reason']})" if over else
              f"P{to_act} to {'place the turned card' if obs['phase'] == 'card' else 'act'}")
    c = Canvas(width, height, title=f"Clown 15 Go, turn {obs['turns'] + 1}: {status}")
    c.text(_MARGIN, 28, f"Clown 15 Go — turn {obs['turns'] + 1} · {status}", size=18)
    done = ", ".join(f"P{r['by']} {r['cards'][-1]}" for r in obs["completed"])
    c.text(_MARGIN, 50, f"{len(rows)} middle row{'s' if len(rows) != 1 else ''} · "
           f"completed rows: {done or 'none'} · cards nobody has seen: {len(obs['unseen'])}",
           size=12, fill="#444444")
    # The middle rows, each a cascade from its 1 to its top.
    c.rect(_MARGIN, 62, width - 2 * _MARGIN, middle_h, fill="#eaf2e3", stroke="#7a9a6a", rx=8)
    c.text(_MARGIN + 10, 80, "Middle", size=13, weight="bold")
    if not rows:
        c.text(_MARGIN + 10, 110, "no rows yet (a 1 starts one)", size=12, fill="#555555")
    for i, row in enumerate(rows):
        y = 88 + (i // columns) * row_h
        x = _MARGIN + (i % columns) * (width - 2 * _MARGIN) / 2
        with c.group(cls="row", data_row=i, tooltip=f"row {i}: {' '.join(row)}"):
            c.text(x + 10, y + CARD_H / 2 + 5, f"row {i}", size=12)
            for k, card in enumerate(row):
                _card(c, x + 60 + k * STEP, y, card, full=k == len(row) - 1)
    # The players: closed pile (a back with its size), open pile (a cascade, top last).
    for q, pl in enumerate(players):
        x = _MARGIN + (q % 2) * (panel_w + _MARGIN)
        y = top_players + (q // 2) * (panel_h + 12)
        acting = q == to_act and not over
        tags = [t for t, on in (("you", q == obs["player"]), ("to act", acting),
                                ("out", pl["out"])) if on]
        name = f"P{q}" + (f" ({', '.join(tags)})" if tags else "")
        points = f" · {count(pl['points'], 'point')}" if pl["points"] else ""
        with c.group(cls="player", data_player=q):
            c.rect(x, y, panel_w, panel_h, fill="#fff6d5" if acting else "#f4f6f7",
                   stroke="#b3b6b7", rx=6)
            c.text(x + 10, y + 18, name, size=14, weight="bold")
            c.text(x + 150, y + 18, f"{count(pl['cards'], 'card')} · {pl['closed']} closed · "
                   f"{len(pl['open'])} open{points}", size=12, fill="#333333")
            cy = y + 30
            renewed = pl["closed_cards"]
            tip = (f"closed pile: {count(pl['closed'], 'card')}" + (
                f" (renewed: {' '.join(renewed)})" if renewed else ""))
            with c.group(cls="closed-pile", data_player=q, data_count=pl["closed"],
                         tooltip=tip):
                c.rect(x + 10, cy, CARD_W, CARD_H, fill="#4b2e5c" if pl["closed"] else "none",
                       stroke="#333333", rx=4, dashed=not pl["closed"])
                c.text(x + 10 + CARD_W / 2, cy + CARD_H / 2 + 6, str(pl["closed"]), size=16,
                       anchor="middle", fill="#ffffff" if pl["closed"] else "#777777",
                       weight="bold")
            pile = pl["open"]
            shown = pile[-_SHOWN:]
            with c.group(cls="open-pile", data_player=q,
                         tooltip=f"open pile: {' '.join(pile) or 'empty'}"):
                ox = x + 70
                if len(pile) > len(shown):
                    c.text(ox, cy + CARD_H / 2 + 4, f"+{len(pile) - len(shown)}", size=11,
                           fill="#555555")
                    ox += 26
                if not pile:
                    c.rect(ox, cy, CARD_W, CARD_H, stroke="#999999", rx=4, dashed=True)
                for k, card in enumerate(shown):
                    top = k == len(shown) - 1
                    _card(c, ox + k * STEP, cy, card, full=top,
                          data_top="true" if top else None)
            if acting and obs["pending"] is not None:
                px = x + panel_w - CARD_W - 14
                c.text(px + CARD_W / 2, cy - 2, "turned", size=10, anchor="middle")
                c.rect(px - 3, cy + 1, CARD_W + 6, CARD_H + 6, fill="#f1c40f", rx=6)
                _card(c, px, cy + 4, obs["pending"], cls="card pending")
    return c


# Every seat gets the same picture (ruling G4: only the closed piles' order is hidden).
PICTURES = Pictures(canvas_from_observation)
"""The game's pictures, as its capability record declares them."""
svg_from_observation = PICTURES.svg_from_observation
render_svg = PICTURES.render_svg
render_png = PICTURES.render_png
