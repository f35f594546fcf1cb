"""What the tests share besides fixtures (conftest.py): waiting on subscriptions without hanging."""
from __future__ import annotations

import shutil
import subprocess
import threading
from contextlib import contextmanager
from typing import List, Tuple

import pytest

from telestation_client.local import LocalStation

# Generous: a loaded 2-core machine with a debug build.
WAIT = 120.0
# Every station stops by itself after this long, should a killed test run leave it behind.
STATION_SECONDS = 1800

# Tokens of the profiles that have them: a read-only one and one that may control.
READER = {"token": "reader-secret-0123456789", "name": "analyst"}
CONTROLLER = {"token": "control-secret-0123456789", "name": "flight", "control": True}


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


def self_signed_certificate(folder) -> Tuple[str, str]:
    """A certificate for 127.0.0.1 and localhost and its key (PEM files in `folder`), made with openssl;
    the test is skipped without it."""
    openssl = shutil.which("openssl")
    if not openssl:
        pytest.skip("no openssl to make a certificate")
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key),
                    "-out", str(certificate)],
                   check=True, capture_output=True)
    return str(certificate), str(key)
