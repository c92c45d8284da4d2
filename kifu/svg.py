"""A Go board drawn as SVG: a pure function from a position (and a few marks) to text.

    >>> from rules import Position
    >>> svg = board_svg(Position(["X..", ".O.", "..."]), size=120)
    >>> svg.startswith("<svg") and 'data-vertex="A3"' in svg
    True

The drawing is what a player expects from a real board: wood, the grid with thicker edges,
star points, coordinates on all four sides (GTP letters without ``I``, row 1 at the bottom),
shaded stones with a shadow, the last move ringed, and at the end the territory as small
squares and the dead stones faded. Every stone carries ``class="stone black|white"`` and a
``data-vertex`` with its GTP vertex, so a page or a test can find it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rules import Color, Point, Position
from rules.point import GTP_COLUMNS

UNIT = 24
"""Distance between two lines, in SVG user units."""

ROTATIONS = (0, 90, 180, 270)


class _Frame(NamedTuple):
    """Where the board's lines land on the picture once rotated."""

    width: int  # board columns
    height: int  # board rows
    rotate: int
    cols: int  # columns on the picture
    rows: int  # rows on the picture
    margin: float

    def screen(self, p: Point) -> tuple[int, int]:
        """The picture column and row (row 0 at the top) of a board point."""
        c, r = p.x, self.height - 1 - p.y
        if self.rotate == 90:
            return self.height - 1 - r, c
        if self.rotate == 180:
            return self.width - 1 - c, self.height - 1 - r
        if self.rotate == 270:
            return r, self.width - 1 - c
        return c, r

    def xy(self, p: Point) -> tuple[float, float]:
        """The SVG coordinates of a board point."""
        c, r = self.screen(p)
        return self.margin + c * UNIT, self.margin + r * UNIT

    def board(self, c: int, r: int) -> Point:
        """The board point drawn at picture column ``c`` and row ``r``."""
        if self.rotate == 90:
            c, r = r, self.height - 1 - c
        elif self.rotate == 180:
            c, r = self.width - 1 - c, self.height - 1 - r
        elif self.rotate == 270:
            c, r = self.width - 1 - r, c
        return Point(c, self.height - 1 - r)


def star_points(width: int, height: int) -> list[Point]:
    """The star points (hoshi) drawn on a board: the 4-4 points (3-3 under 13 lines) on
    boards of 7 lines and more, the centre when both sides are odd, and the side points
    on boards of 19 lines and more with odd sides."""
    if min(width, height) < 7:
        return []
    dx = 3 if width >= 13 else 2
    dy = 3 if height >= 13 else 2
    xs = [dx, width - 1 - dx]
    ys = [dy, height - 1 - dy]
    pts = [Point(x, y) for x in xs for y in ys]
    odd = width % 2 == 1 and height % 2 == 1
    if odd:
        mx, my = width // 2, height // 2
        pts.append(Point(mx, my))
        if min(width, height) >= 19:
            pts += [Point(mx, ys[0]), Point(mx, ys[1]), Point(xs[0], my), Point(xs[1], my)]
    return sorted(pts)


def _defs(pre: str) -> str:
    return f"""<defs>
<linearGradient id="{pre}-wood" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="#e8c07a"/><stop offset="0.45" stop-color="#dcae5f"/>
<stop offset="1" stop-color="#d29f4e"/></linearGradient>
<filter id="{pre}-grain" x="0" y="0" width="100%" height="100%">
<feTurbulence type="fractalNoise" baseFrequency="0.004 0.09" numOctaves="3" seed="7"/>
<feColorMatrix values="0 0 0 0 0.45  0 0 0 0 0.27  0 0 0 0 0.08  0 0 0 -1.1 0.8"/>
<feComposite in2="SourceGraphic" operator="in"/></filter>
<radialGradient id="{pre}-black" cx="0.36" cy="0.32" r="0.7">
<stop offset="0" stop-color="#6b6b6b"/><stop offset="0.35" stop-color="#2a2a2a"/>
<stop offset="1" stop-color="#050505"/></radialGradient>
<radialGradient id="{pre}-white" cx="0.38" cy="0.34" r="0.72">
<stop offset="0" stop-color="#ffffff"/><stop offset="0.6" stop-color="#f1efe9"/>
<stop offset="1" stop-color="#bdb8ad"/></radialGradient>
<filter id="{pre}-shadow" x="-20%" y="-20%" width="140%" height="140%">
<feGaussianBlur stdDeviation="1.2"/></filter>
</defs>"""


def board_svg(
    position: Position,
    *,
    size: int | None = None,
    coordinates: bool = True,
    last_move: Point | None = None,
    territory: tuple[Iterable[Point], Iterable[Point]] | None = None,
    dead: Iterable[Point] = (),
    highlight: Point | None = None,
    rotate: int = 0,
    id_prefix: str = "kifu",
) -> str:
    """The board as an SVG document (a string starting with ``<svg``).

    ``size`` is the picture's width in pixels (the height follows the board's shape); None
    leaves the size to the page (the picture then fills its container). ``last_move`` is
    ringed; ``territory`` is (Black's points, White's points) drawn as small squares;
    ``dead`` stones are drawn faded; ``highlight`` rings a point in red (a refused move,
    a ko). ``rotate`` turns the board clockwise by 0, 90, 180 or 270 degrees, coordinates
    and all. ``id_prefix`` keeps the ids of gradients apart when several boards share a
    page.

    Raises ValueError on a rotation that is not a quarter turn, a size under 32 pixels,
    or a marked point that is off the board.
    """
    if rotate not in ROTATIONS:
        raise ValueError(f"rotate must be one of {ROTATIONS}, not {rotate!r}")
    if size is not None and size < 32:
        raise ValueError(f"size must be at least 32 pixels, not {size}")
    w, h = position.width, position.height
    quarter = rotate in (90, 270)
    cols, rows = (h, w) if quarter else (w, h)
    margin = UNIT * (1.5 if coordinates else 0.75)
    f = _Frame(w, h, rotate, cols, rows, margin)

    def check(p: Point, what: str) -> Point:
        if not (0 <= p.x < w and 0 <= p.y < h):
            raise ValueError(f"{what} {tuple(p)} is off the {w}x{h} board")
        return p

    vw = 2 * margin + (cols - 1) * UNIT
    vh = 2 * margin + (rows - 1) * UNIT
    pre = id_prefix
    dims = "" if size is None else f' width="{size}" height="{round(size * vh / vw)}"'
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {vw:g} {vh:g}"{dims} '
        f'class="goban" data-width="{w}" data-height="{h}" data-rotate="{rotate}" '
        f'role="img" aria-label="Go board {w}x{h}">',
        _defs(pre),
        f'<rect width="{vw:g}" height="{vh:g}" rx="4" fill="url(#{pre}-wood)"/>',
        f'<rect width="{vw:g}" height="{vh:g}" rx="4" fill="#000" filter="url(#{pre}-grain)" '
        'opacity="0.55"/>',
    ]

    # The grid: inner lines thin, the edge drawn as a thicker frame.
    x0, y0 = margin, margin
    x1, y1 = margin + (cols - 1) * UNIT, margin + (rows - 1) * UNIT
    lines = []
    for c in range(1, cols - 1):
        x = margin + c * UNIT
        lines.append(f"M{x:g} {y0:g}V{y1:g}")
    for r in range(1, rows - 1):
        y = margin + r * UNIT
        lines.append(f"M{x0:g} {y:g}H{x1:g}")
    out.append(f'<path class="grid" d="{"".join(lines)}" stroke="#33240f" stroke-width="0.9" '
               'fill="none"/>')
    out.append(f'<rect class="edge" x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}" '
               'stroke="#2b1d0b" stroke-width="1.8" fill="none"/>')
    for p in star_points(w, h):
        x, y = f.xy(p)
        out.append(f'<circle class="star" cx="{x:g}" cy="{y:g}" r="{UNIT * 0.13:g}" fill="#2b1d0b"/>')

    if coordinates:
        out.append(_coordinates(f))

    dead_set = {check(p, "dead stone") for p in dead}
    stones = [(p, position[p]) for p in position.stones()]
    r_stone = UNIT * 0.48
    shadows = []
    for p, _ in stones:
        if p in dead_set:
            continue
        x, y = f.xy(p)
        shadows.append(f'<circle cx="{x + 1.3:g}" cy="{y + 1.8:g}" r="{r_stone:g}"/>')
    if shadows:
        out.append(f'<g class="shadows" fill="#000" opacity="0.42" filter="url(#{pre}-shadow)">'
                   + "".join(shadows) + "</g>")
    for p, color in stones:
        x, y = f.xy(p)
        name = "black" if color is Color.BLACK else "white"
        extra = ' opacity="0.45"' if p in dead_set else ""
        cls = f"stone {name}" + (" dead" if p in dead_set else "")
        out.append(
            f'<circle class="{cls}" data-vertex="{p.gtp()}" cx="{x:g}" cy="{y:g}" r="{r_stone:g}" '
            f'fill="url(#{pre}-{name})"'
            + (' stroke="#8a857a" stroke-width="0.4"' if color is Color.WHITE else "")
            + f"{extra}/>"
        )

    if territory is not None:
        half = UNIT * 0.17
        for color, pts in zip((Color.BLACK, Color.WHITE), territory):
            name = "black" if color is Color.BLACK else "white"
            fill, stroke = ("#111", "#000") if color is Color.BLACK else ("#f6f5f0", "#555")
            for p in pts:
                x, y = f.xy(check(p, "territory point"))
                out.append(
                    f'<rect class="territory {name}" data-vertex="{p.gtp()}" x="{x - half:g}" '
                    f'y="{y - half:g}" width="{2 * half:g}" height="{2 * half:g}" fill="{fill}" '
                    f'stroke="{stroke}" stroke-width="0.6"/>'
                )

    if last_move is not None:
        x, y = f.xy(check(last_move, "last move"))
        on = position[last_move]
        ink = "#f2f2f2" if on is Color.BLACK else "#111" if on is Color.WHITE else "#c0392b"
        out.append(f'<circle class="last-move" data-vertex="{last_move.gtp()}" cx="{x:g}" '
                   f'cy="{y:g}" r="{UNIT * 0.22:g}" fill="none" stroke="{ink}" '
                   'stroke-width="2"/>')
    if highlight is not None:
        x, y = f.xy(check(highlight, "highlighted point"))
        out.append(f'<circle class="highlight" data-vertex="{highlight.gtp()}" cx="{x:g}" '
                   f'cy="{y:g}" r="{UNIT * 0.36:g}" fill="none" stroke="#d0021b" '
                   'stroke-width="2.6" stroke-dasharray="4 2.5"/>')
    out.append("</svg>")
    return "\n".join(out)


def _coordinates(f: _Frame) -> str:
    """Labels on all four sides: letters along the board's columns, numbers along its rows,
    wherever the rotation puts them."""
    size = UNIT * 0.46
    off = UNIT * 0.88  # clear of a stone on the edge line (radius 0.48)
    gap = f.margin - off
    far_x = f.margin + (f.cols - 1) * UNIT + off
    far_y = f.margin + (f.rows - 1) * UNIT + off
    letters_across = f.rotate in (0, 180)

    def label(p: Point, across: bool) -> str:
        # Along the picture's width the label names the board column when unrotated.
        return GTP_COLUMNS[p.x] if across == letters_across else str(p.y + 1)

    parts = [f'<g class="coordinates" font-family="Helvetica, Arial, sans-serif" '
             f'font-size="{size:g}" font-weight="600" fill="#3d2a10" text-anchor="middle" '
             'dominant-baseline="central">']
    for c in range(f.cols):
        text = label(f.board(c, 0), True)
        x = f.margin + c * UNIT
        parts.append(f'<text x="{x:g}" y="{gap:g}">{text}</text>')
        parts.append(f'<text x="{x:g}" y="{far_y:g}">{text}</text>')
    for r in range(f.rows):
        text = label(f.board(0, r), False)
        y = f.margin + r * UNIT
        parts.append(f'<text x="{gap:g}" y="{y:g}">{text}</text>')
        parts.append(f'<text x="{far_x:g}" y="{y:g}">{text}</text>')
    parts.append("</g>")
    return "".join(parts)
