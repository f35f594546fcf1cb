"""Events and alarms through the API: the station's events as it reports them (filtered, from history,
after a number, missed ones counted), the alarm list as it changes, and acknowledging, shelving and
unshelving — which a read-only token may not do, also off loopback."""
from __future__ import annotations

import logging

import grpc
import pytest

from helpers import CONTROLLER, READER, STATION_SECONDS, WAIT, deadline, self_signed_certificate
from telestation_client import Alarm, AlarmList, Event, TelestationError
from telestation_client.local import LocalStation, wait_until

FLOW = "Packet5.COOLANT_FLOW_RATE"  # limits: red low 20, yellow low 30, yellow high 150, red high 180


def cross_limits(station: LocalStation, values) -> None:
    """Packet5 packets whose COOLANT_FLOW_RATE takes `values` in turn, two a second; waits until processed."""
    sent = station.send(["Packet5"], count=len(values), rate="2pps",
                        generators={FLOW: {"kind": "list", "values": list(values)}})
    assert station.settle(sent["sent"]["packets"])


def read_until(subscription, done, seconds: float = WAIT) -> list:
    """Items of `subscription` until `done(item)` holds (all of them, that one included); fewer if the
    subscription ended or `seconds` passed first (it is cancelled then)."""
    items = []
    with deadline(subscription, seconds):
        for item in subscription:
            items.append(item)
            if done(item):
                break
    return items


def alarm_of(alarms, parameter: str, condition=lambda a: True) -> Alarm:
    """The alarm of `parameter` from the first list of `alarms` in which it meets `condition`."""
    lists = read_until(alarms, lambda lst: any(a.parameter == parameter and condition(a) for a in lst.alarms))
    assert lists, "no alarm list came"
    found = [a for a in lists[-1].alarms if a.parameter == parameter and condition(a)]
    assert found, f"no alarm of {parameter} as expected in {lists[-1]}"
    return found[0]


def code_of(call):
    try:
        call()
    except TelestationError as e:
        return e.code
    return grpc.StatusCode.OK


def test_events_arrive_in_order_and_filtered(station, client):
    everything = client.events()
    violations = client.events(min_severity="warning", kinds=["limitViolation"], streams="tm")
    alarms = client.alarms()
    cross_limits(station, [100, 160, 190, 100])
    raised = alarm_of(alarms, FLOW)
    # A control call's audit event marks the end of what this test looks at.
    assert "acknowledged alarm" in client.acknowledge_alarms(raised.id)
    events = read_until(everything, lambda e: e.detail == "api" and "acknowledged alarm" in e.text)
    assert events and events[-1].detail == "api"
    assert all(isinstance(e, Event) for e in events)
    assert [e.number for e in events] == list(range(events[0].number, events[-1].number + 1))
    assert everything.missed == 0
    first = next(e for e in events if e.kind == "limitViolation" and e.parameter == FLOW)
    assert (first.value, first.limit, first.limit_state, first.severity) == (160.0, 150.0, "yellow high", "warning")
    assert first.stream == "tm" and first.packet_type == "Packet5" and FLOW in first.text
    ack = next(e for e in events if e.kind == "alarm" and e.user)
    assert ack.user.startswith("api: python-client ipv4:127.0.0.1:")

    wanted = [e for e in events if e.kind == "limitViolation" and e.severity != "info" and e.stream == "tm"]
    got = read_until(violations, lambda e: e.number >= wanted[-1].number)
    assert got == wanted
    for subscription in (everything, violations, alarms):
        subscription.cancel()


def test_history_resume_missed_and_refusals(station, client, caplog):
    # More events than the station keeps: control calls are never merged. The last one's event marks
    # when the station has reported them all.
    for _ in range(1100):
        client.start_stream("tm")
    client.set_mode("tm", "Packet5", "processEntirePacket")

    def kept_until_the_last_call():
        with client.events(history=True) as history:
            events = next(history.batches())
        return events if "mode processEntirePacket" in events[-1].text else None

    assert wait_until(lambda: kept_until_the_last_call() is not None, WAIT, 0.1)
    history = client.events(history=True)
    kept = next(history.batches())
    assert len(kept) == 1000 and history.missed == 0
    newest = kept[-1].number
    assert newest >= 1100 and history.last_number == newest
    with caplog.at_level(logging.WARNING, logger="telestation_client"):
        late = client.events(after=1)
        batch = next(late.batches())
    assert late.missed == kept[0].number - 2
    assert batch == kept
    assert any("missed" in r.getMessage() for r in caplog.records)
    resumed = client.events(after=newest - 2)
    assert next(resumed.batches()) == kept[-2:]

    with pytest.raises(TelestationError) as e:
        client.events(kinds="limitviolation")
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT and "limitviolation" in e.value.details
    with pytest.raises(TelestationError) as e:
        client.events(streams=["nope"])
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(TelestationError) as e:
        client.events(after=newest + 1000)
    assert e.value.code == grpc.StatusCode.OUT_OF_RANGE
    with pytest.raises(ValueError):
        client.events(min_severity="fatal")
    for subscription in (history, late, resumed):
        subscription.cancel()


def test_alarms_acknowledge_shelve_and_unshelve(station, client):
    alarms = client.alarms()
    first = next(alarms)
    assert isinstance(first, AlarmList) and first.alarms == [] and first.counts.total_unacknowledged == 0
    cross_limits(station, [100, 160])
    raised = alarm_of(alarms, FLOW)
    assert (raised.source, raised.stream, raised.state) == ("parameter", "tm", "active unacknowledged")
    assert (raised.severity, raised.trigger_value, raised.limit, raised.limit_state) == ("warning", 160.0, 150.0,
                                                                                       "yellow high")
    assert raised.active and not raised.acknowledged and raised.violations == 1

    assert f"acknowledged alarm {raised.id}" in client.acknowledge_alarms(raised.id, comment="pytest saw it")
    acknowledged = alarm_of(alarms, FLOW, lambda a: a.acknowledged)
    assert acknowledged.state == "active acknowledged" and acknowledged.comment == "pytest saw it"
    assert acknowledged.acknowledged_by.startswith("api: python-client ipv4:127.0.0.1:")
    with client.events(history=True) as history:
        logged = next(history.batches())
    assert any(e.kind == "alarm" and e.user == acknowledged.acknowledged_by and "pytest saw it" in e.text
               for e in logged)

    with pytest.raises(TelestationError) as e:
        client.acknowledge_alarms([raised.id])
    assert e.value.code == grpc.StatusCode.FAILED_PRECONDITION and "already acknowledged" in e.value.details
    with pytest.raises(TelestationError) as e:
        client.acknowledge_alarms(987654)
    assert e.value.code == grpc.StatusCode.NOT_FOUND and "987654" in e.value.details
    with pytest.raises(ValueError):
        client.acknowledge_alarms()

    assert "shelved" in client.shelve_alarms(raised.id, 3600, comment="maintenance")
    shelved = alarm_of(alarms, FLOW, lambda a: a.state == "shelved")
    assert shelved.shelved_until_ns > shelved.last_ns
    assert "unshelved" in client.unshelve_alarms(raised.id)
    alarm_of(alarms, FLOW, lambda a: a.state == "active acknowledged")
    assert code_of(lambda: client.unshelve_alarms(raised.id)) == grpc.StatusCode.FAILED_PRECONDITION
    alarms.cancel()


def test_a_read_only_token_may_watch_but_not_acknowledge_off_loopback(bin_dir, tmp_path):
    tls = self_signed_certificate(tmp_path)
    with LocalStation(bin_dir, tokens=[READER, CONTROLLER], tls=tls, api_address="0.0.0.0",
                      duration=STATION_SECONDS) as station:
        cross_limits(station, [100, 190])
        with station.client(token=READER["token"], client_name="watcher") as reader:
            with reader.alarms() as alarms:
                raised = alarm_of(alarms, FLOW)
            with reader.events(history=True) as events:
                assert any(e.kind == "limitViolation" for e in next(events.batches()))
            assert code_of(lambda: reader.acknowledge_alarms(raised.id)) == grpc.StatusCode.PERMISSION_DENIED
            assert code_of(lambda: reader.acknowledge_alarms(all=True)) == grpc.StatusCode.PERMISSION_DENIED
            assert code_of(lambda: reader.shelve_alarms(raised.id, 60)) == grpc.StatusCode.PERMISSION_DENIED
        with station.client(token=CONTROLLER["token"], client_name="director") as controller:
            assert "acknowledged all" in controller.acknowledge_alarms(all=True, comment="go")
            with controller.alarms() as alarms:
                acknowledged = alarm_of(alarms, FLOW, lambda a: a.acknowledged)
            assert acknowledged.acknowledged_by.startswith("api: director flight (ipv4:127.0.0.1:")
