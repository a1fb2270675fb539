#!/usr/bin/env python3
"""Sums a dockfw-sim --profile file (busy cycles by program address) by function, using the ELF's
symbols (avr-nm), and prints the functions that took the most cycles.

    profile.py dockfw.elf PROFILE [--top N]
"""
import argparse
import bisect
import subprocess


def functions(elf):
    """(start, name) of every function in the ELF, sorted by address."""
    out = subprocess.run(["avr-nm", "-n", elf], check=True, capture_output=True, text=True).stdout
    symbols = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            symbols.append((int(parts[0], 16), parts[2]))
    return symbols


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("elf")
    parser.add_argument("profile")
    parser.add_argument("--top", type=int, default=25)
    arguments = parser.parse_args()
    symbols = functions(arguments.elf)
    starts = [address for address, _ in symbols]
    totals = {}
    for line in open(arguments.profile):
        address, cycles = line.split()
        index = bisect.bisect_right(starts, int(address, 16)) - 1
        name = symbols[index][1] if index >= 0 else "?"
        totals[name] = totals.get(name, 0) + int(cycles)
    everything = sum(totals.values())
    print(f"{everything} busy cycles")
    for name, cycles in sorted(totals.items(), key=lambda item: -item[1])[:arguments.top]:
        print(f"{cycles:>12} {100 * cycles / everything:5.1f} %  {name}")


if __name__ == "__main__":
    main()
