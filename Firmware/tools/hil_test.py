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
import json
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
started = time.monotonic()


def section(title):
    print(f"== {title} ({time.monotonic() - started:.1f} s)", flush=True)
VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Protocol", "vectors")
BYTE_S = 10 / 117647  # a byte on the line: 10 bits at the firmware's 117 647 baud (dockfw-sim's byte time)
# The specification's limits for the line-rate checks (Protocol/dock-serial.md, sections 4 and 5.4).
ANSWER_S = 0.020
UNANSWERED_BYTES = 256


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


def stream_vector(name):
    """The input bytes of a stream vector of Protocol/vectors/streams.json."""
    vectors = json.load(open(os.path.join(VECTORS, "streams.json")))["vectors"]
    return bytes.fromhex(next(v for v in vectors if v["name"] == name)["input_hex"])


def shared_delimiters(frames):
    """Frames written as one, each pair sharing the delimiter between them."""
    return frames[0][:-1] + b"".join(f[:-1] for f in frames[1:]) + b"\x00"


def answers(frames, seqs):
    """The acks and nacks of host frames `seqs`, in the order they came."""
    return [f for f in frames if f["type"] in ("ack", "nack") and f.get("acked_seq", f.get("refused_seq")) in seqs]


def collect_answers(link, seqs, timeout):
    """Frames until every frame of `seqs` has its answer, or `timeout` seconds."""
    frames, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline and len({a.get("acked_seq", a.get("refused_seq")) for a in answers(frames, seqs)}) < len(seqs):
        frames += link.read(deadline - time.monotonic())
    return frames


def answer_times(harness, seqs, since):
    """For each host frame of `seqs` (by the harness's trace): its answer's first byte, counted as the
    specification does (section 4) from the frame's last byte or, when the dock was still sending
    frames queued before the answer, from the last of those; and the plain time from the frame's
    last byte. Seconds of emulated time, (from_rule, from_frame) per seq; frames from `since` on
    (emulated s)."""
    lines = [line for line in harness.lines() if line[0] >= since]
    arrived = {}
    for e, _, w in lines:
        if w[0] != "host" or "seq" not in w:
            continue
        seq = int(w[w.index("seq") + 1])
        if seq in seqs and seq not in arrived:
            arrived[seq] = e
    dock = [(e, w) for e, _, w in lines if w[0] == "dock" and "first" in w]
    out = {}
    for e, w in dock:
        if w[1] not in ("ack", "nack") or int(w[5]) not in arrived or int(w[5]) in out:
            continue
        first = float(w[-1]) - BYTE_S  # the leading delimiter went out a byte before the first byte
        before = [d for d, _ in dock if d <= first + 1e-7]
        start = max([arrived[int(w[5])]] + before[-1:])
        out[int(w[5])] = (first - start, first - arrived[int(w[5])])
    return out


def symbol_addresses(elf):
    out = subprocess.run(["avr-nm", elf], check=True, capture_output=True, text=True).stdout
    return {p[2]: int(p[0], 16) & 0xFFFF for p in (line.split() for line in out.splitlines()) if len(p) == 3}


def peek(harness, address, count=1):
    """Bytes of the AVR's RAM, read by the harness."""
    after = time.monotonic()
    harness.command(f"peek {address:x} {count}")
    line = harness.wait_line(lambda w: w[0] == "peek" and int(w[1], 16) == address, 2, after)
    return [int(b, 16) for b in line[2][2:]] if line else None


def trace(harness, side, kind=None):
    """(emulated_s, words) of the harness's trace lines for one side of the line."""
    return [(e, w) for e, _, w in harness.lines() if w[0] == side and (kind is None or w[1] == kind)]


def raw_host(harness, addresses, directory):
    section("the firmware against a raw host")
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
    after_silence = [f for f in frames if f["type"] != "telemetry"]
    check([f["type"] for f in after_silence][:2] == ["ack", "fault"] and after_silence[0]["acked_seq"] == seq
          and after_silence[1]["active"] == 0, "the next frame is acked and clears the fault")
    line_rate(harness, link, addresses)
    moves_on_time(harness, link, directory)
    link.close()


def line_rate(harness, link, addresses):
    """Bytes back to back at the line's full rate (specification, sections 3.4 and 4): the
    firmware must lose none of them and answer every frame in order within the answer time."""
    section("line rate: bytes back to back, as fast as the line carries them")
    overruns_before = peek(harness, addresses["rx_overruns"])

    # Four runs of 248 bytes (the largest a receiver holds) in one write, twice: 2 000 bytes.
    for _ in range(2):
        link.write(stream_vector("largest-runs-back-to-back"))
        seqs = {60, 61, 62, 63}
        got = answers(collect_answers(link, seqs, 2), seqs)
        check([a["refused_seq"] for a in got] == [60, 61, 62, 63] and all(a["reason"] == "unknown_message" for a in got),
              f"4 runs of 248 bytes back to back (1 000 bytes in one write): {len(got)} of 4 answered, in order")
    link.heartbeat()
    link.read_for(0.05)

    # A stop behind 300 bytes of noise, while turning: answered within the answer time, carried out.
    seq = link.velocity(1000000, 0, 2000)
    link.wait_for(answer_to(seq), 2)
    link.read_for(0.15)
    noise_and_stop = stream_vector("stop-behind-300-bytes-of-noise")  # the stop is seq 117
    since = harness.lines()[-1][0]
    link.write(noise_and_stop)
    ack, seen = link.wait_for(answer_to(117), 2)
    frames = seen + read_until_dock_time(link, (ack["time_us"] if ack else 0) + 150000)
    timing = answer_times(harness, {117}, since).get(117)
    stopped = [t for t in of_type(frames, "telemetry") if ack and t["time_us"] >= ack["time_us"] + 60000]
    check(ack is not None and ack["type"] == "ack" and timing is not None and timing[1] <= ANSWER_S,
          f"a stop behind 300 bytes of noise: acked, its first byte {1000 * timing[1]:.2f} ms (emulated) after the stop's "
          f"last byte (the answer time: 20 ms)" if timing else "a stop behind 300 bytes of noise: no ack")
    check(bool(stopped) and all(t["yaw_rate_urad_s"] == 0 for t in stopped),
          f"and carried out: yaw at rest 60 ms after it ({[t['yaw_rate_urad_s'] for t in stopped[:2]]} µrad/s)")

    # Sixteen heartbeats in one write (the vector), then 25 (about 230 bytes: the most a host may
    # have unanswered), then both paced at 8 bytes every 6 ms: every one answered, in order.
    def heartbeats(data, seqs, name):
        since = harness.lines()[-1][0]
        link.write(data)
        got = answers(collect_answers(link, set(seqs), 3), set(seqs))
        order = [a["acked_seq"] for a in got if a["type"] == "ack"]
        timing = answer_times(harness, set(seqs), since)
        worst = max((t[0] for t in timing.values()), default=float("inf"))
        last = max((t[1] for t in timing.values()), default=float("inf"))
        check(order == list(seqs) and len(timing) == len(seqs) and worst <= ANSWER_S,
              f"{name}: {len(order)} of {len(seqs)} acked in order; each ack began at most {1000 * worst:.2f} ms after "
              f"its heartbeat or the frame before it (20 ms), the last {1000 * last:.1f} ms after its heartbeat")

    heartbeats(stream_vector("heartbeats-in-one-write"), range(100, 116), "16 heartbeats in one write (145 bytes)")
    first = link.seq
    burst = [frame(0x02, first + i) for i in range(25)]
    link.seq += 25
    data = shared_delimiters(burst)
    check(len(data) <= UNANSWERED_BYTES, f"25 heartbeats sharing delimiters are {len(data)} bytes, within the 256 a host may have unanswered")
    heartbeats(data, range(first, first + 25), "25 heartbeats in one write")
    for name, chunks in (("the 16 heartbeats paced, 8 bytes every 6 ms", stream_vector("heartbeats-in-one-write")),
                         ("the noise and the stop paced, 8 bytes every 6 ms", noise_and_stop)):
        for at in range(0, len(chunks), 8):
            link.write(chunks[at:at + 8])
            time.sleep(0.006)
        seqs = range(100, 116) if "heartbeats" in name else [117]
        got = answers(collect_answers(link, set(seqs), 2), set(seqs))
        check(len(got) == len(seqs), f"{name}: {len(got)} of {len(seqs)} answered")

    # A host keeping up to 256 bytes unanswered for a second, moves and heartbeats mixed.
    unanswered, sent, answered, started = {}, 0, 0, time.monotonic()
    rng = __import__("random").Random(7)
    while time.monotonic() - started < 1.0 or unanswered:
        if time.monotonic() - started > 3:
            break
        while time.monotonic() - started < 1.0:
            s = link.seq
            f = (frame(0x04, s, struct.pack("<iiBI", rng.randint(-900000, 900000), rng.randint(-400000, 700000), 0,
                                             rng.randint(100, 600))) if s % 3 == 0 else frame(0x02, s))
            if sum(len(b) for b in unanswered.values()) + len(f) > UNANSWERED_BYTES:
                break
            link.seq += 1
            link.write(f)
            unanswered[s] = f
            sent += 1
        for f in link.read(0.005):
            k = f.get("acked_seq", f.get("refused_seq"))
            if f["type"] in ("ack", "nack") and k in unanswered:
                answered += 1
                for older in [x for x in unanswered if x <= k]:
                    unanswered.pop(older)
    overruns = peek(harness, addresses["rx_overruns"])
    peak = peek(harness, addresses["rx_peak"])
    check(answered == sent and not unanswered,
          f"1 s with up to 256 bytes unanswered, moves and heartbeats mixed: {answered} of {sent} frames answered")
    check(overruns is not None and overruns == overruns_before,
          f"no byte lost in the receive ring (overruns {overruns_before} → {overruns}); the ring held {peak and peak[0]} of its 255 bytes at most")
    link.send("stop")
    link.read_for(0.2)


def moves_on_time(harness, link, directory):
    """move_to by duration arrives within one telemetry period of the duration (specification,
    section 5.4), and braking into a range end at the advertised acceleration; transcripts of the
    telemetry in the output directory."""
    section("moves on time, braking before a range end")

    def telemetry_until(time_us):
        return of_type(read_until_dock_time(link, time_us), "telemetry")

    def transcript(name, frames, start_us):
        path = os.path.join(directory, f"transcript-{name}.txt")
        with open(path, "w") as out:
            out.write("# ms after the ack, yaw µrad, yaw µrad/s, pitch µrad, pitch µrad/s, flags (telemetry of the dock)\n")
            for t in frames:
                out.write(f"{(t['time_us'] - start_us) / 1000:8.1f} {t['yaw_urad']:9d} {t['yaw_rate_urad_s']:9d} "
                          f"{t['pitch_urad']:9d} {t['pitch_rate_urad_s']:9d} 0x{t['flags']:03x}\n")
        return path

    for yaw, pitch, duration in ((500000, 200000, 1000), (200000, 0, 300)):
        seq = link.send("move_to", struct.pack("<iiBI", yaw, pitch, 0, duration))
        ack, seen = link.wait_for(answer_to(seq), 2)
        if not check(ack is not None and ack["type"] == "ack", f"move_to {yaw}, {pitch} µrad in {duration} ms is acked"):
            continue
        frames = of_type(seen, "telemetry") + telemetry_until(ack["time_us"] + (duration + 100) * 1000)
        frames = [t for t in frames if t["time_us"] >= ack["time_us"]]

        def there(t):
            return abs(t["yaw_urad"] - yaw) <= 1000 and abs(t["pitch_urad"] - pitch) <= 1000 and not t["flags"] & 0x3

        arrived = next((t for t in frames if there(t)), None)
        at = (arrived["time_us"] - ack["time_us"]) / 1000 if arrived else None
        early = [t for t in frames if t["time_us"] - ack["time_us"] <= (duration - 20) * 1000]
        # The specification: arrived no later than D + 20 ms, so the first frame stamped then or later
        # shows it; and not before D − 20 ms. A dock that arrives at D is seen in the next frame, at
        # most one 20 ms period (and the millisecond the dock's steps and its telemetry are apart) later.
        due = next((t for t in frames if t["time_us"] >= ack["time_us"] + (duration + 20) * 1000), None)
        path = transcript(f"move-{duration}ms", frames, ack["time_us"])
        check(arrived is not None and duration - 20 <= at <= duration + 22 and due is not None and there(due)
              and early and not there(early[-1]),
              f"move_to in {duration} ms: at the target, not moving, from the telemetry {at} ms after the ack "
              f"(within one 20 ms period of the duration; still on its way at "
              f"{(early[-1]['time_us'] - ack['time_us']) / 1000 if early else None} ms); {os.path.basename(path)}")
        if arrived:
            print("      " + " | ".join(f"{(t['time_us'] - ack['time_us']) / 1000:.0f} ms: {t['yaw_urad']} µrad {t['yaw_rate_urad_s']} µrad/s"
                                        for t in frames[::max(1, len(frames) // 6)]), flush=True)

    # Into the yaw range's end at 2 rad/s, the velocity renewed every 100 ms.
    start = None
    frames = []
    for _ in range(10):
        seq = link.velocity(2000000, 0, 200)
        ack, seen = link.wait_for(answer_to(seq), 2)
        start = start or (ack and ack["time_us"])
        frames += of_type(seen, "telemetry") + of_type(link.read_for(0.1), "telemetry")
    frames = [t for t in frames if start and t["time_us"] >= start]
    rates = [(t["time_us"], t["yaw_rate_urad_s"]) for t in frames]
    steps = [(b[1] - a[1]) / ((b[0] - a[0]) / 1e6) for a, b in zip(rates, rates[1:]) if b[0] > a[0]]
    braking = [x for x in steps if x < 0]
    stopped = next((t for t in frames if t["yaw_urad"] == 1047198 and t["yaw_rate_urad_s"] == 0), None)
    path = transcript("range-end", [t for t in frames if t["yaw_urad"] > 800000][:12], start or 0)
    check(stopped is not None and stopped["flags"] & 0x4 and braking and min(braking) >= -20.0e6 * 1.001
          and all(t["yaw_urad"] <= 1047198 for t in frames) and len(braking) >= 4,
          f"2 rad/s into +60°: braked over {len(braking)} telemetry periods at up to {-min(braking, default=0) / 1e6:.1f} rad/s² "
          f"(advertised 20), at rest at 1 047 198 µrad with yaw_at_limit, never past it; {os.path.basename(path)}")
    width = harness.width_at("yaw", 1e9)
    check(abs(width - 2100) <= 1.0, f"the D9 pulse at the end is {width} µs (+60°: 2100 µs)")
    seq = link.send("move_to", struct.pack("<iiBI", 0, 0, 1, 2000000))
    ack, _ = link.wait_for(answer_to(seq), 2)
    read_until_dock_time(link, (ack["time_us"] if ack else 0) + 800000)


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


def resets(harness, api, dockd_log):
    """The dock resets under dockd in the middle of a motion: by its watchdog (the firmware hangs,
    the watchdog fires after 2 s, Optiboot starts the firmware at once) and by its reset line, as
    DTR does on an Uno (a second in the bootloader, the host's bytes meanwhile lost). dockd must
    notice (its frames refused as not_ready), greet the dock again, and not resume the motion."""
    type_names = {"0x02": "heartbeat", "0x03": "set_velocity", "0x04": "move_to", "0x05": "stop", "0x06": "set_indicator"}
    for kind, command, restarted in (("watchdog", "hang", "watchdog-reset"), ("DTR", "reset 1000", "booted")):
        section(f"a {kind} reset while dockd turns the dock")
        log = open(dockd_log).read()
        resets_before, attached_before = log.count("the dock reset"), log.count("attached DIY Servo Dock")
        api.call("io.dockd.Dock.SetVelocity", {"yaw": 0.3, "pitch": 0.0, "duration": 4.0})
        time.sleep(0.3)
        after = time.monotonic()
        harness.command(command)
        up = harness.wait_line(lambda w: w[0] == restarted, 5, after)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            log = open(dockd_log).read()
            if log.count("attached DIY Servo Dock") > attached_before:
                break
            time.sleep(0.05)
        attached = log.count("attached DIY Servo Dock") > attached_before and log.count("the dock reset") > resets_before
        if not check(up is not None and attached,
                     f"{kind} reset: the dock restarted ({restarted}) and dockd greeted it again "
                     f"(`the dock reset; opening a new session`, then `attached DIY Servo Dock ...`)"):
            continue
        time.sleep(0.5)
        refusals = [w for e, w in trace(harness, "dock", "nack") if e > up[0]]
        infos = [e for e, w in trace(harness, "dock", "info") if e > up[0]]
        # dockd's frames until it knew: refused as not_ready, which is how it learns of the reset
        check(refusals and refusals[0][9] == "4" and infos,
              f"{kind} reset: dockd's next frame was refused not_ready (a {type_names.get(refusals[0][7], refusals[0][7]) if refusals else '-'}), "
              f"then its hello answered by info")
        motion = [w for e, w in trace(harness, "host") if infos and e > infos[0] and w[1] in ("set_velocity", "move_to")]
        pulses = [w for e, w in harness.pulses("yaw") if e > up[0]]
        status = api.call("io.dockd.Dock.GetStatus")["status"]
        check(infos and not motion and pulses and all(abs(w - 1500) <= 0.5 for w in pulses)
              and status["state"] == "ready" and status["motion"] == "idle",
              f"{kind} reset: nothing resumed in the new session: no set_velocity or move_to ({len(motion)}), "
              f"the servo at the home pulse the restarted firmware gives it ({sorted(set(pulses))} µs), dockd "
              f"{status['state']}, motion {status['motion']}")


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
    section("dockd against the firmware")
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
        resets(harness, api, dockd_log)
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
        raw_host(harness, symbol_addresses(arguments.elf), directory)
        with_dockd(harness, arguments.dockd, directory)
    finally:
        harness.stop()
    lags = [w for e, _, w in harness.lines() if w[0] == "lag"]
    print(f"== {len(failures)} failed in {time.monotonic() - started:.1f} s; the emulation fell behind the wall clock {len(lags)} times "
          f"(max {max((float(w[1]) for w in lags), default=0):.0f} ms)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
