#!/usr/bin/env python3
"""VISCA peers written from the manuals alone: a host that checks a camera, a camera that a host
(dockd) is pointed at, and a self-test of the two against each other.

Nothing here comes from dockd's Swift code (its codec or its simulated camera). Every rule below
comes from a published manual, or from ../shared/reference/real-hardware.md §1b and its
"Corrections and additions" and daemon-anchors.md §2.2, which cite them. Python 3 standard
library only; loopback addresses only.

Roles
-----
  visca_peer.py host   --pty PATH | --udp HOST:PORT  [--address N] [--timeout S] [--json]
  visca_peer.py camera --pty PATH | --udp HOST:PORT  [--seconds S] [--report FILE.json] ...
  visca_peer.py check-report FILE.json [--expect-pan-right] [--max-malformed 0] ...
  visca_peer.py selftest

`host` checks a camera (e.g. `docksim --protocol visca --pty PATH`, or `--udp 127.0.0.1:PORT`)
and prints one line per check, `ok NAME: detail` or `FAIL NAME: why`, then exactly
`N passed, M failed`; it exits 0 only when M is 0. `camera` is a minimal VISCA camera that dockd
is pointed at (`dockd --protocol visca --device PATH`, or `--visca udp:127.0.0.1:PORT`); it
records what it receives and writes a JSON report at exit (after --seconds, SIGTERM or SIGINT),
which `check-report` holds to the expectations given on its command line. `selftest` runs host
against camera over a pseudo-terminal (with and without ACKs) and over UDP loopback: it shows the
two peers agree with each other, not with dockd.

Sources (the bracketed tags are cited by the rules below)
---------------------------------------------------------
[SRG300]  Sony SRG-300H Technical Manual, Command List: "Socket number", "Command execution
          cancel", "VISCA Device Setting Command" (p. 26); "VISCA over IP": message header,
          payload types, payload length, sequence number, control command RESET / ERROR 0Fyy,
          control reply ACK 01 (pp. 30-31); "Delivery confirmation" and the retransmission
          table (p. 32). manual.onestart.ai/manuals/Sony-SRG-300H-Technical-Manual-5668861?page=26,
          manualshive.com/en/manual/sony/srg300h/400108?page=31 and ?page=32.
[SRG120MEM] Sony SRG-120DH Technical Manual p. 36, CAM_Memory Reset/Set/Recall
          8x 01 04 3F 00/01/02 0p FF, p the memory number 0 to F.
          manualshive.com/ru/manual/sony/srg120dh/409503?page=36.
[SRG120]  Sony SRG-120DH Technical Manual p. 26, "VISCA Command/Acknowledge Protocol" table:
          81 01 04 38 02 FF -> 90 41 FF + 90 51 FF; 81 01 04 38 FF -> 90 60 02 FF (syntax
          error: "a command which is not supported or a command lacking parameters");
          90 60 03 FF command buffer full ("two commands currently being executed");
          90 61 41 FF not executable; inquiry 81 09 04 38 FF -> 90 50 02 FF, "does not return
          ACK"; 81 09 05 38 FF -> 90 60 02 FF; cancel 81 22 FF -> 90 62 04 FF / 90 62 05 FF;
          Address Set 88 30 01 FF -> 88 30 02 FF; IF_Clear (broadcast) 88 01 00 01 FF returned
          as sent; IF_Clear 81 01 00 01 FF -> 90 50 FF, no ACK; Address Set and IF_Clear
          (broadcast) "Not available for VISCA over IP"; CAM_VersionInq 8X 09 00 02 FF ->
          Y0 50 GG GG HH HH JJ JJ KK FF (GGGG vendor, 0001 Sony; HHHH model; JJJJ ROM;
          KK maximum socket, 02). manualowl.com/m/Sony/SRG120DH/Manual/481285?page=26.
[SRGHD1]  Sony SRG-HD1 Technical Manual pp. 21-22: wait for the ACK of one command before the
          next; two sockets; "If the Acknowledge message is omitted, the socket number will
          contain 0"; device setting commands and some inquiries run while both sockets are
          busy. manualslib.com/manual/3189470/Sony-Srg-Hd1.html?page=21, ?page=22.
[FR7]     Sony ILME-FR7 VISCA Command List (5-042-055-11) pp. 3-6: VISCA over IP on UDP; device
          setting commands are IF_Clear (clears the command buffers, "the operation currently
          being executed is not guaranteed", reply without a socket) and CAM_VersionInq; an
          inquiry "does not use the socket of VISCA". manualslib.com/manual/2854210 (p. 4).
[BRCX400] Sony BRC-X400 Command List pp. 12-13, VISCA over IP "Limitation": the camera's
          address in a VISCA message is locked to 1 and the controller's to 0 (replies are
          90 ...); no broadcast address, no Address Set over IP; timing charts for a lost
          command and a lost ACK/Completion. manualslook.com/ko/manual/5709199/page-13.
[SRGX400] Sony SRG-X400 Command List (7/8) p. 20: Pan-tiltDrive 8x 01 06 01 vv ww pp tt FF,
          vv 01-18, ww 01-17, stop 03 03; ABS 8x 01 06 02 vv 00 0p0p0p0p 0t0t0t0t FF and REL
          8x 01 06 03 ... with one speed byte; Home 8x 01 06 04 FF; Reset 8x 01 06 05 FF.
          easymanua.ls/sony/srg-x400/manual/36555?p=20.
[PTZO]    PTZOptics VISCA Command List (PT12X-NDI-GY-G2 manual rev 2.0 p. 13): ACK z0 4y FF,
          Completion z0 5y FF, syntax error z0 60 02 FF ("command format is different or ...
          illegal command parameters"), command buffer full z0 60 03 FF ("two sockets are
          already being used"), canceled z0 6y 04 FF, no socket z0 6y 05 FF, not executable
          z0 6y 41 FF. manualshive.com/ru/manual/ptzoptics/pt12x-ndi-gy-g2/1623590?page=14.
[HUDDLE]  HuddleCamHD SimplTrack2 manual p. 36 and Vaddio RoboSHOT manual p. 90: drive byte
          order (01 left, 02 right, 03 stop; 01 up, 02 down), pan speed 01-18, tilt 01-14;
          absolute/relative 8x 01 06 02/03 VV WW 0Y0Y0Y0Y 0Z0Z0Z0Z FF.
[TELY]    Telycam TLC-700-S manual p. 13: Pan-tiltPosInq 8x 09 06 12 FF -> y0 50 0w0w0w0w
          0z0z0z0z FF; Pan-tiltMaxSpeedInq 8x 09 06 11 FF -> y0 50 ww zz FF; absolute position
          table pan -170..+170 deg = F670..0990 (14.4 counts/deg), tilt -30 = FE50, +90 = 0510;
          the nonlinear "VISCA PAN TILT SPEED VALUE" table. manualshive.com/ru/manual/telycam/
          tlc-700-s/1085198?page=16.
[EVID70]  Sony EVI-D70/D80 pan/tilt position (Vaddio EVI-D80D90 tech manual p. 46): pan -170
          deg .. +170 deg, tilt -30 .. +90 deg; positive relative steps "turn the camera to the
          right side" (so right raises pan, up raises tilt).
[FCB]     Sony FCB camera module command lists (FCB-EX780S p. 21; FCB-EH4300 list): X0 6Y 01 FF
          message length error; CAM_ZoomPosInq 8x 09 04 47 FF -> y0 50 0p 0q 0r 0s FF;
          CAM_Zoom 8x 01 04 07 00/02/03/2p/3p FF and direct 8x 01 04 47 0p0q0r0s FF.
[REF]     ../shared/reference/real-hardware.md §1b and "Corrections and additions": a resend
          over UDP keeps its sequence number and a camera that already carried the command out
          answers ERROR 0F 01; ERROR may come as payload type 0x0200 or 0x0201 (accept both);
          buffer full is reported on socket 0; some cameras send Completion without ACK; a
          drive runs until stopped. daemon-anchors.md §2.2: packet 8x QQ RR ... FF, 3-16 bytes,
          no checksum, framed by FF.

Rules each role follows
-----------------------
Framing: a packet is 8x ... FF, 3 to 16 bytes, x = camera 1-7 or 8 broadcast; replies start
  y0 with y = x + 8 [REF, SRG120]. Parameter bytes of the commands used here are all below 0x80,
  so the camera resynchronises on a header byte 0x81-0x88 that arrives inside an unterminated
  packet (this peer's choice; no manual describes resynchronisation).
Replies: ACK y0 4z FF, Completion y0 5z FF, inquiry reply y0 50 ... FF with no ACK; errors
  y0 60 02 FF syntax, y0 60 03 FF buffer full, y0 6z 04 FF canceled, y0 6z 05 FF no socket,
  y0 60 01 FF message length [SRG120, PTZO, FCB].
Sockets: two; a command occupies one from its ACK to its Completion; a third command while both
  are busy gets y0 60 03 FF; inquiries and device setting commands use none [SRGHD1, FR7].
Address Set 88 30 0p FF -> 88 30 0(p+1) FF; IF_Clear broadcast echoed; IF_Clear 8x 01 00 01 FF
  -> y0 50 FF without ACK [SRG120].
Pan-tilt: drive 8x 01 06 01 VV WW PP TT FF latched until a stop [HUDDLE, SRGX400, REF]; absolute
  / relative with 4+4 nibbles of signed 16-bit counts, WW may be 00 (one speed byte) [SRGX400];
  home / reset; position inquiry -> y0 50 0p0p0p0p 0t0t0t0t FF [TELY]; right and up are positive
  [EVID70]; 14.4 counts/deg, pan +-170 deg, tilt -30..+90 deg [TELY].
VISCA over IP: 8-byte header, payload type u16 BE, payload length u16 BE (1-16), sequence u32
  BE; types 0x0100 command, 0x0110 inquiry, 0x0111 reply, 0x0120 device setting (IF_Clear,
  CAM_VersionInq [FR7]), 0x0200 control command, 0x0201 control reply; RESET = control command
  payload 01, answered by control reply 01, and sets the sequence number to 0; ERROR 0F 01
  abnormal sequence number, 0F 02 abnormal message (type); every reply carries the sequence
  number of the message it answers [SRG300]. A message resent with the sequence number of one
  already carried out is answered ERROR 0F 01, not carried out again [SRG300 p. 32, REF].
  Addresses are locked to 1 / 0, no broadcast and no Address Set over IP [BRCX400, SRG120].

Choices of this peer (not in any manual): a new pan-tilt drive ends pending absolute, relative
and home moves with their Completion (the drive takes over); positional moves queue in socket
order; IF_Clear also stops motion; an absolute target outside the limits is clamped and counted.
The camera does not hold its pty's slave open, so a host closing the port (dockd exiting or
killed) reads as EIO: the report notes when, and whether the camera was left moving; replies due
while the port is closed are dropped, as on a serial line.

How strict the host is: IF_Clear and CAM_VersionInq go over IP as device setting commands
(0x0120) and must be answered so [FR7]; a resend must get ERROR 0F 01, not a second ACK or
Completion [SRG300 p. 32]; an unknown payload type must get ERROR 0F 02 [SRG300]. Lenient where
the manuals allow more than one answer: Completion without ACK is accepted and reported
[SRGHD1, REF]; ERROR as payload type 0x0200 or 0x0201 [REF]; a wrong length field may get
ERROR 0F 02 or be ignored; zoom may be absent (syntax error); garbage without a terminator may
cost the command glued to it; a camera that finishes a slow move before the third command
arrives passes buffer_full, saying so.

What the camera's report sorts a host's mistakes into: `malformed` (not a VISCA packet or not a
VISCA-over-IP message), `violations` (what the manuals forbid: another camera's address,
broadcast or Address Set over IP, a payload type that does not match the packet), `deviations`
(accepted, but filed differently in the manuals: a device setting command as 0x0100/0x0110,
speed bytes 00 on a stop, an address other than 1 over IP) and `syntax_errors` (commands this
camera does not know). check-report holds malformed and violations to 0 unless told otherwise.
"""

import argparse
import errno
import heapq
import ipaddress
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time
import tty

EXIT_USAGE = 64

# --- VISCA over IP [SRG300] ------------------------------------------------------------------

PT_COMMAND = 0x0100
PT_INQUIRY = 0x0110
PT_REPLY = 0x0111
PT_DEVICE_SETTING = 0x0120
PT_CONTROL = 0x0200
PT_CONTROL_REPLY = 0x0201
HEADER = struct.Struct(">HHI")
CONTROL_RESET = b"\x01"
CONTROL_ACK = b"\x01"
ERROR_SEQUENCE = b"\x0f\x01"
ERROR_MESSAGE = b"\x0f\x02"

# --- VISCA packet facts [REF, SRG120, PTZO, FCB] -----------------------------------------------

TERMINATOR = 0xFF
MAX_PACKET = 16
ERR_LENGTH, ERR_SYNTAX, ERR_BUFFER_FULL, ERR_CANCELED, ERR_NO_SOCKET = 0x01, 0x02, 0x03, 0x04, 0x05
ERR_NOT_EXECUTABLE = 0x41
# CAM_Memory [SRG120MEM]: 8x 01 04 3F 0a pp FF, a = 00 reset, 01 set, 02 recall.
MEMORY_ACTIONS = {0x00: "memory_reset", 0x01: "memory_set", 0x02: "memory_recall"}

# --- The camera's model [TELY, EVID70] -------------------------------------------------------

COUNTS_PER_DEG = 14.4
PAN_LIMIT_DEG = 170.0
TILT_MIN_DEG, TILT_MAX_DEG = -30.0, 90.0
ZOOM_MAX = 0x4000
ZOOM_DIRECT_RATE = 0x4000 / 2.0  # counts/s: wide to tele in 2 s (this peer's choice)
VENDOR_SONY = 0x0001
DEFAULT_MODEL_ID = 0x0F00  # not a real Sony model ID

# Telycam TLC-700-S "VISCA PAN TILT SPEED VALUE" (deg/s by step) [TELY].
TELYCAM_PAN = [0.3, 1, 1.5, 2.2, 2.4, 2.6, 2.8, 3.0, 3.2, 3.4, 3.8, 4.5, 6, 9, 15, 19, 25, 32, 38,
               45, 58, 75, 88, 105, 120]
TELYCAM_TILT = [0.3, 1, 1.5, 2.2, 3.6, 4.7, 6, 8, 10, 12, 15, 18, 23, 30, 39, 48, 59, 69, 80]


# Misbehaviours the camera can be told to have, so that the self-test shows the host catches them.
FAULTS = {
    "invert-pan": "a drive right lowers the pan count",
    "sloppy-absolute": "absolute and relative moves end 10 counts right of the target",
    "three-sockets": "three sockets, so no buffer full on a third command",
    "silent-if-clear": "IF_Clear 8x 01 00 01 FF is carried out but not answered",
    "reexecute-resend": "VISCA over IP: a resend with the same sequence number is carried out again",
    "wrong-seq": "VISCA over IP: replies carry the request's sequence number + 1",
}


class UsageError(Exception):
    """A command line that cannot be run (exit 64)."""


class LinkGone(Exception):
    """The other end of the pseudo-terminal or socket went away."""


def hexs(data):
    """Bytes as `81 09 06 12 FF`."""
    return " ".join(f"{b:02X}" for b in data)


def to_nibbles(value):
    """A signed 16-bit value as four bytes 0p 0q 0r 0s, most significant first [REF, FCB]."""
    v = value & 0xFFFF
    return bytes((v >> shift) & 0x0F for shift in (12, 8, 4, 0))


def from_nibbles(data):
    """Four bytes 0p 0q 0r 0s as a signed 16-bit value."""
    v = 0
    for b in data:
        v = (v << 4) | (b & 0x0F)
    return v - 0x10000 if v & 0x8000 else v


def loopback_endpoint(text, default_port=52381):
    """HOST:PORT (or HOST) on an IPv4 loopback address; anything else is refused."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, str(default_port)
    if host in ("", "localhost"):
        host = "127.0.0.1"
    try:
        address = ipaddress.IPv4Address(host)
    except ValueError:
        raise UsageError(f"{text!r}: expected an IPv4 loopback address such as 127.0.0.1:52381")
    if not address.is_loopback:
        raise UsageError(f"{text!r}: only loopback addresses (127.0.0.0/8) are allowed")
    try:
        number = int(port)
    except ValueError:
        raise UsageError(f"{text!r}: the port is not a number")
    if not 0 <= number <= 65535:
        raise UsageError(f"{text!r}: the port is out of range")
    return str(address), number


def set_raw(fd):
    """Raw 8N1 at 9600 baud (libvisca's default [REF]); on a pty the rate means nothing."""
    tty.setraw(fd, termios.TCSANOW)
    attrs = termios.tcgetattr(fd)
    attrs[2] |= termios.CLOCAL | termios.CREAD
    attrs[4] = attrs[5] = termios.B9600
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


def write_all(fd, data, timeout=1.0):
    """Write every byte to a non-blocking descriptor, waiting for room up to `timeout`."""
    view = memoryview(data)
    deadline = time.monotonic() + timeout
    while view:
        try:
            n = os.write(fd, view)
            view = view[n:]
        except BlockingIOError:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise LinkGone("the pseudo-terminal is not being read")
            select.select([], [fd], [], remaining)


# =============================================================================================
# Host: a controller that checks a camera
# =============================================================================================

class Reply:
    """One message from the camera: the VISCA bytes and, over UDP, the header's fields."""

    def __init__(self, payload, ptype=None, seq=None, length=None):
        self.payload, self.ptype, self.seq, self.length = payload, ptype, seq, length
        self.at = time.monotonic()

    def __repr__(self):
        if self.ptype is None:
            return hexs(self.payload)
        return f"[{self.ptype:04X} seq {self.seq}] {hexs(self.payload)}"


class SerialLink:
    """The host's end of a pseudo-terminal the camera created (PATH is its symlink)."""

    transport = "pty"

    def __init__(self, path, wait):
        deadline = time.monotonic() + wait
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                raise LinkGone(f"{path} did not appear within {wait:g} s")
            time.sleep(0.05)
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        set_raw(self.fd)
        termios.tcflush(self.fd, termios.TCIOFLUSH)
        self.buffer = bytearray()

    def send(self, packet, ptype=None, seq=None):
        write_all(self.fd, packet)
        return None

    def send_raw(self, data):
        write_all(self.fd, data)

    def receive(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            end = self.buffer.find(TERMINATOR)
            if end >= 0:
                packet = bytes(self.buffer[:end + 1])
                del self.buffer[:end + 1]
                return Reply(packet)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 512)
            except BlockingIOError:
                continue
            except OSError as error:
                if error.errno == errno.EIO:
                    raise LinkGone("the camera closed the pseudo-terminal")
                raise
            self.buffer += data

    def close(self):
        os.close(self.fd)


class UdpLink:
    """VISCA over IP to a camera on a loopback address [SRG300]."""

    transport = "udp"

    def __init__(self, host, port):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.connect((host, port))
        self.sock.setblocking(False)
        self.next_seq = 0
        self.sent_seqs = set()
        self.header_problems = []
        self.replies = 0

    def allocate(self):
        seq = self.next_seq
        self.next_seq = (seq + 1) & 0xFFFFFFFF
        return seq

    def send(self, packet, ptype=PT_COMMAND, seq=None):
        if seq is None:
            seq = self.allocate()
        self.sent_seqs.add(seq)
        self.sock.send(HEADER.pack(ptype, len(packet), seq) + packet)
        return seq

    def send_raw(self, data):
        if len(data) >= HEADER.size:
            self.sent_seqs.add(HEADER.unpack_from(data)[2])
        self.sock.send(data)

    def receive(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.sock], [], [], remaining)
            if not ready:
                continue
            try:
                data = self.sock.recv(4096)
            except BlockingIOError:
                continue
            except ConnectionRefusedError:
                raise LinkGone("nothing listens on the camera's port (ICMP port unreachable)")
            self.replies += 1
            if len(data) < HEADER.size:
                self.header_problems.append(f"a {len(data)}-byte datagram has no header: {hexs(data)}")
                return Reply(data)
            ptype, length, seq = HEADER.unpack_from(data)
            payload = data[HEADER.size:]
            if length != len(payload):
                self.header_problems.append(
                    f"length field {length} but {len(payload)} payload bytes: {hexs(data)}")
            if ptype not in (PT_REPLY, PT_CONTROL, PT_CONTROL_REPLY):
                self.header_problems.append(f"payload type {ptype:04X} is not a reply: {hexs(data)}")
            if seq not in self.sent_seqs:
                self.header_problems.append(f"sequence number {seq} answers no message sent: {hexs(data)}")
            return Reply(payload, ptype, seq, length)

    def close(self):
        self.sock.close()


class Outcome:
    """What a command got back: ACK socket, Completion socket, error (socket, code), delays."""

    def __init__(self, seq):
        self.seq, self.ack, self.completion, self.error, self.other = seq, None, None, None, []
        self.sent = time.monotonic()
        self.ack_after = self.completion_after = None
        self.timed_out = False

    @property
    def accepted(self):
        return self.completion is not None and self.error is None

    @property
    def completion_only(self):
        return self.ack is None and self.completion is not None

    def describe(self):
        parts = []
        if self.ack is not None:
            parts.append(f"ACK {self.ack}")
        if self.completion is not None:
            late = f" {self.completion_after:.3f} s after sending" if self.completion_after else ""
            parts.append(f"Completion {self.completion}{late}"
                         + (" without ACK" if self.ack is None else ""))
        if self.error is not None:
            parts.append(f"error socket {self.error[0]} code {self.error[1]:02X}")
        if self.other:
            parts.append("unexpected " + ", ".join(map(repr, self.other)))
        if self.timed_out:
            parts.append("no (further) reply")
        return "; ".join(parts) or "no reply"


class Host:
    """Runs the checks against one camera and keeps the results."""

    def __init__(self, link, address, timeout, budget, only=None, tolerance=4):
        self.link = link
        self.tolerance = tolerance
        self.only = only
        self.udp = link.transport == "udp"
        self.address = 1 if self.udp else address  # locked to 1 over IP [BRCX400]
        self.head = 0x80 | self.address
        self.reply_head = (self.address + 8) << 4
        self.timeout = timeout
        self.budget = budget
        self.started = time.monotonic()
        self.results = []
        self.completion_only = None
        self.stray = []
        self.if_clear_type = PT_DEVICE_SETTING

    # -- bytes ----------------------------------------------------------------------------------

    def packet(self, *body):
        return bytes([self.head, *body, TERMINATOR])

    def drive_packet(self, pan_dir, tilt_dir, speed=0x08):
        return self.packet(0x01, 0x06, 0x01, speed, speed, pan_dir, tilt_dir)

    def move_packet(self, kind, speed, pan, tilt):
        return self.packet(0x01, 0x06, kind, speed, speed, *to_nibbles(pan), *to_nibbles(tilt))

    # -- replies --------------------------------------------------------------------------------

    def classify(self, reply):
        """('ack', z) / ('completion', z) / ('error', z, code) / ('data', bytes) / ('control', p)."""
        p = reply.payload
        if reply.ptype in (PT_CONTROL, PT_CONTROL_REPLY):
            return ("control", p)
        if len(p) < 3 or p[0] != self.reply_head or p[-1] != TERMINATOR:
            return ("other", p)
        kind = p[1] & 0xF0
        if len(p) == 3 and kind == 0x40:
            return ("ack", p[1] & 0x0F)
        if len(p) == 3 and kind == 0x50:
            return ("completion", p[1] & 0x0F)
        if len(p) == 4 and kind == 0x60:
            return ("error", p[1] & 0x0F, p[2])
        if len(p) > 3 and p[1] == 0x50:
            return ("data", p)
        return ("other", p)

    def next_reply(self, timeout, seq=None):
        """The next reply (over UDP, the next one carrying `seq`); others are kept as strays."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            reply = self.link.receive(remaining)
            if reply is None:
                return None
            if self.udp and seq is not None and reply.seq != seq:
                self.stray.append(reply)
                continue
            return reply

    def drain(self, quiet=0.03):
        """Read and drop replies until the line is quiet for `quiet` seconds."""
        dropped = []
        while True:
            reply = self.link.receive(quiet)
            if reply is None:
                return dropped
            dropped.append(reply)

    def command(self, packet, ptype=PT_COMMAND, completion_timeout=None, seq=None, first_timeout=None):
        """Send a command; wait for ACK (or Completion, or an error), then for Completion."""
        seq = self.link.send(packet, ptype, seq)
        out = Outcome(seq)
        first = first_timeout if first_timeout is not None else self.timeout
        if self.completion_only and completion_timeout:
            first = max(first, completion_timeout)
        deadline = time.monotonic() + first
        while True:
            reply = self.next_reply(deadline - time.monotonic(), seq)
            if reply is None:
                out.timed_out = True
                return out
            kind = self.classify(reply)
            if kind[0] == "ack" and out.ack is None:
                out.ack, out.ack_after = kind[1], reply.at - out.sent
                if not completion_timeout:
                    return out
                deadline = time.monotonic() + completion_timeout
            elif kind[0] == "completion" and (out.ack is None or kind[1] == out.ack):
                out.completion, out.completion_after = kind[1], reply.at - out.sent
                return out
            elif kind[0] == "error" and (out.ack is None or kind[1] in (0, out.ack)):
                out.error = (kind[1], kind[2])
                return out
            else:
                out.other.append(reply)

    def inquiry(self, packet, ptype=PT_INQUIRY, skip_errors=0):
        """Send an inquiry; the first reply's payload (error replies skipped up to `skip_errors`)."""
        seq = self.link.send(packet, ptype)
        skipped = []
        while True:
            reply = self.next_reply(self.timeout, seq)
            if reply is None:
                return None, skipped
            kind = self.classify(reply)
            if kind[0] == "error" and len(skipped) < skip_errors:
                skipped.append(reply)
                continue
            return reply, skipped

    def position(self, skip_errors=0):
        """(pan, tilt) counts from a position inquiry [TELY], or None."""
        reply, _ = self.inquiry(self.packet(0x09, 0x06, 0x12), skip_errors=skip_errors)
        if reply is None or not self.position_shape(reply.payload):
            return None
        p = reply.payload
        return from_nibbles(p[2:6]), from_nibbles(p[6:10])

    def position_shape(self, p):
        return (len(p) == 11 and p[0] == self.reply_head and p[1] == 0x50
                and p[-1] == TERMINATOR and all(b <= 0x0F for b in p[2:10]))

    def note_mode(self, out):
        if out.accepted and self.completion_only is None:
            self.completion_only = out.completion_only

    # -- running --------------------------------------------------------------------------------

    def run(self, name, check):
        if self.only is not None and name not in self.only:
            return
        elapsed = time.monotonic() - self.started
        if elapsed > self.budget:
            self.results.append((name, False, f"not run: the {self.budget:g} s budget is spent"))
            return
        self.drain()
        try:
            ok, detail = check()
        except LinkGone as error:
            ok, detail = False, f"link gone: {error}"
        except OSError as error:
            ok, detail = False, f"{type(error).__name__}: {error}"
        self.results.append((name, ok, detail))

    def run_all(self):
        if self.udp:
            self.run("reset_sequence", self.check_reset_sequence)
        else:
            self.run("address_set", self.check_address_set)
            self.run("if_clear_broadcast", self.check_if_clear_broadcast)
        self.run("if_clear", self.check_if_clear)
        self.run("version_inquiry", self.check_version)
        self.run("position_inquiry", self.check_position)
        self.run("zoom_inquiry", self.check_zoom)
        self.run("drive_right", lambda: self.check_drive(0x02, 0x03, 0, +1, 0.6, "pan"))
        self.run("drive_left", lambda: self.check_drive(0x01, 0x03, 0, -1, 1.0, "pan"))
        self.run("stop", self.check_stop)
        self.run("tilt_up", lambda: self.check_drive(0x03, 0x01, 1, +1, 0.6, "tilt", stop_after=True))
        self.run("absolute_move", self.check_absolute)
        self.run("relative_move", self.check_relative)
        self.run("home", self.check_home)
        self.run("syntax_error_command", self.check_syntax_command)
        self.run("syntax_error_inquiry", self.check_syntax_inquiry)
        if self.udp:
            self.run("garbage_datagram", self.check_garbage_datagram)
            self.run("garbage_payload", self.check_garbage_payload)
            self.run("resend_same_sequence_command", self.check_resend_command)
            self.run("resend_same_sequence_inquiry", self.check_resend_inquiry)
            self.run("wrong_length_field", self.check_wrong_length)
            self.run("unknown_payload_type", self.check_unknown_type)
        else:
            self.run("garbage_terminated", self.check_garbage_terminated)
            self.run("garbage_unterminated", self.check_garbage_unterminated)
        self.run("buffer_full", self.check_buffer_full)
        self.run("if_clear_frees_sockets", self.check_if_clear_frees)
        if self.udp:
            self.run("udp_headers", self.check_udp_headers)
        return self.results

    # -- the checks -----------------------------------------------------------------------------

    def check_reset_sequence(self):
        # [SRG300] control command RESET 01 -> control reply ACK 01; its own sequence is ignored.
        self.link.send(CONTROL_RESET, PT_CONTROL, seq=0)
        reply = self.next_reply(self.timeout)
        self.link.next_seq = 1
        if reply is None:
            return False, "no reply to control command RESET (0x0200, payload 01) [SRG300]"
        if reply.ptype == PT_CONTROL_REPLY and reply.payload == CONTROL_ACK:
            return True, f"control reply 0x0201 payload 01 (seq {reply.seq})"
        return False, f"expected control reply 0x0201 payload 01, got {reply!r}"

    def check_address_set(self):
        # [SRG120] 88 30 0p FF -> 88 30 0(p+1) FF.
        sent = bytes([0x88, 0x30, self.address, TERMINATOR])
        self.link.send(sent)
        reply = self.next_reply(self.timeout)
        want = bytes([0x88, 0x30, self.address + 1, TERMINATOR])
        if reply is None:
            return False, f"no reply to {hexs(sent)}"
        if reply.payload == want:
            return True, f"{hexs(sent)} -> {hexs(reply.payload)}"
        return False, f"{hexs(sent)} -> {hexs(reply.payload)}, expected {hexs(want)}"

    def check_if_clear_broadcast(self):
        # [SRG120] 88 01 00 01 FF is returned as sent.
        sent = bytes([0x88, 0x01, 0x00, 0x01, TERMINATOR])
        self.link.send(sent)
        reply = self.next_reply(self.timeout)
        if reply is None:
            return False, f"no reply to {hexs(sent)}"
        if reply.payload == sent:
            return True, f"{hexs(sent)} returned"
        return False, f"{hexs(sent)} -> {hexs(reply.payload)}, expected the same bytes back"

    def check_if_clear(self):
        # [SRG120] 8x 01 00 01 FF -> y0 50 FF, no ACK; over IP a device setting command [FR7].
        packet = self.packet(0x01, 0x00, 0x01)
        want = bytes([self.reply_head, 0x50, TERMINATOR])
        reply, _ = self.inquiry(packet, ptype=PT_DEVICE_SETTING if self.udp else None)
        if reply is not None and reply.payload == want:
            kind = " as device setting command 0x0120" if self.udp else ""
            return True, f"{hexs(packet)}{kind} -> {hexs(reply.payload)}"
        if reply is not None:
            return False, f"{hexs(packet)} -> {reply!r}, expected {hexs(want)} [SRG120]"
        if self.udp:
            # Say whether it answers the same bytes as a VISCA command, which [FR7] does not list.
            alt, _ = self.inquiry(packet, ptype=PT_COMMAND)
            if alt is not None and alt.payload == want:
                self.if_clear_type = PT_COMMAND
                return False, ("no reply as device setting command 0x0120 [FR7: IF_Clear is a "
                               "device setting command]; it answers only as 0x0100")
        return False, f"no reply to {hexs(packet)}"

    def check_version(self):
        # [SRG120] 8X 09 00 02 FF -> Y0 50 GG GG HH HH JJ JJ KK FF; over IP type 0x0120 [FR7].
        packet = self.packet(0x09, 0x00, 0x02)
        reply, _ = self.inquiry(packet, ptype=PT_DEVICE_SETTING if self.udp else PT_INQUIRY)
        if reply is None and self.udp:
            alt, _ = self.inquiry(packet, ptype=PT_INQUIRY)
            if alt is not None:
                return False, ("no reply as device setting command 0x0120 [FR7: CAM_VersionInq "
                               f"is a device setting command]; as inquiry 0x0110: {alt!r}")
        if reply is None:
            return False, f"no reply to {hexs(packet)}"
        p = reply.payload
        if len(p) == 10 and p[0] == self.reply_head and p[1] == 0x50 and p[-1] == TERMINATOR:
            vendor, model, rom, sockets = (p[2] << 8 | p[3], p[4] << 8 | p[5], p[6] << 8 | p[7], p[8])
            detail = f"vendor {vendor:04X}, model {model:04X}, ROM {rom:04X}, max socket {sockets:02X}"
            if sockets != 0x02:
                return False, detail + " (every manual gives max socket 02 [SRG120])"
            return True, detail
        return False, f"{hexs(p)} is not y0 50 GG GG HH HH JJ JJ KK FF"

    def check_position(self):
        reply, _ = self.inquiry(self.packet(0x09, 0x06, 0x12))
        if reply is None:
            return False, "no reply to the position inquiry"
        if self.position_shape(reply.payload):
            p = reply.payload
            return True, f"{hexs(p)} (pan {from_nibbles(p[2:6])}, tilt {from_nibbles(p[6:10])})"
        return False, f"{hexs(reply.payload)} is not y0 50 0p0p0p0p 0t0t0t0t FF [TELY]"

    def check_zoom(self):
        # [FCB] 8x 09 04 47 FF -> y0 50 0p 0q 0r 0s FF; a camera without zoom says syntax error.
        reply, _ = self.inquiry(self.packet(0x09, 0x04, 0x47))
        if reply is None:
            return False, "no reply to the zoom position inquiry (neither a position nor a syntax error)"
        p = reply.payload
        if len(p) == 7 and p[0] == self.reply_head and p[1] == 0x50 and all(b <= 0x0F for b in p[2:6]):
            return True, f"zoom position {from_nibbles(p[2:6]) & 0xFFFF:04X}"
        if p == bytes([self.reply_head, 0x60, ERR_SYNTAX, TERMINATOR]):
            return True, "no zoom: syntax error y0 60 02 FF"
        return False, f"{hexs(p)} is neither y0 50 0p0q0r0s FF nor y0 60 02 FF"

    def accepted_detail(self, out, what):
        if out.accepted:
            self.note_mode(out)
            return None
        return f"{what}: {out.describe()}"

    def check_drive(self, pan_dir, tilt_dir, axis, sign, seconds, label, stop_after=False):
        before = self.position()
        if before is None:
            return False, "no position before the drive"
        out = self.command(self.drive_packet(pan_dir, tilt_dir), completion_timeout=self.timeout)
        problem = self.accepted_detail(out, "the drive was not accepted")
        if problem:
            return False, problem
        time.sleep(seconds)
        after = self.position()
        if stop_after:
            stop = self.command(self.drive_packet(0x03, 0x03), completion_timeout=self.timeout)
            if not stop.accepted:
                return False, f"the stop after the drive: {stop.describe()}"
        if after is None:
            return False, "no position after the drive"
        moved = (after[axis] - before[axis]) * sign
        detail = f"{out.describe()}; {label} {before[axis]} -> {after[axis]} counts in {seconds:g} s"
        if moved > 0:
            return True, detail
        return False, detail + f" (expected it to {'increase' if sign > 0 else 'decrease'})"

    def check_stop(self):
        out = self.command(self.drive_packet(0x03, 0x03), completion_timeout=self.timeout)
        problem = self.accepted_detail(out, "the stop was not accepted")
        if problem:
            return False, problem
        time.sleep(0.3)
        a = self.position()
        time.sleep(0.4)
        b = self.position()
        if a is None or b is None:
            return False, "no position after the stop"
        if abs(a[0] - b[0]) <= self.tolerance and abs(a[1] - b[1]) <= self.tolerance:
            return True, f"{out.describe()}; still at {b} 0.3 s and 0.7 s after it"
        return False, f"still moving after the stop: {a} then {b} 0.4 s later"

    def move_and_check(self, packet, target, what):
        out = self.command(packet, completion_timeout=10.0)
        if out.error or out.completion is None:
            return False, f"{what}: {out.describe()}"
        self.note_mode(out)
        pose = self.position()
        if pose is None:
            return False, f"{out.describe()}; no position after it"
        near = abs(pose[0] - target[0]) <= self.tolerance and abs(pose[1] - target[1]) <= self.tolerance
        detail = f"{out.describe()}; at {pose}, target {target}"
        return (near, detail if near else detail + f" (more than {self.tolerance} counts away)")

    def check_absolute(self):
        target = (0x0100, 0x0060)
        return self.move_and_check(self.move_packet(0x02, 0x10, *target), target, "absolute move")

    def check_relative(self):
        start = self.position()
        if start is None:
            return False, "no position before the relative move"
        delta = (-0x40, -0x20)
        target = (start[0] + delta[0], start[1] + delta[1])
        return self.move_and_check(self.move_packet(0x03, 0x10, *delta), target,
                                   f"relative move by {delta} from {start}")

    def check_home(self):
        return self.move_and_check(self.packet(0x01, 0x06, 0x04), (0, 0), "home")

    def check_syntax_command(self):
        # [SRG120]: 81 01 04 38 FF (a command lacking its parameter) -> 90 60 02 FF.
        packet = self.packet(0x01, 0x04, 0x38)
        out = self.command(packet)
        if out.error == (0, ERR_SYNTAX):
            return True, f"{hexs(packet)} -> y0 60 02 FF"
        return False, f"{hexs(packet)}: {out.describe()}, expected y0 60 02 FF [SRG120]"

    def check_syntax_inquiry(self):
        # [SRG120]: 81 09 05 38 FF -> 90 60 02 FF.
        packet = self.packet(0x09, 0x05, 0x38)
        reply, _ = self.inquiry(packet)
        want = bytes([self.reply_head, 0x60, ERR_SYNTAX, TERMINATOR])
        if reply is not None and reply.payload == want:
            return True, f"{hexs(packet)} -> {hexs(want)}"
        return False, f"{hexs(packet)} -> {reply!r}, expected {hexs(want)} [SRG120]"

    def check_garbage_terminated(self):
        garbage = bytes([0x12, 0x34, 0x56, TERMINATOR])
        self.link.send_raw(garbage)
        reply, skipped = self.inquiry(self.packet(0x09, 0x06, 0x12), skip_errors=2)
        if reply is not None and self.position_shape(reply.payload):
            said = f" (it answered the garbage with {', '.join(map(repr, skipped))})" if skipped else ""
            return True, f"after {hexs(garbage)} the position inquiry was answered{said}"
        return False, f"after {hexs(garbage)} the position inquiry got {reply!r}"

    def check_garbage_unterminated(self):
        garbage = bytes([0x00, 0x7F, 0x12])
        self.link.send_raw(garbage)
        first = self.position(skip_errors=2)
        if first is not None:
            return True, f"after {hexs(garbage)} (no FF) the next inquiry was answered: resynchronised on its header"
        second = self.position(skip_errors=2)
        if second is not None:
            return True, (f"after {hexs(garbage)} (no FF) the inquiry glued to it was lost, "
                          "the one after it answered")
        return False, f"after {hexs(garbage)} (no FF) two position inquiries went unanswered"

    def wait_ack(self, packet, watch):
        """Send a command and wait for its ACK or error, noting Completions of sockets in `watch`."""
        seq = self.link.send(packet, PT_COMMAND)
        wait = 0.3 if self.completion_only else self.timeout
        deadline = time.monotonic() + wait
        while True:
            reply = self.link.receive(max(0.0, deadline - time.monotonic()))
            if reply is None:
                return None, seq
            kind = self.classify(reply)
            if self.udp and reply.seq != seq:
                if kind[0] == "completion" and reply.seq in watch:
                    watch[reply.seq] = True
                continue
            if not self.udp and kind[0] == "completion" and kind[1] in watch:
                watch[kind[1]] = True
                continue
            return kind, seq

    def check_buffer_full(self):
        # [SRG120, PTZO, REF]: a third command while two are executing -> y0 60 03 FF (socket 0).
        slow = 0x01
        done = {}
        a, seq_a = self.wait_ack(self.move_packet(0x02, slow, 0x0400, 0), done)
        if a is not None and a[0] == "error":
            return False, f"the first slow absolute move got error {a[2]:02X}"
        done[seq_a if self.udp else (a[1] if a else None)] = a is not None and a[0] == "completion"
        b, seq_b = self.wait_ack(self.move_packet(0x02, slow, -0x0400, 0), done)
        if b is not None and b[0] == "error":
            return False, f"the second slow absolute move got error {b[2]:02X} (with one busy socket)"
        done[seq_b if self.udp else (b[1] if b else None)] = b is not None and b[0] == "completion"
        c, _ = self.wait_ack(self.move_packet(0x02, slow, 0, 0), done)
        finished = [k for k, v in done.items() if v]
        if c is not None and c[0] == "error" and c[2] == ERR_BUFFER_FULL:
            where = "y0 60 03 FF" if c[1] == 0 else f"buffer full on socket {c[1]} (manuals: socket 0)"
            return c[1] == 0, f"two slow absolute moves took both sockets; the third got {where}"
        if c is not None and c[0] in ("ack", "completion") and finished:
            return True, ("the camera finished a slow move before the third command arrived, "
                          "so buffer full was not exercised")
        if c is not None and c[0] in ("ack", "completion"):
            return False, "a third command was accepted while two slow moves were executing"
        return False, f"the third command got {c!r}, expected y0 60 03 FF"

    def check_if_clear_frees(self):
        # [FR7]: IF_Clear clears the command buffers. Afterwards a stop must be accepted.
        packet = self.packet(0x01, 0x00, 0x01)
        seq = self.link.send(packet, self.if_clear_type if self.udp else None)
        want = bytes([self.reply_head, 0x50, TERMINATOR])
        deadline = time.monotonic() + self.timeout
        got = None
        while got is None:
            reply = self.next_reply(deadline - time.monotonic(), seq)
            if reply is None:
                break
            if reply.payload == want:
                got = reply
        self.drain(0.1)
        stop = self.command(self.drive_packet(0x03, 0x03), completion_timeout=self.timeout)
        home = self.command(self.packet(0x01, 0x06, 0x04), completion_timeout=10.0)
        if got is None:
            return False, f"no {hexs(want)} for IF_Clear; the stop after it: {stop.describe()}"
        if not stop.accepted:
            return False, f"IF_Clear answered, but the stop after it got {stop.describe()}"
        return True, f"IF_Clear answered, then the stop got {stop.describe()} (home: {home.describe()})"

    # -- VISCA over IP --------------------------------------------------------------------------

    def check_garbage_datagram(self):
        garbage = bytes([0x12, 0x34, 0x56])
        self.link.send_raw(garbage)
        pose = self.position()
        if pose is not None:
            return True, f"after a {len(garbage)}-byte datagram with no header, the next inquiry was answered"
        return False, "after a datagram with no header, the next inquiry went unanswered"

    def check_garbage_payload(self):
        garbage = bytes([0x12, 0x34, 0x56, TERMINATOR])
        self.link.send(garbage, PT_COMMAND)
        pose = self.position()
        if pose is not None:
            return True, f"after a VISCA command payload {hexs(garbage)}, the next inquiry was answered"
        return False, f"after a payload {hexs(garbage)}, the next inquiry went unanswered"

    def resend(self, packet, ptype, completion):
        seq = self.link.allocate()
        if completion:
            first = self.command(packet, ptype, completion_timeout=self.timeout, seq=seq)
            if not first.accepted:
                return False, f"the first send was not carried out: {first.describe()}"
        else:
            self.link.send(packet, ptype, seq)
            first = self.next_reply(self.timeout, seq)
            if first is None:
                return False, "the first send got no reply"
        self.drain(0.05)
        self.link.send(packet, ptype, seq)
        reply = self.next_reply(self.timeout, seq)
        if reply is None:
            return False, f"no reply to the resend with sequence number {seq} (expected ERROR 0F 01 [SRG300])"
        if reply.ptype in (PT_CONTROL, PT_CONTROL_REPLY) and reply.payload == ERROR_SEQUENCE:
            again = [r for r in self.drain(0.3) if r.seq == seq]
            if again:
                return False, f"ERROR 0F 01, but then also {again!r}"
            return True, f"resend with sequence number {seq} -> ERROR 0F 01 as payload type {reply.ptype:04X}"
        return False, f"resend with sequence number {seq} -> {reply!r}; expected ERROR 0F 01 [SRG300 p. 32]"

    def check_resend_command(self):
        return self.resend(self.drive_packet(0x03, 0x03), PT_COMMAND, completion=True)

    def check_resend_inquiry(self):
        return self.resend(self.packet(0x09, 0x06, 0x12), PT_INQUIRY, completion=False)

    def check_wrong_length(self):
        packet = self.packet(0x09, 0x06, 0x12)
        seq = self.link.allocate()
        self.link.send_raw(HEADER.pack(PT_INQUIRY, len(packet) + 4, seq) + packet)
        reply = self.next_reply(self.timeout, seq)
        pose = self.position()
        after = "" if pose is not None else "; and the next inquiry went unanswered"
        if reply is None:
            return pose is not None, f"a length field 4 bytes too long was ignored{after}"
        if reply.ptype in (PT_CONTROL, PT_CONTROL_REPLY) and reply.payload == ERROR_MESSAGE:
            return pose is not None, f"a length field 4 bytes too long -> ERROR 0F 02{after}"
        return False, f"a length field 4 bytes too long was answered {reply!r}{after}"

    def check_unknown_type(self):
        # [SRG300] ERROR 0F 02: abnormality in the message (message type).
        packet = self.packet(0x09, 0x06, 0x12)
        seq = self.link.send(packet, 0x0130)
        reply = self.next_reply(self.timeout, seq)
        if reply is None:
            return False, "payload type 0x0130 got no reply; expected ERROR 0F 02 [SRG300]"
        if reply.ptype in (PT_CONTROL, PT_CONTROL_REPLY) and reply.payload == ERROR_MESSAGE:
            return True, f"payload type 0x0130 -> ERROR 0F 02 as payload type {reply.ptype:04X}"
        return False, f"payload type 0x0130 -> {reply!r}; expected ERROR 0F 02 [SRG300]"

    def check_udp_headers(self):
        problems = self.link.header_problems
        if problems:
            return False, f"{len(problems)} of {self.link.replies} replies: " + "; ".join(problems[:3])
        return True, (f"{self.link.replies} replies, each with an 8-byte header, a reply or control "
                      "payload type, a length field equal to its payload and a sequence number sent")


def host_main(args):
    if bool(args.pty) == bool(args.udp):
        raise UsageError("host: give exactly one of --pty PATH and --udp HOST:PORT")
    if not 1 <= args.address <= 7:
        raise UsageError("host: --address is 1 to 7")
    try:
        if args.pty:
            link = SerialLink(args.pty, args.wait)
        else:
            link = UdpLink(*loopback_endpoint(args.udp))
    except LinkGone as error:
        print(f"visca_peer host: {error}", file=sys.stderr)
        return 1
    only = set(args.only.split(",")) if args.only else None
    host = Host(link, args.address, args.timeout, args.budget, only, args.tolerance)
    results = host.run_all()
    link.close()
    failed = sum(1 for _, ok, _ in results if not ok)
    passed = len(results) - failed
    if args.json:
        json.dump({"transport": link.transport, "checks": [
            {"name": n, "ok": ok, "detail": d} for n, ok, d in results],
            "passed": passed, "failed": failed,
            "completion_only": host.completion_only,
            "seconds": round(time.monotonic() - host.started, 3)}, sys.stdout, indent=2)
        print()
    else:
        for name, ok, detail in results:
            print(f"ok {name}: {detail}" if ok else f"FAIL {name}: {detail}")
        print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


# =============================================================================================
# Camera: what a host (dockd) is pointed at
# =============================================================================================

class SpeedProfile:
    """Degrees per second for each pan and tilt speed step; steps outside the table are illegal."""

    def __init__(self, name, pan, tilt):
        self.name, self.pan, self.tilt = name, pan, tilt
        self.pan_max, self.tilt_max = max(pan), max(tilt)

    @staticmethod
    def parse(text):
        if text == "linear":
            # Steps 1-0x18 pan (n * 5 deg/s) and 1-0x14 tilt (n * 4 deg/s): obs-ptz's maxima [REF].
            return SpeedProfile("linear", {n: 5.0 * n for n in range(1, 0x19)},
                                {n: 4.0 * n for n in range(1, 0x15)})
        if text == "telycam":
            return SpeedProfile("telycam", dict(enumerate(TELYCAM_PAN)), dict(enumerate(TELYCAM_TILT)))
        try:
            pan_text, tilt_text = text.split("/")
            pan = {i + 1: float(v) for i, v in enumerate(pan_text.split(","))}
            tilt = {i + 1: float(v) for i, v in enumerate(tilt_text.split(","))}
        except ValueError:
            raise UsageError(f"--profile-speeds {text!r}: linear, telycam or PAN,.../TILT,... (deg/s from step 1)")
        if not all(v > 0 for v in (*pan.values(), *tilt.values())):
            raise UsageError("--profile-speeds: every speed must be positive")
        return SpeedProfile("custom", pan, tilt)


class Context:
    """Where a packet came from and how to answer it."""

    def __init__(self, udp, seq=None, ptype=None, peer=None):
        self.udp, self.seq, self.ptype, self.peer = udp, seq, ptype, peer


class Job:
    """A command holding a socket until its Completion: a pan-tilt move or a zoom move."""

    def __init__(self, socket_number, kind, ctx, **fields):
        self.socket, self.kind, self.ctx = socket_number, kind, ctx
        self.__dict__.update(fields)


class Camera:
    """A minimal VISCA camera: pose integrated from drive speeds, two sockets, a report."""

    def __init__(self, args, udp):
        self.udp = udp
        self.address = args.address
        self.profile = args.profile
        self.no_ack = args.no_ack
        self.delay = args.reply_delay_ms / 1000.0
        self.model_id = args.model_id
        self.faults = set(args.fault or [])
        self.memory_count = args.memories
        self.memories = {}  # number -> (pan_deg, tilt_deg, zoom)
        self.started = self.last = time.monotonic()
        self.pan = self.tilt = 0.0
        self.zoom = 0.0
        self.zoom_rate = 0.0
        self.drive_dir = (0, 0)
        self.drive_speed = (0.0, 0.0)
        self.drive_packet = None
        self.sockets = self.empty_sockets()
        self.moves = []
        self.zoom_job = None
        self.outbox = []
        self.out_counter = 0
        self.serial_buffer = bytearray()
        self.last_seq = None
        # What the report says.
        self.timeline = []
        self.counts = {}
        self.drives = []
        self.malformed = []
        self.violations = []
        self.deviations = []
        self.syntax_errors = []
        self.sent = {}
        self.inquiry_times = []
        self.position_inquiry_times = []
        self.travel = {"right": 0.0, "left": 0.0, "up": 0.0, "down": 0.0}
        self.resends = 0
        self.superseded = 0
        self.clamped = 0
        self.limit_hits = 0
        self.received = 0
        self.port_open = udp  # a pty is closed until the host first writes; UDP has no port to close
        self.port_closes = []
        self.dropped_while_closed = 0

    # -- time and motion --------------------------------------------------------------------------

    def t(self, now=None):
        return round((now or time.monotonic()) - self.started, 4)

    def advance(self, now):
        dt = max(0.0, now - self.last)
        self.last = now
        if dt == 0:
            return
        pan0, tilt0 = self.pan, self.tilt
        if self.moves:
            job = self.moves[0]
            self.pan = self.step_toward(self.pan, job.pan_target, job.pan_speed * dt)
            self.tilt = self.step_toward(self.tilt, job.tilt_target, job.tilt_speed * dt)
            if self.pan == job.pan_target and self.tilt == job.tilt_target:
                self.moves.pop(0)
                self.finish(job)
        else:
            pan = self.pan + self.drive_dir[0] * self.drive_speed[0] * dt
            tilt = self.tilt + self.drive_dir[1] * self.drive_speed[1] * dt
            self.pan = min(PAN_LIMIT_DEG, max(-PAN_LIMIT_DEG, pan))
            self.tilt = min(TILT_MAX_DEG, max(TILT_MIN_DEG, tilt))
            if (self.pan, self.tilt) != (pan, tilt):
                self.limit_hits += 1
        dp, dtilt = self.pan - pan0, self.tilt - tilt0
        self.travel["right" if dp > 0 else "left"] += abs(dp)
        self.travel["up" if dtilt > 0 else "down"] += abs(dtilt)
        if self.zoom_job:
            self.zoom = self.step_toward(self.zoom, self.zoom_job.target, ZOOM_DIRECT_RATE * dt)
            if self.zoom == self.zoom_job.target:
                job, self.zoom_job = self.zoom_job, None
                self.finish(job)
        elif self.zoom_rate:
            self.zoom = min(float(ZOOM_MAX), max(0.0, self.zoom + self.zoom_rate * dt))

    @staticmethod
    def step_toward(value, target, step):
        if abs(target - value) <= step:
            return target
        return value + step if target > value else value - step

    def counts_of(self, degrees):
        return int(round(degrees * COUNTS_PER_DEG))

    # -- replies --------------------------------------------------------------------------------

    @property
    def head(self):
        """y0: the camera's address + 8 in the high nibble; 90 over IP [BRCX400]."""
        return 0x90 if self.udp else (self.address + 8) << 4

    def send(self, ctx, payload, kind, ptype=PT_REPLY):
        self.sent[kind] = self.sent.get(kind, 0) + 1
        if ctx.udp:
            seq = (ctx.seq + 1) & 0xFFFFFFFF if "wrong-seq" in self.faults else ctx.seq
            data = HEADER.pack(ptype, len(payload), seq) + payload
        else:
            data = payload
        self.out_counter += 1
        heapq.heappush(self.outbox, (time.monotonic() + self.delay, self.out_counter, data, ctx.peer))

    def reply(self, ctx, *body, kind):
        self.send(ctx, bytes([self.head, *body, TERMINATOR]), kind)

    def error(self, ctx, socket_number, code, kind):
        self.reply(ctx, 0x60 | socket_number, code, kind=kind)

    def finish(self, job):
        """A socket's Completion, freeing the socket (its number even with --no-ack)."""
        self.sockets[job.socket] = None
        self.reply(job.ctx, 0x50 | job.socket, kind="completion")

    def empty_sockets(self):
        return {n: None for n in ((1, 2, 3) if "three-sockets" in self.faults else (1, 2))}

    def free_socket(self):
        for number in sorted(self.sockets):
            if self.sockets[number] is None:
                return number
        return None

    def accept(self, ctx, job):
        """ACK a command in its socket (none with --no-ack) and hold the socket for `job`."""
        if job is not None:
            self.sockets[job.socket] = job
        if not self.no_ack:
            self.reply(ctx, 0x40 | (job.socket if job else ctx.socket), kind="ack")

    # -- reception ------------------------------------------------------------------------------

    def note(self, packet, name, now, ctx):
        self.received += 1
        entry = {"t": self.t(now), "hex": hexs(packet), "name": name}
        if ctx.udp:
            entry["type"] = f"{ctx.ptype:04X}"
            entry["seq"] = ctx.seq
        self.timeline.append(entry)
        self.counts[name] = self.counts.get(name, 0) + 1

    def bad(self, listing, now, data, why):
        listing.append({"t": self.t(now), "hex": hexs(data), "why": why})

    def feed_serial(self, data, now):
        """Split a byte stream into packets on FF, resynchronising on a header byte."""
        ctx = Context(False)
        for b in data:
            if 0x81 <= b <= 0x88 and self.serial_buffer:
                junk = bytes(self.serial_buffer)
                self.note(junk, "malformed", now, ctx)
                self.bad(self.malformed, now, junk, "unterminated bytes before a header byte")
                self.serial_buffer.clear()
            self.serial_buffer.append(b)
            if b == TERMINATOR:
                packet = bytes(self.serial_buffer)
                self.serial_buffer.clear()
                self.packet(packet, now, ctx)
            elif len(self.serial_buffer) > 64:
                junk = bytes(self.serial_buffer)
                self.note(junk, "malformed", now, ctx)
                self.bad(self.malformed, now, junk, "64 bytes without a terminator")
                self.serial_buffer.clear()

    def feed_datagram(self, data, peer, now):
        """One VISCA over IP datagram [SRG300]."""
        if len(data) < HEADER.size:
            self.note(data, "malformed", now, Context(True, None, 0, peer))
            self.bad(self.malformed, now, data, f"a {len(data)}-byte datagram has no 8-byte header")
            return
        ptype, length, seq = HEADER.unpack_from(data)
        payload = data[HEADER.size:]
        ctx = Context(True, seq, ptype, peer)
        if length != len(payload):
            self.note(data, "malformed", now, ctx)
            self.bad(self.malformed, now, data, f"length field {length}, payload {len(payload)} bytes")
            self.send(ctx, ERROR_MESSAGE, "message_error", PT_CONTROL)
            return
        if ptype == PT_CONTROL:
            if payload == CONTROL_RESET:
                self.note(data, "reset_sequence", now, ctx)
                self.last_seq = None
                self.send(ctx, CONTROL_ACK, "reset_ack", PT_CONTROL_REPLY)
            else:
                self.note(data, "control_other", now, ctx)
                self.bad(self.violations, now, data, "a control command other than RESET from the controller")
            return
        if ptype not in (PT_COMMAND, PT_INQUIRY, PT_DEVICE_SETTING):
            self.note(data, "malformed", now, ctx)
            self.bad(self.malformed, now, data, f"payload type {ptype:04X} is not one a controller sends")
            self.send(ctx, ERROR_MESSAGE, "message_error", PT_CONTROL)
            return
        if self.last_seq is not None and seq == self.last_seq and "reexecute-resend" not in self.faults:
            # [SRG300 p. 32]: a resend of a message already carried out -> ERROR 0F 01.
            self.note(data, "resend", now, ctx)
            self.resends += 1
            self.send(ctx, ERROR_SEQUENCE, "sequence_error", PT_CONTROL)
            return
        if (len(payload) < 3 or len(payload) > MAX_PACKET or payload[-1] != TERMINATOR
                or TERMINATOR in payload[:-1] or not 0x81 <= payload[0] <= 0x88):
            self.note(data, "malformed", now, ctx)
            self.bad(self.malformed, now, data, "the payload is not one VISCA packet 8x ... FF of 3-16 bytes")
            self.reply(ctx, 0x60, ERR_SYNTAX, kind="syntax_error")
            return
        body = payload[1:-1]
        device_setting = body in (b"\x01\x00\x01", b"\x09\x00\x02")
        is_inquiry = body[:1] == b"\x09"
        if ptype == PT_DEVICE_SETTING:
            if not device_setting:
                self.note(data, "wrong_type", now, ctx)
                self.bad(self.violations, now, data, "payload type 0120 carries only IF_Clear and CAM_VersionInq [FR7]")
                self.send(ctx, ERROR_MESSAGE, "message_error", PT_CONTROL)
                return
        elif device_setting:
            self.bad(self.deviations, now, data,
                     f"payload type {ptype:04X} for a device setting command (IF_Clear / CAM_VersionInq "
                     "are type 0120 [FR7]); answered anyway")
        elif (ptype == PT_INQUIRY) != is_inquiry:
            self.note(data, "wrong_type", now, ctx)
            self.bad(self.violations, now, data,
                     f"payload type {ptype:04X} does not match the packet (QQ {body[0]:02X}) [SRG300]")
            self.send(ctx, ERROR_MESSAGE, "message_error", PT_CONTROL)
            return
        if self.packet(payload, now, ctx):
            self.last_seq = seq

    def packet(self, packet, now, ctx):
        """Handle one packet 8x ... FF; True when it was carried out (not refused)."""
        if len(packet) > MAX_PACKET:
            self.note(packet, "malformed", now, ctx)
            self.bad(self.malformed, now, packet, f"{len(packet)} bytes, more than {MAX_PACKET}")
            self.reply(ctx, 0x60, ERR_LENGTH, kind="length_error")
            return False
        header = packet[0]
        if not 0x81 <= header <= 0x88 or len(packet) < 3:
            self.note(packet, "malformed", now, ctx)
            self.bad(self.malformed, now, packet, "no header byte 81-88 or shorter than 3 bytes")
            return False
        body = packet[1:-1]
        if header == 0x88:
            return self.broadcast(packet, body, now, ctx)
        if not ctx.udp and (header & 0x0F) != self.address:
            self.note(packet, "other_address", now, ctx)
            self.bad(self.violations, now, packet, f"addressed to camera {header & 0x0F}; this one is {self.address}")
            return False
        if ctx.udp and header != 0x81:
            self.bad(self.deviations, now, packet, "address other than 1 over IP (locked to 1 [BRCX400])")
        return self.addressed(packet, body, now, ctx)

    def broadcast(self, packet, body, now, ctx):
        if ctx.udp:
            self.bad(self.violations, now, packet, "the broadcast address over VISCA over IP [BRCX400]")
        if len(body) == 2 and body[0] == 0x30 and 1 <= body[1] <= 7:
            self.note(packet, "address_set", now, ctx)
            self.address = body[1]
            self.send(ctx, bytes([0x88, 0x30, body[1] + 1, TERMINATOR]), "address_set")
            return True
        if body == b"\x01\x00\x01":
            self.note(packet, "if_clear_broadcast", now, ctx)
            self.clear()
            self.send(ctx, packet, "if_clear")
            return True
        self.note(packet, "unknown", now, ctx)
        self.bad(self.syntax_errors, now, packet, "an unknown broadcast packet (not answered)")
        return False

    def addressed(self, packet, body, now, ctx):
        b = body
        if len(b) == 1 and b[0] & 0xF0 == 0x20:
            return self.cancel(packet, b[0] & 0x0F, now, ctx)
        if b == b"\x01\x00\x01":
            self.note(packet, "if_clear", now, ctx)
            self.clear()
            if "silent-if-clear" not in self.faults:
                self.reply(ctx, 0x50, kind="if_clear")
            return True
        if b[:1] == b"\x09":
            return self.inquiry(packet, b, now, ctx)
        if b[:2] == b"\x01\x06":
            if len(b) == 7 and b[2] == 0x01:
                return self.drive(packet, b, now, ctx)
            if len(b) == 13 and b[2] in (0x02, 0x03):
                return self.position_move(packet, b, now, ctx)
            if len(b) == 3 and b[2] in (0x04, 0x05):
                name = "pan_tilt_home" if b[2] == 0x04 else "pan_tilt_reset"
                self.note(packet, name, now, ctx)
                return self.start_move(ctx, 0.0, 0.0, self.profile.pan[self.profile.pan_max],
                                       self.profile.tilt[self.profile.tilt_max])
        if b[:2] == b"\x01\x04":
            if len(b) == 4 and b[2] == 0x07:
                return self.zoom_drive(packet, b[3], now, ctx)
            if len(b) == 7 and b[2] == 0x47 and all(v <= 0x0F for v in b[3:7]):
                return self.zoom_direct(packet, b, now, ctx)
            if len(b) == 5 and b[2] == 0x3F and b[3] in MEMORY_ACTIONS:
                return self.memory(packet, MEMORY_ACTIONS[b[3]], b[4], now, ctx)
        return self.syntax_error(packet, now, ctx, "not a command this camera knows, or lacking parameters")

    def syntax_error(self, packet, now, ctx, why, name="unknown"):
        self.note(packet, name, now, ctx)
        self.bad(self.syntax_errors, now, packet, why)
        self.reply(ctx, 0x60, ERR_SYNTAX, kind="syntax_error")
        return False

    def inquiry(self, packet, b, now, ctx):
        inquiries = {
            b"\x09\x00\x02": "version_inquiry",
            b"\x09\x06\x12": "position_inquiry",
            b"\x09\x06\x11": "max_speed_inquiry",
            b"\x09\x04\x47": "zoom_position_inquiry",
            b"\x09\x04\x00": "power_inquiry",
        }
        name = inquiries.get(bytes(b))
        if name is None:
            return self.syntax_error(packet, now, ctx, "an inquiry this camera does not know", "unknown_inquiry")
        self.note(packet, name, now, ctx)
        self.inquiry_times.append(now)
        if name == "version_inquiry":
            m = self.model_id
            self.reply(ctx, 0x50, VENDOR_SONY >> 8, VENDOR_SONY & 0xFF, m >> 8, m & 0xFF, 0x01, 0x00, 0x02,
                       kind="inquiry")
        elif name == "position_inquiry":
            self.position_inquiry_times.append(now)
            self.reply(ctx, 0x50, *to_nibbles(self.counts_of(self.pan)), *to_nibbles(self.counts_of(self.tilt)),
                       kind="inquiry")
        elif name == "max_speed_inquiry":
            self.reply(ctx, 0x50, self.profile.pan_max, self.profile.tilt_max, kind="inquiry")
        elif name == "zoom_position_inquiry":
            self.reply(ctx, 0x50, *to_nibbles(int(round(self.zoom))), kind="inquiry")
        else:
            self.reply(ctx, 0x50, 0x02, kind="inquiry")
        return True

    def drive(self, packet, b, now, ctx):
        vv, ww, pp, tt = b[3], b[4], b[5], b[6]
        if pp not in (1, 2, 3) or tt not in (1, 2, 3):
            return self.syntax_error(packet, now, ctx, "drive direction not 01/02/03", "pan_tilt_drive")
        if pp != 3 and vv not in self.profile.pan:
            return self.syntax_error(packet, now, ctx, f"pan speed {vv:02X} outside this camera's steps",
                                     "pan_tilt_drive")
        if tt != 3 and ww not in self.profile.tilt:
            return self.syntax_error(packet, now, ctx, f"tilt speed {ww:02X} outside this camera's steps",
                                     "pan_tilt_drive")
        self.note(packet, "pan_tilt_drive", now, ctx)
        if (pp == 3 and vv == 0) or (tt == 3 and ww == 0):
            self.bad(self.deviations, now, packet,
                     "speed byte 00 on a stopped axis (the manuals give 01-18 / 01-17 even for stop [SRGX400])")
        number = self.free_socket()
        if number is None:
            self.error(ctx, 0, ERR_BUFFER_FULL, "buffer_full")
            self.drives.append(self.drive_entry(now, packet, vv, ww, pp, tt, refused=True))
            return False
        ctx.socket = number
        self.accept(ctx, None)
        for job in list(self.moves):  # the drive takes over from positional moves (this peer's choice)
            self.moves.remove(job)
            self.superseded += 1
            self.finish(job)
        pan_dir = {1: -1, 2: +1, 3: 0}[pp] * (-1 if "invert-pan" in self.faults else 1)
        tilt_dir = {1: +1, 2: -1, 3: 0}[tt]
        self.drive_dir = (pan_dir, tilt_dir)
        self.drive_speed = (self.profile.pan[vv] if pan_dir else 0.0, self.profile.tilt[ww] if tilt_dir else 0.0)
        self.drives.append(self.drive_entry(now, packet, vv, ww, pp, tt))
        self.reply(ctx, 0x50 | number, kind="completion")
        return True

    def drive_entry(self, now, packet, vv, ww, pp, tt, refused=False):
        entry = {"t": self.t(now), "hex": hexs(packet), "pan": {1: "left", 2: "right", 3: "stop"}[pp],
                 "tilt": {1: "up", 2: "down", 3: "stop"}[tt], "pan_step": vv, "tilt_step": ww,
                 "pan_deg_s": self.profile.pan[vv] if pp != 3 else 0.0,
                 "tilt_deg_s": self.profile.tilt[ww] if tt != 3 else 0.0,
                 "pose_deg": [round(self.pan, 3), round(self.tilt, 3)]}
        if refused:
            entry["refused"] = "buffer full"
        return entry

    def position_move(self, packet, b, now, ctx):
        name = "pan_tilt_absolute" if b[2] == 0x02 else "pan_tilt_relative"
        vv, ww = b[3], b[4]
        if not all(v <= 0x0F for v in b[5:13]):
            return self.syntax_error(packet, now, ctx, "a position nibble above 0F", name)
        if vv not in self.profile.pan or vv == 0:
            return self.syntax_error(packet, now, ctx, f"speed {vv:02X} outside this camera's steps", name)
        if ww == 0:  # one speed byte, as on the SRG-X400 [SRGX400]
            tilt_step = min(vv, self.profile.tilt_max)
        elif ww in self.profile.tilt:
            tilt_step = ww
        else:
            return self.syntax_error(packet, now, ctx, f"tilt speed {ww:02X} outside this camera's steps", name)
        pan, tilt = from_nibbles(b[5:9]), from_nibbles(b[9:13])
        if name == "pan_tilt_relative":
            pan += self.counts_of(self.pan)
            tilt += self.counts_of(self.tilt)
        if "sloppy-absolute" in self.faults:
            pan += 10
        pan_deg, tilt_deg = pan / COUNTS_PER_DEG, tilt / COUNTS_PER_DEG
        clamped_pan = min(PAN_LIMIT_DEG, max(-PAN_LIMIT_DEG, pan_deg))
        clamped_tilt = min(TILT_MAX_DEG, max(TILT_MIN_DEG, tilt_deg))
        if (clamped_pan, clamped_tilt) != (pan_deg, tilt_deg):
            self.clamped += 1
        self.note(packet, name, now, ctx)
        return self.start_move(ctx, clamped_pan, clamped_tilt, self.profile.pan[vv], self.profile.tilt[tilt_step])

    def start_move(self, ctx, pan_deg, tilt_deg, pan_speed, tilt_speed):
        number = self.free_socket()
        if number is None:
            self.error(ctx, 0, ERR_BUFFER_FULL, "buffer_full")
            return False
        job = Job(number, "move", ctx, pan_target=pan_deg, tilt_target=tilt_deg,
                  pan_speed=pan_speed, tilt_speed=tilt_speed)
        self.accept(ctx, job)
        self.drive_dir, self.drive_speed = (0, 0), (0.0, 0.0)
        self.moves.append(job)
        return True

    def zoom_drive(self, packet, p, now, ctx):
        if p == 0x00:
            rate = 0.0
        elif p in (0x02, 0x03):
            rate = 0x4000 / 4.0 * (1 if p == 0x02 else -1)
        elif p & 0xF0 in (0x20, 0x30) and p & 0x0F <= 7:
            rate = (p & 0x0F) + 1
            rate = rate * 0x4000 / 16.0 * (1 if p & 0xF0 == 0x20 else -1)
        else:
            return self.syntax_error(packet, now, ctx, "zoom drive parameter unknown", "zoom_drive")
        self.note(packet, "zoom_drive", now, ctx)
        number = self.free_socket()
        if number is None:
            self.error(ctx, 0, ERR_BUFFER_FULL, "buffer_full")
            return False
        ctx.socket = number
        self.accept(ctx, None)
        if self.zoom_job:
            job, self.zoom_job = self.zoom_job, None
            self.finish(job)
        self.zoom_rate = rate
        self.reply(ctx, 0x50 | number, kind="completion")
        return True

    def zoom_direct(self, packet, b, now, ctx):
        target = from_nibbles(b[3:7]) & 0xFFFF
        if target > ZOOM_MAX:
            return self.syntax_error(packet, now, ctx, f"zoom position {target:04X} above {ZOOM_MAX:04X}",
                                     "zoom_direct")
        self.note(packet, "zoom_direct", now, ctx)
        number = self.free_socket()
        if number is None:
            self.error(ctx, 0, ERR_BUFFER_FULL, "buffer_full")
            return False
        if self.zoom_job:
            job, self.zoom_job = self.zoom_job, None
            self.finish(job)
        job = Job(number, "zoom", ctx, target=float(target))
        self.accept(ctx, job)
        self.zoom_rate = 0.0
        self.zoom_job = job
        return True

    def memory(self, packet, name, number, now, ctx):
        # [SRG120MEM]: memory numbers from 0; this camera keeps --memories of them (none: every
        # memory command is a syntax error, as on a camera without the feature). The recall of an
        # empty memory is not executable (this camera's choice; the manual does not say).
        if number >= self.memory_count:
            return self.syntax_error(packet, now, ctx, f"memory {number} beyond this camera's {self.memory_count}", name)
        self.note(packet, name, now, ctx)
        if name == "memory_recall":
            if number not in self.memories:
                self.error(ctx, 0, ERR_NOT_EXECUTABLE, "not_executable")
                return False
            pan, tilt, zoom = self.memories[number]
            self.zoom, self.zoom_rate = float(zoom), 0.0  # the lens is not modelled in a recall
            # Its own preset speed: half the fastest step's (a setting of the camera's, no command of the host's).
            return self.start_move(ctx, pan, tilt, self.profile.pan[self.profile.pan_max] / 2,
                                   self.profile.tilt[self.profile.tilt_max] / 2)
        number_socket = self.free_socket()
        if number_socket is None:
            self.error(ctx, 0, ERR_BUFFER_FULL, "buffer_full")
            return False
        if name == "memory_set":
            self.memories[number] = (self.pan, self.tilt, self.zoom)
        else:
            self.memories.pop(number, None)
        ctx.socket = number_socket
        self.accept(ctx, None)
        self.reply(ctx, 0x50 | number_socket, kind="completion")
        return True

    def cancel(self, packet, number, now, ctx):
        # [SRG120]: 8x 2z FF -> y0 6z 04 FF (canceled, no Completion) or y0 6z 05 FF (no socket).
        self.note(packet, "cancel", now, ctx)
        job = self.sockets.get(number)
        if job is None:
            self.error(ctx, number, ERR_NO_SOCKET, "no_socket")
            return True
        self.sockets[number] = None
        if job in self.moves:
            self.moves.remove(job)
        if job is self.zoom_job:
            self.zoom_job = None
        self.error(ctx, number, ERR_CANCELED, "canceled")
        return True

    def port_closed(self, now):
        """The host closed the pseudo-terminal (EIO on the master): note how it left the camera."""
        self.port_open = False
        moving = self.drive_dir != (0, 0) or bool(self.moves)
        self.port_closes.append({"t": self.t(now), "moving": moving,
                                 "drive": {"pan": self.drive_dir[0], "tilt": self.drive_dir[1]},
                                 "pending_moves": len(self.moves),
                                 "partial_packet": hexs(self.serial_buffer)})
        self.timeline.append({"t": self.t(now), "hex": "", "name": "port_closed"})
        self.serial_buffer.clear()

    def clear(self):
        """IF_Clear: empty both sockets without messages and stop (this peer's choice [FR7])."""
        self.sockets = self.empty_sockets()
        self.moves = []
        self.zoom_job = None
        self.zoom_rate = 0.0
        self.drive_dir, self.drive_speed = (0, 0), (0.0, 0.0)

    # -- output ---------------------------------------------------------------------------------

    def due(self, now):
        """Replies whose time has come, in order."""
        ready = []
        while self.outbox and self.outbox[0][0] <= now:
            _, _, data, peer = heapq.heappop(self.outbox)
            ready.append((data, peer))
        return ready

    def next_due(self):
        return self.outbox[0][0] if self.outbox else None

    def report(self, transport, endpoint, now):
        duration = now - self.started
        moving_drive = [d for d in self.drives if "refused" not in d and (d["pan"] != "stop" or d["tilt"] != "stop")]
        stop_after = None
        last_moving = moving_drive[-1] if moving_drive else None
        if last_moving:
            later = [d for d in self.drives if d["t"] > last_moving["t"] and "refused" not in d
                     and d["pan"] == "stop" and d["tilt"] == "stop"]
            if later:
                stop_after = round(later[0]["t"] - last_moving["t"], 4)
        # What ended the last moving drive: a stop, or a command that replaces the drive.
        ended_by = ended_after = None
        if last_moving:
            enders = [(d["t"], "stop") for d in self.drives if d["t"] > last_moving["t"] and "refused" not in d
                      and d["pan"] == "stop" and d["tilt"] == "stop"]
            enders += [(e["t"], e["name"]) for e in self.timeline if e["t"] > last_moving["t"] and e["name"] in (
                "pan_tilt_absolute", "pan_tilt_relative", "pan_tilt_home", "pan_tilt_reset", "memory_recall", "if_clear",
                "if_clear_broadcast")]
            enders += [(c["t"], "port_closed") for c in self.port_closes if c["t"] > last_moving["t"]]
            if enders:
                moment, ended_by = min(enders)
                ended_after = round(moment - last_moving["t"], 4)
        times = [self.started + e["t"] for e in self.timeline]
        span = (times[-1] - times[0]) if len(times) > 1 else duration

        def rate(samples):
            if not samples:
                return 0.0
            return round(len(samples) / span, 3) if span > 0 else float(len(samples))

        by_second = [0] * (int(duration) + 1)
        for moment in self.position_inquiry_times:
            by_second[min(len(by_second) - 1, int(moment - self.started))] += 1
        drive_moving = self.drive_dir != (0, 0)
        return {
            "peer": "scripts/visca_peer.py camera",
            "transport": transport,
            "endpoint": endpoint,
            "profile": self.profile.name,
            "no_ack": self.no_ack,
            "reply_delay_ms": self.delay * 1000.0,
            "duration_s": round(duration, 3),
            "received": self.received,
            "counts": dict(sorted(self.counts.items())),
            "memories": {str(n): {"pan_deg": round(v[0], 3), "tilt_deg": round(v[1], 3)} for n, v in sorted(self.memories.items())},
            "replies_sent": dict(sorted(self.sent.items())),
            "inquiries": len(self.inquiry_times),
            "inquiries_per_second": rate(self.inquiry_times),
            "position_inquiries_per_second": rate(self.position_inquiry_times),
            "position_inquiries_by_second": by_second,
            "drives": self.drives,
            "last_moving_drive_t": last_moving["t"] if last_moving else None,
            "stop_after_last_moving_drive_s": stop_after,
            "drive_ended_after_last_moving_drive_s": ended_after,
            "drive_ended_by": ended_by,
            "moving_at_exit": drive_moving or bool(self.moves) or bool(self.zoom_job) or bool(self.zoom_rate),
            "state_at_exit": {"drive": {"pan": self.drive_dir[0], "tilt": self.drive_dir[1]},
                              "pending_moves": len(self.moves), "zoom_moving": bool(self.zoom_job or self.zoom_rate),
                              "busy_sockets": [n for n, j in self.sockets.items() if j is not None]},
            "final_pose": {"pan_deg": round(self.pan, 3), "tilt_deg": round(self.tilt, 3),
                           "pan_counts": self.counts_of(self.pan), "tilt_counts": self.counts_of(self.tilt),
                           "zoom": int(round(self.zoom))},
            "travel_deg": {k: round(v, 3) for k, v in self.travel.items()},
            "resends_same_sequence": self.resends,
            "superseded_moves": self.superseded,
            "clamped_targets": self.clamped,
            "limit_hits": self.limit_hits,
            "port_closes": self.port_closes,
            "moving_when_port_closed": self.port_closes[-1]["moving"] if self.port_closes else None,
            "replies_dropped_port_closed": self.dropped_while_closed,
            "malformed": self.malformed,
            "violations": self.violations,
            "deviations": self.deviations,
            "syntax_errors": self.syntax_errors,
            "timeline": self.timeline,
        }


def flush_input(slave_name):
    """Drop what the camera wrote that no host read, as a closed serial port would."""
    try:
        fd = os.open(slave_name, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return
    try:
        termios.tcflush(fd, termios.TCIFLUSH)
    finally:
        os.close(fd)


def camera_main(args):
    if bool(args.pty) == bool(args.udp):
        raise UsageError("camera: give exactly one of --pty PATH and --udp HOST:PORT")
    if not 1 <= args.address <= 7:
        raise UsageError("camera: --address is 1 to 7")
    args.profile = SpeedProfile.parse(args.profile_speeds)
    stop = {"signal": None}

    def on_signal(number, _frame):
        stop["signal"] = number

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    camera = Camera(args, udp=bool(args.udp))
    master = slave = sock = None
    if args.pty:
        if os.path.lexists(args.pty) and not os.path.islink(args.pty):
            raise UsageError(f"camera: {args.pty} exists and is not a symlink; not replacing it")
        master, slave = os.openpty()
        set_raw(slave)  # the settings outlive the close: the pty lives while the master is open
        os.set_blocking(master, False)
        slave_name = os.ttyname(slave)
        # Not held open: when the host closes the port the master reads EIO, which the report notes.
        os.close(slave)
        slave = None
        if os.path.islink(args.pty):
            os.unlink(args.pty)
        os.symlink(slave_name, args.pty)
        transport, endpoint = "pty", args.pty
        print(f"READY pty {args.pty} -> {slave_name}", flush=True)
        readers = [master]
    else:
        host, port = loopback_endpoint(args.udp)
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((host, port))
        sock.setblocking(False)
        host, port = sock.getsockname()
        transport, endpoint = "udp", f"{host}:{port}"
        print(f"READY udp {host}:{port}", flush=True)
        readers = [sock]
    end = camera.started + args.seconds if args.seconds else None
    retry_at = 0.0
    try:
        while stop["signal"] is None:
            now = time.monotonic()
            if end is not None and now >= end:
                break
            wait = 0.01
            due = camera.next_due()
            if due is not None:
                wait = max(0.0, min(wait, due - now))
            ready, _, _ = select.select(readers if now >= retry_at else [], [], [], wait)
            now = time.monotonic()
            camera.advance(now)
            if ready:
                if master is not None:
                    try:
                        data = os.read(master, 4096)
                    except BlockingIOError:
                        data = b""
                    except OSError as error:
                        if error.errno != errno.EIO:
                            raise
                        data = b""
                        retry_at = now + 0.02  # no host has the port open: look again shortly
                        if camera.port_open:
                            camera.port_closed(now)
                            flush_input(slave_name)
                    if data:
                        camera.port_open = True
                        camera.feed_serial(data, now)
                else:
                    while True:
                        try:
                            data, peer = sock.recvfrom(4096)
                        except BlockingIOError:
                            break
                        camera.feed_datagram(data, peer, now)
            for data, peer in camera.due(time.monotonic()):
                if not camera.port_open:
                    camera.dropped_while_closed += 1  # a closed serial port loses what is sent to it
                    continue
                try:
                    if master is not None:
                        write_all(master, data, timeout=0.2)
                    else:
                        sock.sendto(data, peer)
                except (LinkGone, OSError) as error:
                    camera.bad(camera.violations, now, data, f"reply not delivered: {error}")
    finally:
        now = time.monotonic()
        camera.advance(now)
        report = camera.report(transport, endpoint, now)
        # The report's times are seconds since this; CLOCK_MONOTONIC, so another process on the
        # machine can put its own events on the same line.
        report["started_monotonic"] = camera.started
        if stop["signal"] is not None:
            report["ended_by"] = signal.Signals(stop["signal"]).name
        else:
            report["ended_by"] = "seconds"
        if args.report:
            tmp = args.report + ".tmp"
            with open(tmp, "w") as f:
                json.dump(report, f, indent=1)
                f.write("\n")
            os.replace(tmp, args.report)
        if args.pty and os.path.islink(args.pty):
            os.unlink(args.pty)
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)
        if sock is not None:
            sock.close()
    print(f"visca_peer camera: {report['received']} packets received, {len(report['malformed'])} malformed, "
          f"ended by {report['ended_by']}", file=sys.stderr)
    return 0


# =============================================================================================
# check-report
# =============================================================================================

def check_report_main(args):
    try:
        with open(args.report) as f:
            report = json.load(f)
    except (OSError, ValueError) as error:
        print(f"visca_peer check-report: {args.report}: {error}", file=sys.stderr)
        return 1
    results = []

    def check(name, ok, detail):
        results.append((name, bool(ok), detail))

    def listing(key, limit):
        items = report[key]
        shown = "; ".join(f"{i['hex']} ({i['why']})" for i in items[:3])
        return f"{len(items)} (at most {limit})" + (f": {shown}" if shown else "")

    check("malformed", len(report["malformed"]) <= args.max_malformed, listing("malformed", args.max_malformed))
    if args.min_malformed is not None:
        check("malformed_noticed", len(report["malformed"]) >= args.min_malformed,
              f"{len(report['malformed'])} (at least {args.min_malformed})")
    check("violations", len(report["violations"]) <= args.max_violations, listing("violations", args.max_violations))
    if args.max_deviations is not None:
        check("deviations", len(report["deviations"]) <= args.max_deviations,
              listing("deviations", args.max_deviations))
    if args.max_syntax_errors is not None:
        check("syntax_errors", len(report["syntax_errors"]) <= args.max_syntax_errors,
              listing("syntax_errors", args.max_syntax_errors))
    drives = [d for d in report["drives"] if "refused" not in d]
    travel = report["travel_deg"]
    for flag, axis, direction in (("expect_pan_right", "pan", "right"), ("expect_pan_left", "pan", "left"),
                                  ("expect_tilt_up", "tilt", "up"), ("expect_tilt_down", "tilt", "down")):
        if getattr(args, flag):
            n = sum(1 for d in drives if d[axis] == direction)
            check(f"{axis}_{direction}", n > 0 and travel[direction] > 0.5,
                  f"{n} drives {direction}, {travel[direction]:.1f} deg travelled {direction}")
    if args.expect_stopped:
        check("stopped_at_exit", not report["moving_at_exit"], f"state at exit {report['state_at_exit']}")
    if args.expect_stopped_at_port_close:
        closes = report.get("port_closes", [])
        check("stopped_at_port_close", bool(closes) and not closes[-1]["moving"],
              f"{len(closes)} port closes" + (f", the last at {closes[-1]['t']} s with the camera "
                                              f"{'moving' if closes[-1]['moving'] else 'stopped'}" if closes else ""))
    stop_after = report["stop_after_last_moving_drive_s"]
    if args.stop_after_min is not None or args.stop_after_max is not None:
        low = args.stop_after_min if args.stop_after_min is not None else 0.0
        high = args.stop_after_max if args.stop_after_max is not None else float("inf")
        check("stop_after_last_drive", stop_after is not None and low <= stop_after <= high,
              f"{stop_after} s between the last moving drive and the stop (wanted {low:g}..{high:g} s)")
    rate = report["position_inquiries_per_second"]
    if args.min_poll_rate is not None:
        check("poll_rate_min", rate >= args.min_poll_rate, f"{rate} position inquiries/s (at least {args.min_poll_rate:g})")
    if args.max_poll_rate is not None:
        check("poll_rate_max", rate <= args.max_poll_rate, f"{rate} position inquiries/s (at most {args.max_poll_rate:g})")
    for name in args.expect_command or []:
        n = report["counts"].get(name, 0)
        check(f"received_{name}", n > 0, f"{n} received")
    failed = sum(1 for _, ok, _ in results if not ok)
    if args.json:
        json.dump({"checks": [{"name": n, "ok": ok, "detail": d} for n, ok, d in results],
                   "passed": len(results) - failed, "failed": failed}, sys.stdout, indent=2)
        print()
    else:
        for name, ok, detail in results:
            print(f"ok {name}: {detail}" if ok else f"FAIL {name}: {detail}")
        print(f"{len(results) - failed} passed, {failed} failed")
    return 0 if failed == 0 else 1


# =============================================================================================
# selftest
# =============================================================================================

def read_ready(process, timeout=10.0):
    """The camera's READY line, or None if it did not come in time."""
    deadline = time.monotonic() + timeout
    line = b""
    fd = process.stdout.fileno()
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        chunk = os.read(fd, 1)
        if not chunk:
            break
        line += chunk
        if chunk == b"\n":
            return line.decode().strip()
    return None


def selftest_main(args):
    me = os.path.abspath(__file__)
    work = tempfile.mkdtemp(prefix="visca-peer-")
    # (label, transport, camera flags, malformed the host sends on purpose)
    runs = [("pty", "pty", [], 2), ("pty, Completion without ACK", "pty", ["--no-ack"], 2),
            ("udp", "udp", [], 4)]
    passed = 0
    for index, (label, transport, flags, garbage) in enumerate(runs):
        report = os.path.join(work, f"report-{index}.json")
        camera_args = [sys.executable, me, "camera", "--seconds", "90", "--report", report, *flags]
        camera_args += ["--pty", os.path.join(work, f"pty-{index}")] if transport == "pty" else ["--udp", "127.0.0.1:0"]
        camera = subprocess.Popen(camera_args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ready = read_ready(camera)
        print(f"== selftest run {index + 1}: host against camera over {label}")
        if ready is None:
            camera.kill()
            print(f"FAIL the camera did not say READY: {camera.communicate()[1].decode()}")
            continue
        where = ready.split()[2]
        host = subprocess.run([sys.executable, me, "host", f"--{transport}", where],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        camera.send_signal(signal.SIGTERM)
        try:
            _, camera_err = camera.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            camera.kill()
            _, camera_err = camera.communicate()
        print(host.stdout.decode(), end="")
        if camera.returncode != 0:
            print(f"FAIL the camera exited {camera.returncode}: {camera_err.decode()}")
            continue
        expectations = ["--expect-pan-right", "--expect-pan-left", "--expect-tilt-up", "--expect-stopped",
                        *(["--expect-stopped-at-port-close"] if transport == "pty" else []),
                        "--max-malformed", str(garbage), "--min-malformed", str(garbage),
                        "--max-violations", "0", "--max-deviations", "0", "--max-syntax-errors", "2",
                        "--stop-after-max", "2",
                        "--expect-command", "pan_tilt_absolute", "--expect-command", "pan_tilt_relative",
                        "--expect-command", "pan_tilt_home", "--expect-command", "version_inquiry"]
        print(f"-- check-report on the camera's report ({report})")
        checked = subprocess.run([sys.executable, me, "check-report", report, *expectations],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
        print(checked.stdout.decode(), end="")
        # The same report against expectations it cannot meet: check-report must say so.
        wrong = subprocess.run([sys.executable, me, "check-report", report, "--expect-tilt-down",
                                "--max-malformed", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
        failing = sorted(line.split()[1].rstrip(":") for line in wrong.stdout.decode().splitlines()
                         if line.startswith("FAIL "))
        caught = wrong.returncode == 1 and failing == ["malformed", "tilt_down"]
        print(f"{'ok' if caught else 'FAIL'} check-report refuses --expect-tilt-down --max-malformed 0 "
              f"on this report (failed: {', '.join(failing) or 'nothing'})")
        if host.returncode == 0 and checked.returncode == 0 and caught:
            passed += 1
    total = len(runs)
    # Each fault must make the host fail exactly the checks that look at it.
    faults = [("invert-pan", "pty", "drive_right,drive_left,stop", {"drive_right", "drive_left"}),
              ("sloppy-absolute", "pty", "absolute_move,relative_move,home", {"absolute_move", "relative_move"}),
              ("three-sockets", "pty", "buffer_full,if_clear_frees_sockets", {"buffer_full"}),
              ("silent-if-clear", "udp", "reset_sequence,if_clear,position_inquiry", {"if_clear"}),
              ("reexecute-resend", "udp", "reset_sequence,resend_same_sequence_command,udp_headers",
               {"resend_same_sequence_command"}),
              ("wrong-seq", "udp", "reset_sequence,position_inquiry,udp_headers", {"position_inquiry", "udp_headers"})]
    print("== selftest: a camera with each fault; the host must fail exactly the checks named")
    for index, (fault, transport, only, expected) in enumerate(faults):
        total += 1
        camera_args = [sys.executable, me, "camera", "--seconds", "30", "--fault", fault]
        camera_args += ["--pty", os.path.join(work, f"fault-{index}")] if transport == "pty" else ["--udp", "127.0.0.1:0"]
        camera = subprocess.Popen(camera_args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        ready = read_ready(camera)
        if ready is None:
            camera.kill()
            camera.wait()
            print(f"FAIL fault {fault}: the camera did not say READY")
            continue
        host = subprocess.run([sys.executable, me, "host", f"--{transport}", ready.split()[2], "--only", only],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        camera.send_signal(signal.SIGTERM)
        camera.wait(timeout=10)
        lines = host.stdout.decode().splitlines()
        failing = {line.split()[1].rstrip(":") for line in lines if line.startswith("FAIL ")}
        if host.returncode == 1 and failing == expected:
            passed += 1
            why = next(line for line in lines if line.startswith("FAIL "))
            print(f"ok fault {fault} over {transport}: the host failed {', '.join(sorted(failing))} ({why})")
        else:
            print(f"FAIL fault {fault} over {transport}: expected the host to fail {sorted(expected)}, it printed:")
            print("\n".join("    " + line for line in lines))
    print(f"selftest: {passed} of {total} runs passed")
    return 0 if passed == total else 1


# =============================================================================================
# Command line
# =============================================================================================

class Parser(argparse.ArgumentParser):
    """argparse that exits 64 on a usage error (STYLE.md: usage errors exit 64)."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def hex_or_int(text):
    return int(text, 0)


def build_parser():
    top = Parser(prog="visca_peer.py", formatter_class=argparse.RawDescriptionHelpFormatter,
                 description="VISCA peers written from the manuals alone (Sony SRG-300H, SRG-120DH, "
                             "SRG-X400, ILME-FR7, BRC-X400; PTZOptics; Telycam); see the module "
                             "docstring for the rule-by-rule sources.",
                 epilog="examples:\n"
                        "  visca_peer.py host --pty /tmp/visca            # docksim --protocol visca --pty /tmp/visca\n"
                        "  visca_peer.py host --udp 127.0.0.1:52381       # docksim --protocol visca --udp 127.0.0.1:52381\n"
                        "  visca_peer.py camera --pty /tmp/cam --seconds 10 --report r.json\n"
                        "      # then: dockd --protocol visca --device /tmp/cam\n"
                        "  visca_peer.py camera --udp 127.0.0.1:52381 --report r.json\n"
                        "      # then: dockd --visca udp:127.0.0.1:52381\n"
                        "  visca_peer.py check-report r.json --expect-pan-right --expect-stopped\n"
                        "  visca_peer.py selftest")
    roles = top.add_subparsers(dest="role", required=True, parser_class=Parser)

    host = roles.add_parser(
        "host", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="check a camera as a VISCA controller",
        description="Check a VISCA camera. Prints `ok NAME: detail` or `FAIL NAME: why` per check, then\n"
                    "`N passed, M failed`; exits 0 only when M is 0.\n\n"
                    "Checks (serial): address_set, if_clear_broadcast; (UDP): reset_sequence; then\n"
                    "if_clear, version_inquiry, position_inquiry, zoom_inquiry, drive_right, drive_left,\n"
                    "stop, tilt_up, absolute_move, relative_move, home, syntax_error_command,\n"
                    "syntax_error_inquiry; (serial) garbage_terminated, garbage_unterminated; (UDP)\n"
                    "garbage_datagram, garbage_payload, resend_same_sequence_command,\n"
                    "resend_same_sequence_inquiry, wrong_length_field, unknown_payload_type; then\n"
                    "buffer_full, if_clear_frees_sockets and (UDP) udp_headers.")
    where = host.add_mutually_exclusive_group(required=True)
    where.add_argument("--pty", metavar="PATH", help="the camera's pseudo-terminal (a symlink the camera made)")
    where.add_argument("--udp", metavar="HOST:PORT", help="VISCA over IP on a loopback address")
    host.add_argument("--address", type=int, default=1, help="camera address 1-7 on serial (default 1; 1 over IP)")
    host.add_argument("--timeout", type=float, default=1.0, help="seconds to wait for each reply (default 1)")
    host.add_argument("--budget", type=float, default=28.0, help="seconds after which checks are not run (default 28)")
    host.add_argument("--wait", type=float, default=5.0, help="seconds to wait for --pty PATH to appear (default 5)")
    host.add_argument("--tolerance", type=int, default=4, metavar="COUNTS",
                      help="how far a move may end from its target, and a stopped camera drift (default 4)")
    host.add_argument("--only", metavar="NAME,...", help="run only these checks (comma-separated names)")
    host.add_argument("--json", action="store_true", help="print one JSON object instead of the lines")
    host.set_defaults(main=host_main)

    camera = roles.add_parser(
        "camera", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="be a minimal VISCA camera and report what a host sent",
        description="A minimal VISCA camera. Prints `READY pty PATH -> /dev/pts/N` or `READY udp HOST:PORT`\n"
                    "once it listens, and at exit (after --seconds, SIGTERM or SIGINT) writes --report:\n"
                    "counts per command, position inquiries per second, every drive with its speeds and\n"
                    "directions, malformed packets, protocol violations, deviations, syntax errors, the\n"
                    "time from the last moving drive to the stop after it, whether it was left moving,\n"
                    "and the timeline of everything received (t, hex, name).\n\n"
                    "Model: 14.4 counts/deg, pan -170..+170 deg, tilt -30..+90 deg, right and up\n"
                    "positive; two sockets; drives latched until a stop.")
    where = camera.add_mutually_exclusive_group(required=True)
    where.add_argument("--pty", metavar="PATH", help="create a pseudo-terminal and a symlink to it at PATH")
    where.add_argument("--udp", metavar="HOST:PORT", help="listen for VISCA over IP on a loopback address (port 0: any)")
    camera.add_argument("--seconds", type=float, default=None, help="exit after this long (default: on a signal)")
    camera.add_argument("--report", metavar="FILE.json", help="where to write the report at exit")
    camera.add_argument("--profile-speeds", default="linear", metavar="PROFILE",
                        help="speed steps: linear (pan n*5 deg/s to 0x18, tilt n*4 to 0x14; default), "
                             "telycam (the TLC-700-S table, pan 0-0x18, tilt 0-0x12), or PAN,.../TILT,... "
                             "in deg/s for steps 1, 2, ...")
    camera.add_argument("--no-ack", action="store_true", help="send Completion without ACK (a quirk some cameras have)")
    camera.add_argument("--memories", type=int, default=0, choices=range(0, 256), metavar="N",
                        help="preset memories kept, numbered from 0 (default 0: CAM_Memory is a syntax error)")
    camera.add_argument("--reply-delay-ms", type=float, default=0.0, help="delay every reply by this much")
    camera.add_argument("--address", type=int, default=1, help="address before any Address Set (default 1)")
    camera.add_argument("--fault", action="append", choices=sorted(FAULTS), metavar="FAULT",
                        help="misbehave on purpose, to show the host notices (repeatable): "
                             + "; ".join(f"{k}: {v}" for k, v in sorted(FAULTS.items())))
    camera.add_argument("--model-id", type=hex_or_int, default=DEFAULT_MODEL_ID,
                        help=f"model ID in the version reply (default 0x{DEFAULT_MODEL_ID:04X}, not a real one)")
    camera.set_defaults(main=camera_main)

    check = roles.add_parser(
        "check-report", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="hold a camera report to expectations",
        description="Check a report written by `camera`. Prints ok/FAIL lines and `N passed, M failed`;\n"
                    "exits 0 only when M is 0. Malformed packets and violations are always checked.")
    check.add_argument("report", metavar="FILE.json")
    check.add_argument("--max-malformed", type=int, default=0, help="malformed packets allowed (default 0)")
    check.add_argument("--min-malformed", type=int, default=None, help="malformed packets that must have been noticed")
    check.add_argument("--max-violations", type=int, default=0, help="protocol violations allowed (default 0)")
    check.add_argument("--max-deviations", type=int, default=None, help="deviations allowed (not checked by default)")
    check.add_argument("--max-syntax-errors", type=int, default=None, help="unknown commands allowed (not checked by default)")
    check.add_argument("--expect-pan-right", action="store_true", help="a drive right moved the camera right")
    check.add_argument("--expect-pan-left", action="store_true", help="a drive left moved the camera left")
    check.add_argument("--expect-tilt-up", action="store_true", help="a drive up moved the camera up")
    check.add_argument("--expect-tilt-down", action="store_true", help="a drive down moved the camera down")
    check.add_argument("--expect-stopped", action="store_true", help="the camera was not left moving at exit")
    check.add_argument("--expect-stopped-at-port-close", action="store_true",
                       help="(pty) the host closed the port, and the camera was not moving then")
    check.add_argument("--stop-after-min", type=float, default=None, metavar="S",
                       help="the stop came at least S s after the last moving drive")
    check.add_argument("--stop-after-max", type=float, default=None, metavar="S",
                       help="the stop came at most S s after the last moving drive")
    check.add_argument("--min-poll-rate", type=float, default=None, metavar="HZ", help="position inquiries per second, at least")
    check.add_argument("--max-poll-rate", type=float, default=None, metavar="HZ", help="position inquiries per second, at most")
    check.add_argument("--expect-command", action="append", metavar="NAME",
                       help="a command name (as in the report's counts) received at least once; repeatable")
    check.add_argument("--json", action="store_true", help="print one JSON object instead of the lines")
    check.set_defaults(main=check_report_main)

    selftest = roles.add_parser("selftest", help="host against camera over a pty (with and without ACK) and UDP loopback",
                                description="Run host against camera over a pseudo-terminal, over a pseudo-terminal "
                                            "with --no-ack, and over UDP on 127.0.0.1, and check each camera report.")
    selftest.set_defaults(main=selftest_main)
    return top


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.main(args)
    except UsageError as error:
        print(f"visca_peer.py: {error}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
