#!/usr/bin/env python3
"""Records every sample of parameters of a running station to a CSV file, until --seconds or --count or
Ctrl-C:

    python3 record_csv.py --out cpu.csv --seconds 60 Packet5.CPU_LOAD
    python3 record_csv.py --out hk.csv --packet-type HK_Status      # every parameter of a packet type

Columns: receive_time and packet_time (ISO 8601, UTC, ns; packet_time empty without one), stream, name,
raw, converted, calibrated, state_text, limit. Reads whole batches (numpy columns), so it keeps up with
high rates; at the end it says how many samples it wrote and how many the station had to drop."""
import argparse
import csv
import threading

import numpy as np

from telestation_client import Client, TelestationError


def iso(ns: np.ndarray) -> np.ndarray:
    text = np.char.add(np.datetime_as_string(ns.view("datetime64[ns]"), unit="ns"), "Z")
    return np.where(ns == 0, "", text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="parameters, PACKET.PARAMETER")
    parser.add_argument("--packet-type", action="append", default=[], help="every parameter of a packet type")
    parser.add_argument("--out", required=True, help="the CSV file to write")
    parser.add_argument("--target", default="127.0.0.1:50051", help="the station's API (default %(default)s)")
    parser.add_argument("--token", default=None, help="an API token, when the station's profile has tokens")
    parser.add_argument("--stream", default="", help="one stream (default: every stream)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--count", type=int, default=None, help="stop after this many samples")
    args = parser.parse_args()
    if not args.names and not args.packet_type:
        parser.error("name parameters or --packet-type")
    written = 0
    try:
        with Client(args.target, token=args.token, client_name="record_csv") as station:
            # Subscribed before the file is there: whatever comes after the header is recorded.
            batches = station.parameter_batches(args.names, stream=args.stream, packet_types=args.packet_type,
                                                capacity=1 << 20)
            with batches, open(args.out, "w", newline="") as out:
                writer = csv.writer(out)
                writer.writerow(["receive_time", "packet_time", "stream", "name", "raw", "converted", "calibrated",
                                 "state_text", "limit"])
                out.flush()
                if args.seconds:  # ends the subscription, and so the loop, even while nothing comes
                    timer = threading.Timer(args.seconds, batches.cancel)
                    timer.daemon = True
                    timer.start()
                try:
                    for batch in batches:
                        n = len(batch) if args.count is None else min(len(batch), args.count - written)
                        writer.writerows(zip(iso(batch.receive_time_ns[:n]), iso(batch.packet_time_ns[:n]),
                                             batch.stream[:n], batch.name[:n], batch.raw[:n].tolist(),
                                             batch.converted_values()[:n], batch.calibrated[:n].tolist(),
                                             batch.state_text[:n], batch.limit[:n]))
                        written += n
                        if args.count is not None and written >= args.count:
                            break
                except KeyboardInterrupt:
                    pass
                behind = f"; the station dropped {batches.dropped} (this client fell behind)" if batches.dropped else ""
                print(f"record_csv: {written} samples to {args.out}{behind}")
    except TelestationError as e:
        print(f"record_csv: {e}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
