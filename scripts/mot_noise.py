"""The benchmark's detector model: turns MOTChallenge ground truth into the detections a real
person detector would give, seeded, at several levels of difficulty. Standard library only, so
that the tests can check it without the benchmark's virtual environment.

How a detector errs, per true box in each frame (all draws from one `random.Random(seed)`, in a
fixed order, so a level, a sequence and a seed give the same file on every machine):

* **occlusion**: a box's visible share is 1 minus the share of it covered by nearer boxes (on a
  flat floor seen from above the horizon, the nearer person's box reaches lower in the image),
  times the share of it inside the image. Below `occluded_below` it is never detected; between
  that and `occluded_below + 0.2` it is missed with a probability falling linearly from 1 to 0.
* **gaps**: each person, in each frame, starts a gap with probability `gap_rate`; the gap lasts a
  uniformly drawn `gap_frames` (inclusive) and the person is not detected during it.
* **random misses**: each remaining box is missed with probability `miss_rate`.
* **jitter**: each of the four edges moves by a Gaussian of standard deviation `jitter` times the
  box's width (left, right) or height (top, bottom); a box never gets narrower than 4 px.
* **confidence**: 0.2 + 0.75 × visible share + a Gaussian of σ 0.08, clipped to 0.05...0.99, so a
  half-hidden person gives a low-confidence box, as real detectors do.
* **unconfident false positives**: Poisson(`unconfident_fp_per_frame`) per frame, anywhere, of a
  standing person's shape (height 40...250 px, width 0.3...0.5 of it), confidence 0.1...0.45.
* **confident false positives**: Poisson(`confident_fp_per_frame`) bursts start per frame; each
  stays in one place (3 % jitter) for 1...4 frames with a confidence 0.5...0.85 — a poster or a
  coat on a hook that the detector takes for a person for a moment.

The detections are written in MOTChallenge format (`frame,-1,x,y,w,h,conf,-1,-1,-1`), sorted by
frame; coordinates are rounded to 0.01 px.
"""
import math
import random

LEVELS = {
    "easy": dict(miss_rate=0.05, jitter=0.05, occluded_below=0.3, gap_rate=0.004, gap_frames=(5, 15),
                 unconfident_fp_per_frame=0.3, confident_fp_per_frame=0.02),
    "medium": dict(miss_rate=0.10, jitter=0.075, occluded_below=0.4, gap_rate=0.008, gap_frames=(5, 20),
                   unconfident_fp_per_frame=1.0, confident_fp_per_frame=0.05),
    "hard": dict(miss_rate=0.20, jitter=0.10, occluded_below=0.5, gap_rate=0.015, gap_frames=(5, 30),
                 unconfident_fp_per_frame=2.0, confident_fp_per_frame=0.10),
}


def read_mot(text):
    """Parses MOTChallenge lines into (frame, id, x, y, w, h, conf) tuples; rows whose
    confidence flag is 0 (MOT16+ ground truth: ignore) are left out."""
    rows = []
    for line in text.splitlines():
        fields = [field.strip() for field in line.split(",")]
        if len(fields) < 7:
            continue
        frame, identifier = int(float(fields[0])), int(float(fields[1]))
        x, y, w, h, conf = (float(value) for value in fields[2:7])
        if conf == 0:
            continue
        rows.append((frame, identifier, x, y, w, h, conf))
    return rows


def poisson(rng, mean):
    # Knuth's method: fine for the small means used here.
    limit, count, product = math.exp(-mean), 0, rng.random()
    while product > limit:
        count += 1
        product *= rng.random()
    return count


def _overlap(a, b):
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def visible_shares(boxes, image_width, image_height):
    """For each box (x, y, w, h), the share of it inside the image and not behind a nearer box."""
    shares = []
    for index, box in enumerate(boxes):
        area = box[2] * box[3]
        inside = _overlap(box, (0, 0, image_width, image_height)) / area if area > 0 else 0
        hidden = 0.0
        for other_index, other in enumerate(boxes):
            if other_index != index and other[1] + other[3] > box[1] + box[3]:
                hidden += _overlap(box, other) / area
        shares.append(max(0.0, inside * (1 - min(1.0, hidden))))
    return shares


def degrade(truth, level, seed, image_width=640, image_height=480, last_frame=None):
    """The detections for ground-truth rows `truth` at `level` (a name in LEVELS or a dict of the
    same keys), seeded; returns (frame, x, y, w, h, conf) tuples sorted by frame."""
    p = LEVELS[level] if isinstance(level, str) else level
    rng = random.Random(seed)
    frames = {}
    for frame, identifier, x, y, w, h, _ in truth:
        frames.setdefault(frame, []).append((identifier, (x, y, w, h)))
    last = last_frame or max(frames, default=0)
    gap_left = {}
    bursts = []   # [frames left, x, y, w, h, conf]
    detections = []
    for frame in range(1, last + 1):
        people = sorted(frames.get(frame, []))
        shares = visible_shares([box for _, box in people], image_width, image_height)
        for (identifier, (x, y, w, h)), visible in zip(people, shares):
            gap = gap_left.get(identifier, 0)
            if gap == 0 and rng.random() < p["gap_rate"]:
                gap = rng.randint(*p["gap_frames"])
            miss_draw, jitter_draws, conf_draw = rng.random(), [rng.gauss(0, 1) for _ in range(4)], rng.gauss(0, 0.08)
            occlusion_draw = rng.random()
            if gap > 0:
                gap_left[identifier] = gap - 1
                continue
            gap_left[identifier] = 0
            low = p["occluded_below"]
            if visible < low or (visible < low + 0.2 and occlusion_draw < (low + 0.2 - visible) / 0.2):
                continue
            if miss_draw < p["miss_rate"]:
                continue
            left = x + jitter_draws[0] * p["jitter"] * w
            right = x + w + jitter_draws[1] * p["jitter"] * w
            top = y + jitter_draws[2] * p["jitter"] * h
            bottom = y + h + jitter_draws[3] * p["jitter"] * h
            if right - left < 4:
                middle = (left + right) / 2
                left, right = middle - 2, middle + 2
            if bottom - top < 4:
                middle = (top + bottom) / 2
                top, bottom = middle - 2, middle + 2
            conf = min(0.99, max(0.05, 0.2 + 0.75 * visible + conf_draw))
            detections.append((frame, left, top, right - left, bottom - top, conf))
        for _ in range(poisson(rng, p["unconfident_fp_per_frame"])):
            h = rng.uniform(40, 250)
            w = h * rng.uniform(0.3, 0.5)
            x, y = rng.uniform(0, image_width - w), rng.uniform(0, max(1, image_height - h))
            detections.append((frame, x, y, w, h, rng.uniform(0.1, 0.45)))
        for _ in range(poisson(rng, p["confident_fp_per_frame"])):
            h = rng.uniform(60, 250)
            w = h * rng.uniform(0.3, 0.5)
            bursts.append([rng.randint(1, 4), rng.uniform(0, image_width - w), rng.uniform(0, max(1, image_height - h)),
                           w, h, rng.uniform(0.5, 0.85)])
        for burst in bursts:
            _, x, y, w, h, conf = burst
            detections.append((frame, x + rng.gauss(0, 0.03) * w, y + rng.gauss(0, 0.03) * h, w, h, conf))
            burst[0] -= 1
        bursts = [burst for burst in bursts if burst[0] > 0]
    return detections


def mot_text(detections):
    """The detections as a MOTChallenge detection file."""
    return "".join(f"{f},-1,{x:.2f},{y:.2f},{w:.2f},{h:.2f},{c:.3f},-1,-1,-1\n" for f, x, y, w, h, c in detections)


def read_mot_detections(text):
    """Parses a MOTChallenge detection file into (frame, x, y, w, h, conf) tuples."""
    rows = []
    for line in text.splitlines():
        fields = line.split(",")
        if len(fields) >= 7:
            rows.append((int(float(fields[0])), *(float(value) for value in fields[2:7])))
    return rows


def check():
    """The model's promises, checked on a synthetic sequence (scripts/test runs this): seeded
    files are identical, each level misses and jitters about as much as it says, a fully hidden
    person is never detected, false positives come at their rates and confidences, and every
    box has a positive size."""
    truth = []
    for frame in range(1, 2001):
        truth.append((frame, 1, 100 + (frame % 300), 150, 60, 180, 1))      # alone
        truth.append((frame, 2, 400, 100, 40, 120, 1))                       # hidden behind 3
        truth.append((frame, 3, 390, 90, 70, 200, 1))                        # nearer: lower bottom edge
    for level, p in LEVELS.items():
        a, b = degrade(truth, level, 7), degrade(truth, level, 7)
        assert a == b, f"{level}: the same seed gave different files"
        assert degrade(truth, level, 8) != a, f"{level}: another seed gave the same file"
        alone = [d for d in a if abs(d[2] - 150) < 40 and abs(d[4] - 180) < 60 and d[1] < 450 and d[5] >= 0.5]
        expected = 2000 * (1 - p["miss_rate"]) * (1 - p["gap_rate"] * sum(p["gap_frames"]) / 2)
        assert abs(len(alone) - expected) < 0.12 * 2000, f"{level}: {len(alone)} detections of the lone walker, about {expected:.0f} expected"
        heights = [d[4] / 180 - 1 for d in alone]
        spread = (sum(h * h for h in heights) / len(heights)) ** 0.5
        assert abs(spread - p["jitter"] * math.sqrt(2)) < 0.4 * p["jitter"], f"{level}: height spread {spread:.3f}"
        hidden = [d for d in a if abs(d[1] - 400) < 8 and abs(d[2] - 100) < 10 and abs(d[4] - 120) < 25]
        assert len(hidden) < 0.02 * 2000, f"{level}: the hidden person was detected {len(hidden)} times"
        weak = [d for d in a if 0.1 <= d[5] <= 0.45]
        rate = p["unconfident_fp_per_frame"]
        assert len(weak) >= 0.6 * rate * 2000, f"{level}: {len(weak)} unconfident false positives for a rate of {rate}"
        assert all(d[3] > 0 and d[4] > 0 and 0.05 <= d[5] <= 0.99 for d in a), f"{level}: a degenerate box"
    print("mot_noise: every level checked on 2000 frames")


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--check"]:
        check()
    else:
        sys.exit("usage: python3 scripts/mot_noise.py --check")
