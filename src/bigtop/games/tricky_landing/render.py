"""Pictures of the table: the target card, the thrown cards with their faces, the trump card
and which trick each card belongs to, drawn on the games' shared canvas
(:mod:`bigtop.games.picture`: SVG, and PNG through matplotlib).

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

from bigtop.core.game import State
from bigtop.core.registry import load_state
from bigtop.games.picture import Canvas
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


def _canvas(sc: _Scene) -> Canvas:
    """The scene drawn on the shared canvas (y up on the table, down in the picture)."""
    h = sc.half_view
    size = 2 * h * PX_PER_CM
    top = 60.0

    def pt(x: float, y: float) -> tuple[float, float]:
        return ((x + h) * PX_PER_CM, (h - y) * PX_PER_CM + top)

    c = Canvas(size, size + top)
    c.text(10, 22, sc.title, size=18)
    c.text(10, 46, _subtitle(sc), size=13)
    c.circle(h * PX_PER_CM, h * PX_PER_CM + top, (h - 2) * PX_PER_CM, fill="#2e7d4f")
    for q, (x, y) in enumerate(sc.seats):
        px, py = pt(x * 1.22, y * 1.22)
        c.circle(px, py, 14, fill="#f5f0e1", stroke="#333333")
        c.text(px, py + 5, f"P{q}", size=13, anchor="middle")
    c.polygon([pt(x, y) for x, y in sc.target], fill="#fdfefe", stroke="#000000",
              stroke_width=2)
    cx, cy = pt(0.0, 0.0)
    c.text(cx, cy, "TARGET", size=12, anchor="middle", fill="#555555")
    for card in sc.cards:
        land = card.landing
        colour = TRICK_COLOURS[card.trick % len(TRICK_COLOURS)] if card.trick >= 0 \
            else MISS_COLOUR
        fill = BACK_COLOUR if land.face_down else SUIT_COLOURS[suit_of(land.card)]
        title = (card_name(land.card) if card.known else "a card") + \
            (" (face down)" if land.face_down else "") + f", thrown by P{land.player}"
        with c.group(tooltip=title):
            c.polygon([pt(x, y) for x, y in card.corners], fill=fill, opacity=0.92,
                      stroke=colour, stroke_width=3, dashed=card.trick < 0)
            px, py = pt(land.x, land.y)
            label = f"{land.card[0]}{number_of(land.card)}" if card.known else "?"
            text_fill = "#ffffff" if land.face_down else "#000000"
            tag = f"T{card.trick + 1}" if card.trick >= 0 else "miss"
            c.text(px, py, label, size=16, weight="bold", anchor="middle", fill=text_fill,
                   rotate=-land.rotation)
            c.text(px, py + 16, f"#{card.order} {tag}", size=11, anchor="middle",
                   fill=text_fill, rotate=-land.rotation)
    if sc.trump_card is not None:
        x0, y0 = size - 80, top + 10
        c.rect(x0, y0, 63, 88, rx=4, fill=SUIT_COLOURS[suit_of(sc.trump_card)],
               stroke="#000000")
        c.text(x0 + 31, y0 + 50, sc.trump_card, size=18, weight="bold", anchor="middle")
        c.text(x0 + 31, y0 + 104, "trump card", size=12, anchor="middle")
    return c


def render_svg(obj: Any, *, trump: str | None = None,
               options: TrickyLandingOptions | None = None, players: int | None = None,
               player: int | None = None, title: str | None = None) -> str:
    """An SVG picture (text) of a state (or its JSON form) or of a list of landings.
    ``player`` hides the face-down cards that player could not know; None is a spectator
    and sees no face-down card (as ``observation(None)``).
    ``trump``/``options``/``players`` are for a list of landings."""
    return _canvas(_scene(obj, trump=trump, options=options, players=players, player=player,
                          title=title)).svg()


def render_png(obj: Any, path: str, *, trump: str | None = None,
               options: TrickyLandingOptions | None = None, players: int | None = None,
               player: int | None = None, title: str | None = None, dpi: int = 100) -> None:
    """The same picture as :func:`render_svg`, written to a PNG file."""
    _canvas(_scene(obj, trump=trump, options=options, players=players, player=player,
                   title=title)).png(path, dpi=dpi)


class _TablePictures:
    """The pictures of a position as a seat sees it, as the game's capability record
    declares them (the functions above also draw lists of landings)."""

    def render_svg(self, state: State, player: int | None = None) -> str:
        return render_svg(state, player=player)

    def render_png(self, state: State, path: str, player: int | None = None) -> None:
        render_png(state, path, player=player)


PICTURES = _TablePictures()
