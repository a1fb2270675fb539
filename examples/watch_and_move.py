#!/usr/bin/env python3
"""Talks to dockd with the `varlink` package from PyPI (no dockd code): prints the dock's status,
watches its events on one connection while another turns the dock and plays an animation.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install varlink
    /tmp/venv/bin/python examples/watch_and_move.py unix:/run/dockd/dockd.sock
"""
import sys
import threading

import varlink


def main(address):
    with varlink.Client(address=address) as client:
        with client.open("io.dockd.Dock") as dock:
            status = dock.GetStatus()["status"]
            accessory = status.get("accessory") or {}
            print(f"dock {accessory.get('model', '?')} ({accessory.get('id', '?')}): {status['state']}, "
                  f"docked={status['docked']}, tracking={status['tracking']}")

        seen = []
        done = threading.Event()

        def watch():
            with client.open("io.dockd.Dock") as watcher:
                for reply in watcher.Watch(_more=True):
                    event = reply["event"]
                    if event["kind"] != "status" or len(seen) % 10 == 0:
                        pose = event["status"].get("pose") or {}
                        print(f"{event['time']:.2f} {event['kind']:<10} motion={event['status']['motion']:<9} "
                              f"yaw={pose.get('yaw', 0):+.3f} {event['detail']}")
                    seen.append(event)
                    if done.is_set() and len(seen) > 20:
                        return

        thread = threading.Thread(target=watch, daemon=True)
        thread.start()
        with client.open("io.dockd.Dock") as dock:
            result = dock.SetVelocity(yaw=0.4, pitch=0.0, duration=0.5)["result"]
            print("velocity accepted; clamped:", result["clamped"])
            threading.Event().wait(0.8)
            dock.Animate(animation="yes")
            print("animation yes started")
            threading.Event().wait(2.0)
        done.set()
        thread.join(timeout=5)
        kinds = {event["kind"] for event in seen}
        print(f"{len(seen)} events seen: {', '.join(sorted(kinds))}")
        return 0 if "status" in kinds else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "unix:/run/dockd/dockd.sock"))
