"""What the tests share besides fixtures (conftest.py): waiting on subscriptions without hanging."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import List

from telestation_client.local import LocalStation

# Generous: a loaded 2-core machine with a debug build.
WAIT = 120.0
# Every station stops by itself after this long, should a killed test run leave it behind.
STATION_SECONDS = 1800


@contextmanager
def deadline(subscription, seconds: float = WAIT):
    """Cancels `subscription` after `seconds`: a reader waiting for what never comes ends (and its test
    fails on what it counted) instead of hanging."""
    timer = threading.Timer(seconds, subscription.cancel)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def take(subscription, count: int, seconds: float = WAIT) -> List:
    """The next `count` items of a subscription (fewer if it ended or `seconds` passed)."""
    items = []
    if count == 0:
        return items
    with deadline(subscription, seconds):
        for item in subscription:
            items.append(item)
            if len(items) == count:
                break
    return items


def client_entry(station: LocalStation, kind: str, name_prefix: str = "python-client"):
    """This test's API client in the station's statistics (None while it is not listed)."""
    for c in station.snapshot().clients:
        if c.kind == kind and c.name.startswith(name_prefix + " (ipv4:127.0.0.1:"):
            return c
    return None
