// The link test's pieces that need no network (issue 18, core/link): the control protocol's phase
// request and result (round trips, and every refusal naming its JSON path), message kinds and fields,
// the test list, the wire model's frames and limits worked out by hand, the rate search, the exact
// intervals of the flows test, and a hand-made report written as Markdown, CSV and JSON.
#include "core/link/link_report.hpp"
#include "core/link/protocol.hpp"
#include "core/link/rate_search.hpp"
#include "core/link/tests.hpp"
#include "core/link/wire.hpp"

#include <QtTest>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace telestation;
using link::Json;

namespace {

// The lines of a text, without their line ends.
std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// A CSV line's fields: commas outside quotes separate, "" inside quotes is a quote.
std::vector<std::string> csvFields(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            fields.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

link::WireModel fastEthernet()
{
    link::WireModel wire;
    wire.bitsPerSecond = 100e6;
    wire.mtu = 1500;
    wire.frameOverheadBytes = 38;
    wire.source = "given";
    return wire;
}

// What a try records for a rate search: passes at `limit` and below.
std::vector<double> searchUpTo(link::RateSearch& search, double limit)
{
    std::vector<double> tried;
    while (const auto rate = search.next()) {
        tried.push_back(*rate);
        search.record(*rate, *rate <= limit);
    }
    return tried;
}

std::int64_t ms(std::int64_t v)
{
    return v * 1'000'000;
}

// A small report with one row per test, the limits known for some and unknown for others.
link::LinkReport smallReport()
{
    link::LinkReport r;
    r.date = "2026-11-28T12:00:00Z";
    r.command = "telestation-sim link --to 192.0.2.7:7700 --tests all";
    r.controller = "sim-pc (192.0.2.1)";
    r.responder = "station (192.0.2.7:7700)";
    r.machine = "Test CPU, 2 cores";
    r.kernel = "Linux 6.1";
    r.wire = fastEthernet();
    r.tests = {link::kAllTests.begin(), link::kAllTests.end()};

    link::MessageRateRow m;
    m.transport = link::Transport::Tcp;
    m.bytes = 1024;
    m.seconds = 2;
    m.sent = 10000;
    m.received = 10000;
    m.messagesPerSecond = 5000;
    m.kilobytesPerSecond = 5120;
    m.limitKilobytesPerSecond = 10240;
    m.limitMessagesPerSecond = 10000;
    r.messageRate.push_back(m);
    m.transport = link::Transport::Udp;
    m.limitKilobytesPerSecond.reset(); // unknown: "—" in Markdown, empty in CSV
    m.limitMessagesPerSecond.reset();
    r.messageRate.push_back(m);

    link::UdpGridRow u;
    u.bytes = 1472;
    u.gapNs = 0;
    u.count = 1000;
    u.sendSeconds = 0.01;
    u.sendMbps = 1177.6;
    u.receiveMbps = 95.5;
    u.sent = 1000;
    u.received = 900;
    u.lost = 100;
    u.wireNs = 123'040;
    r.udpGrid.push_back(u);

    link::FlowsRow f;
    f.flows = 4;
    f.windowBytes = 4u << 20;
    f.seconds = 5;
    f.bytes = 50'000'000;
    f.medianMbps = 80;
    f.meanMbps = 79.5;
    f.intervalMbps = {79, 80, 81};
    r.flows.push_back(f); // limitMbps unknown

    link::BlockRow b;
    b.blockBytes = 16384;
    b.seconds = 2;
    b.bytes = 24'000'000;
    b.mbps = 94.1;
    b.senderCpuPercent = 12.5;
    b.receiverCpuPercent = 20;
    b.limitMbps = 94.18;
    r.blocks.push_back(b);

    link::TelemetryResult t;
    t.packet = "Packet5";
    t.packetBytes = 125;
    t.limitMbps = 80;
    link::TelemetryTry ok;
    ok.mbps = 1;
    ok.packetsPerSecond = 1000;
    ok.sent = 500;
    ok.station = {500, 500, 0, 0, 0};
    link::TelemetryTry lossy = ok;
    lossy.mbps = 2;
    lossy.packetsPerSecond = 2000;
    lossy.sent = 1000;
    lossy.station = {990, 990, 10, 0, 0};
    t.tries = {ok, lossy};
    t.bestMbps = 1;
    r.telemetry = t;
    r.failures.emplace_back(link::TestKind::BlockSweep, "262144 B blocks: sending failed: refused");
    return r;
}

} // namespace

class TestLinkProtocol : public QObject {
    Q_OBJECT

private slots:
    // ---- Phase request and result --------------------------------------------------------------

    void requestRoundTrip()
    {
        link::PhaseRequest plain;
        link::PhaseRequest flows;
        flows.test = link::TestKind::TcpFlows;
        flows.flows = link::kMaxFlows;
        flows.windowBytes = 1u << 20;
        flows.sampleMs = 100;
        link::PhaseRequest framed;
        framed.framed = true;
        framed.test = link::TestKind::BlockSweep;
        link::PhaseRequest telemetry;
        telemetry.test = link::TestKind::Telemetry;
        telemetry.transport = link::Transport::Udp;
        telemetry.packet = "Packet5";
        for (const link::PhaseRequest& request : {plain, flows, framed, telemetry}) {
            // In memory, and through text as the other end reads it.
            const Json json = link::toJson(request);
            for (const Json& value : {json, Json::parse(json.dump())}) {
                const auto back = link::phaseRequestFromJson(value, "$.phase");
                QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
                QVERIFY2(*back == request, json.dump().c_str());
            }
        }
    }

    void resultRoundTrip()
    {
        link::PhaseResult result;
        result.messages = 12345;
        result.bytes = std::numeric_limits<std::uint64_t>::max();
        result.firstNs = 1'000'000'000;
        result.lastNs = 3'500'000'000;
        result.reordered = 3;
        result.duplicates = 2;
        result.connections = 2;
        result.cpuSeconds = 0.125;
        result.samples = {{{1'000, 0}, {2'000, 65536}}, {{1'500, 10}}};
        result.station = {100, 99, 1, 2, 3};
        link::PhaseResult empty; // no samples, no station counts: neither is written
        QVERIFY(!link::toJson(empty).contains("samples"));
        QVERIFY(!link::toJson(empty).contains("station"));
        for (const link::PhaseResult& r : {result, empty}) {
            const Json json = link::toJson(r);
            for (const Json& value : {json, Json::parse(json.dump())}) {
                const auto back = link::phaseResultFromJson(value, "$.result");
                QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
                QVERIFY2(*back == r, json.dump().c_str());
            }
        }
        // Through the message that carries it.
        const Json message = Json::parse(link::resultMessage(result).dump());
        QCOMPARE(link::kindOf(message).value(), link::MessageKind::Result);
        QVERIFY(*link::phaseResultFromJson(message.at("result"), "$.result") == result);
    }

    void requestRefused_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("says");

        const QString base = QStringLiteral(R"({"test":"flows","transport":"tcp",%1})");
        QTest::newRow("not an object") << "[1,2]" << "$.phase must be an object";
        QTest::newRow("a string") << R"("start")" << "$.phase must be an object";
        QTest::newRow("negative flows") << base.arg(QStringLiteral(R"("flows":-1)")) << "$.phase.flows must be a whole number 0..64, not -1";
        QTest::newRow("fractional flows") << base.arg(QStringLiteral(R"("flows":1.5)")) << "$.phase.flows must be a whole number 0..64, not 1.5";
        QTest::newRow("flows 0") << base.arg(QStringLiteral(R"("flows":0)")) << "$.phase.flows must be 1..64";
        QTest::newRow("flows 65") << base.arg(QStringLiteral(R"("flows":65)")) << "$.phase.flows must be a whole number 0..64, not 65";
        QTest::newRow("flows as text") << base.arg(QStringLiteral(R"("flows":"4")")) << "$.phase.flows must be a whole number";
        QTest::newRow("window above its maximum") << base.arg(QStringLiteral(R"("windowBytes":1073741825)")) << "$.phase.windowBytes must be a whole number 0..1073741824";
        QTest::newRow("sampleMs above its maximum") << base.arg(QStringLiteral(R"("sampleMs":60001)")) << "$.phase.sampleMs must be a whole number 0..60000";
        QTest::newRow("negative sampleMs") << base.arg(QStringLiteral(R"("sampleMs":-100)")) << "$.phase.sampleMs";
        QTest::newRow("framed not a boolean") << base.arg(QStringLiteral(R"("framed":1)")) << "$.phase.framed must be true or false";
        QTest::newRow("unknown test") << R"({"test":"ping","transport":"tcp"})" << "$.phase.test: unknown link test 'ping'";
        QTest::newRow("two tests") << R"({"test":"msgrate,udpmon","transport":"tcp"})" << "$.phase.test: one test, not msgrate,udpmon";
        QTest::newRow("all tests") << R"({"test":"all","transport":"tcp"})" << "$.phase.test: one test, not all";
        QTest::newRow("test missing") << R"({"transport":"tcp"})" << "$.phase.test is missing";
        QTest::newRow("test not a string") << R"({"test":3,"transport":"tcp"})" << "$.phase.test must be a string";
        QTest::newRow("unknown transport") << R"({"test":"msgrate","transport":"sctp"})" << "$.phase.transport must be \"tcp\" or \"udp\", not \"sctp\"";
        QTest::newRow("transport missing") << R"({"test":"msgrate"})" << "$.phase.transport is missing";
        QTest::newRow("telemetry without packet") << R"({"test":"telemetry","transport":"udp"})" << "$.phase.packet is missing";
        QTest::newRow("telemetry with an empty packet") << R"({"test":"telemetry","transport":"udp","packet":""})" << "$.phase.packet is missing";
        QTest::newRow("packet too long") << QStringLiteral(R"({"test":"telemetry","transport":"udp","packet":"%1"})").arg(QString(257, 'P'))
                                         << "$.phase.packet must be a string of at most 256 characters";
    }

    void requestRefused()
    {
        QFETCH(QString, json);
        QFETCH(QString, says);
        const auto request = link::phaseRequestFromJson(Json::parse(json.toStdString()), "$.phase");
        QVERIFY2(!request.ok(), qPrintable(json));
        const QString message = QString::fromStdString(request.error().message);
        QVERIFY2(message.contains(says), qPrintable(message));
    }

    void resultRefused_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("says");

        QTest::newRow("not an object") << "42" << "$.result must be an object, not a number";
        QTest::newRow("negative messages") << R"({"messages":-1})" << "$.result.messages must be a whole number";
        QTest::newRow("fractional bytes") << R"({"bytes":10.5})" << "$.result.bytes must be a whole number";
        QTest::newRow("bytes beyond 64 bits") << R"({"bytes":18446744073709551616})" << "$.result.bytes must be a whole number";
        QTest::newRow("connections above kMaxFlows") << R"({"connections":65})" << "$.result.connections must be a whole number 0..64";
        QTest::newRow("negative reordered") << R"({"reordered":-3})" << "$.result.reordered";
        QTest::newRow("firstNs below -1") << R"({"firstNs":-2})" << "$.result.firstNs must be a whole number of nanoseconds (or -1)";
        QTest::newRow("fractional lastNs") << R"({"lastNs":1.5})" << "$.result.lastNs must be a whole number of nanoseconds";
        // 2^64 − 1 is not −1 ("none"): read as a signed number it would be.
        QTest::newRow("firstNs beyond int64") << R"({"firstNs":18446744073709551615})" << "$.result.firstNs must be a whole number of nanoseconds";
        QTest::newRow("negative cpuSeconds") << R"({"cpuSeconds":-0.5})" << "$.result.cpuSeconds must be a number of seconds (0 or more), not -0.5";
        QTest::newRow("cpuSeconds NaN as text") << R"({"cpuSeconds":"NaN"})" << "$.result.cpuSeconds must be a number of seconds (0 or more), not \"NaN\"";
        QTest::newRow("cpuSeconds null") << R"({"cpuSeconds":null})" << "$.result.cpuSeconds must be a number of seconds";
        QTest::newRow("station not an object") << R"({"station":[1]})" << "$.result.station must be an object, not an array";
        QTest::newRow("station count negative") << R"({"station":{"received":-1}})" << "$.result.station.received must be a whole number";
        QTest::newRow("station count fractional") << R"({"station":{"dropped":0.5}})" << "$.result.station.dropped must be a whole number";
        QTest::newRow("samples not an array") << R"({"samples":{}})" << "$.result.samples must be an array of at most 64 flows";
        QTest::newRow("a flow not an array") << R"({"samples":["x"]})" << "$.result.samples[0] must be an array of at most 100000 samples";
        QTest::newRow("a sample not a pair") << R"({"samples":[[[1]]]})" << "$.result.samples[0][0] must be [nanoseconds, bytes]";
        QTest::newRow("a sample of three") << R"({"samples":[[[1,2,3]]]})" << "$.result.samples[0][0] must be [nanoseconds, bytes]";
        QTest::newRow("a sample an object") << R"({"samples":[[{"ns":1,"bytes":2}]]})" << "$.result.samples[0][0] must be [nanoseconds, bytes]";
        QTest::newRow("negative time") << R"({"samples":[[[-1,2]]]})" << "$.result.samples[0][0] must be [nanoseconds, bytes]";
        QTest::newRow("fractional time") << R"({"samples":[[[1.5,2]]]})" << "$.result.samples[0][0] must be [nanoseconds, bytes]";
        QTest::newRow("negative bytes") << R"({"samples":[[[1,-2]]]})" << "$.result.samples[0][0] must be [nanoseconds, bytes]";
        QTest::newRow("bytes as text") << R"({"samples":[[[1,2]],[[1,2],[3,"4"]]]})" << "$.result.samples[1][1] must be [nanoseconds, bytes]";
        QString tooMany = "[";
        for (int i = 0; i <= 64; ++i)
            tooMany += i ? ",[]" : "[]";
        tooMany += "]";
        QTest::newRow("65 flows of samples") << QStringLiteral(R"({"samples":%1})").arg(tooMany) << "$.result.samples must be an array of at most 64 flows";
    }

    void resultRefused()
    {
        QFETCH(QString, json);
        QFETCH(QString, says);
        const auto result = link::phaseResultFromJson(Json::parse(json.toStdString()), "$.result");
        QVERIFY2(!result.ok(), qPrintable(json));
        const QString message = QString::fromStdString(result.error().message);
        QVERIFY2(message.contains(says), qPrintable(message));
    }

    // ---- Messages -------------------------------------------------------------------------------

    void kindOfMessages()
    {
        for (const Json& m : {link::helloMessage("h"), link::startMessage({}), link::readyMessage(1), link::finishMessage(),
                              link::resultMessage({}), link::errorMessage("why"), link::byeMessage()}) {
            const auto kind = link::kindOf(m);
            QVERIFY2(kind.ok(), m.dump().c_str());
            QCOMPARE(std::string(link::messageName(*kind)), m.at("type").get<std::string>());
        }
        struct Case {
            const char* json;
            const char* says;
        };
        for (const Case& c : {Case{"[]", "a control message must be a JSON object, not an array"},
                              Case{"\"hello\"", "a control message must be a JSON object, not a string"},
                              Case{"null", "a control message must be a JSON object, not null"},
                              Case{"{}", "a control message needs a \"type\""},
                              Case{R"({"kind":"hello"})", "a control message needs a \"type\""},
                              Case{R"({"type":7})", "$.type must be a string, not a number"},
                              Case{R"({"type":null})", "$.type must be a string, not null"},
                              Case{R"({"type":"hullo"})", "unknown control message type \"hullo\""},
                              Case{R"({"type":"Hello"})", "unknown control message type \"Hello\""}}) {
            const auto kind = link::kindOf(Json::parse(c.json));
            QVERIFY2(!kind.ok(), c.json);
            QVERIFY2(kind.error().message == c.says, kind.error().message.c_str());
        }
    }

    void readyPortRange()
    {
        QCOMPARE(link::readyPort(link::readyMessage(7700)).value(), std::uint16_t(7700));
        QCOMPARE(link::readyPort(Json::parse(link::readyMessage(65535).dump())).value(), std::uint16_t(65535));
        QCOMPARE(link::readyPort(Json::parse(R"({"type":"ready","port":1})")).value(), std::uint16_t(1));
        struct Case {
            const char* json;
            const char* says;
        };
        for (const Case& c : {Case{R"({"type":"ready","port":0})", "$.port must be 1..65535"},
                              Case{R"({"type":"ready","port":65536})", "$.port must be a whole number 0..65535, not 65536"},
                              Case{R"({"type":"ready","port":-1})", "$.port must be a whole number 0..65535, not -1"},
                              Case{R"({"type":"ready","port":80.5})", "$.port must be a whole number 0..65535"},
                              Case{R"({"type":"ready","port":"80"})", "$.port must be a whole number 0..65535, not \"80\""},
                              Case{R"({"type":"ready"})", "$.port is missing"},
                              Case{R"([80])", "$ must be an object"}}) {
            const auto port = link::readyPort(Json::parse(c.json));
            QVERIFY2(!port.ok(), c.json);
            QVERIFY2(port.error().message.find(c.says) != std::string::npos, port.error().message.c_str());
        }
    }

    void helloAndError()
    {
        // As the peer reads it (through text), and as built in memory.
        for (const Json& m : {Json::parse(link::helloMessage("station-1").dump()), link::helloMessage("station-1")}) {
            const auto hello = link::helloFrom(m);
            QVERIFY2(hello.ok(), hello.ok() ? m.dump().c_str() : hello.error().message.c_str());
            QCOMPARE(hello->version, link::kProtocolVersion);
            QCOMPARE(hello->host, std::string("station-1"));
        }
        const auto noHost = link::helloFrom(Json::parse(R"({"type":"hello","version":1})"));
        QVERIFY(noHost.ok());
        QVERIFY(noHost->host.empty());
        struct Case {
            const char* json;
            const char* says;
        };
        for (const Case& c : {Case{R"({"type":"hello"})", "$.version is missing"},
                              Case{R"({"type":"hello","version":-1})", "$.version must be a whole number 0..1000"},
                              Case{R"({"type":"hello","version":1.5})", "$.version must be a whole number 0..1000"},
                              Case{R"({"type":"hello","version":1001})", "$.version must be a whole number 0..1000"},
                              Case{R"({"type":"hello","version":1,"host":5})", "$.host must be a string of at most 256 characters, not 5"}}) {
            const auto hello = link::helloFrom(Json::parse(c.json));
            QVERIFY2(!hello.ok(), c.json);
            QVERIFY2(hello.error().message.find(c.says) != std::string::npos, hello.error().message.c_str());
        }
        QCOMPARE(link::errorReason(link::errorMessage("busy: try later")), std::string("busy: try later"));
        QCOMPARE(link::errorReason(Json::parse(R"({"type":"error"})")), std::string("(the peer gave no reason)"));
        QCOMPARE(link::errorReason(Json::parse(R"({"type":"error","message":3})")), std::string("(the peer gave no reason)"));
    }

    // ---- The test list --------------------------------------------------------------------------

    void testList()
    {
        using link::TestKind;
        const auto all = link::parseTestList("all");
        QVERIFY(all.ok());
        QVERIFY(*all == std::vector<TestKind>(link::kAllTests.begin(), link::kAllTests.end()));
        // Each once, in the order of a full run whatever the order given.
        const auto some = link::parseTestList("telemetry,blocks,msgrate,blocks");
        QVERIFY(some.ok());
        QVERIFY((*some == std::vector<TestKind>{TestKind::MessageRate, TestKind::BlockSweep, TestKind::Telemetry}));
        const auto one = link::parseTestList("udpmon");
        QVERIFY(one.ok());
        QVERIFY((*one == std::vector<TestKind>{TestKind::UdpGrid}));
        for (const TestKind k : link::kAllTests) {
            const auto back = link::parseTestList(link::testName(k));
            QVERIFY(back.ok() && back->size() == 1 && back->front() == k);
            QVERIFY(link::testTitle(k) != "?");
        }
        for (const char* wrong : {"ping", "msgrate,ping", "", "msgrate,", ",msgrate", "MSGRATE", "all,msgrate", "msgrate udpmon"}) {
            const auto refused = link::parseTestList(wrong);
            QVERIFY2(!refused.ok(), wrong);
            const std::string& message = refused.error().message;
            QVERIFY2(message.find("unknown link test '") == 0, message.c_str());
            QVERIFY2(message.find("(known: msgrate, udpmon, flows, blocks, telemetry, or all)") != std::string::npos, message.c_str());
        }
        QCOMPARE(link::parseTestList("msgrate,ping").error().message,
                 std::string("unknown link test 'ping' (known: msgrate, udpmon, flows, blocks, telemetry, or all)"));
        QCOMPARE(link::parseTestList("").error().message,
                 std::string("unknown link test '' (known: msgrate, udpmon, flows, blocks, telemetry, or all)"));
    }

    // ---- The wire model -------------------------------------------------------------------------

    void udpFrames()
    {
        const link::WireModel wire = fastEthernet();
        // An MTU of 1500 leaves 1480 bytes after the IP header: 1472 of UDP payload with its 8-byte header.
        QCOMPARE(link::udpFrames(wire, 0), 1u);
        QCOMPARE(link::udpFrames(wire, 1472), 1u);
        QCOMPARE(link::udpFrames(wire, 1473), 2u);
        QCOMPARE(link::udpFrames(wire, 2952), 2u); // 2960 = 2 × 1480
        QCOMPARE(link::udpFrames(wire, 2953), 3u);
        QCOMPARE(link::udpFrames(wire, 8192), 6u); // 8200 = 5 × 1480 + 800
        QCOMPARE(link::udpFrames(wire, link::kMaxUdpPayload), 45u); // 65515 = 44 × 1480 + 395
    }

    void udpWireBytes()
    {
        const link::WireModel wire = fastEthernet();
        // 64 B: UDP 8 + IP 20 + 64 = 92 B packet, + 38 (Ethernet header 14, FCS 4, preamble 8, gap 12) = 130.
        QCOMPARE(link::udpWireBytes(wire, 64), std::uint64_t(130));
        // 1472 B: a full 1500-byte packet, + 38 = 1538.
        QCOMPARE(link::udpWireBytes(wire, 1472), std::uint64_t(1538));
        // 1473 B: 1481 bytes of UDP = a full fragment (1480 → 1538 on the wire) and 1 byte in a second
        // fragment: 1 + 20 = 21 B packet, padded to Ethernet's 46 → 46 + 38 = 84. Total 1622.
        QCOMPARE(link::udpWireBytes(wire, 1473), std::uint64_t(1622));
        // 8192 B: 8200 bytes of UDP = 5 fragments of 1480 (5 × 1538 = 7690) and one of 800
        // (800 + 20 + 38 = 858). Total 8548.
        QCOMPARE(link::udpWireBytes(wire, 8192), std::uint64_t(8548));
        // Tiny datagrams are padded to the minimum frame: 0 B → 28 B packet → 46 + 38 = 84; 18 B → 46 B
        // packet, exactly the minimum (84); 19 B → 47 B packet → 85.
        QCOMPARE(link::udpWireBytes(wire, 0), std::uint64_t(84));
        QCOMPARE(link::udpWireBytes(wire, 4), std::uint64_t(84));
        QCOMPARE(link::udpWireBytes(wire, 18), std::uint64_t(84));
        QCOMPARE(link::udpWireBytes(wire, 19), std::uint64_t(85));
        // 1538 bytes at 100 Mbit/s: 1538 × 8 / 1e8 = 123.04 µs; the payload limit 1472 B per that time.
        QCOMPARE(*link::udpWireSeconds(wire, 1472), 1538.0 * 8 / 100e6);
        QCOMPARE(*link::udpPayloadLimit(wire, 1472), 1472.0 / (1538.0 * 8 / 100e6));
    }

    void tcpLimits()
    {
        const link::WireModel wire = fastEthernet();
        // A full segment carries 1500 − 20 (IP) − 32 (TCP with timestamps) = 1448 B in a 1538-B frame.
        const double payload = 100e6 / 8 * 1448.0 / 1538.0;
        QCOMPARE(*link::tcpPayloadLimit(wire), payload);
        // Framed messages: a 4-byte prefix per message.
        QCOMPARE(*link::tcpMessageLimit(wire, 1024), payload * 1024 / 1028);
        QCOMPARE(*link::tcpMessageLimit(wire, 4), payload / 2);
    }

    void unknownSpeed()
    {
        link::WireModel wire; // bitsPerSecond 0
        QVERIFY(!wire.known());
        QVERIFY(!link::udpWireSeconds(wire, 1472));
        QVERIFY(!link::udpPayloadLimit(wire, 1472));
        QVERIFY(!link::tcpPayloadLimit(wire));
        QVERIFY(!link::tcpMessageLimit(wire, 1024));
        // Frames and bytes do not need the speed.
        QCOMPARE(link::udpFrames(wire, 1473), 2u);
        QCOMPARE(link::udpWireBytes(wire, 1472), std::uint64_t(1538));
        // An MTU too small for a TCP segment: no limit rather than a negative one.
        link::WireModel tiny = fastEthernet();
        tiny.mtu = 52;
        QVERIFY(!link::tcpPayloadLimit(tiny));
    }

    void bitRateText_data()
    {
        QTest::addColumn<double>("bits");
        QTest::addColumn<QString>("text");
        QTest::newRow("100 Mbit/s") << 100e6 << "100 Mbit/s";
        QTest::newRow("1 Gbit/s") << 1e9 << "1 Gbit/s";
        QTest::newRow("1.5 Gbit/s") << 1.5e9 << "1.5 Gbit/s";
        QTest::newRow("10 Gbit/s") << 10e9 << "10 Gbit/s";
        QTest::newRow("2.5 Mbit/s") << 2.5e6 << "2.5 Mbit/s";
        QTest::newRow("12.345 Mbit/s") << 12.345e6 << "12.3 Mbit/s";
        QTest::newRow("123.4 Mbit/s") << 123.4e6 << "123 Mbit/s";
        QTest::newRow("10 kbit/s") << 10e3 << "10 kbit/s";
        QTest::newRow("9.6 kbit/s") << 9.6e3 << "9.6 kbit/s";
        QTest::newRow("500 bit/s") << 500.0 << "500 bit/s";
        QTest::newRow("0") << 0.0 << "0 bit/s";
    }

    void bitRateText()
    {
        QFETCH(double, bits);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(link::bitRateText(bits)), text);
    }

    // ---- Rate search ----------------------------------------------------------------------------

    void rateSearchDoubles()
    {
        link::RateSearch::Options o;
        o.start = 10;
        o.maximum = 100;
        o.maxTries = 20;
        link::RateSearch search(o);
        const auto tried = searchUpTo(search, 1e9); // everything passes: up to the ceiling, then stop
        QVERIFY((tried == std::vector<double>{10, 20, 40, 80, 100}));
        QCOMPARE(*search.bestPassing(), 100.0);
        QVERIFY(!search.lowestFailing());
        QCOMPARE(search.tries(), 5);
    }

    void rateSearchHalves()
    {
        link::RateSearch::Options o;
        o.start = 10;
        o.minimum = 1;
        link::RateSearch search(o);
        // 3 passes: 10 and 5 fail, 2.5 passes, then it bisects between 2.5 and 5.
        const auto tried = searchUpTo(search, 3);
        QVERIFY(tried.size() >= 3);
        QCOMPARE(tried[0], 10.0);
        QCOMPARE(tried[1], 5.0);
        QCOMPARE(tried[2], 2.5);
        QCOMPARE(tried[3], 3.75);
        QVERIFY(*search.bestPassing() <= 3);
        QVERIFY(*search.lowestFailing() <= *search.bestPassing() * 1.1);
    }

    void rateSearchBisectsToTolerance()
    {
        link::RateSearch::Options o;
        o.start = 10;
        o.tolerance = 0.1;
        o.maxTries = 50;
        link::RateSearch search(o);
        // Passes up to 30: 10, 20 pass, 40 fails, then 30 passes, 35 fails, 32.5 fails: 32.5 ≤ 30 × 1.1.
        const auto tried = searchUpTo(search, 30);
        QVERIFY((tried == std::vector<double>{10, 20, 40, 30, 35, 32.5}));
        QCOMPARE(*search.bestPassing(), 30.0);
        QCOMPARE(*search.lowestFailing(), 32.5);
        QVERIFY(!search.next());
    }

    void rateSearchStopsAtMaxTries()
    {
        link::RateSearch::Options o;
        o.start = 10;
        o.maxTries = 3;
        link::RateSearch search(o);
        const auto tried = searchUpTo(search, 1e9);
        QVERIFY((tried == std::vector<double>{10, 20, 40}));
        QCOMPARE(search.tries(), 3);
        QCOMPARE(*search.bestPassing(), 40.0);
        o.maxTries = 0;
        QVERIFY(!link::RateSearch(o).next());
    }

    void rateSearchNothingPasses()
    {
        link::RateSearch::Options o;
        o.start = 8;
        o.minimum = 1;
        o.maxTries = 50;
        link::RateSearch search(o);
        const auto tried = searchUpTo(search, 0); // halves down to the minimum and gives up
        QVERIFY((tried == std::vector<double>{8, 4, 2, 1}));
        QVERIFY(!search.bestPassing());
        QCOMPARE(*search.lowestFailing(), 1.0);
    }

    void rateSearchNoisyPassAboveAFailure()
    {
        link::RateSearch::Options o;
        o.start = 10;
        link::RateSearch search(o);
        search.record(10, true);
        search.record(20, false);
        QCOMPARE(*search.next(), 15.0);
        search.record(25, true); // a pass above the failure: the failure no longer brackets
        QVERIFY(!search.lowestFailing());
        QCOMPARE(*search.next(), 50.0);
    }

    void rateSearchStartAboveMaximum()
    {
        link::RateSearch::Options o;
        o.start = 10;
        o.maximum = 4;
        link::RateSearch search(o);
        QCOMPARE(*search.next(), 4.0);
        search.record(4, true);
        QVERIFY(!search.next());
    }

    // ---- Exact intervals and the median ---------------------------------------------------------

    void exactIntervalsTwoFlowsUnevenSamples()
    {
        // Flow A: 100 Mbit/s (1.25 MB per 100 ms), sampled on the interval bounds. Flow B: 40 Mbit/s
        // (5 MB/s) sampled at uneven times (0, 40, 130, 200 ms): interpolation gives it exactly.
        const std::vector<std::vector<link::FlowSample>> flows{
            {{ms(0), 0}, {ms(100), 1'250'000}, {ms(200), 2'500'000}},
            {{ms(0), 0}, {ms(40), 200'000}, {ms(130), 650'000}, {ms(200), 1'000'000}},
        };
        const auto mbps = link::exactIntervalMbps(flows, ms(100));
        QCOMPARE(mbps.size(), std::size_t(2));
        QCOMPARE(mbps[0], 140.0);
        QCOMPARE(mbps[1], 140.0);
    }

    void exactIntervalsInterpolate()
    {
        // One flow: 1.5 MB by 150 ms, then nothing. At 100 ms it has 1 MB (interpolated): 80 Mbit/s in
        // the first interval, 0.5 MB = 40 Mbit/s in the second.
        const std::vector<std::vector<link::FlowSample>> flows{{{ms(0), 0}, {ms(150), 1'500'000}, {ms(200), 1'500'000}}};
        const auto mbps = link::exactIntervalMbps(flows, ms(100));
        QCOMPARE(mbps.size(), std::size_t(2));
        QCOMPARE(mbps[0], 80.0);
        QCOMPARE(mbps[1], 40.0);
        // Intervals start at the earliest sample of any flow; a flow counts 0 before its first sample.
        const std::vector<std::vector<link::FlowSample>> late{{{ms(10), 0}, {ms(110), 1'250'000}},
                                                              {{ms(60), 125'000}, {ms(110), 125'000}}};
        const auto withLate = link::exactIntervalMbps(late, ms(100));
        QCOMPARE(withLate.size(), std::size_t(1));
        QCOMPARE(withLate[0], 110.0); // 100 from the first, 10 (125 kB arriving with the late flow) from the second
    }

    void exactIntervalsEndTrimmed()
    {
        const std::vector<std::vector<link::FlowSample>> flows{
            {{ms(0), 0}, {ms(100), 1'250'000}, {ms(200), 2'500'000}, {ms(300), 2'500'000}}};
        QCOMPARE(link::exactIntervalMbps(flows, ms(100)).size(), std::size_t(3));
        QCOMPARE(link::exactIntervalMbps(flows, ms(100), 0).size(), std::size_t(3)); // 0: to the last sample
        // The last byte arrived at 250 ms: the interval from 200 to 300 is not whole, it is left out.
        const auto trimmed = link::exactIntervalMbps(flows, ms(100), ms(250));
        QCOMPARE(trimmed.size(), std::size_t(2));
        QCOMPARE(trimmed[0], 100.0);
        QCOMPARE(trimmed[1], 100.0);
        // An end beyond the last sample does not invent intervals.
        QCOMPARE(link::exactIntervalMbps(flows, ms(100), ms(900)).size(), std::size_t(3));
        // Nothing to make intervals of.
        const std::vector<std::vector<link::FlowSample>> none;
        const std::vector<std::vector<link::FlowSample>> emptyFlows(2);
        const std::vector<std::vector<link::FlowSample>> oneSample{{{ms(5), 10}}};
        QVERIFY(link::exactIntervalMbps(none, ms(100)).empty());
        QVERIFY(link::exactIntervalMbps(emptyFlows, ms(100)).empty());
        QVERIFY(link::exactIntervalMbps(flows, 0).empty());
        QVERIFY(link::exactIntervalMbps(oneSample, ms(100)).empty());
        QVERIFY(link::exactIntervalMbps(flows, ms(100), ms(50)).empty());
    }

    void medianOfIntervals()
    {
        QCOMPARE(link::median({}), 0.0);
        QCOMPARE(link::median({7}), 7.0);
        QCOMPARE(link::median({3, 1, 2}), 2.0);
        QCOMPARE(link::median({4, 1, 3, 2}), 2.5);
        QCOMPARE(link::median({5, 5, 100, 1, 5}), 5.0);
    }

    // ---- The report -----------------------------------------------------------------------------

    void reportMarkdown()
    {
        const std::string md = link::toMarkdown(smallReport());
        const auto lines = linesOf(md);
        auto has = [&](const std::string& line) { return std::find(lines.begin(), lines.end(), line) != lines.end(); };
        QCOMPARE(lines.front(), std::string("# Link test, 2026-11-28T12:00:00Z"));
        QVERIFY(has("- Controller: sim-pc (192.0.2.1)"));
        QVERIFY(has("- Responder: station (192.0.2.7:7700)"));
        QVERIFY(has("- Machine: Test CPU, 2 cores; kernel Linux 6.1"));
        QVERIFY(has("- Link: 100 Mbit/s (given), MTU 1500 B, 38 B per frame besides the IP packet"));
        QVERIFY(has("- Command: `telestation-sim link --to 192.0.2.7:7700 --tests all`"));
        for (const link::TestKind k : link::kAllTests)
            QVERIFY2(has("## " + std::string(link::testTitle(k))), std::string(link::testTitle(k)).c_str());
        // The message-rate table: its header, the alignment row, a row's cells; the UDP row's unknown limits "—".
        QVERIFY(has("| transport | size B | sent | received | messages/s | KB/s | limit KB/s | % of limit | limit messages/s |"));
        QVERIFY(has("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"));
        QVERIFY(has("| tcp | 1024 | 10000 | 10000 | 5000 | 5120.0 | 10240.0 | 50.0 | 10000 |"));
        QVERIFY(has("| udp | 1024 | 10000 | 10000 | 5000 | 5120.0 | — | — | — |"));
        // The UDP grid: 0 gap is faster than the 123.04-µs wire time.
        QVERIFY(has("| 1472 | 0.0 | 123.04 | 1000 | 0.00 | 10.00 | 1177.6 | 95.5 | 0 | 100 | 10.0 | 0 | yes |"));
        QVERIFY(has("| 4 | 1048576 | 4194304 | 5.0 | 80.0 | 79.5 | — | — | 3 |"));
        QVERIFY(has("| 16384 | 2.0 | 94.1 | 94.2 | 99.9 | 12.5 | 20.0 |"));
        QVERIFY(has("**Not completed:** 262144 B blocks: sending failed: refused"));
        QVERIFY(has("Packet Packet5 (125 B) through the station: highest rate with 100% delivery **1.00 Mbit/s** (1000 packets/s), wire limit 80.0 Mbit/s."));
        QVERIFY(has("| 1.00 | 1000 | 80.0 | 500 | 500 | 500 | 0 | 0 | 0 | yes |"));
        QVERIFY(has("| 2.00 | 2000 | 80.0 | 1000 | 990 | 990 | 0 | 10 | 0 | no |"));

        // Unknown speed: said so, and the limits are "—".
        link::LinkReport unknown = smallReport();
        unknown.wire = link::WireModel{};
        unknown.wire.source = "loopback lo: no wire";
        unknown.telemetry->bestMbps.reset();
        const std::string md2 = link::toMarkdown(unknown);
        QVERIFY(md2.find("- Link: speed unknown (loopback lo: no wire): no limits shown") != std::string::npos);
        QVERIFY(md2.find("**none** (even the lowest rate tried lost packets)") != std::string::npos);
    }

    void reportCsv()
    {
        const link::LinkReport report = smallReport();
        const auto files = link::toCsvFiles(report);
        QCOMPARE(files.size(), std::size_t(5));
        const std::vector<std::string> names{"link-msgrate.csv", "link-udpmon.csv", "link-flows.csv", "link-blocks.csv", "link-telemetry.csv"};
        for (std::size_t i = 0; i < files.size(); ++i)
            QCOMPARE(files[i].first, names[i]);
        for (const auto& [name, csv] : files) {
            const auto lines = linesOf(csv);
            QVERIFY2(lines.size() >= 3, name.c_str());
            QVERIFY2(lines[0].rfind("# ", 0) == 0, lines[0].c_str());
            QVERIFY2(lines[0].find("; 2026-11-28T12:00:00Z; link 100 Mbit/s (given)") != std::string::npos, lines[0].c_str());
            QVERIFY2(lines[0].find(report.command) != std::string::npos, lines[0].c_str());
            // Every row has as many fields as the header.
            const std::size_t columns = csvFields(lines[1]).size();
            for (std::size_t i = 2; i < lines.size(); ++i)
                QVERIFY2(csvFields(lines[i]).size() == columns, (name + ": " + lines[i]).c_str());
        }
        const auto msgrate = linesOf(files[0].second);
        QCOMPARE(msgrate[1], std::string("transport,size B,sent,received,messages/s,KB/s,limit KB/s,% of limit,limit messages/s"));
        QCOMPARE(msgrate[2], std::string("tcp,1024,10000,10000,5000,5120.0,10240.0,50.0,10000"));
        QCOMPARE(msgrate[3], std::string("udp,1024,10000,10000,5000,5120.0,,,")); // unknown: empty
        const auto flows = linesOf(files[2].second);
        QCOMPARE(flows[2], std::string("4,1048576,4194304,5.0,80.0,79.5,,,3"));
        const auto telemetry = linesOf(files[4].second);
        QCOMPARE(telemetry[1], std::string("Mbit/s,packets/s,limit Mbit/s,sent,received,processed,dropped,sequence errors,malformed,100% delivered"));
        QCOMPARE(telemetry[3], std::string("2.00,2000,80.0,1000,990,990,0,10,0,no"));

        // No rows, no file.
        link::LinkReport empty = smallReport();
        empty.messageRate.clear();
        empty.telemetry.reset();
        QCOMPARE(link::toCsvFiles(empty).size(), std::size_t(3));

        // The title line stays one line whatever the command holds (a quoted argument with a line end),
        // so that a reader that skips '#' lines finds the header next.
        link::LinkReport odd = smallReport();
        odd.command = "telestation-sim link --to \"a,b\"\n--quick";
        const auto oddFiles = link::toCsvFiles(odd);
        QCOMPARE(oddFiles.size(), files.size());
        for (std::size_t i = 0; i < files.size(); ++i)
            QCOMPARE(linesOf(oddFiles[i].second)[1], linesOf(files[i].second)[1]);
    }

    void reportJson()
    {
        const link::LinkReport report = smallReport();
        const Json json = Json::parse(link::toJson(report).dump()); // as written to the file
        QCOMPARE(json.at("date").get<std::string>(), report.date);
        QCOMPARE(json.at("command").get<std::string>(), report.command);
        QCOMPARE(json.at("link").at("bitsPerSecond").get<double>(), 100e6);
        QCOMPARE(json.at("link").at("mtu").get<int>(), 1500);
        QVERIFY2(json.at("tests") == Json::parse(R"(["msgrate","udpmon","flows","blocks","telemetry"])"), json.at("tests").dump().c_str());
        const Json& results = json.at("results");
        for (const char* key : {"msgrate", "udpmon", "flows", "blocks", "telemetry"})
            QVERIFY2(results.contains(key), key);
        const Json& tcp = results.at("msgrate").at(0);
        QCOMPARE(tcp.at("transport").get<std::string>(), std::string("tcp"));
        QCOMPARE(tcp.at("bytes").get<int>(), 1024);
        QCOMPARE(tcp.at("received").get<int>(), 10000);
        QCOMPARE(tcp.at("limitKilobytesPerSecond").get<double>(), 10240.0);
        QVERIFY(results.at("msgrate").at(1).at("limitKilobytesPerSecond").is_null()); // unknown: null
        QCOMPARE(results.at("udpmon").at(0).at("fasterThanWire").get<bool>(), true);
        QCOMPARE(results.at("udpmon").at(0).at("lost").get<int>(), 100);
        QVERIFY2(results.at("flows").at(0).at("intervalMbps") == Json::parse("[79.0,80.0,81.0]"), results.at("flows").dump().c_str());
        QVERIFY(results.at("flows").at(0).at("limitMbps").is_null());
        QCOMPARE(results.at("blocks").at(0).at("blockBytes").get<int>(), 16384);
        const Json& tm = results.at("telemetry");
        QCOMPARE(tm.at("packet").get<std::string>(), std::string("Packet5"));
        QCOMPARE(tm.at("bestMbps").get<double>(), 1.0);
        QCOMPARE(tm.at("tries").size(), std::size_t(2));
        QCOMPARE(tm.at("tries").at(0).at("delivered").get<bool>(), true);
        QCOMPARE(tm.at("tries").at(1).at("delivered").get<bool>(), false);
        QCOMPARE(json.at("failures").at("blocks").get<std::string>(), std::string("262144 B blocks: sending failed: refused"));

        link::LinkReport unknown = smallReport();
        unknown.wire = link::WireModel{};
        QVERIFY(link::toJson(unknown).at("link").at("bitsPerSecond").is_null());
    }

    void telemetryTryDelivered()
    {
        link::TelemetryTry t;
        QVERIFY(!t.delivered()); // nothing sent is not a delivery
        t.sent = 10;
        t.station = {10, 10, 0, 0, 0};
        QVERIFY(t.delivered());
        for (auto spoil : {+[](link::StationCounts& c) { c.received = 9; }, +[](link::StationCounts& c) { c.processed = 9; },
                           +[](link::StationCounts& c) { c.sequenceErrors = 1; }, +[](link::StationCounts& c) { c.dropped = 1; },
                           +[](link::StationCounts& c) { c.malformed = 1; }}) {
            link::TelemetryTry bad = t;
            spoil(bad.station);
            QVERIFY(!bad.delivered());
        }
    }
};

QTEST_GUILESS_MAIN(TestLinkProtocol)
#include "tst_link_protocol.moc"
