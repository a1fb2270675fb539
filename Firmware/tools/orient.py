#!/usr/bin/env python3
"""Turns the dock to an orientation in degrees and holds the API connection until it is there,
then prints the pose: for checking directions and calibrating the servos (Firmware/README.md).

    orient.py SOCKET YAW_DEG PITCH_DEG
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from varlink_call import Varlink  # noqa: E402


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(64)
    socket_path, yaw, pitch = sys.argv[1], math.radians(float(sys.argv[2])), math.radians(float(sys.argv[3]))
    api = Varlink(socket_path)
    result = api.call("io.dockd.Dock.SetOrientation", {"yaw": yaw, "pitch": pitch, "speed": 0.5})["result"]
    pose = api.wait_until_still(15)["pose"]
    clamped = f" (clamped to the limits: {', '.join(result['clamped'])})" if result.get("clamped") else ""
    print(f"yaw {math.degrees(pose['yaw']):.1f}°, pitch {math.degrees(pose['pitch']):.1f}°{clamped}")


if __name__ == "__main__":
    main()
