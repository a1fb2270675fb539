"""A small host side of Protocol/dock-serial.md for the firmware's test and benchmark scripts:
frames in and out of a serial port or pseudo-terminal, written from the specification (COBS,
CRC-32C, the payload tables), independent of the firmware's C and of dockd's Swift."""
import os
import select
import struct
import termios
import time
import tty

TYPES = {"hello": 0x01, "heartbeat": 0x02, "set_velocity": 0x03, "move_to": 0x04, "stop": 0x05,
         "set_indicator": 0x06, "info": 0x81, "ack": 0x82, "nack": 0x83, "telemetry": 0x84,
         "event": 0x85, "fault": 0x86}
NAMES = {code: name for name, code in TYPES.items()}
REASONS = {1: "unknown_message", 2: "wrong_length", 3: "out_of_range", 4: "not_ready",
           5: "unsupported_version", 6: "faulted"}
FAILSAFE_FAULT = 5


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def cobs_encode(data: bytes) -> bytes:
    out, block = bytearray(), bytearray()
    for byte in data:
        if byte == 0:
            out += bytes([len(block) + 1]) + block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                out += b"\xff" + block
                block.clear()
    return bytes(out + bytes([len(block) + 1]) + block)


def cobs_decode(data: bytes):
    out, index = bytearray(), 0
    while index < len(data):
        code = data[index]
        index += 1
        if code == 0 or index + code - 1 > len(data):
            return None
        out += data[index:index + code - 1]
        index += code - 1
        if code != 0xFF and index < len(data):
            out.append(0)
    return bytes(out)


def frame(type_code: int, seq: int, payload: bytes = b"") -> bytes:
    body = struct.pack("<BH", type_code, seq) + payload
    return b"\x00" + cobs_encode(body + struct.pack("<I", crc32c(body))) + b"\x00"


def decode_body(body: bytes):
    """A dict for a good frame of a known type, else None."""
    if body is None or len(body) < 7 or crc32c(body[:-4]) != struct.unpack("<I", body[-4:])[0]:
        return None
    type_code, seq = struct.unpack("<BH", body[:3])
    payload = body[3:-4]
    message = {"type": NAMES.get(type_code, type_code), "seq": seq}
    if type_code == 0x81:
        fixed = struct.unpack("<BBBHiiIIiiII", payload[:37])
        texts, at = [], 37
        for _ in range(3):
            length = payload[at]
            texts.append(payload[at + 1:at + 1 + length].decode("utf-8"))
            at += 1 + length
        message.update(version=fixed[0], features=fixed[1], telemetry_rate_hz=fixed[2],
                       failsafe_timeout_ms=fixed[3], yaw=fixed[4:8], pitch=fixed[8:12],
                       model=texts[0], firmware=texts[1], serial=texts[2])
    elif type_code == 0x82:
        message["acked_seq"], message["acked_type"], message["time_us"] = struct.unpack("<HBQ", payload)
    elif type_code == 0x83:
        (message["refused_seq"], message["refused_type"], reason,
         message["detail"]) = struct.unpack("<HBBH", payload)
        message["reason"] = REASONS.get(reason, reason)
    elif type_code == 0x84:
        (message["time_us"], message["yaw_urad"], message["pitch_urad"], message["yaw_rate_urad_s"],
         message["pitch_rate_urad_s"], message["flags"]) = struct.unpack("<QiiiiH", payload)
    elif type_code == 0x85:
        message["time_us"], message["event"], message["id"], message["value"] = struct.unpack("<QBBb", payload)
    elif type_code == 0x86:
        message["time_us"], message["code"], message["axis"], message["active"] = struct.unpack("<QBBB", payload)
    return message


class Link:
    """A raw serial line to the dock; `send` numbers host frames, `read` returns decoded frames
    with the CLOCK_MONOTONIC time their last byte was read."""

    def __init__(self, path: str):
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd)
        termios.tcflush(self.fd, termios.TCIOFLUSH)
        self.seq = 0
        self.run = bytearray()
        self.bad_runs = 0
        # Frames read but not yet handed out: `wait_for` leaves here those that came in the same
        # read as the one it waited for, for the next reader.
        self.pending = []

    def close(self):
        os.close(self.fd)

    def write(self, data: bytes):
        os.write(self.fd, data)

    def send(self, name: str, payload: bytes = b"") -> int:
        seq = self.seq
        self.seq = (self.seq + 1) & 0xFFFF
        self.write(frame(TYPES[name], seq, payload))
        return seq

    def hello(self, low=1, high=1):
        return self.send("hello", bytes([low, high]))

    def heartbeat(self):
        return self.send("heartbeat")

    def velocity(self, yaw_urad_s: int, pitch_urad_s: int, ttl_ms: int):
        return self.send("set_velocity", struct.pack("<iiH", yaw_urad_s, pitch_urad_s, ttl_ms))

    def read(self, timeout: float):
        """Frames that arrive within `timeout` seconds (returns as soon as at least one has)."""
        if self.pending:
            frames, self.pending = self.pending, []
            return frames
        frames, deadline = [], time.monotonic() + timeout
        while not frames:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                break
            try:
                data = os.read(self.fd, 4096)
            except (BlockingIOError, InterruptedError):
                # A pseudo-terminal may wake select() with nothing to read yet (seen in CI): wait
                # a moment (not spinning, which would starve the emulator) and try again.
                time.sleep(0.001)
                continue
            now = time.monotonic()
            for byte in data:
                if byte != 0:
                    self.run.append(byte)
                    continue
                if self.run:
                    message = decode_body(cobs_decode(bytes(self.run)))
                    if message is None:
                        self.bad_runs += 1
                    else:
                        message["received"] = now
                        frames.append(message)
                    self.run.clear()
        return frames

    def read_for(self, seconds: float):
        frames, deadline = [], time.monotonic() + seconds
        while time.monotonic() < deadline:
            frames += self.read(deadline - time.monotonic())
        return frames

    def wait_for(self, predicate, timeout: float):
        """The first frame for which predicate holds, and every frame read before it."""
        seen, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            batch = self.read(deadline - time.monotonic())
            for index, message in enumerate(batch):
                seen.append(message)
                if predicate(message):
                    # Frames that came with it (a press and its release, on a busy machine) are
                    # the next reader's, not lost.
                    self.pending = batch[index + 1:] + self.pending
                    return message, seen
        return None, seen
