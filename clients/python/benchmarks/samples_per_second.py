#!/usr/bin/env python3
"""Parameter samples per second into Python: a headless station (LocalStation: telestation --headless on
loopback) fed by the simulator with Packet5 (88 parameters a packet) at --rate, one client subscribed to
every parameter of Packet5, every sample. Prints, per way of reading, the samples received per second over
--seconds (after --warmup), the samples the station dropped for the client, and the client's CPU use.

    TELESTATION_BIN_DIR=build/dev/bin build/dev/python-venv/bin/python clients/python/benchmarks/samples_per_second.py --rate 12kpps

Ways of reading: "batches" (parameter_batches(): numpy columns per message; name, receive time and
calibrated value touched) and "samples" (parameters(): a Sample per value), both live; "decode": the
client alone, without the station's pace — messages captured first, then decoded into batches and
Samples again and again on one core. With --target HOST:PORT it reads from a running station instead
(nothing started; send traffic yourself)."""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

from telestation_client import FAST_DECODER, Client, station_pb2
from telestation_client._wire import decode_parameter_batch
from telestation_client.samples import NameTable, SampleBatch
from telestation_client.local import LocalStation

PARAMETERS_PER_PACKET5 = 88


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def decode_only(client: Client, seconds: float, max_batch: int) -> list:
    """Captures messages for a while, then decodes them over and over: what the client takes per sample."""
    request = station_pb2.SubscribeParametersRequest(packet_types=["Packet5"], max_batch=max_batch, capacity=1 << 22)
    call = client.stub.SubscribeParameters(request, metadata=client.metadata)
    captured, samples = [], 0
    for message in call:
        if message.samples:
            captured.append(message.SerializeToString())
            samples += len(message.samples)
        if samples >= 500_000:
            break
    call.cancel()
    names, streams = NameTable(), NameTable()
    results = []
    for way in ("decode batches", "decode samples"):
        count, start, cpu0 = 0, time.monotonic(), cpu_seconds()
        while time.monotonic() - start < seconds / 2:
            for data in captured:
                columns = decode_parameter_batch(data)
                names.add(columns.parameter_names)
                streams.add(columns.stream_names)
                batch = SampleBatch(columns, names, streams)
                if way == "decode batches":
                    float(batch.calibrated.sum()) + len(batch.name) + int(batch.receive_time_ns[-1] > 0)
                else:
                    for sample in batch.samples():
                        sample.calibrated
                count += len(batch)
        elapsed = time.monotonic() - start
        results.append({"way": way, "samples_per_second": count / elapsed, "dropped": 0,
                        "client_cpu_percent": 100 * (cpu_seconds() - cpu0) / elapsed, "seconds": elapsed})
    return results


def measure(client: Client, way: str, seconds: float, warmup: float, max_batch: int, capacity: int) -> list:
    if way == "decode":
        return decode_only(client, seconds, max_batch)
    kwargs = dict(packet_types=["Packet5"], max_batch=max_batch, capacity=capacity)
    subscription = client.parameter_batches(**kwargs) if way == "batches" else client.parameters(**kwargs)
    count, touched, start, begin = 0, 0.0, None, time.monotonic()

    def tick(now: float) -> bool:
        """Starts the measurement after the warm-up; True once it has lasted long enough."""
        nonlocal start, cpu0, dropped0, count
        if start is None and now - begin >= warmup:
            start, cpu0, dropped0, count = now, cpu_seconds(), subscription.dropped, 0
        return start is not None and now - start >= seconds

    cpu0 = dropped0 = 0
    with subscription:
        if way == "batches":
            for batch in subscription:
                count += len(batch)
                touched += float(batch.calibrated.sum()) + len(batch.name) + int(batch.receive_time_ns[-1] > 0)
                if tick(time.monotonic()):
                    break
        else:
            for sample in subscription:
                count += 1
                touched += sample.calibrated
                if count % 10000 == 0 and tick(time.monotonic()):  # the clock every 10,000 samples
                    break
        elapsed = time.monotonic() - start
        return [{"way": way, "samples_per_second": count / elapsed, "dropped": subscription.dropped - dropped0,
                 "client_cpu_percent": 100 * (cpu_seconds() - cpu0) / elapsed, "seconds": elapsed}]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", default="12kpps", help="the simulator's rate of Packet5 (12kpps = 1.06 M samples/s)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the measurement, per way of reading")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--way", choices=["batches", "samples", "decode", "all"], default="all")
    parser.add_argument("--max-batch", type=int, default=16384, help="samples per message (the station's most: 65536)")
    parser.add_argument("--capacity", type=int, default=0,
                        help="samples the station buffers for the client (0: the profile's)")
    parser.add_argument("--bin-dir", default=None,
                        help="where telestation and telestation-sim are (else $TELESTATION_BIN_DIR)")
    parser.add_argument("--target", default=None, help="a running station's API (nothing is started)")
    args = parser.parse_args()
    ways = ["batches", "samples", "decode"] if args.way == "all" else [args.way]
    print(f"decoder: {'C' if FAST_DECODER else 'protobuf (the C decoder was not built)'}")
    results = []
    if args.target:
        with Client(args.target, client_name="benchmark") as client:
            for way in ways:
                results.extend(measure(client, way, args.seconds, args.warmup, args.max_batch, args.capacity))
    else:
        with LocalStation(args.bin_dir) as station:
            duration = len(ways) * (args.seconds + args.warmup + 3) + 5
            sender = subprocess.Popen(station.simulator_command(["Packet5"], rate=args.rate, duration=duration),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                with station.client(client_name="benchmark") as client:
                    for way in ways:
                        results.extend(measure(client, way, args.seconds, args.warmup, args.max_batch, args.capacity))
                offered = station.stream_statistics().counters
            finally:
                sender.terminate()
                sender.wait()
        print(f"offered: Packet5 at {args.rate} = {PARAMETERS_PER_PACKET5} parameters a packet; station: "
              f"{offered.packets_received} packets received, {offered.drops} dropped")
    for r in results:
        print(f"{r['way']:15s} {r['samples_per_second'] / 1e6:6.3f} M samples/s over {r['seconds']:.1f} s, "
              f"client CPU {r['client_cpu_percent']:.0f}%, dropped for the client {r['dropped']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
