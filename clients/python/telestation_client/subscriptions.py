"""Streaming calls as Python iterators. Each can be cancelled, used in a `with` block (which cancels it
at the end), and tells the station's `dropped` and `delivered` counts as of the last message received.
An iterator ends (StopIteration) when the station ends the call or after cancel(); a failed call raises
TelestationError. Read each from one thread."""
from __future__ import annotations

import logging
from typing import Generic, Iterator, List, Optional, TypeVar

import grpc

from ._wire import decode_parameter_batch
from .errors import TelestationError
from .events import AlarmList, Event
from .samples import NameTable, Packet, Sample, SampleBatch

_log = logging.getLogger("telestation_client")

T = TypeVar("T")


class Subscription(Generic[T]):
    """Base of the iterators over a server-streaming call."""

    def __init__(self, call) -> None:
        self._call = call
        self._cancelled = False
        #: Items the station could not buffer for this client (its queue was full), as of the last message.
        self.dropped: int = 0
        #: Items the station has sent on this call, as of the last message.
        self.delivered: int = 0

    def _read(self):
        """The next message, or None when the call has ended."""
        try:
            return next(self._call)
        except StopIteration:
            return None
        except grpc.RpcError as e:
            if self._cancelled and e.code() == grpc.StatusCode.CANCELLED:
                return None
            raise TelestationError.from_rpc(e) from None

    def cancel(self) -> None:
        """Ends the call; the station frees the subscription. Iteration then ends."""
        self._cancelled = True
        self._call.cancel()

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.cancel()


class SampleBatches(Subscription[SampleBatch]):
    """Parameter samples as `SampleBatch`es (numpy columns), one per message of the station: the fast path.

    Created once the station has the subscription in place (its first message, which names the
    parameters, has come): samples of packets processed from then on arrive."""

    def __init__(self, call) -> None:
        super().__init__(call)
        self.parameter_names = NameTable()
        self.stream_names = NameTable()
        first = self._read()
        self._pending: Optional[SampleBatch] = None
        if first is not None:
            batch = self._batch(first)
            self._pending = batch if len(batch) else None

    def _batch(self, data: bytes) -> SampleBatch:
        columns = decode_parameter_batch(data)
        if columns.parameter_names:
            self.parameter_names.add(columns.parameter_names)
        if columns.stream_names:
            self.stream_names.add(columns.stream_names)
        self.dropped, self.delivered = columns.dropped, columns.delivered
        return SampleBatch(columns, self.parameter_names, self.stream_names)

    def __next__(self) -> SampleBatch:
        if self._pending is not None:
            batch, self._pending = self._pending, None
            return batch
        while True:
            data = self._read()
            if data is None:
                raise StopIteration
            batch = self._batch(data)
            if len(batch):
                return batch


class Samples(Subscription[Sample]):
    """Parameter samples one `Sample` at a time, in the station's order (read from SampleBatches)."""

    def __init__(self, batches: SampleBatches) -> None:
        self._batches = batches
        self._samples = self._generate()

    def _generate(self) -> Iterator[Sample]:
        for batch in self._batches:
            yield from batch.samples()

    @property
    def dropped(self) -> int:  # type: ignore[override]
        return self._batches.dropped

    @property
    def delivered(self) -> int:  # type: ignore[override]
        return self._batches.delivered

    @property
    def parameter_names(self) -> NameTable:
        return self._batches.parameter_names

    def cancel(self) -> None:
        self._batches.cancel()

    def __iter__(self) -> Iterator[Sample]:
        return self._samples  # the generator itself: no Python call per sample in a for loop

    def __next__(self) -> Sample:
        return next(self._samples)


class Packets(Subscription[Packet]):
    """Packets one `Packet` at a time, as received. The station sends nothing before the first packet,
    so errors (an unknown stream or packet type, a refused token) raise on the first next()."""

    def __init__(self, call) -> None:
        super().__init__(call)
        self.stream_names = NameTable()
        self._packets = self._generate()

    def batches(self) -> Iterator[List[Packet]]:
        """The packets a message at a time."""
        while True:
            batch = self._read()
            if batch is None:
                return
            if batch.stream_names:
                self.stream_names.add((e.id, e.name) for e in batch.stream_names)
            self.dropped, self.delivered = batch.dropped, batch.delivered
            names = self.stream_names.by_id
            yield [Packet(p.frame, p.transport_header_bytes, p.receive_time_ns, names.get(p.stream_id, ""), p.apid,
                          p.packet_type) for p in batch.packets]

    def _generate(self) -> Iterator[Packet]:
        for packets in self.batches():
            yield from packets

    def __iter__(self) -> Iterator[Packet]:
        return self._packets

    def __next__(self) -> Packet:
        return next(self._packets)


class Messages(Subscription[T]):
    """The call's protobuf messages as they come (statistics)."""

    def __next__(self) -> T:
        message = self._read()
        if message is None:
            raise StopIteration
        return message


class Events(Subscription[Event]):
    """The station's events one `Event` at a time, oldest first (batches(): a list per message).

    Created once the station has the subscription in place (its first message has come): every event
    reported from then on arrives. The station keeps its newest 1000 events: a reader that falls further
    behind misses some — `missed` counts them (and each is logged as a warning on the "telestation_client"
    logger), never silently. `last_number` is the newest event number the station has looked at for this
    call, filtered-out ones included: events(after=last_number) goes on from there."""

    def __init__(self, call) -> None:
        super().__init__(call)
        #: Events the station no longer kept when this call came to read them, so far.
        self.missed: int = 0
        #: The newest event number looked at so far (filtered-out events included).
        self.last_number: int = 0
        first = self._read()
        self._pending: Optional[List[Event]] = self._take(first) if first is not None else None
        self._events = self._generate()

    def _take(self, batch) -> List[Event]:
        if batch.missed:
            _log.warning("missed %d events before event %d: the station keeps only its newest 1000",
                         batch.missed, batch.events[0].number if batch.events else batch.last_number + 1)
        self.missed = batch.missed_total
        self.last_number = batch.last_number
        return [Event.from_proto(e) for e in batch.events]

    def batches(self) -> Iterator[List[Event]]:
        """The events a message at a time (the first may be empty: it says the subscription is in place)."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            yield pending
        while True:
            batch = self._read()
            if batch is None:
                return
            yield self._take(batch)

    def _generate(self) -> Iterator[Event]:
        for events in self.batches():
            yield from events

    def __iter__(self) -> Iterator[Event]:
        return self._events

    def __next__(self) -> Event:
        return next(self._events)


class Alarms(Subscription[AlarmList]):
    """The station's alarm list, an `AlarmList` at once and then another whenever the list changes."""

    def __next__(self) -> AlarmList:
        message = self._read()
        if message is None:
            raise StopIteration
        return AlarmList.from_proto(message)


__all__ = ["Subscription", "SampleBatches", "Samples", "Packets", "Messages", "Events", "Alarms"]
