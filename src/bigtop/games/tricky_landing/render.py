"""Pictures of the table: the target card, the thrown cards with their faces, the trump card
and which trick each card belongs to. SVG is written by hand; PNG is drawn with matplotlib.

``render_svg(state)`` draws the cards on the table now (with the trick they would form if the
trick ended now) or, between tricks, the last trick as it was resolved. A list of
:class:`~bigtop.games.tricky_landing.tricks.Landing` can be drawn too (a scenario).

>>> from bigtop.games.tricky_landing.tricks import Landing
>>> svg = render_svg([Landing(0, "y3", 0.0, 5.0, 10.0, False)])
>>> svg.startswith("<svg") and "yellow 3" in svg
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from bigtop.core.registry import load_state
from bigtop.games.tricky_landing.cards import SUIT_NAMES, card_name, number_of, suit_of
from bigtop.games.tricky_landing.options import TrickyLandingOptions
from bigtop.games.tricky_landing.physics import ThrowModel, seat_angle
from bigtop.games.tricky_landing.rules import TrickyLandingState
from bigtop.games.tricky_landing.tricks import Landing, resolve_trick

SUIT_COLOURS = {"y": "#f4d03f", "p": "#f39ac7", "g": "#58b368", "b": "#4a8fe0",
                "o": "#f39c34"}
TRICK_COLOURS = ("#c0392b", "#1f3a93", "#8e44ad", "#117a65", "#d35400", "#2c3e50")
BACK_COLOUR = "#4b2e5c"
MISS_COLOUR = "#7f8c8d"
PX_PER_CM = 10.0


@dataclass(frozen=True)
class _Card:
    landing: Landing
    known: bool
    trick: int  # -1: missed
    order: int
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class _Scene:
    cards: tuple[_Card, ...]
    target: tuple[tuple[float, float], ...]
    trump_card: str | None
    trump_suit: str | None
    leads: tuple[str | None, ...]
    winners: tuple[tuple[int, ...], ...]
    seats: tuple[tuple[float, float], ...]
    title: str
    half_view: float


def _corners(x: float, y: float, rot: float, hw: float, hh: float
             ) -> tuple[tuple[float, float], ...]:
    a = math.radians(rot)
    c, s = math.cos(a), math.sin(a)
    return tuple((x + sx * hw * c - sy * hh * s, y + sx * hw * s + sy * hh * c)
                 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))


def _scene(obj: Any, *, trump: str | None, options: TrickyLandingOptions | None,
           players: int | None, player: int | None, title: str | None) -> _Scene:
    trump_card: str | None = None
    hidden: dict[str, int] = {}
    if isinstance(obj, dict):  # a state's JSON form
        obj = load_state(obj)
        if not isinstance(obj, TrickyLandingState):
            raise TypeError("that state is not a Tricky Landing state")
    if isinstance(obj, TrickyLandingState):
        obj.check_seat(player)
        g = obj.game
        options = g.options
        players = g.num_players
        hidden = obj.hidden
        trump_card = obj.trump_card
        if obj.table or not obj.last_table:
            table, trump = obj.table, obj.trump_suit
            what = "on the table" if obj.table else "empty table"
        else:
            table, trump = obj.last_table, obj.last_trump
            what = "last trick"
        if title is None:
            number = obj.trick + 1 if obj.table or not obj.last_table else obj.trick
            title = f"Round {min(obj.round + 1, g.rounds)}, trick {number} — {what}"

    else:
        table = list(obj)
        if not all(isinstance(c, Landing) for c in table):
            raise TypeError("render a TrickyLandingState or a list of Landing")
        options = options or TrickyLandingOptions()
        players = players or max([3, *(c.player + 1 for c in table)])
    model: ThrowModel = options.throw_model()
    res = resolve_trick(table, trump, options, model) if table else None
    cards = []
    hw, hh = model.card_half
    for i, c in enumerate(table):
        # As in observation(): a face-down card is known only to its thrower; a spectator
        # (None) knows none of them.
        known = hidden.get(c.card, player) == player
        cards.append(_Card(c, known, res.trick_of[i] if res else -1, i + 1,
                           _corners(c.x, c.y, c.rotation, hw, hh)))
    tw, th = model.target_half
    r = model.seat_distance_cm
    # The picture shows the table around the target; a card lying off it (x = 1e6 in a
    # hand-written state) is left out rather than stretching the picture without bound.
    view = r + 12.0
    cards = [c for c in cards if abs(c.landing.x) <= view and abs(c.landing.y) <= view]
    seats = tuple((r * math.cos(math.radians(seat_angle(q, players))),
                   r * math.sin(math.radians(seat_angle(q, players)))) for q in range(players))
    return _Scene(
        tuple(cards), _corners(0.0, 0.0, 0.0, tw, th), trump_card, trump,
        tuple(t.lead for t in res.tricks) if res else (),
        tuple(tuple(table[w].player for w in t.winners) for t in res.tricks) if res else (),
        seats, title or "Tricky Landing", view)


def _subtitle(sc: _Scene) -> str:
    parts = [f"trump: {SUIT_NAMES[sc.trump_suit]}" if sc.trump_suit else "no trump"]
    for k, (lead, winners) in enumerate(zip(sc.leads, sc.winners, strict=True)):
        who = ", ".join(f"P{w}" for w in winners) or "nobody (all face down)"
        parts.append(f"trick {k + 1}: lead {SUIT_NAMES[lead] if lead else 'none'}, "
                     f"won by {who}")
    return "; ".join(parts)


def render_svg(obj: Any, *, trump: str | None = None,
               options: TrickyLandingOptions | None = None, players: int | None = None,
               player: int | None = None, title: str | None = None) -> str:
    """An SVG picture (text) of a state (or its JSON form) or of a list of landings.
    ``player`` hides the face-down cards that player could not know; None is a spectator
    and sees no face-down card (as ``observation(None)``).
    ``trump``/``options``/``players`` are for a list of landings."""
    sc = _scene(obj, trump=trump, options=options, players=players, player=player,
                title=title)
    h = sc.half_view
    size = 2 * h * PX_PER_CM
    top = 60.0

    def pt(x: float, y: float) -> str:
        return f"{(x + h) * PX_PER_CM:.1f},{(h - y) * PX_PER_CM + top:.1f}"

    def poly(corners: tuple[tuple[float, float], ...], **attrs: str) -> str:
        extra = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in attrs.items())
        return f'<polygon points="{" ".join(pt(x, y) for x, y in corners)}" {extra}/>'

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size:.0f}" '
           f'height="{size + top:.0f}" viewBox="0 0 {size:.0f} {size + top:.0f}" '
           f'font-family="sans-serif">',
           f'<rect x="0" y="0" width="{size:.0f}" height="{size + top:.0f}" fill="#ffffff"/>',
           f'<text x="10" y="22" font-size="18">{escape(sc.title)}</text>',
           f'<text x="10" y="46" font-size="13">{escape(_subtitle(sc))}</text>',
           f'<circle cx="{h * PX_PER_CM:.1f}" cy="{h * PX_PER_CM + top:.1f}" '
           f'r="{(h - 2) * PX_PER_CM:.1f}" fill="#2e7d4f"/>']
    for q, (x, y) in enumerate(sc.seats):
        px, py = pt(x * 1.22, y * 1.22).split(",")
        out.append(f'<circle cx="{px}" cy="{py}" r="14" fill="#f5f0e1" stroke="#333"/>')
        out.append(f'<text x="{px}" y="{float(py) + 5:.1f}" font-size="13" '
                   f'text-anchor="middle">P{q}</text>')
    out.append(poly(sc.target, fill="#fdfefe", stroke="#000", stroke_width="2"))
    cx, cy = pt(0.0, 0.0).split(",")
    out.append(f'<text x="{cx}" y="{cy}" font-size="12" text-anchor="middle" '
               f'fill="#555">TARGET</text>')
    for card in sc.cards:
        c = card.landing
        colour = TRICK_COLOURS[card.trick % len(TRICK_COLOURS)] if card.trick >= 0 \
            else MISS_COLOUR
        fill = BACK_COLOUR if c.face_down else SUIT_COLOURS[suit_of(c.card)]
        dash = {"stroke_dasharray": "6,4"} if card.trick < 0 else {}
        title = (card_name(c.card) if card.known else "a card") + \
            (" (face down)" if c.face_down else "") + f", thrown by P{c.player}"
        out.append(f"<g><title>{escape(title)}</title>")
        out.append(poly(card.corners, fill=fill, fill_opacity="0.92", stroke=colour,
                        stroke_width="3", **dash))
        px, py = pt(c.x, c.y).split(",")
        label = (f"{c.card[0]}{number_of(c.card)}" if card.known else "?")
        text_fill = "#ffffff" if c.face_down else "#000000"
        tag = "T" + str(card.trick + 1) if card.trick >= 0 else "miss"
        out.append(f'<text x="{px}" y="{py}" font-size="16" font-weight="bold" '
                   f'text-anchor="middle" fill="{text_fill}" '
                   f'transform="rotate({-c.rotation:.1f} {px} {py})">{escape(label)}</text>')
        out.append(f'<text x="{px}" y="{float(py) + 16:.1f}" font-size="11" '
                   f'text-anchor="middle" fill="{text_fill}" '
                   f'transform="rotate({-c.rotation:.1f} {px} {py})">'
                   f'#{card.order} {tag}</text>')
        out.append("</g>")
    if sc.trump_card is not None:
        x0, y0 = size - 80, top + 10
        out.append(f'<rect x="{x0}" y="{y0}" width="63" height="88" rx="4" '
                   f'fill="{SUIT_COLOURS[suit_of(sc.trump_card)]}" stroke="#000"/>')
        out.append(f'<text x="{x0 + 31}" y="{y0 + 50}" font-size="18" font-weight="bold" '
                   f'text-anchor="middle">{escape(sc.trump_card)}</text>')
        out.append(f'<text x="{x0 + 31}" y="{y0 + 104}" font-size="12" '
                   f'text-anchor="middle">trump card</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_png(obj: Any, path: str, *, trump: str | None = None,
               options: TrickyLandingOptions | None = None, players: int | None = None,
               player: int | None = None, title: str | None = None, dpi: int = 100) -> None:
    """The same picture as :func:`render_svg`, drawn with matplotlib into a PNG file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Polygon, Rectangle

    sc = _scene(obj, trump=trump, options=options, players=players, player=player,
                title=title)
    h = sc.half_view
    fig, ax = plt.subplots(figsize=(8, 8.6), dpi=dpi)
    try:
        ax.set_xlim(-h, h)
        ax.set_ylim(-h, h)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(sc.title + "\n" + _subtitle(sc), fontsize=10)
        ax.add_patch(Circle((0, 0), h - 2, color="#2e7d4f"))
        for q, (x, y) in enumerate(sc.seats):
            ax.add_patch(Circle((x * 1.22, y * 1.22), 1.4, facecolor="#f5f0e1",
                                edgecolor="#333"))
            ax.text(x * 1.22, y * 1.22, f"P{q}", ha="center", va="center", fontsize=9)
        ax.add_patch(Polygon(sc.target, closed=True, facecolor="#fdfefe", edgecolor="black",
                             linewidth=2))
        ax.text(0, 0, "TARGET", ha="center", va="center", fontsize=8, color="#555")
        for card in sc.cards:
            c = card.landing
            colour = TRICK_COLOURS[card.trick % len(TRICK_COLOURS)] if card.trick >= 0 \
                else MISS_COLOUR
            fill = BACK_COLOUR if c.face_down else SUIT_COLOURS[suit_of(c.card)]
            ax.add_patch(Polygon(card.corners, closed=True, facecolor=fill, alpha=0.92,
                                 edgecolor=colour, linewidth=2.5,
                                 linestyle="--" if card.trick < 0 else "-"))
            label = f"{c.card[0]}{number_of(c.card)}" if card.known else "?"
            tag = f"T{card.trick + 1}" if card.trick >= 0 else "miss"
            fg = "white" if c.face_down else "black"
            # Clipped to the view like the card itself: a card far off the table (x = 1e6 in
            # a hand-written state) must not stretch the tight bounding box (MemoryError).
            ax.text(c.x, c.y, f"{label}\n#{card.order} {tag}", ha="center", va="center",
                    fontsize=9, rotation=c.rotation, color=fg, fontweight="bold",
                    clip_on=True)
        if sc.trump_card is not None:
            x0, y0 = h - 8.5, h - 11.0
            ax.add_patch(Rectangle((x0, y0), 6.3, 8.8, facecolor=SUIT_COLOURS[
                suit_of(sc.trump_card)], edgecolor="black"))
            ax.text(x0 + 3.15, y0 + 4.4, sc.trump_card, ha="center", va="center",
                    fontsize=11, fontweight="bold")
            ax.text(x0 + 3.15, y0 - 1.0, "trump card", ha="center", va="center", fontsize=8)
        fig.savefig(path, bbox_inches="tight")
    finally:
        plt.close(fig)
