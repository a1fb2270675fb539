#!/usr/bin/env python3
"""Pelco-D peers written from the published protocol alone: a head that a host (dockd) is pointed
at, a host that checks a head, and a self-test of the two against each other and the golden frames.

Nothing here comes from dockd's Swift code (its link or its emulated head). Every rule below comes
from the sources listed next, or from Protocol/pelco-d.md, which cites them. Python 3 standard
library only; pseudo-terminals only.

Roles
-----
  pelco_d_peer.py head  --pty PATH [--address N] [--position-queries] [--seconds S] [--report FILE.json]
  pelco_d_peer.py host  --pty PATH [--address N] [--timeout S]
  pelco_d_peer.py check-report FILE.json [--expect-pan-right] [--expect-pan-left] [--expect-stopped] ...
  pelco_d_peer.py selftest

`head` is a minimal Pelco-D head that dockd is pointed at (`dockd --protocol pelco-d --device
PATH`). It prints one line per event on standard output, flushed at once, for a script to wait on:
`READY pty PATH -> SLAVE`, then for each good frame for it `FRAME T HEX NAME`, for each drive
`DRIVE T pan=DIR:STEP tilt=DIR:STEP pan_deg=D` (DIR right, left or stop; T is time.monotonic(),
the system's CLOCK_MONOTONIC), for each stop `STOP T pan_deg=D`, and `OPEN`/`CLOSED` when the host
opens or closes the port. It keeps its own pan and tilt by adding up the speeds of the steps it is
sent (no acceleration), answers the position queries with them when --position-queries, and
writes a JSON report at exit (after --seconds, SIGTERM or SIGINT) that `check-report` holds to
the expectations on its command line.

`host` checks a head (e.g. `docksim --protocol pelco-d --position-queries --pty PATH`): it asks its
position, drives it, stops it, and sends it frames it must ignore, and prints `ok NAME: detail` or
`FAIL NAME: why` per check, then exactly `N passed, M failed`; it exits 0 only when M is 0.

`selftest` reads the golden frames (Protocol/vectors/pelco-d/frames.json) with this file's own
parser, then runs `host` against `head --position-queries` over a pseudo-terminal: it shows the
two peers agree with each other and with the vectors, not with dockd.

Sources (the bracketed tags are cited by the rules below)
---------------------------------------------------------
[TF-0002]  Pelco, "D" Protocol Manual, TF-0002 v2 r1 (2003): 1 start, 8 data, 1 stop bit, no
           parity; seven bytes: sync FF, address, command 1, command 2, data 1 (pan speed 00-3F,
           FF turbo), data 2 (tilt speed 00-3F), checksum = 8-bit sum of bytes 2 to 6; command 2
           bit 1 pan right, 2 pan left, 3 tilt up, 4 tilt down, 5 zoom tele, 6 zoom wide, 7 focus
           far, bit 0 zero for a standard command.
           https://fdocuments.in/document/pelcodprotocolmanual21.html
[C466M]    Pelco manual C466M-E (6/99) p. 22: extended commands have bit 0 of word 4 set; set
           preset 00 03 00 NN, clear preset 00 05 00 NN, go to preset 00 07 00 NN.
           http://camera.manualsonline.com/manuals/mfg/pelco/drd14.html?p=22
[PTZO]     PTZOptics ZCAM G2 manual p. 19, Pelco-D command list: stop FF AA 00 00 00 00 SUM;
           query pan 00 51 00 00 -> 00 59 HH LL; query tilt 00 53 00 00 -> 00 5B HH LL.
           https://manualshive.com/en/manual/ptzoptics/pteptz-ndi-zcam-g2/1623556?page=22
[SPEC]     Protocol/pelco-d.md: positions in hundredths of a degree, 0-35999; the generic head's
           speeds (60 and 30 deg/s at step 3F, even steps); what dockd must never send (turbo,
           command 1 bits, a direction at speed 0, speeds 40-FE, both directions of one axis).
"""
import argparse
import json
import os
import select
import signal
import subprocess
import sys
import termios
import time
import tty
from pathlib import Path

VECTORS = Path(__file__).resolve().parent.parent / "Protocol" / "vectors" / "pelco-d" / "frames.json"


class UsageError(Exception):
    """A command line that cannot be run (exit 64)."""


def hexs(data):
    """Bytes as `FF 01 00 02 20 00 23`."""
    return " ".join(f"{b:02X}" for b in data)


def checksum(body):
    """The sum of bytes 2 to 6 modulo 256 [TF-0002]."""
    return sum(body) % 256


def frame(address, command1, command2, data1, data2):
    """A whole frame: sync, the five bytes, their checksum [TF-0002]."""
    body = bytes([address, command1, command2, data1, data2])
    return bytes([0xFF]) + body + bytes([checksum(body)])


class Receiver:
    """Finds frames in a byte stream as [TF-0002] frames them: a frame starts at FF and is seven
    bytes; with a wrong checksum only its FF is dropped and the next FF looked for. Counts each run
    of bytes that made no frame once."""

    def __init__(self):
        self.buffer = bytearray()
        self.bad_runs = 0
        self.in_bad_run = False

    def feed(self, data):
        """The good frames in `data` (with what came before), in order."""
        self.buffer += data
        frames = []
        while self.buffer:
            if self.buffer[0] != 0xFF:
                sync = self.buffer.find(0xFF)
                if not self.in_bad_run:
                    self.bad_runs += 1
                self.in_bad_run = sync < 0
                del self.buffer[: len(self.buffer) if sync < 0 else sync]
                continue
            if len(self.buffer) < 7:
                break
            candidate = bytes(self.buffer[:7])
            if checksum(candidate[1:6]) != candidate[6]:
                if not self.in_bad_run:
                    self.bad_runs += 1
                self.in_bad_run = True
                del self.buffer[0]
                continue
            self.in_bad_run = False
            del self.buffer[:7]
            frames.append(candidate)
        return frames


def describe(data):
    """What a host-to-head frame says, as the vectors name it ([TF-0002], [C466M], [PTZO])."""
    command1, command2, data1, data2 = data[2], data[3], data[4], data[5]
    if command2 & 0x01:
        names = {0x03: "set_preset", 0x05: "clear_preset", 0x07: "go_to_preset", 0x51: "query_pan", 0x53: "query_tilt"}
        name = names.get(command2, f"extended_{command2:02x}")
        result = {"type": name}
        if name.endswith("preset"):
            result["preset"] = data2
        return result
    if command1 == command2 == data1 == data2 == 0:
        return {"type": "stop"}

    def axis(positive_bit, negative_bit, positive, negative):
        if command2 & positive_bit and command2 & negative_bit:
            return "both"
        return positive if command2 & positive_bit else negative if command2 & negative_bit else "stop"

    return {"type": "drive", "pan": axis(0x02, 0x04, "right", "left"), "pan_speed": data1,
            "tilt": axis(0x08, 0x10, "up", "down"), "tilt_speed": data2}


def set_raw(fd):
    """Raw 8N1 [TF-0002]; at 2400 baud, which on a pty means nothing."""
    tty.setraw(fd, termios.TCSANOW)
    attrs = termios.tcgetattr(fd)
    attrs[2] |= termios.CLOCAL | termios.CREAD
    attrs[4] = attrs[5] = termios.B2400
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


# =============================================================================================
# Head
# =============================================================================================

class Head:
    """A Pelco-D head: it turns at its steps' speeds until told otherwise, and keeps its own pan."""

    def __init__(self, args):
        self.address = args.address
        self.queries = args.position_queries
        self.pan_fastest, self.tilt_fastest = args.pan_deg_s, args.tilt_deg_s
        self.started = time.monotonic()
        self.pan_deg = self.tilt_deg = 0.0
        self.pan_rate = self.tilt_rate = 0.0  # deg/s, signed
        self.moved_at = self.started
        self.receiver = Receiver()
        self.frames = []
        self.drives = []
        self.violations = []
        self.other_addresses = 0
        self.max_pan_deg = self.min_pan_deg = 0.0
        self.presets = {}

    def speed(self, step, fastest):
        """Deg/s of a speed byte: even steps up to 3F [SPEC]."""
        return fastest * min(step, 0x3F) / 63

    def advance(self, now):
        span = now - self.moved_at
        self.pan_deg += self.pan_rate * span
        self.tilt_deg += self.tilt_rate * span
        self.moved_at = now
        self.max_pan_deg = max(self.max_pan_deg, self.pan_deg)
        self.min_pan_deg = min(self.min_pan_deg, self.pan_deg)

    def receive(self, data, now):
        """Takes bytes from the host; returns the bytes to answer with."""
        answers = b""
        for good in self.receiver.feed(data):
            if good[1] != self.address:
                self.other_addresses += 1
                continue
            answers += self.carry_out(good, now)
        return answers

    def violation(self, now, why, data):
        self.violations.append({"t": round(now - self.started, 4), "why": why, "hex": hexs(data)})

    def carry_out(self, data, now):
        self.advance(now)
        said = describe(data)
        self.frames.append({"t": round(now - self.started, 4), "hex": hexs(data), "command": said})
        print(f"FRAME {now:.6f} {hexs(data)} {said['type']}", flush=True)
        if data[2] != 0:
            self.violation(now, "command 1 is not 00: dockd sets no lens or camera bits [SPEC]", data)
        kind = said["type"]
        if kind in ("query_pan", "query_tilt"):
            if not self.queries:
                return b""
            degrees = self.pan_deg if kind == "query_pan" else self.tilt_deg
            value = round(degrees * 100) % 36000  # hundredths of a degree, 0-35999 [SPEC]
            return frame(self.address, 0x00, 0x59 if kind == "query_pan" else 0x5B, value >> 8, value & 0xFF)
        if kind in ("set_preset", "clear_preset", "go_to_preset"):
            if not self.queries:
                self.violation(now, f"{kind} to a head without position queries [SPEC]", data)
            elif kind == "set_preset":
                self.presets[said["preset"]] = (self.pan_deg, self.tilt_deg)
            elif kind == "go_to_preset" and said["preset"] in self.presets:
                self.pan_rate = self.tilt_rate = 0.0
                self.pan_deg, self.tilt_deg = self.presets[said["preset"]]
            return b""
        if kind.startswith("extended_"):
            self.violation(now, "an extended command dockd does not send", data)
            return b""
        if kind == "stop":
            self.pan_rate = self.tilt_rate = 0.0
            self.drives.append({"t": round(now - self.started, 4), "pan": "stop", "tilt": "stop", "pan_deg": round(self.pan_deg, 4)})
            print(f"STOP {now:.6f} pan_deg={self.pan_deg:.4f}", flush=True)
            return b""
        # A drive [TF-0002].
        if data[3] & 0xE0:
            self.violation(now, "zoom or focus bits set", data)
        for name, speed in (("pan", data[4]), ("tilt", data[5])):
            direction = said[name]
            if direction == "both":
                self.violation(now, f"{name}: both directions at once", data)
            if speed == 0xFF:
                self.violation(now, f"{name}: turbo, which dockd does not send", data)
            elif speed > 0x3F:
                self.violation(now, f"{name}: speed {speed:02X} above 3F", data)
            if direction in ("right", "left", "up", "down") and speed == 0:
                self.violation(now, f"{name}: a direction at speed 0", data)
            if direction == "stop" and speed != 0:
                self.violation(now, f"{name}: a speed with no direction", data)
        pan_sign = {"right": 1, "left": -1}.get(said["pan"], 0)
        tilt_sign = {"up": 1, "down": -1}.get(said["tilt"], 0)
        self.pan_rate = pan_sign * self.speed(data[4], self.pan_fastest)
        self.tilt_rate = tilt_sign * self.speed(data[5], self.tilt_fastest)
        self.drives.append({"t": round(now - self.started, 4), "pan": said["pan"], "pan_speed": data[4],
                            "tilt": said["tilt"], "tilt_speed": data[5], "pan_deg": round(self.pan_deg, 4)})
        print(f"DRIVE {now:.6f} pan={said['pan']}:{data[4]} tilt={said['tilt']}:{data[5]} pan_deg={self.pan_deg:.4f}",
              flush=True)
        return b""

    def report(self, now, port_closed_stopped):
        self.advance(now)
        return {
            "started_monotonic": self.started,
            "address": self.address,
            "position_queries": self.queries,
            "frames": self.frames,
            "drives": self.drives,
            "malformed": self.receiver.bad_runs,
            "other_addresses": self.other_addresses,
            "violations": self.violations,
            "pan_deg": round(self.pan_deg, 4),
            "tilt_deg": round(self.tilt_deg, 4),
            "max_pan_deg": round(self.max_pan_deg, 4),
            "min_pan_deg": round(self.min_pan_deg, 4),
            "moving_at_exit": self.pan_rate != 0 or self.tilt_rate != 0,
            "stopped_when_port_closed": port_closed_stopped,
        }


def head_main(args):
    if not 1 <= args.address <= 255:
        raise UsageError("head: --address is 1 to 255")
    if os.path.lexists(args.pty) and not os.path.islink(args.pty):
        raise UsageError(f"head: {args.pty} exists and is not a symlink; not replacing it")
    stop = {"signal": None}

    def on_signal(number, _frame):
        stop["signal"] = number

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    head = Head(args)
    master, slave = os.openpty()
    set_raw(slave)
    os.set_blocking(master, False)
    slave_name = os.ttyname(slave)
    # Not held open: when the host closes the port, the master reads EIO.
    os.close(slave)
    if os.path.islink(args.pty):
        os.unlink(args.pty)
    os.symlink(slave_name, args.pty)
    print(f"READY pty {args.pty} -> {slave_name}", flush=True)
    end = head.started + args.seconds if args.seconds else None
    is_open = False
    closed_stopped = []
    try:
        while stop["signal"] is None:
            now = time.monotonic()
            if end is not None and now >= end:
                break
            readable, _, _ = select.select([master], [], [], 0.01 if is_open else 0.005)
            if not readable:
                continue
            try:
                data = os.read(master, 4096)
            except BlockingIOError:
                continue
            except OSError:
                # No host has the port open (EIO): note a close, and look again shortly.
                if is_open:
                    is_open = False
                    closed_stopped.append(head.pan_rate == 0 and head.tilt_rate == 0)
                    print(f"CLOSED {time.monotonic():.6f}", flush=True)
                time.sleep(0.005)
                continue
            if not is_open:
                is_open = True
                print(f"OPEN {time.monotonic():.6f}", flush=True)
            answer = head.receive(data, time.monotonic())
            if answer:
                os.write(master, answer)
    finally:
        report = head.report(time.monotonic(), closed_stopped)
        if os.path.islink(args.pty):
            os.unlink(args.pty)
        os.close(master)
        if args.report:
            Path(args.report).write_text(json.dumps(report, indent=1) + "\n")
    return 0


def check_report_main(args):
    report = json.loads(Path(args.report).read_text())
    failures = []
    drives = report["drives"]
    if args.expect_pan_right and not any(d["pan"] == "right" for d in drives):
        failures.append("no drive to the right")
    if args.expect_pan_left and not any(d["pan"] == "left" for d in drives):
        failures.append("no drive to the left")
    if args.expect_stopped and report["moving_at_exit"]:
        failures.append("left moving at exit")
    if report["violations"] and len(report["violations"]) > args.max_violations:
        failures.append(f"{len(report['violations'])} violations, e.g. {report['violations'][:3]}")
    if report["malformed"] > args.max_malformed:
        failures.append(f"{report['malformed']} malformed runs")
    summary = (f"{len(report['frames'])} frames, {len(drives)} drives and stops, {report['malformed']} malformed, "
               f"{len(report['violations'])} violations, pan {report['pan_deg']:.2f} deg at exit "
               f"(from {report['min_pan_deg']:.2f} to {report['max_pan_deg']:.2f})")
    if failures:
        print("FAIL head report: " + "; ".join(failures) + f" ({summary})")
        return 1
    print("ok   head report: " + summary)
    return 0


# =============================================================================================
# Host
# =============================================================================================

class Host:
    """A controller on the host's end of a head's pseudo-terminal."""

    def __init__(self, path, address, timeout):
        deadline = time.monotonic() + 5
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                raise UsageError(f"host: {path} did not appear")
            select.select([], [], [], 0.02)
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        set_raw(self.fd)
        self.address, self.timeout = address, timeout
        self.receiver = Receiver()
        self.results = []

    def send(self, command1, command2, data1, data2, address=None, corrupt=False):
        data = bytearray(frame(self.address if address is None else address, command1, command2, data1, data2))
        if corrupt:
            data[6] = (data[6] + 1) % 256
        os.write(self.fd, bytes(data))

    def answer(self, kind, timeout=None):
        """The next good frame of `kind` (59 or 5B) from the head, or None after the timeout."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            readable, _, _ = select.select([self.fd], [], [], remaining)
            if not readable:
                return None
            for good in self.receiver.feed(os.read(self.fd, 4096)):
                if good[1] == self.address and good[2] == 0 and good[3] == kind:
                    return good

    def position(self, kind):
        """Degrees from an answer to query 51 (pan) or 53 (tilt): hundredths, above 180 negative [SPEC]."""
        self.send(0x00, 0x51 if kind == 0x59 else 0x53, 0, 0)
        got = self.answer(kind)
        if got is None:
            return None
        degrees = (got[4] << 8 | got[5]) / 100
        return degrees - 360 if degrees > 180 else degrees

    def check(self, name, ok, detail):
        self.results.append(ok)
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}", flush=True)

    def settle(self, seconds):
        """Lets the head turn for `seconds`, reading (and dropping) what it says meanwhile."""
        deadline = time.monotonic() + seconds
        while (remaining := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select([self.fd], [], [], remaining)
            if readable:
                self.receiver.feed(os.read(self.fd, 4096))

    def run(self):
        pan = self.position(0x59)
        self.check("answers query pan", pan is not None, f"pan {pan} deg")
        tilt = self.position(0x5B)
        self.check("answers query tilt", tilt is not None, f"tilt {tilt} deg")
        if pan is None or tilt is None:
            return
        # Right at step 3F for 0.5 s: the generic head's 60 deg/s [SPEC] turns it about 30 deg
        # (less what its motors need to speed up and slow down).
        start = time.monotonic()
        self.send(0x00, 0x02, 0x3F, 0x00)
        self.settle(0.5)
        self.send(0x00, 0x00, 0x00, 0x00)
        turned = time.monotonic() - start
        self.settle(0.4)
        moved = self.position(0x59)
        expected = 60 * turned
        self.check("a drive right turns it right", moved is not None and 0.6 * expected < moved - pan < 1.1 * expected,
                   f"{pan} -> {moved} deg after {turned:.3f} s at step 3F (about {expected:.1f} deg)")
        still = self.position(0x59)
        self.check("a stop stops it", still is not None and moved is not None and abs(still - moved) < 0.05,
                   f"{moved} then {still} deg")
        # Tilt down at step 20.
        self.send(0x00, 0x10, 0x00, 0x20)
        self.settle(0.4)
        self.send(0x00, 0x00, 0x00, 0x00)
        self.settle(0.3)
        lowered = self.position(0x5B)
        self.check("a drive down tilts it down", lowered is not None and lowered < tilt - 2, f"tilt {tilt} -> {lowered} deg")
        # Frames it must ignore: a wrong checksum, another address [TF-0002].
        here = self.position(0x59)
        self.send(0x00, 0x04, 0x3F, 0x00, corrupt=True)
        self.send(0x00, 0x04, 0x3F, 0x00, address=(self.address % 255) + 1)
        self.settle(0.4)
        after = self.position(0x59)
        self.check("ignores a wrong checksum and another address", after is not None and here is not None and abs(after - here) < 0.05,
                   f"{here} then {after} deg")
        self.send(0x00, 0x00, 0x00, 0x00)
        # Stray bytes, then a query: found after them.
        os.write(self.fd, bytes([0x12, 0x34, 0x56]))
        found = self.position(0x59)
        self.check("finds a frame after stray bytes", found is not None, f"pan {found} deg")
        # A preset: set here, turn away, go back [C466M].
        self.send(0x00, 0x03, 0x00, 0x05)
        self.send(0x00, 0x04, 0x3F, 0x00)
        self.settle(0.3)
        self.send(0x00, 0x00, 0x00, 0x00)
        self.settle(0.2)
        away = self.position(0x59)
        self.send(0x00, 0x07, 0x00, 0x05)
        self.settle(1.5)
        back = self.position(0x59)
        self.check("goes to a preset it stored", back is not None and found is not None and away is not None
                   and abs(back - found) < 0.1 and abs(away - found) > 5, f"stored at {found}, away at {away}, back at {back} deg")


def host_main(args):
    host = Host(args.pty, args.address, args.timeout)
    try:
        host.run()
    finally:
        os.close(host.fd)
    failed = host.results.count(False)
    print(f"{len(host.results) - failed} passed, {failed} failed")
    return 0 if failed == 0 else 1


# =============================================================================================
# Self-test
# =============================================================================================

def selftest_main(_args):
    failures = 0
    vectors = json.loads(VECTORS.read_text())
    for vector in vectors["commands"] + vectors["replies"]:
        data = bytes.fromhex(vector["hex"].replace(" ", ""))
        ok = len(data) == 7 and data[0] == 0xFF and checksum(data[1:6]) == data[6] and data[1] == vector["address"]
        if "command" in vector:
            ok = ok and describe(data) == vector["command"]
        else:
            kind = {"pan_position": 0x59, "tilt_position": 0x5B}[vector["reply"]["type"]]
            ok = ok and data[3] == kind and (data[4] << 8 | data[5]) == vector["reply"]["hundredths"]
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} vector {vector['name']}")
    for vector in vectors["streams"]:
        receiver = Receiver()
        data = bytes.fromhex(vector["input_hex"].replace(" ", ""))
        got = []
        for byte in data:  # one byte at a time: the cutting must not matter
            before = receiver.bad_runs
            for good in receiver.feed(bytes([byte])):
                got.append(good)
            got += [None] * (receiver.bad_runs - before)
        errors = sum(1 for e in vector["expect"] if "error" in e)
        ok = receiver.bad_runs == errors and len([g for g in got if g is not None]) == len(vector["expect"]) - errors
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} stream {vector['name']}")
    path = f"/tmp/pelco-d-selftest-{os.getpid()}"
    head = subprocess.Popen([sys.executable, __file__, "head", "--pty", path, "--position-queries"],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = head.stdout.readline()
        if not line.startswith("READY"):
            print(f"FAIL the head did not start: {line!r}")
            return 1
        result = subprocess.run([sys.executable, __file__, "host", "--pty", path], capture_output=True, text=True)
        print(result.stdout, end="")
        failures += result.returncode != 0
    finally:
        head.terminate()
        head.wait()
    print(f"selftest: {'passed' if failures == 0 else f'{failures} failed'}")
    return 0 if failures == 0 else 1


class Parser(argparse.ArgumentParser):
    """argparse that exits 64 on a usage error."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(64)


def build_parser():
    top = Parser(prog="pelco_d_peer.py", description=__doc__.split("\n\n")[0])
    roles = top.add_subparsers(dest="role", required=True, parser_class=Parser)
    head = roles.add_parser("head", help="a Pelco-D head on a pseudo-terminal, for dockd to drive")
    head.add_argument("--pty", metavar="PATH", required=True, help="create a pseudo-terminal and a symlink to it at PATH")
    head.add_argument("--address", type=int, default=1, help="the head's address, 1-255 (default 1)")
    head.add_argument("--position-queries", action="store_true", help="answer the pan and tilt queries 51 and 53")
    head.add_argument("--pan-deg-s", type=float, default=60.0, help="pan speed at step 3F (default 60, the generic head)")
    head.add_argument("--tilt-deg-s", type=float, default=30.0, help="tilt speed at step 3F (default 30)")
    head.add_argument("--seconds", type=float, default=None, help="exit after this long (default: on a signal)")
    head.add_argument("--report", metavar="FILE.json", help="where to write the report at exit")
    host = roles.add_parser("host", help="check a head with position queries on a pseudo-terminal")
    host.add_argument("--pty", metavar="PATH", required=True, help="the head's pseudo-terminal (a symlink)")
    host.add_argument("--address", type=int, default=1, help="the head's address (default 1)")
    host.add_argument("--timeout", type=float, default=1.0, help="seconds to wait for each answer (default 1)")
    check = roles.add_parser("check-report", help="hold a head's report to expectations")
    check.add_argument("report", metavar="FILE.json")
    check.add_argument("--expect-pan-right", action="store_true", help="a drive to the right came")
    check.add_argument("--expect-pan-left", action="store_true", help="a drive to the left came")
    check.add_argument("--expect-stopped", action="store_true", help="the head was not left moving")
    check.add_argument("--max-violations", type=int, default=0, help="frames dockd must not send, allowed (default 0)")
    check.add_argument("--max-malformed", type=int, default=0, help="runs of bytes that made no frame, allowed (default 0)")
    roles.add_parser("selftest", help="the vectors, then host against head over a pseudo-terminal")
    return top


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return {"head": head_main, "host": host_main, "check-report": check_report_main, "selftest": selftest_main}[args.role](args)
    except UsageError as error:
        print(f"pelco_d_peer.py: {error}", file=sys.stderr)
        return 64


if __name__ == "__main__":
    sys.exit(main())
