#!/usr/bin/env python3
"""A real detector on real video: OpenCV's HOG people detector (and, with --faces, a Haar face
cascade) on a video file or a V4L2 camera. Writes the people it finds as MOTChallenge detections
and, with --track, hands each frame to dockd with `Track` at its capture time, so the dock
follows whoever it sees. Needs only Debian's python3-opencv and opencv-data: the HOG model is
built into OpenCV and the cascade is read from /usr/share/opencv4/haarcascades; nothing is
downloaded. The --track path speaks Varlink itself (JSON messages ended by a NUL byte on a Unix
socket), so it needs no package beyond the standard library.

    /usr/bin/python3 examples/detect_video.py /usr/share/doc/opencv-doc/examples/data/vtest.avi --out det.txt
    dockctl replay --mot det.txt --out tracks.txt --size 768x576 --fps 10
    /usr/bin/python3 examples/detect_video.py /dev/video0 --faces --track unix:/run/dockd/dockd.sock
    LD_PRELOAD=$(docksim --preload-library) python3 examples/detect_video.py /tmp/webcam --size 640x360 --track unix:...

With --appearance each person also gets an appearance descriptor, computed with OpenCV alone: a
hue-saturation histogram (8 x 4 = 32 bins) of the torso — the middle half of the box across, from
20 % to 55 % of its height down, where HOG's margin leaves the shirt — scaled to unit length. It
is sent with Track (dockd's tracker compares descriptors by cosine distance, to tell people apart
and to bring one back under their old id), and written after each detection line's ten fields,
which `dockctl replay` reads. Brightness (V) is left out, so a shadow changes it little.

Confidence: HOG's SVM score s becomes 1 / (1 + exp(-3 (s - 0.5))) (s = 0.5 → 0.5, 1 → 0.82,
2 → 0.99), so dockd's thresholds (confident from 0.55, new tracks from 0.6) sit at s ≈ 0.57 and
0.64; a face's cascade weight w becomes 1 / (1 + exp(-w / 2)).
"""
import argparse
import json
import math
import os
import socket
import stat
import sys
import time

import cv2

CASCADES = "/usr/share/opencv4/haarcascades"


class Dock:
    """A minimal Varlink client of io.dockd.Dock: one call at a time, replies read to the NUL."""

    def __init__(self, address):
        if not address.startswith("unix:"):
            raise SystemExit(f"detect_video: --track needs unix:PATH, got {address!r}")
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(address[len("unix:"):].split(";")[0])
        self.buffer = b""

    def call(self, method, parameters):
        message = json.dumps({"method": f"io.dockd.Dock.{method}", "parameters": parameters}).encode() + b"\0"
        self.socket.sendall(message)
        while b"\0" not in self.buffer:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise SystemExit("detect_video: dockd closed the connection")
            self.buffer += chunk
        reply, self.buffer = self.buffer.split(b"\0", 1)
        reply = json.loads(reply)
        if "error" in reply:
            raise SystemExit(f"detect_video: {method}: {reply['error']} {reply.get('parameters', {})}")
        return reply.get("parameters", {})


def logistic(value):
    return 1 / (1 + math.exp(-value))


def torso_histogram(hsv, x, y, w, h):
    """The 32-bin hue-saturation histogram of the box's torso, of unit length; None when the torso
    is under 2 x 2 pixels in the image, or all black."""
    height, width = hsv.shape[:2]
    left, right = int(max(0, x + 0.25 * w)), int(min(width, x + 0.75 * w))
    top, bottom = int(max(0, y + 0.2 * h)), int(min(height, y + 0.55 * h))
    if right - left < 2 or bottom - top < 2:
        return None
    histogram = cv2.calcHist([hsv[top:bottom, left:right]], [0, 1], None, [8, 4], [0, 180, 0, 256]).ravel()
    norm = math.sqrt(float((histogram * histogram).sum()))
    if norm == 0:
        return None
    return [round(float(value) / norm, 4) for value in histogram]


def open_source(source, size):
    """A VideoCapture for a file, a V4L2 device (/dev/videoN, any character device, or a camera
    index) at `size` when given; and whether it is a live camera."""
    if source.isdigit():
        capture, is_live = cv2.VideoCapture(int(source), cv2.CAP_V4L2), True
    elif source.startswith("/dev/video") or (os.path.exists(source) and stat.S_ISCHR(os.stat(source).st_mode)):
        capture, is_live = cv2.VideoCapture(source, cv2.CAP_V4L2), True
    elif not os.path.exists(source):
        raise SystemExit(f"detect_video: no such file: {source}")
    else:
        return cv2.VideoCapture(source), False
    if size:
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
    return capture, is_live


def frame_size(text):
    """WIDTHxHEIGHT, for argparse."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"needs WIDTHxHEIGHT, e.g. 640x360, got {text!r}")
    if width <= 0 or height <= 0:
        raise argparse.ArgumentTypeError(f"needs a positive size, got {text!r}")
    return width, height


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", help="a video file, /dev/videoN, or a camera index")
    parser.add_argument("--out", help="write the people found as MOTChallenge detections here")
    parser.add_argument("--faces", action="store_true", help="also find faces (sent to dockd as kind face)")
    parser.add_argument("--faces-out", help="write the faces found as MOTChallenge detections here (implies --faces)")
    parser.add_argument("--track", metavar="unix:SOCKET", help="send every frame to dockd with Track")
    parser.add_argument("--fov", type=float, default=60, help="the camera's horizontal field of view, degrees (60)")
    parser.add_argument("--size", type=frame_size, metavar="WxH",
                        help="ask a camera for frames of this size (e.g. 640x360; the driver may round it)")
    parser.add_argument("--scale", type=float, default=1.0, help="resize frames by this before detecting (1.0)")
    parser.add_argument("--hog-step", type=float, default=1.2, help="HOG's pyramid step (1.2; 1.05 finds more, slower)")
    parser.add_argument("--appearance", action="store_true",
                        help="send each person's torso colour histogram (32 values) and write it after the detection line")
    parser.add_argument("--max-frames", type=int, default=0, help="stop after this many frames (0: all)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    if args.faces_out:
        args.faces = True

    capture, is_live = open_source(args.source, args.size)
    if not capture.isOpened():
        raise SystemExit(f"detect_video: cannot open {args.source}")
    fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
    hog = cv2.HOGDescriptor()
    hog.setSVMDetector(cv2.HOGDescriptor_getDefaultPeopleDetector())
    faces = None
    if args.faces:
        faces = cv2.CascadeClassifier(os.path.join(CASCADES, "haarcascade_frontalface_default.xml"))
        if faces.empty():
            raise SystemExit(f"detect_video: no face cascade in {CASCADES} (apt-get install opencv-data)")
    dock = Dock(args.track) if args.track else None
    bodies_file = open(args.out, "w") if args.out else None
    faces_file = open(args.faces_out, "w") if args.faces_out else None

    start = time.clock_gettime(time.CLOCK_MONOTONIC)
    frame_number, body_count, face_count, detect_seconds = 0, 0, 0, 0.0
    while not args.max_frames or frame_number < args.max_frames:
        ok, image = capture.read()
        if not ok:
            break
        frame_number += 1
        if is_live:
            capture_time = time.clock_gettime(time.CLOCK_MONOTONIC)
        else:
            # A file's frame n was captured n / fps after the first; sent no sooner than that.
            capture_time = start + (frame_number - 1) / fps
            if dock is not None:
                delay = capture_time - time.clock_gettime(time.CLOCK_MONOTONIC)
                if delay > 0:
                    time.sleep(delay)
        height, width = image.shape[:2]
        began = time.perf_counter()
        small = cv2.resize(image, None, fx=args.scale, fy=args.scale) if args.scale != 1 else image
        rects, weights = hog.detectMultiScale(small, winStride=(8, 8), padding=(8, 8), scale=args.hog_step)
        found = []
        for (x, y, w, h), weight in zip(rects, list(weights.ravel()) if len(rects) else []):
            found.append(("body", x / args.scale, y / args.scale, w / args.scale, h / args.scale,
                          logistic(3 * (float(weight) - 0.5))))
        if faces is not None:
            gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
            boxes, _, levels = faces.detectMultiScale3(gray, scaleFactor=1.1, minNeighbors=4, minSize=(20, 20),
                                                       outputRejectLevels=True)
            for (x, y, w, h), level in zip(boxes, list(levels.ravel()) if len(boxes) else []):
                found.append(("face", x / args.scale, y / args.scale, w / args.scale, h / args.scale,
                              logistic(float(level) / 2)))
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV) if args.appearance else None
        appearances = [torso_histogram(hsv, x, y, w, h) if hsv is not None and kind == "body" else None
                       for kind, x, y, w, h, _ in found]
        detect_seconds += time.perf_counter() - began

        observations = []
        for (kind, x, y, w, h, confidence), appearance in zip(found, appearances):
            extra = "".join(f",{value:.4f}" for value in appearance) if appearance else ""
            line = f"{frame_number},-1,{x:.2f},{y:.2f},{w:.2f},{h:.2f},{confidence:.3f},-1,-1,-1{extra}\n"
            if kind == "body":
                body_count += 1
                if bodies_file:
                    bodies_file.write(line)
            else:
                face_count += 1
                if faces_file:
                    faces_file.write(line)
            # dockd takes boxes inside the image: clip, in normalised coordinates.
            left, top = max(0.0, x / width), max(0.0, y / height)
            right, bottom = min(1.0, (x + w) / width), min(1.0, (y + h) / height)
            if right > left and bottom > top and len(observations) < 64:
                observation = {"kind": kind, "confidence": round(min(1.0, max(0.0, confidence)), 4),
                               "box": {"x": left, "y": top, "width": right - left, "height": bottom - top}}
                if appearance:
                    observation["appearance"] = appearance
                observations.append(observation)
        if dock is not None:
            dock.call("Track", {"observations": observations, "capture_time": capture_time,
                                "camera": {"horizontal_fov": math.radians(args.fov), "aspect_ratio": width / height}})
        if not args.quiet and frame_number % 100 == 0:
            print(f"detect_video: frame {frame_number}, {body_count} people and {face_count} faces so far", file=sys.stderr)

    for file in (bodies_file, faces_file):
        if file:
            file.close()
    if frame_number == 0:
        raise SystemExit(f"detect_video: no frame could be read from {args.source}")
    print(json.dumps({"frames": frame_number, "width": width, "height": height, "fps": fps, "people": body_count,
                      "faces": face_count, "detector_ms_per_frame": round(1000 * detect_seconds / frame_number, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
