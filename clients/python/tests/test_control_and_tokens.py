"""Control calls change the running station; tokens refuse what they must."""
from __future__ import annotations

import json

import grpc
import pytest

from helpers import CONTROLLER, READER, STATION_SECONDS, WAIT, client_entry, self_signed_certificate, take
from telestation_client import TelestationError
from telestation_client.local import LocalStation, wait_until


def packet_type(station, name, stream="tm"):
    snapshot = json.loads(station.snapshot().json)
    s = next(s for s in snapshot["streams"] if s["name"] == stream)
    return next(t for t in s["packetTypes"] if t["name"] == name)


def test_control_changes_the_mode(station, client):
    # The statistics list a packet type once it has come (or has settings).
    station.send(["Packet5"], count=10, rate="2000pps")
    assert station.settle(10)
    assert packet_type(station, "Packet5")["mode"] == "processEntirePacket"
    decoded = station.stream_statistics().counters.parameters_decoded
    assert decoded == 10 * 88
    done = client.set_mode("tm", "Packet5", "passThru")
    assert "passThru" in done
    assert packet_type(station, "Packet5")["mode"] == "passThru"

    # Pass thru: packets reach packet clients, no parameter is decoded for parameter clients.
    values = client.parameter_batches(["Packet5.CPU_LOAD"], capacity=1 << 20)
    packets = client.packets(stream="tm", packet_type="Packet5", capacity=65536)
    assert wait_until(lambda: client_entry(station, "packets") is not None, WAIT, 0.1)
    station.send(["Packet5"], count=200, rate="2000pps")
    assert station.settle(210)
    assert len(take(packets, 200)) == 200
    entry = client_entry(station, "parameters")
    assert entry.delivered == 0 and entry.queue_depth == 0
    assert station.stream_statistics().counters.parameters_decoded == decoded

    # Back to process entire packet: the next packets' samples arrive.
    assert "processEntirePacket" in client.set_mode("tm", "Packet5", "processEntirePacket")
    station.send(["Packet5"], count=100, rate="2000pps")
    assert station.settle(310)
    got = 0
    for batch in values:
        got += len(batch)
        if got >= 100:
            break
    assert got == 100 and values.delivered == 100

    assert "record on" in client.set_packet_settings("tm", "Packet5", record=True)
    assert packet_type(station, "Packet5")["record"] is True
    with pytest.raises(ValueError):
        client.set_mode("tm", "Packet5", "fast")
    with pytest.raises(TelestationError) as e:
        client.set_mode("tm", "NoSuchPacket", "passThru")
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    values.cancel()
    packets.cancel()


def test_stop_and_start_a_stream(station, client):
    assert "stopped" in client.stop_stream("tm")
    assert not client.info().streams[0].running
    with pytest.raises(TelestationError) as e:
        client.stop_stream("nope")
    assert e.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert "started" in client.start_stream("tm")
    assert client.info().streams[0].running


def test_resume_recording_when_nothing_stopped(station, client):
    # The full disk itself: tests/integration/tst_rpc_recording_full.cpp (needs root to mount a tmpfs).
    assert "nothing to resume" in client.resume_recording()


def test_tokens_refuse_what_they_must(bin_dir):
    with LocalStation(bin_dir, tokens=[READER, CONTROLLER], duration=STATION_SECONDS) as station:
        def code(call):
            try:
                call()
            except TelestationError as e:
                return e.code
            return grpc.StatusCode.OK

        with station.client(token=None) as anonymous:
            assert code(anonymous.info) == grpc.StatusCode.UNAUTHENTICATED
            assert code(lambda: anonymous.parameters(["Packet5.CPU_LOAD"])) == grpc.StatusCode.UNAUTHENTICATED
            assert code(lambda: next(iter(anonymous.packets()))) == grpc.StatusCode.UNAUTHENTICATED
        with station.client(token="a-guess-of-20-chars!") as stranger:
            assert code(stranger.mission_database) == grpc.StatusCode.UNAUTHENTICATED
        with station.client(token=READER["token"]) as reader:
            assert code(reader.info) == grpc.StatusCode.OK
            assert code(lambda: reader.stop_stream("tm")) == grpc.StatusCode.PERMISSION_DENIED
            assert code(lambda: reader.set_mode("tm", "Packet5", "passThru")) == grpc.StatusCode.PERMISSION_DENIED
            assert code(reader.resume_recording) == grpc.StatusCode.PERMISSION_DENIED
            assert reader.info().streams[0].running
        with station.client(token=CONTROLLER["token"]) as controller:
            assert code(lambda: controller.stop_stream("tm")) == grpc.StatusCode.OK
            assert not controller.info().streams[0].running


def test_tls(bin_dir, tmp_path):
    tls = self_signed_certificate(tmp_path)
    with LocalStation(bin_dir, tokens=[CONTROLLER], tls=tls, duration=STATION_SECONDS) as station:
        with station.client() as c:  # TLS, trusting the certificate
            assert c.info().streams[0].name == "tm"
            values = c.parameter_batches(["HK_Status.BUS_VOLTAGE"])
            station.send(["HK_Status"], count=20)
            assert station.settle(20)
            assert sum(len(b) for b in take(values, 1)) > 0
            values.cancel()
        with station.client(root_certificates=None) as plain:  # no TLS: the station does not answer it
            with pytest.raises(TelestationError) as e:
                plain.info()
            assert e.value.code == grpc.StatusCode.UNAVAILABLE
