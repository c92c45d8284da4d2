"""Camera frames to board readings: find the board and its grid in a photo with no corners
given by hand, decide its size, and read every intersection.

    reading = vision.read_board(cv2.imread("board.jpg"))
    print(reading.position.diagram())

Stages, one module each: `locate` (grid and homography: it gathers grid candidates from
`grid_candidates`, `lines`, `stone_lattice` and `outline`, scores them with `grid_score`,
refines them with `grid_refine` and keeps the best), `illuminant` (the grey `read_board`
looks in again when a lamp or too bright an exposure hid the board), `stones` (intersections),
`reading` (the API), `synth` (rendered boards with exact ground truth, for tests),
`overlay` (the picture a user checks). Thresholds live in `config`.
"""

from .errors import BoardNotFound, VisionError
from .grid import GridFit
from .locate import locate
from .reading import Reading, read_board

__all__ = ["BoardNotFound", "GridFit", "Reading", "VisionError", "locate", "read_board"]
