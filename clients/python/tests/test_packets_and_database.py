"""Packets arrive whole; the mission database and server info are the station's."""
from __future__ import annotations

from helpers import WAIT, client_entry, take
from telestation_client.local import wait_until


def test_packets_arrive_whole(station, client):
    packets = client.packets(stream="tm", packet_type="HK_Status", capacity=65536)
    # The station sends nothing before the first packet: the subscription is in place once listed.
    assert wait_until(lambda: client_entry(station, "packets") is not None, WAIT, 0.1)
    sent = station.send(["Packet5", "HK_Status"], count=1000, rate="2000pps")
    assert station.settle(1000)
    hk = sent["apids"]["100"]
    got = take(packets, hk["packets"])
    assert len(got) == hk["packets"]
    assert sum(len(p.frame) for p in got) == hk["bytes"]
    for p in got:
        assert (p.packet_type, p.apid, p.stream, p.transport_header_bytes) == ("HK_Status", 100, "tm", 0)
        assert len(p.frame) == hk["bytes"] // hk["packets"] and p.receive_time_ns > 0
        assert ((p.frame[0] & 0x07) << 8 | p.frame[1]) == 100  # the space packet's own APID
        assert p.space_packet == p.frame
    sequence = [((p.frame[2] & 0x3F) << 8) | p.frame[3] for p in got]
    assert sequence == [(sequence[0] + i) % 16384 for i in range(len(got))]  # in order, none missing
    assert packets.delivered == hk["packets"] and packets.dropped == 0
    packets.cancel()


def test_mission_database_and_server_info(station, client):
    info = client.info()
    assert info.schema_major == 1 and info.station_version
    assert [(s.name, s.source, s.running) for s in info.streams] == [("tm", station.stream_url("tm"), True)]
    db = client.mission_database()
    assert db.name == info.mission
    types = {t.name: t for t in db.packet_types}
    assert types["Packet5"].apid == 7 and len(types["Packet5"].parameters) == 88
    assert types["HK_Status"].apid == 100
    ids = [p.id for t in db.packet_types for p in t.parameters]
    assert len(ids) == len(set(ids))
    for t in db.packet_types:
        for p in t.parameters:
            assert p.qualified_name == f"{t.name}.{p.name}"
    bus = next(p for p in types["HK_Status"].parameters if p.name == "BUS_VOLTAGE")
    assert bus.units and bus.calibrator.WhichOneof("kind") == "polynomial"
    ops = next(p for p in types["Packet5"].parameters if p.name == "OPS_MODE")
    assert ops.calibrator.WhichOneof("kind") == "enumeration" and len(ops.calibrator.enumeration.states) > 1
