#!/usr/bin/env python3
"""Seeds the firmware's fuzz corpus from Protocol/vectors: every host frame of the vectors alone,
and after a hello (so the session is open), and followed by a long silence (the failsafe).

    fuzz_seeds.py VECTORS_DIR CORPUS_DIR
"""
import json
import sys
from pathlib import Path

HELLO = bytes.fromhex("00 02 01 01 07 01 01 ed 02 aa 9c 00".replace(" ", ""))
SILENCE = bytes([0xA5, 0xFF, 0xA5, 0xFF, 0xA5, 0xFF])  # the fuzz target's clock escape: 3 × 255 ms


def main():
    vectors, corpus = Path(sys.argv[1]), Path(sys.argv[2])
    corpus.mkdir(parents=True, exist_ok=True)
    frames = [bytes.fromhex(v["hex"].replace(" ", "")) for v in json.loads((vectors / "messages.json").read_text())["vectors"]]
    frames += [bytes.fromhex(v["input_hex"].replace(" ", "")) for v in json.loads((vectors / "streams.json").read_text())["vectors"]]
    for index, frame in enumerate(frames):
        (corpus / f"seed-{index:03}").write_bytes(frame)
        (corpus / f"seed-{index:03}-ready").write_bytes(HELLO + frame)
        (corpus / f"seed-{index:03}-silence").write_bytes(HELLO + frame + SILENCE + frame)


if __name__ == "__main__":
    main()
