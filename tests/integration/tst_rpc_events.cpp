// Events and alarms through the user API (issue 16) over a real station, real gRPC on loopback with an
// ephemeral port, the C++ client library: a simulator run that crosses limits arrives as events with the
// station's own numbers and text, filtered by severity, kind and stream; history and resuming after a
// number; events a client was too late for are counted, never silently lost; the alarm list arrives and
// follows the station; acknowledging, shelving and unshelving through the API change the station's
// alarms and name the client; bad ids are refused with the station's reason; a read-only token may watch
// but not acknowledge.
#include "clients/cpp/client.hpp"
#include "tests/support/api_station.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/wait_until.hpp"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <thread>

using namespace telestation;
using namespace std::chrono_literals;
namespace v1 = telestation::v1;
using events::Event;
using events::EventKind;

namespace {

// Limits: red low 20, yellow low 30, yellow high 150, red high 180.
constexpr const char* kFlow = "Packet5.COOLANT_FLOW_RATE";

// Each transition on its own line (the simulator's packets are 50 ms apart).
pipeline::StationOptions unmerged()
{
    pipeline::StationOptions options;
    options.eventStormWindow = 1ms;
    return options;
}

bool sameNumber(bool has, double remote, double local)
{
    return has ? remote == local : std::isnan(local);
}

bool sameEvent(const v1::Event& remote, const Event& local)
{
    return remote.number() == local.number && remote.time_ns() == local.timeNs &&
           static_cast<int>(remote.severity()) == static_cast<int>(local.severity) &&
           remote.kind() == events::eventKindName(local.kind) && remote.stream() == local.stream &&
           remote.packet_type() == local.packetType && remote.parameter() == local.parameter &&
           remote.detail() == local.detail && remote.text() == local.text && remote.count() == local.count &&
           remote.amount() == local.amount && sameNumber(remote.has_value(), remote.value(), local.value) &&
           sameNumber(remote.has_limit(), remote.limit(), local.limit) && remote.limit_state() == local.limitState &&
           remote.user() == local.user;
}

// Reads batches and hands each to `enough` until it returns true. False when the call ends first, or when
// nothing satisfies it within the generous wait (the call is then interrupted): a test never hangs.
template <typename Batch, typename Enough>
bool readUntil(client::Subscription<Batch>& subscription, Enough&& enough)
{
    std::atomic<bool> done{false};
    std::thread watchdog([&] {
        if (!test::waitUntil([&] { return done.load(); }))
            subscription.interrupt();
    });
    bool satisfied = false;
    while (!satisfied) {
        auto batch = subscription.next();
        if (!batch)
            break;
        satisfied = enough(*batch);
    }
    done = true;
    watchdog.join();
    return satisfied;
}

// Every event of a subscription until the one numbered `last`; each batch's `missed` added to `missed`.
std::vector<v1::Event> eventsUntil(client::EventSubscription& subscription, std::uint64_t last,
                                   std::uint64_t* missed = nullptr)
{
    std::vector<v1::Event> got;
    const bool complete = readUntil(subscription, [&](const v1::EventBatch& batch) {
        got.insert(got.end(), batch.events().begin(), batch.events().end());
        if (missed)
            *missed += batch.missed();
        return batch.last_number() >= last;
    });
    if (!complete)
        qWarning("the events until %llu did not come: %s", static_cast<unsigned long long>(last),
                 subscription.status().error_message().c_str());
    return got;
}

// The station's events after `after`, whatever is still pending reported first.
std::vector<Event> stationEvents(pipeline::Station& station, std::uint64_t after)
{
    station.flushEvents();
    return station.events(after);
}

grpc::StatusCode codeOf(const std::function<void()>& call, std::string* message = nullptr)
{
    try {
        call();
        return grpc::StatusCode::OK;
    } catch (const client::Error& e) {
        if (message)
            *message = e.what();
        return e.code();
    }
}

const v1::Alarm* findAlarm(const v1::AlarmList& list, std::uint64_t id)
{
    for (const auto& alarm : list.alarms())
        if (alarm.id() == id)
            return &alarm;
    return nullptr;
}

// The station's alarm of a parameter once the station has raised it; nullopt after the generous wait.
std::optional<events::Alarm> alarmOf(const pipeline::Station& station, std::string_view parameter)
{
    std::optional<events::Alarm> found;
    test::waitUntil([&] {
        for (const auto& alarm : station.alarms())
            if (alarm.parameter == parameter)
                found = alarm;
        return found.has_value();
    });
    return found;
}

client::Options named(std::string name, std::string token = {})
{
    client::Options options;
    options.clientName = std::move(name);
    options.token = std::move(token);
    return options;
}

} // namespace

class TestRpcEvents : public QObject {
    Q_OBJECT

private slots:
    // A run through yellow and red and back: every event the station reports arrives with its number,
    // time and text; a filtered subscription gets exactly those of its severity, kind and stream.
    void eventsArriveAsTheStationReportsThem()
    {
        auto r = test::apiStation({}, unmerged());
        QVERIFY(r);
        client::Client station(r->server->target());
        auto all = station.events();
        auto first = all.next(); // at once: the subscription is in place
        QVERIFY2(first, all.status().error_message().c_str());
        QCOMPARE(first->events_size(), 0);
        const std::uint64_t start = first->last_number();
        v1::SubscribeEventsRequest request;
        request.set_min_severity(v1::SEVERITY_CRITICAL);
        request.add_kinds("limitViolation");
        request.add_kinds("limitCleared"); // info: below the severity asked for
        request.add_streams("tm");
        auto critical = station.events(request);
        QVERIFY(critical.next());

        const auto sent = test::sendValues(*r->station, "tm", kFlow, {100, 160, 190, 160, 100}, 20);
        QVERIFY(test::settle(*r->station, "tm", sent.sent.packets));
        const auto expected = stationEvents(*r->station, start);
        QVERIFY(!expected.empty());
        std::uint64_t missed = 0;
        const auto got = eventsUntil(all, expected.back().number, &missed);
        QCOMPARE(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            QVERIFY2(sameEvent(got[i], expected[i]),
                     (got[i].DebugString() + " ≠ " + events::toJsonLine(expected[i])).c_str());
        QCOMPARE(missed, std::uint64_t{0});
        const auto violations = std::count_if(expected.begin(), expected.end(), [](const Event& e) {
            return e.kind == EventKind::LimitViolation && e.parameter == kFlow;
        });
        QCOMPARE(violations, 3); // yellow, red, yellow

        // The simulator's other Packet5 parameters cross limits of their own too: whatever they did, the
        // filtered call gets exactly the station's critical limit violations, the flow's red high among them.
        std::vector<Event> wanted;
        for (const auto& e : expected)
            if (e.severity >= events::Severity::Critical && e.kind == EventKind::LimitViolation && e.stream == "tm")
                wanted.push_back(e);
        QVERIFY(!wanted.empty());
        const auto filtered = eventsUntil(critical, wanted.back().number);
        QCOMPARE(filtered.size(), wanted.size());
        for (std::size_t i = 0; i < wanted.size(); ++i)
            QVERIFY(sameEvent(filtered[i], wanted[i]));
        const auto red =
            std::find_if(filtered.begin(), filtered.end(), [](const v1::Event& e) { return e.parameter() == kFlow; });
        QVERIFY(red != filtered.end());
        QCOMPARE(red->limit_state(), std::string("red high"));
        QCOMPARE(red->value(), 190.0);
        QCOMPARE(red->limit(), 180.0);
        QCOMPARE(red->severity(), v1::SEVERITY_CRITICAL);
    }

    // The kept history first, or the events after a number; requests that cannot be served are refused
    // with the reason.
    void historyResumeAndBadRequests()
    {
        auto r = test::apiStation();
        QVERIFY(r);
        for (int i = 0; i < 5; ++i)
            r->station->note(events::Severity::Info, "tm", "note " + std::to_string(i));
        const auto kept = stationEvents(*r->station, 0);
        QVERIFY(kept.size() >= 5);
        client::Client station(r->server->target());
        auto history = station.events(0, true);
        const auto fromHistory = eventsUntil(history, kept.back().number);
        QCOMPARE(fromHistory.size(), kept.size());
        for (std::size_t i = 0; i < kept.size(); ++i)
            QVERIFY(sameEvent(fromHistory[i], kept[i]));
        const std::uint64_t after = kept[kept.size() - 3].number;
        auto resumed = station.events(after);
        const auto rest = eventsUntil(resumed, kept.back().number);
        QCOMPARE(rest.size(), std::size_t{2});
        QVERIFY(sameEvent(rest[0], kept[kept.size() - 2]));
        QVERIFY(sameEvent(rest[1], kept.back()));
        QCOMPARE(rest[1].text(), std::string("note 4"));

        const auto refused = [&](const v1::SubscribeEventsRequest& request, grpc::StatusCode code, const char* says) {
            auto call = station.events(request);
            if (call.next())
                return false;
            return call.status().error_code() == code && call.status().error_message().find(says) != std::string::npos;
        };
        v1::SubscribeEventsRequest badKind;
        badKind.add_kinds("sequencegap");
        QVERIFY(refused(badKind, grpc::StatusCode::INVALID_ARGUMENT, "sequencegap"));
        v1::SubscribeEventsRequest badStream;
        badStream.add_streams("nope");
        QVERIFY(refused(badStream, grpc::StatusCode::INVALID_ARGUMENT, "nope"));
        v1::SubscribeEventsRequest badSeverity;
        badSeverity.set_min_severity(static_cast<v1::Severity>(9));
        QVERIFY(refused(badSeverity, grpc::StatusCode::INVALID_ARGUMENT, "severity"));
        v1::SubscribeEventsRequest future;
        future.set_after(kept.back().number + 100);
        QVERIFY(refused(future, grpc::StatusCode::OUT_OF_RANGE, std::to_string(kept.back().number + 100).c_str()));
        QVERIFY(r->station->running());
    }

    // The station keeps its newest 1000 events: a client that asks for older ones, or falls further
    // behind, is told how many it missed; received and missed add up to every event reported.
    void missedEventsAreCounted()
    {
        auto r = test::apiStation();
        QVERIFY(r);
        constexpr int kBurst = 1500; // audit notes: never merged
        for (int i = 0; i < kBurst; ++i)
            r->station->note(events::Severity::Info, {}, "burst " + std::to_string(i));
        const auto kept = stationEvents(*r->station, 0);
        QCOMPARE(kept.size(), pipeline::EventLog::kKept);
        const std::uint64_t newest = kept.back().number;
        QVERIFY(newest >= kBurst);

        client::Client station(r->server->target());
        auto late = station.events(1); // events 2 .. newest: the oldest of them are gone
        auto batch = late.next();
        QVERIFY(batch);
        QCOMPARE(batch->missed(), kept.front().number - 2);
        QCOMPARE(batch->missed_total(), batch->missed());
        QCOMPARE(static_cast<std::size_t>(batch->events_size()), kept.size());
        QCOMPARE(batch->events(0).number(), kept.front().number);
        QCOMPARE(batch->last_number(), newest);
        auto history = station.events(0, true); // what is kept, asked for as such: nothing missed
        batch = history.next();
        QVERIFY(batch);
        QCOMPARE(batch->missed(), std::uint64_t{0});
        QCOMPARE(static_cast<std::size_t>(batch->events_size()), kept.size());

        // A burst larger than the log while subscribed: whether the call saw all of it or not, what it
        // received and what it was told it missed add up to the burst, and no event is out of place.
        auto live = station.events();
        batch = live.next();
        QVERIFY(batch);
        const std::uint64_t start = batch->last_number();
        for (int i = 0; i < 3 * kBurst; ++i)
            r->station->note(events::Severity::Info, {}, "second burst " + std::to_string(i));
        const std::uint64_t end = stationEvents(*r->station, 0).back().number;
        std::uint64_t received = 0, missed = 0, previous = start;
        bool inPlace = true;
        QVERIFY(readUntil(live, [&](const v1::EventBatch& b) {
            missed += b.missed();
            for (int i = 0; i < b.events_size(); ++i) {
                // Consecutive, but for the gap the batch reports before its first event.
                inPlace = inPlace && b.events(i).number() == previous + 1 + (i == 0 ? b.missed() : 0);
                previous = b.events(i).number();
            }
            received += static_cast<std::uint64_t>(b.events_size());
            return b.last_number() >= end;
        }));
        QVERIFY(inPlace);
        QCOMPARE(received + missed, end - start);
    }

    // The alarm list at once, then whenever it changes: the station's list arrives whole, in its order,
    // with its counts; an alarm raised with the station's fields.
    void alarmListFollowsTheStation()
    {
        auto r = test::apiStation({}, unmerged());
        QVERIFY(r);
        client::Client station(r->server->target());
        auto alarms = station.alarms();
        auto first = alarms.next();
        QVERIFY2(first, alarms.status().error_message().c_str());
        QCOMPARE(first->alarms_size(), 0);
        QCOMPARE(first->counts().unacknowledged_size(), 4);
        QCOMPARE(first->counts().unacknowledged(1), 0u);

        const auto sent = test::sendValues(*r->station, "tm", kFlow, {100, 160, 190, 160}, 20);
        QVERIFY(test::settle(*r->station, "tm", sent.sent.packets));
        r->station->flushEvents(); // everything sent has been seen: the alarms change no more
        const std::uint64_t version = r->station->alarmsVersion();
        const auto listed = r->station->alarms();
        const auto counts = r->station->alarmCounts();
        QCOMPARE(r->station->alarmsVersion(), version);
        const auto local = alarmOf(*r->station, kFlow);
        QVERIFY(local);
        QCOMPARE(local->violations, std::uint64_t{3});
        v1::AlarmList list;
        QVERIFY(readUntil(alarms, [&](const v1::AlarmList& l) {
            list = l;
            return l.version() >= version;
        }));
        QCOMPARE(list.version(), version);
        QCOMPARE(static_cast<std::size_t>(list.alarms_size()), listed.size());
        for (std::size_t i = 0; i < listed.size(); ++i)
            QCOMPARE(list.alarms(static_cast<int>(i)).id(), listed[i].id);
        for (int s = 0; s < events::kSeverityCount; ++s) {
            QCOMPARE(list.counts().unacknowledged(s), counts.unacknowledged[static_cast<std::size_t>(s)]);
            QCOMPARE(list.counts().active(s), counts.active[static_cast<std::size_t>(s)]);
        }
        QCOMPARE(list.counts().shelved(), counts.shelved);
        const v1::Alarm& a = *findAlarm(list, local->id);
        QCOMPARE(a.source(), v1::ALARM_SOURCE_PARAMETER);
        QCOMPARE(a.stream(), std::string("tm"));
        QCOMPARE(a.packet_type(), std::string("Packet5"));
        QCOMPARE(a.parameter(), std::string(kFlow));
        QCOMPARE(a.state(), v1::ALARM_STATE_ACTIVE_UNACKNOWLEDGED);
        QCOMPARE(a.severity(), v1::SEVERITY_CRITICAL); // latched at red
        QCOMPARE(a.current_severity(), v1::SEVERITY_WARNING);
        QVERIFY(a.active());
        QVERIFY(!a.acknowledged());
        QCOMPARE(a.trigger_value(), 160.0);
        QCOMPARE(a.current_value(), local->currentValue);
        QCOMPARE(a.limit(), 150.0);
        QCOMPARE(a.limit_state(), std::string("yellow high"));
        QCOMPARE(a.first_ns(), local->firstNs);
        QCOMPARE(a.last_ns(), local->lastNs);
        QCOMPARE(a.shelved_until_ns(), std::int64_t{0});
        QVERIFY(a.acknowledged_by().empty());
        QVERIFY(list.counts().unacknowledged(3) >= 1u);
        QVERIFY(list.version() > first->version());
        QVERIFY(list.time_ns() >= a.last_ns());
    }

    // Acknowledged, shelved and unshelved through the API: the station's alarm changes, its events name
    // the client and carry the comment; what the station refuses comes back with its reason.
    void acknowledgeShelveAndUnshelve()
    {
        auto r = test::apiStation({}, unmerged());
        QVERIFY(r);
        client::Client station(r->server->target(), named("ops-console"));
        auto alarms = station.alarms();
        QVERIFY(alarms.next());
        const auto sent = test::sendValues(*r->station, "tm", kFlow, {100, 160}, 20);
        QVERIFY(test::settle(*r->station, "tm", sent.sent.packets));
        const auto raised = alarmOf(*r->station, kFlow);
        QVERIFY(raised);
        const std::uint64_t id = raised->id;
        const std::uint64_t before = stationEvents(*r->station, 0).back().number;

        const std::string done = station.acknowledgeAlarms({id}, "seen it");
        QVERIFY2(done.find("acknowledged alarm " + std::to_string(id)) != std::string::npos, done.c_str());
        const auto acknowledged = alarmOf(*r->station, kFlow);
        QVERIFY(acknowledged->acknowledged);
        QVERIFY2(acknowledged->acknowledgedBy.starts_with("api: ops-console ipv4:127.0.0.1:"),
                 acknowledged->acknowledgedBy.c_str());
        QCOMPARE(acknowledged->comment, std::string("seen it"));
        const auto after = stationEvents(*r->station, before);
        const auto alarmEvent = std::find_if(after.begin(), after.end(), [&](const Event& e) {
            return e.kind == EventKind::Alarm && e.parameter == kFlow && e.user == acknowledged->acknowledgedBy;
        });
        QVERIFY(alarmEvent != after.end());
        QVERIFY2(alarmEvent->text.find("seen it") != std::string::npos, alarmEvent->text.c_str());
        const auto audit = std::count_if(after.begin(), after.end(), [&](const Event& e) {
            return e.kind == EventKind::Station && e.detail == "api" && e.text.find("ops-console") != std::string::npos
                   && e.text.find("acknowledged alarm " + std::to_string(id)) != std::string::npos;
        });
        QCOMPARE(audit, 1);
        QVERIFY(readUntil(alarms, [&](const v1::AlarmList& l) {
            const auto* a = findAlarm(l, id);
            return a && a->state() == v1::ALARM_STATE_ACTIVE_ACKNOWLEDGED
                   && a->acknowledged_by() == acknowledged->acknowledgedBy && a->comment() == "seen it"
                   && a->acknowledged_ns() > 0;
        }));

        std::string message;
        QCOMPARE(codeOf([&] { station.acknowledgeAlarms({id}, "again"); }, &message),
                 grpc::StatusCode::FAILED_PRECONDITION);
        QVERIFY2(message.find("already acknowledged") != std::string::npos, message.c_str());
        QCOMPARE(codeOf([&] { station.acknowledgeAlarms({999999}); }, &message), grpc::StatusCode::NOT_FOUND);
        QVERIFY2(message.find("no alarm 999999") != std::string::npos, message.c_str());
        QCOMPARE(codeOf([&] { station.acknowledgeAlarms({}); }), grpc::StatusCode::INVALID_ARGUMENT);

        // Shelved: out of the counts until unshelved; unshelving one not shelved is refused.
        QVERIFY(station.shelveAlarms({id}, 3600, "maintenance").find("shelved alarm") != std::string::npos);
        QVERIFY(readUntil(alarms, [&](const v1::AlarmList& l) {
            const auto* a = findAlarm(l, id);
            return a && a->state() == v1::ALARM_STATE_SHELVED && a->shelved_until_ns() > l.time_ns() &&
                   l.counts().shelved() == 1 && a->comment() == "maintenance";
        }));
        QCOMPARE(codeOf([&] { station.shelveAlarms({id}, 0); }), grpc::StatusCode::INVALID_ARGUMENT);
        QVERIFY(station.unshelveAlarms({id}).find("unshelved alarm") != std::string::npos);
        QVERIFY(readUntil(alarms, [&](const v1::AlarmList& l) {
            const auto* a = findAlarm(l, id);
            return a && a->state() == v1::ALARM_STATE_ACTIVE_ACKNOWLEDGED && l.counts().shelved() == 0;
        }));
        QCOMPARE(codeOf([&] { station.unshelveAlarms({id}); }, &message), grpc::StatusCode::FAILED_PRECONDITION);
        QVERIFY2(message.find("not shelved") != std::string::npos, message.c_str());
        // Each action its own event, however quickly they came (operators' actions are never merged).
        const auto actions = stationEvents(*r->station, before);
        const auto byClient = std::count_if(actions.begin(), actions.end(), [&](const Event& e) {
            return e.kind == EventKind::Alarm && e.user == acknowledged->acknowledgedBy && e.count == 1;
        });
        QCOMPARE(byClient, 3); // acknowledged, shelved, unshelved

        // A second alarm (HK_Status packets lost): a request naming it and an unknown alarm changes
        // nothing; "all" acknowledges it.
        auto lossy = test::traffic(test::streamAddress(*r->station, "tm"), {"HK_Status"}, 400, 5000);
        lossy.faults.drop = 0.1;
        const auto lossSent = test::send(lossy, r->station->database());
        QVERIFY(test::settle(*r->station, "tm", sent.sent.packets + lossSent.sent.packets));
        std::optional<events::Alarm> loss;
        QVERIFY(test::waitUntil([&] {
            for (const auto& a : r->station->alarms())
                if (a.source == events::AlarmSource::StreamLoss)
                    loss = a;
            return loss.has_value();
        }));
        QCOMPARE(codeOf([&] { station.acknowledgeAlarms({loss->id, 999999}); }), grpc::StatusCode::NOT_FOUND);
        const auto waiting = r->station->alarms(); // the simulator's other parameters raised alarms too
        const auto unacknowledged =
            std::count_if(waiting.begin(), waiting.end(), [](const auto& a) { return !a.acknowledged; });
        QVERIFY(std::any_of(waiting.begin(), waiting.end(),
                            [&](const auto& a) { return a.id == loss->id && !a.acknowledged; }));
        const std::string all = station.acknowledgeAllAlarms("all at once");
        QVERIFY2(all.find("all " + std::to_string(unacknowledged) + " ") != std::string::npos, all.c_str());
        const auto left = r->station->alarms();
        QVERIFY(std::none_of(left.begin(), left.end(), [](const auto& a) { return !a.acknowledged; }));
    }

    // A read-only token may watch events and alarms but not acknowledge (PERMISSION_DENIED, counted); a
    // control token may, and the acknowledgement names its holder.
    void aReadOnlyTokenMayWatchButNotAcknowledge()
    {
        auto r = test::apiStation({{"reader-secret", "analyst", false}, {"control-secret", "flight", true}},
                                  unmerged());
        QVERIFY(r);
        const auto sent = test::sendValues(*r->station, "tm", kFlow, {100, 190}, 20);
        QVERIFY(test::settle(*r->station, "tm", sent.sent.packets));
        const auto raised = alarmOf(*r->station, kFlow);
        QVERIFY(raised);

        client::Client reader(r->server->target(), named("watcher", "reader-secret"));
        auto events = reader.events(0, true);
        QVERIFY2(events.next(), events.status().error_message().c_str());
        auto alarms = reader.alarms();
        auto list = alarms.next();
        QVERIFY(list);
        QVERIFY(findAlarm(*list, raised->id));
        QCOMPARE(codeOf([&] { reader.acknowledgeAlarms({raised->id}); }), grpc::StatusCode::PERMISSION_DENIED);
        QCOMPARE(codeOf([&] { reader.acknowledgeAllAlarms(); }), grpc::StatusCode::PERMISSION_DENIED);
        QCOMPARE(codeOf([&] { reader.shelveAlarms({raised->id}, 60); }), grpc::StatusCode::PERMISSION_DENIED);
        QVERIFY(!alarmOf(*r->station, kFlow)->acknowledged);
        QCOMPARE(r->server->refusals(), std::uint64_t{3});
        client::Client anonymous(r->server->target());
        auto refused = anonymous.events();
        QVERIFY(!refused.next());
        QCOMPARE(refused.status().error_code(), grpc::StatusCode::UNAUTHENTICATED);

        client::Client controller(r->server->target(), named("flight-director", "control-secret"));
        QCOMPARE(codeOf([&] { controller.acknowledgeAlarms({raised->id}, "go"); }), grpc::StatusCode::OK);
        const auto acknowledged = alarmOf(*r->station, kFlow);
        QVERIFY2(acknowledged->acknowledgedBy.starts_with("api: flight-director flight (ipv4:127.0.0.1:"),
                 acknowledged->acknowledgedBy.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRpcEvents)
#include "tst_rpc_events.moc"
