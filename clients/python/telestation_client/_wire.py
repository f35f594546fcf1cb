"""Decoding a ParameterBatch's bytes into columns: the C decoder (_wire.c, through ctypes) when it was
built, else protobuf. Both give the same `Columns`; `decode_parameter_batch` picks the C one."""
from __future__ import annotations

import ctypes
import importlib.machinery
import os
from dataclasses import dataclass
from typing import List, Optional, Tuple

import numpy as np

from ._proto import station_pb2

_u32 = ctypes.POINTER(ctypes.c_uint32)


class _Counts(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64)
                for name in ("samples", "parameter_names", "stream_names", "dropped", "delivered")]


# The columns, in the order of ts_columns in _wire.c: (name, numpy dtype).
_COLUMNS: Tuple[Tuple[str, type], ...] = (
    ("parameter_id", np.uint32),
    ("stream_id", np.uint32),
    ("packet_time_ns", np.int64),
    ("receive_time_ns", np.int64),
    ("raw", np.uint64),
    ("converted_kind", np.uint8),
    ("converted_bits", np.uint64),
    ("calibrated", np.float64),
    ("state", np.int32),
    ("state_text_offset", np.uint32),
    ("state_text_length", np.uint32),
    ("limit", np.uint8),
    ("present", np.uint8),
)


class _ColumnPointers(ctypes.Structure):
    _fields_ = [(name, ctypes.c_void_p) for name, _ in _COLUMNS]


class _NamePointers(ctypes.Structure):
    _fields_ = [("id", ctypes.c_void_p), ("offset", ctypes.c_void_p), ("length", ctypes.c_void_p)]


@dataclass
class Columns:
    """A batch's samples as arrays (one entry each) and the names it brings.

    `state_text` is either ready (an object array) or found later from the batch's bytes by offset and
    length (the C decoder's way: only enumerations have a text, and most callers never ask for it)."""

    arrays: dict
    parameter_names: List[Tuple[int, str]]
    stream_names: List[Tuple[int, str]]
    dropped: int
    delivered: int
    data: Optional[bytes] = None          # the batch's bytes, when state texts are read from them
    state_text: Optional[np.ndarray] = None


def _load() -> Optional[ctypes.CDLL]:
    if os.environ.get("TELESTATION_CLIENT_NO_C"):
        return None
    here = os.path.dirname(os.path.abspath(__file__))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(here, "_wire_c" + suffix)
        if os.path.exists(path):
            try:
                lib = ctypes.CDLL(path)
            except OSError:
                return None
            lib.ts_count.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_Counts)]
            lib.ts_count.restype = ctypes.c_int
            lib.ts_decode.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_ColumnPointers),
                                      ctypes.POINTER(_NamePointers), ctypes.POINTER(_NamePointers)]
            lib.ts_decode.restype = ctypes.c_int
            return lib
    return None


_lib = _load()
#: Whether batches are decoded by the C decoder (else by protobuf: the same columns, slower).
FAST = _lib is not None


def _names(data: bytes, table: Tuple[np.ndarray, np.ndarray, np.ndarray]) -> List[Tuple[int, str]]:
    ids, offsets, lengths = table
    return [(i, data[o:o + n].decode("utf-8", "replace"))
            for i, o, n in zip(ids.tolist(), offsets.tolist(), lengths.tolist())]


def decode_c(data: bytes) -> Columns:
    """The C decoder; raises ValueError when the bytes are not a ParameterBatch."""
    assert _lib is not None
    counts = _Counts()
    if _lib.ts_count(data, len(data), ctypes.byref(counts)) != 0:
        raise ValueError("not a telestation.v1.ParameterBatch")
    n = counts.samples
    arrays = {name: np.empty(n, dtype) for name, dtype in _COLUMNS}
    columns = _ColumnPointers(*(arrays[name].ctypes.data for name, _ in _COLUMNS))
    tables = []
    for count in (counts.parameter_names, counts.stream_names):
        tables.append(tuple(np.empty(count, np.uint32) for _ in range(3)))
    pointers = [_NamePointers(*(a.ctypes.data for a in t)) for t in tables]
    if _lib.ts_decode(data, len(data), ctypes.byref(columns), ctypes.byref(pointers[0]),
                      ctypes.byref(pointers[1])) != 0:
        raise ValueError("not a telestation.v1.ParameterBatch")
    return Columns(arrays, _names(data, tables[0]), _names(data, tables[1]), counts.dropped, counts.delivered,
                   data=data)


_KIND = {"unsigned_value": 6, "signed_value": 7, "float_value": 8, "length": 9}


def columns_from_samples(samples, dropped: int = 0, delivered: int = 0, parameter_names=(), stream_names=()) -> Columns:
    """Columns from protobuf ParameterSample messages (the decoder without C, and current values)."""
    n = len(samples)
    arrays = {name: np.zeros(n, dtype) for name, dtype in _COLUMNS}
    for name in ("parameter_id", "stream_id", "packet_time_ns", "receive_time_ns", "raw", "calibrated", "state",
                 "limit", "present"):
        arrays[name][:] = [getattr(s, name) for s in samples]
    kinds = [s.WhichOneof("converted") for s in samples]
    arrays["converted_kind"][:] = [_KIND.get(k, 0) for k in kinds]
    bits = arrays["converted_bits"]
    for kind, code in _KIND.items():
        where = [i for i, k in enumerate(kinds) if k == kind]
        if not where:
            continue
        values = [getattr(samples[i], kind) for i in where]
        if code == 8:
            bits[where] = np.array(values, np.float64).view(np.uint64)
        elif code == 7:
            bits[where] = np.array(values, np.int64).view(np.uint64)
        else:
            bits[where] = np.array(values, np.uint64)
    texts = np.empty(n, object)
    texts[:] = [s.state_text for s in samples]
    return Columns(arrays, [(e.id, e.name) for e in parameter_names], [(e.id, e.name) for e in stream_names],
                   dropped, delivered, state_text=texts)


def decode_protobuf(data: bytes) -> Columns:
    """The decoder without C: protobuf's parse, then one list per column."""
    batch = station_pb2.ParameterBatch.FromString(data)
    return columns_from_samples(batch.samples, batch.dropped, batch.delivered, batch.parameter_names,
                                batch.stream_names)


decode_parameter_batch = decode_c if FAST else decode_protobuf
