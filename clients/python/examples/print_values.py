#!/usr/bin/env python3
"""Prints live values of parameters of a running station, a line per value:

    python3 print_values.py Packet5.CPU_LOAD Packet5.OPS_MODE HK_Status.BUS_VOLTAGE
    python3 print_values.py --every --stream health Packet5.CPU_LOAD     # every sample, not 2 a second

By default the newest value of each parameter twice a second; --every: every sample as it is processed.
Ctrl-C ends it."""
import argparse
import datetime

from telestation_client import Client, TelestationError


def clock(ns: int) -> str:
    return datetime.datetime.fromtimestamp(ns / 1e9, datetime.timezone.utc).strftime("%H:%M:%S.%f")[:-3] + "Z"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="+", help="parameters, PACKET.PARAMETER")
    parser.add_argument("--target", default="127.0.0.1:50051", help="the station's API (default %(default)s)")
    parser.add_argument("--token", default=None, help="an API token, when the station's profile has tokens")
    parser.add_argument("--stream", default="", help="one stream (default: every stream)")
    parser.add_argument("--every", action="store_true", help="every sample (default: the newest, --rate a second)")
    parser.add_argument("--rate", type=float, default=2.0, help="newest values: updates a second")
    args = parser.parse_args()
    try:
        with Client(args.target, token=args.token, client_name="print_values") as station:
            units = {p.qualified_name: p.units for t in station.mission_database().packet_types for p in t.parameters}
            delivery = "every" if args.every else "newest"
            with station.parameters(args.names, stream=args.stream, delivery=delivery, rate_hz=args.rate) as values:
                for s in values:
                    value = s.state_text or f"{s.calibrated:.6g} {units.get(s.name, '')}".rstrip()
                    limit = "" if s.limit in ("none", "normal") else f"  [{s.limit}]"
                    print(f"{clock(s.receive_time_ns)}  {s.stream:10s} {s.name:32s} {value}{limit}", flush=True)
    except TelestationError as e:
        print(f"print_values: {e}")
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
