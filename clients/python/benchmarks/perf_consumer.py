#!/usr/bin/env python3
"""TReK's "performance computation" as a Python program reading a running station's user API: the Python
external consumer of `telestation-perf --consumer external-python` (the C++ one is telestation-api-consumer,
with the same options and output).

    perf_consumer.py --target HOST:PORT --consume packets|parameters:N [--packet Packet5] [--idle-seconds 2]
                     [--capacity N] [--max-batch N]

It subscribes, every sample: "packets" to every packet of every stream (packets().batches(): a list of
Packets per message); "parameters:N" to the first N parameters of --packet (their names from
mission_database()) with parameter_batches(), the fast path (numpy columns per message). It prints
"subscribed" once the station has the subscription in place, then computes per batch: packets — counts
them and sums their lengths; parameters — counts the samples and sums their calibrated values. When the
station ends the call, or nothing has come for --idle-seconds after the first data, it prints, as the
headless station's in-process consumers do,

    Consumer ITEM: P packets, Q parameters, D dropped

(D: what the station dropped for this client) and exits 0; 1 when the call failed, 2 for wrong options.
TELESTATION_TOKEN in the environment is sent as the calls' token."""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time

from telestation_client import Client, TelestationError

PACKET_CAPACITY = 32768        # ~0.3 s at 1 Gbit/s of 1288-byte packets; the station's pool has 65,536 slots
PARAMETER_CAPACITY = 1 << 21   # ~2 s at 1 M samples/s
PACKET_BATCH = 1024
PARAMETER_BATCH = 16384


class IdleWatch:
    """Cancels the subscription when nothing has come for `idle_seconds` after the first data: the station's
    calls do not end before it stops, and telestation-perf stops it only once its clients have all."""

    def __init__(self, subscription, idle_seconds: float) -> None:
        self.last_data = 0.0
        self.idled = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(subscription, idle_seconds), daemon=True)
        self._thread.start()

    def _run(self, subscription, idle_seconds: float) -> None:
        while not self._done.wait(0.05):
            if self.last_data and time.monotonic() - self.last_data > idle_seconds:
                self.idled = True
                subscription.cancel()
                return

    def stop(self) -> None:
        self._done.set()
        self._thread.join()


def parse(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", required=True, help="the station's API, HOST:PORT")
    parser.add_argument("--consume", required=True, help="packets or parameters:N")
    parser.add_argument("--packet", default="Packet5", help="parameters:N takes the first N of this packet type")
    parser.add_argument("--idle-seconds", type=float, default=2.0)
    parser.add_argument("--capacity", type=int, default=0, help="samples the station buffers for this client")
    parser.add_argument("--max-batch", type=int, default=0, help="samples per message")
    args = parser.parse_args(argv)
    kind, _, count = args.consume.partition(":")
    if not (args.consume == "packets" or (kind == "parameters" and count.isdigit() and int(count) > 0)):
        parser.error(f"--consume takes packets or parameters:N, not '{args.consume}'")
    if args.idle_seconds <= 0 or args.capacity < 0 or args.max_batch < 0:
        parser.error("--idle-seconds takes a number above zero, --capacity and --max-batch whole numbers")
    args.kind, args.count = kind, int(count or 0)
    return args


def consume_packets(client: Client, args) -> tuple:
    """Returns (packets, parameters, dropped, sum, idled), once the call has ended."""
    subscription = client.packets(capacity=args.capacity or PACKET_CAPACITY, max_batch=args.max_batch or PACKET_BATCH)
    batches = subscription.batches()
    next(batches)  # the station's first, empty message: the subscription is in place
    print("subscribed", flush=True)
    watch = IdleWatch(subscription, args.idle_seconds)
    packets, total = 0, 0
    try:
        for batch in batches:
            if batch:
                watch.last_data = time.monotonic()
                packets += len(batch)
                total += sum(len(p.frame) for p in batch)
    finally:
        watch.stop()
    return packets, 0, subscription.dropped, float(total), watch.idled


def consume_parameters(client: Client, args) -> tuple:
    types = [t for t in client.mission_database().packet_types if t.name == args.packet]
    if not types:
        raise SystemExit(f"perf_consumer: the station's mission database has no packet {args.packet}")
    names = [p.qualified_name for p in types[0].parameters[:args.count]]
    subscription = client.parameter_batches(names, capacity=args.capacity or PARAMETER_CAPACITY,
                                            max_batch=args.max_batch or PARAMETER_BATCH)
    print("subscribed", flush=True)  # parameter_batches() returns once the subscription is in place
    watch = IdleWatch(subscription, args.idle_seconds)
    samples, total = 0, 0.0
    try:
        for batch in subscription:
            watch.last_data = time.monotonic()
            samples += len(batch)
            total += float(batch.calibrated.sum())
    finally:
        watch.stop()
    return 0, samples, subscription.dropped, total, watch.idled


def main(argv=None) -> int:
    args = parse(argv)
    try:
        with Client(args.target, token=os.environ.get("TELESTATION_TOKEN"),
                    client_name=f"perf_consumer.py {args.consume}") as client:
            run = consume_packets if args.kind == "packets" else consume_parameters
            packets, parameters, dropped, total, _ = run(client, args)
    except TelestationError as e:
        print(f"perf_consumer: {args.consume}: {e}", file=sys.stderr)
        return 1
    print(f"Computation {args.consume}: {total!r}")
    print(f"Consumer {args.consume}: {packets} packets, {parameters} parameters, {dropped} dropped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
