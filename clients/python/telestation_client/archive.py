"""`Archive`: queries over a station's recordings (service Archive of station.proto) — what was
recorded, and the recorded parameters (decoded with the station's current mission database) or packets
by time range, stream, segment and packet type. Reached as `Client.archive`.

Results stream in batches: the station holds one batch per query whatever the range, and so can this
client (parameter_batches(), to_parquet()); parameters() gathers a whole DataFrame."""
from __future__ import annotations

import datetime as _dt
from typing import Dict, Iterable, Optional, Union

import grpc

from ._proto import station_pb2 as pb
from ._proto import station_pb2_grpc as pb_grpc
from .errors import TelestationError
from .subscriptions import Packets, SampleBatches

#: A time: ns since 1970 (int), a datetime (naive ones are UTC), a pandas Timestamp, or ISO-8601 text.
Time = Union[int, _dt.datetime, str, None]
Names = Union[str, Iterable[str], None]

SUMMARY_KEY = "telestation-archive-summary"
DAMAGE_KEY = "telestation-archive-damage"


def time_ns(value: Time) -> int:
    """`value` as ns since 1970 UTC; None is 0 (an open end)."""
    if value is None:
        return 0
    if isinstance(value, bool):
        raise TypeError("a time is ns (int), a datetime or ISO-8601 text, not a bool")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            import pandas as pd  # parses nanoseconds
        except ImportError:
            value = _dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        else:
            value = pd.Timestamp(value.strip())
    if hasattr(value, "value") and hasattr(value, "tz_localize"):  # pandas.Timestamp: exact ns
        return int((value if value.tzinfo is not None else value.tz_localize("UTC")).value)
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        delta = value - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
        return (delta.days * 86400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000
    raise TypeError(f"a time is ns (int), a datetime or ISO-8601 text, not {type(value).__name__}")


def _list(names: Names) -> list:
    if names is None:
        return []
    return [names] if isinstance(names, str) else list(names)


def _summary(call) -> Dict[str, object]:
    """The trailing summary of a finished query: read, decoded, unknown, malformed, packets, samples
    (ints) and damage (text, "" when none)."""
    out: Dict[str, object] = {"damage": ""}
    try:
        metadata = call.trailing_metadata() or ()
    except Exception:  # pragma: no cover - a call that never started
        return out
    for key, value in metadata:
        if key == SUMMARY_KEY:
            for item in str(value).split():
                name, _, number = item.partition("=")
                if number.isdigit():
                    out[name] = int(number)
        elif key == DAMAGE_KEY:
            out["damage"] = str(value)
    return out


class ArchiveBatches(SampleBatches):
    """Recorded parameter samples as `SampleBatch`es, in receive-time order; ends with the query.
    `summary` (after the end): what the station read (see Archive.parameters)."""

    @property
    def summary(self) -> Dict[str, object]:
        return _summary(self._call)


class ArchivePackets(Packets):
    """Recorded packets, in receive-time order; ends with the query. `summary` as ArchiveBatches'."""

    @property
    def summary(self) -> Dict[str, object]:
        return _summary(self._call)


class Archive:
    """Queries over the station's recordings; see the module's text. Times are `Time`s; `start` and
    `stop` are inclusive receive times, None = open end."""

    def __init__(self, channel, metadata: tuple, timeout: Optional[float]) -> None:
        self._metadata = metadata
        self._timeout = timeout
        #: The generated gRPC stub of the Archive service.
        self.stub = pb_grpc.ArchiveStub(channel)
        # Parameter batches as bytes: the client's column decoder reads them (as for live samples).
        self._query_parameters = channel.unary_stream(
            "/telestation.v1.Archive/QueryParameters",
            request_serializer=pb.ArchiveParametersRequest.SerializeToString, response_deserializer=None)

    def recordings(self) -> pb.RecordingList:
        """The station's recording directory and its segments (protobuf RecordingList: directory,
        segments[file, stream, sequence, first_time_ns, last_time_ns, packets, bytes, state, problem])."""
        try:
            return self.stub.ListRecordings(pb.ListRecordingsRequest(), metadata=self._metadata, timeout=self._timeout)
        except grpc.RpcError as e:
            raise TelestationError.from_rpc(e) from None

    def parameter_batches(self, names: Names = None, start: Time = None, stop: Time = None, streams: Names = None,
                          packet_types: Names = None, segments: Names = None, max_batch: int = 0,
                          transport_header_bytes: int = 0) -> ArchiveBatches:
        """Recorded samples of `names` ("PACKET.PARAMETER") and of every parameter of `packet_types`
        (neither: every parameter) between `start` and `stop`, from `streams` and `segments` (file names
        as recordings() lists them; None = all), as SampleBatches of up to `max_batch` samples (0 = 4096).
        `transport_header_bytes`: bytes recorded before each space packet. A name the mission does not
        have, or a stream the recordings do not have, raises TelestationError (INVALID_ARGUMENT); no
        recordings at all: NOT_FOUND."""
        request = pb.ArchiveParametersRequest(
            start_ns=time_ns(start), stop_ns=time_ns(stop), streams=_list(streams), parameters=_list(names),
            packet_types=_list(packet_types), segments=_list(segments), max_batch=max_batch,
            transport_header_bytes=transport_header_bytes)
        return ArchiveBatches(self._query_parameters(request, metadata=self._metadata))

    def parameters(self, names: Names = None, start: Time = None, stop: Time = None, **options):
        """parameter_batches() gathered into one pandas DataFrame (the columns of `to_pandas`: name, stream,
        receive_time, packet_time, raw, converted, calibrated, state, state_text, limit, present). Its
        `attrs["archive"]` is the query's summary: packets read, decoded, unknown and malformed, packets
        and samples returned, and the damaged segments' text ("" when none)."""
        from .dataframe import to_pandas

        batches = self.parameter_batches(names, start, stop, **options)
        frame = to_pandas(list(batches))
        frame.attrs["archive"] = batches.summary
        return frame

    def to_parquet(self, path: str, names: Names = None, start: Time = None, stop: Time = None, **options) -> int:
        """Writes the query's samples to a Parquet file batch by batch (memory stays one batch whatever the
        range); the columns are parameters()'s. Returns the number of samples. Needs pyarrow
        (`pip install "telestation-client[parquet]"`)."""
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise ImportError('Archive.to_parquet needs pyarrow: pip install "telestation-client[parquet]"') from None
        from .dataframe import to_pandas

        # One schema for every batch (from an empty frame's dtypes), so batches cannot disagree.
        schema = pa.Schema.from_pandas(to_pandas([]), preserve_index=False)
        writer = pq.ParquetWriter(path, schema)
        count = 0
        try:
            for batch in self.parameter_batches(names, start, stop, **options):
                writer.write_table(pa.Table.from_pandas(to_pandas(batch), schema=schema, preserve_index=False))
                count += len(batch)
        finally:
            writer.close()
        return count

    def packets(self, start: Time = None, stop: Time = None, streams: Names = None, packet_types: Names = None,
                segments: Names = None, max_batch: int = 0, transport_header_bytes: int = 0) -> ArchivePackets:
        """The recorded packets (`packet_types`: names or "unknown"; None = all) between `start` and
        `stop`, one `Packet` at a time (batches(): a list per message), in receive-time order. A
        Packet's frame is the recorded space packet (after `transport_header_bytes`)."""
        request = pb.ArchivePacketsRequest(
            start_ns=time_ns(start), stop_ns=time_ns(stop), streams=_list(streams), packet_types=_list(packet_types),
            segments=_list(segments), max_batch=max_batch, transport_header_bytes=transport_header_bytes)
        return ArchivePackets(self.stub.QueryPackets(request, metadata=self._metadata))
