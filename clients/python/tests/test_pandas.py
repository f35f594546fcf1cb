"""to_pandas(): the same frame from Samples and from SampleBatches, with the documented columns."""
from __future__ import annotations

import numpy as np
import pytest

from helpers import deadline, take
from telestation_client import to_pandas
from telestation_client.dataframe import COLUMNS

pd = pytest.importorskip("pandas")

NAMES = ["Packet5.CPU_LOAD", "Packet5.OPS_MODE", "HK_Status.BUS_VOLTAGE"]


def test_to_pandas(station, client):
    samples = client.parameters(NAMES, capacity=1 << 20)
    batches = client.parameter_batches(NAMES, capacity=1 << 20)
    sent = station.send(["Packet5", "HK_Status"], count=400, rate="2000pps")
    assert station.settle(400)
    expected = 2 * sent["apids"]["7"]["packets"] + sent["apids"]["100"]["packets"]
    got = take(samples, expected)
    assert len(got) == expected
    columns, count = [], 0
    with deadline(batches):
        for batch in batches:
            columns.append(batch)
            count += len(batch)
            if count >= expected:
                break

    frame = to_pandas(got)
    assert tuple(frame.columns) == COLUMNS and len(frame) == expected
    pd.testing.assert_frame_equal(frame, to_pandas(columns))
    assert str(frame["receive_time"].dtype) == "datetime64[ns, UTC]"
    assert frame["receive_time"].astype("int64").tolist() == [s.receive_time_ns for s in got]
    hk = frame[frame["name"] == "HK_Status.BUS_VOLTAGE"]
    assert hk["packet_time"].isna().all()  # HK_Status has no packet time
    cpu = frame[frame["name"] == "Packet5.CPU_LOAD"]
    assert cpu["packet_time"].notna().all()
    assert frame["raw"].dtype == np.uint64 and frame["calibrated"].dtype == np.float64
    assert frame["present"].all() and set(frame["stream"]) == {"tm"}
    assert frame["calibrated"].tolist() == [s.calibrated for s in got]
    assert len(to_pandas([])) == 0 and tuple(to_pandas([]).columns) == COLUMNS
    samples.cancel()
    batches.cancel()
