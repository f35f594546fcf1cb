"""What the client hands out: `Sample` (one parameter value), `SampleBatch` (one message's samples as
numpy columns: the fast path) and `Packet` (one packet as received)."""
from __future__ import annotations

from functools import partial
from typing import Dict, List, NamedTuple, Union

import numpy as np

from ._wire import Columns

#: A sample's `limit`, by the schema's LimitState number (the station's own words, as its displays say).
LIMIT_NAMES = ("none", "normal", "yellow low", "yellow high", "red low", "red high", "unexpected state", "invalid")
_LIMIT_TABLE = np.array(list(LIMIT_NAMES) + ["unknown"] * (256 - len(LIMIT_NAMES)), dtype=object)

# converted_kind: the `converted` oneof's field number.
_UNSIGNED, _SIGNED, _FLOAT, _LENGTH = 6, 7, 8, 9


class Sample(NamedTuple):
    """One parameter value as the station decoded it.

    Times are nanoseconds since the Unix epoch (UTC); `packet_time_ns` is 0 when the packet has no time.
    `converted` is an int (integer types; strings and byte fields: their length in bytes) or a float.
    `state` is an enumeration's state index (-1: none) and `state_text` its text; `limit` is one of
    LIMIT_NAMES; `present` is False when the packet was too short to hold the parameter."""

    name: str
    stream: str
    packet_time_ns: int
    receive_time_ns: int
    raw: int
    converted: Union[int, float]
    calibrated: float
    state: int
    state_text: str
    limit: str
    present: bool


_make_sample = partial(tuple.__new__, Sample)


class Packet(NamedTuple):
    """One packet as the station received it: `frame` is the transport header (`transport_header_bytes`
    long) then the space packet; `packet_type` is "" for a packet the mission database does not define."""

    frame: bytes
    transport_header_bytes: int
    receive_time_ns: int
    stream: str
    apid: int
    packet_type: str

    @property
    def space_packet(self) -> bytes:
        """The space packet without the transport header."""
        return self.frame[self.transport_header_bytes:]


class NameTable:
    """Names by id, as a subscription learns them (once per call): looked up a whole column at a time."""

    def __init__(self) -> None:
        self._names = np.full(16, None, dtype=object)
        self.by_id: Dict[int, str] = {}

    def add(self, pairs) -> None:
        for i, name in pairs:
            if i >= len(self._names):
                grown = np.full(max(i + 1, 2 * len(self._names)), None, dtype=object)
                grown[:len(self._names)] = self._names
                self._names = grown
            self._names[i] = name
            self.by_id[i] = name

    def lookup(self, ids: np.ndarray) -> np.ndarray:
        """The names of `ids` (None for an id never named)."""
        if len(ids) and int(ids.max()) >= len(self._names):
            self.add([(int(ids.max()), None)])
        return self._names[ids]


class SampleBatch:
    """One message's samples as numpy columns (the fast path): each attribute has one entry per sample.

    Arrays: parameter_id, stream_id, packet_time_ns, receive_time_ns (int64), raw (uint64), calibrated
    (float64), state (int32), present (bool), limit_code (uint8: the LimitState number).
    Computed on first use: name, stream, limit, state_text (object arrays of str), converted (float64:
    the converted value as a float, exact for floats and for integers below 2**53; `samples()` gives
    exact ints). `dropped` and `delivered` are the subscription's counts as of this batch."""

    def __init__(self, columns: Columns, parameter_names: NameTable, stream_names: NameTable) -> None:
        a = columns.arrays
        self.parameter_id: np.ndarray = a["parameter_id"]
        self.stream_id: np.ndarray = a["stream_id"]
        self.packet_time_ns: np.ndarray = a["packet_time_ns"]
        self.receive_time_ns: np.ndarray = a["receive_time_ns"]
        self.raw: np.ndarray = a["raw"]
        self.calibrated: np.ndarray = a["calibrated"]
        self.state: np.ndarray = a["state"]
        self.present: np.ndarray = a["present"].view(bool)
        self.limit_code: np.ndarray = a["limit"]
        self.converted_kind: np.ndarray = a["converted_kind"]
        self.converted_bits: np.ndarray = a["converted_bits"]
        self.dropped: int = columns.dropped
        self.delivered: int = columns.delivered
        self._columns = columns
        self._parameter_names = parameter_names
        self._stream_names = stream_names
        self._cache: Dict[str, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self.parameter_id)

    def __repr__(self) -> str:
        return f"<SampleBatch of {len(self)} samples, delivered {self.delivered}, dropped {self.dropped}>"

    def _cached(self, key: str, make) -> np.ndarray:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @property
    def name(self) -> np.ndarray:
        """Each sample's parameter name ("PACKET.PARAMETER")."""
        return self._cached("name", lambda: self._parameter_names.lookup(self.parameter_id))

    @property
    def stream(self) -> np.ndarray:
        """Each sample's stream name."""
        return self._cached("stream", lambda: self._stream_names.lookup(self.stream_id))

    @property
    def limit(self) -> np.ndarray:
        """Each sample's limit state, one of LIMIT_NAMES."""
        return self._cached("limit", lambda: _LIMIT_TABLE[self.limit_code])

    @property
    def state_text(self) -> np.ndarray:
        """Each sample's enumeration state text ("" when none)."""
        return self._cached("state_text", self._state_text)

    @property
    def converted(self) -> np.ndarray:
        """Each sample's converted value as a float64."""
        return self._cached("converted", self._converted_floats)

    def _state_text(self) -> np.ndarray:
        c = self._columns
        if c.state_text is not None:
            return c.state_text
        texts = np.full(len(self), "", dtype=object)
        offsets = c.arrays["state_text_offset"]
        lengths = c.arrays["state_text_length"]
        where = np.flatnonzero(lengths)
        if len(where):
            # One decode per distinct (parameter, state): the same texts repeat in every packet.
            keys = (self.parameter_id[where].astype(np.uint64) << np.uint64(32)) | self.state[where].view(np.uint32)
            unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
            data = c.data
            assert data is not None
            decoded = np.array([data[o:o + n].decode("utf-8", "replace")
                                for o, n in zip(offsets[where[first]].tolist(), lengths[where[first]].tolist())],
                               dtype=object)
            texts[where] = decoded[inverse]
        return texts

    def _converted_floats(self) -> np.ndarray:
        kind, bits = self.converted_kind, self.converted_bits
        out = bits.astype(np.float64)  # unsigned and length
        signed = kind == _SIGNED
        if signed.any():
            out[signed] = bits[signed].view(np.int64)
        floats = kind == _FLOAT
        if floats.any():
            out[floats] = bits[floats].view(np.float64)
        return out

    def converted_values(self) -> list:
        """Each sample's converted value exactly: a Python int or float."""
        kind, bits = self.converted_kind, self.converted_bits
        if len(kind) == 0:
            return []
        first = kind[0]
        if (kind == first).all():  # one type in the whole batch: one conversion
            return _view(bits, first).tolist()
        out = np.empty(len(kind), dtype=object)
        for k in np.unique(kind).tolist():
            where = kind == k
            out[where] = _view(bits[where], k).tolist()
        return out.tolist()

    def samples(self) -> List[Sample]:
        """The batch as `Sample`s, in order."""
        return list(map(_make_sample, zip(
            self.name.tolist(), self.stream.tolist(), self.packet_time_ns.tolist(), self.receive_time_ns.tolist(),
            self.raw.tolist(), self.converted_values(), self.calibrated.tolist(), self.state.tolist(),
            self.state_text.tolist(), self.limit.tolist(), self.present.tolist())))


def _view(bits: np.ndarray, kind: int) -> np.ndarray:
    if kind == _FLOAT:
        return bits.view(np.float64)
    if kind == _SIGNED:
        return bits.view(np.int64)
    return bits

