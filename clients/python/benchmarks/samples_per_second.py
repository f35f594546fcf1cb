#!/usr/bin/env python3
"""Parameter samples per second into Python: a headless station (LocalStation: telestation --headless on
loopback) fed by the simulator with Packet5 (88 parameters a packet) at --rate, one client subscribed to
every parameter of Packet5, every sample. Prints, per way of reading, the samples received per second over
--seconds (after --warmup), the samples the station dropped for the client, and the client's CPU use.

    TELESTATION_BIN_DIR=build/release/bin python3 clients/python/benchmarks/samples_per_second.py --rate 15kpps

Ways of reading: "batches" (parameter_batches(): numpy columns per message; name, receive time and
calibrated value touched) and "samples" (parameters(): a Sample per value). With --target HOST:PORT it
reads from a running station instead (nothing started; send traffic yourself)."""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

from telestation_client import FAST_DECODER, Client
from telestation_client.local import LocalStation

PARAMETERS_PER_PACKET5 = 88


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def measure(client: Client, way: str, seconds: float, warmup: float, max_batch: int, capacity: int) -> dict:
    batches = client.parameter_batches(packet_types=["Packet5"], max_batch=max_batch, capacity=capacity)
    count = 0
    start = None
    dropped0 = 0
    touched = 0.0
    begin = time.monotonic()
    try:
        if way == "batches":
            for batch in batches:
                now = time.monotonic()
                if start is None and now - begin >= warmup:
                    start, cpu0, dropped0, count = now, cpu_seconds(), batch.dropped, 0
                count += len(batch)
                touched += float(batch.calibrated.sum()) + len(batch.name) + int(batch.receive_time_ns[-1] > 0)
                if start is not None and now - start >= seconds:
                    break
        else:
            from telestation_client.subscriptions import Samples

            samples = Samples(batches)
            next_check = 0
            for sample in samples:
                count += 1
                touched += sample.calibrated
                if count >= next_check:  # the clock is read every 10,000 samples, not per sample
                    next_check = count + 10000
                    now = time.monotonic()
                    if start is None and now - begin >= warmup:
                        start, cpu0, dropped0, count, next_check = now, cpu_seconds(), samples.dropped, 0, 10000
                    elif start is not None and now - start >= seconds:
                        break
        elapsed = time.monotonic() - start
        cpu = cpu_seconds() - cpu0
        return {"way": way, "samples_per_second": count / elapsed, "dropped": batches.dropped - dropped0,
                "client_cpu_percent": 100 * cpu / elapsed, "seconds": elapsed}
    finally:
        batches.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", default="12kpps", help="the simulator's rate of Packet5 (12kpps = 1.06 M samples/s)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the measurement, per way of reading")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--way", choices=["batches", "samples", "both"], default="both")
    parser.add_argument("--max-batch", type=int, default=16384, help="samples per message (the station's most: 65536)")
    parser.add_argument("--capacity", type=int, default=0, help="samples the station buffers for the client (0: the profile's)")
    parser.add_argument("--bin-dir", default=None, help="where telestation and telestation-sim are (else $TELESTATION_BIN_DIR)")
    parser.add_argument("--target", default=None, help="a running station's API (nothing is started)")
    args = parser.parse_args()
    ways = ["batches", "samples"] if args.way == "both" else [args.way]
    print(f"decoder: {'C' if FAST_DECODER else 'protobuf (the C decoder was not built)'}")
    results = []
    if args.target:
        with Client(args.target, client_name="benchmark") as client:
            for way in ways:
                results.append(measure(client, way, args.seconds, args.warmup, args.max_batch, args.capacity))
    else:
        with LocalStation(args.bin_dir) as station:
            duration = len(ways) * (args.seconds + args.warmup + 3) + 5
            sender = subprocess.Popen(station.simulator_command(["Packet5"], rate=args.rate, duration=duration),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                with station.client(client_name="benchmark") as client:
                    for way in ways:
                        results.append(measure(client, way, args.seconds, args.warmup, args.max_batch, args.capacity))
                offered = station.stream_statistics().counters
            finally:
                sender.terminate()
                sender.wait()
        print(f"offered: Packet5 at {args.rate} = {PARAMETERS_PER_PACKET5} parameters a packet; station: "
              f"{offered.packets_received} packets received, {offered.drops} dropped")
    for r in results:
        print(f"{r['way']:8s} {r['samples_per_second'] / 1e6:6.3f} M samples/s over {r['seconds']:.1f} s, "
              f"client CPU {r['client_cpu_percent']:.0f}%, dropped for the client {r['dropped']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
