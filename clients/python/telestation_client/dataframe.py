"""to_pandas(): samples as a pandas DataFrame (pandas is imported only when it is called)."""
from __future__ import annotations

from typing import Iterable, Union

import numpy as np

from .samples import Sample, SampleBatch

#: The DataFrame's columns, in order.
COLUMNS = ("name", "stream", "receive_time", "packet_time", "raw", "converted", "calibrated", "state",
           "state_text", "limit", "present")


def _times(ns: np.ndarray, zero_is_none: bool):
    import pandas as pd

    ns = np.asarray(ns, dtype=np.int64)
    if zero_is_none:
        ns = np.where(ns == 0, np.iinfo(np.int64).min, ns)  # int64 min is NaT
    return pd.to_datetime(ns.view("datetime64[ns]")).tz_localize("UTC")


def to_pandas(samples: Union[SampleBatch, Iterable[SampleBatch], Iterable[Sample]]):
    """A DataFrame with a row per sample, in order: name, stream, receive_time and packet_time
    (datetime64[ns, UTC]; packet_time NaT for a packet without time), raw (uint64), converted (float64),
    calibrated (float64), state (int32), state_text, limit, present (bool).

    `samples`: a SampleBatch, or a finite iterable of SampleBatches or of Samples (a list, or a
    subscription ended by cancel() — not a live one, which never ends)."""
    import pandas as pd

    if isinstance(samples, SampleBatch):
        batches = [samples]
    else:
        items = list(samples)
        if items and isinstance(items[0], SampleBatch):
            batches = items
        else:
            return _from_samples(items)
    if not batches:
        return _from_samples([])

    def joined(get):
        return np.concatenate([get(b) for b in batches]) if len(batches) > 1 else get(batches[0])

    return pd.DataFrame({
        "name": joined(lambda b: b.name),
        "stream": joined(lambda b: b.stream),
        "receive_time": _times(joined(lambda b: b.receive_time_ns), False),
        "packet_time": _times(joined(lambda b: b.packet_time_ns), True),
        "raw": joined(lambda b: b.raw),
        "converted": joined(lambda b: b.converted),
        "calibrated": joined(lambda b: b.calibrated),
        "state": joined(lambda b: b.state),
        "state_text": joined(lambda b: b.state_text),
        "limit": joined(lambda b: b.limit),
        "present": joined(lambda b: b.present),
    }, columns=list(COLUMNS))


def _from_samples(samples: list):
    import pandas as pd

    fields = list(zip(*samples)) if samples else [()] * len(Sample._fields)
    f = dict(zip(Sample._fields, fields))

    def objects(values):
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out

    return pd.DataFrame({
        "name": objects(f["name"]),
        "stream": objects(f["stream"]),
        "receive_time": _times(np.array(f["receive_time_ns"], np.int64), False),
        "packet_time": _times(np.array(f["packet_time_ns"], np.int64), True),
        "raw": np.array(f["raw"], np.uint64),
        "converted": np.array(f["converted"], np.float64),
        "calibrated": np.array(f["calibrated"], np.float64),
        "state": np.array(f["state"], np.int32),
        "state_text": objects(f["state_text"]),
        "limit": objects(f["limit"]),
        "present": np.array(f["present"], bool),
    }, columns=list(COLUMNS))
