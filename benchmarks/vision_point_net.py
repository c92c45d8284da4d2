"""How the learned stone reader (`vision.point_net`) reads the dev photos with stone truth,
beside the measured reader alone: leave one source out.

    .venv/bin/python benchmarks/vision_point_net.py [--weights FILE] [--perturb NAME,...]
        [--only TEXT] [--stride K] [--points]

Every photo of the manifest (../shared/vision-data/manifest.jsonl) with stones, untouched
and under each ``--perturb`` (`vision_robustness.py`'s names; default: the colour casts at
0.6, brightness, gamma, JPEG q30, downscale 35%, grayscale, blur, steeper 20), read three
ways on the grid `vision.read_board` finds there: by the measured reader alone
(``VisionConfig.point_net`` None), by the net alone (each point its likeliest label), and
as `vision.read_board` reads it, the two weighed together (`vision.stones.fused`). One row
per source and perturbation: boards, points, points wrong and boards perfect each way.

``--weights`` names the net to judge, by default the one shipped. To judge the net on a
source it never saw, train one without it (`vision/training/points.py --exclude SOURCE`)
and give it here with ``--only SOURCE``: the shipped net learned from every source, so its
figures on the dev photos are not a prediction for unseen photos; those of a net trained
without the source are. ``--points`` lists every point read wrong (source, photo, row and
column in the reading, truth, what each way read, their confidences).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.manifest_photos import (  # noqa: E402
    PhotoUnreadable, chosen_rows, photo_image, say_missing, say_unreadable)
from vision import BoardNotFound, read_board  # noqa: E402
from vision.config import VISION  # noqa: E402
from vision.evaluate import source_of  # noqa: E402
from vision.perturb import Board, by_name  # noqa: E402
from vision.point_net import point_scores  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "vision-data" / "manifest.jsonl"
PERTURB = ("cast 0 0.6,cast 90 0.6,cast 180 0.6,cast 270 0.6,brightness x0.6,brightness x1.4,"
           "gamma 0.6,gamma 1.6,jpeg q30,downscale 35%,grayscale,blur,steeper 20")
WAYS = ("measured", "net", "fused")


def labels_of(rows: list[str]) -> np.ndarray:
    """Rows of ``.XO`` (or ``.BW``) as an array of `rules.Cell` codes."""
    return np.array([[".XO".index(ch) for ch in r.replace("B", "X").replace("W", "O")]
                     for r in rows])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("manifest", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--weights", default="", help="the net's ONNX file (default: shipped)")
    ap.add_argument("--perturb", default=PERTURB, help="perturbations, comma-separated")
    ap.add_argument("--only", help="only photos whose path or source contains this text")
    ap.add_argument("--stride", type=int, default=1, help="every K-th photo")
    ap.add_argument("--points", action="store_true", help="list every point read wrong")
    args = ap.parse_args(argv)
    if not args.manifest.is_file():
        print(f"no manifest at {args.manifest}", file=sys.stderr)
        return 2
    try:
        perturbations = by_name(args.perturb)
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    assert VISION.point_net is not None
    net_cfg = dataclasses.replace(VISION.point_net, weights=args.weights)
    ways = {"measured": dataclasses.replace(VISION, point_net=None),
            "fused": dataclasses.replace(VISION, point_net=net_cfg)}
    table: defaultdict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    rows = [(n, r) for n, r in chosen_rows(args.manifest, None, args.stride)
            if r.get("stones") and (not args.only or args.only in r["image"]
                                    or args.only in source_of(r))]
    if not rows:
        print("no photos with stone truth chosen", file=sys.stderr)
        return 2
    if say_missing(args.manifest, rows):
        return 2
    for _, row in rows:
        try:
            photo = photo_image(args.manifest.parent, row)
        except PhotoUnreadable as exc:
            return say_unreadable(args.manifest, exc)
        truth = labels_of(row["stones"])
        source = source_of(row)
        base = read_board(photo, config=ways["measured"])
        for p in [None, *perturbations]:
            name = "untouched" if p is None else p.name
            image = photo if p is None else p.apply(photo, Board(base.corners, base.size)).image
            read: dict[str, tuple[np.ndarray, np.ndarray] | None] = {}
            fit = None
            for way in ("measured", "fused"):
                try:
                    seen = read_board(image, config=ways[way])
                except BoardNotFound:
                    read[way] = None
                    continue
                if way == "measured":
                    fit = seen
                conf = np.array(seen.confidence).reshape(seen.size, seen.size)[::-1]
                read[way] = (labels_of(seen.rows()), conf)
            read["net"] = None
            if fit is not None:
                s = point_scores(image, fit.homography, fit.size, net_cfg, net_cfg.lift)
                read["net"] = (s[:, :, :3].argmax(axis=2), s.max(axis=2))
            for key in ((source, name), ("all", name)):
                table[key]["boards"] += 1
                table[key]["points"] += truth.size
            for way in WAYS:
                got = read[way]
                wrong = truth.size
                if got is not None and got[0].shape == truth.shape:
                    turn = max(range(4), key=lambda k: int((np.rot90(truth, k) == got[0]).sum()))
                    aligned = np.rot90(truth, turn)
                    wrong = int((aligned != got[0]).sum())
                    if args.points:
                        for y, x in zip(*np.nonzero(aligned != got[0])):
                            print(f"{way:8s} {source[:20]:20s} {row['image']} @ {name}: row {y} "
                                  f"column {x} truth {'.XO'[aligned[y, x]]} read "
                                  f"{'.XO'[got[0][y, x]]} confidence {got[1][y, x]:.2f}")
                for key in ((source, name), ("all", name)):
                    table[key][way] += wrong
                    table[key][way + " perfect"] += int(wrong == 0)
    head = "".join(f"{w + ' wrong':>15s} {'perfect':>8s}" for w in WAYS)
    for source in sorted({s for s, _ in table}, key=lambda s: (s == "all", s)):
        print(f"\nsource: {source}")
        print(f"{'perturbation':24s} {'boards':>6s} {'points':>7s}{head}")
        total: Counter[str] = Counter()
        for (s, name), c in table.items():
            if s != source:
                continue
            total.update(c)
            cells = "".join(f"{c[w]:15d} {c[w + ' perfect']:8d}" for w in WAYS)
            print(f"{name:24s} {c['boards']:6d} {c['points']:7d}{cells}")
        cells = "".join(f"{total[w]:15d} {total[w + ' perfect']:8d}" for w in WAYS)
        print(f"{'every row':24s} {total['boards']:6d} {total['points']:7d}{cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
