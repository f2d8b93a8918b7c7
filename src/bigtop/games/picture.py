"""A small drawing canvas shared by the games' pictures: one list of shapes, written out as SVG
text or drawn into a PNG with matplotlib, so the two formats never disagree.

Shapes carry optional attributes (``cls`` becomes ``class``, ``data_card`` becomes
``data-card``) on their SVG group, so a web page can find a card or a pile and attach clicks.
Coordinates are pixels, y pointing down, as in SVG.

>>> c = Canvas(200, 100, title="demo")
>>> with c.group(cls="card", data_card="R7", tooltip="red 7"):
...     c.rect(10, 10, 40, 60, fill="#c0392b", rx=4)
...     c.text(30, 45, "7", size=20, anchor="middle", weight="bold")
>>> svg = c.svg()
>>> 'class="card" data-card="R7"' in svg and "<title>red 7</title>" in svg
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from xml.sax import saxutils

from bigtop.core.extras import require_extra

if TYPE_CHECKING:
    from bigtop.core.game import State

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""A character XML 1.0 does not allow anywhere (control characters, surrogates, U+FFFE,
U+FFFF): one in a picture's text would make the whole SVG ill-formed."""


def escape(text: str) -> str:
    r"""``text`` as XML character data: markup escaped, and each character XML does not
    allow drawn as U+FFFD (free text, such as a So ein Zirkus board's name, reaches the
    pictures).

    >>> escape("<b>a" + chr(1) + "</b>") == "&lt;b&gt;a�&lt;/b&gt;"
    True
    """
    return saxutils.escape(_NOT_XML.sub("\ufffd", text))


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value, like :func:`escape`."""
    return saxutils.quoteattr(_NOT_XML.sub("\ufffd", text))


@dataclass(frozen=True)
class _Shape:
    kind: str  # rect, circle, text, line, polygon
    args: dict[str, Any]


@dataclass
class _Group:
    attrs: dict[str, str]
    tooltip: str | None
    items: list[_Shape | _Group] = field(default_factory=list)


def _attr_name(key: str) -> str:
    return "class" if key == "cls" else key.replace("_", "-")


class Canvas:
    """Shapes in drawing order, grouped; :meth:`svg` and :meth:`png` write them out."""

    def __init__(self, width: float, height: float, *, title: str = "",
                 background: str = "#ffffff") -> None:
        self.width = width
        self.height = height
        self.title = title
        self.background = background
        self._root = _Group({}, None)
        self._stack = [self._root]

    # -- building ---------------------------------------------------------------------------
    @contextmanager
    def group(self, tooltip: str | None = None, **attrs: object) -> Iterator[None]:
        """Shapes drawn inside belong to one SVG ``<g>`` with these attributes (``cls`` is
        ``class``; ``data_x`` is ``data-x``) and an optional hover ``tooltip``."""
        g = _Group({_attr_name(k): str(v) for k, v in attrs.items() if v is not None},
                   tooltip)
        self._stack[-1].items.append(g)
        self._stack.append(g)
        try:
            yield
        finally:
            self._stack.pop()

    def _add(self, kind: str, **args: Any) -> None:
        self._stack[-1].items.append(_Shape(kind, args))

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str = "none",
             stroke: str | None = None, stroke_width: float = 1.0, rx: float = 0.0,
             dashed: bool = False, opacity: float = 1.0) -> None:
        self._add("rect", x=x, y=y, w=w, h=h, fill=fill, stroke=stroke,
                  stroke_width=stroke_width, rx=rx, dashed=dashed, opacity=opacity)

    def circle(self, cx: float, cy: float, r: float, *, fill: str = "none",
               stroke: str | None = None, stroke_width: float = 1.0) -> None:
        self._add("circle", cx=cx, cy=cy, r=r, fill=fill, stroke=stroke,
                  stroke_width=stroke_width)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#000000",
             stroke_width: float = 1.0) -> None:
        self._add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=stroke_width)

    def polygon(self, points: list[tuple[float, float]], *, fill: str = "none",
                stroke: str | None = None, stroke_width: float = 1.0, dashed: bool = False,
                opacity: float = 1.0) -> None:
        self._add("polygon", points=tuple(points), fill=fill, stroke=stroke,
                  stroke_width=stroke_width, dashed=dashed, opacity=opacity)

    def text(self, x: float, y: float, text: str, *, size: float = 12.0,
             anchor: str = "start", fill: str = "#000000", weight: str = "normal",
             rotate: float = 0.0) -> None:
        """Text whose baseline starts (``anchor`` start), is centred (middle) or ends (end) at
        (x, y); ``rotate`` turns it (degrees, clockwise) about that point."""
        self._add("text", x=x, y=y, text=text, size=size, anchor=anchor, fill=fill,
                  weight=weight, rotate=rotate)

    # -- SVG --------------------------------------------------------------------------------
    def svg(self) -> str:
        """The picture as SVG text."""
        w, h = self.width, self.height
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
               f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="sans-serif">']
        if self.title:
            out.append(f"<title>{escape(self.title)}</title>")
        out.append(f'<rect x="0" y="0" width="{w:.0f}" height="{h:.0f}" '
                   f'fill="{self.background}"/>')
        self._svg_items(self._root.items, out)
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def _svg_items(self, items: list[_Shape | _Group], out: list[str]) -> None:
        for item in items:
            if isinstance(item, _Group):
                attrs = "".join(f" {k}={quoteattr(v)}" for k, v in item.attrs.items())
                out.append(f"<g{attrs}>")
                if item.tooltip:
                    out.append(f"<title>{escape(item.tooltip)}</title>")
                self._svg_items(item.items, out)
                out.append("</g>")
            else:
                out.append(_svg_shape(item))

    # -- PNG --------------------------------------------------------------------------------
    def png(self, path: str, dpi: int = 100) -> None:
        """Draw the same shapes with matplotlib into a PNG file (one SVG pixel = one PNG
        pixel at the default ``dpi``)."""
        require_extra("lab", "matplotlib", what="a PNG picture")
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Circle, FancyBboxPatch, Polygon, Rectangle

        fig = plt.figure(figsize=(self.width / 100, self.height / 100), dpi=dpi)
        try:
            ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
            ax.set_xlim(0, self.width)
            ax.set_ylim(self.height, 0)
            ax.axis("off")
            ax.add_patch(Rectangle((0, 0), self.width, self.height, color=self.background))
            pt = 72.0 / 100.0  # points per SVG pixel
            for s in _flatten(self._root.items):
                a = s.args
                edge = a.get("stroke") or "none"
                lw = float(a.get("stroke_width", 1.0)) * pt
                fill = a.get("fill", "none")
                if s.kind == "rect":
                    x, y, w, h = (float(a[k]) for k in ("x", "y", "w", "h"))
                    rx = float(a["rx"])
                    style = "--" if a["dashed"] else "-"
                    alpha = float(a["opacity"])
                    if rx > 0:
                        ax.add_patch(FancyBboxPatch(
                            (x + rx, y + rx), max(w - 2 * rx, 0.01), max(h - 2 * rx, 0.01),
                            boxstyle=f"round,pad={rx}", facecolor=fill, edgecolor=edge,
                            linewidth=lw, linestyle=style, alpha=alpha))
                    else:
                        ax.add_patch(Rectangle((x, y), w, h, facecolor=fill, edgecolor=edge,
                                               linewidth=lw, linestyle=style, alpha=alpha))
                elif s.kind == "circle":
                    ax.add_patch(Circle((float(a["cx"]), float(a["cy"])),
                                        float(a["r"]), facecolor=fill,
                                        edgecolor=edge, linewidth=lw))
                elif s.kind == "polygon":
                    ax.add_patch(Polygon(list(a["points"]), closed=True,
                                         facecolor=fill, edgecolor=edge, linewidth=lw,
                                         linestyle="--" if a["dashed"] else "-",
                                         alpha=float(a["opacity"])))
                elif s.kind == "line":
                    ax.plot([a["x1"], a["x2"]], [a["y1"], a["y2"]], color=a["stroke"],
                            linewidth=lw)
                else:
                    ha = {"start": "left", "middle": "center", "end": "right"}[str(a["anchor"])]
                    ax.text(float(a["x"]), float(a["y"]), str(a["text"]),
                            fontsize=float(a["size"]) * pt, ha=ha,
                            va="baseline", color=a["fill"], fontweight=a["weight"],
                            rotation=-float(a["rotate"]),
                            rotation_mode="anchor")
            fig.savefig(path, dpi=dpi)
        finally:
            plt.close(fig)


@dataclass(frozen=True)
class Pictures:
    """A game's pictures of a position, all from one function that draws an observation
    (``state.observation(seat)``) on a canvas, so a seat's picture shows only what that seat
    may see. A game's ``render.py`` exports the three methods.

    >>> from bigtop import new_state
    >>> from bigtop.games.scout.render import canvas_from_observation
    >>> pictures = Pictures(canvas_from_observation)
    >>> s = new_state("scout", players=2, seed=1)
    >>> pictures.render_svg(s, 0) == pictures.svg_from_observation(s.observation(0))
    True
    """

    draw: Callable[[dict[str, Any]], Canvas]

    def svg_from_observation(self, obs: dict[str, Any]) -> str:
        """The SVG picture of an observation."""
        return self.draw(obs).svg()

    def render_svg(self, state: State, player: int | None = None) -> str:
        """The SVG picture of ``state`` as ``player`` sees it (None: a spectator)."""
        return self.svg_from_observation(state.observation(player))

    def render_png(self, state: State, path: str, player: int | None = None) -> None:
        """The same picture as :meth:`render_svg`, written to a PNG file."""
        self.draw(state.observation(player)).png(path)


def _flatten(items: list[_Shape | _Group]) -> Iterator[_Shape]:
    for item in items:
        if isinstance(item, _Group):
            yield from _flatten(item.items)
        else:
            yield item


def _stroke(a: dict[str, Any]) -> str:
    if not a.get("stroke"):
        return ""
    return f' stroke="{a["stroke"]}" stroke-width="{a["stroke_width"]}"'


def _svg_shape(s: _Shape) -> str:
    a = s.args
    if s.kind == "rect":
        extra = ' stroke-dasharray="6,4"' if a["dashed"] else ""
        if a["opacity"] != 1.0:
            extra += f' opacity="{a["opacity"]}"'
        if a["rx"]:
            extra += f' rx="{a["rx"]}"'
        return (f'<rect x="{a["x"]:.1f}" y="{a["y"]:.1f}" width="{a["w"]:.1f}" '
                f'height="{a["h"]:.1f}" fill="{a["fill"]}"{_stroke(a)}{extra}/>')
    if s.kind == "circle":
        return (f'<circle cx="{a["cx"]:.1f}" cy="{a["cy"]:.1f}" r="{a["r"]:.1f}" '
                f'fill="{a["fill"]}"{_stroke(a)}/>')
    if s.kind == "line":
        return (f'<line x1="{a["x1"]:.1f}" y1="{a["y1"]:.1f}" x2="{a["x2"]:.1f}" '
                f'y2="{a["y2"]:.1f}" stroke="{a["stroke"]}" stroke-width="{a["stroke_width"]}"/>')
    if s.kind == "polygon":
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in a["points"])
        extra = ' stroke-dasharray="6,4"' if a["dashed"] else ""
        if a["opacity"] != 1.0:
            extra += f' fill-opacity="{a["opacity"]}"'
        return f'<polygon points="{pts}" fill="{a["fill"]}"{_stroke(a)}{extra}/>'
    rot = (f' transform="rotate({a["rotate"]:.1f} {a["x"]:.1f} {a["y"]:.1f})"'
           if a["rotate"] else "")
    weight = f' font-weight="{a["weight"]}"' if a["weight"] != "normal" else ""
    return (f'<text x="{a["x"]:.1f}" y="{a["y"]:.1f}" font-size="{a["size"]}" '
            f'text-anchor="{a["anchor"]}" fill="{a["fill"]}"{weight}{rot}>'
            f'{escape(str(a["text"]))}</text>')
