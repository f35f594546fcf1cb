"""The C decoder and protobuf's parse give the same columns, for every kind of value and for fields a
newer schema may add (no station needed)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from telestation_client import _wire
from telestation_client import station_pb2 as pb
from telestation_client.samples import NameTable, SampleBatch


def batch_bytes() -> bytes:
    batch = pb.ParameterBatch(dropped=7, delivered=123456789012)
    batch.parameter_names.add(id=3, name="Packet5.CPU_LOAD")
    batch.parameter_names.add(id=70000, name="Ünïcode.NAME")
    batch.stream_names.add(id=0, name="tm")
    batch.stream_names.add(id=65535, name="last")
    add = batch.samples.add
    add(parameter_id=3, stream_id=0, packet_time_ns=1, receive_time_ns=2, raw=3, float_value=1.5, calibrated=1.5,
        state=-1, limit=pb.LIMIT_STATE_RED_HIGH, present=True)
    add(parameter_id=70000, stream_id=65535, receive_time_ns=-5, raw=2**64 - 1, unsigned_value=2**64 - 1,
        calibrated=float("nan"), state=2, state_text="STANDBY", limit=pb.LIMIT_STATE_NORMAL, present=True)
    add(parameter_id=3, signed_value=-(2**63), calibrated=-0.0, state=2, state_text="STANDBY")
    add(parameter_id=3, length=12, state=0, state_text="ZERO ÄÖ")
    add()  # every field at its default: nothing on the wire
    add(float_value=0.0, calibrated=float("inf"), state=2**31 - 1)
    return batch.SerializeToString()


def assert_same(a: _wire.Columns, b: _wire.Columns) -> None:
    for name, _ in _wire._COLUMNS:
        if name.startswith("state_text"):
            continue
        assert np.array_equal(a.arrays[name], b.arrays[name], equal_nan=name == "calibrated"), name
    assert (a.parameter_names, a.stream_names, a.dropped, a.delivered) == \
        (b.parameter_names, b.stream_names, b.dropped, b.delivered)
    tables = NameTable(), NameTable()
    tables[0].add(a.parameter_names)
    tables[1].add(a.stream_names)
    x, y = SampleBatch(a, *tables), SampleBatch(b, *tables)
    assert x.state_text.tolist() == y.state_text.tolist()
    assert [repr(s) for s in x.samples()] == [repr(s) for s in y.samples()]


needs_c = pytest.mark.skipif(not _wire.FAST, reason="the C decoder was not built")


@needs_c
def test_c_decoder_agrees_with_protobuf():
    data = batch_bytes()
    c, p = _wire.decode_c(data), _wire.decode_protobuf(data)
    assert_same(c, p)
    assert c.dropped == 7 and c.delivered == 123456789012
    assert c.parameter_names == [(3, "Packet5.CPU_LOAD"), (70000, "Ünïcode.NAME")]
    tables = NameTable(), NameTable()
    tables[0].add(c.parameter_names)
    tables[1].add(c.stream_names)
    samples = SampleBatch(c, *tables).samples()
    assert samples[0].converted == 1.5 and samples[0].limit == "red high" and samples[0].state == -1
    assert samples[1].converted == 2**64 - 1 and samples[1].raw == 2**64 - 1 and math.isnan(samples[1].calibrated)
    assert samples[1].name == "Ünïcode.NAME" and samples[1].stream == "last" and samples[1].receive_time_ns == -5
    assert samples[2].converted == -(2**63) and samples[2].state_text == "STANDBY"
    assert samples[3].converted == 12 and samples[3].state_text == "ZERO ÄÖ"
    assert samples[4] == (None, "tm", 0, 0, 0, 0, 0.0, 0, "", "none", False)
    assert samples[5].converted == 0.0 and isinstance(samples[5].converted, float) and samples[5].state == 2**31 - 1


@needs_c
def test_fields_a_newer_schema_adds_are_skipped():
    sample = pb.ParameterSample(parameter_id=3, raw=9, calibrated=2.5, present=True).SerializeToString()
    # Unknown fields of every wire type, in a sample and in the batch: 15 varint, 16 fixed64, 17 bytes, 18 fixed32.
    unknown = bytes([0x78, 0x96, 0x01]) + bytes([0x81, 0x01]) + bytes(8) + bytes([0x8A, 0x01, 0x02, 0x41, 0x42]) + \
        bytes([0x95, 0x01]) + bytes(4)
    inner = sample + unknown
    data = bytes([0x1A, len(inner)]) + inner + unknown + bytes([0x20, 0x05])
    c, p = _wire.decode_c(data), _wire.decode_protobuf(data)
    assert_same(c, p)
    assert c.arrays["raw"].tolist() == [9] and c.dropped == 5


@needs_c
def test_broken_bytes_are_refused():
    data = batch_bytes()
    for broken in (data[:-3], b"\x1a\xff", b"\x07"):
        with pytest.raises(ValueError):
            _wire.decode_c(broken)


def test_protobuf_decoder_alone():
    columns = _wire.decode_protobuf(batch_bytes())
    assert columns.arrays["converted_kind"].tolist() == [8, 6, 7, 9, 0, 8]
    assert columns.state_text.tolist() == ["", "STANDBY", "STANDBY", "ZERO ÄÖ", "", ""]
