"""The one exception the client raises for a refused or failed call."""
from __future__ import annotations

import grpc


class TelestationError(Exception):
    """A call the station refused or that failed: `code` is the gRPC status code (grpc.StatusCode, e.g.
    UNAUTHENTICATED, PERMISSION_DENIED, INVALID_ARGUMENT, UNAVAILABLE) and `details` the station's reason."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self.code = code
        self.details = details

    @classmethod
    def from_rpc(cls, error: grpc.RpcError) -> "TelestationError":
        code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
        details = error.details() if hasattr(error, "details") else str(error)
        return cls(code or grpc.StatusCode.UNKNOWN, details or "")
