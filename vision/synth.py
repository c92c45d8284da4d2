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
from .perturb import Cast, hue_colour
from .grid import lift_shift


@dataclasses.dataclass(frozen=True)
class Scene:
    """How to spoil a picture; every field a range the seed draws from or a switch."""

    width: int = 960
    height: int = 720
    tilt: float = 0.12
    """Perspective strength: corners move by up to this share of the board's side."""
    camera_tilt: float = 0.0
    """If not 0, the view is a camera's (focal length the image's longer side, centred, as
    `vision.grid.lift_shift` assumes) this many degrees off vertical, aimed at the
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
    drawn as a camera the view could come from sees it (`vision.grid.lift_shift`): a flat
    disc at 0, a lens leaning away from the camera above it."""
    stone_colours: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None
    """The first player's (X) and the second player's (O) stones' colour (BGR), each
    stone within 12 levels of it; None: black and white."""
    # The scenes below (issue 19's missed kinds) are off by default, and each draws from
    # its own seeded generator: turning one on leaves the rest of the seed's picture as it was.
    framing: str = ""
    """"phone": the view of a phone held over the board's near edge (with ``camera_tilt``,
    the line of sight to the board's middle that many degrees off vertical): the near edge
    at the bottom of the frame, the board as wide as the frame, by pitching the camera,
    not by cropping, so `vision.grid.lift_shift`'s camera still holds. "phone aimed": the
    same phone aimed at the board's middle, as a person frames a board to photograph it:
    the board in the middle of the frame, its widest span ``fill`` of the frame's width (the
    slab's near corners leave the frame above 1). "": the board in the middle
    (``camera_tilt`` aims at it)."""
    surface: str = ""
    """What the board lies on: "" a plain cloth; "dark table" or "light table" (wood with
    grain; a light table is close to the board's own wood); "grey floor" (light grey
    tiles)."""
    feet: bool = False
    """Two to four feet (socks, shoes, bare) on the table or floor, their toes at the
    board's edge."""
    hands: int = 0
    """More hands reaching in over the board's edges (as ``hand``, from their own draws)."""
    cast: float = 0.0
    """A coloured lamp: a colour cast of this strength (`vision.perturb.Cast`: 0.6 is
    strong) of a hue the seed draws; 0: white light."""
    flash: bool = False
    """A flash's hot spot on the board: a blob near white at its core, fading out."""
    sun: bool = False
    """Sunlight through a window: two or three bright, warm patches with sharp edges
    falling across the board."""
    bevel: bool = False
    """A bright bevel along the board's edge: a near-white band, a tenth to a quarter of a
    cell wide, all round the wood."""
    on_board: str = ""
    """An object lying on the board over some points: "pen", "phone" or "lid" (upturned,
    holding prisoners); the points whose middles it covers are hidden."""
    any_colours: bool = False
    """Stones of two colours the seed draws (any hues; the first player's darker), instead
    of ``stone_colours``."""
    grayscale: bool = False
    """The photo saved in shades of grey (kept as three equal channels)."""
    fill: tuple[float, float] = (0.92, 1.04)
    """With framing "phone aimed": the board's widest span (its slab) is drawn between these
    shares of the frame's width; at 1.04 the near corners of a board with a cell of margin
    leave the frame while its grid stays inside. (Kept below the frame's height.)"""
    exposure: float = 0.0
    """The whole picture made darker or brighter by a factor drawn from 1 -/+ this (a
    phone's exposure, a dim room): 0 leaves it."""
    jitter: float = 0.04
    """Standard deviation (cells) of a stone's place about its point: placed with care,
    0.04; a finished game's stones pushed about by the hands among them, 0.1 and more."""
    line_width: float = 1 / 14
    """The grid lines' width (cells; at least a pixel of the 32 px cells drawn). A real
    board's lines are about 1 mm on 22 mm cells: 1/22."""
    resaved: int = 0
    """The photo saved once more as a JPEG of this quality (shared, sent by a messenger,
    turned and saved); 0: once only."""
    far_cut: float | None = None
    """The photo cut close to the board along its top: its first row this many cells (at the
    board's far edge) below the second highest of the slab's corners (so inside the slab's
    far margin where that is its far edge); negative, a sliver of what it lies on left above
    the slab. None: not cut. Points cut off count as hidden."""
    overexposed: tuple[float, float] = (1.0, 1.0)
    """The light on the whole scene, as a factor of what the exposure was set for, drawn
    between these two before the sensor clips (sunlight on a board metered for the room):
    from about 1.7 to 2.8, as its colour goes, the light wood reaches the ceiling in every
    channel (blue last), and its lines keep only what the blur leaves them under it, or
    nothing. (1, 1): as set."""


@dataclasses.dataclass(frozen=True)
class Synthetic:
    """A rendered photo (H, W, 3) uint8 BGR and its truth: the position as seen (top row at
    the top of the image), the homography lattice -> pixels, the grid corners (4, 2), and
    the points a hand or an object on the board hides (n, n booleans, rows as the
    position's): no photo shows what stands there."""

    image: np.ndarray
    position: Position
    homography: np.ndarray
    corners: np.ndarray
    hidden: np.ndarray


def _wood(rng: np.random.Generator, side: int) -> np.ndarray:
    """A (side, side, 3) float BGR wood texture: a random light wood colour with grain."""
    hue = rng.uniform(0.0, 1.0)
    base = np.array([90 + 60 * hue, 160 + 40 * hue, 205 + 35 * hue])  # BGR, yellow to pale
    return _grained(rng, (side, side), base)


def _grained(rng: np.random.Generator, shape: tuple[int, int], base: np.ndarray) -> np.ndarray:
    """A (H, W, 3) float BGR wood of colour ``base`` with a random grain."""
    y = np.arange(shape[0], dtype=np.float64)[:, None]
    x = np.arange(shape[1], dtype=np.float64)[None, :]
    wobble = cv2.GaussianBlur(rng.normal(0, 1, shape), (0, 0), max(shape) / 20)
    wobble = wobble / (np.abs(wobble).max() + 1e-9)
    grain = np.sin(2 * np.pi * (y / rng.uniform(9, 25) + 3 * wobble + 0.02 * x / 7))
    fine = cv2.GaussianBlur(rng.normal(0, 1, shape), (0, 0), 1.0)
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
           jitter: float = 0.04, line_width: float = 1 / 14,
           ) -> tuple[np.ndarray, float, list[_Stone], np.ndarray]:
    """The empty board seen square-on, (side, side, 3) float BGR, the margin (px) from the
    board's edge to its outer lines, the stones of ``rows`` (of ``colours``, see
    `Scene.stone_colours`; each ``jitter`` cells off its point at random) to draw on it,
    and the direction the light comes from (a unit vector in the board's image); the lines
    ``line_width`` cells wide."""
    n = len(rows)
    margin = cell * rng.uniform(0.7, 1.1)
    side = int(round(2 * margin + (n - 1) * cell))
    img = _wood(rng, side)
    ink = rng.uniform(20, 60)
    thick = max(1, int(round(cell * line_width)))
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
            off = rng.normal(0, jitter * cell, 2)
            grey = rng.uniform(15, 40) if ch == "X" else rng.uniform(215, 240)
            colour = (grey, grey, grey)
            if colours is not None:  # the set's colour, as far off it as grey is off its mean
                blue, green, red = (float(np.clip(v + grey - (27.5 if ch == "X" else 227.5),
                                                  0, 255)) for v in colours[ch == "O"])
                colour = (blue, green, red)
            stones.append(_Stone(r * n + col, margin + col * cell + off[0],
                                 margin + r * cell + off[1], colour,
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
    colours = _any_colours(_own(seed, "colours")) if scene.any_colours else scene.stone_colours
    board, margin, stones, light = _board(rng, rows, cell, colours, scene.jitter,
                                          scene.line_width)
    side = board.shape[0]
    if scene.bevel:
        _bevel(_own(seed, "bevel"), board, cell)
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
    if scene.framing == "phone":
        frame = _own(seed, "framing")
        to_image = _phone(side, (h, w), np.deg2rad(scene.camera_tilt), angle,
                          frame.uniform(0.9, 0.99), frame.uniform(0.01, 0.06))
    elif scene.framing == "phone aimed":
        frame = _own(seed, "framing")
        to_image = _aimed(side, (h, w), np.deg2rad(scene.camera_tilt), angle,
                          frame.uniform(*scene.fill))
    elif scene.framing:
        raise ValueError(f"framing is 'phone', 'phone aimed' or '', not {scene.framing!r}")
    lattice_to_board = np.array([[cell, 0, margin], [0, cell, margin], [0, 0, 1]], dtype=np.float64)
    # A stone's middle is up off the board: a camera that this view could come from sees it
    # moved away from itself, as `vision.grid.lift_shift` expects.
    on_board = to_image.astype(np.float64) @ lattice_to_board
    lifts = np.stack([cell * lift_shift(on_board, (h, w), n, 2 * scene.stone_height * share)
                      for share in _LAYERS], axis=1)  # (point, layer, 2)
    _put_stones(board, stones, [lifts[s.point] for s in stones], cell, light, scene.shadows,
                scene.lamp)
    covered: np.ndarray = np.zeros(board.shape[:2], np.float32)
    if scene.on_board:
        covered = _object(_own(seed, "object"), board, scene.on_board, cell, margin, n)
    cloth = np.array(rng.uniform(30, 200, 3))
    background = np.empty((h, w, 3), np.float64)
    background[:] = cloth
    background += cv2.GaussianBlur(rng.normal(0, 12, (h, w)), (0, 0), 2)[:, :, None]
    if scene.surface:
        background = _surface(_own(seed, "surface"), scene.surface, (h, w))
    warped = cv2.warpPerspective(board.astype(np.float32), to_image, (w, h), flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones(board.shape[:2], np.float32), to_image, (w, h))
    wood = grid.apply(to_image.astype(np.float64), src.astype(np.float64))  # its corners
    if scene.feet:
        _feet(_own(seed, "feet"), background, wood, cell * _side_seen(wood) / side)
    if scene.bowls:
        _bowls(rng, background, wood, 0.47 * cell * _side_seen(wood) / side)  # a stone's radius
    img = background * (1 - inside[:, :, None]) + warped * inside[:, :, None]
    hand = _hand(rng, img, dst) if scene.hand else np.zeros((h, w), np.float32)
    more = _own(seed, "hands")
    for _ in range(scene.hands):
        hand = np.maximum(hand, _hand(more, img, wood))
    if scene.on_board:
        hand = np.maximum(hand, cv2.warpPerspective(covered, to_image, (w, h)))
    if scene.sun:
        _sun(_own(seed, "sun"), img, wood)
    if scene.flash:
        _flash(_own(seed, "flash"), img, wood)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    direction = rng.normal(0, 1, 2)
    ramp = (xx * direction[0] + yy * direction[1])
    ramp = (ramp - ramp.min()) / (np.ptp(ramp) + 1e-9)
    img *= (1.0 - rng.uniform(0, scene.gradient) * ramp)[:, :, None]
    if scene.glare:
        gx, gy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        s = rng.uniform(0.05, 0.15) * min(w, h)
        img += rng.uniform(40, 90) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * s * s))[:, :, None]
    if scene.cast:
        img *= Cast(float(_own(seed, "cast").uniform(0, 360)), scene.cast).gains()
    if scene.exposure:
        img *= _own(seed, "exposure").uniform(1 - scene.exposure, 1 + scene.exposure)
    if scene.overexposed != (1.0, 1.0):
        img *= _own(seed, "overexposed").uniform(*scene.overexposed)
    sigma = rng.uniform(0.3, max(0.31, scene.blur))
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, scene.noise, img.shape)
    clean = np.clip(img, 0, 255).astype(np.uint8)
    if scene.far_cut is not None:
        top = int(np.clip(np.ceil(np.sort(wood[:, 1])[1]
                                  + scene.far_cut * cell * _side_seen(wood) / side), 0, h - 2))
        clean, hand, h = clean[top:], hand[top:], h - top
        on_board = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, -top], [0.0, 0.0, 1.0]]) @ on_board
    if scene.grayscale:
        clean = cv2.cvtColor(cv2.cvtColor(clean, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    ok, buf = cv2.imencode(".jpg", clean, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert ok and decoded is not None
    if scene.resaved:
        ok, buf = cv2.imencode(".jpg", decoded, [cv2.IMWRITE_JPEG_QUALITY, scene.resaved])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert ok and decoded is not None
    out: np.ndarray = decoded
    hom = grid.upright(on_board, n)
    truth = _seen(position, on_board, hom, n)
    at = np.clip(np.rint(grid.apply(hom, grid.lattice(n))).astype(int), 0, [w - 1, h - 1])
    seen_at = grid.apply(hom, grid.lattice(n))
    framed = ((seen_at >= 0) & (seen_at <= [w - 1, h - 1])).all(axis=1)
    # A point out of the frame (a board filling it, a corner cut off) shows nothing either.
    hidden = ((hand[at[:, 1], at[:, 0]] >= 0.5) | ~framed).reshape(n, n)
    return Synthetic(out, truth, hom, grid.corners(hom, n), hidden)


_OWN = ("colours", "bevel", "framing", "object", "surface", "feet", "hands", "sun", "flash",
        "cast", "exposure", "overexposed")


def _own(seed: int, part: str) -> np.random.Generator:
    """The seeded generator of one of a scene's optional parts (`_OWN`), apart from the
    picture's: turning a part on or off leaves the rest of the seed's picture as it was."""
    return np.random.default_rng([seed, 19, _OWN.index(part)])


def _side_seen(corners: np.ndarray) -> float:
    """The mean length (px) of the four sides of a quadrilateral (4, 2)."""
    return float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))


def _any_colours(rng: np.random.Generator) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """Two stone colours (BGR) of any hues: the first a dark one, the second a light one."""
    def colour(value: float) -> tuple[int, int, int]:
        sat = rng.uniform(0.3, 1.0)
        bgr = value * ((1 - sat) + sat * hue_colour(rng.uniform(0, 360)))
        b, g, r = (int(round(v)) for v in bgr)
        return b, g, r
    return colour(rng.uniform(50, 120)), colour(rng.uniform(190, 245))


def _bevel(rng: np.random.Generator, board: np.ndarray, cell: int) -> None:
    """Paint a bright bevel round the edge of the square-on ``board``: a band a tenth to a
    quarter of a cell wide, near white where the edge is, fading to the wood inside it."""
    side = board.shape[0]
    width = cell * rng.uniform(0.1, 0.25)
    idx = np.arange(side, dtype=np.float64)
    edge = np.minimum(idx, side - 1 - idx)
    d = np.minimum(edge[:, None], edge[None, :])  # px from the nearest edge
    weight = np.clip(1.0 - d / width, 0.0, 1.0) ** 0.5 * rng.uniform(0.75, 0.95)
    shine = rng.uniform(225, 250) * np.array([0.97, 0.99, 1.0])
    board[:] = board * (1 - weight[:, :, None]) + shine * weight[:, :, None]


def _phone(side: int, shape: tuple[int, int], tilt: float, turn: float, fill: float,
           low: float) -> np.ndarray:
    """The homography from a square-on board of ``side`` px to an image of ``shape`` taken
    by a camera (as `_camera`'s) whose line of sight to the board's middle is ``tilt``
    radians off vertical over the board's near edge, the board turned by ``turn`` radians,
    at the distance and pitch where its widest span is ``fill`` of the image's width and
    its near edge ``low`` of the height above the bottom (the far edge kept in the frame)."""
    h_img, w_img = shape
    f = float(max(h_img, w_img))
    k = np.array([[f, 0, w_img / 2], [0, f, h_img / 2], [0, 0, 1.0]])
    k_inv = np.linalg.inv(k)
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float64)

    def pitched(span: float, pitch: float) -> np.ndarray:
        c, s = np.cos(pitch), np.sin(pitch)
        turned = k @ np.array([[1, 0, 0], [0, c, -s], [0, s, c]]) @ k_inv
        out: np.ndarray = turned @ _camera(side, shape, -tilt, turn, span)
        out /= out[2, 2]
        return out

    span, pitch, want = 0.7 * min(shape), 0.0, fill
    for _ in range(40):
        lo, hi = -0.6, 0.6  # pitch (radians): the near edge moves down as the pitch falls
        for _ in range(40):
            pitch = (lo + hi) / 2
            if grid.apply(pitched(span, pitch), src)[:, 1].max() < h_img * (1 - low):
                hi = pitch
            else:
                lo = pitch
        seen = grid.apply(pitched(span, pitch), src)
        if seen[:, 1].min() < 0.02 * h_img:  # the far edge out of the frame: step back
            want *= 0.97
        span *= want * w_img / float(np.ptp(seen[:, 0]))
    return pitched(span, pitch)


def _aimed(side: int, shape: tuple[int, int], tilt: float, turn: float,
           fill: float) -> np.ndarray:
    """The homography from a square-on board of ``side`` px to an image of ``shape`` taken
    by a camera (as `_camera`'s) aimed at the board's middle from ``tilt`` radians off
    vertical over its near edge (at the bottom of the frame), the board turned by ``turn``
    radians, at the distance where its widest span is ``fill`` of the image's width, or
    nearer 97% of the image's height where that is less."""
    h_img, w_img = shape
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float64)
    span = 0.7 * min(shape)
    for _ in range(8):
        seen = grid.apply(_camera(side, shape, -tilt, turn, span), src)
        span *= min(fill * w_img / float(np.ptp(seen[:, 0])),
                    0.97 * h_img / float(np.ptp(seen[:, 1])))
    return _camera(side, shape, -tilt, turn, span)


def _object(rng: np.random.Generator, board: np.ndarray, kind: str, cell: int,
            margin: float, n: int) -> np.ndarray:
    """Paint an object ``kind`` ("pen", "phone" or "lid") lying on the square-on ``board``
    over some of its ``n`` lines' points (``cell`` px apart from ``margin``); returns how
    much it covers each pixel of the board, 0 to 1."""
    mask: np.ndarray = np.zeros(board.shape[:2], np.float32)
    at = margin + cell * rng.uniform(0.2, 0.8, 2) * (n - 1)
    angle = rng.uniform(0, np.pi)
    along = np.array([np.cos(angle), np.sin(angle)])
    if kind == "pen":
        half = along * cell * rng.uniform(2.5, 4.0)
        a, b = tuple(int(v) for v in at - half), tuple(int(v) for v in at + half)
        thick = max(2, int(cell * rng.uniform(0.25, 0.35)))
        body = [(150, 60, 20), (30, 30, 30), (40, 40, 190), (190, 190, 190)][rng.integers(4)]
        cv2.line(mask, a, b, 1.0, thick)
        cv2.line(board, a, b, body, thick, cv2.LINE_AA)
        cv2.line(board, a, b, tuple(min(255, 1.6 * v + 40) for v in body), max(1, thick // 4),
                 cv2.LINE_AA)  # the shine along it
    elif kind == "phone":
        box = ((float(at[0]), float(at[1])), (cell * rng.uniform(2.2, 2.6), cell * rng.uniform(4.5, 5.2)),
               float(np.rad2deg(angle)))
        outline = cv2.boxPoints(box).astype(np.int32)
        screen = cv2.boxPoints((box[0], (box[1][0] * 0.88, box[1][1] * 0.9), box[2])).astype(np.int32)
        cv2.fillPoly(mask, [outline], 1.0)
        rim = rng.uniform(60, 180)
        cv2.fillPoly(board, [outline], (rim, rim, rim), cv2.LINE_AA)
        glass = rng.uniform(15, 35)
        cv2.fillPoly(board, [screen], (glass + 10, glass, glass), cv2.LINE_AA)
    elif kind == "lid":
        radius = cell * rng.uniform(2.2, 2.8)
        centre = tuple(int(v) for v in at)
        wood = (rng.uniform(40, 90), rng.uniform(70, 120), rng.uniform(110, 160))
        cv2.circle(mask, centre, int(radius), 1.0, -1)
        cv2.circle(board, centre, int(radius), wood, -1, cv2.LINE_AA)
        cv2.circle(board, centre, int(radius * 0.85), tuple(0.7 * v for v in wood), -1, cv2.LINE_AA)
        for _ in range(int(rng.integers(2, 7))):  # prisoners in it
            r, t = radius * 0.5 * np.sqrt(rng.uniform()), rng.uniform(0, 2 * np.pi)
            grey = rng.uniform(15, 40) if rng.uniform() < 0.5 else rng.uniform(215, 240)
            stone = (int(at[0] + r * np.cos(t)), int(at[1] + r * np.sin(t)))
            cv2.circle(board, stone, int(0.45 * cell), (grey, grey, grey), -1, cv2.LINE_AA)
    else:
        raise ValueError(f"an object on the board is a pen, a phone or a lid, not {kind!r}")
    return mask


def _surface(rng: np.random.Generator, kind: str, shape: tuple[int, int]) -> np.ndarray:
    """What the board lies on, (H, W, 3) float BGR: a "dark table", a "light table" or a
    "grey floor" of tiles."""
    if kind == "dark table":
        return _grained(rng, shape, np.array([rng.uniform(20, 40), rng.uniform(30, 55),
                                              rng.uniform(45, 85)]))
    if kind == "light table":
        return _grained(rng, shape, np.array([rng.uniform(120, 170), rng.uniform(165, 200),
                                              rng.uniform(195, 235)]))
    if kind == "grey floor":
        h, w = shape
        grey = rng.uniform(150, 195)
        out: np.ndarray = np.empty((h, w, 3), np.float64)
        out[:] = grey * np.array([rng.uniform(0.97, 1.03), 1.0, rng.uniform(0.97, 1.03)])
        out += cv2.GaussianBlur(rng.normal(0, 6, shape), (0, 0), 1.5)[:, :, None]
        tile = rng.uniform(0.25, 0.45) * min(shape)
        x0, y0 = rng.uniform(0, tile, 2)
        for x in np.arange(x0, w, tile):  # the grout between tiles
            cv2.line(out, (int(x), 0), (int(x), h), (0.8 * grey,) * 3, 2)
        for y in np.arange(y0, h, tile):
            cv2.line(out, (0, int(y)), (w, int(y)), (0.8 * grey,) * 3, 2)
        return out
    raise ValueError(f"a surface is a dark table, a light table or a grey floor, not {kind!r}")


def _feet(rng: np.random.Generator, img: np.ndarray, corners: np.ndarray, cell: float) -> None:
    """Paint two to four feet (``cell`` px a board's cell there) on the table or floor
    ``img``, each beside a side of the board whose wood corners (4, 2) are given, toes to
    the edge, pointing at the board (the board drawn later covers what lies under it)."""
    centre = corners.mean(axis=0)
    for k in rng.choice(4, size=int(rng.integers(2, 5)), replace=False):
        a, b = corners[k], corners[(k + 1) % 4]
        toe = a + (b - a) * rng.uniform(0.2, 0.8)
        out = (toe - centre) / (np.linalg.norm(toe - centre) + 1e-9)
        length, width = cell * rng.uniform(9, 12), cell * rng.uniform(3.5, 4.5)
        mid = toe + out * (length / 2 - cell * rng.uniform(0.0, 0.5))
        angle = float(np.rad2deg(np.arctan2(out[1], out[0])))
        colour = [(rng.uniform(20, 60),) * 3, (rng.uniform(200, 240),) * 3,
                  (rng.uniform(120, 170), rng.uniform(150, 190), rng.uniform(200, 235)),
                  tuple(rng.uniform(40, 200, 3))][rng.integers(4)]  # dark, white, bare, any
        cv2.ellipse(img, ((float(mid[0]), float(mid[1])), (length, width), angle),
                    tuple(float(v) for v in colour), -1, cv2.LINE_AA)


def _sun(rng: np.random.Generator, img: np.ndarray, corners: np.ndarray) -> None:
    """Light ``img`` with two or three warm, sharp-edged patches of sunlight (window panes
    seen slanted) falling across the board whose corners (4, 2) are given."""
    h, w = img.shape[:2]
    lit: np.ndarray = np.zeros((h, w), np.float32)
    span = _side_seen(corners)
    slant = rng.uniform(-0.6, 0.6)
    for _ in range(int(rng.integers(2, 4))):
        at = corners.mean(axis=0) + rng.uniform(-0.4, 0.4, 2) * span
        pw, ph = span * rng.uniform(0.15, 0.35), span * rng.uniform(0.2, 0.5)
        pane = np.array([[0, 0], [pw, 0], [pw + slant * ph, ph], [slant * ph, ph]]) + at
        cv2.fillPoly(lit, [pane.astype(np.int32)], 1.0, cv2.LINE_AA)
    lit = cv2.GaussianBlur(lit, (0, 0), 1.5)
    gain = rng.uniform(1.5, 1.9) * np.array([0.9, 1.0, 1.08])
    img *= 1 + lit[:, :, None] * (gain - 1)


def _flash(rng: np.random.Generator, img: np.ndarray, corners: np.ndarray) -> None:
    """Add a flash's hot spot to ``img`` on the board whose corners (4, 2) are given: a
    small core past white and a wide halo."""
    h, w = img.shape[:2]
    span = _side_seen(corners)
    at = corners.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * span
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    r2 = (xx - at[0]) ** 2 + (yy - at[1]) ** 2
    core, halo = span * rng.uniform(0.04, 0.08), span * rng.uniform(0.15, 0.3)
    img += (rng.uniform(150, 250) * np.exp(-r2 / (2 * core ** 2))
            + rng.uniform(40, 80) * np.exp(-r2 / (2 * halo ** 2)))[:, :, None]


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
