#!/usr/bin/python3
"""Checks frames read from the emulated webcam against a drawing made here, independently of
docksim's renderer: for each frame, the pose and field of view docksim logged (--frame-log) and
the footage's files (docksim --make-footage) are drawn again with OpenCV (Debian's python3-opencv)
and numpy — the background plate through a homography derived here from the pose
(cv2.warpPerspective), each person's body box projected here from where the simulator says the
subject stands (its own pinhole model, the simulator's body: 0.26 x its height wide, floor to
top), and the logged frame of that person's walk stretched over it (cv2.warpAffine) — and
compared with the frame the client received: PSNR of luma and mean absolute difference of every
byte, per frame, printed. A box this script projects must match where docksim drew the person
(within half a pixel), and every frame's luma PSNR must reach --min-psnr.

Usage: check_webcam_frames.py --footage DIR --log FRAMES.jsonl --frames FILE --stamps FILE
       [--format yuyv|mjpeg] [--min-psnr DB] [--save-png DIR]
  --frames: the client's frames, back to back (raw YUYV; or for mjpeg, JPEGs back to back)
  --stamps: each frame's capture timestamp in microseconds, one a line, in the same order
  --crops FILE: a virtual camera's framed frames (dockd-vision --output-view framed): each line the
        crop of the camera's picture the frame shows (x y width height, shares of the picture); the
        drawing is cut there and scaled to the frame's size (--size) before the comparison
"""
import argparse
import json
import math
import os
import sys

import cv2
import numpy as np


def load_footage(directory):
    manifest = json.load(open(os.path.join(directory, "footage.json")))
    plate = manifest["plate"]
    width, height = plate["width"], plate["height"]
    raw = np.fromfile(os.path.join(directory, plate["file"]), np.uint8)
    planes = raw.reshape(3, height, width)
    people = []
    for person in manifest["people"]:
        data = np.fromfile(os.path.join(directory, person["file"]), np.uint8)
        frames, offset = [], 0
        for frame in person["frames"]:
            w, h = frame["width"], frame["height"]
            n = w * h
            frames.append(data[offset:offset + 4 * n].reshape(4, h, w))
            offset += 4 * n
        people.append(frames)
    return planes, plate["focal_px"], people


def rotation(yaw, pitch):
    """Columns: the camera's right, up and forward in the room (x right, y ahead, z up), for a
    camera turned right by yaw and up by pitch."""
    forward = np.array([math.sin(yaw) * math.cos(pitch), math.cos(yaw) * math.cos(pitch), math.sin(pitch)])
    right = np.array([math.cos(yaw), -math.sin(yaw), 0.0])
    up = np.cross(right, forward)
    return np.column_stack([right, up, forward])


def camera_matrix(hfov, width, height):
    """Pixel (continuous, centres at +0.5) from a ray (right, up, forward)."""
    focal = width / 2 / math.tan(hfov / 2)
    return np.array([[focal, 0, width / 2], [0, -focal, height / 2], [0, 0, 1.0]])


def plate_homography(entry, plate_shape, plate_focal):
    """The plate pixel each frame pixel shows, both in OpenCV's index coordinates."""
    width, height = entry["width"], entry["height"]
    to_ray = np.linalg.inv(camera_matrix(entry["hfov_rad"], width, height))
    # The plate is a pinhole picture looking straight ahead (yaw 0, pitch 0), at infinity.
    plate_height, plate_width = plate_shape
    to_plate = np.array([[plate_focal, 0, plate_width / 2], [0, -plate_focal, plate_height / 2], [0, 0, 1.0]])
    room_to_camera_frame = np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0.0]])  # (x, y, z) -> (right, up, forward) at rest
    continuous = to_plate @ room_to_camera_frame @ rotation(entry["yaw_rad"], entry["pitch_rad"]) @ to_ray
    shift = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1.0]])
    return np.linalg.inv(shift) @ continuous @ shift


def body_box(person, entry):
    """The body's box in pixels (x, y, width, height): the billboard 0.26 x height wide, from the
    floor to the top of the head, facing the camera, projected through the pinhole."""
    x, y, tall = person["x_m"], person["y_m"], person["height_m"]
    ground = math.hypot(x, y)
    across = np.array([y / ground, -x / ground])
    half = 0.13 * tall
    to_pixel = camera_matrix(entry["hfov_rad"], entry["width"], entry["height"])
    to_camera = rotation(entry["yaw_rad"], entry["pitch_rad"]).T
    points = []
    for side in (-1, 1):
        for z in (0.0, tall):
            corner = np.array([x + side * across[0] * half, y + side * across[1] * half, z - entry["mount_height_m"]])
            ray = to_camera @ corner
            pixel = to_pixel @ (ray / ray[2])
            points.append(pixel[:2])
    points = np.array(points)
    left, top = points.min(axis=0)
    right, bottom = points.max(axis=0)
    return left, top, right - left, bottom - top


def draw(entry, plate, plate_focal, people):
    width, height = entry["width"], entry["height"]
    homography = plate_homography(entry, plate.shape[1:], plate_focal)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    canvas = np.stack([cv2.warpPerspective(p, homography, (width, height), flags=flags, borderMode=cv2.BORDER_REFLECT)
                       for p in plate]).astype(np.float64)
    worst_box = 0.0
    for person in entry["people"]:  # farthest first, as logged
        if "rect_px" not in person:
            continue
        rx, ry, rw, rh = person["rect_px"]
        bx, by, bw, bh = body_box(person, entry)
        worst_box = max(worst_box, abs(ry - by), abs(rh - bh), abs((rx + rw / 2) - (bx + bw / 2)))
        sprite = people[person["person"]][person["frame"]]
        sh, sw = sprite.shape[1:]
        sx, sy = sw / rw, sh / rh
        if person["flipped"]:
            matrix = np.array([[-sx, 0, sw - (0.5 - rx) * sx - 0.5], [0, sy, (0.5 - ry) * sy - 0.5]])
        else:
            matrix = np.array([[sx, 0, (0.5 - rx) * sx - 0.5], [0, sy, (0.5 - ry) * sy - 0.5]])
        warped = np.stack([cv2.warpAffine(p, matrix, (width, height), flags=flags, borderMode=cv2.BORDER_REPLICATE)
                           for p in sprite]).astype(np.float64)
        # Only the pixels whose centres fall inside the rectangle.
        xs = np.arange(width) + 0.5
        ys = np.arange(height) + 0.5
        inside = np.outer((ys >= ry) & (ys < ry + rh), (xs >= rx) & (xs < rx + rw))
        alpha = np.where(inside, warped[3] / 255.0, 0.0)
        canvas[:3] = canvas[:3] + (warped[:3] - canvas[:3]) * alpha
    canvas = np.clip(np.rint(canvas), 0, 255).astype(np.uint8)
    if entry["mirrored"]:
        canvas = canvas[:, :, ::-1]
    return canvas, worst_box


def to_yuyv(planes):
    y, u, v = planes.astype(np.int32)
    out = np.empty((y.shape[0], y.shape[1] * 2), np.uint8)
    out[:, 0::2] = y
    out[:, 1::4] = (u[:, 0::2] + u[:, 1::2] + 1) // 2
    out[:, 3::4] = (v[:, 0::2] + v[:, 1::2] + 1) // 2
    return out


def yuv_to_bgr(planes):
    y = (planes[0].astype(float) - 16) * 1.164
    u = planes[1].astype(float) - 128
    v = planes[2].astype(float) - 128
    return np.clip(np.dstack([y + 2.017 * u, y - 0.392 * u - 0.813 * v, y + 1.596 * v]), 0, 255).astype(np.uint8)


def psnr(a, b):
    mse = np.mean((a.astype(float) - b.astype(float)) ** 2)
    return math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--footage", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--frames", required=True)
    parser.add_argument("--stamps", required=True)
    parser.add_argument("--format", default="yuyv", choices=["yuyv", "mjpeg"])
    parser.add_argument("--min-psnr", type=float, default=35.0)
    parser.add_argument("--save-png")
    parser.add_argument("--label", default="frames")
    parser.add_argument("--crops")
    parser.add_argument("--size", default="", help="WIDTHxHEIGHT of the frames read, with --crops")
    arguments = parser.parse_args()

    plate, plate_focal, people = load_footage(arguments.footage)
    entries = {}
    for line in open(arguments.log):
        entry = json.loads(line)
        entries[entry["timestamp_us"]] = entry
    stamps = [int(line) for line in open(arguments.stamps) if line.strip()]
    crops = [[float(v) for v in line.split()] for line in open(arguments.crops)] if arguments.crops else None
    data = open(arguments.frames, "rb").read()
    failures = 0
    figures = []
    offset = 0
    for index, stamp in enumerate(stamps):
        entry = entries.get(stamp)
        if entry is None:
            print(f"  frame {index}: timestamp {stamp} us is not one docksim drew")
            failures += 1
            continue
        width, height = entry["width"], entry["height"]
        expected, worst_box = draw(entry, plate, plate_focal, people)
        if crops is not None:
            # The crop as the service cut it (its pixels rounded), scaled to the frame read.
            # Halves away from zero, as C's lround (Python's round goes to even).
            x, y, w, h = crops[index]
            pixels = lambda share, extent: int(math.floor(share * extent + 0.5))
            left, top = min(max(pixels(x, width), 0), width - 1), min(max(pixels(y, height), 0), height - 1)
            across, down = min(max(pixels(w, width), 1), width - left), min(max(pixels(h, height), 1), height - top)
            width, height = (int(v) for v in arguments.size.split("x"))
            interpolation = cv2.INTER_AREA if across > width else cv2.INTER_LINEAR
            expected = np.stack([cv2.resize(p[top:top + down, left:left + across], (width, height), interpolation=interpolation)
                                 for p in expected])
        if arguments.format == "yuyv":
            size = width * height * 2
            received = np.frombuffer(data[offset:offset + size], np.uint8).reshape(height, width * 2)
            offset += size
            expected_bytes = to_yuyv(expected)
            luma_psnr = psnr(received[:, 0::2], expected_bytes[:, 0::2])
            mad = np.mean(np.abs(received.astype(int) - expected_bytes.astype(int)))
            received_bgr = cv2.cvtColor(received.reshape(height, width, 2), cv2.COLOR_YUV2BGR_YUYV)
        else:
            end = data.find(b"\xff\xd9", offset) + 2
            decoded = cv2.imdecode(np.frombuffer(data[offset:end], np.uint8), cv2.IMREAD_COLOR)
            offset = end
            # Compared in luma: the JPEG's (full range) back to video range.
            luma = cv2.cvtColor(decoded, cv2.COLOR_BGR2YCrCb)[:, :, 0].astype(float) * 219 / 255 + 16
            luma_psnr = psnr(luma, expected[0])
            mad = np.mean(np.abs(luma - expected[0].astype(float)))
            received_bgr = decoded
        ok = luma_psnr >= arguments.min_psnr and worst_box <= 0.5
        failures += 0 if ok else 1
        figures.append(luma_psnr)
        print(f"  frame {index} (seq {entry['sequence']}, pan {math.degrees(entry['yaw_rad']):+.1f} deg, "
              f"{len(entry['people'])} people): luma PSNR {luma_psnr:.1f} dB, mean |difference| {mad:.2f}, "
              f"boxes within {worst_box:.3f} px{'' if ok else '  FAIL'}")
        if arguments.save_png and index % 10 == 0:
            os.makedirs(arguments.save_png, exist_ok=True)
            cv2.imwrite(os.path.join(arguments.save_png, f"{arguments.label}-{index:02d}-received.png"), received_bgr)
            cv2.imwrite(os.path.join(arguments.save_png, f"{arguments.label}-{index:02d}-drawn-here.png"), yuv_to_bgr(expected))
    finite = [f for f in figures if math.isfinite(f)]
    print(f"{arguments.label}: {len(stamps)} frames, luma PSNR min {min(finite, default=math.inf):.1f} dB, "
          f"median {np.median(finite) if finite else math.inf:.1f} dB against the drawing made here; {failures} failed")
    sys.exit(1 if failures or not stamps else 0)


main()
