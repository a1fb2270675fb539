#!/usr/bin/env python3
"""Timing of the reference firmware under emulation (dockfw-sim, real time), for BENCHMARKS.md:
the hello → info and heartbeat → ack round trips as a host on the pseudo-terminal sees them
(wall clock), the same answers in the AVR's own emulated time (from the harness's trace), the
telemetry rate, and what the emulation costs the host. Figures only; nothing here is a test.

    bench.py --sim dockfw-sim --elf dockfw.elf [--heartbeats N] [--seconds S]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dock_link import Link  # noqa: E402
from harness import Harness  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def row(name, values, unit_scale=1000.0):
    values = [v * unit_scale for v in values]
    print(f"| {name} | {len(values)} | {statistics.median(values):.2f} | {percentile(values, 0.95):.2f} | "
          f"{max(values):.2f} |")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sim", required=True)
    parser.add_argument("--elf", required=True)
    parser.add_argument("--heartbeats", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=10.0)
    arguments = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="dockfw-bench.")
    harness = Harness(arguments.sim, arguments.elf, directory, trace=True)
    link = Link(harness.pty)
    try:
        hello_wall = []
        for _ in range(20):
            sent = time.monotonic()
            link.hello()
            info, _ = link.wait_for(lambda f: f["type"] == "info", 2)
            hello_wall.append(info["received"] - sent)
            time.sleep(0.05)
        beat_wall = []
        for _ in range(arguments.heartbeats):
            sent = time.monotonic()
            seq = link.heartbeat()
            ack, _ = link.wait_for(lambda f: f["type"] == "ack" and f["acked_seq"] == seq, 2)
            beat_wall.append(ack["received"] - sent)
            time.sleep(0.01)

        # Telemetry over a stretch of wall time, the host keeping the session alive.
        cpu_before, wall_before = cpu_seconds(harness.process.pid), time.monotonic()
        received = []
        while time.monotonic() - wall_before < arguments.seconds:
            link.heartbeat()
            received += link.read_for(0.1)
        telemetry = [f for f in received if f["type"] == "telemetry"]
        wall = time.monotonic() - wall_before
        cpu = cpu_seconds(harness.process.pid) - cpu_before
        gaps = [(b["time_us"] - a["time_us"]) / 1e6 for a, b in zip(telemetry, telemetry[1:])]
        arrivals = [b["received"] - a["received"] for a, b in zip(telemetry, telemetry[1:])]
        seqs = [f["seq"] for f in received]
    finally:
        link.close()
        harness.stop()

    # The same answers in emulated time: from the host frame's last byte having crossed the line
    # into the AVR's UART to the answer's first byte (its leading delimiter, a byte before the first
    # byte the trace stamps: the specification's answer time) and to its last byte leaving the
    # AVR's UART (both in the harness's trace).
    byte_s = 10 / 117647
    hello_emulated, beat_emulated, hello_first, beat_first, pending = [], [], [], [], None
    for emulated, _, words in sorted(harness.lines(), key=lambda line: line[0]):
        if words[:2] in (["host", "hello"], ["host", "heartbeat"]):
            pending = (words[1], emulated)
        elif words[0] == "dock" and words[1] in ("info", "ack") and pending:
            (hello_emulated if pending[0] == "hello" else beat_emulated).append(emulated - pending[1])
            (hello_first if pending[0] == "hello" else beat_first).append(float(words[-1]) - byte_s - pending[1])
            pending = None
    lags = [float(w[1]) for _, _, w in harness.lines() if w[0] == "lag"]

    print("| measurement | samples | p50 | p95 | max |")
    print("|---|---|---|---|---|")
    row("hello → info, wall clock, host on the pty (ms)", hello_wall)
    row("heartbeat → ack, wall clock, host on the pty (ms)", beat_wall)
    row("hello → info's first byte, emulated AVR time (ms)", hello_first)
    row("hello → info's last byte, emulated AVR time (ms)", hello_emulated)
    row("heartbeat → ack's first byte, emulated AVR time (ms)", beat_first)
    row("heartbeat → ack's last byte, emulated AVR time (ms)", beat_emulated)
    row("telemetry spacing by the dock's clock (ms)", gaps)
    row("telemetry spacing as received, wall clock (ms)", arrivals)
    print()
    lost = sum(b - a - 1 for a, b in zip(seqs, seqs[1:]) if b > a + 1)
    print(f"telemetry: {len(telemetry)} frames in {wall:.1f} s of wall clock = {len(telemetry) / wall:.2f} Hz "
          f"(advertised 50 Hz); the dock's clock advanced {sum(gaps):.2f} s over them; "
          f"frames lost by sequence number: {lost}")
    print(f"dockfw-sim CPU: {cpu:.2f} s in {wall:.1f} s = {100 * cpu / wall:.1f} % of one core; "
          f"fell behind the wall clock {len(lags)} times (max {max(lags, default=0):.0f} ms)")


if __name__ == "__main__":
    main()
