"""client.archive: queries over what the station recorded, compared with what it processed live."""
from __future__ import annotations

import os

import numpy as np
import pytest

from helpers import STATION_SECONDS, deadline, take
from telestation_client import TelestationError, to_pandas
from telestation_client.archive import time_ns
from telestation_client.local import LocalStation, wait_until

pd = pytest.importorskip("pandas")

NAMES = ["Packet5.CPU_LOAD", "Packet5.OPS_MODE", "HK_Status.BUS_VOLTAGE"]
RECORDED = {"packets": [{"packet": "Packet5", "record": True}, {"packet": "HK_Status", "record": True}]}


@pytest.fixture(scope="module")
def recorded(bin_dir):
    """A station that recorded a simulator run, and the samples and packets it processed live."""
    with LocalStation(bin_dir, duration=STATION_SECONDS, stream_profile=RECORDED) as station:
        with station.client() as client:
            live = client.parameter_batches(NAMES, capacity=1 << 20)
            hk = client.packets(packet_type="HK_Status", capacity=1 << 16)
            sent = station.send(["Packet5", "HK_Status"], count=1500, rate="3000pps")
            assert station.settle(1500)
            expected = 2 * sent["apids"]["7"]["packets"] + sent["apids"]["100"]["packets"]
            batches, count = [], 0
            with deadline(live):
                for batch in live:
                    batches.append(batch)
                    count += len(batch)
                    if count >= expected:
                        break
            assert count == expected
            frames = take(hk, sent["apids"]["100"]["packets"])
            assert len(frames) == sent["apids"]["100"]["packets"]
            # The recorder writes its buffers once a second: wait until the recording holds every packet.
            assert wait_until(lambda: sum(s.packets for s in client.archive.recordings().segments) >= 1500, 60.0)
            yield station, to_pandas(batches), frames


def test_recordings_lists_the_segments(recorded):
    station, _, _ = recorded
    with station.client() as client:
        listing = client.archive.recordings()
    assert listing.directory.endswith("recordings")
    assert {s.stream for s in listing.segments} == {"tm"}
    assert sum(s.packets for s in listing.segments) == station.stream_statistics().counters.packets_recorded


def test_parameters_equal_the_live_samples(recorded):
    station, live, _ = recorded
    with station.client() as client:
        frame = client.archive.parameters(NAMES)
    assert len(frame) == len(live)
    for column in ("name", "stream", "receive_time", "packet_time", "raw", "calibrated", "state", "limit"):
        assert frame[column].tolist() == live[column].tolist(), column
    summary = frame.attrs["archive"]
    assert summary["samples"] == len(live) and summary["unknown"] == 0 and summary["malformed"] == 0
    assert summary["damage"] == ""


def test_a_time_range_selects_exactly(recorded):
    station, live, _ = recorded
    times = live["receive_time"]
    start, stop = times.iloc[len(times) // 4], times.iloc[3 * len(times) // 4]
    inside = live[(times >= start) & (times <= stop)]
    with station.client() as client:
        by_timestamp = client.archive.parameters(NAMES, start=start, stop=stop)
        by_ns = client.archive.parameters(NAMES, start=time_ns(start), stop=time_ns(stop))
        by_text = client.archive.parameters(NAMES, start=start.isoformat(), stop=stop.isoformat())
    assert len(inside) > 0
    for frame in (by_timestamp, by_ns, by_text):
        assert frame["receive_time"].tolist() == inside["receive_time"].tolist()
        assert frame["calibrated"].tolist() == inside["calibrated"].tolist()


def test_packets_are_whole(recorded):
    station, _, frames = recorded
    with station.client() as client:
        packets = list(client.archive.packets(packet_types="HK_Status"))
    assert [p.frame for p in packets] == [p.frame for p in frames]
    assert [p.receive_time_ns for p in packets] == [p.receive_time_ns for p in frames]
    assert {p.stream for p in packets} == {"tm"}


def test_bad_queries_raise(recorded):
    station, _, _ = recorded
    with station.client() as client:
        with pytest.raises(TelestationError) as e:
            client.archive.parameters(["Packet5.NO_SUCH"])
        assert e.value.code.name == "INVALID_ARGUMENT" and "NO_SUCH" in e.value.details
        with pytest.raises(TelestationError) as e:
            client.archive.parameters(NAMES, streams=["nope"])
        assert "not in the recording" in e.value.details


def test_to_parquet(recorded, tmp_path):
    station, live, _ = recorded
    path = os.path.join(tmp_path, "archive.parquet")
    with station.client() as client:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            with pytest.raises(ImportError, match=r"telestation-client\[parquet\]"):
                client.archive.to_parquet(path, NAMES)
            return
        count = client.archive.to_parquet(path, NAMES, max_batch=500)
    assert count == len(live)
    back = pd.read_parquet(path)
    assert back["calibrated"].tolist() == live["calibrated"].tolist()
    assert np.array_equal(back["receive_time"].astype("int64"), live["receive_time"].astype("int64"))
