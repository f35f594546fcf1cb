"""The fixtures: a real headless station (telestation --headless, one UDP stream "tm" on a free port,
the API on another) per test, and the simulator CLI to feed it, over loopback.

The programs come from $TELESTATION_BIN_DIR (CTest sets it), else the dev build tree's bin/. Tests wait
on conditions with generous limits, never on time."""
from __future__ import annotations

import os
from typing import Iterator

import pytest

from helpers import STATION_SECONDS
from telestation_client.local import LocalStation, find_program

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BIN_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "..", "build", "dev", "bin"))


@pytest.fixture(scope="session")
def bin_dir() -> str:
    folder = os.environ.get("TELESTATION_BIN_DIR")
    if folder:  # asked for explicitly (CTest): missing programs are a failure
        find_program("telestation", folder)
        find_program("telestation-sim", folder)
        return folder
    try:
        find_program("telestation", DEFAULT_BIN_DIR)
        find_program("telestation-sim", DEFAULT_BIN_DIR)
    except FileNotFoundError:
        pytest.skip(f"no telestation in {DEFAULT_BIN_DIR}: build it or set TELESTATION_BIN_DIR")
    return DEFAULT_BIN_DIR


@pytest.fixture
def station(bin_dir) -> Iterator[LocalStation]:
    with LocalStation(bin_dir, duration=STATION_SECONDS) as s:
        yield s


@pytest.fixture
def client(station):
    with station.client() as c:
        yield c
