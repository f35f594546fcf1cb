"""Python client of Telestation's user API (gRPC): live parameter samples, packets, statistics, events,
alarms and control of a running station. See clients/python/README.md.

    from telestation_client import Client
    with Client("127.0.0.1:50051") as station:
        for sample in station.parameters(["Packet5.CPU_LOAD"]):
            print(sample.name, sample.calibrated, sample.limit)
"""
from ._proto import station_pb2, station_pb2_grpc
from ._wire import FAST as FAST_DECODER
from .archive import Archive, ArchiveBatches, ArchivePackets
from .client import MODES, Client
from .dataframe import to_pandas
from .errors import TelestationError
from .events import ALARM_SOURCES, ALARM_STATES, SEVERITIES, Alarm, AlarmCounts, AlarmList, Event
from .samples import LIMIT_NAMES, Packet, Sample, SampleBatch
from .subscriptions import Alarms, Events, Messages, Packets, SampleBatches, Samples, Subscription

__version__ = "0.1.0"

__all__ = [
    "Client", "Archive", "ArchiveBatches", "ArchivePackets", "TelestationError", "Sample", "SampleBatch", "Packet", "Samples", "SampleBatches", "Packets",
    "Messages", "Subscription", "to_pandas", "LIMIT_NAMES", "MODES", "FAST_DECODER", "station_pb2",
    "station_pb2_grpc", "Event", "Alarm", "AlarmCounts", "AlarmList", "Events", "Alarms", "SEVERITIES",
    "ALARM_STATES", "ALARM_SOURCES",
]
