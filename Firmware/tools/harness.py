"""Starts dockfw-sim (the firmware on an emulated ATmega328P) and reads its log, for the
firmware's test and benchmark scripts."""
import os
import subprocess
import time


class Harness:
    def __init__(self, sim: str, elf: str, directory: str, trace: bool = True, extra=()):
        self.directory = directory
        self.pty = os.path.join(directory, "dock")
        self.control = os.path.join(directory, "control")
        self.log_path = os.path.join(directory, "sim.log")
        arguments = [sim, "--firmware", elf, "--pty", self.pty, "--control", self.control,
                     "--log", self.log_path, "--quiet"] + (["--trace"] if trace else []) + list(extra)
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL,
                                        stderr=open(os.path.join(directory, "sim.err"), "w"))
        deadline = time.monotonic() + 10
        while not (os.path.exists(self.pty) and os.path.exists(self.control)):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("dockfw-sim did not start; see " + directory)
            time.sleep(0.01)
        self.control_fd = os.open(self.control, os.O_WRONLY)

    def command(self, line: str):
        os.write(self.control_fd, (line + "\n").encode())

    def cpu(self):
        """(busy, total) cycles of the AVR so far."""
        after = time.monotonic()
        self.command("cpu")
        line = self.wait_line(lambda w: w[0] == "cpu", 2, after)
        return int(line[2][1]), int(line[2][2])

    def lines(self):
        """Every log line so far as (emulated_s, wall_s, [words])."""
        out = []
        with open(self.log_path) as log:
            for line in log:
                parts = line.split()
                if len(parts) >= 3:
                    out.append((float(parts[0]), float(parts[1]), parts[2:]))
        return out

    def wait_line(self, predicate, timeout: float, after_wall: float = 0.0):
        """The first line written after `after_wall` (CLOCK_MONOTONIC) that satisfies predicate."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines():
                if line[1] >= after_wall and predicate(line[2]):
                    return line
            time.sleep(0.02)
        return None

    def pulses(self, axis: str):
        """(emulated_s, width_us) of each logged change of that servo's pulse."""
        return [(e, float(w[2])) for e, _, w in self.lines() if w[0] == "pulse" and w[1] == axis]

    def width_at(self, axis: str, emulated: float) -> float:
        width = 1500.0
        for e, w in self.pulses(axis):
            if e > emulated:
                break
            width = w
        return width

    def stop(self):
        self.command("quit")
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.control_fd)
