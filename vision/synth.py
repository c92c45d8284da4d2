"""Seeded photos of Go boards with exact ground truth, for tests.

`render(position, seed)` draws the position on a wooden board (grain, star points, stones
with highlights and shadows), puts it in perspective on a cloth background, then spoils the
picture as cameras do: a light gradient, glare, noise, blur, JPEG artefacts, and optionally
a hand across the board. A `Scene` may also ask for a true camera's view at a given lean and
for stones with height, drawn where such a camera sees their middles. Everything random comes from ``numpy.random.default_rng(seed)``,
so a seed is a picture. Synthetic images help; the real photos are the judge.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from rules import Position

from . import grid
from .stones import lift_shift


@dataclasses.dataclass(frozen=True)
class Scene:
    """How to spoil a picture; every field a range the seed draws from or a switch."""

    width: int = 960
    height: int = 720
    tilt: float = 0.12
    """Perspective strength: corners move by up to this share of the board's side."""
    camera_tilt: float = 0.0
    """If not 0, the view is a camera's (focal length the image's longer side, centred, as
    `vision.stones.lift_shift` assumes) this many degrees off vertical, aimed at the
    board's middle, instead of ``tilt``'s random corners."""
    turn: float = 180.0
    """The board turns by up to this many degrees either way."""
    gradient: float = 0.35
    """Light falls off by up to this share across the picture."""
    glare: bool = True
    shadows: bool = True
    lamp: float = 0.0
    """A low lamp: each stone casts a hard shadow, its outline moved this many cells away
    from the light and everything it swept on the way, four fifths dark (0: the soft shadow
    of light from above, ``shadows``)."""
    noise: float = 6.0
    """Standard deviation of the pixel noise (grey levels)."""
    blur: float = 1.0
    """Upper bound of the Gaussian blur's sigma (px)."""
    jpeg_quality: int = 70
    hand: bool = False
    """A hand (a skin-coloured blob) reaching in from one side, off the grid's points."""
    bowls: bool = False
    """Clutter on the table beside the board, as at a club game: a bowl of black stones, a
    bowl of white ones and their two lids, upturned, holding a few prisoners."""
    stone_height: float = 0.0
    """Height (cells) of a stone's middle over the board (half its thickness). Its body is
    drawn as a camera the view could come from sees it (`vision.stones.lift_shift`): a flat
    disc at 0, a lens leaning away from the camera above it."""
    stone_colours: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None
    """The first player's (X) and the second player's (O) stones' colour (BGR), each
    stone within 12 levels of it; None: black and white."""


@dataclasses.dataclass(frozen=True)
class Synthetic:
    """A rendered photo (H, W, 3) uint8 BGR and its truth: the position as seen (top row at
    the top of the image), the homography lattice -> pixels, the grid corners (4, 2), and
    the points a hand hides (n, n booleans, rows as the position's): no photo shows what
    stands there."""

    image: np.ndarray
    position: Position
    homography: np.ndarray
    corners: np.ndarray
    hidden: np.ndarray


def _wood(rng: np.random.Generator, side: int) -> np.ndarray:
    """A (side, side, 3) float BGR wood texture: a random light wood colour with grain."""
    hue = rng.uniform(0.0, 1.0)
    base = np.array([90 + 60 * hue, 160 + 40 * hue, 205 + 35 * hue])  # BGR, yellow to pale
    y = np.arange(side, dtype=np.float64)[:, None]
    x = np.arange(side, dtype=np.float64)[None, :]
    wobble = cv2.GaussianBlur(rng.normal(0, 1, (side, side)), (0, 0), side / 20)
    wobble = wobble / (np.abs(wobble).max() + 1e-9)
    grain = np.sin(2 * np.pi * (y / rng.uniform(9, 25) + 3 * wobble + 0.02 * x / 7))
    fine = cv2.GaussianBlur(rng.normal(0, 1, (side, side)), (0, 0), 1.0)
    shade = 1.0 + 0.035 * grain + 0.03 * fine
    out: np.ndarray = base[None, None, :] * shade[:, :, None]
    return out


@dataclasses.dataclass(frozen=True)
class _Stone:
    """A stone to draw on the board seen square-on: its point (``row * size + column``),
    where it stands (px), its colour (BGR) and its highlight's brightness."""

    point: int
    x: float
    y: float
    colour: tuple[float, float, float]
    spot: float


def _board(rng: np.random.Generator, rows: list[str], cell: int,
           colours: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None,
           ) -> tuple[np.ndarray, float, list[_Stone], np.ndarray]:
    """The empty board seen square-on, (side, side, 3) float BGR, the margin (px) from the
    board's edge to its outer lines, the stones of ``rows`` (of ``colours``, see
    `Scene.stone_colours`) to draw on it, and the direction the light comes from (a unit
    vector in the board's image)."""
    n = len(rows)
    margin = cell * rng.uniform(0.7, 1.1)
    side = int(round(2 * margin + (n - 1) * cell))
    img = _wood(rng, side)
    ink = rng.uniform(20, 60)
    thick = max(1, int(round(cell / 14)))
    for k in range(n):
        p = int(round(margin + k * cell))
        lo, hi = int(round(margin)), int(round(margin + (n - 1) * cell))
        cv2.line(img, (p, lo), (p, hi), (ink, ink, ink), thick, cv2.LINE_AA)
        cv2.line(img, (lo, p), (hi, p), (ink, ink, ink), thick, cv2.LINE_AA)
    stars = {9: (2, 6, 4), 13: (3, 9, 6), 19: (3, 9, 15)}.get(n, ())
    for sx in stars:
        for sy in stars:
            if n == 9 and (sx == 4) != (sy == 4):
                continue
            c = (int(round(margin + sx * cell)), int(round(margin + sy * cell)))
            cv2.circle(img, c, max(2, cell // 9), (ink, ink, ink), -1, cv2.LINE_AA)
    light = rng.normal(0, 1, 2)
    light = light / (np.linalg.norm(light) + 1e-9)
    stones = []
    for r, row in enumerate(rows):
        for col, ch in enumerate(row):
            if ch not in "XO":
                continue
            jitter = rng.normal(0, 0.04 * cell, 2)
            grey = rng.uniform(15, 40) if ch == "X" else rng.uniform(215, 240)
            colour = (grey, grey, grey)
            if colours is not None:  # the set's colour, as far off it as grey is off its mean
                blue, green, red = (float(np.clip(v + grey - (27.5 if ch == "X" else 227.5),
                                                  0, 255)) for v in colours[ch == "O"])
                colour = (blue, green, red)
            stones.append(_Stone(r * n + col, margin + col * cell + jitter[0],
                                 margin + r * cell + jitter[1], colour,
                                 90.0 if ch == "X" else 255.0))
    return img, margin, stones, light


_LAYERS = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Heights, as shares of a stone's thickness, of the discs whose union draws its body."""


def _put_stones(img: np.ndarray, stones: list[_Stone], lifted: list[np.ndarray], cell: int,
                light: np.ndarray, shadows: bool, lamp: float = 0.0) -> None:
    """Draw ``stones`` on the square-on board ``img``: each one's shadow where it stands and
    its body as the union of its cross-sections at the `_LAYERS` heights, each moved by its
    ``lifted`` offset (px, one per layer: where that height is seen) and as wide as a lens
    there, with a highlight towards ``light`` on its upper half. With a ``lamp`` (cells; see
    `Scene.lamp`) all the stones' shadows fall on the board first, away from the light, and
    the stones stand lit above them."""
    radius = 0.47 * cell
    if lamp:
        cast: np.ndarray = np.zeros(img.shape[:2], np.float32)
        for stone in stones:
            near = (int(round(stone.x)), int(round(stone.y)))
            far = (int(round(stone.x + light[0] * lamp * cell)),
                   int(round(stone.y + light[1] * lamp * cell)))
            cv2.line(cast, near, far, 1.0, int(round(2 * radius)))
            cv2.circle(cast, far, int(radius), 1.0, -1)
        img *= (1.0 - 0.8 * cv2.GaussianBlur(cast, (0, 0), cell / 25))[:, :, None]
    for stone, lifts in zip(stones, lifted):
        cx, cy = stone.x, stone.y
        if shadows and not lamp:
            sh: np.ndarray = np.zeros(img.shape[:2], np.float32)
            cv2.circle(sh, (int(cx + 0.12 * cell), int(cy + 0.12 * cell)), int(radius), 1.0, -1)
            sh = cv2.GaussianBlur(sh, (0, 0), cell / 10)
            img *= (1.0 - 0.35 * sh)[:, :, None]
        colour = np.array(stone.colour)
        for share, lift in zip(_LAYERS, lifts):
            # A lens: full width halfway up, narrower towards its faces (never below 0.6).
            r = radius * max(0.6, float(np.sqrt(1.0 - (2.0 * share - 1.0) ** 2)))
            cv2.circle(img, (int(round(cx + lift[0])), int(round(cy + lift[1]))), int(round(r)),
                       stone.colour, -1, cv2.LINE_AA)
        top = lifts[-2]
        hx, hy = cx + top[0], cy + top[1]
        hl = (int(hx - light[0] * radius * 0.4), int(hy - light[1] * radius * 0.4))
        spot_img: np.ndarray = np.zeros(img.shape[:2], np.float32)
        cv2.circle(spot_img, hl, max(1, int(radius * 0.25)), 1.0, -1)
        spot_img = cv2.GaussianBlur(spot_img, (0, 0), radius * 0.2)
        img += (stone.spot - colour)[None, None, :] * 0.5 * spot_img[:, :, None]


def _camera(side: int, shape: tuple[int, int], tilt: float, turn: float,
            span: float) -> np.ndarray:
    """The homography from a square-on board image of ``side`` px to an image of ``shape``
    taken by a camera ``tilt`` radians off vertical, the board turned by ``turn`` radians
    about its middle, at the distance where the board spans about ``span`` px."""
    h_img, w_img = shape
    f = float(max(h_img, w_img))
    k = np.array([[f, 0, w_img / 2], [0, f, h_img / 2], [0, 0, 1.0]])
    c, s = np.cos(turn), np.sin(turn)
    spin = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    lean = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    r = lean @ spin
    distance = f * side / span  # board px: the board's side seen at about ``span`` px
    h = k @ np.c_[r[:, 0], r[:, 1], [0, 0, distance]]
    centred = np.array([[1, 0, -side / 2], [0, 1, -side / 2], [0, 0, 1.0]])
    out: np.ndarray = h @ centred
    out /= out[2, 2]
    return out


def render(position: Position, seed: int, scene: Scene = Scene()) -> Synthetic:
    """A photo of ``position`` (square, 9 to 19 lines) drawn as ``scene`` says, from ``seed``."""
    if position.width != position.height:
        raise ValueError(f"render draws square boards, not {position.width}x{position.height}")
    rng = np.random.default_rng(seed)
    n = position.width
    rows = position.rows()
    cell = 32
    board, margin, stones, light = _board(rng, rows, cell, scene.stone_colours)
    side = board.shape[0]
    w, h = scene.width, scene.height
    # Where the board's corners land: a square filling most of the shorter side, turned,
    # then each corner moved at random for perspective.
    angle = np.deg2rad(rng.uniform(-scene.turn, scene.turn))
    fit = abs(np.cos(angle)) + abs(np.sin(angle))  # a turned square needs this much room
    extent = rng.uniform(0.6, 0.8) * min(w, h) / fit / (1 + scene.tilt)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) * extent
    dst = square @ rot.T + np.array([w / 2, h / 2]) + rng.uniform(-0.05, 0.05, 2) * (w, h)
    dst += rng.uniform(-scene.tilt, scene.tilt, (4, 2)) * extent
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    to_image = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    if scene.camera_tilt:
        # The random corners above are drawn anyway: the rest of the picture stays the seed's.
        to_image = _camera(side, (h, w), np.deg2rad(scene.camera_tilt), angle, 0.7 * min(w, h))
    lattice_to_board = np.array([[cell, 0, margin], [0, cell, margin], [0, 0, 1]], dtype=np.float64)
    # A stone's middle is up off the board: a camera that this view could come from sees it
    # moved away from itself, as `vision.stones.lift_shift` expects.
    on_board = to_image.astype(np.float64) @ lattice_to_board
    lifts = np.stack([cell * lift_shift(on_board, (h, w), n, 2 * scene.stone_height * share)
                      for share in _LAYERS], axis=1)  # (point, layer, 2)
    _put_stones(board, stones, [lifts[s.point] for s in stones], cell, light, scene.shadows,
                scene.lamp)
    cloth = np.array(rng.uniform(30, 200, 3))
    background = np.empty((h, w, 3), np.float64)
    background[:] = cloth
    background += cv2.GaussianBlur(rng.normal(0, 12, (h, w)), (0, 0), 2)[:, :, None]
    warped = cv2.warpPerspective(board.astype(np.float32), to_image, (w, h), flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones(board.shape[:2], np.float32), to_image, (w, h))
    if scene.bowls:
        corners = grid.apply(to_image.astype(np.float64), src.astype(np.float64))
        seen = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
        _bowls(rng, background, corners, 0.47 * cell * seen / side)  # a stone's radius there
    img = background * (1 - inside[:, :, None]) + warped * inside[:, :, None]
    hand = _hand(rng, img, dst) if scene.hand else np.zeros((h, w), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    direction = rng.normal(0, 1, 2)
    ramp = (xx * direction[0] + yy * direction[1])
    ramp = (ramp - ramp.min()) / (np.ptp(ramp) + 1e-9)
    img *= (1.0 - rng.uniform(0, scene.gradient) * ramp)[:, :, None]
    if scene.glare:
        gx, gy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        s = rng.uniform(0.05, 0.15) * min(w, h)
        img += rng.uniform(40, 90) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * s * s))[:, :, None]
    sigma = rng.uniform(0.3, max(0.31, scene.blur))
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, scene.noise, img.shape)
    clean = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", clean, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert ok and decoded is not None
    out: np.ndarray = decoded
    hom = grid.upright(on_board, n)
    truth = _seen(position, on_board, hom, n)
    at = np.clip(np.rint(grid.apply(hom, grid.lattice(n))).astype(int), 0, [w - 1, h - 1])
    hidden = (hand[at[:, 1], at[:, 0]] >= 0.5).reshape(n, n)
    return Synthetic(out, truth, hom, grid.corners(hom, n), hidden)


def _seen(position: Position, drawn: np.ndarray, upright: np.ndarray, n: int) -> Position:
    """The position relabelled the way `grid.upright` turned the lattice: row 0 at the top
    of the image. ``drawn`` maps the rows as given; ``upright`` the relabelled lattice."""
    rows = position.rows()
    # Where each upright lattice point came from in the drawn lattice.
    back = np.linalg.inv(drawn) @ upright
    src = np.rint(grid.apply(back, grid.lattice(n))).astype(int)
    out = [["."] * n for _ in range(n)]
    for (i, j), (si, sj) in zip(grid.lattice(n).astype(int), src):
        out[j][i] = rows[sj][si]
    return Position(["".join(r) for r in out])


def _hand(rng: np.random.Generator, img: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Paint a hand-like blob (skin colour, soft edge) reaching from outside over one edge;
    returns how much it covers each pixel (H, W), 0 to 1."""
    h, w = img.shape[:2]
    k = int(rng.integers(4))
    a, b = corners[k], corners[(k + 1) % 4]
    mid = a + (b - a) * rng.uniform(0.3, 0.7)
    centre = corners.mean(axis=0)
    inward = (centre - mid) / (np.linalg.norm(centre - mid) + 1e-9)
    length = 0.25 * np.linalg.norm(b - a)
    tip = mid + inward * length * 0.5
    base = mid - inward * length * 2
    mask: np.ndarray = np.zeros((h, w), np.float32)
    cv2.line(mask, tuple(base.astype(int)), tuple(tip.astype(int)), 1.0,
             max(4, int(length * 0.6)))
    mask = cv2.GaussianBlur(mask, (0, 0), 3)
    skin = np.array([rng.uniform(120, 170), rng.uniform(150, 190), rng.uniform(200, 235)])
    img[:] = img * (1 - mask[:, :, None]) + skin[None, None, :] * mask[:, :, None]
    return mask


def _bowls(rng: np.random.Generator, img: np.ndarray, corners: np.ndarray,
           radius: float) -> None:
    """Paint on the table ``img`` two bowls heaped with stones of ``radius`` px (one of
    black stones, one of white) and two lids holding a few of the other colour's, each
    beside a side of the board whose corners (4, 2) are given, clear of it."""
    centre = corners.mean(axis=0)
    sides = rng.permutation(4)
    for k, (kind, black) in enumerate((("bowl", True), ("bowl", False), ("lid", False),
                                       ("lid", True))):
        a, b = corners[sides[k]], corners[(sides[k] + 1) % 4]
        mid = a + (b - a) * rng.uniform(0.25, 0.75)
        out = (mid - centre) / (np.linalg.norm(mid - centre) + 1e-9)
        size = radius * (rng.uniform(5.5, 7.0) if kind == "bowl" else rng.uniform(4.5, 5.5))
        at = mid + out * (size + radius * rng.uniform(0.5, 2.0))
        wood = np.array([rng.uniform(40, 90), rng.uniform(70, 120), rng.uniform(110, 160)])
        xy = tuple(int(v) for v in at)
        cv2.circle(img, xy, int(size), tuple(float(v) for v in wood), -1, cv2.LINE_AA)
        cv2.circle(img, xy, int(size * 0.85), tuple(float(v) for v in 0.7 * wood), -1,
                   cv2.LINE_AA)
        count = int(rng.integers(25, 45)) if kind == "bowl" else int(rng.integers(2, 7))
        room = size * 0.85 - radius
        for _ in range(count):
            r, t = room * np.sqrt(rng.uniform()), rng.uniform(0, 2 * np.pi)
            grey = rng.uniform(15, 40) if black else rng.uniform(215, 240)
            stone = (int(at[0] + r * np.cos(t)), int(at[1] + r * np.sin(t)))
            cv2.circle(img, stone, int(radius), (grey, grey, grey), -1, cv2.LINE_AA)
            spot = (stone[0] - int(radius * 0.3), stone[1] - int(radius * 0.3))
            cv2.circle(img, spot, max(1, int(radius * 0.25)), (grey + 60,) * 3, -1, cv2.LINE_AA)


def random_position(size: int, seed: int, stones: float = 0.3) -> Position:
    """A seeded position of ``size`` with about ``stones`` of the points taken, every string
    left with a liberty (as a real board has)."""
    rng = np.random.default_rng(seed)
    cells = rng.choice([0, 1, 2], size=(size, size),
                       p=[1 - stones, stones / 2, stones / 2])
    from .stones import resolve_captured  # local: stones imports nothing from here
    cells, _ = resolve_captured(cells, rng.uniform(0.5, 1.0, (size, size)))
    return Position(["".join(".XO"[c] for c in row) for row in cells])
