"""Every threshold of the pipeline in one place, so a change is a change to one value.

Lengths given in *cells* are fractions of the spacing between two grid lines; lengths in
pixels refer to the working image that `locate` downscales to.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the type only: config imports nothing of the pipeline
    from .calibration import Calibration

SIZES: tuple[int, ...] = (9, 13, 19)
"""The board sizes vision decides between."""


@dataclasses.dataclass(frozen=True)
class LocateConfig:
    """Thresholds of board and grid location (`vision.locate` and its stages:
    `vision.grid_candidates`, `vision.grid_refine`, `vision.grid_score`, `vision.lines`,
    `vision.stone_lattice`)."""

    work_side: int = 1024
    """The longer side of the working image, in pixels (smaller images are not enlarged,
    but see `work_least`)."""
    work_least: int = 512
    """A picture whose longer side is under this many pixels (half `work_side`), where no
    board is found in it, is looked at again enlarged by the least whole factor that takes
    it there (`vision.reading.located`). The working image's sizes in pixels (a stone's
    centre `stone_peak_depth` px inside the dark, `stone_open`, lines 1 to 3 px wide) hold
    for a working image of half `work_side` to all of it; a 19x19 board filling a picture
    of 213 px has cells of 10 px, its black stones no deeper than 5 px and, blurred and
    thresholded, most under `stone_peak_depth`: the stones that would place it are lost.
    A whole factor keeps every line as wide as its neighbours (a fractional one samples
    1 px lines into uneven widths). Only where nothing is found: a board found in the
    picture as taken is its own."""
    line_block: int = 15
    """Neighbourhood (px, odd) of the adaptive threshold that marks dark grid lines."""
    line_offset: float = 6.0
    """How much darker than its neighbourhood (grey levels) a pixel must be to be line."""
    min_holes: int = 12
    """A component with fewer enclosed cells than this is not a grid."""
    rectified_side: int = 600
    """Side (px) of the square the first quadrilateral is rectified to for the 1D lattice fit."""
    rectified_margin: int = 60
    """Margin (px) around that square, where outer lines may lie if the quad was too small."""
    refine_cell: int = 24
    """Cell (px) of the rectified image used to refine the grid."""
    refine_passes: int = 3
    """Refinement passes (each re-measures every intersection and refits the homography)."""
    refine_window: float = 0.35
    """Half-width (cells) of the window in which an intersection is looked for."""
    refine_settled: float = 0.01
    """Refinement stops once a pass moves no intersection by this much (cells)."""
    inlier_threshold: float = 0.12
    """Reprojection error (cells) under which an intersection counts as an inlier. So too a
    grid picked in doubt (by the point net, the stones or the lines' other starts) that
    refining moves by no more than this (`vision.locate`) lies on its lines already: the
    move is the measurement's noise, and is not taken."""
    grow_cell: int = 16
    """Cell (px) of the rectified view in which the lattice is grown to the whole grid."""
    grow_ratio: float = 0.5
    """A line beyond the lattice is taken if its evidence reaches this share of the inner
    lines' (both the line itself and the crossing lines running into the gap)."""
    edge_ratio: float = 0.25
    """An outer line whose crossing lines reach it with less than this share of the inner
    lines' evidence is an edge (of the board, of a table), not a grid line."""
    slide_ratio: float = 0.5
    """On a lattice as long as a board's, an outer line crossed into with less than this
    share of the evidence for the line beyond the opposite side is dropped (then that line
    taken): the lattice was a line off."""
    runs_on_weight: float = 2.0
    """A grid's confidence is its lattice score times (1 - this x how far the grid runs on
    past its outer lines): a patch of a bigger grid, or a lattice of the wrong size that
    some lines fit, loses to the whole grid. Picking the most confident of every candidate
    grid on the 362 photos with known corners, weights 0, 1, 2 and 3 picked a right grid on
    337, 347, 347 and 347 (347 have one); the wrong picks' 90th percentile fell from 0.77
    to 0.30, 0.17 and 0.13, the right picks' 5th from 0.48 to 0.44, 0.41 and 0.39. (Those
    figures were taken with `thin_lines` dropping blobs three pixels thick; it drops five
    now, which blurred lines need: on the real photos that lost one Roboflow board, 256 to
    255 found.)"""
    outer_drawn: float = 0.25
    """A grid whose second weakest outer line is drawn less than this share as plainly as
    its inner lines (median) scores less in proportion (`vision.grid_score.lattice_score`); 0
    switches the test off. On the real photos the grids found have their weakest at 0.43
    and more; seen from 65 degrees the far edge line may not show at all."""
    min_confidence: float = 0.2
    """Below this confidence the board counts as not found. Of the grids picked on those
    photos, the right ones scored at least 0.20, all wrong ones but three under 0.19."""
    net_looks: int = 4
    """Where no grid is as sure as ``recheck_below``, the point net looks at the grids
    weighed (`vision.locate.net_judged`): the one chosen and the next most confident, no
    two one grid, this many in all (a look costs about a stone reading); 0 leaves the
    lines and stones to decide alone."""
    net_stone_looks: int = 2
    """...and besides those, it looks at this many more of the grids weighed: the ones with
    the most of the black stones on their points (`vision.grid_score.on_points`), no two
    one grid. On a board so crowded its lines hide, the lines' and stones' confidence is
    0 for every grid (the lines show nowhere; the stones vouch only where the lines can
    choose), so the most confident are the first found, patches and grids across the
    table; but every stone lies on a point, and a grid of the board's own lattice, at its
    phase or a line off it (which one look at it also weighs), holds most of them (crowded
    boards seen from 60 degrees under a lamp: 0.60 to 0.68 of them; the grids across the
    table and the patches, 0.25 and under). Two: the board's lattice at two phases."""
    net_over: float = 0.2
    """The point net's pick among those grids replaces the one the lines and stones chose
    only where it believes it this much more (`vision.point_net.belief`, 0 to 1): a grid
    the net is unsure of is kept as the lines found it."""
    net_trusted: float = 0.5
    """The point net's belief in a grid counts only from this on (`vision.point_net.belief`,
    a product of geometric means): where the mean point of the grid is likelier an
    intersection of the board than not, and the mean place beyond its weakest side likelier
    none. Under it the net is as unsure as not that the grid is the board's, and says
    nothing of it by itself; it may still say, with the black stones, where their lattice
    ends (how much more it believes a grid than the one a line inwards: a difference of
    its beliefs, no threshold; `vision.locate._net_ends`)."""
    recheck_below: float = 0.4
    """A grid found around the net of lines with less confidence than this (or none) is
    weighed against the other sizes around the net, and every size around the net's cells
    and inside the board's outline from its two families of straight lines
    (`vision.lines`), in that order; the most confident is kept, and the first as confident
    as this ends the search. On the 79 real photos that take this path, ending it there
    took 35% less time over them and changed one pick, to another right grid 0.1 cell
    from it (imago t1_006)."""
    outline_reach: tuple[float, float] = (1.15, 0.15)
    """(inside, outside): how far (cells) the grid's outer lines may lie inside and outside
    that outline (the board's edge, a cell or less outside the grid)."""
    segment_min: float = 0.03
    """Straight segments shorter than this share of the image's longer side are ignored."""
    vanishing_tolerance: float = 1.5
    """Degrees by which a segment may miss its family's vanishing point."""
    vanishing_trials: int = 300
    """RANSAC trials (pairs of segments) per vanishing point."""
    family_share: float = 0.05
    """A family of lines must hold at least this share of the segments' total length."""
    segments_min: int = 8
    """With fewer straight segments than this there are no two families of lines to trust:
    a board seen whole shows its four edges and, in each family, lines between them."""
    families_apart: float = 0.2
    """The two families' directions, made parallel, differ by at least the angle whose sine
    is this (about 12 degrees): nearer, they are one family split by noise, and the
    quadrilateral they span would be a sliver."""
    outline_percentiles: tuple[float, float] = (1.0, 99.0)
    """The outline spans these percentiles of the families' segment ends (strays cut)."""
    stone_min_area: int = 40
    """Dark blobs smaller than this (px) are not weighed as stones (`vision.stone_lattice`,
    looked at when no grid of lines is as sure as ``recheck_below``)."""
    stone_solidity: float = 0.93
    """A dark blob whose area is at least this share of its convex hull's is a stone
    standing alone (two discs touching fill 0.88), which tells the stones' size and shape
    (an ellipse under perspective)."""
    stone_shape_min: int = 12
    """With fewer stones standing alone than this, the stones' size is taken to be the same
    across the photo (too few to tell how perspective changes it)."""
    stone_highlight: float = 0.0005
    """Holes in a dark blob up to this share of the image are a highlight on a black stone,
    and filled (a stone of a 19x19 board filling the picture takes about 0.002)."""
    stone_min_round: int = 4
    """Fewer stones standing alone than this tell no radius: no grid from the stones."""
    stone_peak: tuple[float, float] = (0.7, 1.35)
    """A black stone's centre is a peak of the distance transform at least the first times
    the stones' minor semi-axis there, and under the second times their major one."""
    stone_darker: int = 6
    """A black stone's centre is also at least this many grey levels darker than the
    threshold that splits black stones from wood (a dark cloth's grain is not)."""
    stone_axes_apart: float = 55.0
    """The lattice's two directions are at least this many degrees apart in the photo."""
    stone_reach: tuple[float, ...] = (1.5, 3, 4.5, 6, 9, 13, 20, 30)
    """Cells from the first stone within which stones are numbered and the map to pixels
    refitted, pass by pass: an affine map up to 4.5 cells, a homography beyond (perspective
    learnt near the first stone before far stones are numbered)."""
    stone_seeds: int = 3
    """The stones' lattice is grown from each of this many stones with the most neighbours,
    and the one through the most stones kept."""
    stone_seeds_apart: tuple[int, float] = (2, 4.0)
    """And from this many more, each the stone with the most neighbours at least this many
    cells from every seed before it. On synthetic boards 75% taken, over 15 scenes from
    above to 65 degrees, this found 2 boards more (a hand over one seen from 45 degrees, a
    13x13 from above) and lost none; spread seeds alone, without the 3 most crowded, lost
    2."""
    stone_fit_residual: float = 0.2
    """A stone this many cells or less from a lattice point of the fit lies on it."""
    runs_on_shift: float = 0.5
    """Past an outer line of a grid the stones vouch for, thin lines drawn across the cell
    beyond at this share or more of the inner cells' (`edge_shares`) are the board's grid
    going on: the grid is a whole line off, which the stones, on points either way, cannot
    tell. The grid a line over that way is taken instead if none of its four outer lines
    has lines running on past it at this share: a board's grid ends at its outer lines, so
    a grid still running on after the move is not the board's own either. Half way between
    a grid ending (near 0) and going on (near 1). At 35% scale, Roboflow photo 93's grid a
    line off ran on at 2.28 past one outer line and the board's own at 0 on all four."""
    shift_share_least: float = 0.85
    """...and only a grid with at least this share of the stones' centres on its points is
    so moved. A grid a whole line off is the stones' own lattice in the wrong phase, every
    stone but those on the line it missed on one of its points; a grid with more than one
    stone in seven off its points is bent or askew instead (a corner a line off, the
    opposite one right), and moving it a line puts another part of it off. The few off
    points on a right grid are dark blobs the stone finder takes for stones: a bowl's rim,
    a hand's shadow. (Of the perturbed Roboflow readings a move changed, the 3 whose grid
    it mended had 0.89 to 0.92 of the stones on the points; the 4 it broke had 0.63 to
    0.74, askew fits of crowded boards bent by the lens, one of whose own grid holds 0.78;
    one at 0.70 to 0.78 it mended by 7 points, which this gives up.)"""
    shift_share_slack: float = 0.02
    """...and if the share of the stones on its points is no more than this under the
    grid's. The board's own grid moved a line loses the stones on the outer line it leaves
    (a row of a crowded board holds a few hundredths of its stones or more), while a grid
    a line off gains those on the line it missed; this much allows a stone or so in fifty
    read off its point at the far side, where a lens bends the lattice."""
    stone_window_slack: int = 2
    """The board's window of the stones' lattice is the one holding the most stones, or up
    to this many fewer (stones off the board, or a stray, may tip the count): each such
    window is grown and scored, and the most confident kept."""
    stone_windows: int = 3
    """At most this many such windows are tried."""
    stone_placements: int = 4
    """Where a board of the size the stones need can lie around them in at most this many
    places, each is grown and scored (a board whose stones reach all its edges but one
    lies in two); else one square centred on the stones is, and its lines decide."""
    stone_blur: float = 1.0
    """Gaussian sigma (px) with which the working image is smoothed before black stones are
    split from the wood: single dark pixels of grain, noise or JPEG blocks merge into what
    surrounds them; a stone (8 px and more across) keeps its dark."""
    stone_histogram_scale: float = 0.25
    """The three-class split (black stones, wood, white stones) is taken from the smoothed
    picture shrunk by this factor: each class covers large areas, so the histogram keeps
    its shape at a sixteenth of the pixels."""
    stone_open: int = 2
    """Radius (px) of the disc with which the dark mask is opened: printed lines (1 to 3 px
    wide in the working image) and thin grain fall out of it, stones stay."""
    stone_peak_window: int = 3
    """Radius (px) of the disc within which a stone's centre is the deepest point of the
    distance transform: the ridge of two stones touching rises to one peak per stone."""
    stone_peak_depth: float = 4.0
    """A stone's centre lies at least this many px inside the dark: smaller dark blobs are
    crossings of lines or specks, and stones that small could not be read anyway."""
    stone_centres_apart: float = 1.2
    """Of two peaks nearer than this many times the stones' major semi-axis (measured with
    the stones made round) only the deeper is a stone's centre: stones touching lie two
    semi-axes apart, one stone's flat top gives peaks a fraction of one apart."""
    stone_size_spread: float = 0.4
    """A lone dark blob whose minor semi-axis is off the median by more than this share of
    it is no stone (bowls, lids, a dark patch of the table): all stones of a set are made
    alike. This first guess keeps the stones the size across the photo is fitted to
    (``stone_size_fit``)."""
    stone_size_fit: tuple[int, float] = (3, 0.2)
    """The stones' size across the photo is fitted this many times, each time to the lone
    stones within the second share of it: perspective changes a stone's size smoothly
    (an affine function of the position), a stone's own outline by a few px."""
    stone_neighbour: tuple[float, float] = (0.75, 1.35)
    """Two stones this many cells apart (shares of the lattice's step) are neighbours along
    a step: next points lie a step apart, diagonal ones 1.41 (left out), and perspective
    and stones off their points change a step by up to a quarter."""
    stone_min_count: int = 6
    """The fewest neighbour pairs, or stones on a lattice, from which a lattice's steps,
    spacing or map are taken: a homography needs four points, two more outvote a stone
    off its point."""
    stone_axis_window: tuple[int, float] = (3, 12.0)
    """The neighbour pairs' directions (a histogram of one-degree bins) are smoothed over
    this many bins either way, and the pairs within the second many degrees of a chosen
    direction give its step: perspective turns one axis's steps across a board, and
    stones a little off their points turn single pairs further."""
    stone_step_turn: float = 15.0
    """At a seed stone, its neighbours within this many degrees of a lattice axis give the
    step along it: under perspective the steps there differ from the photo's median ones
    (`lattice_axes`), which serve only to tell the two axes apart."""
    stone_crowd: float = 3.2
    """Stones within this many cells of a stone count towards how crowded it is: the seeds
    the lattice is grown from are the most crowded (points up to three steps away)."""
    stone_grow_residual: float = 0.25
    """While the lattice is grown, a stone this many cells or less off its nearest lattice
    point is numbered: looser than ``stone_fit_residual``, since the map is still rough."""
    stone_affine_reach: float = 4.5
    """Up to this reach (cells, see ``stone_reach``) the map is refitted as an affine one:
    stones that near the seed show too little perspective to fit a homography to."""
    stone_widen_below: float = 3.0
    """With too few stones within a reach under this (cells), the next reach is tried: the
    seed's nearest neighbours may be empty points."""
    stone_adjacent: tuple[float, float, float] = (1.6, 3.2, 2.1)
    """The lattice's spacing is the median distance from a stone to its nearest neighbour,
    among those the first to the second many stone radii away (stones on adjacent points:
    a stone's radius read off a threshold may be a quarter short, and stones do not touch
    exactly); with too few such pairs it is the third many radii (stones a little apart)."""
    stone_min_span: int = 4
    """Stones spanning fewer cells than this give no starting grid: a lattice that small
    fits a patch of anything dotted."""
    stone_on_share: tuple[float, float] = (0.5, 0.5)
    """A grid the stones vouch for has more than the first share of the stones' centres on
    its points (most of them); and past each outer line they reach, fewer than the second
    share as many stones as on that line (else the dotted lattice goes on past it: a
    pegboard, a patterned cloth)."""
    # The net of lines and the lattice fitted in it (`vision.grid_candidates`).
    hole_min_area: int = 9
    """Holes of the line mask smaller than this (px) are specks between marks, not cells: a
    cell under 3 px a side could not be read anyway."""
    alike_area: float = 2.5
    """Holes within this factor of the commonest cell area (either way) are cells of one
    grid: seen from 60 degrees a board's far cells are about half as large as its near ones,
    and stones biting a cell shrink it further."""
    cell_fill: float = 0.7
    """A hole is a grid cell only if it fills at least this share of its rotated bounding
    box: a cell is a quadrilateral, convex under any perspective (fill near 1); the holes
    between stones and lines are ragged."""
    cell_bins: int = 24
    """Bins of the histogram of the holes' log areas whose fullest bin (weighted by area) is
    taken as the cells' area: with `alike_area` 2.5 wide either way, finer bins than the
    spread of one grid's cells."""
    net_candidates: int = 12
    """Only this many largest connected pieces of the line mask are weighed as the net: a
    board's grid is one of the largest pieces in any picture of a board."""
    net_min_span: float = 0.08
    """A piece of the line mask both narrower and lower than this share of the picture is no
    board's grid: a board that small has cells too small to read."""
    quad_epsilon: tuple[float, float, int] = (0.01, 0.15, 29)
    """The net's convex hull is simplified to four corners with tolerances from the first to
    the second share of its perimeter, in this many steps; the first tolerance that leaves
    four corners is kept (the least bent; stones on the edge bulge a hull by far less than
    the second)."""
    comb_steps: tuple[float, float] = (0.25, 0.5)
    """Steps (px of the rectified view) of the spacings and the offsets of the lattices the
    comb tries: a line is 2 to 3 px wide there and blurred, so the best tried lies within a
    fraction of a line's width of the best of all."""
    between: tuple[float, ...] = (0.5, 1 / 3, 2 / 3, 0.25, 0.75)
    """Where between two lattice lines a lattice two, three or four times too coarse has its
    other lines: the right lattice has troughs at all of them (`comb_fit`,
    `lattice_score`)."""
    fit_straight: float = 0.02
    """In the rectified square (``rectified_side`` px) a dark run this share of its side long
    along an axis is a piece of grid line: under half a 19x19 cell, so lines broken by
    stones count, and stones' round rims, text and specks do not."""
    fit_strips: int = 3
    """Besides the whole rectified view, each axis is projected in this many strips across
    it: a quad slightly off tilts the lines, which smears a fine lattice's peaks in the
    whole view's projection but not in a strip's."""
    fit_blur: float = 1.5
    """Gaussian sigma (px) with which the projected profiles are smoothed: lines 2 to 3 px
    wide become one peak each, well apart at the rectified cell (over 30 px)."""
    score_scale: float = 4.0
    """A lattice's score (its lines' profile less the in-between, over the profile's spread)
    divided by this is its confidence, clipped to [0, 1]: a plain grid's lines stand about
    four spreads above the in-between."""
    min_cells: int = 4
    """With fewer holes like grid cells than this the net's cells give no quadrilateral of
    their own: one cell near each corner of the grid is the fewest that span it."""
    comb_lookup: float = 0.25
    """The profiles are looked up at this step (px of the rectified view), every lattice
    line's position rounded to it: on a profile blurred over several px (``fit_blur``) as
    good as interpolating, and a table lookup instead."""
    # Refinement (`vision.grid_refine`).
    peak_min: float = 0.25
    """A window's profile across a line whose maximum is under this (share of the window's
    length drawn as straight line) holds no line: a stone or bare wood is there."""
    refine_straight: float = 1 / 3
    """Dark runs at least this many cells long are line in the refining view: a cross of
    lines runs through the whole window (0.7 cell), a stone's rim is curved."""
    refine_solid: float = 0.6
    """A window at an intersection more than this share dark is a black stone, not a cross
    of lines (two lines cross a window 0.7 cell wide on a fifth of it or so)."""
    refine_min_points: int = 8
    """With fewer intersections measured than this the homography is not refitted: it has 8
    parameters, and outliers must be outvoted. (So too with fewer black stones near their
    points, `vision.locate._through_stones`.)"""
    gap_clear: float = 0.25
    """The share of a cell kept clear at either end of the gap between two lines when how
    far the crossing lines run on into it is measured: the lines' own width and blur, and
    the rims of stones on the points, lie there."""
    grow_straight: float = 0.5
    """Dark runs at least this many cells long are line while the lattice is grown: the line
    beyond crosses a whole cell, a stone's rim does not run that straight."""
    drop_min_span: int = 4
    """An outer line is dropped only from a lattice more than this many cells across:
    fewer inner lines than that give no median to weigh the outer ones by."""
    evidence_band: int = 1
    """Half-width (px) of the band across a line in which its evidence is taken while the
    lattice is grown (a cell ``grow_cell`` px): a printed line there is 1 to 3 px wide and
    may lie a pixel off the lattice's line."""
    # Scoring (`vision.grid_score`).
    thin_blob: int = 5
    """Parts of the line mask this many px thick (a square opening) are solid blobs, stones'
    rims and shadows, not printed lines, which are 1 to 3 px wide in the working image and
    the scoring view; blurred lines need 5 (see ``runs_on_weight``)."""
    score_straight: float = 0.75
    """Dark runs at least this many cells long are line in the scoring view: a line runs on
    across every cell, stones' rims and text do not."""
    score_blur: float = 1.0
    """Gaussian sigma (px) with which the scoring view's profiles are smoothed (a cell is
    ``grow_cell`` px, a line 1 to 2)."""
    net_reach: tuple[float, float] = (0.6, 0.15)
    """(inside, outside): how far (cells) the outer lattice lines may lie inside and outside
    the quad around the net of lines (stones on the edge widen it by up to half a cell): see
    `vision.grid_candidates.comb_fit`."""
    cells_reach: tuple[float, float] = (0.15, 1.15)
    """The same around the net's cells (stones on the edge hide the outermost ones)."""
    phase_over: float = 0.3
    """A grid trusted under ``recheck_below`` is moved a line along one axis where the wood
    beyond the moved grid's outer lines speaks for it this much more than beyond the
    grid's own (1 lowered by its margin and lopsided doubts, weighed as in
    ``doubt_weights``: `vision.reading._in_phase_with_margins`). A board is cut symmetric,
    with half a cell of wood or more beyond every outer line, so a grid a row off has the
    slab's edge or the table beyond one outer line and more than a cell of wood beyond the
    other, and its margins speak against it; on the board's own grid they speak for it,
    and against each of its moves. On the scenes' aimed rows (168 boards, read before
    this step), no move of a right grid raised what its margins say (at best by -0.14:
    wood read unlike the board's inside under a lamp); the grids a row off that a move
    put right gained 0.68 and 0.70."""
    phase_reach: int = 2
    """A grid trusted under ``recheck_below`` whose corner lies past the picture's edge may
    be moved up to this many lines, into a grid lying inside the picture, where the wood
    beyond its outer lines or the drop in its lines running past them
    (`vision.grid_score.BoardDoubts.runs_past`) speaks for it by ``phase_over`` and the
    other does not speak against it (`vision.reading._in_phase_with_margins`). Where the
    picture cuts a margin off, no wood shows on that side to stop a first look placing the
    grid out past the picture's edge, and the stones, repeating every cell, vouch for it a
    row or two out as well; but the picture shows the board's own lines running on past
    the grid's outer line on the side it does show. A move into the picture from a grid
    already inside it is never looked for beyond one line: there the wood can point rows
    the wrong way (a landscape board under a lamp: +0.48 for a grid two rows off). Handed
    grids two lines off on the crowded 45- and 50-degree scenes
    (`benchmarks/vision_phase.py`), a reach of 2 moves 68 of 160 home and 1 moves none;
    both move the same 2 a line further off (by a one-line move)."""
    doubt_weights: tuple[float, float, float] = (2.0, 0.5, 1.0)
    """How much each of a grid's `vision.grid_score.BoardDoubts` (runs past, margin,
    lopsided) lowers the board confidence `read_board` reports (`vision.grid_score.trusted`:
    the confidence times (1 - weight x doubt) for each); none decides which grid `locate`
    finds, but `vision.reading.locate_in_any_light` weighs its look as taken against the
    neutral light's by them (a grid lowered under ``recheck_below`` is looked for again).
    Runs past and margin: On 252 right boards found in the dev photos (untouched and
    perturbed) and 140 wrong placements of 20 of them (shifted a line each way, 9x9 and
    13x13 patches of a 19x19), the grids' own confidence put 79 wrong placements at 0.2 or
    more; (1, 0) left 3, (2, 0) and (2, 0.5) 1, (1, 1) none but put 3 more right boards
    under 0.2 (a dark colour cast makes the margin unlike the board's inside). On every
    other photo `benchmarks/vision_confidence.py --placements` reads: 301 of 644 wrong
    placements at 0.2 or more before, 2 after; the 77 right boards all stay at 0.2 or
    more. Lopsided (past ``lopsided_allow``): a board is cut symmetric, its wood the same
    all round, so the bands just beyond two opposite outer lines look alike on the board's
    own grid; a grid a row off (a crowded board's stones repeat every cell and vouch for it
    almost as well) puts one of those bands on the slab's edge or the table and the other
    on wood. On the row-off grid of a steep full synthetic board (the scenes' "aimed phone
    50, full, lamp, exposure, resaved", seed 3) the bands differ by 0.72, and its
    confidence 0.36 falls under 0.2 at weight 1; the board's own grid there differs by
    0.16."""
    run_min: int = 3
    """A straight run of the line mask is at least this many px long however short the
    length asked for (`vision.grid_candidates.straight_parts`): a printed line is 1 to 3 px
    wide, so a shorter run along it cannot tell a line from a dot or a line crossing it."""
    grow_passes: int = 2
    """The lattice is grown (`vision.grid_refine.grow`) for at most this many passes per
    line of the largest board: each pass takes or drops one outer line, and a net found on
    a corner of the board grows to the whole grid along both axes in fewer."""
    margin_band: tuple[float, float] = (0.25, 0.6)
    """The band beyond a grid's outer line (cells from it, `vision.grid_score._margin_wood`)
    whose grey tells whether the board's wood goes on there: past the line's width and
    blur and the rim of a stone on the line, and within the margin every board has past
    its outer line (half a cell or more; 0.6 on a standard board)."""
    # The image the lines are looked for in (`vision.locate.line_image`).
    ceiling: int = 254
    """A level at or above this is at the sensor's ceiling (255, or 254 where JPEG rounding
    leaves it), as ``LightConfig.clip_level`` says: it carries no contrast."""
    board_window: float = 0.5
    """The middle of the picture, this share of its width and of its height, is where the
    board lies in a photo aimed at it (every board the reader looks for fills more than a
    quarter of the frame's area and is framed round its centre): how clipped the board's
    wood is is read there, not on a bright wall or floor around it."""
    clipped_board: float = 0.25
    """Where this share or more of `board_window` is at the ceiling in grey, or in one
    colour channel, the exposure clipped the wood itself, and the grid lines drawn on it
    may be gone from the grey (their contrast under ``line_offset``): the colour channel
    that clips least there, which a sensor clips on its own and which may still record the
    ink, is weighed against it (``channel_lines``). A lamp's colour clips one channel, not
    the grey, but the grey mixes that channel in (green is nearly three fifths of it), so
    the clipped channel's share of the lines' contrast is gone from the grey all the same.
    A well-exposed board is at the ceiling only where white stones and glints are (a tenth
    of the middle at most in photos from four sources): under a quarter the grey is kept
    as it is."""
    channel_lines: float = 1.25
    """Clipped wood does not mean clipped lines: dark ink stays under the ceiling while the
    wood between reaches it. So the least clipped channel is taken only where it shows
    clearly more of the net of lines than the grey (its `line_mask` marks this many times
    as much of `board_window` in the working image): there the ceiling took lines from the
    grey that the channel kept. Where the grey's lines show as well (within a quarter, what
    noise and the channel's own weaker contrast change), the grey is kept: a channel alone
    is noisier, and shows a board's printed border line as plainly as its grid."""
    ceiling_noise: float = 1.0
    """The noise (grey levels) of wood an exposure took to the sensor's ceiling: none of
    the sensor's, which the clipping removed, only the ceiling's rounding (255 or 254 after
    JPEG, as ``ceiling`` says). A dip this deep under such a plateau is a line as surely
    as one ``line_offset`` deep on wood that kept its noise, so the levels under the
    ceiling are spread by ``line_offset / ceiling_noise`` (`vision.locate.ceiling_dips`)
    where no single channel kept the lines."""
    all_clipped: float = 0.8
    """Where every channel is at the ceiling over this share or more of the middle the grey
    lost (``clipped_board``), at the same pixels, no channel kept the wood's contrast there:
    the lines are left only as dips under the plateau (`vision.locate.ceiling_dips`). The
    same tolerance as ``channel_lines`` (four fifths is within a quarter of the whole):
    where a channel kept a fifth or more of the wood the grey lost, the grey's lines or
    that channel's are left to show the grid, as a board lit past its exposure in one
    colour does."""
    lopsided_allow: float = 0.35
    """Opposite margin bands of a board's own grid differ by up to this share of the
    brighter (`vision.grid_score._lopsided`) without doubt: a lamp's fall-off across the
    board and a steep view (the near band nearer the slab's lit front face, the far one
    foreshortened to a few pixels) part them; right grids of steep crowded synthetic
    boards show up to 0.32. Only the difference past this counts, scaled to [0, 1]."""


@dataclasses.dataclass(frozen=True)
class StoneConfig:
    """Thresholds of stone reading (`vision.stones`)."""

    cell: int = 32
    """Cell (px) of the rectified colour image stones are read from."""
    stone_radius: float = 0.30
    """Radius (cells) of the disc sampled at an intersection."""
    stone_lift: float = 0.2
    """Height (cells) above the board at which a stone's body is looked for: its middle
    (a stone is about 0.4 cell thick). There the sample is as far as it can be from both
    the body of the stone in front, leaning over the point, and the base of the one behind
    (on synthetic boards seen from 65 degrees, 99.38% of the intersections right against
    96.68% at 0.35). On the real photos 0.2, 0.25 and 0.35 left 11, 11 and 12 of 17,358
    intersections wrong."""
    disc_apart: float = 0.03
    """A point read as a stone is read surely only if one at least of the four cell centres
    around it differs from it in colour (Lab distance) by this share of the board's wood
    lightness or more (`vision.stones._disc_like`): a stone is a disc, and between discs
    something else shows. On the real photos the nearest centre of a black stone lies
    0.016 off at the least, 0.052 for 99.5% of them, of a white one 0.052 and 0.060; of
    the points under an object lying on synthetic boards that were read as stones, half
    lie 0.000 off, 90% under 0.007."""
    wood_radius: float = 0.12
    """Radius (cells) of the disc sampled at a cell centre, taken as bare wood."""
    black_drop: float = 0.30
    """A point this much darker than the wood around it (share of wood lightness) is black."""
    white_rise: float = 0.08
    """A point this much lighter than the wood (share of wood lightness) may be white."""
    white_floor: float = 0.5
    """A point darker than the wood by this share of `black_drop` is no white stone, whatever
    else tells (`vision.stones._white`): a white stone is lighter than the wood, or as light
    in a shade its neighbours share; this far down it is a shadow, or a stone of the other
    colour caught in light."""
    white_chroma_drop: float = 0.45
    """A point whose chroma falls below this share of the wood's may be white."""
    white_wood_chroma: float = 12.0
    """A point is white by its chroma dropping (`white_chroma_drop`) only where the wood
    around it is at least this coloured (Lab chroma): grey wood, or a grayscale photo, has
    no colour to lose, and on pale wood (chroma 4 to 14 on the real photos) the drop is
    within what noise, JPEG and a white stone's own tint give (white stones there show up
    to 12, bluish in daylight, 25 under a blue lamp). On the real photos 3 white stones
    rely on chroma alone, all on wood of chroma 21; on a grayscale copy of them, without
    this test, 991 empty points read white (16,187 of 17,358 right); with it 15 points are
    wrong, against 4 in colour."""
    wood_colour: tuple[float, float] = (0.8, 25.0)
    """A cell centre at least this share as coloured (Lab chroma) as the board's most
    coloured quarter of centres, and within this many degrees of their hue, is bare wood
    by its colour (black and white stones take the colour out of what they cover). Such
    centres stand in where no centre near a point is clean of stones read so far (a crowded
    board): on synthetic boards 75% full seen from 55 degrees they left 4 points wrong
    against 13, at 0.7 share 8; on the real photos no point changed."""
    wood_colour_min: float = 16.0
    """The chroma (Lab) the board's most coloured quarter of centres must reach for a
    centre's colour to tell wood from a stone (white and black stones have 2 to 6; the
    pale boards of the real photos 4 to 14, stained ones 20 to 60). On such a board a
    centre next to a point whose lines are hidden, with under half that chroma, is taken
    to be under a stone too: a white group then no longer serves as its own wood. (Not
    `bare_wood`'s test: wood in less light loses a third of its chroma and fails it.)"""
    covered_chroma: float = 0.5
    """On a board whose wood has colour (`wood_colour_min`), a cell centre beside a point
    whose lines are hidden is taken to be under a stone if its chroma is under this share
    of the board's most coloured quarter's (black and white stones have 2 to 6, against the
    stained wood's 20 to 60; wood in less light keeps two thirds of its chroma)."""
    wood_passes: int = 2
    """Times each point is judged again against only the cell centres no stone read so far
    reaches over. On the real photos (with `line_seen`) 0, 1, 2 and 3 passes left 19, 17,
    14 and 17 points wrong."""
    resolve_below: float = 0.6
    """A string without liberties is blamed on a misreading only when a stone of it or
    around it was read with less confidence than this; else it is a capture whose stones
    have not been lifted yet (the last photos of both Tengen games show one). On the real
    photos: resolving every such string left 14 points wrong, none 12, under 0.6 or 0.7 12,
    under 0.8 13."""
    set_tint: float = 18.0
    """A point where no cross of lines shows, whose tint (Lab a, b) lies this far off the
    wood's, may hold a stone of a coloured set."""
    set_split: float = 30.0
    """Two clusters of stone colour whose tints lie this far apart (relative to the wood)
    may be a set of two colours. Black and white sets on the real photos lie up to 22.7
    apart (white stones in daylight are bluish), the coloured sets drawn in the tests 38
    and more."""
    black_tint: float = 15.0
    """Stones this near grey (Lab a, b) and darker than those of the other cluster, which
    are lighter than the wood, are black and white whatever their tints' split: on the real
    photos black stones lie within 12 of grey. Also how near grey the darker stones must lie,
    under the light the lighter stones show (`vision.stones._grey_under_lamp`), to be taken
    for black stones under a weak coloured lamp rather than a set coloured like the wood."""
    lighter_black: bool = False
    """In a set of two colours other than black and white, the lighter stones are the first
    player's (black); else the darker are. Black and white sets are read as they are."""
    line_arm: tuple[float, float] = (0.08, 0.30)
    """Stretch of each grid line (cells from the point, both ways) looked at for the cross of
    lines at an intersection: inside where any stone on the point covers the board."""
    line_lean: float = 0.1
    """A stone leaning this far (cells, along a line; see `vision.grid.lift_shift`) off its
    point is seen over one arm of that line only: the other may show under its underside.
    (Seen from 45 degrees, the rim of a stone 0.4 cell thick no longer hides the arm of a
    line on the camera's side; the lift at ``stone_lift`` is then 0.2.)"""
    shadow_arm: float = 1.75
    """The arm of its cross pointing away from a neighbouring stone must show this many
    times `line_seen` for a dark point to be that stone's shadow: one arm alone is noisier
    than a line (black stones on synthetic boards seen from 55 and 65 degrees show up to
    0.10; on the real photos the shadows' arms show 0.11 to 0.35, no stone's 0.06)."""
    pale_arm: float = 1.0
    """A point whose lines are hidden, lighter than the wood and nearer in colour to the
    lighter stones than to the wood, is a pale stone (`vision.stones._pale_whites`) only if
    no arm of its cross along the board shows this many times `line_seen`, and at least
    two such arms were looked at (not leant over). Empty points beside stones leaning over
    them on synthetic boards seen from 55 and 65 degrees left an arm at 1.4 to 2.3; cream
    stones show up to 1.1, 99% of them under 0.44."""
    shadow_waist: float = 0.75
    """The dark on the way from a stone to its neighbour's point must stay at least this
    wide (cells) for it to be that stone's shadow (see `vision.stones.dark_waists`). On the
    real photos a black stone beside another narrows to 0.62 on the way from it, and to
    its shadow stays 0.78 wide or more (a white one's: 0.91, 0.97); on synthetic boards
    seen steeply a black stone beside another reached 0.78."""
    waist_span: tuple[float, float] = (0.2, 0.7)
    """The stretch of the way from a neighbour to a point (shares of it) where the dark
    between them is measured across."""
    waist_edge: float = 0.06
    """How far (cells) past where the dark begins on the way from a neighbour it is first
    measured across: a white stone's edge is blurred (two stones touching there narrow to
    0.47 cell this far in)."""
    waist_length: float = 0.4
    """How much of the way (shares of it), from where the dark between a neighbour and a
    point is first measured across, it is measured at most: two stones narrow about
    halfway between them, and a shadow cast half a cell rounds off on the next point, past
    0.6 of the way (0.72 to 0.75 wide there on synthetic boards under such a lamp, 0.94
    halfway). On 8 such boards from above, 30% taken, measuring on to the end of
    `waist_span` left 53 points wrong, at most 0.4 of the way 30, none newly wrong."""
    waist_reach: float = 0.7
    """How far (cells) either side of the line joining two points the dark is followed."""
    line_band: float = 0.125
    """Half-width (cells) of the profile taken across a line there."""
    line_band_min: int = 2
    """And at least this many px: the profile needs `line_sides` px at each end and one
    in the middle, however small ``cell``."""
    line_sides: int = 2
    """The px at each end of that profile taken as the wood beside the line (a line is 1 to
    2 px wide at ``cell`` 32, its blur another px either side)."""
    line_smooth: int = 3
    """Side (px, odd) of the Gaussian the rectified lightness is blurred with before lines
    and dark bands are measured in it: a line is 1 to 2 px wide, and no profile should hang
    on one pixel's noise."""
    margin_slope: float = 2.0
    """A reading's confidence is 0.5 + 0.5 tanh(this x its margin), the margin being how
    far the evidence lies past the threshold in shares of the threshold (`vision.stones._sure`):
    at the threshold one half, a threshold's width past it 0.98."""
    line_seen: float = 0.06
    """A cross of lines whose weaker line is this much darker than the wood beside it (share
    of the board's wood lightness) is plainly seen: nothing stands on the point, whatever
    its colour (a shadow, glare). On the real photos every stone showed under 0.04 (but one
    leaning half a cell off its point, 0.095) and 95% of empty points over 0.04; with no such
    test 32 points were wrong, with 0.05, 0.06 and 0.08 13, 14 and 14."""
    hidden_arm: float = 0.5
    """A point read empty, though judged against the wood nearest it it is a stone, is not
    read surely where the plainest arm of its cross along the board shows less than this
    many times `line_seen` (`vision.stones._doubted`): every arm hidden means something
    covers it (a white stone washed out by sunlight). Half of `line_seen`: an empty point
    beside stones leaning over it keeps an arm at 1.4 to 2.3 of it (see `pale_arm`).
    Without the nearest judgement's assent (every empty point with its arms hidden), 60
    more right points of the real photos fell under 0.6; with it 2 more. On 4 synthetic
    sunlit boards, of 10 white stones read empty surely, this and the odds of the nearest
    judgement leave 3 sure (the odds alone 6). The same holds where the point is lighter
    and paler than that nearest wood, each by more than the bare wood's own spread
    (`vision.stones._paler_lighter`), though the nearest judgement says empty: a white
    stone an exposure lifts to near the wood's lightness rises less than `white_rise` over
    it, and no bare wood is lighter and paler at once; no new constant. On the scenes
    benchmark's "aimed phone 50" seeds 5 and 6, of 28 and 36 such stones 20 and 22 were
    read empty surely, with this 8 and 10. Skin looks the same, so with the learned
    reader this doubt fades as it finds the point hidden (`PointNetConfig.hidden_at`)."""
    crossed_wood: int = 3
    """In a set whose darker stones are not grey (`black_tint`), where no cell centre lies
    within this many cells of a point clear of every stone read and every point whose
    cross of lines is hidden (a crowded board: stones coloured like the wood reach over
    every centre around it, read or not), the wood it is judged against
    (`vision.stones._two_sets`) is taken from the points within as many points of it whose
    cross of lines shows: nothing stands on them, so they are bare wood in the same light.
    The reach of `local_wood`'s clean centres (on crowded synthetic 9x9 boards of such a
    set, 1, 2 and 3 left 25, 80 and 9 of 210 lighter stones read empty)."""
    pale_stray: float = 1.0
    """In a set whose darker stones are not grey (`black_tint`), a pale stone need only be
    lighter than the wood to within this many times the bare wood's own spread (its median
    absolute deviation: grain and light): a stone coloured nearly like the wood lies within
    that spread of it in lightness as often above as below (`vision.stones._pale_whites`)."""
    set_apart: float = 3.0
    """In a set whose darker stones are not grey (`black_tint`), the points whose cross and
    arms are all hidden are taken for stones of the lighter set, which may be coloured like
    the wood (`vision.stones._pale_whites`), only if their median colour lies this many
    times the bare wood's own spread (its median absolute deviation in each channel) from
    the wood's: three such spreads is past nearly all of the wood's own grain and light, so
    such points are not the wood under faint lines. (On black and white sets of the real
    photos such points are often bare wood at the outer lines or in glare: not used there.)"""
    set_clipped: float = 0.1
    """The lighter stones are read as perhaps coloured like the wood (`crossed_wood`,
    `pale_stray`, `set_apart`) only where no colour channel is at the ceiling
    (`LightConfig.clip_level`) over more than this share of the board's picture: a well-exposed board
    under a white light reaches it only in glints and glare on a few stones, while a
    coloured lamp that lifts the wood's own channel to the ceiling clips it over most of the
    board, and balancing (`vision.illuminant.under_white`) cannot undo a clipped channel
    (the two dev photos that took this path wrongly under red, violet and magenta casts:
    about 0.7 to 0.9 in the clipped channel; crowded synthetic boards of coloured sets:
    under 0.02). Such a lamp, not the stones, tints the darker stones, and the wood's
    colour in that channel is not seen."""
    calibration: Calibration | None = None
    """How `read_board` turns its raw point and board confidences into the probability of
    being right (`vision.calibration`; fitted by `benchmarks/fit_confidence.py` into
    `vision.calibrated.FITTED`). None, the default, keeps the raw figures: judged on the
    sources its fit left out, the fitted calibration put fewer of the wrong points under
    0.6 than the raw figures do (32 against 61 of 223; refitted with the board's doubts,
    46 against 88 of 223 at the default strides, AUC 0.940 against 0.932; refitted with the
    doubts as board evidence and a wrong board counted as a grid not the board's own, 29
    against 42 of 82; and refitted on the reading with the point net weighed in, none
    against 8 of 26), and the promise that a point read at 0.6 or more is right is what
    the tracker and the page lean on. The board confidence `read_board` reports without it
    already tells the board's grid from those it is most easily mistaken for (held out by
    source: AUC 1.000, no wrong board at or above `LocateConfig.min_confidence`)."""
    camera_axes: tuple[float, float] = (1.15, 0.15)
    """`vision.grid.lift_shift` trusts its guessed camera only where the board's two axes,
    recovered through it, differ in length by at most the first factor and the cosine
    between them is at most the second (about 8.6 degrees off square): a board's cells are
    22 x 23.7 mm (1.08), and a lens wider or longer than guessed skews them a little
    more; a homography off by more is no such camera's view (a rendered or re-warped
    picture), and no stone is shifted."""
    wood_reach: int = 3
    """Where every cell centre around a point is under a stone, clean wood is looked for in
    rings further out, up to this many (the 6x6 centres around it, three cells either way;
    `vision.stones.local_wood`): near enough to lie in the point's light, far enough to
    reach past a group a few stones wide."""
    set_rounds: int = 20
    """Rounds of k-means at most when the stones' colours are split into two clusters
    (`vision.stones._two_means`): seeded at two colours far apart, two clusters settle in
    a few rounds; the bound only ends one that would go on cycling."""
    off_disc: float = 0.42
    """Radius (cells) of the disc looked for where a black stone lies off its point
    (`vision.stones.off_point`): a stone is 22.2 to 22.5 mm across on 22 mm cells (a
    radius of 0.5 cell), drawn smaller by blur at its rim and by a small set; a disc a
    little smaller than that fits inside any stone, and not inside the gap-pinched union
    of two stones side by side (their waist lies 0.5 cell from each centre)."""
    off_spread: float = 0.5
    """Widest (cells) the patch where that disc is whole may be for one stone: its centre
    moves in it only as far as a stone is wider than the disc (0.08 cell each way for a
    stone half a cell in radius, as much again where the photo's blur darkens the wood at
    its rim: a synthetic stone's patch is 0.3 cell wide); a patch wider than half a cell
    is dark and broad (a shadow, a sleeve, a dark table past the board's edge)."""
    off_fill: float = 0.15
    """Specks (cells) of light filled before a stone's body is looked for: a highlight on a
    black stone's dome, a pixel of noise. Narrower than a stone's dome highlight under a
    lamp (0.1 to 0.2 cell); the lit wedge between two touching stones, as wide at the
    stones' middles, stays."""
    stone_apart: float = 0.9
    """Two stones cannot overlap: their centres (cells) lie at least a stone's diameter
    apart (1.0 to 1.02 cell), less a tenth for a neighbour lying a little off its own
    point. A dark disc nearer a stone than this is that stone's body, not another."""
    off_beside: float = 0.6
    """How sure (confidence) a black stone beside an empty point must have been read for a
    dark disc centred nearer that point to be taken as a stone lying off it
    (`vision.stones.off_point`): a stone pushed off its point inside a black group (what is
    looked for) lies beside the group's stones, most of them on their points and read
    surely (or themselves found off their points a stone's width away); a dark disc with
    no such stone beside it is something else over the board (a sleeve, the shadow along a
    hand's edge), and a stone alone off its point still darkens its own point for the
    ordinary judgement. The confidence a point read so is promised to be right at (issue
    19): the doubted confidence, so that what lies over a hand or a sleeve, flat and wide,
    does not count as a stone read surely."""
    ceiling_rise: float = 0.5
    """Where the wood is lit so near the sensor's ceiling that a white stone cannot rise
    `white_rise` over it (`vision.stones.white_at_ceiling`), a point may be a white stone
    only if it rose at least this share of the room left under the ceiling over the wood:
    a white stone, lighter than the wood in any light, clips at the ceiling or nearly."""
    ceiling_hidden: tuple[float, float] = (0.25, 0.75)
    """There, a point may be a white stone only if its cross of lines shows under the first
    many times `line_seen`, and every arm of it along the board under the second: a stone
    hides them all, while on a bare point near the ceiling they are ink still darker than
    the wood. (An arm looks further out than the cross, where a small stone or one a
    little off its point may let a line show.)"""
    ceiling_reach: int = 2
    """And only if the lines show (`ceiling_shown`) at points read empty within this many
    points of it (the 5x5 around it, in the same light), whose wood is near the ceiling too:
    proof that a bare point there would show its lines."""
    ceiling_shown: float = 0.5
    """A cross of lines showing this many times `line_seen` shows there: near the ceiling
    the ink's contrast against the wood is squeezed, and the crosses of bare points show
    less than `line_seen`, still far above a stone's (about 0)."""
    ceiling_around: int = 2
    """How many such points at least: one could be a stone's shadow's edge or a line's
    glint; two agree. (`vision.stones.washed_out` asks the same of points at the ceiling
    before it trusts a hidden cross.)"""
    ceiling_unsure: float = 0.5
    """The confidence at most of a point near the ceiling that may be a white stone (it
    rose enough, its lines are hidden) but around which no lines show to tell: the wood
    and its lines clipped alike look the same with or without a white stone on them. So
    is a point the learned reader read otherwise than the measured one where it, and the
    wood around it, is at the ceiling with its lines hidden (`vision.stones.washed_out`: a
    flash's hot spot clips a black stone too): the one overruled the other on no evidence
    the other lacked, one half, as likely as not."""
    ceiling_washed: float = 0.25
    """Where this share of the board or more has a channel at the ceiling
    (`PointFeatures.clipped`), the exposure clipped its wood, and a point read empty there,
    near the ceiling in grey wood, that rose as a white stone would (`ceiling_rise`) and
    whose cross is not plainly seen (`line_seen`), keeps at most ``ceiling_unsure``:
    its arms may show past a stone set off its point, and "not lighter than the wood" says
    nothing where both are clipped. A glint, or a lamp's reflection, clips a patch of a few
    cells; a well-exposed board is at the ceiling only there and on white stones (a tenth at
    most in photos from four sources, as `LocateConfig.clipped_board` says): under a
    quarter, the wood tells as it does anywhere."""
    ceiling_rim: tuple[float, float, float] = (0.25, 0.36, 0.62)
    """Where a white stone's round edge lies (`vision.stones._stone_rim`), in cells from
    the point a stone on it is seen at: inside the first, its top (a stone is about 0.95
    of a cell across, its dome brightest over its middle); from the second to the third,
    its edge, where the dome turns away from the light and darkens, with the thin shadow it
    casts beyond it, whatever the stone's size within a set; a ray that darkens before the
    second is no rim (the stone, 0.95 of a cell across, is centred on its point within a
    tenth of a cell, or it is another point's). A glint on bare wood has no such ring: it
    follows the light, not the point."""
    ceiling_rim_rays: int = 8
    """Rays from the point along which the rim is looked for, the same number in each
    quarter (rounded down to a multiple of four), spread evenly between the lines: at 30
    and 60 degrees from them with 8, so that the grid lines (darker than the wood) never
    stand in for a stone's edge."""
    ceiling_rim_dip: float = 0.015
    """A ray crosses the rim where the edge darkens this share of the board's wood
    lightness under the stone's top (4 grey levels on wood at 250): over the noise of
    clipped wood blurred over `line_smooth` (0 to 2 levels), under the soft shading of a
    stone's edge, whose surface there turns away from any lamp above the board."""
    ceiling_rim_share: float = 0.5
    """A point may be a white stone at the ceiling only where its rim shows on at least
    this share of the rays, two opposite ones among them: a stone's edge rings it (a glint
    washing out a point from one side brightens the wood past it on that side, and fades
    on the other), and its confidence rises from one half there to sure where every ray
    shows it."""


@dataclasses.dataclass(frozen=True)
class OutlineConfig:
    """Thresholds of the board's outline as a slab of wood (`vision.outline`) and of the
    grid placed inside it (`vision.locate`)."""

    side: int = 256
    """The longer side (px) of the picture the slab is looked for in. A 19x19 board filling
    the frame's width spans 20 cells or so: about 13 px a cell here, the margin beyond the
    outer line (half a cell and more) 6 px, 3 px on the far side seen from 60 degrees:
    still a connected strip of wood. (The whole search takes about 25 ms of CPU at this
    side, wherever the picture is larger, and runs only where no grid of lines is sure.)"""
    balance_range: tuple[float, float] = (0.04, 0.98)
    """Pixels whose brightest channel lies outside this range (shares of full scale) do
    not count towards the grey world: black carries no colour, a clipped channel no ratio."""
    light_weight: float = 3.5
    """Lab lightness is divided by this before colours are compared: across one board the
    wood's lightness changes with its grain, with the light falling off (by a third under
    one lamp) and with glare, far more than its tint, which one light leaves alike: a
    board's wood lit from 100% down to 65% spans about 25 in lightness, 7 weighted, inside
    ``tolerance``."""
    middle: float = 0.5
    """The wood's colour is looked for in this share of the picture's width and height
    around its middle: a board photographed to be read is framed there."""
    colours: int = 5
    """This many of the commonest colours there are each tried as the wood's: a crowded
    board shows as much of its black or white stones as of its wood; only the wood's colour
    gives one slab with four straight edges. (Black stones, white stones, the wood in
    light and in shade, and the table or floor at the middle's edge: five.)"""
    tolerance: float = 9.0
    """A pixel within this distance (Lab, lightness weighted as above) of the wood's colour
    is wood. The tint of one board varies by under 5 (grain), stones differ from stained
    wood by 15 and more and a dark table from a board by 40 in lightness (11 weighted);
    white stones on a pale board may join the slab, which is no harm: they lie on it."""
    closing: float = 0.03
    """Gaps up to this share of the picture's longer side are closed in the wood: a stone
    on the outer line nearly covers the margin, stones crowded together leave only a net
    of wood between them (a cell is a 20th of the board's side, the board at most the
    picture's)."""
    min_area: float = 0.04
    """The slab covers at least this share of the picture: a board whose cells are under
    about 1/60 of the picture's longer side cannot be read anyway, and the smallest board
    read, a 9x9, spans about 10 such cells with its margins, a sixth of that side: 3.7% of
    a 4:3 picture, 4.9% of a 16:9 one (the lines of a 9x9 board at 1/58 of a 16:9 picture's
    side read whole, while its slab took 8%)."""
    edge_band: float = 0.06
    """Boundary points within this share of a side's length of the first quad's side are
    fitted to that edge (the first quad is the hull's: a stone's bite or a hand moves it
    by well under this)."""
    edge_seen: float = 0.3
    """An edge is fitted only if boundary points off the picture's border run along at
    least this share of it (per px of its length); else the picture's border cuts the
    board there and the first quad's side stands."""
    min_fill: float = 0.8
    """The slab fills at least this share of its convex hull and of the quadrilateral of
    its edges (a board is four-sided; stones biting its margin and a hand across it take
    less than a fifth)."""
    keep: int = 2
    """At most this many outlines from the slabs' first quads are handed on, the most
    four-sided first, then at most as many more from the largest quads on their hulls
    (`vision.outline.edges`' second outline) that are none of those: each costs a grid fit per
    board size."""
    same: float = 3.0
    """Outlines whose corners all lie within this many px (of the picture the slab is
    looked for in) of an outline found before are that one again, and only the most
    four-sided of such twins is kept (it ranks among the others as itself)."""
    margin: tuple[float, float] = (0.35, 1.6)
    """How far (cells) the grid's outer lines lie inside the slab's edges. A standard board
    is about 424 x 454 mm around a grid of 396 x 426.6 mm (cells 22 x 23.7): 14 mm, 0.6 cell,
    each side; boards are made from half a cell to a cell and more (the low end allows
    0.15 cell for the edge's fit, a pixel of the slab's picture). Seen from the near edge
    the slab's front face joins its top: a board 2 cm thick seen from 45 degrees adds
    about 0.85 cell to the near margin."""
    margin_choice: float = 0.5
    """Where the stones reach only one outer line of an axis and the lines cannot tell
    whether the grid ends there (a crowded board whose lines hide), the slab's edges may:
    a grid a whole line off puts one outer line a cell nearer the slab's edge than a
    board's margin allows. The grid is as sure of its phase as that shifted grid's outer
    lines lie further outside the margins than its own, over this many cells: half the
    line a shift moves them, so that an outline half a cell off still chooses."""
    slab_trust: float = 0.5
    """...and the slab's word on the phase counts for at most this share of the lines'
    (their full word is 1): the slab is traced from the wood's colour and may stand half
    a cell off where the light falls off or a stone bites its edge, and it says nothing
    of how finely the grid sits. A grid it vouches for alone stays doubtful (under
    `LocateConfig.recheck_below` where the stones vouch for it fully), so the other grids
    are still weighed against it, by the point net too."""
    stone_view: int = 320
    """Side (px) of the square the slab is rectified to when its stones place the grid:
    a 19x19 board's 21 cells or so at 15 px each, enough for a stone to show as a disc and
    for the lattice's spacing (fitted in quarter pixels) to put its outer lines within a
    tenth of a cell."""
    stone_size: float = 0.47
    """A stone's radius in cells: stones are 22 to 22.5 mm across on cells 22 mm wide (the
    blob filter that finds stones of either colour is matched to it)."""
    ground: float = 0.06
    """The picture's border this deep (share of its longer side) shows what the board lies
    on: a board photographed to be read is framed inside it, and where it fills the frame's
    width only its sides' few cells reach the border."""
    ground_colours: int = 2
    """This many of the border's commonest colours are the ground: a table or floor lit and
    in shade (its grain, a lamp's fall-off)."""
    stone_framed: float = 1.0
    """A black stone's centre seen less than this many px inside the picture's border (of
    the working image) is no stone's (`vision.locate._framed_stones`): it places no grid
    and vouches for none (the stones' lattice may still start from it: a start is a guess
    the framed stones then vouch for or not). A dark band along the border (a sliver
    of dark table where a photo was cut close to the board, a frame's shadow) is deepest
    on the border itself, and so is a stone cut past its middle; their row of "centres"
    along it reads as a row of stones past the board's edge, which vouches for a grid a
    line too far out and denies the board's own (a dev photo downscaled to 35%, 213 px
    wide, lost its board so); one such speck a line past an outer line that holds one
    stone says the lattice goes on past it (`vision.stone_lattice.stones_reach`). A stone
    seen whole, or cut short of its middle, keeps its centre a pixel or more inside."""
    stone_pushed: float = 0.4
    """A black stone up to this many cells off the nearest point of a grid placed within
    half a cell or so lies on that point: a finished game's stones are pushed off their
    points by a tenth of a cell and more, never halfway to the next."""
    balance_min: float = 0.05
    """With fewer pixels than this share of the picture inside ``balance_range`` (a picture
    nearly all black or clipped), the grey world is taken over every pixel: so few tell
    no lamp's colour."""
    colour_bins: int = 8
    """Per colour asked for (``colours``), at most this many of the commonest bins of the
    middle's histogram are looked at: bins touching one taken are that colour's spread,
    and a colour rarer than these covers too little of the middle to be the slab's."""
    slab_middle: float = 0.1
    """The slab's outline passes the picture's middle within this share of its longer
    side: a board photographed to be read covers the middle (see ``middle``); a bowl or
    the table beside it need not."""
    slab_quad: tuple[float, float, int] = (0.01, 0.2, 20)
    """The slab's boundary is simplified to a first quadrilateral with tolerances from the
    first to the second share of its perimeter, in this many steps, the first that leaves
    four corners kept (as `LocateConfig.quad_epsilon` for the net): stones biting the
    margin and a hand across the edge bend a slab's boundary by under the second. The
    first is also the tolerance the hull is simplified at before the largest quad on its
    corners is taken (`vision.quad.largest_on_hull`): a bend under it is no corner."""
    edge_ends: float = 0.05
    """Boundary points within this share of a side's length from either of its corners
    are not fitted to that side: a board's corners are rounded, and the boundary turns
    onto the next side there."""
    edge_rounds: tuple[int, float] = (3, 1.5)
    """A side's line is fitted again this many times, each time to the boundary points
    within its band (``edge_band``) narrowed by the second factor once more: a hand or a
    bowl crossing the edge falls out, the straight edge stays."""
    same_region: float = 0.01
    """Two slabs whose masks differ in under this share of the picture's pixels are one
    (a pair of wood colours whose second adds nothing to the first)."""
    steep_middle: float = 0.25
    """Where no region's outline passes the picture's middle within ``slab_middle``, one
    whose outline passes it within this share of the picture's longer side and that spans
    the picture's middle column is the slab: a phone held over the near edge and pitched
    so that the board fills the frame's width puts the near edge at the bottom of the
    frame, and seen from 60 degrees the board's depth is a quarter of a portrait frame's
    height, its far edge a fifth of the frame below the middle (the pinhole camera of
    `vision.synth`'s "phone" framing). The middle column is where the board fills the
    width from."""
    stone_phases: tuple[float, ...] = (0.0, -0.5, 0.5, -1.0, 1.0)
    """Where the stones place the grid inside the slab (`vision.locate._stones_placed`),
    the lattice their profile gives is also moved by each of these (cells) along each axis
    before it is refitted to the black stones, and one of them kept (see ``phase_rows``;
    the unmoved one where none is better). The profile is weakest across the rows a
    steep view foreshortens, and a slab whose far margin hides under the stones leaning
    over it puts its comb half a cell to a cell off; the refit takes each stone to its
    nearest point, so a start half a cell off or more ends a whole row off."""
    phase_rows: float = 0.5
    """Of those grids, only the ones with as many of the black stones on their points
    (`vision.grid_score.on_points`) as the best of them, less this many rows' worth of
    stones (this over the lines' count, as a share), are weighed by how much the stones
    vouch for them: every stone lies on a point, so a grid squeezed to span a row too few
    or a row off puts a row's stones or more off its points, while the stones vouch for
    it alone where its outer rows are crowded and the true grid's far row, foreshortened,
    shows no stone (`vision.grid_score.vouched` then has the lines choose, and in a
    crowded steep view they barely can). Stones pushed off their points at random lose a
    right grid a few stones, well under half a row."""
    same_phase: float = 0.5
    """Of the grids the stones place from the comb moved by ``stone_phases``, one whose
    four corners all lie within this many cells of the unmoved comb's grid has the same
    phase and is that grid: a grid of another phase puts a whole row or column elsewhere
    at one edge at least, while a refit that ends on the same lattice from another start
    differs only by the noise of the stones' pushes, and weighing such twins against each
    other by how much the stones vouch for them picks noise. For the same reason the
    lines' refinement of a grid, where it keeps that grid's phase (its corners within
    this of the grid's) and loses it under ``phase_rows`` rows' worth of the stones
    vouching, is kept: the stones cannot tell such grids apart, and the lines, where they
    show, place a grid finer than stones pushed off their points."""

    ground_sides: float = 0.5
    """A colour of the picture's middle that takes at least this share of each of the
    four sides of its border (``ground`` deep) is the ground (the table or floor), not
    the wood, and `vision.outline.figure` takes it as the ground: the ground surrounds a
    board photographed to be read. A board cut by the frame, or filling its width or its
    height, reaches two or three sides of the border, and the two it spans it takes
    wholly; but it takes a side it runs off only along its own extent there, and a board
    taking more than half of all four sides runs off the frame on every side, with no
    edge of its own left to fit (`vision.outline.outlines` asks for two). A board filling
    a portrait frame's width seen from 45 degrees reaches its sides over a third of
    their length; filling a landscape frame's width, the top and bottom stay the
    table's. (A board filling a landscape frame's height, or cut on one side, leaves the
    table under half of two sides: it is not called ground, and the outline is looked
    for as before. Calling the wood ground is the one harm this can do; a table called
    ground is right wherever it is.)"""

    speck: int = 3
    """The ground and the figure standing out from it (`vision.outline.figure`) are
    regions many pixels across; a pixel takes the side of the majority of the square this
    many px wide around it (of the picture the slab is looked for in), which clears single
    pixels: the sensor's noise in a dim room, and the tint of near-black pixels where a
    lamp's cast is divided out (`neutral`), flip single pixels of a dark table or of black
    stones across ``tolerance``, and closing the figure's gaps would join such specks on
    the table into a slab. No wider: a lamp's reflection on the table lifts a patch of it
    towards the tolerance, and a wider majority turns that patch's loose specks into a
    solid figure beside the board."""

    texture: tuple[float, float] = (0.02, 0.25)
    """A board's face is textured, a lamp's reflection on a glossy table is not
    (`vision.outline.textured`): the picture's grey's spread (standard deviation) over a
    Gaussian window of the first share of its longer side (half a cell of a board filling
    the frame's width: a stone or a stretch of lines and the wood around it, and the
    window's tails reach over the board's margin of half a cell to a cell) is at least
    the second share of its mean there. Black stones on wood darken it by half and more,
    white ones lift it, so a crowded board's spread is 0.4 of its mean and more under any
    light (a lamp's level or colour scales both alike); a highlight is a smooth blur of
    the lamp (its spread a tenth of its mean), a table's grain and a dim room's noise
    vary it by under a tenth."""

    @property
    def reach(self) -> tuple[float, float]:
        """(inside, outside): how far (cells) the grid's outer lines may lie inside and
        outside the slab's edges, as `vision.locate` fits a lattice in a quad."""
        return (self.margin[1], -self.margin[0])


@dataclasses.dataclass(frozen=True)
class LightConfig:
    """How the picture is seen under a neutral light when no board is found in it as taken
    (`vision.illuminant`: a coloured lamp or too bright an exposure clips channels)."""

    clip_level: int = 254
    """A channel value at or above this is at the sensor's ceiling (255, or 254 where JPEG
    rounding leaves it): it carries no contrast, whatever lies under it. The stones are
    read against it too (`vision.stones.at_ceiling`, handed this config by
    `vision.read_board`): a cell centre as light (Lab L) as a grey whose three channels
    reach this level is at the ceiling. Where the board's wood lightness (its median
    centre) is there, the exposure clipped the wood: a centre took its colourlessness from
    the ceiling, not from a stone over it, and is not taken to be under a stone for want
    of the wood's colour (`vision.stones.judged`)."""
    white_percentile: float = 99.5
    """The lamp's gain per channel is read off this percentile of the channel: the
    brightest surfaces (white stones, the wood's highlights), which a neutral light shows
    white, but not the few pixels of a specular glint or a speck of noise (the top 0.5%)."""
    stretch_percentiles: tuple[float, float] = (0.5, 99.5)
    """The neutral grey is stretched so that these percentiles of it become 0 and 255: the
    picture's own darkest and brightest surfaces (black and white stones) span the range
    a well-exposed photo has, whatever the lamp took away; the extreme 0.5% each side
    (specks, glints) do not set the range."""
    lamp_ratio: float = 1.8
    """A picture whose brightest surfaces' channels (`white_gains`) differ by this ratio or
    more (the strongest gain over the weakest) was taken under a coloured lamp, and its
    stones are read with the lamp's gains divided out (`vision.illuminant.lamp_gains`).
    A camera's white balance leaves a room light's tint well inside it: photos from four
    sources, in rooms lit by daylight, warm bulbs and tubes, reach 1.68; a
    lamp of pure hue mixed into a third of the light gives 1.4 over the room's tint, one
    mixed into more than half gives 2.5 and more. Below it the picture is read as taken:
    the stone reader's thresholds already hold for the tints a room light leaves."""
    clipped_again: float = 0.25
    """A picture with one channel at the ceiling over this share of it or more is looked at
    under the neutral light too, however sure the grid found in it as taken
    (`vision.illuminant.clipped_over`, `vision.reading.locate_in_any_light`): where a
    channel is clipped over the wood, the grey as taken holds the lines in the other
    channels alone, and the grid may be placed by the stones and the slab alone, lines off
    yet sure (a red cast of 0.6 on a pale board that fills the frame: two lines off at
    0.56). A board's wood is most of the board, and a board fills from a quarter of a photo
    (seen from across a room) to all of it, so a lamp or an exposure that clips the wood
    clips a quarter of the picture or more; what clips under a white light, white stones,
    glints and a white cloth, covers less: untouched photos from four sources reach 0.42,
    5 of 378 at 0.25 or more. The second look costs a locate's time and keeps the first
    grid unless the neutral light's is surer."""
    gain_sample: int = 250_000
    """The lamp's gains are read off at most this many pixels, taken evenly over the
    picture: the percentile of a quarter million pixels is that of the whole to within a
    grey level, at a fraction of the cost for a 12 MP photo."""
    room_green: float = 0.3
    """A picture whose brightest surfaces' green lies more than this above the rest
    (natural log of the green gain over the geometric mean of the red and blue ones:
    `white_gains`) was taken under a green lamp, whatever ``lamp_ratio`` says. Every room
    light, daylight, a bulb or a tube, is near a glowing body's light, which runs from amber
    to blue with green midway between red and blue; a camera's white balance moves it along
    that line. Only a tube leans green a little, and wood that fills the frame (yellow: its
    green above the mean of its red and blue) shows as green at most: photos from four
    sources reach 0.19, a pale to deep yellow wood 0.05 to 0.17. Green mixed into half a
    lamp's light gives 0.5 even where it clips the white stones' green, which keeps the
    strongest gain over the weakest under ``lamp_ratio``. A lamp off that line on the other
    side (magenta, red) is left to ``lamp_ratio``: it clips red and blue, the wood's
    strongest channels, and balancing what is left of them misread more points than it
    mended on the dev photos under magenta and red casts of 0.3 and 0.6."""


@dataclasses.dataclass(frozen=True)
class PointNetConfig:
    """What the learned stone reader (`vision.point_net`) is shown and how its answer is
    read. Training (`vision/training/points.py`) and reading use the same values: a
    change here needs the net trained again."""

    cell: int = 12
    """Cell (px) of the rectified board the net sees. A stone is then 11 px wide, a line
    about one: enough to tell a disc from the crossing of two lines, and a 19x19 board is
    240 px square, which the net reads in a few milliseconds on one core."""
    margin: int = 2
    """Cells of the picture beyond the board's outer lines that the net is shown: a stone
    on the outer line whole, the wood's edge, and the ring of places a line beyond the grid
    with what lies round them (the net tells there whether the grid ends at the board's
    edge: `vision.point_net.beyond`)."""
    stride: int = 4
    """The net answers at every ``stride`` px of its input (3 answers a cell): finer than a
    stone's lean under a steep view (a third of a cell), which the reading point follows."""
    wood_window: float = 0.12
    """Half-width (cells) of the square averaged at a cell centre for the wood's colour:
    a cell centre lies 0.7 cell from the four points around it, so a stone (radius 0.47)
    on its point leaves a square of this size bare even when it sits 0.1 cell off."""
    wood_floor: float = 8.0
    """The wood's level (per channel, 0..255) is taken as at least this: a channel a lamp
    nearly emptied carries only noise, which a division by its level would blow up."""
    input_range: tuple[float, float] = (-1.0, 2.0)
    """What the net sees is the picture over the wood, less one, clipped to this range: -1
    is black, 0 the wood; a white stone in a channel that a lamp and the wood's yellow both
    starve reaches 2 (the wood at a third of the stone's level there), and no more is needed."""
    lift: float = 0.2
    """Height (cells) over the board where a stone's body is read (its middle: a stone is
    about 0.4 cell thick), as `StoneConfig.stone_lift`."""
    weights: str = ""
    """The ONNX file of the trained net; "" is the one shipped (`vision.point_net.MODEL`)."""
    fuse_floor: float = 0.01
    """Neither reader's probability of a label is taken as under this (nor the measured
    reader's confidence over one less this) when the two are weighed together
    (`vision.stones.fused`): no witness is so sure that the other's certainty cannot
    overrule it, and the net, taught on a few thousand boards, is not sure to 1 in 10,000."""
    hidden_at: float = 0.5
    """A point the net takes to be hidden under something that is no stone (a hand, a
    sleeve, a pen) at least this likely, more likely than not, is read empty, with no more
    confidence than the chance it is seen (`vision.stones.fused`), unless both readers see
    a dark stone there more surely than the net sees it hidden."""


@dataclasses.dataclass(frozen=True)
class VisionConfig:
    """Every threshold of the reader, one config per stage, handed explicitly from
    `vision.read_board` (or `vision.locate`) down to every stage: a caller's config reaches
    them all, and no stage reads a module's default."""

    locate: LocateConfig = LocateConfig()
    """Board and grid location (`vision.locate` and the stages it calls)."""
    outline: OutlineConfig = OutlineConfig()
    """The slab of wood and the grid placed inside it (`vision.outline`)."""
    stones: StoneConfig = StoneConfig()
    """Stone reading (`vision.stones`); its ``stone_lift`` also places the black stones
    that vouch for a grid (`vision.grid_score.vouched`)."""
    sizes: tuple[int, ...] = SIZES
    """The board sizes decided between."""
    light: LightConfig = LightConfig()
    """Seeing the picture under a neutral light (`vision.illuminant`); its sensor's ceiling
    (``clip_level``) is the stone stage's too (`vision.stones.judged`)."""
    point_net: PointNetConfig | None = PointNetConfig()
    """The learned stone reader (`vision.point_net`), whose reading is weighed with the
    measured one (`vision.stones.fused`); None reads with the measured one alone."""


LOCATE = LocateConfig()
STONES = StoneConfig()
OUTLINE = OutlineConfig()
LIGHT = LightConfig()
POINT_NET = PointNetConfig()
VISION = VisionConfig(LOCATE, OUTLINE, STONES, SIZES, LIGHT, POINT_NET)
"""The defaults, for the public entries (`vision.read_board`, `vision.locate`) only."""
