"""The benchmark's second detector model, `crowd`: turns MOTChallenge ground truth into the
detections a person detector gives in a crowd, seeded, at three levels. Standard library only, like
the first model (scripts/mot_noise.py), so that CI can check it without the benchmark's virtual
environment.

The first model draws each box's errors afresh every frame: a box is whole or missing, its edges
jitter independently, a hidden person vanishes at once. This one gives the detector a memory and a
crowd's geometry, as a real one has:

* **occlusion from a side** (`cover_rows`, `shrink`, `lost_below`, `found_above`): a nearer person
  (the lower bottom edge, on a floor seen from above the horizon) whose box spans at least
  `cover_rows` of a person's height covers the columns the two share; the image's border cuts the
  columns outside it. The person's visible share is the widest run of columns left, over their
  width. The detector reports that run, as a detector sees the visible part: each edge moved
  `shrink` of the way from the person's edge to the run's (1: exactly the visible part), so a
  person passing behind someone **shrinks from that side** before being lost, and grows back from
  it. Lost once the share falls below `lost_below`; **found again only once it is back above
  `found_above`** (higher: a detector keeps a person it has on less than it needs to find one).
* **merging and splitting** (`merge_iou`, `split_iou`, `merge_height_ratio`, `merge_probability`):
  two people about as far away (heights within `merge_height_ratio`) whose boxes come to overlap by
  IoU `merge_iou` start an episode that lasts until the IoU falls below `split_iou`; with
  `merge_probability` (drawn once per episode) the detector sees the two as one blob for the whole
  episode: **one box, the union of theirs**, and none for either, then two boxes again when they
  part. Groups merge through any member.
* **false positives that persist** (`ghost_rate`, `ghost_frames`, `ghost_confidence`,
  `background_fp_per_frame`, `background_frames`): each frame, each pair of people about as far
  away standing close (the gap between their boxes under half their mean width) starts, with
  `ghost_rate`, a **box between them** (a torso of one and an arm of the other) that follows the
  pair for a number of frames drawn from `ghost_frames`, at a confidence drawn once from
  `ghost_confidence`; and Poisson(`background_fp_per_frame`) **still false positives** start each
  frame anywhere (a poster, a coat on a hook: a standing person's shape, 60 to 220 px high), each
  for a number of frames drawn from `background_frames`, at a confidence drawn once from 0.3 to
  0.8, jittering by 2 % of their size.
* **part boxes** (`part_rate`): a detected person gives, with this probability a frame, a second,
  weak box on their upper body (40 to 60 % of the height from the top, confidence 0.15 to 0.5).
* **births in a crowd** (`acquire_frames`, `warmup_frames`, `warmup_confidence`, `warmup_jitter`):
  a person in the ground truth's first frame, or entering later, is first found after a delay
  drawn from 0 to `acquire_frames` frames; their first `warmup_frames` frames after that carry a
  confidence rising from `warmup_confidence` of their own to all of it and jitter `warmup_jitter`
  times the usual — a detector's first boxes of someone in a group are its least sure and least
  steady.
* **misses** (`fade_rate`, `fade_mean`, `miss_rate`): a person fades (the detector loses them with
  nobody in front: a turn, a shadow) with `fade_rate` a frame, each faded frame ending it with
  1/`fade_mean` (runs of geometric length, mean `fade_mean`); and each box is missed on its own
  with `miss_rate`.
* **jitter with memory** (`jitter`, `jitter_correlation`): each edge's error is an AR(1) process,
  standard deviation `jitter` times the box's width (left, right) or height (top, bottom),
  correlation `jitter_correlation` from frame to frame: a detector's error of one frame is much
  its error of the next. A box never gets narrower or lower than 4 px.
* **confidence**: each person has their own (drawn once from `base_confidence`: clothes, light),
  times 0.4 + 0.6 × the visible share, plus a Gaussian of σ 0.05, clipped to 0.05...0.99; a
  merged blob takes its most confident member's.
* **non-maximum suppression** (`nms_iou`): of the frame's boxes, most confident first, any box
  overlapping one kept by IoU above `nms_iou` is dropped, as a detector's last step does.

Every draw comes from one `random.Random(seed)` in a fixed order, so a level, a sequence and a seed
give the same file on every machine. The detections are written in MOTChallenge format
(`frame,-1,x,y,w,h,conf,-1,-1,-1`), sorted by frame; coordinates rounded to 0.01 px.

    python3 scripts/mot_crowd.py --check                 the model's promises, on synthetic people
    python3 scripts/mot_crowd.py --help                  this text and the levels' parameters
    python3 scripts/mot_crowd.py GT.txt LEVEL SEED [WxH] detections for a ground truth, to stdout
"""
import math
import random

import mot_noise

LEVELS = {
    "easy": dict(
        miss_rate=0.03, fade_rate=0.004, fade_mean=5, jitter=0.04, jitter_correlation=0.6,
        cover_rows=0.5, shrink=0.8, lost_below=0.35, found_above=0.55,
        merge_iou=0.4, split_iou=0.25, merge_height_ratio=1.25, merge_probability=0.25,
        ghost_rate=0.01, ghost_frames=(3, 8), ghost_confidence=(0.55, 0.8),
        background_fp_per_frame=0.02, background_frames=(2, 8), part_rate=0.04,
        acquire_frames=3, warmup_frames=5, warmup_confidence=0.75, warmup_jitter=1.5,
        base_confidence=(0.7, 0.95), nms_iou=0.65),
    "medium": dict(
        miss_rate=0.06, fade_rate=0.008, fade_mean=8, jitter=0.06, jitter_correlation=0.6,
        cover_rows=0.5, shrink=0.8, lost_below=0.4, found_above=0.6,
        merge_iou=0.4, split_iou=0.25, merge_height_ratio=1.25, merge_probability=0.4,
        ghost_rate=0.02, ghost_frames=(3, 10), ghost_confidence=(0.55, 0.8),
        background_fp_per_frame=0.05, background_frames=(2, 10), part_rate=0.08,
        acquire_frames=5, warmup_frames=8, warmup_confidence=0.7, warmup_jitter=1.5,
        base_confidence=(0.65, 0.95), nms_iou=0.6),
    "hard": dict(
        miss_rate=0.12, fade_rate=0.015, fade_mean=12, jitter=0.08, jitter_correlation=0.6,
        cover_rows=0.5, shrink=0.8, lost_below=0.45, found_above=0.65,
        merge_iou=0.4, split_iou=0.25, merge_height_ratio=1.25, merge_probability=0.55,
        ghost_rate=0.04, ghost_frames=(3, 12), ghost_confidence=(0.55, 0.85),
        background_fp_per_frame=0.1, background_frames=(2, 12), part_rate=0.15,
        acquire_frames=8, warmup_frames=10, warmup_confidence=0.65, warmup_jitter=2.0,
        base_confidence=(0.6, 0.9), nms_iou=0.55),
}


def _iou(a, b):
    """IoU of two (x1, y1, x2, y2) boxes."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    inter = width * height
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def visible_run(box, nearer, image_width, cover_rows):
    """The widest run of the columns of `box` (x1, y1, x2, y2) that the image shows and no box in
    `nearer` covers (one covers the columns it shares with `box` when it spans at least
    `cover_rows` of `box`'s height), as (left, right); None when nothing is left."""
    left, right = max(box[0], 0.0), min(box[2], float(image_width))
    if right <= left:
        return None
    height = box[3] - box[1]
    covered = []
    for other in nearer:
        rows = min(box[3], other[3]) - max(box[1], other[1])
        if rows >= cover_rows * height:
            a, b = max(left, other[0]), min(right, other[2])
            if b > a:
                covered.append((a, b))
    covered.sort()
    best, position = None, left
    for a, b in covered + [(right, right)]:
        if a > position and (best is None or a - position > best[1] - best[0]):
            best = (position, a)
        position = max(position, b)
    return best


class _Person:
    """What the detector remembers of one person."""

    def __init__(self, rng, p, frame):
        self.base = rng.uniform(*p["base_confidence"])
        self.acquired_at = frame + rng.randint(0, p["acquire_frames"])
        self.error = [rng.gauss(0, 1) for _ in range(4)]
        self.faded = False
        self.occluded = None   # decided at the first frame they are visible at all


def degrade(truth, level, seed, image_width=640, image_height=480, last_frame=None):
    """The detections for ground-truth rows `truth` (frame, id, x, y, w, h, conf) at `level` (a name
    in LEVELS or a dict of the same keys), seeded; returns (frame, x, y, w, h, conf) tuples sorted by
    frame."""
    p = LEVELS[level] if isinstance(level, str) else level
    rng = random.Random(seed)
    frames = {}
    for frame, identifier, x, y, w, h, _ in truth:
        frames.setdefault(frame, []).append((identifier, (x, y, x + w, y + h)))
    last = last_frame or max(frames, default=0)
    people = {}
    episodes = {}        # (a, b) -> merged, while the pair's IoU stays at or above split_iou
    ghosts = {}          # (a, b) -> [frames left, share of the way from a to b, width scale, height scale, conf]
    still = []           # [frames left, x1, y1, x2, y2, conf]
    rho = p["jitter_correlation"]
    innovation = math.sqrt(max(0.0, 1 - rho * rho))
    detections = []
    for frame in range(1, last + 1):
        present = sorted(frames.get(frame, []))
        boxes = dict(present)
        candidates = []   # (conf, x1, y1, x2, y2)
        # Each person's state moves on, whatever is seen of them (draws in a fixed order).
        reported = {}
        for identifier, box in present:
            person = people.get(identifier)
            if person is None:
                person = people[identifier] = _Person(rng, p, frame)
            fade_draw, miss_draw, conf_draw = rng.random(), rng.random(), rng.gauss(0, 0.05)
            part_draws = (rng.random(), rng.uniform(0.4, 0.6), rng.uniform(0.8, 1.0), rng.uniform(0.15, 0.5))
            person.error = [rho * e + innovation * rng.gauss(0, 1) for e in person.error]
            if person.faded:
                person.faded = fade_draw >= 1 / p["fade_mean"]
            else:
                person.faded = fade_draw < p["fade_rate"]
            bottom = box[3]
            nearer = [other for other_id, other in present if other_id != identifier and other[3] > bottom]
            run = visible_run(box, nearer, image_width, p["cover_rows"])
            share = (run[1] - run[0]) / (box[2] - box[0]) if run else 0.0
            if person.occluded is None:
                person.occluded = share < p["found_above"]
            elif person.occluded:
                person.occluded = share < p["found_above"]
            else:
                person.occluded = share < p["lost_below"]
            since = frame - person.acquired_at
            if since < 0 or person.occluded or run is None:
                continue
            warm = min(1.0, since / p["warmup_frames"]) if p["warmup_frames"] > 0 else 1.0
            scale = p["jitter"] * (p["warmup_jitter"] + (1 - p["warmup_jitter"]) * warm)
            s = p["shrink"]
            left = box[0] + s * (run[0] - box[0])
            right = box[2] - s * (box[2] - run[1])
            w, h = box[2] - box[0], box[3] - box[1]
            edges = [left + person.error[0] * scale * w, box[1] + person.error[2] * scale * h,
                     right + person.error[1] * scale * w, box[3] + person.error[3] * scale * h]
            conf = person.base * (p["warmup_confidence"] + (1 - p["warmup_confidence"]) * warm) * (0.4 + 0.6 * share) + conf_draw
            conf = min(0.99, max(0.05, conf))
            detected = not person.faded and miss_draw >= p["miss_rate"]
            reported[identifier] = (detected, conf, edges, person.error, scale)
            if detected and part_draws[0] < p["part_rate"]:
                x1, y1, x2, y2 = edges
                middle, half = (x1 + x2) / 2, (x2 - x1) * part_draws[2] / 2
                candidates.append((part_draws[3], middle - half, y1, middle + half, y1 + (y2 - y1) * part_draws[1]))
        # Merge episodes: start when a pair of about one height overlaps by merge_iou, end below split_iou.
        identifiers = [identifier for identifier, _ in present]
        for i, a in enumerate(identifiers):
            for b in identifiers[i + 1:]:
                key, overlap = (a, b), _iou(boxes[a], boxes[b])
                heights = (boxes[a][3] - boxes[a][1]) / (boxes[b][3] - boxes[b][1])
                alike = 1 / p["merge_height_ratio"] <= heights <= p["merge_height_ratio"]
                if key in episodes:
                    if overlap < p["split_iou"] or not alike:
                        del episodes[key]
                elif overlap >= p["merge_iou"] and alike:
                    episodes[key] = rng.random() < p["merge_probability"]
        for key in [key for key in episodes if key[0] not in boxes or key[1] not in boxes]:
            del episodes[key]
        group = {identifier: identifier for identifier in identifiers}

        def root(identifier):
            while group[identifier] != identifier:
                identifier = group[identifier]
            return identifier
        for (a, b), merged in episodes.items():
            if merged:
                group[root(a)] = root(b)
        members = {}
        for identifier in identifiers:
            members.setdefault(root(identifier), []).append(identifier)
        for together in members.values():
            if len(together) == 1:
                seen = reported.get(together[0])
                if seen and seen[0]:
                    candidates.append((seen[1], *seen[2][:2], *seen[2][2:]))
                continue
            # One blob: the union of the members' boxes, jittered as its nearest member's box, when
            # that member would have been detected; as confident as its most confident member.
            nearest = max(together, key=lambda identifier: boxes[identifier][3])
            seen = [reported[identifier] for identifier in together if identifier in reported]
            if nearest not in reported or not reported[nearest][0] or not seen:
                continue
            _, _, _, error, scale = reported[nearest]
            x1 = max(0.0, min(boxes[identifier][0] for identifier in together))
            y1 = max(0.0, min(boxes[identifier][1] for identifier in together))
            x2 = min(float(image_width), max(boxes[identifier][2] for identifier in together))
            y2 = min(float(image_height), max(boxes[identifier][3] for identifier in together))
            w, h = x2 - x1, y2 - y1
            candidates.append((max(conf for _, conf, _, _, _ in seen), x1 + error[0] * scale * w, y1 + error[2] * scale * h,
                               x2 + error[1] * scale * w, y2 + error[3] * scale * h))
        # Ghosts between neighbours of one height: start, follow the pair, end.
        for i, a in enumerate(identifiers):
            for b in identifiers[i + 1:]:
                if (a, b) in ghosts:
                    continue
                draw, share, width_scale, height_scale, conf = (rng.random(), rng.uniform(0.3, 0.7), rng.uniform(0.8, 1.1),
                                                                rng.uniform(0.9, 1.05), rng.uniform(*p["ghost_confidence"]))
                first, second = boxes[a], boxes[b]
                heights = (first[3] - first[1]) / (second[3] - second[1])
                mean_width = (first[2] - first[0] + second[2] - second[0]) / 2
                gap = max(first[0], second[0]) - min(first[2], second[2])
                if 1 / p["merge_height_ratio"] <= heights <= p["merge_height_ratio"] and gap < 0.5 * mean_width \
                        and draw < p["ghost_rate"]:
                    ghosts[(a, b)] = [rng.randint(*p["ghost_frames"]), share, width_scale, height_scale, conf]
        for key in list(ghosts):
            left_at, share, width_scale, height_scale, conf = ghosts[key]
            if key[0] not in boxes or key[1] not in boxes or left_at <= 0:
                del ghosts[key]
                continue
            first, second = boxes[key[0]], boxes[key[1]]
            cx = (first[0] + first[2]) / 2 + share * ((second[0] + second[2]) / 2 - (first[0] + first[2]) / 2)
            w = width_scale * (first[2] - first[0] + second[2] - second[0]) / 2
            h = height_scale * (first[3] - first[1] + second[3] - second[1]) / 2
            bottom = max(first[3], second[3])
            candidates.append((conf, cx - w / 2, bottom - h, cx + w / 2, bottom))
            ghosts[key][0] -= 1
        # Still false positives: start, stay, end.
        for _ in range(mot_noise.poisson(rng, p["background_fp_per_frame"])):
            h = rng.uniform(60, 220)
            w = h * rng.uniform(0.35, 0.5)
            x, y = rng.uniform(0, image_width - w), rng.uniform(0, max(1.0, image_height - h))
            still.append([rng.randint(*p["background_frames"]), x, y, x + w, y + h, rng.uniform(0.3, 0.8)])
        for fp in still:
            _, x1, y1, x2, y2, conf = fp
            w, h = x2 - x1, y2 - y1
            dx, dy = rng.gauss(0, 0.02) * w, rng.gauss(0, 0.02) * h
            candidates.append((conf, x1 + dx, y1 + dy, x2 + dx, y2 + dy))
            fp[0] -= 1
        still = [fp for fp in still if fp[0] > 0]
        # The detector's last step: boxes clipped to the image, at least 4 px, then suppressed.
        boxes_out = []
        for conf, x1, y1, x2, y2 in candidates:
            x1, x2 = max(0.0, min(x1, x2)), min(float(image_width), max(x1, x2))
            y1, y2 = max(0.0, min(y1, y2)), min(float(image_height), max(y1, y2))
            if x2 - x1 < 4:
                middle = min(max((x1 + x2) / 2, 2.0), image_width - 2.0)
                x1, x2 = middle - 2, middle + 2
            if y2 - y1 < 4:
                middle = min(max((y1 + y2) / 2, 2.0), image_height - 2.0)
                y1, y2 = middle - 2, middle + 2
            boxes_out.append((conf, x1, y1, x2, y2))
        kept = []
        for box in sorted(boxes_out, key=lambda box: -box[0]):
            if all(_iou(box[1:], other[1:]) <= p["nms_iou"] for other in kept):
                kept.append(box)
        for conf, x1, y1, x2, y2 in sorted(kept, key=lambda box: (box[1], box[2])):
            detections.append((frame, x1, y1, x2 - x1, y2 - y1, conf))
    return detections


def check():
    """The model's promises, checked on synthetic people (scripts/test runs this): seeded files are
    identical; a person passing behind a nearer one shrinks from the covered side, is lost below
    `lost_below` and found again only above `found_above`; a fully hidden person is never detected;
    two people side by side merge into one box (union-wide) and split after; ghosts and still false
    positives stay several frames; every box has a positive size and a confidence in range."""
    # Person 1 walks right at 2 px a frame behind person 2 (nearer, standing at x 300..360);
    # person 3 stands hidden behind person 2 the whole time; persons 4 and 5 walk side by side.
    truth = []
    for frame in range(1, 301):
        truth.append((frame, 1, 100 + 2 * frame, 100, 60, 180, 1))
        truth.append((frame, 2, 300, 110, 60, 200, 1))
        truth.append((frame, 3, 310, 105, 40, 120, 1))
    for level, base in LEVELS.items():
        a, b = degrade(truth, level, 7), degrade(truth, level, 7)
        assert a == b, f"{level}: the same seed gave different files"
        assert degrade(truth, level, 8) != a, f"{level}: another seed gave the same file"
        assert all(d[3] > 0 and d[4] > 0 and 0.05 <= d[5] <= 0.99 for d in a), f"{level}: a degenerate box"
        # Occlusion alone, without the detector's other errors: the walker's box, frame by frame.
        p = dict(base, miss_rate=0, fade_rate=0, jitter=0, background_fp_per_frame=0, ghost_rate=0, part_rate=0,
                 merge_probability=0, acquire_frames=0, warmup_frames=0)
        walker = {}
        for frame, x, y, w, h, conf in degrade(truth, p, 7):
            if abs(y - 100) < 1 and abs(h - 180) < 1:
                walker[frame] = (x, x + w, conf)
        hidden = [d for d in degrade(truth, p, 7) if abs(d[4] - 120) < 1]
        assert not hidden, f"{level}: the person hidden throughout was detected"
        # Walker's right edge meets 300 at frame 70 (x = 240 + 60); covered fully from frame 100 to
        # 130 (x 300..360); their share is (300 - x) / 60 going in and (x + 60 - 360) / 60 coming out.
        for frame in range(71, 100):
            x = 100 + 2 * frame
            share = (300 - x) / 60
            if frame in walker:
                assert share >= p["lost_below"] - 1e-9, f"{level}: detected at a share of {share:.2f}"
                left, right, _ = walker[frame]
                assert abs(left - x) < 1e-6, f"{level}: frame {frame}: the uncovered edge moved ({left:.1f} for {x})"
                expected = x + 60 - p["shrink"] * (x + 60 - 300)
                assert abs(right - expected) < 1e-6, f"{level}: frame {frame}: right edge {right:.1f}, {expected:.1f} expected"
            else:
                assert share < p["lost_below"] + 1e-9, f"{level}: lost at a share of {share:.2f}"
        back = min(frame for frame in walker if frame > 100)
        share = (100 + 2 * back + 60 - 360) / 60
        assert share >= p["found_above"] - 1e-9 and (100 + 2 * (back - 1) + 60 - 360) / 60 < p["found_above"], \
            f"{level}: found again at frame {back}, share {share:.2f}"
        left, right, _ = walker[back]
        assert abs(right - (100 + 2 * back + 60)) < 1e-6 and left > 100 + 2 * back, f"{level}: it grows back from the covered side"
        # Side by side: every episode merged, then every box is one of the two or their union.
        pair = []
        for frame in range(1, 201):
            gap = abs(frame - 100) * 0.6   # they close in, overlap (IoU 0.49 at frame 100), and part again
            pair.append((frame, 4, 200 - gap, 100, 60, 180, 1))
            pair.append((frame, 5, 220 + gap, 102, 60, 180, 1))
        merged = dict(p, merge_probability=1)
        blobs = [d for d in degrade(pair, merged, 3) if d[3] > 70]
        singles = [d for d in degrade(pair, merged, 3) if d[3] <= 70]
        assert blobs, f"{level}: no merged box"
        for frame, x, y, w, h, conf in blobs:
            union = 80 + 2 * abs(frame - 100) * 0.6
            assert abs(w - union) < 1e-6 and abs(x - (200 - abs(frame - 100) * 0.6)) < 1e-6, \
                f"{level}: frame {frame}: a merged box {w:.1f} wide, not the union's {union:.1f}"
        blob_frames = {d[0] for d in blobs}
        assert 100 in blob_frames and 1 not in blob_frames and 200 not in blob_frames, \
            f"{level}: merged in frames {min(blob_frames)}..{max(blob_frames)}"
        assert not any(d[0] in blob_frames for d in singles), f"{level}: a single box beside the merged one"
        split = [frame for frame in range(max(blob_frames) + 1, 201) if sum(d[0] == frame for d in singles) == 2]
        # (The one behind comes back once `found_above` of them shows, at once or a few frames on.)
        assert any(d[0] == max(blob_frames) + 1 for d in singles) and split and split[0] <= max(blob_frames) + 10, \
            f"{level}: not two boxes again after the merge"
        apart = dict(p, merge_probability=0)
        assert all(d[3] <= 70 for d in degrade(pair, apart, 3)), f"{level}: merged without an episode"
        # Ghosts and still false positives stay: consecutive frames of one confidence.
        noisy = dict(base, ghost_rate=0.2, background_fp_per_frame=0.2)
        runs = {}
        for frame, x, y, w, h, conf in degrade(pair, noisy, 5):
            runs.setdefault(round(conf, 6), []).append(frame)
        lasting = [frames for frames in runs.values() if len(frames) >= 2 and frames[-1] - frames[0] + 1 == len(set(frames))]
        assert len(lasting) >= 5, f"{level}: {len(lasting)} false positives that lasted"
    print("mot_crowd: every level checked on synthetic people")


def main(arguments):
    if arguments == ["--check"]:
        check()
        return 0
    if arguments in (["--help"], ["-h"]):
        print(__doc__)
        print("Levels:")
        for level, p in LEVELS.items():
            print(f"  {level}: " + ", ".join(f"{key} {value}" for key, value in p.items()))
        return 0
    if len(arguments) in (3, 4) and arguments[1] in LEVELS:
        width, height = (int(v) for v in (arguments[3] if len(arguments) == 4 else "640x480").split("x"))
        truth = mot_noise.read_mot(open(arguments[0]).read())
        print(mot_noise.mot_text(degrade(truth, arguments[1], int(arguments[2]), width, height)), end="")
        return 0
    print("usage: python3 scripts/mot_crowd.py --check | --help | GT.txt easy|medium|hard SEED [WxH]")
    return 64


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
