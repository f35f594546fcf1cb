"""What the client hands out for the station's events and alarms (docs/events.md): `Event`, `Alarm`,
`AlarmCounts` and `AlarmList` (the whole list at one time), in the station's own words."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional

from ._proto import station_pb2 as pb

#: Severities from the least to the most severe (the schema's Severity numbers are the indices).
SEVERITIES = ("info", "warning", "error", "critical")
#: An alarm's `state`, by the schema's AlarmState number.
ALARM_STATES = ("active unacknowledged", "active acknowledged", "back to normal unacknowledged", "shelved")
#: An alarm's `source`, by the schema's AlarmSource number: a parameter's limits, a stream's loss or staleness.
ALARM_SOURCES = ("parameter", "loss", "stale")


def _word(words, number: int) -> str:
    return words[number] if 0 <= number < len(words) else f"unknown ({number})"


def severity_number(name: str) -> int:
    """The schema's Severity number of a severity's name ("info", "warning", "error", "critical")."""
    try:
        return SEVERITIES.index(name)
    except ValueError:
        raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}, not {name!r}") from None


def _optional(message, name: str) -> Optional[float]:
    return getattr(message, name) if message.HasField(name) else None


@dataclass(frozen=True)
class Event:
    """One thing an operator should know happened.

    `number` counts the station's events (1, 2, … per station run); `time_ns` is ns since the Unix epoch
    (UTC). `severity` is one of SEVERITIES; `kind` the station's word ("sequenceGap", "limitViolation",
    "alarm", …). `stream` is "" for the station as a whole; `packet_type`, `parameter` where they apply.
    `detail` tells sources of one kind apart; `text` is the sentence the operator reads. `count` is how many
    events the line stands for (a merged storm: more than 1) and `amount` their quantity (packets lost, …).
    `value` and `limit` (None when none applies) and `limit_state` for limits and alarms; `user` names who
    did an operator action ("api: CLIENT …" for an API client)."""

    number: int
    time_ns: int
    severity: str
    kind: str
    stream: str
    packet_type: str
    parameter: str
    detail: str
    text: str
    count: int
    amount: int
    value: Optional[float]
    limit: Optional[float]
    limit_state: str
    user: str

    @classmethod
    def from_proto(cls, e: "pb.Event") -> "Event":
        return cls(e.number, e.time_ns, _word(SEVERITIES, e.severity), e.kind, e.stream, e.packet_type, e.parameter,
                   e.detail, e.text, e.count, e.amount, _optional(e, "value"), _optional(e, "limit"), e.limit_state,
                   e.user)


@dataclass(frozen=True)
class Alarm:
    """One alarm of the station's list.

    `id` names it in acknowledge_alarms() and friends. `source` is one of ALARM_SOURCES; `state` one of
    ALARM_STATES (as of its list's time); `severity` the most severe since raised or last acknowledged,
    `current_severity` the latest violation's (SEVERITIES). Times in ns since the Unix epoch;
    `shelved_until_ns` and `acknowledged_ns` 0 when not. `trigger_value` (what raised it), `current_value`
    and `limit` are None when none applies; `violations` counts transitions out of normal (loss alarms:
    packets lost or dropped). `acknowledged_by` and `comment`: the latest acknowledgement's or shelving's."""

    id: int
    source: str
    stream: str
    packet_type: str
    parameter: str
    state: str
    severity: str
    current_severity: str
    active: bool
    acknowledged: bool
    shelved_until_ns: int
    first_ns: int
    last_ns: int
    trigger_value: Optional[float]
    current_value: Optional[float]
    limit: Optional[float]
    limit_state: str
    violations: int
    acknowledged_by: str
    comment: str
    acknowledged_ns: int

    @classmethod
    def from_proto(cls, a: "pb.Alarm") -> "Alarm":
        return cls(a.id, _word(ALARM_SOURCES, a.source), a.stream, a.packet_type, a.parameter,
                   _word(ALARM_STATES, a.state), _word(SEVERITIES, a.severity), _word(SEVERITIES, a.current_severity),
                   a.active, a.acknowledged, a.shelved_until_ns, a.first_ns, a.last_ns, _optional(a, "trigger_value"),
                   _optional(a, "current_value"), _optional(a, "limit"), a.limit_state, a.violations,
                   a.acknowledged_by, a.comment, a.acknowledged_ns)


@dataclass(frozen=True)
class AlarmCounts:
    """The listed alarms per severity name: `unacknowledged` (active or back to normal) and `active` (out of
    normal now, acknowledged or not); a shelved alarm counts only under `shelved`."""

    unacknowledged: Dict[str, int]
    active: Dict[str, int]
    shelved: int

    @property
    def total_unacknowledged(self) -> int:
        return sum(self.unacknowledged.values())

    @property
    def total_active(self) -> int:
        return sum(self.active.values())

    @classmethod
    def from_proto(cls, c: "pb.AlarmCounts") -> "AlarmCounts":
        def by_severity(values) -> Dict[str, int]:
            return {name: (values[i] if i < len(values) else 0) for i, name in enumerate(SEVERITIES)}

        return cls(by_severity(c.unacknowledged), by_severity(c.active), c.shelved)


@dataclass(frozen=True)
class AlarmList:
    """The station's alarm list at `time_ns`: `alarms` in the station's order (the most severe first, then
    the newest), their `counts`, and `version`, which moves with every change."""

    time_ns: int
    version: int
    alarms: List[Alarm] = field(default_factory=list)
    counts: AlarmCounts = field(default_factory=lambda: AlarmCounts({}, {}, 0))

    def get(self, alarm_id: int) -> Optional[Alarm]:
        """The alarm with this id, or None when it is not listed."""
        return next((a for a in self.alarms if a.id == alarm_id), None)

    @classmethod
    def from_proto(cls, message: "pb.AlarmList") -> "AlarmList":
        return cls(message.time_ns, message.version, [Alarm.from_proto(a) for a in message.alarms],
                   AlarmCounts.from_proto(message.counts))


__all__ = ["Event", "Alarm", "AlarmCounts", "AlarmList", "SEVERITIES", "ALARM_STATES", "ALARM_SOURCES",
           "severity_number"]
