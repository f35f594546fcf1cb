// The user API (issue 16) over a real station, real gRPC on loopback with an ephemeral port, the C++
// client library: every sample of a simulator run arrives in order with the in-process API's values;
// packets arrive whole; the mission database and current values; control calls change the live settings
// and raise events; tokens refuse what they must (counted); bad requests are refused with a reason.
#include "clients/cpp/client.hpp"
#include "core/api/consumer.hpp"
#include "core/stats/status_line.hpp"
#include "tests/support/api_station.hpp"
#include "tests/support/sanitizers.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/training_mission.hpp"
#include "tests/support/wait_until.hpp"

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <optional>
#include <thread>

using namespace telestation;
namespace v1 = telestation::v1;

namespace {

using test::apiStation;

bool sameValue(const v1::ParameterSample& remote, const pipeline::ParameterSample& local)
{
    return remote.parameter_id() == local.parameterId && remote.stream_id() == local.streamId &&
           remote.receive_time_ns() == local.receiveTimeNs && remote.packet_time_ns() == local.packetTimeNs &&
           remote.raw() == local.value.raw && remote.calibrated() == local.value.calibrated &&
           remote.state() == local.value.state && remote.present() == local.value.present &&
           static_cast<int>(remote.limit()) == static_cast<int>(local.value.limit);
}

} // namespace

class TestRpcApi : public QObject {
    Q_OBJECT

private slots:
    // Every sample of a simulator run, in order, equal to what an in-process subscription gets.
    void everySampleArrivesInOrderWithTheInProcessValues()
    {
        auto r = apiStation();
        QVERIFY(r);
        const std::vector<std::string> names{"Packet5.CPU_LOAD", "Packet5.OPS_MODE", "HK_Status.BUS_VOLTAGE"};
        api::ParameterSubscription::Options local;
        local.parameters = names;
        local.capacity = 1 << 20;
        auto inProcess = api::ParameterSubscription::create(*r->station, local);
        QVERIFY(inProcess);

        client::Client station(r->server->target());
        v1::SubscribeParametersRequest request;
        for (const auto& n : names)
            request.add_parameters(n);
        request.set_capacity(1 << 20);
        request.set_max_batch(512);
        auto remote = station.parameters(request);
        // The first batch names the parameters: the subscription is in place once it has come.
        auto first = remote.next();
        QVERIFY(first);
        QCOMPARE(first->parameter_names_size(), 3);
        QCOMPARE(remote.name(static_cast<std::uint32_t>(*r->station->types().parameterId("Packet5.CPU_LOAD"))),
                 std::string("Packet5.CPU_LOAD"));

        const auto sent = test::sendPackets(*r->station, "tm", {"Packet5", "HK_Status"}, 20000, 10000);
        QVERIFY(test::settle(*r->station, "tm", sent.sent.packets));
        // What the station processed (all that was sent, unless a sanitizer's slowness made the kernel
        // drop some: counted as such) is what both subscriptions get.
        const auto snap = r->station->snapshot();
        const auto* tm = test::streamStats(snap, "tm");
        QVERIFY(tm);
        QCOMPARE(tm->counters.packetsReceived + tm->kernelDrops, sent.sent.packets);
        const std::uint64_t expected = test::typeStats(*tm, "Packet5")->counters.packetsProcessed * 2 +
                                       test::typeStats(*tm, "HK_Status")->counters.packetsProcessed;

        std::vector<pipeline::ParameterSample> want(expected + 10);
        std::size_t have = 0;
        QVERIFY(test::waitUntil([&] {
            have += inProcess.value()->poll(std::span(want).subspan(have));
            return have >= expected;
        }));
        QCOMPARE(have, std::size_t{expected});
        std::size_t got = 0;
        std::uint64_t lastDropped = 0;
        while (got < expected) {
            auto batch = remote.next();
            QVERIFY2(batch, remote.status().error_message().c_str());
            QVERIFY(batch->samples_size() <= 512);
            for (const auto& s : batch->samples()) {
                QVERIFY2(sameValue(s, want[got]), std::to_string(got).c_str());
                ++got;
            }
            lastDropped = batch->dropped();
            QCOMPARE(batch->delivered(), std::uint64_t{got});
            QCOMPARE(remote.streamName(batch->samples_size() ? batch->samples(0).stream_id() : 0u), std::string("tm"));
        }
        QCOMPARE(got, std::size_t{expected});
        QCOMPARE(lastDropped, std::uint64_t{0});
        // The client appears in the statistics under its name and address.
        const auto snapshot = r->station->snapshot();
        const bool listed = std::any_of(snapshot.consumers.begin(), snapshot.consumers.end(), [](const auto& c) {
            return c.name.starts_with("cpp-client (ipv4:127.0.0.1:") && c.kind == "parameters";
        });
        QVERIFY(listed);
        remote.cancel();
        QVERIFY(test::waitUntil([&] { return r->station->snapshot().consumers.size() == 1; })); // only the local one
    }

    // Newest-value clients are listed in the statistics too — delivery "newest", no queue (depth 0, no
    // drop) — in the snapshot and the Statistics stream, until they end; so are the in-process API's
    // named newest-value subscriptions (a value table's unnamed one is not).
    void newestValueClientsAreListed()
    {
        auto r = apiStation();
        QVERIFY(r);
        client::Client station(r->server->target());
        auto newest = station.parameters({"Packet5.CPU_LOAD", "Packet5.OPS_MODE"}, "tm", v1::DELIVERY_NEWEST, 100);
        QVERIFY(newest.next()); // in place
        const auto entry = [](const stats::StationSnapshot& snapshot) -> std::optional<stats::ConsumerStats> {
            for (const auto& c : snapshot.consumers)
                if (c.name.starts_with("cpp-client (ipv4:127.0.0.1:") && c.kind == "parameters"
                    && c.delivery == "newest")
                    return c;
            return std::nullopt;
        };
        QVERIFY(entry(r->station->snapshot()));
        const auto sent = test::sendPackets(*r->station, "tm", {"Packet5"}, 10, 1000);
        QVERIFY(test::settle(*r->station, "tm", sent.sent.packets));
        auto batch = newest.next();
        while (batch && batch->samples_size() == 0)
            batch = newest.next();
        QVERIFY2(batch, newest.status().error_message().c_str());
        const std::uint64_t got = batch->delivered();
        QVERIFY(got > 0);
        const auto listed = entry(r->station->snapshot());
        QVERIFY(listed);
        QVERIFY(listed->delivered >= got);
        QCOMPARE(listed->queue.depth, std::uint64_t{0});
        QCOMPARE(listed->queue.drops, std::uint64_t{0});
        auto statistics = station.statistics(100);
        const auto message = statistics.next();
        QVERIFY(message);
        const auto& clients = message->clients();
        const auto client = std::find_if(clients.begin(), clients.end(), [](const v1::ClientStatistics& c) {
            return c.name().starts_with("cpp-client (ipv4:127.0.0.1:") && c.delivery() == "newest";
        });
        QVERIFY(client != clients.end());
        QCOMPARE(client->kind(), std::string("parameters"));
        QVERIFY(client->delivered() >= got);
        QCOMPARE(client->queue_depth(), std::uint64_t{0});
        QCOMPARE(client->drops(), std::uint64_t{0});
        newest.cancel();
        QVERIFY(test::waitUntil([&] { return !entry(r->station->snapshot()); }));

        api::ParameterSubscription::Options options;
        options.name = "local newest";
        options.parameters = {"Packet5.CPU_LOAD"};
        options.delivery = api::Delivery::Newest;
        auto local = api::ParameterSubscription::create(*r->station, options);
        QVERIFY(local);
        auto view = api::ParameterSubscription::createNewest(*r->station);
        const auto consumers = r->station->snapshot().consumers;
        QCOMPARE(consumers.size(), std::size_t{1});
        QCOMPARE(consumers[0].name, std::string("local newest"));
        QCOMPARE(consumers[0].delivery, std::string("newest"));
        local.value().reset();
        QVERIFY(r->station->snapshot().consumers.empty());
    }

    // A client that does not read loses only its own samples, counted (delivered + dropped = all); a
    // client that reads gets every one; the station loses nothing.
    void aSlowClientLosesOnlyItsOwnSamples()
    {
#if defined(__SANITIZE_THREAD__)
        // Under ThreadSanitizer this passes run alone (2 of 2) but, with the TSan suite running beside
        // it, the fast client's stream stalled for 30 s after 24,000 of 40,000 samples (none dropped,
        // the station idle). Both clients live in this one process — unlike two programs, they share
        // gRPC's client-side machinery (memory quota, pollers) while the slow one holds megabytes
        // unread; not understood yet (see the issue 16 note). The dev and ASan builds run it.
        QSKIP("stalls under ThreadSanitizer when the machine is busy; see the comment and the issue 16 note");
#endif
        auto r = apiStation();
        QVERIFY(r);
        const std::vector<std::string> names{"Packet5.CPU_LOAD", "Packet5.OPS_MODE", "Packet5.SAFE_MODE_FLAG",
                                             "Packet5.SAMPLE_CHAMBER_TEMP"};
        const auto request = [&](const char* who, std::uint32_t capacity) {
            v1::SubscribeParametersRequest q;
            q.set_client_name(who);
            for (const auto& n : names)
                q.add_parameters(n);
            q.set_capacity(capacity);
            return q;
        };
        // Two clients, as two programs would be: a connection each.
        client::Client fastClient(r->server->target());
        client::Client slowClient(r->server->target());
        auto fast = fastClient.parameters(request("fast", 1 << 20));
        // The slow one asks for every parameter of Packet5: far more than HTTP/2's windows hold unread.
        v1::SubscribeParametersRequest everything;
        everything.set_client_name("slow");
        everything.add_packet_types("Packet5");
        everything.set_capacity(1000);
        auto slow = slowClient.parameters(everything);
        QVERIFY(fast.next() && slow.next()); // both in place
        QVERIFY(test::waitUntil([&] { return r->station->snapshot().consumers.size() == 2; }));

        // The fast client reads on its own thread while the simulator sends; the slow one reads nothing.
        std::atomic<std::uint64_t> fastGot{0}, fastDropped{0};
        std::thread reader([&] {
            while (auto batch = fast.next()) {
                fastGot += static_cast<std::uint64_t>(batch->samples_size());
                fastDropped = batch->dropped();
            }
        });
        auto stopReader = qScopeGuard([&] { // also when a check below fails
            fast.interrupt();
            reader.join();
        });
        // In bursts of 2,000 packets, each sent once the station has processed the last: a busy machine
        // (a sanitizer's 5-15x slower build, or the suite run under stress-ng) cannot take 10,000 packets
        // a second of 88 parameters for long and would drop in its own queues (4,096 packets) — not what
        // this tests. A slow client that held the station up would keep it from ever being idle.
        const std::uint64_t bursts = test::kSanitized ? 5 : 20;
        std::uint64_t sentPackets = 0;
        for (std::uint64_t b = 0; b < bursts; ++b) {
            sentPackets += test::sendPackets(*r->station, "tm", {"Packet5"}, 2000, 10000).sent.packets;
            QVERIFY(test::settle(*r->station, "tm", sentPackets));
        }
        // What the station processed (all that was sent unless a sanitizer's slowness made the kernel drop
        // some, counted as such) is what each client is owed.
        const auto processed = r->station->snapshot();
        const auto* type = test::typeStats(*test::streamStats(processed, "tm"), "Packet5");
        QVERIFY(type);
        const std::uint64_t expected = type->counters.packetsProcessed * names.size();
        const bool allRead = test::waitUntil([&] { return fastGot.load() >= expected; });
        stopReader.dismiss();
        fast.interrupt(); // the reader's next() returns
        reader.join();
        QVERIFY2(allRead, (std::to_string(fastGot.load()) + " of " + std::to_string(expected) + ", dropped " +
                           std::to_string(fastDropped.load()) + "; " + fast.status().error_message())
                              .c_str());
        QCOMPARE(fastGot.load(), expected);
        QCOMPARE(fastDropped.load(), std::uint64_t{0});

        // The slow client now reads what it was given: all but what it dropped, and it was told how many.
        std::uint64_t slowGot = 0, slowDropped = 0;
        QVERIFY(test::waitUntil([&] {
            auto batch = slow.next();
            if (!batch)
                return true;
            slowGot += static_cast<std::uint64_t>(batch->samples_size());
            slowDropped = batch->dropped();
            return slowGot + slowDropped >= type->counters.packetsProcessed * 88;
        }));
        const std::uint64_t owedSlow = type->counters.packetsProcessed * 88; // Packet5 has 88 parameters
        QCOMPARE(slowGot + slowDropped, owedSlow);
        QVERIFY2(slowDropped > 0, std::to_string(slowGot).c_str());
        // The station: everything received was processed; its own queues dropped nothing.
        const auto snap = r->station->snapshot();
        const auto* tm = test::streamStats(snap, "tm");
        QVERIFY(tm);
        QCOMPARE(tm->counters.packetsProcessed, tm->counters.packetsReceived);
        QCOMPARE(stats::dropCount(*tm), tm->kernelDrops); // none of its queues dropped
        const auto slowStats = std::find_if(snap.consumers.begin(), snap.consumers.end(),
                                            [](const stats::ConsumerStats& c) { return c.name.starts_with("slow "); });
        QVERIFY(slowStats != snap.consumers.end());
        QCOMPARE(slowStats->queue.drops, slowDropped);
    }

    // Raw packets as received, whole, with their stream and type.
    void packetsArriveWhole()
    {
        auto r = apiStation();
        QVERIFY(r);
        client::Client station(r->server->target());
        v1::SubscribePacketsRequest request;
        request.set_stream("tm");
        request.set_packet_type("HK_Status");
        request.set_capacity(65536);
        auto packets = station.packets(request);
        // Subscriptions start at the processor's next batch: wait until it is listed.
        QVERIFY(test::waitUntil([&] { return !r->station->snapshot().consumers.empty(); }));
        const auto sent = test::sendPackets(*r->station, "tm", {"Packet5", "HK_Status"}, 2000, 20000);
        QVERIFY(test::settle(*r->station, "tm", sent.sent.packets));
        const std::uint64_t expected = sent.apids.at(100).packets;
        std::uint64_t got = 0, bytes = 0;
        const auto* hk = test::trainingDatabase().findPacket("HK_Status");
        QVERIFY(hk);
        while (got < expected) {
            auto batch = packets.next();
            QVERIFY(batch);
            for (const auto& p : batch->packets()) {
                QCOMPARE(p.packet_type(), std::string("HK_Status"));
                QCOMPARE(p.apid(), 100u);
                QCOMPARE(p.frame().size(), std::size_t{hk->length});
                QCOMPARE(p.transport_header_bytes(), 0u);
                QVERIFY(p.receive_time_ns() > 0);
                QCOMPARE(packets.streamName(p.stream_id()), std::string("tm"));
                bytes += p.frame().size();
                ++got;
            }
        }
        QCOMPARE(got, expected);
        QCOMPARE(bytes, sent.apids.at(100).bytes);
    }

    // The mission database as the station has it; current values; bad names refused with the reason.
    void databaseCurrentValuesAndBadRequests()
    {
        auto r = apiStation();
        QVERIFY(r);
        client::Client station(r->server->target());
        const auto info = station.serverInfo();
        QCOMPARE(info.schema_major(), 1u);
        QCOMPARE(info.streams_size(), 1);
        QCOMPARE(info.streams(0).name(), std::string("tm"));
        QVERIFY(info.streams(0).running());
        const auto db = station.missionDatabase();
        const auto& local = test::trainingDatabase();
        QCOMPARE(static_cast<std::size_t>(db.packet_types_size()), local.packets.size());
        std::size_t parameters = 0;
        for (const auto& type : db.packet_types()) {
            const auto* def = local.findPacket(type.name());
            QVERIFY(def);
            QCOMPARE(type.apid(), std::uint32_t{def->apid});
            QCOMPARE(static_cast<std::size_t>(type.parameters_size()), def->parameters.size());
            for (const auto& p : type.parameters()) {
                QCOMPARE(r->station->types().parameterId(p.qualified_name()).value_or(~0u), p.id());
                ++parameters;
            }
        }
        QCOMPARE(parameters, std::size_t{r->station->types().totalParameters()});

        const auto sent = test::sendPackets(*r->station, "tm", {"Packet5"}, 10, 1000);
        QVERIFY(test::settle(*r->station, "tm", sent.sent.packets));
        const auto values = station.currentValues("tm", {"Packet5.CPU_LOAD"});
        QCOMPARE(values.samples_size(), 1);
        api::ParameterReader reader(*r->station);
        const auto now = reader.read("tm", "Packet5.CPU_LOAD");
        QVERIFY(now);
        QVERIFY(sameValue(values.samples(0), *now));

        try {
            (void)station.currentValues("tm", {"Packet5.NO_SUCH"});
            QFAIL("an unknown parameter was accepted");
        } catch (const client::Error& e) {
            QCOMPARE(e.code(), grpc::StatusCode::INVALID_ARGUMENT);
            QVERIFY2(std::string(e.what()).find("Packet5.NO_SUCH") != std::string::npos, e.what());
        }
        auto bad = station.parameters({"Nope.NOPE"});
        QVERIFY(!bad.next());
        QCOMPARE(bad.status().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
        QVERIFY(r->station->running()); // nothing of that touched the station
    }

    // Control: a packet type's mode and recording change live; each call is an event naming the client.
    void controlChangesLiveSettingsAndRaisesEvents()
    {
        auto r = apiStation();
        QVERIFY(r);
        client::Options options;
        options.clientName = "ops-script";
        client::Client station(r->server->target(), options);
        const auto typeIndex = r->station->types().typeByName("Packet5");
        QVERIFY(typeIndex);
        const auto id = *r->station->streamId("tm");
        QCOMPARE(static_cast<int>(r->station->mode(id, *typeIndex)), static_cast<int>(config::ProcessingMode::ProcessEntirePacket));
        v1::SetPacketSettingsRequest request;
        request.set_stream("tm");
        request.set_packet_type("Packet5");
        request.set_mode(v1::PROCESSING_MODE_PASS_THRU);
        request.set_record(true);
        const std::string done = station.setPacketSettings(request);
        QVERIFY2(done.find("passThru") != std::string::npos, done.c_str());
        QCOMPARE(static_cast<int>(r->station->mode(id, *typeIndex)), static_cast<int>(config::ProcessingMode::PassThru));
        const auto profile = r->station->profile();
        const auto& entries = profile.streams.at(0).packets;
        const bool recorded = std::any_of(entries.begin(), entries.end(),
                                          [](const config::PacketSettings& p) { return p.packet == "Packet5" && p.record; });
        QVERIFY(recorded);
        QVERIFY(station.stopStream("tm").find("stopped") != std::string::npos);
        QVERIFY(!r->station->streamRunning("tm"));
        QVERIFY(station.startStream("tm").find("started") != std::string::npos);
        QVERIFY(r->station->streamRunning("tm"));
        r->station->flushEvents();
        const auto events = r->station->events();
        const auto byClient = std::count_if(events.begin(), events.end(), [](const events::Event& e) {
            return e.detail == "api" && e.text.find("ops-script") != std::string::npos && e.stream == "tm";
        });
        QCOMPARE(byClient, 3); // the audit trail: never merged, however quick the calls
        try {
            (void)station.setMode("tm", "NoSuchPacket", v1::PROCESSING_MODE_PASS_THRU);
            QFAIL("an unknown packet type was accepted");
        } catch (const client::Error& e) {
            QCOMPARE(e.code(), grpc::StatusCode::INVALID_ARGUMENT);
        }
    }

    // Tokens: none or an unknown one refused (UNAUTHENTICATED), a read-only one may read but not control
    // (PERMISSION_DENIED), a control one may do both; every refusal counted.
    void tokensRefuseWhatTheyMust()
    {
        auto r = apiStation({{"reader-secret", "analyst", false}, {"control-secret", "flight", true}});
        QVERIFY(r);
        const auto code = [](auto&& call) {
            try {
                call();
                return grpc::StatusCode::OK;
            } catch (const client::Error& e) {
                return e.code();
            }
        };
        client::Client anonymous(r->server->target());
        QCOMPARE(code([&] { (void)anonymous.serverInfo(); }), grpc::StatusCode::UNAUTHENTICATED);
        const auto withToken = [](std::string token) {
            client::Options o;
            o.token = std::move(token);
            return o;
        };
        client::Client stranger(r->server->target(), withToken("guess"));
        QCOMPARE(code([&] { (void)stranger.missionDatabase(); }), grpc::StatusCode::UNAUTHENTICATED);
        auto refusedStream = stranger.parameters({"Packet5.CPU_LOAD"});
        QVERIFY(!refusedStream.next());
        QCOMPARE(refusedStream.status().error_code(), grpc::StatusCode::UNAUTHENTICATED);
        client::Client reader(r->server->target(), withToken("reader-secret"));
        QCOMPARE(code([&] { (void)reader.serverInfo(); }), grpc::StatusCode::OK);
        QCOMPARE(code([&] { (void)reader.stopStream("tm"); }), grpc::StatusCode::PERMISSION_DENIED);
        QVERIFY(r->station->streamRunning("tm"));
        client::Client controller(r->server->target(), withToken("control-secret"));
        QCOMPARE(code([&] { (void)controller.stopStream("tm"); }), grpc::StatusCode::OK);
        QVERIFY(!r->station->streamRunning("tm"));
        QCOMPARE(r->server->refusals(), std::uint64_t{4});
    }

    // An oversized request (over 1 MiB) is refused by gRPC before it reaches the station; one with
    // garbage names is refused by the station with the name; the station serves on.
    void oversizedAndMalformedRequestsAreRefused()
    {
        auto r = apiStation();
        QVERIFY(r);
        client::Client station(r->server->target());
        std::vector<std::string> many(2000, std::string(1000, 'x')); // ~2 MB of names
        try {
            (void)station.currentValues("tm", many);
            QFAIL("an oversized request was accepted");
        } catch (const client::Error& e) {
            QCOMPARE(e.code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
        }
        try { // not UTF-8: protobuf refuses the message (on one side or the other)
            (void)station.currentValues("tm", {std::string("\xff\xfe.\x01")});
            QFAIL("a name that is not UTF-8 was accepted");
        } catch (const client::Error& e) {
            QVERIFY(e.code() != grpc::StatusCode::OK);
        }
        for (const std::string& bad : {std::string(), std::string("Packet5."), std::string("."), std::string("a.b.c")}) {
            try {
                (void)station.currentValues("tm", {bad});
                QFAIL("a malformed name was accepted");
            } catch (const client::Error& e) {
                QCOMPARE(e.code(), grpc::StatusCode::INVALID_ARGUMENT);
            }
        }
        v1::SubscribeParametersRequest odd;
        odd.add_packet_types("Packet5");
        odd.set_max_batch(~0u);        // clamped to the most a batch holds
        odd.set_rate_hz(-1);           // not used (every sample)
        odd.set_delivery(static_cast<v1::Delivery>(77)); // an unknown delivery: every sample
        auto subscription = station.parameters(odd);
        QVERIFY(subscription.next());
        QCOMPARE(station.serverInfo().streams(0).name(), std::string("tm"));
        QVERIFY(r->station->running());
    }

    // Off loopback the server needs TLS and a token; it says so and does not start.
    void offLoopbackNeedsTlsAndTokens()
    {
        QTemporaryDir dir;
        auto station = test::startStation(test::stationProfile(dir, {test::streamProfile("tm")}), test::trainingDatabase());
        QVERIFY(station);
        rpc::ApiServerOptions options;
        options.address = "0.0.0.0";
        auto refused = rpc::ApiServer::start(*station, options);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.find("TLS") != std::string::npos, refused.error().message.c_str());
        options.address = "127.0.0.1";
        options.tlsCertificate = dir.filePath("missing.pem").toStdString();
        options.tlsKey = dir.filePath("missing.key").toStdString();
        auto missing = rpc::ApiServer::start(*station, options);
        QVERIFY(!missing);
        QVERIFY2(missing.error().message.find("missing.pem") != std::string::npos, missing.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRpcApi)
#include "tst_rpc_api.moc"
