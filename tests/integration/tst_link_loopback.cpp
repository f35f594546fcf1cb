// The link test end to end on loopback (issue 18, core/link): a real Responder in this process and
// runLinkTest against it, each test on small grids with short phases — message rate over TCP and UDP,
// the UDP grid, parallel TCP flows, the block sweep, the telemetry test through the responder's own
// station with the simulator's packets — and the report written from it. Then what must fail cleanly:
// unknown test names, an absent responder, a busy one, a controller that disappears mid-phase, garbage
// on the control connection, and the responder's `allow` and `once`.
#include "core/io/socket_util.hpp"
#include "core/link/control_channel.hpp"
#include "core/link/controller.hpp"
#include "core/link/responder.hpp"
#include "core/link/traffic_sender.hpp"
#include "sim/engine/link_telemetry.hpp"
#include "tests/support/headless_process.hpp"
#include "tests/support/training_mission.hpp"
#include "tests/support/wait_until.hpp"

#include <QElapsedTimer>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

using namespace telestation;
using namespace std::chrono_literals;
using link::TestKind;

namespace {

constexpr int kGenerousMs = 30'000;

// A responder on 127.0.0.1, any free port; nullptr (with a warning) when it does not start.
std::unique_ptr<link::Responder> startResponder(link::ResponderOptions options = {})
{
    options.listen = "127.0.0.1:0";
    auto responder = link::Responder::start(std::move(options));
    if (!responder) {
        qWarning("%s", responder.error().message.c_str());
        return nullptr;
    }
    return std::move(*responder);
}

std::shared_ptr<const mdb::MissionDatabase> trainingMission()
{
    return std::make_shared<const mdb::MissionDatabase>(test::trainingDatabase());
}

std::string loopback(std::uint16_t port)
{
    return "127.0.0.1:" + std::to_string(port);
}

// Small grids and short phases: the whole of a run in seconds.
link::ControllerOptions smallRun(const link::Responder& responder, std::vector<TestKind> tests)
{
    link::ControllerOptions o;
    o.responder = loopback(responder.port());
    o.tests = std::move(tests);
    o.command = "tst_link_loopback";
    o.messageSizes = {64, 1024};
    o.messageTime = 200ms;
    o.udpSizes = {64, 1472};
    o.udpGapsNs = {0, 200'000};
    o.udpCount = 200;
    o.flowCounts = {1, 4};
    o.flowsTime = 500ms;
    o.sampleMs = 50;
    o.blockSizes = {1024, 65536};
    o.blockTime = 200ms;
    o.telemetryStartMbps = 1;
    o.telemetryMaxMbps = 4;
    o.telemetryTries = 3;
    o.telemetryTime = 300ms;
    return o;
}

std::string failuresOf(const link::LinkReport& report)
{
    std::string out;
    for (const auto& [kind, why] : report.failures)
        out += std::string(link::testName(kind)) + ": " + why + "\n";
    return out;
}

// A raw controller: the control connection after the hello exchange.
Result<link::ControlChannel> helloChannel(const link::Responder& responder)
{
    auto channel = link::ControlChannel::connect(loopback(responder.port()), 10s);
    if (!channel)
        return channel.error();
    if (auto sent = channel->send(link::helloMessage("raw-controller")); !sent)
        return sent.error();
    auto answer = channel->receive(10s);
    if (!answer)
        return answer.error();
    if (link::kindOf(*answer).ok() && *link::kindOf(*answer) == link::MessageKind::Hello)
        return std::move(*channel);
    return Error{"no hello: " + answer->dump(), {}};
}

// Sends `message` and returns the answer (an error object when none came).
link::Json ask(link::ControlChannel& channel, const link::Json& message)
{
    if (auto sent = channel.send(message); !sent)
        return link::errorMessage("(test) send failed: " + sent.error().message);
    auto answer = channel.receive(std::chrono::milliseconds(kGenerousMs));
    return answer ? *answer : link::errorMessage("(test) no answer: " + answer.error().message);
}

bool isError(const link::Json& answer)
{
    const auto kind = link::kindOf(answer);
    return kind.ok() && *kind == link::MessageKind::Error;
}

// A raw line on the control connection, as a peer that does not speak JSON would send it.
bool sendRaw(const link::ControlChannel& channel, const std::string& line)
{
    return ::send(channel.fd(), line.data(), line.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(line.size());
}

} // namespace

class TestLinkLoopback : public QObject {
    Q_OBJECT

private slots:
    void messageRate();
    void udpGrid();
    void tcpFlows();
    void blockSweep();
    void telemetry();
    void everyTestInTheReport();
    void telemetryWithoutMissionOrSender();
    void cancelledBeforeTheFirstPhase();
    void loopbackHasNoWire();

    void unknownTestNames();
    void absentResponder();
    void busyResponder();
    void controllerDisappearsMidPhase();
    void garbageOnTheControlConnection();
    void emptyAllowRefusesNothingOnLoopback();
    void onceEndsAfterOneSession();
};

void TestLinkLoopback::messageRate()
{
    auto responder = startResponder();
    QVERIFY(responder);
    const auto report = link::runLinkTest(smallRun(*responder, {TestKind::MessageRate}));
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    QVERIFY2(report->failures.empty(), failuresOf(*report).c_str());
    // Each size over TCP, then each over UDP.
    QCOMPARE(report->messageRate.size(), std::size_t(4));
    const std::vector<std::pair<link::Transport, std::uint32_t>> expected{
        {link::Transport::Tcp, 64}, {link::Transport::Tcp, 1024}, {link::Transport::Udp, 64}, {link::Transport::Udp, 1024}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const link::MessageRateRow& row = report->messageRate[i];
        QCOMPARE(row.transport, expected[i].first);
        QCOMPARE(row.bytes, expected[i].second);
        QVERIFY(row.sent > 0);
        QVERIFY2(row.received > 0 && row.messagesPerSecond > 0 && row.kilobytesPerSecond > 0,
                 qPrintable(QStringLiteral("row %1: received %2, %3 messages/s").arg(i).arg(row.received).arg(row.messagesPerSecond)));
        if (row.transport == link::Transport::Tcp)
            QCOMPARE(row.received, row.sent); // TCP delivers every framed message, counted one by one
        QVERIFY(!row.limitKilobytesPerSecond); // loopback: no wire, no limit
        qInfo("%s %u B: %llu sent, %llu received, %.0f messages/s", std::string(link::transportName(row.transport)).c_str(), row.bytes,
              static_cast<unsigned long long>(row.sent), static_cast<unsigned long long>(row.received), row.messagesPerSecond);
    }
    // runLinkTest returns once the responder has ended the session: it is free for the next run at once.
    QVERIFY(!responder->busy());
    QCOMPARE(responder->counts().phases, std::uint64_t(4));
    QCOMPARE(responder->counts().sessions, std::uint64_t(1));
}

void TestLinkLoopback::udpGrid()
{
    auto responder = startResponder();
    QVERIFY(responder);
    const auto report = link::runLinkTest(smallRun(*responder, {TestKind::UdpGrid}));
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    QVERIFY2(report->failures.empty(), failuresOf(*report).c_str());
    QCOMPARE(report->udpGrid.size(), std::size_t(4)); // 2 sizes × 2 gaps
    const std::vector<std::pair<std::uint32_t, std::int64_t>> expected{{64, 0}, {64, 200'000}, {1472, 0}, {1472, 200'000}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const link::UdpGridRow& row = report->udpGrid[i];
        QCOMPARE(row.bytes, expected[i].first);
        QCOMPARE(row.gapNs, expected[i].second);
        QCOMPARE(row.count, std::uint64_t(200));
        QCOMPARE(row.sent + row.sendErrors, row.count);
        QVERIFY(row.received <= row.count);
        QCOMPARE(row.lost, row.count - row.received);
        QVERIFY(!row.wireNs); // loopback: no wire time
        QVERIFY(!row.wedge());
        if (row.gapNs > 0) {
            // 200 µs between datagrams is far below what loopback carries: nothing lost.
            QCOMPARE(row.received, row.count);
            QCOMPARE(row.lost, std::uint64_t(0));
            QVERIFY(row.receiveMbps > 0);
        }
        qInfo("%u B at %lld us: %llu of %llu received, send %.1f Mbit/s, receive %.1f Mbit/s", row.bytes,
              static_cast<long long>(row.gapNs / 1000), static_cast<unsigned long long>(row.received),
              static_cast<unsigned long long>(row.count), row.sendMbps, row.receiveMbps);
    }
}

void TestLinkLoopback::tcpFlows()
{
    auto responder = startResponder();
    QVERIFY(responder);
    const auto report = link::runLinkTest(smallRun(*responder, {TestKind::TcpFlows}));
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    QVERIFY2(report->failures.empty(), failuresOf(*report).c_str());
    QCOMPARE(report->flows.size(), std::size_t(2));
    QCOMPARE(report->flows[0].flows, 1u);
    QCOMPARE(report->flows[1].flows, 4u);
    for (const link::FlowsRow& row : report->flows) {
        QVERIFY(row.bytes > 0);
        QVERIFY2(!row.intervalMbps.empty(), qPrintable(QStringLiteral("%1 flows: no intervals").arg(row.flows)));
        QVERIFY(row.medianMbps > 0);
        QVERIFY(row.meanMbps > 0);
        QCOMPARE(row.windowBytes, 4u << 20);
        QVERIFY(!row.limitMbps);
        qInfo("%u flows: %zu intervals, median %.0f Mbit/s, mean %.0f Mbit/s", row.flows, row.intervalMbps.size(), row.medianMbps,
              row.meanMbps);
    }
}

void TestLinkLoopback::blockSweep()
{
    auto responder = startResponder();
    QVERIFY(responder);
    const auto report = link::runLinkTest(smallRun(*responder, {TestKind::BlockSweep}));
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    QVERIFY2(report->failures.empty(), failuresOf(*report).c_str());
    QCOMPARE(report->blocks.size(), std::size_t(2));
    QCOMPARE(report->blocks[0].blockBytes, 1024u);
    QCOMPARE(report->blocks[1].blockBytes, 65536u);
    for (const link::BlockRow& row : report->blocks) {
        QVERIFY(row.bytes > 0);
        QVERIFY(row.mbps > 0);
        QVERIFY(row.seconds > 0);
        QVERIFY(row.senderCpuPercent >= 0 && row.receiverCpuPercent >= 0);
        qInfo("%u B blocks: %.0f Mbit/s, sender CPU %.0f %%, receiver CPU %.0f %%", row.blockBytes, row.mbps, row.senderCpuPercent,
              row.receiverCpuPercent);
    }
}

void TestLinkLoopback::telemetry()
{
    link::ResponderOptions options;
    options.mission = trainingMission();
    auto responder = startResponder(options);
    QVERIFY(responder);
    sim::LinkTelemetrySender sender(test::trainingDatabase());
    auto o = smallRun(*responder, {TestKind::Telemetry});
    o.telemetry = &sender;
    const auto report = link::runLinkTest(o);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    QVERIFY2(report->failures.empty(), failuresOf(*report).c_str());
    QVERIFY(report->telemetry.has_value());
    const link::TelemetryResult& t = *report->telemetry;
    QCOMPARE(t.packet, std::string("Packet5"));
    QCOMPARE(t.packetBytes, *sender.packetBytes("Packet5"));
    QVERIFY(t.packetBytes > 0);
    QVERIFY(!t.tries.empty());
    QVERIFY(t.tries.size() <= 3);
    QCOMPARE(t.tries.front().mbps, 1.0);
    // At 1 Mbit/s the station takes every packet and decodes it.
    const link::TelemetryTry& first = t.tries.front();
    QVERIFY2(first.delivered(), qPrintable(QStringLiteral("sent %1, received %2, processed %3, dropped %4, sequence errors %5")
                                               .arg(first.sent)
                                               .arg(first.station.received)
                                               .arg(first.station.processed)
                                               .arg(first.station.dropped)
                                               .arg(first.station.sequenceErrors)));
    QVERIFY(t.bestMbps.has_value());
    QVERIFY(*t.bestMbps >= 1 && *t.bestMbps <= 4);
    for (const auto& x : t.tries)
        qInfo("%.2f Mbit/s: %llu sent, %llu received, %llu processed", x.mbps, static_cast<unsigned long long>(x.sent),
              static_cast<unsigned long long>(x.station.received), static_cast<unsigned long long>(x.station.processed));
}

void TestLinkLoopback::everyTestInTheReport()
{
    link::ResponderOptions options;
    options.mission = trainingMission();
    auto responder = startResponder(options);
    QVERIFY(responder);
    sim::LinkTelemetrySender sender(test::trainingDatabase());
    auto o = smallRun(*responder, {link::kAllTests.begin(), link::kAllTests.end()});
    o.telemetry = &sender;
    std::vector<std::string> said;
    o.progress = [&](const link::LinkReport&, const std::string& line) { said.push_back(line); };
    QElapsedTimer took;
    took.start();
    const auto report = link::runLinkTest(o);
    qInfo("the whole small run took %lld ms", static_cast<long long>(took.elapsed()));
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    QVERIFY2(report->failures.empty(), failuresOf(*report).c_str());
    QVERIFY(!said.empty());
    QCOMPARE(report->responder.find("(" + o.responder + ")") != std::string::npos, true);

    const std::string md = link::toMarkdown(*report);
    for (const TestKind k : link::kAllTests)
        QVERIFY2(md.find("## " + std::string(link::testTitle(k))) != std::string::npos, std::string(link::testTitle(k)).c_str());
    QVERIFY(md.find("- Command: `tst_link_loopback`") != std::string::npos);
    QVERIFY(md.find("speed unknown") != std::string::npos);

    const auto files = link::toCsvFiles(*report);
    QCOMPARE(files.size(), link::kAllTests.size());
    for (std::size_t i = 0; i < files.size(); ++i)
        QCOMPARE(files[i].first, "link-" + std::string(link::testName(link::kAllTests[i])) + ".csv");
    QCOMPARE(std::count(files[0].second.begin(), files[0].second.end(), '\n'), std::ptrdiff_t(2 + 4)); // title, header, 4 rows

    const link::Json json = link::Json::parse(link::toJson(*report).dump());
    for (const TestKind k : link::kAllTests)
        QVERIFY2(json.at("results").contains(std::string(link::testName(k))), std::string(link::testName(k)).c_str());
    QVERIFY(json.at("failures").empty());
    QCOMPARE(json.at("tests").size(), link::kAllTests.size());
}

void TestLinkLoopback::telemetryWithoutMissionOrSender()
{
    auto responder = startResponder(); // no mission
    QVERIFY(responder);
    sim::LinkTelemetrySender sender(test::trainingDatabase());
    auto o = smallRun(*responder, {TestKind::MessageRate, TestKind::Telemetry});
    o.messageSizes = {256};
    o.telemetry = &sender;
    const auto report = link::runLinkTest(o);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    QCOMPARE(report->messageRate.size(), std::size_t(2)); // the other test ran
    QCOMPARE(report->failures.size(), std::size_t(1));
    QCOMPARE(report->failures[0].first, TestKind::Telemetry);
    QVERIFY2(report->failures[0].second.find("no mission database") != std::string::npos, report->failures[0].second.c_str());

    // A packet the responder's mission does not define.
    link::ResponderOptions withMission;
    withMission.mission = trainingMission();
    auto second = startResponder(withMission);
    QVERIFY(second);
    auto unknownPacket = smallRun(*second, {TestKind::Telemetry});
    unknownPacket.telemetry = &sender;
    unknownPacket.packet = "NoSuchPacket";
    const auto refused = link::runLinkTest(unknownPacket);
    QVERIFY2(refused.ok(), refused.ok() ? "" : refused.error().message.c_str());
    QCOMPARE(refused->failures.size(), std::size_t(1));
    QVERIFY2(refused->failures[0].second.find("NoSuchPacket") != std::string::npos, refused->failures[0].second.c_str());

    // The responder's own refusal of a packet its mission does not define (the controller above did not
    // get as far as asking).
    {
        auto channel = helloChannel(*second);
        QVERIFY2(channel.ok(), channel.ok() ? "" : channel.error().message.c_str());
        link::PhaseRequest request;
        request.test = TestKind::Telemetry;
        request.transport = link::Transport::Udp;
        request.packet = "NoSuchPacket";
        const link::Json answer = ask(*channel, link::startMessage(request));
        QVERIFY2(isError(answer), answer.dump().c_str());
        QCOMPARE(link::errorReason(answer), std::string("the responder's mission database has no packet type 'NoSuchPacket'"));
        QVERIFY(channel->send(link::byeMessage()).ok());
    }
    QTRY_VERIFY_WITH_TIMEOUT(!second->busy(), kGenerousMs);

    // No sender on the controller: reported as not run, with why.
    auto noSender = smallRun(*second, {TestKind::Telemetry});
    const auto notRun = link::runLinkTest(noSender);
    QVERIFY2(notRun.ok(), notRun.ok() ? "" : notRun.error().message.c_str());
    QCOMPARE(notRun->failures.size(), std::size_t(1));
    QVERIFY(notRun->failures[0].second.find("no telemetry sender") != std::string::npos);
    QVERIFY(!notRun->telemetry);
}

void TestLinkLoopback::cancelledBeforeTheFirstPhase()
{
    auto responder = startResponder();
    QVERIFY(responder);
    std::atomic<bool> cancel{true};
    auto o = smallRun(*responder, {TestKind::MessageRate, TestKind::BlockSweep});
    o.cancel = &cancel;
    const auto report = link::runLinkTest(o);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    QVERIFY(report->messageRate.empty());
    QCOMPARE(report->failures.size(), std::size_t(1));
    QCOMPARE(report->failures[0].second, std::string("cancelled by the operator"));
    QTRY_VERIFY_WITH_TIMEOUT(!responder->busy(), kGenerousMs);
    QCOMPARE(responder->counts().phases, std::uint64_t(0));
}

void TestLinkLoopback::loopbackHasNoWire()
{
    // Loopback has no wire speed: the report shows no limits rather than made-up ones.
    const link::WireModel wire = link::wireTowards("127.0.0.1:7700"); // a route look-up; nothing is sent
    QVERIFY(!wire.known());
    QVERIFY2(wire.source.rfind("loopback ", 0) == 0, wire.source.c_str());
    QCOMPARE(link::wireTowards("not an address").source, std::string("unknown"));
}

// ---- Bad input: each a clear error, and nothing left running ------------------------------------

void TestLinkLoopback::unknownTestNames()
{
    const auto tests = link::parseTestList("msgrate,latency");
    QVERIFY(!tests.ok());
    QVERIFY2(tests.error().message.find("unknown link test 'latency'") != std::string::npos, tests.error().message.c_str());
    QVERIFY2(tests.error().message.find("msgrate, udpmon, flows, blocks, telemetry") != std::string::npos, tests.error().message.c_str());
}

void TestLinkLoopback::absentResponder()
{
    const std::uint16_t port = test::freePort(SOCK_STREAM); // bound, read, closed: nothing listens there
    auto o = link::ControllerOptions{};
    o.responder = loopback(port);
    o.tests = {TestKind::MessageRate};
    QElapsedTimer took;
    took.start();
    const auto report = link::runLinkTest(o);
    qInfo("an absent responder was reported after %lld ms", static_cast<long long>(took.elapsed()));
    QVERIFY(!report.ok());
    const std::string& message = report.error().message;
    QVERIFY2(message.find("no link responder at " + o.responder) != std::string::npos, message.c_str());
    QVERIFY2(message.find("refused") != std::string::npos, message.c_str());

    // Not HOST:PORT at all.
    o.responder = "127.0.0.1";
    const auto wrong = link::runLinkTest(o);
    QVERIFY(!wrong.ok());
    QVERIFY2(wrong.error().message.find("'127.0.0.1' is not HOST:PORT") != std::string::npos, wrong.error().message.c_str());
}

void TestLinkLoopback::busyResponder()
{
    auto responder = startResponder();
    QVERIFY(responder);
    auto first = helloChannel(*responder);
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
    QVERIFY(responder->busy());

    const auto report = link::runLinkTest(smallRun(*responder, {TestKind::MessageRate}));
    QVERIFY(!report.ok());
    const std::string& message = report.error().message;
    QVERIFY2(message.find("refused the test: busy: a link test from 127.0.0.1:") != std::string::npos, message.c_str());
    QVERIFY2(message.find(loopback(responder->port())) != std::string::npos, message.c_str());
    QCOMPARE(responder->counts().refused, std::uint64_t(1));
    QVERIFY(responder->busy()); // the first controller's session goes on

    // The first session answers still, and ends when its controller goes.
    QVERIFY(isError(ask(*first, link::finishMessage())));
    first = Error{"closed", {}}; // closes the connection
    QTRY_VERIFY_WITH_TIMEOUT(!responder->busy(), kGenerousMs);
    // Free again: the next controller is served.
    auto o = smallRun(*responder, {TestKind::MessageRate});
    o.messageSizes = {128};
    const auto next = link::runLinkTest(o);
    QVERIFY2(next.ok(), next.ok() ? "" : next.error().message.c_str());
    QCOMPARE(next->messageRate.size(), std::size_t(2));
}

void TestLinkLoopback::controllerDisappearsMidPhase()
{
    auto responder = startResponder();
    QVERIFY(responder);
    auto channel = helloChannel(*responder);
    QVERIFY2(channel.ok(), channel.ok() ? "" : channel.error().message.c_str());
    link::PhaseRequest request;
    request.test = TestKind::TcpFlows;
    request.transport = link::Transport::Tcp;
    request.flows = 2;
    request.sampleMs = 20;
    const link::Json ready = ask(*channel, link::startMessage(request));
    const auto port = link::readyPort(ready);
    QVERIFY2(port.ok(), ready.dump().c_str());
    // One flow connects (the phase's receiver has it open), then the controller goes.
    auto flow = link::ControlChannel::connect(loopback(*port), 10s);
    QVERIFY2(flow.ok(), flow.ok() ? "" : flow.error().message.c_str());
    QVERIFY(sendRaw(*flow, std::string(4096, 'x')));
    channel = Error{"closed", {}}; // closes the control connection

    QTRY_VERIFY_WITH_TIMEOUT(!responder->busy(), kGenerousMs);
    // What the phase had open is closed: the flow sees its end, the port takes no one.
    QTRY_VERIFY_WITH_TIMEOUT(flow->peerGone(), kGenerousMs);
    const auto again = link::ControlChannel::connect(loopback(*port), 10s);
    QVERIFY2(!again.ok(), "the phase port still accepts connections");
    QVERIFY2(again.error().message.find("refused") != std::string::npos, again.error().message.c_str());
    QCOMPARE(responder->counts().sessions, std::uint64_t(1));
    QVERIFY(!responder->finished()); // it waits for the next controller
    // ... and serves it.
    auto o = smallRun(*responder, {TestKind::BlockSweep});
    o.blockSizes = {4096};
    const auto next = link::runLinkTest(o);
    QVERIFY2(next.ok(), next.ok() ? "" : next.error().message.c_str());
    QCOMPARE(next->blocks.size(), std::size_t(1));
}

void TestLinkLoopback::garbageOnTheControlConnection()
{
    auto responder = startResponder();
    QVERIFY(responder);
    auto channel = helloChannel(*responder);
    QVERIFY2(channel.ok(), channel.ok() ? "" : channel.error().message.c_str());

    struct Bad {
        const char* line; // sent as is, with its line end
        const char* says;
    };
    for (const Bad& bad : {Bad{"this is not JSON\n", "not JSON"},
                           Bad{"{\"type\":\"hello\"\n", "not JSON"},
                           Bad{"[1,2,3]\n", "a control message must be a JSON object, not an array"},
                           Bad{"{\"type\":\"launch\"}\n", "unknown control message type \"launch\""},
                           Bad{"{\"type\":\"ready\",\"port\":5}\n", "unexpected message 'ready'"},
                           Bad{"{\"type\":\"start\"}\n", "$.phase is missing"},
                           Bad{"{\"type\":\"start\",\"phase\":{\"test\":\"flows\",\"transport\":\"tcp\",\"flows\":0}}\n",
                               "$.phase.flows must be 1..64"},
                           Bad{"{\"type\":\"start\",\"phase\":{\"test\":\"ping\",\"transport\":\"tcp\"}}\n", "$.phase.test: unknown link test 'ping'"},
                           Bad{"{\"type\":\"start\",\"phase\":{\"test\":\"telemetry\",\"transport\":\"udp\"}}\n", "$.phase.packet is missing"},
                           Bad{"{\"type\":\"finish\"}\n", "finish, but no phase is running"}}) {
        QVERIFY(sendRaw(*channel, bad.line));
        const auto answer = channel->receive(std::chrono::milliseconds(kGenerousMs));
        QVERIFY2(answer.ok(), (std::string(bad.line) + " → " + (answer.ok() ? "" : answer.error().message)).c_str());
        QVERIFY2(isError(*answer), answer->dump().c_str());
        const std::string reason = link::errorReason(*answer);
        QVERIFY2(reason.find(bad.says) != std::string::npos, (std::string(bad.line) + " → " + reason).c_str());
    }
    QVERIFY(responder->busy()); // the session survived all of it
    QCOMPARE(responder->counts().phases, std::uint64_t(0));

    // A valid phase afterwards: 10 datagrams counted.
    link::PhaseRequest request;
    request.transport = link::Transport::Udp;
    const link::Json ready = ask(*channel, link::startMessage(request));
    const auto port = link::readyPort(ready);
    QVERIFY2(port.ok(), ready.dump().c_str());
    // A second start while this one runs is refused, and the phase goes on.
    const link::Json twice = ask(*channel, link::startMessage(request));
    QVERIFY2(isError(twice) && link::errorReason(twice).find("a phase is running") != std::string::npos, twice.dump().c_str());
    link::DatagramPlan plan;
    plan.bytes = 64;
    plan.count = 10;
    const auto sent = link::sendDatagrams({"127.0.0.1", *port}, plan);
    QVERIFY2(sent.ok(), sent.ok() ? "" : sent.error().message.c_str());
    QCOMPARE(sent->messages, std::uint64_t(10));
    const link::Json answer = ask(*channel, link::finishMessage());
    QVERIFY2(link::kindOf(answer).ok() && *link::kindOf(answer) == link::MessageKind::Result, answer.dump().c_str());
    const auto result = link::phaseResultFromJson(answer.at("result"), "$.result");
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
    QCOMPARE(result->messages, std::uint64_t(10));
    QCOMPARE(result->bytes, std::uint64_t(640));
    QCOMPARE(result->duplicates, std::uint64_t(0));
    QVERIFY(channel->send(link::byeMessage()).ok());
    QTRY_VERIFY_WITH_TIMEOUT(!responder->busy(), kGenerousMs);
    QCOMPARE(responder->counts().phases, std::uint64_t(1));
}

void TestLinkLoopback::emptyAllowRefusesNothingOnLoopback()
{
    link::ResponderOptions options; // allow empty
    auto responder = startResponder(options);
    QVERIFY(responder);
    auto o = smallRun(*responder, {TestKind::MessageRate});
    o.messageSizes = {512};
    const auto report = link::runLinkTest(o);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    QCOMPARE(report->messageRate.size(), std::size_t(2));
    QTRY_VERIFY_WITH_TIMEOUT(!responder->busy(), kGenerousMs);

    // From another loopback address (127.0.0.2): loopback is the whole of 127/8.
    io::detail::UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    QVERIFY(fd.valid());
    sockaddr_in from{};
    from.sin_family = AF_INET;
    from.sin_addr.s_addr = htonl(0x7f000002);
    if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&from), sizeof from) != 0)
        QSKIP("cannot bind 127.0.0.2 here");
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(responder->port());
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QVERIFY(::connect(fd.get(), reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0);
    link::ControlChannel channel(std::move(fd));
    QCOMPARE(channel.localHost(), std::string("127.0.0.2"));
    const link::Json answer = ask(channel, link::helloMessage("other-loopback"));
    QVERIFY2(link::kindOf(answer).ok() && *link::kindOf(answer) == link::MessageKind::Hello, answer.dump().c_str());
    QVERIFY(channel.send(link::byeMessage()).ok());
    QTRY_VERIFY_WITH_TIMEOUT(!responder->busy(), kGenerousMs);
    QCOMPARE(responder->counts().refused, std::uint64_t(0));
    QCOMPARE(responder->counts().sessions, std::uint64_t(2));
}

void TestLinkLoopback::onceEndsAfterOneSession()
{
    link::ResponderOptions options;
    options.once = true;
    auto responder = startResponder(options);
    QVERIFY(responder);
    QVERIFY(!responder->finished());
    auto o = smallRun(*responder, {TestKind::MessageRate});
    o.messageSizes = {256};
    const auto report = link::runLinkTest(o);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    QCOMPARE(report->messageRate.size(), std::size_t(2));
    QTRY_VERIFY_WITH_TIMEOUT(responder->finished(), kGenerousMs);
    QVERIFY(!responder->busy());
    QCOMPARE(responder->counts().sessions, std::uint64_t(1));
    responder->stop(); // returns: nothing left running
    QVERIFY(responder->finished());
}

QTEST_GUILESS_MAIN(TestLinkLoopback)
#include "tst_link_loopback.moc"
