#!/usr/bin/env python3
"""Turns Protocol/vectors/*.json into C initialisers for test_vectors.c.

    vectors_to_c.py VECTORS_DIR OUTPUT.inc

Only a reader: it copies the vectors' bytes and fields into C, it computes nothing, so the C test
checks the firmware's core against the committed vectors themselves.
"""
import json
import sys
from pathlib import Path

TYPES = {"hello": 0x01, "heartbeat": 0x02, "set_velocity": 0x03, "move_to": 0x04, "stop": 0x05,
         "set_indicator": 0x06, "info": 0x81, "ack": 0x82, "nack": 0x83, "telemetry": 0x84,
         "event": 0x85, "fault": 0x86}
PATTERNS = ["off", "solid", "slow_blink", "fast_blink", "pulse"]
FEATURES = ["tracking_button", "shutter_button", "flip_button", "zoom_control", "color_indicator",
            "dock_sensor"]
FLAGS = ["yaw_moving", "pitch_moving", "yaw_at_limit", "pitch_at_limit", "yaw_stalled",
         "pitch_stalled", "faulted", "failsafe_stopped", "docked"]
REASONS = ["unknown_message", "wrong_length", "out_of_range", "not_ready", "unsupported_version",
           "faulted"]
EVENTS = ["dock", "tracking_button", "shutter_button", "flip_button", "zoom", "custom_button"]
FAULTS = ["motor_stall", "over_temperature", "encoder_error", "supply_voltage", "failsafe_stop"]
AXES = ["none", "yaw", "pitch"]
ERRORS = {"oversize": "DOCK_RUN_OVERSIZE", "truncated": "DOCK_RUN_TRUNCATED",
          "checksum_mismatch": "DOCK_RUN_CHECKSUM_MISMATCH", "unknown_type": "DOCK_RUN_UNKNOWN_TYPE",
          "wrong_payload_length": "DOCK_RUN_WRONG_PAYLOAD_LENGTH",
          "value_out_of_range": "DOCK_RUN_VALUE_OUT_OF_RANGE"}


def c_bytes(hex_text: str) -> str:
    data = bytes.fromhex(hex_text.replace(" ", ""))
    if not data:
        return "(const uint8_t[]){0}, 0"  # a real pointer: memcmp and memcpy want one even for 0 bytes
    return "(const uint8_t[]){" + ", ".join(f"0x{b:02x}" for b in data) + "}, " + str(len(data))


def c_string(data: bytes) -> str:
    return '"' + "".join(f"\\x{b:02x}" for b in data) + '"'


def bits(names, table):
    return sum(1 << table.index(name) for name in names)


def text(value: str) -> str:
    data = value.encode("utf-8")
    return f"{{{len(data)}, (const uint8_t *){c_string(data)}}}"


def message(m: dict) -> str:
    kind, f = m["type"], m["fields"]
    head = f".type = 0x{TYPES[kind]:02x}, .seq = {m['seq']}"
    if kind == "hello":
        body = f".u.hello = {{{f['min_version']}, {f['max_version']}}}"
    elif kind in ("heartbeat", "stop"):
        body = None
    elif kind == "set_velocity":
        body = f".u.set_velocity = {{{f['yaw_rate_urad_s']}, {f['pitch_rate_urad_s']}, {f['ttl_ms']}}}"
    elif kind == "move_to":
        pace = ["duration", "max_speed"].index(f["pace"])
        value = f["duration_ms"] if pace == 0 else f["max_speed_urad_s"]
        body = f".u.move_to = {{{f['yaw_urad']}, {f['pitch_urad']}, {pace}, {value}u}}"
    elif kind == "set_indicator":
        body = (f".u.set_indicator = {{{PATTERNS.index(f['pattern'])}, {f['red']}, {f['green']}, "
                f"{f['blue']}}}")
    elif kind == "info":
        def axis(a):
            return (f"{{{a['min_urad']}, {a['max_urad']}, {a['max_speed_urad_s']}u, "
                    f"{a['max_accel_urad_s2']}u}}")
        body = (f".u.info = {{{f['protocol_version']}, 0x{bits(f['features'], FEATURES):02x}, "
                f"{f['telemetry_rate_hz']}, {f['failsafe_timeout_ms']}, {axis(f['yaw'])}, "
                f"{axis(f['pitch'])}, {text(f['model'])}, {text(f['firmware'])}, {text(f['serial'])}}}")
    elif kind == "ack":
        body = f".u.ack = {{{f['acked_seq']}, 0x{TYPES[f['acked_type']]:02x}, {f['time_us']}ull}}"
    elif kind == "nack":
        body = (f".u.nack = {{{f['refused_seq']}, {f['refused_type']}, "
                f"{REASONS.index(f['reason']) + 1}, {f['detail']}}}")
    elif kind == "telemetry":
        body = (f".u.telemetry = {{{f['time_us']}ull, {f['yaw_urad']}, {f['pitch_urad']}, "
                f"{f['yaw_rate_urad_s']}, {f['pitch_rate_urad_s']}, 0x{bits(f['flags'], FLAGS):04x}}}")
    elif kind == "event":
        code = EVENTS.index(f["event"]) + 1
        if f["event"] == "dock":
            value = int(f["docked"])
        elif f["event"] == "zoom":
            value = f["steps"]
        else:
            value = int(f["pressed"])
        body = f".u.event = {{{f['time_us']}ull, {code}, {f.get('id', 0)}, {value}}}"
    elif kind == "fault":
        body = (f".u.fault = {{{f['time_us']}ull, {FAULTS.index(f['code']) + 1}, "
                f"{AXES.index(f['axis'])}, {int(f['active'])}}}")
    else:
        raise SystemExit(f"vectors_to_c: unknown message type {kind}")
    return "{" + head + (", " + body if body else "") + "}"


def c_name(value) -> str:
    return c_string(str(value).encode("utf-8"))


def main() -> None:
    directory, output = Path(sys.argv[1]), Path(sys.argv[2])
    out = ["/* Generated from Protocol/vectors by vectors_to_c.py; do not edit. */"]

    crc = json.loads((directory / "crc32c.json").read_text())
    out.append("static const crc_case crc_cases[] = {")
    check = crc["check"]
    out.append(f'    {{"check", {c_bytes("31 32 33 34 35 36 37 38 39")}, {check}u}},')
    for case in crc["cases"]:
        out.append(f'    {{{c_name(case["name"])}, {c_bytes(case["input_hex"])}, {case["crc"]}u}},')
    out.append("};")

    cobs = json.loads((directory / "cobs.json").read_text())
    out.append("static const cobs_case cobs_cases[] = {")
    for case in cobs["cases"]:
        out.append(f'    {{{c_bytes(case["decoded_hex"])}, {c_bytes(case["encoded_hex"])}}},')
    out.append("};")

    messages = json.loads((directory / "messages.json").read_text())
    out.append("static const message_case message_cases[] = {")
    for vector in messages["vectors"]:
        out.append(f'    {{{c_name(vector["name"])}, {c_bytes(vector["hex"])}, {message(vector["message"])}}},')
    out.append("};")

    streams = json.loads((directory / "streams.json").read_text())
    for index, vector in enumerate(streams["vectors"]):
        out.append(f"static const expected_run stream_{index}_expect[] = {{")
        for expect in vector["expect"]:
            if "frame" in expect:
                out.append(f'    {{DOCK_RUN_FRAME, 0, 0, "", {message(expect["frame"])}}},')
            else:
                error = expect["error"]
                type_code = expect.get("code", TYPES.get(expect.get("type", ""), 0))
                out.append(f'    {{{ERRORS[error]}, {type_code}, {expect.get("seq", 0)}, '
                           f'{c_name(expect.get("field", ""))}, {{0}}}},')
        out.append("};")
    out.append("static const stream_case stream_cases[] = {")
    for index, vector in enumerate(streams["vectors"]):
        out.append(f'    {{{c_name(vector["name"])}, {c_bytes(vector["input_hex"])}, stream_{index}_expect, '
                   f'{len(vector["expect"])}}},')
    out.append("};")

    # texts.json (text 1.1 of the specification): how a sender cuts a text to 32 bytes.
    texts_file = directory / "texts.json"
    cases = json.loads(texts_file.read_text())["cases"] if texts_file.exists() else []
    out.append("static const text_case text_cases[] = {")
    for case in cases:
        text_bytes = case["text"].encode("utf-8")
        out.append(f'    {{{c_name(case["name"])}, {{{len(text_bytes)}, (const uint8_t *){c_string(text_bytes)}}}, '
                   f'{c_bytes(case["sent_hex"])}}},')
    if not cases:
        out.append('    {"none", {0, (const uint8_t *)""}, NULL, 0},')
    out.append("};")
    out.append(f"static const size_t text_case_count = {len(cases)};")

    session = json.loads((directory / "example-session.json").read_text())
    out.append("static const session_step session_steps[] = {")
    for step in session["steps"]:
        host = 1 if step["direction"] == "host_to_accessory" else 0
        out.append(f'    {{{host}, {c_bytes(step["hex"])}, {message(step["message"])}}},')
    out.append("};")
    # transcripts.json (text 1.2): whole exchanges, host writes and button changes at given times.
    transcripts_file = directory / "transcripts.json"
    transcripts = json.loads(transcripts_file.read_text()) if transcripts_file.exists() else {"transcripts": []}
    out.append(f"static const uint32_t transcript_byte_time_us = {transcripts.get('byte_time_us', 87)};")
    for index, transcript in enumerate(transcripts["transcripts"]):
        out.append(f"static const transcript_step transcript_{index}_steps[] = {{")
        for step in transcript["steps"]:
            kind = {"host_to_accessory": 0, "accessory_to_host": 1, "world": 2}[step["direction"]]
            bytes_part = c_bytes(step.get("hex", ""))
            m = message(step["message"]) if "message" in step else "{0}"
            pressed = int(step.get("pressed", False))
            free_time = int("time_us" in step.get("free", []))
            out.append(f'    {{{kind}, {step.get("at_us", 0)}ull, {bytes_part}, {m}, {pressed}, {free_time}}},')
        out.append("};")
    out.append("static const transcript_case transcript_cases[] = {")
    for index, transcript in enumerate(transcripts["transcripts"]):
        out.append(f'    {{{c_name(transcript["name"])}, {transcript["end_us"]}ull, transcript_{index}_steps, '
                   f'{len(transcript["steps"])}}},')
    if not transcripts["transcripts"]:
        out.append('    {"none", 0, NULL, 0},')
    out.append("};")
    out.append(f"static const size_t transcript_case_count = {len(transcripts['transcripts'])};")
    output.write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
