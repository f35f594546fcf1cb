"""Parameter samples over the API from a real station fed by the simulator: every sample in order (both
ways of reading agree), the station's statistics agree, the last values are the current values; newest
delivery; refused requests."""
from __future__ import annotations

import grpc
import numpy as np
import pytest

from helpers import deadline, take
from telestation_client import Client, TelestationError

NAMES = ["Packet5.CPU_LOAD", "Packet5.OPS_MODE", "HK_Status.BUS_VOLTAGE"]


def test_every_sample_arrives_in_order(station, client):
    samples = client.parameters(NAMES, capacity=1 << 20, max_batch=512)
    batches = client.parameter_batches(NAMES, capacity=1 << 20)
    # Both calls have the subscription in place once they return: no sample of what follows is missed.
    sent = station.send(["Packet5", "HK_Status"], count=4000, rate="4000pps")
    assert sent["sent"]["packets"] == 4000
    assert station.settle(4000)
    packet5, hk = sent["apids"]["7"]["packets"], sent["apids"]["100"]["packets"]
    expected = 2 * packet5 + hk

    got = take(samples, expected)
    assert len(got) == expected
    assert samples.delivered == expected and samples.dropped == 0
    names = [s.name for s in got]
    assert names.count("Packet5.CPU_LOAD") == packet5
    assert names.count("Packet5.OPS_MODE") == packet5
    assert names.count("HK_Status.BUS_VOLTAGE") == hk
    assert all(s.stream == "tm" and s.present for s in got)
    times = [s.receive_time_ns for s in got]
    assert times == sorted(times), "samples out of the order of their packets"
    cpu = [s for s in got if s.name == "Packet5.CPU_LOAD"]
    assert all(s.packet_time_ns > 0 and isinstance(s.converted, float) for s in cpu)
    assert [s.packet_time_ns for s in cpu] == sorted(s.packet_time_ns for s in cpu)
    ops = [s for s in got if s.name == "Packet5.OPS_MODE"]
    assert all(s.state >= 0 and s.state_text and isinstance(s.converted, int) for s in ops)
    bus = [s for s in got if s.name == "HK_Status.BUS_VOLTAGE"]
    assert all(s.state == -1 and s.state_text == "" for s in bus)

    # The columns of the other subscription hold the same values.
    with deadline(batches):
        columns, count = [], 0
        for batch in batches:
            columns.append(batch)
            count += len(batch)
            if count >= expected:
                break
    assert count == expected and batches.dropped == 0
    assert list(np.concatenate([b.name for b in columns])) == names
    assert np.concatenate([b.receive_time_ns for b in columns]).tolist() == times
    assert np.concatenate([b.calibrated for b in columns]).tolist() == [s.calibrated for s in got]
    assert np.concatenate([b.raw for b in columns]).tolist() == [s.raw for s in got]
    assert sum((b.converted_values() for b in columns), []) == [s.converted for s in got]
    assert np.concatenate([b.state_text for b in columns]).tolist() == [s.state_text for s in got]
    assert np.concatenate([b.limit for b in columns]).tolist() == [s.limit for s in got]

    # The station counts the same: every packet processed, both clients delivered all, nothing dropped.
    stats = station.snapshot()
    tm = next(s for s in stats.streams if s.name == "tm")
    assert tm.counters.packets_received == 4000 and tm.counters.packets_processed == 4000
    assert tm.counters.drops == 0 and tm.counters.packets_lost == 0
    ours = [c for c in stats.clients if c.kind == "parameters" and c.name.startswith("python-client (ipv4:")]
    assert len(ours) == 2
    assert all(c.delivered == expected and c.drops == 0 and c.delivery == "everySample" for c in ours)

    # The last sample of each parameter is the station's current value.
    current = client.current_values("tm", NAMES)
    assert set(current) == set(NAMES)
    for name in NAMES:
        assert current[name] == [s for s in got if s.name == name][-1]
    samples.cancel()
    batches.cancel()
    assert list(samples) == [] and list(batches) == []  # a cancelled subscription ends


def test_every_parameter_of_a_packet_type(station, client):
    db = client.mission_database()
    packet5 = next(t for t in db.packet_types if t.name == "Packet5")
    batches = client.parameter_batches(packet_types=["Packet5"], capacity=1 << 20)
    # The first message named every parameter of the type.
    assert batches.parameter_names.by_id == {p.id: p.qualified_name for p in packet5.parameters}
    station.send(["Packet5"], count=50, rate="1000pps")
    assert station.settle(50)
    count = 0
    with deadline(batches):
        for batch in batches:
            count += len(batch)
            assert set(batch.name.tolist()) <= set(batches.parameter_names.by_id.values())
            if count >= 50 * len(packet5.parameters):
                break
    assert count == 50 * len(packet5.parameters) == 50 * 88
    batches.cancel()


def test_newest_delivery(station, client):
    names = ["Packet5.CPU_LOAD", "HK_Status.BUS_VOLTAGE"]
    newest = client.parameter_batches(names, delivery="newest", rate_hz=5)
    sent = station.send(["Packet5", "HK_Status"], count=2000, rate="1000pps")
    assert station.settle(2000)
    current = client.current_values("tm", names)
    final = {n: current[n].receive_time_ns for n in names}
    seen, batches = {}, 0
    with deadline(newest):
        for batch in newest:
            batches += 1
            assert len(set(batch.name.tolist())) == len(batch), "a parameter twice in one newest batch"
            for name, t in zip(batch.name.tolist(), batch.receive_time_ns.tolist()):
                assert t >= seen.get(name, 0)
                seen[name] = t
            if seen == final:
                break
    assert seen == final, "the newest values never reached the station's current values"
    received = newest.delivered
    every_sample = sent["apids"]["7"]["packets"] + sent["apids"]["100"]["packets"]
    assert 0 < received < every_sample
    # (A newest parameter subscription is not in the station's statistics: it has no queue there.)
    newest.cancel()


def test_refused_requests_raise(station, client):
    with pytest.raises(TelestationError) as e:
        client.parameters(["Packet5.NO_SUCH"])
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(TelestationError) as e:
        client.parameter_batches(packet_types=["NoSuchPacket"])
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT and "NoSuchPacket" in e.value.details
    with pytest.raises(TelestationError) as e:
        client.current_values("tm", ["Packet5.NO_SUCH"])
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT and "Packet5.NO_SUCH" in e.value.details
    with pytest.raises(TelestationError) as e:
        client.current_values("nope", ["Packet5.CPU_LOAD"])
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(ValueError):
        client.parameters(NAMES, delivery="sometimes")
    assert client.current_values("tm", ["Packet5.CPU_LOAD"]) == {}  # no packet yet: no value
    assert station.process.poll() is None  # the station runs on


def test_unreachable_station_is_unavailable():
    from telestation_client.local import free_port

    with Client(f"127.0.0.1:{free_port()}", timeout=10) as nobody:
        with pytest.raises(TelestationError) as e:
            nobody.info()
    assert e.value.code == grpc.StatusCode.UNAVAILABLE
