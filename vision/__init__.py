"""Camera frames to board readings: find the board and its grid in a photo with no corners
given by hand, decide its size, and read every intersection.

    reading = vision.read_board(cv2.imread("board.jpg"))
    print(reading.position.diagram())

Stages, one module each: `locate` (grid and homography; `lines` and `stone_lattice` for
boards whose net of lines is broken or hidden under stones), `stones` (intersections),
`reading` (the API), `synth` (rendered boards with exact ground truth, for tests),
`overlay` (the picture a user checks). Thresholds live in `config`.
"""

from .errors import BoardNotFound, VisionError
from .locate import GridFit, locate
from .reading import Reading, read_board

__all__ = ["BoardNotFound", "GridFit", "Reading", "VisionError", "locate", "read_board"]
