// The API's archive queries (issue 16, part 4) over a real station, real gRPC on loopback, the C++
// client library: a simulator
// run recorded by the station, then queried — every parameter sample and packet of the recording
// equals what the station processed live (an in-process subscription during the run), in order; time
// ranges, streams and packet types select exactly; the list of recorded segments; bad requests refused
// with a reason; no recordings is NOT_FOUND.
#include "clients/cpp/client.hpp"
#include "core/api/consumer.hpp"
#include "rpc/api_server.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/training_mission.hpp"
#include "tests/support/wait_until.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace telestation;
namespace v1 = telestation::v1;

namespace {

const std::vector<std::string> kParameters{"Packet5.CPU_LOAD", "Packet5.OPS_MODE", "HK_Status.BUS_VOLTAGE"};

config::PacketSettings recorded(std::string packet)
{
    config::PacketSettings p;
    p.packet = std::move(packet);
    p.record = true;
    return p;
}

struct Frame {
    std::vector<std::uint8_t> bytes;
    std::int64_t receiveTimeNs = 0;
};

// A query's outcome: its messages, status and trailing summary.
template <typename Batch>
struct Query {
    std::vector<Batch> batches;
    grpc::Status status;
    std::string summary;
};

template <typename Batch>
Query<Batch> drain(client::Subscription<Batch> subscription)
{
    Query<Batch> q;
    while (auto batch = subscription.next())
        q.batches.push_back(std::move(*batch));
    q.status = subscription.status();
    q.summary = subscription.trailer("telestation-archive-summary");
    return q;
}

} // namespace

class TestRpcArchive : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<pipeline::Station> m_station;
    std::unique_ptr<rpc::ApiServer> m_server;
    std::unique_ptr<client::Client> m_client;
    std::vector<pipeline::ParameterSample> m_samples; // what the station processed live, in order
    std::vector<Frame> m_hkFrames;                    // the HK_Status packets it received

    Query<v1::ParameterBatch> parameters(const v1::ArchiveParametersRequest& request)
    {
        return drain(m_client->archiveParameters(request));
    }
    Query<v1::PacketBatch> packets(const v1::ArchivePacketsRequest& request)
    {
        return drain(m_client->archivePackets(request));
    }

    // The samples of a query, checked against the live ones from `from` on, in order.
    void expectSamples(const Query<v1::ParameterBatch>& q, std::size_t from, std::size_t count)
    {
        QVERIFY2(q.status.ok(), q.status.error_message().c_str());
        QVERIFY(!q.batches.empty());
        QCOMPARE(q.batches.front().samples_size(), 0); // the first names the parameters
        QCOMPARE(q.batches.front().parameter_names_size(), int(kParameters.size()));
        std::map<std::uint32_t, std::string> streams;
        std::size_t i = from;
        std::uint64_t delivered = 0;
        for (const auto& batch : q.batches) {
            for (const auto& n : batch.stream_names())
                streams[n.id()] = n.name();
            for (const auto& s : batch.samples()) {
                QVERIFY2(i < from + count, "more samples than expected");
                const auto& want = m_samples[i];
                const std::string at = "sample " + std::to_string(i);
                QVERIFY2(s.parameter_id() == want.parameterId, at.c_str());
                QVERIFY2(streams[s.stream_id()] == "tm", at.c_str());
                QVERIFY2(s.receive_time_ns() == want.receiveTimeNs, at.c_str());
                QVERIFY2(s.packet_time_ns() == want.packetTimeNs, at.c_str());
                QVERIFY2(s.raw() == want.value.raw, at.c_str());
                QVERIFY2(s.calibrated() == want.value.calibrated, at.c_str());
                QVERIFY2(s.state() == want.value.state, at.c_str());
                QVERIFY2(static_cast<int>(s.limit()) == static_cast<int>(want.value.limit), at.c_str());
                ++i;
            }
            delivered += static_cast<std::uint64_t>(batch.samples_size());
            QCOMPARE(batch.delivered(), delivered);
        }
        QCOMPARE(i, from + count);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto profile = test::stationProfile(
            m_dir, {test::streamProfile("tm", "udp://127.0.0.1:0", {recorded("Packet5"), recorded("HK_Status")})});
        m_station = test::startStation(profile, test::trainingDatabase());
        QVERIFY(m_station);
        auto server = rpc::ApiServer::start(*m_station, {});
        QVERIFY2(server, server ? "" : server.error().message.c_str());
        m_server = std::move(*server);
        m_client = std::make_unique<client::Client>(m_server->target());

        api::ParameterSubscription::Options sampleOptions;
        sampleOptions.parameters = kParameters;
        sampleOptions.capacity = 1 << 20;
        auto samples = api::ParameterSubscription::create(*m_station, sampleOptions);
        QVERIFY(samples);
        api::PacketSubscription::Options packetOptions;
        packetOptions.packet = "HK_Status";
        packetOptions.capacity = 1 << 16;
        auto hk = api::PacketSubscription::create(*m_station, packetOptions);
        QVERIFY(hk);

        const auto sent = test::sendPackets(*m_station, "tm", {"Packet5", "HK_Status"}, 4000, 4000);
        QVERIFY(test::settle(*m_station, "tm", sent.sent.packets));
        m_station->stop(); // closes the segments: every record is on disk
        std::vector<pipeline::ParameterSample> buffer(8192);
        while (const std::size_t n = (*samples)->poll(buffer))
            m_samples.insert(m_samples.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
        while ((*hk)->poll([&](const api::PacketView& v) {
            m_hkFrames.push_back({{v.frame.begin(), v.frame.end()}, v.receiveTimeNs});
        }, 4096) > 0) {
        }
        QCOMPARE((*samples)->drops(), std::uint64_t{0});
        QVERIFY(m_samples.size() > 4000);
        QVERIFY(m_hkFrames.size() > 100);
    }

    void listsTheRecordedSegments()
    {
        const v1::RecordingList list = m_client->recordings();
        QVERIFY(!list.segments().empty());
        std::uint64_t packets = 0;
        for (const auto& s : list.segments()) {
            QCOMPARE(s.stream(), std::string("tm"));
            QCOMPARE(s.state(), std::string("closed"));
            QVERIFY(s.first_time_ns() <= s.last_time_ns());
            packets += s.packets();
        }
        const auto snap = m_station->snapshot();
        QCOMPARE(packets, snap.totals.packetsRecorded);
    }

    // Every sample of the recording, in order, equal to what the station processed live.
    void everyRecordedSampleEqualsTheLiveOne()
    {
        v1::ArchiveParametersRequest request;
        for (const auto& n : kParameters)
            request.add_parameters(n);
        request.set_max_batch(1000);
        const auto q = parameters(request);
        expectSamples(q, 0, m_samples.size());
        for (const auto& b : q.batches)
            QVERIFY(b.samples_size() <= 1000);
        QVERIFY2(q.summary.find("unknown=0 malformed=0") != std::string::npos, q.summary.c_str());
        QVERIFY2(q.summary.find("samples=" + std::to_string(m_samples.size())) != std::string::npos, q.summary.c_str());

        // A packet type's every parameter: as many samples as its packets times its parameters.
        v1::ArchiveParametersRequest all;
        all.add_packet_types("HK_Status");
        const auto hk = parameters(all);
        QVERIFY2(hk.status.ok(), hk.status.error_message().c_str());
        std::size_t n = 0;
        for (const auto& b : hk.batches)
            n += static_cast<std::size_t>(b.samples_size());
        const auto type = m_station->types().typeByName("HK_Status");
        QCOMPARE(n, m_hkFrames.size() * m_station->types().parameterCount(*type));
    }

    // A receive-time range selects exactly the samples inside it, ends included.
    void aTimeRangeSelectsExactly()
    {
        const std::size_t a = m_samples.size() / 3, b = 2 * m_samples.size() / 3;
        std::size_t from = a, to = b;
        while (from > 0 && m_samples[from - 1].receiveTimeNs == m_samples[a].receiveTimeNs)
            --from;
        while (to + 1 < m_samples.size() && m_samples[to + 1].receiveTimeNs == m_samples[b].receiveTimeNs)
            ++to;
        v1::ArchiveParametersRequest request;
        for (const auto& n : kParameters)
            request.add_parameters(n);
        request.set_start_ns(m_samples[a].receiveTimeNs);
        request.set_stop_ns(m_samples[b].receiveTimeNs);
        expectSamples(parameters(request), from, to - from + 1);
    }

    // Packets of one type, whole and in order, as the station received them.
    void recordedPacketsAreWhole()
    {
        v1::ArchivePacketsRequest request;
        request.add_packet_types("HK_Status");
        request.set_max_batch(50);
        const auto q = packets(request);
        QVERIFY2(q.status.ok(), q.status.error_message().c_str());
        QCOMPARE(q.batches.front().packets_size(), 0);
        std::size_t i = 0;
        for (const auto& batch : q.batches)
            for (const auto& p : batch.packets()) {
                QVERIFY(i < m_hkFrames.size());
                QCOMPARE(p.packet_type(), std::string("HK_Status"));
                QCOMPARE(p.receive_time_ns(), m_hkFrames[i].receiveTimeNs);
                QVERIFY(std::equal(p.frame().begin(), p.frame().end(), m_hkFrames[i].bytes.begin(),
                                   m_hkFrames[i].bytes.end(), [](char x, std::uint8_t y) { return std::uint8_t(x) == y; }));
                ++i;
            }
        QCOMPARE(i, m_hkFrames.size());
        QVERIFY2(q.summary.find("packets=" + std::to_string(m_hkFrames.size())) != std::string::npos, q.summary.c_str());
    }

    // A client that stops reading and cancels ends its query; the server answers the next one.
    void aCancelledQueryEnds()
    {
        v1::ArchiveParametersRequest request;
        request.add_packet_types("Packet5");
        request.set_max_batch(16);
        auto query = m_client->archiveParameters(request);
        QVERIFY(query.next() && query.next());
        query.cancel();
        QCOMPARE(query.status().error_code(), grpc::StatusCode::CANCELLED);
        v1::ArchiveParametersRequest again;
        again.add_parameters("HK_Status.BUS_VOLTAGE");
        const auto q = parameters(again);
        QVERIFY2(q.status.ok(), q.status.error_message().c_str());
    }

    void badRequestsAreRefusedWithAReason()
    {
        const auto expectRefused = [&](const v1::ArchiveParametersRequest& r, grpc::StatusCode code, const char* words) {
            const auto q = parameters(r);
            QCOMPARE(q.status.error_code(), code);
            QVERIFY2(q.status.error_message().find(words) != std::string::npos, q.status.error_message().c_str());
            QVERIFY(q.batches.empty());
        };
        v1::ArchiveParametersRequest unknownName;
        unknownName.add_parameters("Packet5.NO_SUCH");
        expectRefused(unknownName, grpc::StatusCode::INVALID_ARGUMENT, "no parameter 'Packet5.NO_SUCH'");
        v1::ArchiveParametersRequest unknownStream;
        unknownStream.add_streams("nope");
        expectRefused(unknownStream, grpc::StatusCode::INVALID_ARGUMENT, "stream 'nope' is not in the recording");
        v1::ArchiveParametersRequest backwards;
        backwards.set_start_ns(2000);
        backwards.set_stop_ns(1000);
        expectRefused(backwards, grpc::StatusCode::INVALID_ARGUMENT, "start <= stop");
        v1::ArchivePacketsRequest unknownType;
        unknownType.add_packet_types("NoSuchPacket");
        QCOMPARE(packets(unknownType).status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    }

    // A station that has recorded nothing yet: NOT_FOUND, saying so.
    void noRecordingsIsNotFound()
    {
        QTemporaryDir dir;
        auto station = test::startStation(test::stationProfile(dir, {test::streamProfile("tm")}), test::trainingDatabase());
        QVERIFY(station);
        auto server = rpc::ApiServer::start(*station, {});
        QVERIFY(server);
        client::Client api((*server)->target());
        try {
            (void)api.recordings();
            QFAIL("a station without recordings listed some");
        } catch (const client::Error& e) {
            QCOMPARE(e.code(), grpc::StatusCode::NOT_FOUND);
            QVERIFY2(std::string(e.what()).find("no recordings") != std::string::npos, e.what());
        }
    }

    void cleanupTestCase()
    {
        m_client.reset();
        m_server.reset();
        m_station.reset();
    }
};

QTEST_GUILESS_MAIN(TestRpcArchive)
#include "tst_rpc_archive.moc"
