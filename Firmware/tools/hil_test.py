#!/usr/bin/env python3
"""The reference firmware under emulation (dockfw-sim, real time), first against a raw host that
plays the conformance checks of Protocol/dock-serial.md that make sense on hardware, then against
dockd itself over the pseudo-terminal.

    hil_test.py --sim dockfw-sim --elf dockfw.elf --dockd PATH [--out DIR]

Every timing checked here is the protocol's own, measured in the AVR's emulated time (the
harness's log and the dock's clock), which is exact whatever the host's load; wall-clock waits are
generous timeouts only.
"""
import argparse
import math
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dock_link import FAILSAFE_FAULT, Link, frame  # noqa: E402
from harness import Harness  # noqa: E402
from varlink_call import Varlink  # noqa: E402

failures = []


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message, flush=True)
    if not condition:
        failures.append(message)
    return condition


def of_type(frames, name):
    return [f for f in frames if f["type"] == name]


def read_until_dock_time(link, time_us, timeout=10.0):
    """Frames until a telemetry stamped `time_us` or later (the dock's clock) has arrived, with a
    heartbeat every 100 ms meanwhile. Waiting on the dock's clock rather than the wall's keeps the
    checks exact when the emulation runs behind on a busy machine."""
    frames, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        link.heartbeat()
        frames += link.read_for(0.1)
        if any(f["type"] == "telemetry" and f["time_us"] >= time_us for f in frames):
            break
    return frames


def answer_to(seq):
    """Matches the ack or nack of host frame `seq` (earlier answers left unread are skipped)."""
    return lambda f: f["type"] in ("ack", "nack") and f.get("acked_seq", f.get("refused_seq")) == seq


def trace(harness, side, kind=None):
    """(emulated_s, words) of the harness's trace lines for one side of the line."""
    return [(e, w) for e, _, w in harness.lines() if w[0] == side and (kind is None or w[1] == kind)]


def raw_host(harness):
    print("== the firmware against a raw host", flush=True)
    link = Link(harness.pty)

    seq = link.heartbeat()
    answer, _ = link.wait_for(answer_to(seq), 2)
    check(answer is not None and answer["type"] == "nack" and answer["reason"] == "not_ready"
          and answer["refused_seq"] == seq, "before hello a heartbeat is refused as not_ready")
    quiet = link.read_for(0.3)
    check(not of_type(quiet, "telemetry"), "no telemetry before hello")

    link.hello(1, 3)
    info, _ = link.wait_for(lambda f: f["type"] == "info", 2)
    check(info is not None and info["version"] == 1 and info["model"] == "DIY Servo Dock"
          and info["features"] == 1 and info["telemetry_rate_hz"] == 50 and info["failsafe_timeout_ms"] == 500,
          f"hello 1..3 is answered by info, version 1: {info and {k: info[k] for k in ('model', 'firmware', 'serial')}}")
    hello_at = [e for e, w in trace(harness, "host", "hello")]
    info_at = [e for e, w in trace(harness, "dock", "info")]
    if hello_at and info_at:
        check(0 <= info_at[-1] - hello_at[-1] <= 0.020,
              f"info's last byte left {1000 * (info_at[-1] - hello_at[-1]):.1f} ms (emulated) after hello's (spec: 20 ms)")

    first = of_type(read_until_dock_time(link, 0), "telemetry")
    telemetry = first + of_type(read_until_dock_time(link, first[0]["time_us"] + 1000000), "telemetry") if first else []
    telemetry = [t for t in telemetry if t["time_us"] <= telemetry[0]["time_us"] + 1000000]
    times = [t["time_us"] for t in telemetry]
    gaps = {b - a for a, b in zip(times, times[1:])}
    check(len(telemetry) == 51 and gaps == {20000},
          f"telemetry every 20 000 µs of the dock's clock ({len(telemetry)} frames, gaps {sorted(gaps)[:3]})")
    check(all(t["flags"] == 0x100 for t in telemetry), "standing still and docked (no dock sensor)")

    # A velocity: yaw right and pitch up lengthen both pulses; the time-to-live stops them.
    before = harness.lines()[-1][0]
    seq = link.velocity(500000, 300000, 400)
    ack, seen = link.wait_for(answer_to(seq), 2)
    check(ack is not None and ack["type"] == "ack" and ack["acked_seq"] == seq, "set_velocity is acked")
    # heartbeats keep the failsafe away; they do not extend the velocity
    frames = seen + read_until_dock_time(link, ack["time_us"] + 600000) if ack else seen
    yaw = [w for e, w in harness.pulses("yaw") if e > before]
    pitch = [w for e, w in harness.pulses("pitch") if e > before]
    check(yaw and yaw[-1] > 1500 + 100 and yaw == sorted(yaw),
          f"yaw > 0 lengthens the D9 pulse steadily: 1500 → {yaw[-1] if yaw else None} µs")
    check(pitch and pitch[-1] > 1500 + 60 and pitch == sorted(pitch),
          f"pitch > 0 lengthens the D10 pulse: 1500 → {pitch[-1] if pitch else None} µs")
    last = of_type(frames, "telemetry")[-1]
    # 0.4 s at 0.5 rad/s: the 25 ms ramps at 20 rad/s² lose at the start what they add at the end
    expected_yaw = 500000 * 0.4
    check(last["yaw_rate_urad_s"] == 0 and abs(last["yaw_urad"] - expected_yaw) < 2000
          and not of_type(frames, "fault"),
          f"the time-to-live ran out: stopped at {last['yaw_urad']} µrad (rate {last['yaw_rate_urad_s']}), "
          f"no fault {of_type(frames, 'fault')}")
    # The pulse agrees with the reported pose: 10 µs per degree.
    width = harness.width_at("yaw", 1e9)
    check(abs((width - 1500) / 10 - last["yaw_urad"] * 180 / 3.14159265e6) < 0.2,
          f"the pulse ({width} µs) is the reported pose ({last['yaw_urad'] * 180 / 3.14159265e6:.2f}°)")

    seq = link.velocity(3000000, 0, 100)
    nack, _ = link.wait_for(answer_to(seq), 2)
    check(nack and nack["type"] == "nack" and nack["reason"] == "out_of_range" and nack["detail"] == 1,
          "3 rad/s, above the advertised 2 rad/s, is refused out_of_range, field 1")
    link.write(frame(0x7E, 900))
    nack, _ = link.wait_for(answer_to(900), 2)
    check(nack and nack["reason"] == "unknown_message" and nack["refused_seq"] == 900, "type 0x7e: unknown_message")
    link.write(frame(0x03, 901, b"\x01"))
    nack, _ = link.wait_for(answer_to(901), 2)
    check(nack and nack["reason"] == "wrong_length" and nack["detail"] == 10, "a 1-byte set_velocity: wrong_length 10")
    # The same line from the harness's side: bytes injected into the AVR's UART are answered here.
    harness.command("inject " + frame(0x84, 902, bytes(26)).hex(" "))
    nack, _ = link.wait_for(answer_to(902), 2)
    check(nack and nack["reason"] == "unknown_message" and nack["refused_type"] == 0x84,
          "a telemetry frame injected by the harness: unknown_message (an accessory-to-host type)")

    # A bit error on the line: the damaged frame gets no answer; the next one does.
    harness.command("flip")
    time.sleep(0.1)
    bad = link.heartbeat()
    good = link.heartbeat()
    _, frames = link.wait_for(answer_to(good), 3)
    answered = {f.get("acked_seq", f.get("refused_seq")) for f in frames if f["type"] in ("ack", "nack")}
    check(bad not in answered and good in answered, f"a flipped bit: frame {bad} dropped unanswered, {good} acked")
    check(any(w[1] == "bad" for e, w in trace(harness, "host")), "the harness saw the damaged run on the line")

    # The button: one debounced press and release.
    harness.command("click 150")
    event, _ = link.wait_for(lambda f: f["type"] == "event", 2)
    link.heartbeat()
    released, _ = link.wait_for(lambda f: f["type"] == "event", 2)
    check(event and event["event"] == 2 and event["value"] == 1 and released and released["value"] == 0,
          "a click is a tracking_button press, then a release")
    if event and released:
        check(0.14 <= (released["time_us"] - event["time_us"]) / 1e6 <= 0.16,
              f"held {(released['time_us'] - event['time_us']) / 1000:.0f} ms by the dock's clock (clicked 150 ms)")

    # The indicator: any colour but black lights D13.
    after = time.monotonic()
    link.send("set_indicator", bytes([1, 0, 255, 0]))
    on = harness.wait_line(lambda w: w == ["led", "on"], 2, after)
    after = time.monotonic()
    link.send("set_indicator", bytes([0, 0, 0, 0]))
    off = harness.wait_line(lambda w: w == ["led", "off"], 2, after)
    check(on is not None and off is not None, "set_indicator solid green lights D13, off darkens it")
    seq = link.send("set_indicator", bytes([2, 0, 200, 40]))
    ack, _ = link.wait_for(answer_to(seq), 2)
    if ack:
        # Five changes of the pin from the ack on, however long the emulation takes to make them
        # (heartbeats meanwhile); waiting for a telemetry stamp 2.1 s later once ended early.
        def led_changes():
            return [e for e, _, w in harness.lines() if w[0] == "led" and e * 1e6 >= ack["time_us"]][:5]
        deadline = time.monotonic() + 10
        while len(led_changes()) < 5 and time.monotonic() < deadline:
            link.heartbeat()
            link.read_for(0.1)
        changes = led_changes()
        gaps = [round(1000 * (b - a)) for a, b in zip(changes, changes[1:])]
        check(len(gaps) == 4 and all(abs(g - 500) <= 2 for g in gaps),
              f"slow_blink on D13: the pin changes every {gaps} ms of the AVR's time (1 Hz)")
    link.send("set_indicator", bytes([0, 0, 0, 0]))

    # Host silence: a velocity with a long time-to-live, then nothing. The failsafe stops it.
    seq = link.velocity(-1000000, 0, 5000)
    link.wait_for(answer_to(seq), 2)
    sent = [e for e, w in trace(harness, "host", "set_velocity") if w[3] == str(seq)][-1]
    fault, _ = link.wait_for(lambda f: f["type"] == "fault", 3)
    check(fault and fault["code"] == FAILSAFE_FAULT and fault["active"] == 1, "silence: fault failsafe_stop, active")
    # No frame may be sent now (it would end the failsafe stop): wait on the dock's clock.
    settled, _ = link.wait_for(lambda f: f["type"] == "telemetry" and fault and f["time_us"] >= fault["time_us"] + 200000, 5)
    yaw = [(e, w) for e, w in harness.pulses("yaw") if e > sent]
    moving_until = yaw[-1][0] if yaw else sent
    check(0.45 <= moving_until - sent <= 0.5 + 0.05 + 0.045,
          f"the yaw pulse kept turning and stopped {1000 * (moving_until - sent):.0f} ms (emulated) after the last host "
          "frame: the 500 ms timeout, 50 ms of braking, up to two servo frames")
    check(settled and settled["flags"] & 0x80 and settled["yaw_rate_urad_s"] == 0, "telemetry says failsafe_stopped")
    seq = link.heartbeat()
    _, frames = link.wait_for(lambda f: f["type"] == "fault", 3)
    answers = [f for f in frames if f["type"] != "telemetry"]
    check([f["type"] for f in answers][:2] == ["ack", "fault"] and answers[0]["acked_seq"] == seq
          and answers[1]["active"] == 0, "the next frame is acked and clears the fault")
    link.close()


def tracking_run(api, harness):
    """A closed loop through the pins: a camera on the servo horns (their angles from the harness's
    pulse widths, 10 µs per degree), a face standing still at 5.7° right and level, seen at 20 Hz
    and sent to dockd with Track; dockd's tracker must turn the dock, which looks 20° right and 10°
    up when it starts, until the face is centred."""
    hfov, aspect = 1.0, 16 / 9
    half_w, half_h = math.tan(hfov / 2), math.tan(hfov / 2) / aspect
    face_yaw, face_pitch, face_size = 0.1, 0.0, 0.08
    api.call("io.dockd.Dock.SetFramingMode", {"mode": "center"})
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline:
        now = time.monotonic()
        end = harness.lines()[-1][0]
        yaw = math.radians((harness.width_at("yaw", end) - 1500) / 10)
        pitch = math.radians((harness.width_at("pitch", end) - 1500) / 10)
        x = 0.5 + math.tan(face_yaw - yaw) / (2 * half_w)
        y = 0.5 - math.tan(face_pitch - pitch) / (2 * half_h)
        w, h = face_size / (2 * half_w), face_size / (2 * half_h)
        # the part of the face inside the image, as a detector would box it
        x0, x1 = max(0.0, x - w / 2), min(1.0, x + w / 2)
        y0, y1 = max(0.0, y - h / 2), min(1.0, y + h / 2)
        observations = []
        if x1 - x0 > 0.01 and y1 - y0 > 0.01:
            observations = [{"kind": "face", "box": {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0},
                             "confidence": 0.9}]
        api.call("io.dockd.Dock.Track", {"observations": observations,
                                         "camera": {"horizontal_fov": hfov, "aspect_ratio": aspect},
                                         "capture_time": now})
        time.sleep(0.05)
    status = api.call("io.dockd.Dock.GetStatus")["status"]
    end = harness.lines()[-1][0]
    yaw_width, pitch_width = harness.width_at("yaw", end), harness.width_at("pitch", end)
    check(abs(math.radians((yaw_width - 1500) / 10) - face_yaw) < 0.03
          and abs(math.radians((pitch_width - 1500) / 10) - face_pitch) < 0.03 and status["subject_in_frame"],
          f"tracking: dockd turned the dock onto the face at 5.7°, 0°: pulses {yaw_width} and {pitch_width} µs "
          f"({(yaw_width - 1500) / 10:.1f}°, {(pitch_width - 1500) / 10:.1f}°), subject in frame: "
          f"{status['subject_in_frame']}")


def start_dockd(dockd, harness, directory):
    log = open(os.path.join(directory, "dockd.log"), "w")
    socket_path = os.path.join(directory, "dockd.sock")
    process = subprocess.Popen([dockd, "--config", "", "--device", harness.pty, "--socket", socket_path,
                                "--wake-on-attach=false", "--log-level", "info"], stdin=subprocess.DEVNULL,
                               stderr=log)
    return process, socket_path


def ready_status(api, timeout=10.0):
    """GetStatus once dockd has a pose: right after attaching, or on a machine so busy that the
    dock's telemetry fell behind, dockd reports none until fresh telemetry maps onto its clock."""
    deadline = time.monotonic() + timeout
    while True:
        status = api.call("io.dockd.Dock.GetStatus")["status"]
        if status.get("pose") or time.monotonic() > deadline:
            return status
        time.sleep(0.1)


def wait_for_log(path, text, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in open(path).read():
            return True
        time.sleep(0.05)
    return False


def with_dockd(harness, dockd, directory):
    print("== dockd against the firmware", flush=True)
    process, socket_path = start_dockd(dockd, harness, directory)
    dockd_log = os.path.join(directory, "dockd.log")
    try:
        check(wait_for_log(dockd_log, "attached DIY Servo Dock (serial DIY-0001, firmware dockfw 1.0.0)", 20),
              "dockd logs `attached DIY Servo Dock (serial DIY-0001, firmware dockfw 1.0.0) ...`")
        deadline = time.monotonic() + 10
        while not os.path.exists(socket_path) and time.monotonic() < deadline:
            time.sleep(0.05)
        api = Varlink(socket_path)
        status = ready_status(api)
        check(status["state"] == "ready" and status["accessory"]["model"] == "DIY Servo Dock"
              and status["accessory"]["firmware"] == "dockfw 1.0.0",
              f"GetStatus: ready, model {status['accessory']['model']!r}")
        limits = status.get("limits") or {}
        print(f"      limits as dockd took them: {limits}")

        # SetVelocity: yaw > 0 pans right, which is a longer pulse on D9.
        before = harness.lines()[-1][0]
        start_pose = status["pose"]
        api.call("io.dockd.Dock.SetVelocity", {"yaw": 0.5, "pitch": -0.2, "duration": 1.0})
        time.sleep(1.4)
        status = ready_status(api)
        yaw = [w for e, w in harness.pulses("yaw") if e > before]
        pitch = [w for e, w in harness.pulses("pitch") if e > before]
        yaw0, pitch0 = harness.width_at("yaw", before), harness.width_at("pitch", before)
        turned = status["pose"]["yaw"] - start_pose["yaw"]
        tilted = status["pose"]["pitch"] - start_pose["pitch"]
        # 0.5 rad/s for 1 s of dockd's (wall) clock, give or take dockd's own lateness on a busy
        # machine (its last velocity lives 200 ms) and the emulation's (it integrates in the AVR's
        # time): the bounds are loose, and the pulse is held to the pose the dock reported instead,
        # 10 µs per degree.
        check(yaw and 0.3 < turned < 0.7 and yaw == sorted(yaw)
              and abs((yaw[-1] - yaw0) - turned * 572.958) < 1.5,
              f"SetVelocity yaw 0.5 rad/s for 1 s: turned {turned:.3f} rad; the D9 pulse went {yaw0} → "
              f"{yaw[-1] if yaw else None} µs ({turned * 572.958:+.1f} for that turn)")
        check(pitch and -0.28 < tilted < -0.12 and abs((pitch[-1] - pitch0) - tilted * 572.958) < 1.5,
              f"pitch −0.2 rad/s: tilted {tilted:.3f} rad; D10 went {pitch0} → {pitch[-1] if pitch else None} µs")
        pose = status["pose"]
        if yaw:
            check(abs((yaw[-1] - 1500) / 10 - pose["yaw"] * 57.29578) < 0.5,
                  f"GetStatus pose yaw {pose['yaw']:.3f} rad is the pulse's {(yaw[-1] - 1500) / 10:.1f}°")

        # SetOrientation: a move_to, ending with the pulses at the target's widths.
        api.call("io.dockd.Dock.SetOrientation", {"yaw": 0.349066, "pitch": 0.174533, "speed": 1.0})
        api.wait_until_still(10)
        time.sleep(0.1)
        end = harness.lines()[-1][0]
        check(abs(harness.width_at("yaw", end) - 1700) <= 1.5 and abs(harness.width_at("pitch", end) - 1600) <= 1.5,
              f"SetOrientation to 20°, 10°: pulses {harness.width_at('yaw', end)} and {harness.width_at('pitch', end)} µs "
              "(1700 and 1600 expected)")

        # A bit error in dockd's stream: one frame dropped by the firmware, the session carries on.
        counters = status["counters"]
        flip_at = time.monotonic()
        harness.command("flip")
        time.sleep(1.5)
        status = api.call("io.dockd.Dock.GetStatus")["status"]
        bad = [(e, w) for e, w in trace(harness, "host") if w[1] == "bad"]
        flipped = harness.wait_line(lambda w: w[0] == "flipped", 1, flip_at)
        later_acks = [e for e, w in trace(harness, "dock", "ack") if flipped and e > flipped[0]]
        check(flipped is not None and len(bad) >= 2 and len(later_acks) >= 5,
              f"a bit flipped in dockd's frames: dropped by the firmware ({bad[-1][1][2] if bad else '-'}), "
              f"{len(later_acks)} acks since")
        check(status["state"] == "ready" and status["counters"]["reconnects"] == counters["reconnects"]
              and not [w for e, w in trace(harness, "dock", "fault") if flipped and e > flipped[0]],
              "the session carries on: still ready, no reconnect, no failsafe")

        # The tracking button toggles tracking.
        tracking = status["tracking"]
        harness.command("click 120")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            status = api.call("io.dockd.Dock.GetStatus")["status"]
            if status["tracking"] != tracking:
                break
            time.sleep(0.1)
        check(status["tracking"] == (not tracking), f"the button toggled tracking: {tracking} → {status['tracking']}")
        if status["tracking"]:
            tracking_run(api, harness)
        api.call("io.dockd.Dock.SetSystemTracking", {"enabled": False})

        # Host silence: dockd stopped (SIGSTOP) while it drives the dock.
        api.call("io.dockd.Dock.SetVelocity", {"yaw": -0.8, "pitch": 0.0, "duration": 3.0})
        time.sleep(0.5)
        process.send_signal(signal.SIGSTOP)
        stopped_at = time.monotonic()
        fault = harness.wait_line(lambda w: w[:2] == ["dock", "fault"] and w[5] == "5" and w[7] == "1", 5, stopped_at - 0.6)
        time.sleep(0.3)
        host = [e for e, w in trace(harness, "host") if fault and e < fault[0]]
        last_host = host[-1] if host else None
        yaw = [e for e, w in harness.pulses("yaw") if last_host and e > last_host - 1]
        if check(fault is not None and last_host is not None, "dockd stopped: the firmware raised failsafe_stop"):
            silence = fault[0] - last_host
            check(0.5 <= silence <= 0.52,
                  f"failsafe_stop {1000 * silence:.0f} ms (emulated) after dockd's last frame (advertised 500 ms)")
            still = yaw[-1] - last_host if yaw else 0
            check(still <= 0.5 + 0.05 + 0.045,
                  f"the yaw pulse stood still {1000 * still:.0f} ms after the last frame (dockd's own 200 ms "
                  "time-to-live stops it first; the failsafe bounds it at 500 ms + braking)")
        process.send_signal(signal.SIGCONT)
        cleared = harness.wait_line(lambda w: w[:2] == ["dock", "fault"] and w[5] == "5" and w[7] == "0", 5, stopped_at)
        time.sleep(1.0)
        status = api.call("io.dockd.Dock.GetStatus")["status"]
        check(cleared is not None and status["state"] == "ready", "dockd resumed: the fault cleared, still ready")
        api.close()
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGCONT)
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
    check(process.returncode == 0, f"dockd exited {process.returncode} on SIGTERM")
    check(wait_for_log(dockd_log, "motors stopped", 1), "dockd stopped the motors on SIGTERM")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sim", required=True)
    parser.add_argument("--elf", required=True)
    parser.add_argument("--dockd", required=True)
    parser.add_argument("--out")
    arguments = parser.parse_args()
    directory = arguments.out or tempfile.mkdtemp(prefix="dockfw-hil.")
    os.makedirs(directory, exist_ok=True)
    print(f"== output in {directory}", flush=True)
    harness = Harness(arguments.sim, arguments.elf, directory)
    try:
        raw_host(harness)
        with_dockd(harness, arguments.dockd, directory)
    finally:
        harness.stop()
    lags = [w for e, _, w in harness.lines() if w[0] == "lag"]
    print(f"== {len(failures)} failed; the emulation fell behind the wall clock {len(lags)} times "
          f"(max {max((float(w[1]) for w in lags), default=0):.0f} ms)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
