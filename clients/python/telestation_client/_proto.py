"""The generated protobuf and gRPC modules of station.proto (made by setup.py at install time)."""
try:
    from ._generated.telestation.v1 import station_pb2, station_pb2_grpc
except ImportError as e:  # pragma: no cover - a source tree that was never built
    raise ImportError("telestation_client's generated modules are missing: install the package "
                      "(pip install clients/python), which compiles api/proto/telestation/v1/station.proto") from e

__all__ = ["station_pb2", "station_pb2_grpc"]
