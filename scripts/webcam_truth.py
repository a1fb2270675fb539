#!/usr/bin/env python3
"""Frames of the emulated webcam with their truth, for scripts/vision-bench: reads the webcam (run
under the preload library) with OpenCV's V4L2 backend, keeps every EVERY-th frame as a PNG, and
writes a truth file in scripts/vision-truth.txt's form from docksim's frame log (--frame-log):
each person's box is where docksim drew them (its `rect_px`: the person cut from the footage,
head to feet), matched to the frame by the buffer's timestamp. No detector takes part.

A person counts as a body to find when at least 80 % of their box is in the picture and at most
30 % of it is covered by nearer people; one less seen is an "ignore-body" region (a detection there
is neither right nor wrong). Faces are not labelled (the footage's people are seen from above and
mostly from behind, their faces a few pixels): each head — the top 15 % of the box — is an
"ignore-face" region, and a face found anywhere else counts as a false one.

    LD_PRELOAD=$(docksim --preload-library) python3 scripts/webcam_truth.py DEVICE FRAME_LOG OUT_DIR NAME SECONDS EVERY
"""
import json
import os
import sys
import time

import cv2


def area(box):
    return max(0.0, box[2]) * max(0.0, box[3])


def intersection(a, b):
    left, top = max(a[0], b[0]), max(a[1], b[1])
    right, bottom = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return (left, top, right - left, bottom - top) if right > left and bottom > top else (0, 0, 0, 0)


def main():
    device, frame_log, out, name, seconds, every = sys.argv[1:7]
    seconds, every = float(seconds), int(every)
    capture = cv2.VideoCapture(device, cv2.CAP_V4L2)
    capture.set(cv2.CAP_PROP_FRAME_WIDTH, 640)
    capture.set(cv2.CAP_PROP_FRAME_HEIGHT, 360)
    kept, count, start = {}, 0, time.monotonic()
    while time.monotonic() - start < seconds:
        ok, image = capture.read()
        if not ok:
            break
        count += 1
        if count % every == 0:
            stamp = round(capture.get(cv2.CAP_PROP_POS_MSEC) * 1000)
            path = f"{name}-{count:04d}.png"
            cv2.imwrite(os.path.join(out, path), image)
            kept[stamp] = (path, image.shape[1], image.shape[0])
    capture.release()
    lines = []
    with open(frame_log) as log:
        for line in log:
            frame = json.loads(line)
            match = next((kept[s] for s in (frame["timestamp_us"] + d for d in (0, -1, 1)) if s in kept), None)
            if match is None:
                continue
            path, width, height = match
            picture = (0, 0, width, height)
            people = sorted((p for p in frame["people"] if "rect_px" in p), key=lambda p: p["y_m"])  # nearest first
            boxes = []
            for index, person in enumerate(people):
                box = tuple(person["rect_px"])
                inside = intersection(box, picture)
                covered = max((area(intersection(inside, tuple(nearer["rect_px"]))) for nearer in people[:index]), default=0)
                shown = area(inside) / area(box) if area(box) > 0 else 0
                if shown <= 0:
                    continue
                kind = "body" if shown >= 0.8 and covered <= 0.3 * area(box) else "ignore-body"
                boxes.append(f"{path} {kind} {inside[0]:.0f} {inside[1]:.0f} {inside[2]:.0f} {inside[3]:.0f}")
                head = intersection((box[0], box[1], box[2], 0.15 * box[3]), picture)
                if area(head) > 0:
                    boxes.append(f"{path} ignore-face {head[0]:.0f} {head[1]:.0f} {head[2]:.0f} {head[3]:.0f}")
            lines += boxes or [f"{path} none"]
    print("\n".join(lines))
    print(f"webcam_truth: {name}: {len(kept)} frames kept of {count}, {len(lines)} truth lines", file=sys.stderr)


if __name__ == "__main__":
    main()
