"""A headless station and the training simulator on loopback, for tests, benchmarks and trying the
client without a station of your own:

    with LocalStation() as station:                       # telestation --headless, API on a free port
        client = station.client()
        sub = client.parameters(["Packet5.CPU_LOAD"])
        station.send(["Packet5"], count=100)              # telestation-sim, to the station's stream
        ...

The programs are found in `bin_dir`, else $TELESTATION_BIN_DIR, else on PATH. The station's profile
has one UDP stream per name in `streams` on a free port, the API on another free port, and records and
logs into a temporary directory that stop() removes."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .client import Client
from .errors import TelestationError


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    """A port of 127.0.0.1 free now (TCP by default; socket.SOCK_DGRAM for UDP)."""
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition: Callable[[], bool], timeout: float = 60.0, interval: float = 0.05) -> bool:
    """Polls `condition` until it holds (True) or `timeout` seconds have passed (False)."""
    end = time.monotonic() + timeout
    while True:
        if condition():
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(interval)


def find_program(name: str, bin_dir: Optional[str] = None) -> str:
    """The path of a Telestation program: in `bin_dir`, else $TELESTATION_BIN_DIR, else on PATH."""
    folder = bin_dir or os.environ.get("TELESTATION_BIN_DIR")
    path = os.path.join(folder, name) if folder else shutil.which(name)
    if not path or not os.access(path, os.X_OK):
        raise FileNotFoundError(f"{name} not found (in {folder or 'PATH'}; set TELESTATION_BIN_DIR)")
    return path


class LocalStation:
    """`telestation --headless` with a generated profile; see the module's text."""

    def __init__(self, bin_dir: Optional[str] = None, streams: Sequence[str] = ("tm",),
                 tokens: Sequence[dict] = (), tls: Optional[Tuple[str, str]] = None, profile: Optional[dict] = None,
                 stream_profile: Optional[dict] = None,
                 duration: Optional[float] = None, startup_timeout: float = 60.0,
                 api_address: Optional[str] = None) -> None:
        """`tokens`: the profile's API tokens ({"token", "name", "control"}); clients use the first.
        `tls`: (certificate, key) PEM files: the API is served with TLS and clients trust the
        certificate. `profile`: more top-level keys of the profile (queues, limits, …); `stream_profile`:
        more keys of every stream (e.g. "packets": [{"packet": "Packet5", "record": true}]). `duration`: the
        station stops by itself after this many seconds (a station left behind by a killed test ends).
        `api_address`: the address the API is served on (default loopback; "0.0.0.0", every interface,
        needs `tls` and `tokens`); clients still connect through 127.0.0.1."""
        self.telestation = find_program("telestation", bin_dir)
        self.simulator = find_program("telestation-sim", bin_dir)
        self.stream_names = list(streams)
        self.tokens = [dict(t) for t in tokens]
        self.tls = tls
        self.extra_profile = dict(profile or {})
        self.extra_stream = dict(stream_profile or {})
        self.duration = duration
        self.startup_timeout = startup_timeout
        self.api_address = api_address
        self.directory: Optional[str] = None
        self.process: Optional[subprocess.Popen] = None
        self.api_port = 0
        self.stream_ports: Dict[str, int] = {}
        self._token = self.tokens[0]["token"] if self.tokens else None
        self._log = None

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.api_port}"

    def stream_url(self, stream: str = "tm") -> str:
        return f"udp://127.0.0.1:{self.stream_ports[stream]}"

    def client(self, **options) -> Client:
        """A Client of this station (with its first token, unless `token` is given)."""
        options.setdefault("token", self._token)
        if self.tls:
            with open(self.tls[0], "rb") as f:
                options.setdefault("root_certificates", f.read())
        return Client(self.target, **options)

    # ---- Start and stop ----------------------------------------------------------------------------------

    def start(self) -> "LocalStation":
        """Starts the station; returns once its API answers. A station that cannot start is stopped and
        its directory removed; the exception carries what it printed."""
        self.directory = tempfile.mkdtemp(prefix="telestation-")
        try:
            for attempt in range(3):  # a free port may be taken before the station binds it: new ports
                if self._start_once(attempt):
                    return self
                self._kill()
            raise RuntimeError(f"the station did not serve its API: {self.log()[-2000:]}")
        except BaseException:
            self.stop()
            raise

    def _start_once(self, attempt: int) -> bool:
        assert self.directory is not None
        self.api_port = free_port()
        self.stream_ports = {name: free_port(socket.SOCK_DGRAM) for name in self.stream_names}
        profile = {
            "recordingDirectory": os.path.join(self.directory, "recordings"),
            "logDirectory": os.path.join(self.directory, "logs"),
            "api": {"port": self.api_port, **({"tokens": self.tokens} if self.tokens else {}),
                    **({"address": self.api_address} if self.api_address else {}),
                    **({"tlsCertificate": self.tls[0], "tlsKey": self.tls[1]} if self.tls else {})},
            "streams": [{"name": n, "source": self.stream_url(n), "staleAfterSeconds": 0, **self.extra_stream}
                        for n in self.stream_names],
        }
        profile.update(self.extra_profile)
        path = os.path.join(self.directory, "profile.json")
        with open(path, "w") as f:
            json.dump(profile, f, indent=2)
        self._close_log()
        self._log = open(os.path.join(self.directory, f"station-{attempt}.log"), "wb")
        command = [self.telestation, "--headless", "--profile", path, "--quiet"]
        if self.duration:
            command += ["--duration", str(self.duration)]
        self.process = subprocess.Popen(command,
                                        stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        return wait_until(self._serving, self.startup_timeout, 0.1)

    def _serving(self) -> bool:
        """Whether our station answers on the API port (and not another process on the same port)."""
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"the station ended with {self.process and self.process.returncode}: "
                               f"{self.log()[-2000:]}")
        if "user API not served" in self.log():
            return False
        try:
            with self.client(timeout=5) as c:
                info = c.info()
        except TelestationError:
            return False
        sources = {s.name: s.source for s in info.streams}
        return all(sources.get(n) == self.stream_url(n) for n in self.stream_names)

    def log(self) -> str:
        """What the station printed so far."""
        if self._log is None:
            return ""
        self._log.flush()
        with open(self._log.name, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stop(self, timeout: float = 60.0, remove: bool = True) -> Optional[int]:
        """Stops the station (SIGTERM: it drains and writes its summary) and removes its directory (unless
        `remove` is False: its recordings stay for a look; a later stop() removes it).
        Returns its exit code (0: nothing lost; 3: something lost, dropped or malformed)."""
        code = None
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                code = self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self._kill()
        elif self.process is not None:
            code = self.process.returncode
        self.process = None
        self._close_log()
        if self.directory and remove:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None
        return code

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def _kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> "LocalStation":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # ---- Traffic and statistics ----------------------------------------------------------------------------

    def simulator_command(self, packets: Sequence[str] = ("Packet5",), count: Optional[int] = None,
                          rate: str = "2000pps", stream: str = "tm", duration: Optional[float] = None,
                          summary: Optional[str] = None) -> List[str]:
        command = [self.simulator, "--headless", "--dest", self.stream_url(stream), "--packet", ",".join(packets),
                   "--rate", rate]
        if count is not None:
            command += ["--count", str(count)]
        if duration is not None:
            command += ["--duration", str(duration)]
        if summary:
            command += ["--summary-out", summary]
        return command

    def send(self, packets: Sequence[str] = ("Packet5",), count: int = 100, rate: str = "2000pps",
             stream: str = "tm", timeout: float = 300.0, generators: Optional[dict] = None) -> dict:
        """Runs the simulator until it has sent `count` packets of `packets` (equal shares) to `stream`;
        returns its summary's total: {"sent": {"packets", "bytes"}, "apids": {"7": {"packets", ...}}, ...}.
        `generators`: the values of parameters, as a scenario's (docs/simulator.md), e.g.
        {"Packet5.COOLANT_FLOW_RATE": {"kind": "list", "values": [100, 160, 190]}} to cross limits."""
        assert self.directory is not None
        summary = os.path.join(self.directory, "simulator-summary.json")
        if generators:
            scenario = os.path.join(self.directory, "simulator-scenario.json")
            with open(scenario, "w") as f:
                json.dump({"streams": [{"name": "sim", "destination": self.stream_url(stream), "rate": rate,
                                        "count": count, "mix": [{"packet": p} for p in packets],
                                        "generators": generators}]}, f)
            command = [self.simulator, "--headless", "--scenario", scenario, "--summary-out", summary]
        else:
            command = self.simulator_command(packets, count, rate, stream, summary=summary)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
        with open(summary) as f:
            return json.load(f)["total"]

    def snapshot(self):
        """The station's statistics now (protobuf Statistics; .json holds the whole snapshot)."""
        with self.client() as c:
            with c.statistics(interval_ms=100) as stats:
                return next(iter(stats))

    def stream_statistics(self, stream: str = "tm"):
        """A stream's entry of the statistics now (protobuf StreamStatistics)."""
        return next(s for s in self.snapshot().streams if s.name == stream)

    def settle(self, packets: int, stream: str = "tm", timeout: float = 120.0) -> bool:
        """Waits until the stream has processed `packets` packets in all."""
        return wait_until(lambda: self.stream_statistics(stream).counters.packets_processed >= packets, timeout, 0.1)
