"""Seeds a libFuzzer corpus for one scripts/fuzz target from the repository's vectors, scenarios,
examples and the JSON or text its unit tests quote; plus a few hostile inputs written by hand.

    python3 FuzzTesting/seed.py TARGET CORPUS_DIRECTORY
"""
import hashlib
import json
import pathlib
import re
import sys

target, corpus = sys.argv[1], pathlib.Path(sys.argv[2])
corpus.mkdir(parents=True, exist_ok=True)
seeds = []


def quoted(paths, pattern):
    """The raw strings (#"..."#) of Swift files whose text matches pattern."""
    for path in paths:
        for text in re.findall(r'#"(.*?)"#', path.read_text()):
            if re.search(pattern, text):
                yield text.replace('\\n', '\n').encode()


def hexes(node, suffix="hex"):
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith(suffix) and isinstance(value, str):
                yield bytes.fromhex(value)
            else:
                yield from hexes(value, suffix)
    elif isinstance(node, list):
        for value in node:
            yield from hexes(value, suffix)


def varlink_types(interface):
    """The interface's types: name -> its body between the parentheses (fields, or enum values)."""
    return dict(re.findall(r"^type (\w+) \((.*?)\)\s*$", interface, re.M | re.S))


def varlink_value(kind, types, depth=0):
    """A value of a Varlink type (`?float`, `[]int`, `Rect`, `(a, b)`...), the first of an enum."""
    kind = kind.strip().lstrip("?")
    if kind.startswith("[]"):
        return [varlink_value(kind[2:], types, depth + 1)]
    if kind.startswith("("):
        return kind[1:kind.index(",") if "," in kind else -1].strip().rstrip(")")
    if kind in ("float", "int", "bool", "string"):
        return {"float": 0.5, "int": 1, "bool": True, "string": "a"}[kind]
    body = types.get(kind, "")
    if ":" not in body:  # an enum, or a type not found
        return body.split(",")[0].strip() or "a"
    return varlink_parameters(body, types, depth + 1) if depth < 4 else {}


def varlink_parameters(text, types, depth=0):
    """An object with every field of `name: type, ...` (comments dropped) given a value."""
    text = re.sub(r"#.*", "", text)
    fields = {}
    for name, kind in re.findall(r"(\w+)\s*:\s*(\?*\[?\]?\w+|\??\([^)]*\))", text):
        fields[name] = varlink_value(kind, types, depth)
    return fields


hostile_json = [b"1e999", b"-1e999", b"1e-999", b"9223372036854775807", b"9223372036854775808",
                b"-9223372036854775809", b"12.0", b"1.2e1", b"-0", b"-0.0", b"0.1e400",
                b"[" * 129 + b"]" * 129, b"[" * 128 + b"]" * 128, b"{\"a\":" * 130 + b"1" + b"}" * 130,
                b"\"\\ud800\"", b"\"\\udc00\"", b"\"\\ud83d\\ude00\"", b"\"\xff\"", b"\"\x01\"",
                b"{\"a\":1,\"a\":2}", b"\"\\u0000\"", b"{} x", b"[1,]", b"tru"]

if target in ("json", "varlink"):
    tests = sorted(pathlib.Path("Tests").glob("**/*.swift"))
    seeds += quoted(tests, r'^\s*[\[{]')
    for path in sorted(pathlib.Path("Protocol/vectors").glob("**/*.json"))[:8]:
        seeds.append(path.read_bytes()[:8192])
if target == "json":
    seeds += hostile_json
    for path in sorted(pathlib.Path("Protocol/visca").glob("*.json")):
        seeds.append(path.read_bytes())
if target == "varlink":
    method = "io.dockd.Dock."
    # Every method of the interface file, so that a method added there is fuzzed from its first
    # day: once with no parameters and once with each parameter given a value of its type.
    interface = pathlib.Path("Protocol/io.dockd.Dock.varlink").read_text()
    for name, parameters in re.findall(r"^method (\w+)\((.*?)\) ->", interface, re.M):
        seeds.append(json.dumps({"method": method + name, "parameters": {}}).encode() + b"\0")
        call = {"method": method + name, "parameters": varlink_parameters(parameters, varlink_types(interface))}
        seeds.append(json.dumps(call).encode() + b"\0")
    for number in [b"1e999", b"-1e999", b"1e308", b"5e-324", b"9223372036854775808", b"-0"]:
        seeds.append(b'{"method":"io.dockd.Dock.SetVelocity","parameters":{"yaw":' + number
                     + b',"pitch":0,"duration":' + number + b'}}\0')
    seeds.append(b'{"method":"io.dockd.Dock.Track","parameters":{"observations":' + b"[" * 200 + b"]" * 200 + b"}}\0")
    seeds.append(b'{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"io.dockd.Dock"}}\0')
    seeds.append(b'{"method":"org.varlink.service.GetInfo"}\0{"method":"io.dockd.Dock.Watch","more":true}\0')
    seeds += [text + b"\0" for text in hostile_json]
if target == "configuration":
    for path in sorted(pathlib.Path("systemd").glob("*.conf")):
        seeds.append(path.read_bytes())
    seeds += quoted(sorted(pathlib.Path("Tests/DaemonTests").glob("*.swift")), r'=|--')
    seeds += [b"--simulator\n--baud\n9600\n--yaw-min-deg=-90", b"baud = 1e999\n", b"lost-after-s = nan\n",
              b"vendor-id = 12g9\n", b"--tracking\nfalse\n--log-level=debug", b"=\n", b"x\n",
              b"tracking = on\n[accessory desk]\ndevice = /dev/dock0\n[accessory cam]\nvisca = udp:h:1\nprotocol = ndi\n",
              b"[accessory a]\nserial-number = A\n[accessory b]\n[accessory a]\nsocket = x\n[accessory  c d]\n[x]\n"]
if target == "scenario":
    for path in sorted(pathlib.Path("Scenarios").glob("**/*.json")):
        seeds.append(path.read_bytes())
    seeds += quoted(sorted(pathlib.Path("Tests/DockSimulatorTests").glob("*.swift")), r'^\s*\{')
if target == "mot":
    seeds += quoted(sorted(pathlib.Path("Tests/DockTrackingTests").glob("MOT*.swift")), r',')
    seeds += [b"1,1,10,20,30,40,0.9,-1,-1,-1\n2,1,11.5,20,30,40,1,-1,-1,-1\n", b"1,1,0,0,0.004,1,1\n",
              b"1e7,2,1,1,1,1,1\n", b"3.0,-4,1e300,1,1e300,1,nan\n", b"1,1,1,1,1,1,1\0\n"]
if target == "visca":
    for path in sorted(pathlib.Path("Protocol/vectors/visca").glob("*.json")):
        document = json.loads(path.read_text())
        seeds += hexes(document)
if target == "visca-profile":
    for path in sorted(pathlib.Path("Protocol/visca").glob("*.json")):
        seeds.append(path.read_bytes())
    seeds += quoted(sorted(pathlib.Path("Tests/VISCAProtocolTests").glob("*.swift")), r'^\s*\{')
if target == "host-session":
    # Scripts (FuzzTesting/FuzzHostSession.swift): 2 = the example dock's info answering the
    # hello, 3 N = N x 4 ms pass, 4 KIND ... = a request, 0 LEN BYTES = the dock's bytes.
    opening = bytes([2, 0, 3, 50])
    # Tracking on, then ten frames of five boxes (each request ends with its client byte).
    tracking = bytes([4, 7 | 0x40, 0]) + b"".join(bytes([4, 11]) + bytes(range(16 + 5 * i, 37 + 5 * i)) + bytes([0, 3, 8])
                                                   for i in range(10))
    moves = bytes([4, 0, 0x10, 0xF0, 30, 1, 3, 20,  # a velocity of 1, -1 rad/s for 500 ms
                   4, 1, 0x08, 0x04, 1, 0x20, 1, 3, 100,  # a move to 0.5, 0.25 at 2 rad/s
                   4, 1 | 0x20, 0x10, 0x10, 1, 0xF8, 0, 0, 0, 0, 0, 0, 0, 1, 1, 3, 50,  # relative, at 5e-324 rad/s
                   4, 5, 2, 4, 0, 0x20, 0, 0, 2, 5, 1, 3, 10,  # client 3 holds, turns, vanishes
                   4, 2, 3, 1, 3, 250, 6, 3, 250, 7, 3, 250])  # kapow, the port closes, a device appears
    seeds += [opening, opening + tracking, opening + moves, opening + tracking + moves]
    for path in ["Protocol/vectors/example-session.json", "Protocol/vectors/transcripts.json", "Protocol/vectors/streams.json"]:
        for chunk in hexes(json.loads(pathlib.Path(path).read_text())):
            for start in range(0, len(chunk), 255):
                piece = chunk[start:start + 255]
                seeds.append(opening + bytes([0, len(piece)]) + piece + bytes([3, 10]))
if target == "uvc":
    import struct
    for path in sorted(pathlib.Path("Protocol/uvc").glob("*.json")):
        seeds.append(path.read_bytes())
    capability = b"uvcvideo".ljust(16, b"\0") + b"OBSBOT Tiny".ljust(32, b"\0") + b"usb-0000:00:14.0-1".ljust(32, b"\0") \
        + struct.pack("<III", 0x060100, 0x84200001, 0x04200001) + bytes(12)
    query = struct.pack("<II", 0x009a0908, 1) + b"Pan, Absolute".ljust(32, b"\0") \
        + struct.pack("<qqqqIII", -522000, 522000, 3600, 0, 0x10, 4, 1) + bytes(232 - 84)
    controls = struct.pack("<IIIIQ", 0x009a0000, 2, 0, 0, 0) + bytes(8) \
        + struct.pack("<IIIi", 0x009a0908, 0, 0, 0) + bytes(4) + struct.pack("<IIIi", 0x009a0909, 0, 0, -3600) + bytes(4)
    for request, image in [(0x80685600, capability), (0xc0e85667, query), (0xc0205647, controls), (0xc008561b, struct.pack("<Ii", 0x009a0908, 7200))]:
        for errno in [0, 5, 22]:
            seeds.append(struct.pack("<IiI", request, errno, len(image)) + image)
        seeds.append(struct.pack("<II", request, len(image)) + image)
    seeds.append(struct.pack("<IiI", 0x80685600, 0, 0x10001) + capability)
if target == "vision":
    seeds.append(pathlib.Path("systemd/dockd-vision.conf").read_bytes())
    seeds.append(b"device = /dev/video2\nfaces = haar\nbody-every = 5  # twice a second\nface-scale = 0.75\nappearance = false\n")
    seeds.append(b"faces = yunet\nface-model = /var/lib/yunet.onnx\nbodies = onnx\nbody-model = p.onnx\nbody-model-size = 320\n")
    seeds.append(b"\xff\xd8" + bytes(60) + b"\xff\xd9\0\0")

for seed in seeds:
    (corpus / ("seed-" + hashlib.sha1(seed).hexdigest()[:16])).write_bytes(seed)
print(f"fuzz-{target}: {len(set(seeds))} seed inputs")
