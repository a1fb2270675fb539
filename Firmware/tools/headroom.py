#!/usr/bin/env python3
"""How much faster than the line the reference firmware's receive path is, measured under
emulation (dockfw-sim): the shortest byte time at which 5 000 bytes back to back — noise, or runs of
248 bytes — still lose no byte (dockfw-sim --byte-us sets both directions of the line that fast; the
ring's overrun count is read from the AVR's RAM), and the CPU cycles a heartbeat, a planned move and
a millisecond of motion cost (from the harness's count of cycles the CPU spent awake, above those of
the dock standing still). Figures for BENCHMARKS.md and Firmware/README.md; nothing here is a test.

    headroom.py --sim dockfw-sim --elf dockfw.elf [--byte-us 85,60,50,...]
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dock_link import Link, frame  # noqa: E402
from harness import Harness  # noqa: E402

SILICON_BYTE_US = 1e6 * 10 / 117647  # 10 bits at the firmware's 117 647 baud


def pseudo_random_bytes(count, seed):
    out, state = bytearray(), seed
    for _ in range(count):
        state = (state * 1664525 + 1013904223) & 0xFFFFFFFF
        out.append(state >> 24)
    return bytes(out)


def streams():
    """Back-to-back traffic for the byte-time sweep: name → (bytes, frames in it to be answered)."""
    runs = b"".join(frame(0x7E, 1000 + i, bytes((j + i) % 255 + 1 for j in range(240))) for i in range(20))
    noise = pseudo_random_bytes(5000, 82)
    return {"noise, 5 000 pseudo-random bytes": (noise, 0), "248-byte runs, 20 back to back (5 000 bytes)": (runs, 20)}


def symbol(elf, name):
    out = subprocess.run(["avr-nm", elf], check=True, capture_output=True, text=True).stdout
    return next(int(p[0], 16) & 0xFFFF for p in (l.split() for l in out.splitlines()) if len(p) == 3 and p[2] == name)


def peek(harness, address):
    after = time.monotonic()
    harness.command(f"peek {address:x} 1")
    line = harness.wait_line(lambda w: w[0] == "peek" and int(w[1], 16) == address, 2, after)
    return int(line[2][2], 16)


def session(sim, elf, byte_us):
    directory = tempfile.mkdtemp(prefix="dockfw-headroom.")
    harness = Harness(sim, elf, directory, trace=False, extra=["--byte-us", f"{byte_us}"])
    link = Link(harness.pty)
    link.hello()
    link.wait_for(lambda f: f["type"] == "info", 2)
    return harness, link


def keeps_up(sim, elf, byte_us, data, answered):
    """Whether `data`, written at once at that byte time, loses no byte and gets every answer."""
    harness, link = session(sim, elf, byte_us)
    try:
        link.write(data)
        answers, deadline = 0, time.monotonic() + 2 + len(data) * byte_us / 1e6
        while time.monotonic() < deadline and answers < answered:
            answers += sum(1 for f in link.read(0.05) if f["type"] in ("ack", "nack"))
        link.read_for(0.1)
        return peek(harness, symbol(elf, "rx_overruns")) == 0 and answers == answered
    finally:
        link.close()
        harness.stop()


def busy_per_second(harness, seconds, action=None):
    """Busy cycles per second of emulated time while `action` runs (heartbeats every 50 ms)."""
    busy0, total0 = harness.cpu()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        (action or (lambda: None))()
    busy1, total1 = harness.cpu()
    return (busy1 - busy0) / (total1 - total0) * 16e6


def frame_costs(sim, elf):
    """CPU cycles of one frame and its answer, paced so that no answer waits for the line, above
    the cycles of the dock doing nothing; and of a millisecond of motion on both axes."""
    harness, link = session(sim, elf, SILICON_BYTE_US)
    out = {}
    try:
        def paced(make, count, gap):
            def action():
                for _ in range(count):
                    link.write(make(link))
                    link.read_for(gap)
            return action
        idle = busy_per_second(harness, 1.0, lambda: (link.heartbeat(), link.read_for(0.05)))
        heartbeat = paced(lambda lk: (lk.heartbeat(), b"")[1], 50, 0.01)
        busy0, total0 = harness.cpu()
        heartbeat()
        busy1, total1 = harness.cpu()
        seconds = (total1 - total0) / 16e6
        out["heartbeat and its ack"] = ((busy1 - busy0) - idle * seconds) / 50
        # a move to where the dock already is: the planning and the answer, no motion after it
        busy0, total0 = harness.cpu()
        for _ in range(30):
            link.send("move_to", struct.pack("<iiBI", 0, 0, 0, 500))
            link.read_for(0.02)
        busy1, total1 = harness.cpu()
        out["move_to by duration (planned) and its ack"] = ((busy1 - busy0) - idle * (total1 - total0) / 16e6) / 30
        link.send("move_to", struct.pack("<iiBI", -1000000, -500000, 0, 5000))
        link.read_for(0.05)
        moving = busy_per_second(harness, 1.0, lambda: (link.heartbeat(), link.read_for(0.05)))
        out["a millisecond of a move, both axes"] = (moving - idle) / 1000
        out["a millisecond of standing still (tick, telemetry at 50 Hz, heartbeats at 20 Hz)"] = idle / 1000
    finally:
        link.close()
        harness.stop()
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sim", required=True)
    parser.add_argument("--elf", required=True)
    parser.add_argument("--byte-us", default="85,60,50,45,40,35,30,25,20,15,10")
    arguments = parser.parse_args()
    sweep = [float(x) for x in arguments.byte_us.split(",")]
    print(f"The line: a byte every {SILICON_BYTE_US:.1f} µs (11 765 bytes/s) on silicon at this baud divisor.")
    print()
    print("| back to back, both directions of the line at that byte time | fastest byte time with nothing lost | bytes/s | × the line |")
    print("|---|---|---|---|")
    for name, (data, answered) in streams().items():
        fastest = None
        for byte_us in sweep:
            if not keeps_up(arguments.sim, arguments.elf, byte_us, data, answered):
                break
            fastest = byte_us
        print(f"| {name} | {fastest} µs | {1e6 / fastest:,.0f} | {SILICON_BYTE_US / fastest:.1f} |" if fastest
              else f"| {name} | slower than {sweep[0]} µs | | |", flush=True)
    print()
    print("| work | CPU cycles (16 MHz) | µs |")
    print("|---|---|---|")
    for name, cycles in frame_costs(arguments.sim, arguments.elf).items():
        print(f"| {name} | {cycles:,.0f} | {cycles / 16:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
