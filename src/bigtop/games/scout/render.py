"""Pictures of a SCOUT position, drawn from an observation (so a seat's picture shows only what
that seat may see): every hand in its order with both numbers of each visible card (the upper
one counts), the backs of cards a seat cannot see, the active set and its owner, a scouted
card waiting to be inserted, and each player's captured cards, scout tokens, Scout & Show
token and total.

Element hooks for a web page: ``<g class="hand" data-seat>``, each card
``<g class="card" data-seat data-index data-top data-bottom>`` (hidden cards: ``class="card
back"``, no numbers), the active set ``<g class="active-set" data-owner>`` with cards
``class="card active" data-index data-end="left|right"``, the viewer's insert positions
``<g class="insert-slot" data-position>`` and a scouted card ``class="card pending"``.

>>> from bigtop import new_state
>>> s = new_state("scout", players=3, seed=2)
>>> svg = svg_from_observation(s.observation(1))
>>> svg.count('class="card back"'), svg.count('data-seat="1" data-index=')
(24, 12)
"""

from __future__ import annotations

from typing import Any

from bigtop.core.text import count
from bigtop.games.picture import Canvas, Pictures

NUMBER_COLOURS = ("#e74c3c", "#e67e22", "#f1c40f", "#2ecc71", "#1abc9c", "#3498db",
                  "#9b59b6", "#e84393", "#95a5a6", "#34495e")
"""Card face colour by upper number 1..10."""
BACK = "#2c3e50"
CARD_W, CARD_H, PITCH = 52.0, 80.0, 58.0
_MARGIN = 20.0


def _card(c: Canvas, x: float, y: float, card: list[int] | None, **attrs: object) -> None:
    """One card at (x, y): both numbers (the upper large, the lower upside down), or a back."""
    if card is None:
        with c.group(cls="card back", tooltip="a hidden card", **attrs):
            c.rect(x, y, CARD_W, CARD_H, fill=BACK, stroke="#111111", rx=5)
            c.text(x + CARD_W / 2, y + CARD_H / 2 + 4, "SCOUT", size=10, anchor="middle",
                   fill="#ecf0f1", weight="bold")
        return
    top, bottom = card
    cls = str(attrs.pop("cls", "card"))
    with c.group(cls=cls, tooltip=f"{top}, other end {bottom}", data_top=top,
                 data_bottom=bottom, **attrs):
        c.rect(x, y, CARD_W, CARD_H, fill="#fdfefe", stroke="#333333", rx=5)
        c.rect(x + 3, y + 3, CARD_W - 6, CARD_H / 2 - 3, fill=NUMBER_COLOURS[top - 1], rx=3)
        c.rect(x + 3, y + CARD_H / 2, CARD_W - 6, CARD_H / 2 - 3,
               fill=NUMBER_COLOURS[bottom - 1], rx=3, opacity=0.45)
        c.text(x + CARD_W / 2, y + 31, _number(top), size=24, anchor="middle", weight="bold")
        c.text(x + CARD_W / 2, y + CARD_H - 26, _number(bottom), size=15, anchor="middle",
               rotate=180.0)


def _number(v: int) -> str:
    """6 and 9 get a dot, as on printed cards, since the lower number is drawn upside down."""
    return f"{v}." if v in (6, 9) else str(v)


def canvas_from_observation(obs: dict[str, Any]) -> Canvas:
    """The picture of a SCOUT observation as a :class:`~bigtop.games.picture.Canvas`."""
    n = len(obs["hands"])
    me = obs["player"]
    longest = max([len(h) for h in obs["hands"]] + [len(obs["active"]) + 2, 8])
    width = max(720.0, 2 * _MARGIN + 150 + longest * PITCH)
    block = CARD_H + 42
    height = 190 + n * block + 10
    rounds = obs["rounds"]
    shown = min(obs["round"] + 1, rounds)
    if obs["finished"]:
        status = "game over"
    else:
        doing = {"insert": "insert the scouted card", "show": "show"}.get(obs["phase"], "act")
        status = f"P{obs['to_act']} to {doing}"
    view = "spectator" if me is None else f"P{me}'s view"
    c = Canvas(width, height, title=f"SCOUT, round {shown} of {rounds}: {status}")
    c.text(_MARGIN, 28, f"SCOUT — round {shown} of {rounds} · {status}", size=18)
    c.text(_MARGIN, 50, f"{view} · starting player P{obs['start_player']} · totals "
           + ", ".join(f"P{q} {t}" for q, t in enumerate(obs["totals"])), size=12,
           fill="#444444")
    # The active set, centred.
    active = obs["active"]
    owner = obs["active_owner"]
    with c.group(cls="active-set", data_owner=owner):
        c.rect(_MARGIN, 64, width - 2 * _MARGIN, CARD_H + 40, fill="#eaf2e3", stroke="#7a9a6a",
               rx=8)
        label = (f"Active set (P{owner})" if active else
                 "The table is empty" + (f" (P{owner}'s set was scouted away)"
                                         if owner is not None else ""))
        c.text(_MARGIN + 10, 82, label, size=13, weight="bold")
        x0 = (width - len(active) * PITCH) / 2
        for i, card in enumerate(active):
            end = "left" if i == 0 else "right" if i == len(active) - 1 else None
            _card(c, x0 + i * PITCH, 90, card, cls="card active", data_index=i, data_end=end)
    if obs["pending"] is not None:
        x = width - _MARGIN - CARD_W - 12
        c.text(x + CARD_W / 2, 82, "scouted", size=11, anchor="middle")
        _card(c, x, 90, obs["pending"], cls="card pending")
    # The players, each with their hand in order.
    for q in range(n):
        y = 190 + q * block
        hand = obs["hands"][q]
        acting = q == obs["to_act"]
        tags = []
        if q == me:
            tags.append("you")
        if acting:
            tags.append("to act")
        name = f"P{q}" + (f" ({', '.join(tags)})" if tags else "")
        stats = (f"{count(obs['hand_sizes'][q], 'card')} · captured {obs['captured'][q]} · scout "
                 f"tokens {obs['scout_tokens'][q]} · Scout & Show "
                 f"{'ready' if obs['show_tokens'][q] else 'spent'} · total {obs['totals'][q]}")
        with c.group(cls="hand", data_seat=q):
            if acting:
                c.rect(_MARGIN - 6, y - 4, width - 2 * _MARGIN + 12, block - 6,
                       fill="#fff6d5", rx=6)
            c.text(_MARGIN, y + 14, name, size=14, weight="bold")
            c.text(_MARGIN + 150, y + 14, stats, size=12, fill="#333333")
            for i, card in enumerate(hand):
                _card(c, _MARGIN + i * PITCH, y + 24, card, data_seat=q, data_index=i)
            if q == me:
                for pos in range(len(hand) + 1):
                    with c.group(cls="insert-slot", data_position=pos,
                                 tooltip=f"insert at position {pos}"):
                        c.rect(_MARGIN + pos * PITCH - 5, y + 24, 4, CARD_H, fill="#2c3e50",
                               opacity=0.12)
    return c


PICTURES = Pictures(canvas_from_observation)
"""The game's pictures, as its capability record declares them."""
svg_from_observation = PICTURES.svg_from_observation
render_svg = PICTURES.render_svg
render_png = PICTURES.render_png
