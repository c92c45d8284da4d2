"""The stone stage of `read_board` replayed on stored inputs, so that a change to it is
judged on every dev photo under every perturbation in a minute or two rather than the half
hour a run of `vision_robustness.py` takes.

    .venv/bin/python benchmarks/vision_replay.py record STORE [MANIFEST] [--jobs N]
                     [--perturb NAMES] [--only TEXT] [--stride K]
    .venv/bin/python benchmarks/vision_replay.py replay STORE [--jobs N] [--perturb NAMES]
                     [--by-source] [-v]
    .venv/bin/python benchmarks/vision_replay.py reread STORE [MANIFEST] [--jobs N]
                     [--perturb NAMES] [--by-source] [-v]

``record`` reads every photo of the manifest (default ../shared/vision-data/manifest.jsonl)
untouched and under each perturbation, exactly as `vision_robustness.py` does, and stores
for each reading what its stone stage took (`vision.stones.stone_inputs`: the grid's
homography and size, the points' features, the learned reader's scores), what it read, how
long the whole read took and whether its grid lies on the labelled one. ``replay`` reads
each stored reading again with the stone stage of the tree at hand (`vision.stones.read_from`)
and prints `vision_robustness.py`'s table (the milliseconds are the recorded reads'), then how
many readings differ from those recorded: none on the tree that recorded them, the check
that the store is sound. A photo with no stone truth is compared, as there, with its own
untouched reading, replayed too.

What the replay cannot see: anything before the stone stage's inputs. A change to finding
the grid, to `vision.stones.features` or to the point net needs a new record, and a change to
the stone stage is landed on the full `vision_robustness.py` run, as ever; the replay is for
trying many forms of it first. ``reread`` is for those other changes: it reads every stored
photo afresh from its file (under MANIFEST's folder) with the whole reader at hand, untouched
and under the stored perturbations, prints the same table and the readings that differ from
those recorded, and with ``-v`` which ones (with their points right, recorded and now): the
readings a change moved, photo by photo, in the time a robustness run of them takes.

The store is a folder, one file per photo (a pickle: read it only with the repository that
wrote it), about 14 MB a photo with every perturbation (5.2 GB for the 378 dev photos; the
rectified lightness is kept, not its blur, an eighth of the bytes). ``record`` of those on 2
jobs took 1603 s, about as long as a robustness run; ``replay`` on 2 jobs 76 s.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.manifest_photos import (  # noqa: E402
    Photo, Reader, chosen_rows, open_photo, perturbed_reads, timed_read)
from benchmarks.vision_robustness import (  # noqa: E402
    DEFAULT, UNTOUCHED, Outcome, checked_usage, over_photos, reference_rows, report)
from vision import BoardNotFound, Reading  # noqa: E402
from vision.config import VISION  # noqa: E402
from vision.evaluate import corner_error_cells, points_right, source_of  # noqa: E402
from vision.illuminant import under_white  # noqa: E402
from vision.reading import position_of  # noqa: E402
from vision.perturb import STANDARD, Perturbation  # noqa: E402
from vision.stones import PointFeatures, read_from, smoothed, stone_inputs  # noqa: E402

SUFFIX = ".replay"


@dataclasses.dataclass(frozen=True)
class Stored:
    """One reading's stone-stage inputs (``homography``, ``size``, ``features`` with its
    blur dropped, ``scores``), the ``rows`` it read, its ``ms`` and whether its ``grid``
    lay on the labelled one (None: none labelled)."""

    homography: np.ndarray
    size: int
    features: PointFeatures
    scores: np.ndarray | None
    rows: list[str]
    ms: float
    grid: bool | None


class _Recorder:
    """A benchmark reader (`manifest_photos.Reader`) that also keeps the stone stage's
    inputs of its last reading."""

    def __init__(self) -> None:
        self.last: tuple[PointFeatures, np.ndarray | None] | None = None

    def __call__(self, image: np.ndarray) -> tuple[Reading | BoardNotFound, float]:
        result, ms = timed_read(image)
        self.last = None
        if isinstance(result, Reading):
            cfg = VISION
            f, scores = stone_inputs(under_white(image, cfg.light), result.homography,
                                     result.size, cfg.stones, cfg.light, cfg.point_net)
            self.last = (dataclasses.replace(f, smooth=np.empty((0, 0))), scores)
        return result, ms


def _grid(reading: Reading | None, size: int, labelled: np.ndarray | None) -> bool | None:
    """Whether ``reading``'s grid lies within half a cell of the ``labelled`` corners, as
    `vision_robustness.py` counts it (None where none are labelled; False where no board
    was found)."""
    if labelled is None:
        return None
    return reading is not None and reading.size == size and \
        corner_error_cells(reading.corners, labelled, size) <= 0.5


def _stored(reading: Reading | None, ms: float,
            inputs: tuple[PointFeatures, np.ndarray | None] | None,
            grid: bool | None) -> Stored | None:
    """What is stored of ``reading`` (None: no board found) read in ``ms`` from ``inputs``
    (`_Recorder.last`), its ``grid`` on the labelled one or not (`_grid`)."""
    if reading is None or inputs is None:
        return None
    return Stored(reading.homography, reading.size, inputs[0], inputs[1], reading.rows(), ms,
                  grid)


def _readings(photo: Photo, row: dict[str, Any], perturbations: Sequence[Perturbation],
              read: Reader = timed_read
              ) -> Iterator[tuple[str, Reading | None, float, bool | None]]:
    """``photo`` (``row``'s) as read untouched, then under each of ``perturbations`` that
    applies to it, read by ``read`` one at a time as they are asked for: each reading's
    name, the reading (None: no board found), its milliseconds and whether its grid lies
    on the labelled one (`_grid`)."""
    size = int(str(row.get("size") or (photo.reading.size if photo.reading else 19)))
    yield UNTOUCHED, photo.reading, photo.ms, _grid(photo.reading, size, photo.corners)
    for p, spoiled, seen in perturbed_reads(photo, perturbations, read=read):
        if spoiled is None or seen is None:
            continue
        labelled = None if photo.corners is None else spoiled.points(photo.corners)
        yield p.name, seen.reading, seen.ms, _grid(seen.reading, size, labelled)


def record_photo(job: tuple[Path, Path, int, dict[str, Any], tuple[Perturbation, ...]]
                 ) -> list[int]:
    """Store ``job``'s photo's readings (untouched and perturbed) in the store; [its line
    number] if it was read, [] if it could not be opened."""
    store, base, index, row, perturbations = job
    recorder = _Recorder()
    photo = open_photo(base, row, read=recorder)
    if photo is None:
        return []
    reads: dict[str, Stored | None] = {}
    lost: dict[str, tuple[bool | None, float]] = {}
    # The recorder holds the inputs of the reading just yielded (they are read lazily).
    for name, reading, ms, grid in _readings(photo, row, perturbations, read=recorder):
        reads[name] = _stored(reading, ms, recorder.last, grid)
        lost[name] = (grid, ms)
    # Plain dicts: the file must load whether this module ran as a script or was imported.
    plain = {name: None if s is None else {k.name: getattr(s, k.name)
                                          for k in dataclasses.fields(s)}
             for name, s in reads.items()}
    (store / f"{index}{SUFFIX}").write_bytes(
        pickle.dumps({"features": _feature_fields(), "row": row, "reads": plain, "not found": {
            name: lost[name] for name, s in reads.items() if s is None}},
            protocol=pickle.HIGHEST_PROTOCOL))
    return [index]


def _feature_fields() -> list[str]:
    """The fields of `PointFeatures` in this tree: a store whose features have others was
    recorded by another stone stage and cannot be replayed by this one."""
    return [k.name for k in dataclasses.fields(PointFeatures)]


def _rows(stored: Stored) -> list[str]:
    """What the stone stage at hand reads from ``stored``, as `Reading.rows` gives it."""
    f = stored.features
    if f.lightness is None:
        raise ValueError("a stored reading without its rectified lightness")
    f = dataclasses.replace(f, smooth=smoothed(f.lightness, VISION.stones))
    labels, _ = read_from(f, stored.scores, VISION.stones, VISION.light, VISION.point_net)
    return position_of(labels).rows()


def _kept(path: Path) -> dict[str, Any]:
    """The stored photo at ``path``; ValueError where its features have other fields than
    this tree's (`_feature_fields`)."""
    kept: dict[str, Any] = pickle.loads(path.read_bytes())
    if kept.get("features") != _feature_fields():
        raise ValueError(f"{path.name} holds features of other fields than this tree's")
    return kept


Replayed = tuple[Outcome, bool, int]
"""A reading's outcome, whether it differs from the one recorded, and how many points the
recorded one had right (against the photo's truth, or where it has none, its recorded
untouched reading: where the untouched reading differs now, so do the references)."""


def _outcomes(path: Path, kept: dict[str, Any], rows: dict[str, list[str] | None],
              seen: dict[str, tuple[bool | None, float]]) -> list[Replayed]:
    """The outcomes of the readings ``rows`` (by perturbation name; None: no board found)
    of the stored photo ``kept`` (at ``path``), with the ``seen`` grid and milliseconds of
    each, against its truth, or its untouched reading among ``rows`` where it has none;
    each with whether it differs from the one recorded, and that one's points right."""
    row = kept["row"]
    recorded = {name: None if s is None else s["rows"] for name, s in kept["reads"].items()}
    truth, mirror = reference_rows(row, rows.get(UNTOUCHED))
    was_truth, was_mirror = reference_rows(row, recorded.get(UNTOUCHED))
    out = []
    for name, read in rows.items():
        points = right = was = 0
        if truth is not None:
            points = len(truth) * len(truth[0])
            right = points_right(read, truth, mirror)
        if was_truth is not None:
            was = points_right(recorded.get(name), was_truth, was_mirror)
        grid, ms = seen[name]
        outcome = Outcome(name, int(path.name[:-len(SUFFIX)]), str(row["image"]),
                          source_of(row), read is not None, points, right, grid, ms)
        out.append((outcome, read != recorded.get(name), was))
    return out


def replay_photo(job: tuple[Path, frozenset[str] | None]) -> list[Replayed]:
    """The outcomes of a stored photo's readings replayed (those of ``job``'s names, all
    if None, and the untouched one), each with whether it differs from the recorded one."""
    path, names = job
    kept = _kept(path)
    reads = {name: None if s is None else Stored(**s) for name, s in kept["reads"].items()}
    chosen = [name for name in reads if name == UNTOUCHED or names is None or name in names]
    rows = {name: None if (s := reads[name]) is None else _rows(s) for name in chosen}
    seen = {name: (s.grid, s.ms) if (s := reads[name]) is not None
            else kept["not found"][name] for name in chosen}
    return _outcomes(path, kept, rows, seen)


def reread_photo(job: tuple[Path, Path, frozenset[str] | None]) -> list[Replayed]:
    """The outcomes of a stored photo read afresh by the whole reader at hand, from its
    file under the folder ``job[1]``, untouched and under the stored perturbations
    (those of ``job``'s names, all if None), each with whether it differs from the
    recorded one: how a change before the stone stage (finding the grid, the features,
    the point net) moves each reading. [] where the photo cannot be opened."""
    path, base, names = job
    kept = _kept(path)
    row = kept["row"]
    photo = open_photo(base, row)
    if photo is None:
        return []
    wanted = [p for p in STANDARD if p.name in kept["reads"]
              and (names is None or p.name in names)]
    rows: dict[str, list[str] | None] = {}
    seen: dict[str, tuple[bool | None, float]] = {}
    for name, reading, ms, grid in _readings(photo, row, wanted):
        rows[name] = None if reading is None else reading.rows()
        seen[name] = (grid, ms)
    return _outcomes(path, kept, rows, seen)


def stored_photos(store: Path) -> list[Path]:
    """The photo files of ``store``, by line number."""
    return sorted(store.glob(f"*{SUFFIX}"), key=lambda p: int(p.name[:-len(SUFFIX)]))


def record(store: Path, manifest: Path, perturbations: Sequence[Perturbation], jobs: int,
           only: str | None, stride: int) -> int:
    """Record the chosen photos of ``manifest`` into ``store``; how many were read."""
    store.mkdir(parents=True, exist_ok=True)
    rows = chosen_rows(manifest, only, stride)
    work = [(store, manifest.parent, i, r, tuple(perturbations)) for i, r in rows]
    return len(over_photos(record_photo, work, jobs, sys.stderr.isatty()))


def replay(store: Path, names: Sequence[str] | None, jobs: int,
           base: Path | None = None) -> list[Replayed]:
    """Every stored photo's readings (of ``names``, all if None) replayed by the stone
    stage at hand, or with ``base`` (the folder the photos' paths start from) read afresh
    from their files by the whole reader (`reread_photo`)."""
    chosen = None if names is None else frozenset(names)
    if base is None:
        done = over_photos(replay_photo, [(path, chosen) for path in stored_photos(store)],
                           jobs, sys.stderr.isatty())
    else:
        done = over_photos(reread_photo, [(path, base, chosen) for path in stored_photos(store)],
                           jobs, sys.stderr.isatty())
    return sorted(done, key=lambda d: d[0].photo)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=("record", "replay", "reread"))
    ap.add_argument("store", type=Path, help="the folder the inputs are stored in")
    ap.add_argument("manifest", nargs="?", type=Path, default=DEFAULT,
                    help="record, reread: the photos' manifest")
    ap.add_argument("--jobs", type=int, default=1, help="processes at once (default 1)")
    ap.add_argument("--stride", type=int, default=1, help="record: every K-th photo only")
    ap.add_argument("--only", help="record: only photos whose path contains this text")
    ap.add_argument("--perturb", help="comma-separated perturbation names or prefixes "
                    "(default: all of vision.perturb.STANDARD; replay: all stored)")
    ap.add_argument("--by-source", action="store_true",
                    help="replay, reread: a table per source too")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="replay, reread: also each reading that differs from the recorded "
                    "one, with its points right recorded and now")
    args = ap.parse_args(argv)
    chosen = checked_usage(args)
    if chosen is None:
        return 2
    t0 = time.perf_counter()
    if args.action == "record":
        if not args.manifest.is_file():
            print(f"no manifest at {args.manifest}", file=sys.stderr)
            return 2
        recorded = record(args.store, args.manifest, chosen, args.jobs, args.only,
                          args.stride)
        print(f"{recorded} photos recorded in {args.store}; wall time "
              f"{time.perf_counter() - t0:.0f} s on {args.jobs} job(s)")
        return 0 if recorded else 2
    if not args.store.is_dir() or not stored_photos(args.store):
        print(f"{args.store}: no recorded photos there (run `record` first)", file=sys.stderr)
        return 2
    rereading = args.action == "reread"
    if rereading and not args.manifest.is_file():
        print(f"no manifest at {args.manifest}", file=sys.stderr)
        return 2
    try:
        done = replay(args.store, [p.name for p in chosen] if args.perturb else None,
                      args.jobs, args.manifest.parent if rereading else None)
    except (pickle.UnpicklingError, EOFError, KeyError, ValueError) as exc:
        print(f"{args.store}: a stored photo cannot be read ({exc!r}); record again",
              file=sys.stderr)
        return 2
    outcomes = [o for o, _, _ in done]
    names = list(dict.fromkeys(o.perturbation for o in outcomes if o.perturbation != UNTOUCHED))
    order = [p.name for p in STANDARD if p.name in names] + \
        [n for n in names if n not in {p.name for p in STANDARD}]
    for line in report(outcomes, order, args.by_source):
        print(line)
    changed = [(o, was) for o, differs, was in done if differs]
    print(f"\nreadings that differ from the recorded ones: {len(changed)} of {len(done)}")
    for o, was in changed if args.verbose else []:
        print(f"  {o.perturbation:<24} {o.image}"
              + (f"  points right {was} -> {o.right}" if o.points else ""))
    print(f"wall time {time.perf_counter() - t0:.0f} s on {args.jobs} job(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
