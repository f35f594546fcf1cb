#!/usr/bin/env python3
"""Archive export: how long exporting a recording to CSV takes (issue 16's target: one hour of Packet5 at
100 packets/s — 360,000 packets of 88 parameters — in under 10 s).

A headless station (LocalStation) records Packet5 from the simulator — --packets of them, sent at --rate
(the content is what one hour at 100 packets/s would be; only the receive times are closer together) —
and stops, closing its segments. Then `telestation-mdb decode` (the recordings browser's export: the
same core/archive code) writes the recording as CSV in each layout, and the API's archive query
(client.archive.parameter_batches) reads it into Python; each is timed (wall and CPU), with its rows and
bytes.

    TELESTATION_BIN_DIR=build/release/bin build/release/python-venv/bin/python clients/python/benchmarks/archive_export.py

(The release build's programs; any build tree with bin/ and python-venv/ works.)"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

from telestation_client.local import LocalStation, wait_until

RECORD_PACKET5 = {"packets": [{"packet": "Packet5", "record": True}]}


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def count_lines(path: str) -> int:
    with open(path, "rb") as f:
        return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))


def export(tool: str, mdb: str, recordings: str, out: str, layout: list) -> dict:
    """One `telestation-mdb decode` run: wall and CPU seconds, rows (lines without the header), bytes."""
    cpu0, start = children_cpu(), time.monotonic()
    subprocess.run([tool, "decode", "--mdb", mdb, "--input", recordings, "--output", out] + layout, check=True,
                   stderr=subprocess.DEVNULL)
    wall, cpu = time.monotonic() - start, children_cpu() - cpu0
    return {"wall": wall, "cpu": cpu, "rows": count_lines(out) - 1, "bytes": os.path.getsize(out)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=os.environ.get("TELESTATION_BIN_DIR", "build/release/bin"))
    parser.add_argument("--packets", type=int, default=360_000, help="Packet5 packets (default: 1 h at 100/s)")
    parser.add_argument("--rate", default="20000pps", help="how fast the simulator sends them")
    parser.add_argument("--keep", action="store_true", help="keep the CSV files (in the station's directory)")
    args = parser.parse_args()
    bin_dir = os.path.abspath(args.bin_dir)
    tool = os.path.join(bin_dir, "telestation-mdb")
    mdb = os.path.normpath(os.path.join(bin_dir, "..", "share", "telestation", "training.mdb"))

    station = LocalStation(bin_dir, stream_profile=RECORD_PACKET5, duration=3600).start()
    try:
        with station.client() as client:
            station.send(["Packet5"], count=args.packets, rate=args.rate, timeout=3600)
            if not station.settle(args.packets, timeout=600):
                print("the station did not process every packet", file=sys.stderr)
                return 1
            if not wait_until(lambda: sum(s.packets for s in client.archive.recordings().segments) >= args.packets,
                              60.0, 0.2):
                print("the recording does not hold every packet", file=sys.stderr)
                return 1
            # The API's archive query, into Python (numpy batches), the station idle.
            cpu0, start, samples = own_cpu(), time.monotonic(), 0
            for batch in client.archive.parameter_batches(packet_types=["Packet5"]):
                samples += len(batch)
            api = {"wall": time.monotonic() - start, "cpu": own_cpu() - cpu0, "rows": samples}
        recordings = os.path.join(station.directory, "recordings")
        size = sum(os.path.getsize(os.path.join(recordings, f)) for f in os.listdir(recordings) if f.endswith(".tsrec"))
        station.stop(remove=False)  # closes the segments; the directory stays for the exports

        print(f"recording: {args.packets} Packet5 packets, {size / 1e6:.0f} MB in segment files")
        print(f"{'export':<44} {'seconds':>8} {'CPU s':>7} {'rows':>11} {'MB':>7} {'rows/s':>11}")
        runs = [("long CSV (a row per sample)", []),
                ("aligned CSV (a row per time: the browser's wide)", ["--aligned"]),
                ("wide CSV --packet Packet5", ["--wide", "--packet", "Packet5"])]
        for name, layout in runs:
            out = os.path.join(station.directory, "export.csv")
            r = export(tool, mdb, recordings, out, layout)
            if not args.keep:
                os.remove(out)
            print(f"{name:<44} {r['wall']:>8.2f} {r['cpu']:>7.2f} {r['rows']:>11} {r['bytes'] / 1e6:>7.0f} "
                  f"{r['rows'] / r['wall']:>11.0f}")
        print(f"{'API archive query into Python (samples)':<44} {api['wall']:>8.2f} {api['cpu']:>7.2f} "
              f"{api['rows']:>11} {'':>7} {api['rows'] / api['wall']:>11.0f}")
        return 0
    finally:
        station.stop(remove=not args.keep)


if __name__ == "__main__":
    sys.exit(main())
