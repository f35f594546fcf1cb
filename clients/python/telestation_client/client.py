"""`Client`: a station's user API (gRPC, api/proto/telestation/v1/station.proto) from Python."""
from __future__ import annotations

from typing import Dict, Iterable, Optional, Sequence, Union

import grpc

from ._proto import station_pb2 as pb
from ._proto import station_pb2_grpc as pb_grpc
from ._wire import columns_from_samples
from .archive import Archive
from .errors import TelestationError
from .events import severity_number
from .samples import NameTable, SampleBatch, Sample
from .subscriptions import Alarms, Events, Messages, Packets, SampleBatches, Samples

_DELIVERY = {"every": pb.DELIVERY_EVERY_SAMPLE, "everySample": pb.DELIVERY_EVERY_SAMPLE, "newest": pb.DELIVERY_NEWEST}
#: The processing modes set_mode() and set_packet_settings() take (the profile's words).
MODES = {
    "passThru": pb.PROCESSING_MODE_PASS_THRU,
    "processOnDemand": pb.PROCESSING_MODE_PROCESS_ON_DEMAND,
    "processEntirePacket": pb.PROCESSING_MODE_PROCESS_ENTIRE_PACKET,
}

Names = Union[str, Iterable[str]]
Ids = Union[int, Iterable[int]]


def _names(names: Optional[Names]) -> list:
    if names is None:
        return []
    return [names] if isinstance(names, str) else list(names)


def _ids(ids: Optional[Ids]) -> list:
    if ids is None:
        return []
    return [int(ids)] if isinstance(ids, int) else [int(i) for i in ids]


def _delivery(delivery: str) -> int:
    try:
        return _DELIVERY[delivery]
    except KeyError:
        raise ValueError(f"delivery must be 'every' or 'newest', not {delivery!r}") from None


class Client:
    """A connection to a station's user API.

    `target` is "HOST:PORT" (the station profile's "api" section; 127.0.0.1:50051 by default). `token` is
    sent as "authorization: Bearer TOKEN" with every call (needed when the profile lists tokens);
    `root_certificates` (PEM bytes) makes the connection TLS, as a station off loopback requires.
    `client_name` is how the station's statistics and event log name this client. `timeout` (seconds)
    bounds every call that is not a subscription. Use it in a `with` block, or call close().
    """

    def __init__(self, target: str = "localhost:50051", token: Optional[str] = None,
                 root_certificates: Optional[bytes] = None, client_name: str = "python-client",
                 timeout: Optional[float] = 30.0) -> None:
        options = [("grpc.max_receive_message_length", -1)]  # a batch of large packets can pass 4 MiB
        if root_certificates is None:
            self._channel = grpc.insecure_channel(target, options=options)
        else:
            credentials = grpc.ssl_channel_credentials(root_certificates=root_certificates)
            self._channel = grpc.secure_channel(target, credentials, options=options)
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()
        self._client_name = client_name
        self._timeout = timeout
        #: The generated gRPC stub, for whatever this class does not offer.
        self.stub = pb_grpc.StationStub(self._channel)
        #: Queries over the station's recordings (`Archive`).
        self.archive = Archive(self._channel, self._metadata, timeout)
        # Parameter batches as bytes: decoded by the client's own column decoder, not message by message.
        self._subscribe_parameters = self._channel.unary_stream(
            "/telestation.v1.Station/SubscribeParameters",
            request_serializer=pb.SubscribeParametersRequest.SerializeToString, response_deserializer=None)

    @property
    def metadata(self) -> tuple:
        """The metadata every call sends (the token), for calls made through `stub`."""
        return self._metadata

    def close(self) -> None:
        """Closes the connection (its subscriptions end)."""
        self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _unary(self, method, request):
        try:
            return method(request, metadata=self._metadata, timeout=self._timeout)
        except grpc.RpcError as e:
            raise TelestationError.from_rpc(e) from None

    # ---- Server and mission database ----------------------------------------------------------------------

    def info(self) -> pb.ServerInfo:
        """The station's version, the schema's version, the mission's name and the streams (protobuf
        ServerInfo: station_version, schema_major, schema_minor, mission, streams[name, source, running, state])."""
        return self._unary(self.stub.GetServerInfo, pb.GetServerInfoRequest())

    def mission_database(self) -> pb.MissionDatabase:
        """The mission database the station decodes with, as the protobuf MissionDatabase: name, and
        packet_types[name, apid, length, …, parameters[id, name, qualified_name, data_type, units,
        calibrator, limits, …]] (station.proto describes every field)."""
        return self._unary(self.stub.GetMissionDatabase, pb.GetMissionDatabaseRequest())

    # ---- Parameters ---------------------------------------------------------------------------------------

    def parameter_batches(self, names: Optional[Names] = None, stream: str = "", delivery: str = "every",
                          rate_hz: Optional[float] = None, capacity: int = 0, packet_types: Names = (),
                          max_batch: int = 0) -> SampleBatches:
        """Parameter samples as they are processed, a `SampleBatch` (numpy columns) per message: the fast path.

        `names`: qualified names ("PACKET.PARAMETER"); `packet_types`: every parameter of these packet
        types; neither: every parameter. `stream`: one stream ("" = all). `delivery`: "every" (every
        sample, in order; the station buffers up to `capacity` samples for this client, 0 = the profile's
        processedParameterQueueSize in packets, and counts what it must drop) or "newest" (the newest value
        of each parameter whose packet came, `rate_hz` batches a second; the station's default is 10).
        `max_batch`: samples per message (0 = the station's default, 4096).

        Returns once the station has the subscription in place; a refused request raises TelestationError.
        """
        request = pb.SubscribeParametersRequest(
            client_name=self._client_name, stream=stream, parameters=_names(names),
            packet_types=_names(packet_types), delivery=_delivery(delivery), capacity=capacity,
            rate_hz=rate_hz or 0.0, max_batch=max_batch)
        return SampleBatches(self._subscribe_parameters(request, metadata=self._metadata))

    def parameters(self, names: Optional[Names] = None, stream: str = "", delivery: str = "every",
                   rate_hz: Optional[float] = None, capacity: int = 0, packet_types: Names = (),
                   max_batch: int = 0) -> Samples:
        """Parameter samples one `Sample` at a time; the arguments are parameter_batches()'s."""
        return Samples(self.parameter_batches(names, stream, delivery, rate_hz, capacity, packet_types, max_batch))

    def current_values(self, stream: str, names: Names) -> Dict[str, Sample]:
        """The newest value of each named parameter of `stream` now, by name (a parameter with no value yet
        is left out). A Process On Demand packet type's kept packet is decoded for it."""
        request = pb.GetCurrentValuesRequest(stream=stream, parameters=_names(names))
        reply = self._unary(self.stub.GetCurrentValues, request)
        parameters, streams = NameTable(), NameTable()
        columns = columns_from_samples(reply.samples, parameter_names=reply.parameter_names)
        parameters.add(columns.parameter_names)
        streams.add((int(i), stream) for i in set(columns.arrays["stream_id"].tolist()))
        return {s.name: s for s in SampleBatch(columns, parameters, streams).samples()}

    # ---- Packets and statistics ---------------------------------------------------------------------------

    def packets(self, stream: str = "", packet_type: str = "", delivery: str = "every",
                rate_hz: Optional[float] = None, capacity: int = 0, max_batch: int = 0) -> Packets:
        """Packets as received (transport header included), one `Packet` at a time (batches(): a list per
        message). `packet_type`: a packet type's name, "unknown", or "" for every type; the other
        arguments as for parameter_batches() (capacity in packets; max_batch default 1024).
        The subscription starts at the station's next processing batch; the station sends nothing until a
        packet comes, so a refused request raises on the first next()."""
        request = pb.SubscribePacketsRequest(
            client_name=self._client_name, stream=stream, packet_type=packet_type, delivery=_delivery(delivery),
            capacity=capacity, rate_hz=rate_hz or 0.0, max_batch=max_batch)
        return Packets(self.stub.SubscribePackets(request, metadata=self._metadata))

    def statistics(self, interval_ms: int = 1000) -> Messages[pb.Statistics]:
        """The station's statistics every `interval_ms` (at least 100), as protobuf Statistics: time_ns,
        uptime_seconds, totals, streams[name, state, running, counters], clients[name, kind, delivery,
        delivered, queue_depth, drops], and json (the whole snapshot: per packet type counters and modes)."""
        return Messages(self.stub.SubscribeStatistics(pb.SubscribeStatisticsRequest(interval_ms=interval_ms),
                                                      metadata=self._metadata))

    # ---- Events and alarms ------------------------------------------------------------------------------

    def events(self, after: int = 0, min_severity: Optional[str] = None, kinds: Optional[Names] = None,
               streams: Optional[Names] = None, history: bool = False) -> Events:
        """The station's events as they are reported, one `Event` at a time (docs/events.md).

        `after`: the events numbered after it (a number from an earlier call's `last_number`, same station
        run); 0: from now on — or, with `history`, starting with the events the station keeps (its newest
        1000). `min_severity`: only this severe or more ("info", "warning", "error", "critical").
        `kinds`: only these kinds ("sequenceGap", "limitViolation", "alarm", …; station.proto lists them).
        `streams`: only events of these streams ("" = the station's own events).

        Returns once the station has the subscription in place; a refused request (an unknown kind or
        stream, `after` beyond the newest event) raises TelestationError. Events the call was too late
        for are counted in `.missed`, never silently dropped."""
        request = pb.SubscribeEventsRequest(after=after, include_history=history, kinds=_names(kinds),
                                            streams=_names(streams))
        if min_severity is not None:
            request.min_severity = severity_number(min_severity)
        return Events(self.stub.SubscribeEvents(request, metadata=self._metadata))

    def alarms(self) -> Alarms:
        """The station's alarm list: an `AlarmList` (alarms and their counts) at once, then another
        whenever the list changes."""
        return Alarms(self.stub.SubscribeAlarms(pb.SubscribeAlarmsRequest(), metadata=self._metadata))

    # ---- Control (a control token when the station has tokens) ---------------------------------------------

    def acknowledge_alarms(self, ids: Optional[Ids] = None, all: bool = False, comment: str = "") -> str:
        """Acknowledges the alarms `ids` (Alarm.id; one or several), or with `all` every unacknowledged
        alarm, shelved ones included. The station records this client and the `comment` with each. An alarm
        not listed raises TelestationError NOT_FOUND, one already acknowledged FAILED_PRECONDITION (and
        then nothing is acknowledged). Returns what the station did."""
        alarm_ids = _ids(ids)
        if bool(alarm_ids) == bool(all):
            raise ValueError("give the alarms' ids or all=True, not both")
        request = pb.AcknowledgeAlarmsRequest(client_name=self._client_name, ids=alarm_ids, all=all, comment=comment)
        return self._unary(self.stub.AcknowledgeAlarms, request).message

    def shelve_alarms(self, ids: Ids, seconds: int, comment: str = "") -> str:
        """Shelves the alarms `ids` for `seconds` (above 0): out of the counts until then or until
        unshelved. Returns what the station did."""
        request = pb.ShelveAlarmsRequest(client_name=self._client_name, ids=_ids(ids), duration_seconds=seconds,
                                         comment=comment)
        return self._unary(self.stub.ShelveAlarms, request).message

    def unshelve_alarms(self, ids: Ids) -> str:
        """Brings shelved alarms back at once (one not shelved raises FAILED_PRECONDITION). Returns what the
        station did."""
        request = pb.UnshelveAlarmsRequest(client_name=self._client_name, ids=_ids(ids))
        return self._unary(self.stub.UnshelveAlarms, request).message

    def set_packet_settings(self, stream: str, packet_type: str, mode: Optional[str] = None,
                            record: Optional[bool] = None, forward: Optional[Sequence[str]] = None) -> str:
        """Changes a packet type's settings on a stream, live: `mode` (one of MODES), `record`, `forward`
        (destination URLs; [] forwards nowhere). None keeps a setting. Returns what the station did."""
        request = pb.SetPacketSettingsRequest(client_name=self._client_name, stream=stream, packet_type=packet_type)
        if mode is not None:
            if mode not in MODES:
                raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
            request.mode = MODES[mode]
        if record is not None:
            request.record = record
        if forward is not None:
            request.set_forward = True
            request.forward.extend(forward)
        return self._unary(self.stub.SetPacketSettings, request).message

    def set_mode(self, stream: str, packet_type: str, mode: str) -> str:
        """Sets a packet type's processing mode on a stream: "passThru", "processOnDemand" or
        "processEntirePacket". Returns what the station did."""
        return self.set_packet_settings(stream, packet_type, mode=mode)

    def start_stream(self, name: str) -> str:
        """Starts a stream. Returns what the station did."""
        return self._unary(self.stub.StartStream, pb.StreamRequest(client_name=self._client_name, stream=name)).message

    def stop_stream(self, name: str) -> str:
        """Stops a stream. Returns what the station did."""
        return self._unary(self.stub.StopStream, pb.StreamRequest(client_name=self._client_name, stream=name)).message

    def resume_recording(self) -> str:
        """After recording stopped on a failure (a full disk): records again, each stream into a new
        segment. Returns what the station did ("nothing to resume" when recording had not stopped)."""
        return self._unary(self.stub.ResumeRecording,
                           pb.ResumeRecordingRequest(client_name=self._client_name)).message
