"""dockd's tracker against ByteTrack, norfair and SORT on MOTChallenge sequences with degraded
detections, from two detector models (`--models`): `noise` (scripts/mot_noise.py, each box's errors
drawn afresh every frame) and `crowd` (scripts/mot_crowd.py, a detector with memory in a crowd:
occlusion from a side, merged and split boxes, false positives that stay). Run by scripts/mot-bench,
which makes the virtual environment; see there for the options.

Every tracker reads the same detection file and is scored by py-motmetrics (IoU >= 0.5) against
the same ground truth. The peers run with their library defaults:

* ByteTrack: supervision's `ByteTrack(frame_rate=FPS)`, nothing else set;
* norfair: `Tracker(distance_function="iou", distance_threshold=0.7)` on box corners, and
  `Tracker(distance_function="euclidean", distance_threshold=30)` on box centres (its box is the
  last matched detection's size around the estimated centre);
* SORT (Bewley et al., "Simple Online and Realtime Tracking", ICIP 2016), written here from the
  paper: a constant-velocity Kalman filter (filterpy) on [cx, cy, area, aspect], IoU assignment
  (scipy's Hungarian) gated at 0.3, max_age 1, min_hits 3;
* dockd: `dockctl replay --size WxH --fps FPS` (release build), its defaults.

Time per frame is each tracker's own update over the sequence (I/O and parsing excluded), divided
by the frames; dockd's is measured by dockctl around the tracker alone (`--time`).
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mot_crowd  # noqa: E402
import mot_noise  # noqa: E402

MODELS = {"noise": mot_noise, "crowd": mot_crowd}


# --- SORT, from the paper's description -------------------------------------------------------

class SortTracker:
    """SORT: one Kalman filter per track on [cx, cy, s, r, vcx, vcy, vs] (s area, r aspect ratio,
    constant), predicted each frame, matched to detections by the Hungarian method on IoU with a
    0.3 floor; a track is deleted after `max_age` frames unmatched and reported once it has
    `min_hits` consecutive matches (or in the first frames of the sequence)."""

    def __init__(self, max_age=1, min_hits=3, iou_threshold=0.3):
        from filterpy.kalman import KalmanFilter
        from scipy.optimize import linear_sum_assignment
        self.KalmanFilter, self.assign = KalmanFilter, linear_sum_assignment
        self.max_age, self.min_hits, self.iou_threshold = max_age, min_hits, iou_threshold
        self.tracks, self.frame, self.next_id = [], 0, 1

    @staticmethod
    def to_z(box):
        x1, y1, x2, y2 = box
        w, h = x2 - x1, y2 - y1
        return np.array([[x1 + w / 2], [y1 + h / 2], [w * h], [w / float(h)]])

    @staticmethod
    def to_box(x):
        s, r = max(float(x[2, 0]), 1e-6), max(float(x[3, 0]), 1e-6)
        w = math.sqrt(s * r)
        h = s / w
        return [float(x[0, 0]) - w / 2, float(x[1, 0]) - h / 2, float(x[0, 0]) + w / 2, float(x[1, 0]) + h / 2]

    def new_filter(self, box):
        kf = self.KalmanFilter(dim_x=7, dim_z=4)
        kf.F = np.eye(7)
        kf.F[0, 4] = kf.F[1, 5] = kf.F[2, 6] = 1
        kf.H = np.zeros((4, 7))
        kf.H[0, 0] = kf.H[1, 1] = kf.H[2, 2] = kf.H[3, 3] = 1
        # The paper gives the model, not the numbers; these are the usual ones: unknown
        # velocities start very uncertain, area and its rate noisier than position.
        kf.R[2:, 2:] *= 10.0
        kf.P[4:, 4:] *= 1000.0
        kf.P *= 10.0
        kf.Q[-1, -1] *= 0.01
        kf.Q[4:, 4:] *= 0.01
        kf.x[:4] = self.to_z(box)
        return kf

    def update(self, boxes):
        self.frame += 1
        predicted = []
        for track in self.tracks:
            if track["kf"].x[6, 0] + track["kf"].x[2, 0] <= 0:
                track["kf"].x[6, 0] = 0
            track["kf"].predict()
            track["age"] += 1
            if track["since_update"] > 0:
                track["streak"] = 0
            track["since_update"] += 1
            predicted.append(self.to_box(track["kf"].x))
        matched_tracks, matched_boxes = set(), set()
        if predicted and len(boxes):
            iou = iou_matrix(np.asarray(boxes, dtype=float), np.asarray(predicted, dtype=float))
            rows, columns = self.assign(-iou)
            for row, column in zip(rows, columns):
                if iou[row, column] >= self.iou_threshold:
                    track = self.tracks[column]
                    track["kf"].update(self.to_z(boxes[row]))
                    track["since_update"], track["hits"] = 0, track["hits"] + 1
                    track["streak"] += 1
                    matched_tracks.add(column)
                    matched_boxes.add(row)
        for row, box in enumerate(boxes):
            if row not in matched_boxes:
                self.tracks.append(dict(kf=self.new_filter(box), id=self.next_id, age=0, hits=0, streak=0, since_update=0))
                self.next_id += 1
        out = []
        for track in self.tracks:
            if track["since_update"] < 1 and (track["streak"] >= self.min_hits or self.frame <= self.min_hits):
                out.append((track["id"], self.to_box(track["kf"].x)))
        self.tracks = [track for track in self.tracks if track["since_update"] <= self.max_age]
        return out


def iou_matrix(a, b):
    """IoU of every box of a (n × 4, x1 y1 x2 y2) with every box of b (m × 4)."""
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


# --- The peers, each: frames of detections in, frames of (id, x1, y1, x2, y2) out ------------

def run_bytetrack(frames, fps):
    import supervision as sv
    tracker = sv.ByteTrack(frame_rate=fps)
    out, elapsed = [], 0.0
    for detections in frames:
        if detections:
            xyxy = np.array([d[:4] for d in detections], dtype=float)
            conf = np.array([d[4] for d in detections], dtype=float)
        else:
            xyxy, conf = np.zeros((0, 4)), np.zeros(0)
        start = time.perf_counter()
        tracked = tracker.update_with_detections(sv.Detections(xyxy=xyxy, confidence=conf, class_id=np.zeros(len(conf), dtype=int)))
        elapsed += time.perf_counter() - start
        out.append([(int(i), *map(float, box)) for i, box in zip(tracked.tracker_id, tracked.xyxy)])
    return out, elapsed


def run_norfair(frames, fps, centroid):
    from norfair import Detection, Tracker
    if centroid:
        tracker = Tracker(distance_function="euclidean", distance_threshold=30)
    else:
        tracker = Tracker(distance_function="iou", distance_threshold=0.7)
    out, elapsed = [], 0.0
    for detections in frames:
        start = time.perf_counter()
        if centroid:
            objects = [Detection(points=np.array([[(d[0] + d[2]) / 2, (d[1] + d[3]) / 2]]), scores=np.array([d[4]]),
                                 data=(d[2] - d[0], d[3] - d[1])) for d in detections]
        else:
            objects = [Detection(points=np.array([[d[0], d[1]], [d[2], d[3]]]), scores=np.array([d[4], d[4]]))
                       for d in detections]
        tracked = tracker.update(detections=objects)
        elapsed += time.perf_counter() - start
        boxes = []
        for obj in tracked:
            estimate = obj.estimate
            if centroid:
                w, h = obj.last_detection.data
                cx, cy = float(estimate[0][0]), float(estimate[0][1])
                boxes.append((int(obj.id), cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
            else:
                boxes.append((int(obj.id), float(estimate[0][0]), float(estimate[0][1]), float(estimate[1][0]),
                              float(estimate[1][1])))
        out.append(boxes)
    return out, elapsed


def run_sort(frames, fps):
    tracker = SortTracker()
    out, elapsed = [], 0.0
    for detections in frames:
        start = time.perf_counter()
        tracked = tracker.update([d[:4] for d in detections])
        elapsed += time.perf_counter() - start
        out.append([(i, *box) for i, box in tracked])
    return out, elapsed


def run_dockd(dockctl, detection_path, result_path, width, height, fps, last_frame, options):
    command = [dockctl, "--json", "replay", "--mot", detection_path, "--out", result_path, "--size", f"{width}x{height}",
               "--fps", str(fps), "--frames", str(last_frame), "--time"] + options
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"mot-bench: {' '.join(command)} failed: {done.stderr}")
    summary = json.loads(done.stdout)
    return summary["tracker_seconds"]


# --- Scoring ----------------------------------------------------------------------------------

def write_result(path, frames):
    with open(path, "w") as file:
        for index, boxes in enumerate(frames):
            for identifier, x1, y1, x2, y2 in boxes:
                file.write(f"{index + 1},{identifier},{x1:.2f},{y1:.2f},{x2 - x1:.2f},{y2 - y1:.2f},1,-1,-1,-1\n")


def degenerate_boxes(path, width, height):
    """Boxes in a result file that no camera could show: a width or height that is not a finite
    number above 0.5 px, a box more than 4 image sizes across, or one wholly outside the image."""
    bad = 0
    for frame, identifier, x, y, w, h, _ in mot_noise.read_mot(open(path).read() or ""):
        finite = all(math.isfinite(v) for v in (x, y, w, h))
        if not finite or w <= 0.5 or h <= 0.5 or w > 4 * width or h > 4 * height \
                or x + w <= 0 or y + h <= 0 or x >= width or y >= height:
            bad += 1
    return bad


def score(gt_path, result_paths, main_subject):
    """The scores of one tracker over several runs of one sequence (one result file per seed),
    accumulated as one: motmetrics' overall figures, the main subject's coverage over every run,
    and the most tracker IDs it had in any run; and per run (seed), its IDF1, ID switches and the
    main subject's IDs, so that a row's one bad seed shows as such."""
    import motmetrics as mm
    gt = mm.io.loadtxt(gt_path, fmt="mot15-2D", min_confidence=1)
    accumulators, covered, total, ids, ids_per_run = [], 0, 0, 0, []
    for path in result_paths:
        result = mm.io.loadtxt(path, fmt="mot15-2D")
        accumulator = mm.utils.compare_to_groundtruth(gt, result, "iou", distth=0.5)
        accumulators.append(accumulator)
        events = accumulator.mot_events
        mine = events[(events["OId"] == main_subject) & events["Type"].isin(["MATCH", "SWITCH"])]
        covered += len(mine)
        total += int(((events["OId"] == main_subject) & events["Type"].isin(["MATCH", "SWITCH", "MISS"])).sum())
        ids_per_run.append(int(mine["HId"].nunique()))
        ids = max(ids, ids_per_run[-1])
    host = mm.metrics.create()
    summary = host.compute_many(accumulators, metrics=["mota", "idf1", "num_switches", "num_false_positives", "num_misses"],
                                names=[str(i) for i in range(len(accumulators))], generate_overall=True)
    row = summary.loc["OVERALL"]
    return dict(mota=100 * float(row["mota"]), idf1=100 * float(row["idf1"]), switches=int(row["num_switches"]),
                fp=int(row["num_false_positives"]), fn=int(row["num_misses"]),
                coverage=100 * covered / max(1, total), main_ids=ids,
                per_seed=[dict(idf1=100 * float(summary.loc[str(i)]["idf1"]), switches=int(summary.loc[str(i)]["num_switches"]),
                               main_ids=ids_per_run[i]) for i in range(len(accumulators))])


# --- The run ----------------------------------------------------------------------------------

TRACKERS = ["dockd", "bytetrack", "norfair-iou", "norfair-centroid", "sort"]


def find_sequences(paths):
    """(name, gt.txt) for every sequence folder given, or the ones inside the motmetrics wheel."""
    if not paths:
        import motmetrics
        data = os.path.join(os.path.dirname(motmetrics.__file__), "data")
        paths = [p for p in sorted(glob.glob(os.path.join(data, "*"))) if os.path.isfile(os.path.join(p, "gt.txt"))]
    out = []
    for path in paths:
        gt = os.path.join(path, "gt", "gt.txt") if os.path.isfile(os.path.join(path, "gt", "gt.txt")) else os.path.join(path, "gt.txt")
        out.append((os.path.basename(os.path.normpath(path)), gt))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dockctl", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--models", default="noise,crowd", help="detector models: noise (mot_noise.py), crowd (mot_crowd.py)")
    parser.add_argument("--reuse-peers", action="store_true",
                        help="score the result files the trackers left out of --trackers wrote into --out in an earlier run, "
                             "where their detection file is the same")
    parser.add_argument("--seeds", default="1,2,3,4,5,6", help="seeds dockd's defaults were chosen on (one row)")
    parser.add_argument("--held-out", default="31,32,33,34,35,36", help="seeds never looked at while choosing them (one row; '' for none)")
    parser.add_argument("--size", default="640x480")
    parser.add_argument("--fps", type=float, default=25)
    parser.add_argument("--trackers", default=",".join(TRACKERS))
    parser.add_argument("--dockd-options", default="", help="extra dockctl replay options, e.g. '--birth-confidence 0.7'")
    parser.add_argument("--json", action="store_true", help="one JSON object per row as well")
    parser.add_argument("sequences", nargs="*")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    fps = int(args.fps) if args.fps == int(args.fps) else args.fps
    os.makedirs(args.out, exist_ok=True)
    models = args.models.split(",")
    unknown = [model for model in models if model not in MODELS]
    if unknown:
        raise SystemExit(f"mot-bench: unknown detector model {unknown[0]} (noise, crowd)")
    trackers = args.trackers.split(",")
    seed_sets = [("tuning", [int(s) for s in args.seeds.split(",") if s])]
    if args.held_out:
        seed_sets.append(("held out", [int(s) for s in args.held_out.split(",") if s]))
    rows = []
    for name, gt_path in find_sequences(args.sequences):
        truth = mot_noise.read_mot(open(gt_path).read())
        last_frame = max(row[0] for row in truth)
        counts = {}
        for row in truth:
            counts[row[1]] = counts.get(row[1], 0) + 1
        main_subject = max(sorted(counts), key=lambda identifier: counts[identifier])
        for model, level in [(model, level) for model in models for level in args.levels.split(",")]:
            for set_name, seeds in seed_sets:
                results = {tracker: ([], 0.0) for tracker in trackers}
                reused = {tracker: [] for tracker in TRACKERS if tracker not in trackers} if args.reuse_peers else {}
                for seed in seeds:
                    # (The first model's files keep the names they had before there were two.)
                    tag = f"{name}-{level}-{seed}" if model == "noise" else f"{name}-{model}-{level}-{seed}"
                    detections = MODELS[model].degrade(truth, level, seed, width, height, last_frame)
                    detection_path = os.path.join(args.out, f"{tag}-det.txt")
                    text = mot_noise.mot_text(detections)
                    if reused and os.path.isfile(detection_path) and open(detection_path).read() != text:
                        raise SystemExit(f"mot-bench: {detection_path} is not this run's detection file: its results cannot be reused")
                    with open(detection_path, "w") as file:
                        file.write(text)
                    for tracker in reused:
                        result_path = os.path.join(args.out, f"{tag}-{tracker}.txt")
                        if reused[tracker] is not None and os.path.isfile(result_path):
                            reused[tracker].append(result_path)
                        else:
                            reused[tracker] = None
                    frames = [[] for _ in range(last_frame)]
                    for frame, x, y, w, h, conf in mot_noise.read_mot_detections(open(detection_path).read()):
                        frames[frame - 1].append((x, y, x + w, y + h, conf))
                    for tracker in results:
                        result_path = os.path.join(args.out, f"{tag}-{tracker}.txt")
                        if tracker == "dockd":
                            elapsed = run_dockd(args.dockctl, detection_path, result_path, width, height, fps, last_frame,
                                                args.dockd_options.split())
                        else:
                            runner = {"bytetrack": lambda: run_bytetrack(frames, fps),
                                      "norfair-iou": lambda: run_norfair(frames, fps, centroid=False),
                                      "norfair-centroid": lambda: run_norfair(frames, fps, centroid=True),
                                      "sort": lambda: run_sort(frames, fps)}[tracker]
                            tracks, elapsed = runner()
                            write_result(result_path, tracks)
                        paths, seconds = results[tracker]
                        results[tracker] = (paths + [result_path], seconds + elapsed)
                # A peer left out is scored from the files of an earlier run when it has one for every seed
                # (its time is not known then: NaN).
                results.update({tracker: (paths, math.nan) for tracker, paths in reused.items() if paths})
                for tracker, (paths, seconds) in results.items():
                    result = score(gt_path, paths, main_subject)
                    result.update(sequence=name, model=model, level=level, seeds=f"{set_name} {','.join(map(str, seeds))}", tracker=tracker,
                                  us_per_frame=1e6 * seconds / (last_frame * len(seeds)),
                                  degenerate=sum(degenerate_boxes(path, width, height) for path in paths))
                    rows.append(result)
                    if args.json:
                        print(json.dumps(result), flush=True)
    print_table(rows)
    return verdict(rows)


def print_table(rows):
    print("| sequence | model | level | seeds | tracker | MOTA | IDF1 | ID sw. | FP | FN | main: coverage % | main: IDs | bad boxes | "
          "µs/frame |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['sequence']} | {r['model']} | {r['level']} | {r['seeds']} | {r['tracker']} | {r['mota']:.1f} | {r['idf1']:.1f} | "
              f"{r['switches']} | {r['fp']} | {r['fn']} | {r['coverage']:.0f} | {r['main_ids']} | {r['degenerate']} | "
              f"{r['us_per_frame']:.1f} |")


def verdict(rows):
    """Prints, per sequence, detector model, level and seed set, whether dockd's IDF1 is at least the best peer's (the
    peer with the highest IDF1), its ID switches at most that peer's, no box of its degenerate, and
    on the easy level the main subject on one ID; returns 0 when it is so everywhere."""
    failures = 0
    keys = sorted({(r["sequence"], r["level"], r["seeds"], r["model"]) for r in rows})
    for key in keys:
        group = [r for r in rows if (r["sequence"], r["level"], r["seeds"], r["model"]) == key]
        ours = [r for r in group if r["tracker"] == "dockd"]
        peers = [r for r in group if r["tracker"] != "dockd"]
        if not ours or not peers:
            continue
        ours = ours[0]
        best_idf1 = max(peers, key=lambda r: r["idf1"])
        fewest = best_idf1["switches"]
        ok = ours["idf1"] >= best_idf1["idf1"] - 1e-9 and ours["switches"] <= fewest and ours["degenerate"] == 0
        if key[1] == "easy" and ours["main_ids"] != 1:
            ok = False
        failures += not ok
        print(f"{'ok  ' if ok else 'MISS'} {key[0]} {key[3]} {key[1]} seeds {key[2]}: dockd IDF1 {ours['idf1']:.1f} vs best "
              f"{best_idf1['tracker']} {best_idf1['idf1']:.1f}; switches {ours['switches']} vs its {fewest}; "
              f"main subject on at most {ours['main_ids']} ID(s); {ours['degenerate']} bad boxes")
        # Seed by seed: a row that passes as a whole may hide one seed that does not.
        seeds = key[2].split(" ")[-1].split(",")
        for index, seed in enumerate(seeds):
            mine, theirs = ours["per_seed"][index], best_idf1["per_seed"][index]
            flags = [name for name, bad in (("IDF1", mine["idf1"] < theirs["idf1"] - 1e-9),
                                            ("switches", mine["switches"] > theirs["switches"]),
                                            ("main IDs", key[1] == "easy" and mine["main_ids"] != 1)) if bad]
            print(f"       seed {seed}: IDF1 {mine['idf1']:.1f} vs {theirs['idf1']:.1f}, switches {mine['switches']} vs "
                  f"{theirs['switches']}, main subject on {mine['main_ids']} ID(s)"
                  + (f"  <- short on {', '.join(flags)}" if flags else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
