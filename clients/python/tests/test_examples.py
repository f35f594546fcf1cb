"""The examples run against a station: record_csv writes what was sent, print_values prints values."""
from __future__ import annotations

import csv
import os
import subprocess
import sys
import threading

from helpers import WAIT
from telestation_client.local import wait_until

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")


def test_record_csv(station, tmp_path):
    out = tmp_path / "values.csv"
    # It subscribes before it writes its header: once the header is there, nothing sent is missed.
    recorder = subprocess.Popen([sys.executable, os.path.join(EXAMPLES, "record_csv.py"), "--target", station.target,
                                 "--out", str(out), "--count", "200", "Packet5.CPU_LOAD", "Packet5.OPS_MODE"],
                                stdout=subprocess.PIPE, text=True)
    assert wait_until(lambda: (out.exists() and out.stat().st_size > 0) or recorder.poll() is not None, WAIT)
    station.send(["Packet5"], count=100)
    stdout, _ = recorder.communicate(timeout=WAIT)
    assert recorder.returncode == 0, stdout
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 200 and "200 samples" in stdout
    assert {r["name"] for r in rows} == {"Packet5.CPU_LOAD", "Packet5.OPS_MODE"}
    assert all(r["stream"] == "tm" and r["receive_time"].endswith("Z") for r in rows)
    assert {r["state_text"] for r in rows if r["name"] == "Packet5.OPS_MODE"} - {""}


def test_print_values(station):
    printer = subprocess.Popen([sys.executable, os.path.join(EXAMPLES, "print_values.py"), "--target", station.target,
                                "--every", "HK_Status.BUS_VOLTAGE"], stdout=subprocess.PIPE, text=True)
    watchdog = threading.Timer(WAIT, printer.kill)  # a printer that prints nothing ends, and the test fails
    watchdog.start()
    try:
        sender = subprocess.Popen(station.simulator_command(["HK_Status"], rate="100pps", duration=600),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            lines = [printer.stdout.readline() for _ in range(3)]
        finally:
            sender.terminate()
            sender.wait()
    finally:
        watchdog.cancel()
        printer.terminate()
        printer.wait()
    assert all("HK_Status.BUS_VOLTAGE" in line and line.rstrip().endswith("V") for line in lines), lines
