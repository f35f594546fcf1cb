// Scenario files: the example in resources parses and names only what the training database has;
// every kind of mistake is reported with its JSON path (syntax errors with line and column);
// scenarioToJson writes defaults out and reads back equal; files: missing, directories, relative
// database paths, save and load.
#include "core/mdb/text_format.hpp"
#include "sim/engine/scenario.hpp"
#include "tests/support/test_paths.hpp"
#include "tests/support/training_mission.hpp"

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <variant>
#include <vector>

using namespace telestation;
using sim::GeneratorKind;
using sim::GeneratorSpec;
using sim::Scenario;
using sim::StreamConfig;
using sim::ValueDomain;

namespace {

// A valid stream's required fields, to which each case adds or from which it leaves out.
// (Not raw strings: moc takes the "//" of a URL in a raw string for a comment.)
const QString kDestination = "\"destination\": \"udp://127.0.0.1:47001\"";
const QString kRate = R"("rate": "10pps")";
const QString kMix = R"("mix": [{"packet": "Packet5"}])";

QString streamWith(const QString& extra = {})
{
    return "{" + kDestination + ", " + kRate + ", " + kMix + (extra.isEmpty() ? "" : ", " + extra) + "}";
}

// A stream with the required fields and this destination.
QString streamTo(const QString& url)
{
    return "{\"destination\": \"" + url + "\", " + kRate + ", " + kMix + "}";
}

QString scenarioOf(const QStringList& streams)
{
    return R"({"streams": [)" + streams.join(", ") + "]}";
}

QString oneStream(const QString& extra = {})
{
    return scenarioOf({streamWith(extra)});
}

QString generator(const QString& parameter, const QString& spec)
{
    return oneStream(R"("generators": {")" + parameter + R"(": )" + spec + "}");
}

std::string write(const QString& path, const QByteArray& text)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(text);
    return path.toStdString();
}

// A packet by name, or by APID in decimal (as the mix writes it). (A free function: moc cannot parse a
// lambda with a trailing return type in a slot.)
const mdb::PacketDef* packetNamed(const std::vector<mdb::PacketDef>& packets, const std::string& nameOrApid)
{
    for (const auto& p : packets) {
        if (p.name == nameOrApid || std::to_string(p.apid) == nameOrApid)
            return &p;
    }
    return nullptr;
}

// The first packet or parameter of `s` that the database does not have, or a generator that does not
// suit its parameter; "" when all is well. Collects the packet names used and counts Packet5 generators.
std::string unresolved(const Scenario& s, const mdb::MissionDatabase& db, std::set<std::string>& used,
                       std::size_t& packet5Generators)
{
    for (const StreamConfig& stream : s.streams) {
        for (const auto& entry : stream.mix) {
            const auto* def = packetNamed(db.packets, entry.packet);
            if (!def)
                return "no packet " + entry.packet;
            used.insert(def->name);
        }
        for (const auto& [name, spec] : stream.generators) {
            const auto dot = name.find('.');
            const auto* def = packetNamed(db.packets, name.substr(0, dot));
            if (!def)
                return "no packet for " + name;
            const auto parameter = std::find_if(def->parameters.begin(), def->parameters.end(),
                                                [&](const auto& p) { return p.name == name.substr(dot + 1); });
            if (parameter == def->parameters.end())
                return "no parameter " + name;
            if (spec.kind == GeneratorKind::StateCycle && !std::holds_alternative<mdb::EnumerationCalibrator>(parameter->calibrator))
                return "stateCycle on a parameter without states: " + name;
            if (spec.kind == GeneratorKind::Text && parameter->type != mdb::DataType::String &&
                parameter->type != mdb::DataType::Bytes)
                return "text generators are for strings and bytes: " + name;
            packet5Generators += def->name == "Packet5" ? 1 : 0;
        }
    }
    return {};
}

sim::Rate rate(const char* text)
{
    const auto parsed = sim::parseRate(text);
    return parsed.ok() ? *parsed : sim::Rate{};
}

// Every stream field and every generator kind, each with every field it takes set to a value that is
// not the default (and a domain that is not the default where the kind takes one).
Scenario richScenario()
{
    Scenario s;
    s.mdb = "../mdb/custom.mdb";

    StreamConfig a;
    a.name = "all fields";
    a.destination = "tcp-listen://0.0.0.0:47010";
    a.mix = {{"Packet5", 2.5}, {"HK_Status", 1}, {"300", 0.125}};
    a.rate = rate("25.6Mbps");
    a.durationSeconds = 12.75;
    a.transportHeaderBytes = 4;
    a.seed = std::numeric_limits<std::uint64_t>::max();
    a.faults = {0.1, 0.2, 0.03, 0.004, 0.5, 1};

    GeneratorSpec constant;
    constant.kind = GeneratorKind::Constant;
    constant.domain = ValueDomain::Converted;
    constant.value = 28.125;
    a.generators["Packet5.BUS_28V_VOLTAGE"] = constant;

    GeneratorSpec counter;
    counter.kind = GeneratorKind::Counter;
    counter.domain = ValueDomain::Raw;
    counter.start = 100;
    counter.step = -2.5;
    a.generators["Packet5.UPTIME"] = counter;

    GeneratorSpec ramp;
    ramp.kind = GeneratorKind::Ramp;
    ramp.domain = ValueDomain::Converted;
    ramp.min = -5;
    ramp.max = 150.5;
    ramp.period = 33;
    a.generators["Packet5.TOTAL_POWER"] = ramp;

    GeneratorSpec sine;
    sine.kind = GeneratorKind::Sine;
    sine.domain = ValueDomain::Raw;
    sine.amplitude = 1.5;
    sine.offset = 37;
    sine.period = 60;
    sine.phase = 0.785;
    a.generators["Packet5.SAMPLE_CHAMBER_TEMP"] = sine;

    GeneratorSpec square;
    square.kind = GeneratorKind::Square;
    square.domain = ValueDomain::Raw;
    square.min = 0.25;
    square.max = 0.75;
    square.period = 4;
    a.generators["Packet5.PUMP_POWER"] = square;

    GeneratorSpec uniform;
    uniform.kind = GeneratorKind::Uniform;
    uniform.domain = ValueDomain::Converted;
    uniform.min = 10;
    uniform.max = 90;
    uniform.seed = 99;
    a.generators["Packet5.CPU_LOAD"] = uniform;

    GeneratorSpec normal;
    normal.kind = GeneratorKind::Normal;
    normal.domain = ValueDomain::Raw;
    normal.mean = 101300;
    normal.stddev = 250;
    normal.seed = 12345678901234567890ULL;
    a.generators["Packet5.CHAMBER_PRESSURE"] = normal;

    GeneratorSpec cycle;
    cycle.kind = GeneratorKind::StateCycle;
    cycle.period = 15;
    cycle.values = {2, 0, 0, 7};
    a.generators["Packet5.OPS_MODE"] = cycle;

    GeneratorSpec list;
    list.kind = GeneratorKind::List;
    list.domain = ValueDomain::Raw;
    list.values = {-3, 0, 3.5, 1e-3};
    a.generators["Packet5.FOCUS_OFFSET"] = list;

    GeneratorSpec text;
    text.kind = GeneratorKind::Text;
    text.text = "FSW \"2.4\" \\ \xc3\xbcnicode";
    a.generators["Packet5.SW_VERSION"] = text;
    s.streams.push_back(a);

    StreamConfig b; // defaults but for a count and an APID; its name is the default "stream2"
    b.name = "stream2";
    b.destination = "udp://239.1.2.3:5000?iface=127.0.0.1";
    b.mix = {{"0", 1}, {"2047", 3}};
    b.rate = rate("flood");
    b.count = 1000000;
    s.streams.push_back(b);

    StreamConfig c;
    c.name = "third";
    c.destination = "tcp://[::1]:47003";
    c.mix = {{"GNC_State", 1}};
    c.rate = rate("9600bps");
    c.seed = 0;
    s.streams.push_back(c);
    return s;
}

} // namespace

class TestSimScenario : public QObject {
    Q_OBJECT

private slots:
    void demoScenarioParses()
    {
        const auto loaded = sim::loadScenarioFile(test::sourceDir() + "/resources/scenarios/demo.json");
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        const Scenario& s = *loaded;
        QCOMPARE(s.streams.size(), std::size_t{3});
        QVERIFY(s.mdb.empty()); // the training database
        QCOMPARE(s.streams[0].destination, std::string("udp://127.0.0.1:47001"));
        QCOMPARE(s.streams[1].destination, std::string("udp://127.0.0.1:47002"));
        QCOMPARE(s.streams[2].destination, std::string("tcp://127.0.0.1:47003"));
        QCOMPARE(std::count_if(s.streams.begin(), s.streams.end(), [](const auto& st) { return st.faults.any(); }), 1);

        // Everything it names is in the training database.
        const auto& training = test::trainingDefinition();
        std::set<std::string> used;
        std::size_t packet5Generators = 0;
        const std::string problem = unresolved(s, training, used, packet5Generators);
        QVERIFY2(problem.empty(), problem.c_str());
        QCOMPARE(used, (std::set<std::string>{"Packet5", "HK_Status", "Spectrometer_LE", "GNC_State"}));
        QVERIFY(packet5Generators >= 2);
        for (const StreamConfig& stream : s.streams) {
            QVERIFY(stream.rate.unit != sim::Rate::Unit::Flood);
            QVERIFY(stream.rate.packetsPerSecond(1288) <= 1000); // modest
        }

        // And it survives a round trip.
        const auto again = sim::parseScenario(sim::scenarioToJson(s));
        QVERIFY(again.ok());
        QVERIFY(*again == s);
    }

    // The complete example in docs/simulator.md parses, uses every stream key, and names only what the
    // training database has.
    void documentedExample()
    {
        QFile doc(QString::fromStdString(test::sourceDir() + "/docs/simulator.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        const qsizetype start = text.indexOf("```json\n");
        QVERIFY(start >= 0);
        const qsizetype end = text.indexOf("```", start + 8);
        const QString example = text.mid(start + 8, end - start - 8);
        const auto parsed = sim::parseScenario(example.toStdString(), "simulator.md");
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().toString().c_str());
        for (const char* key : {"\"name\"", "\"destination\"", "\"rate\"", "\"mix\"", "\"duration\"", "\"count\"",
                                "\"transportHeaderBytes\"", "\"seed\"", "\"faults\"", "\"generators\""})
            QVERIFY2(example.contains(key), key);
        const auto& training = test::trainingDefinition();
        std::set<std::string> used;
        std::size_t packet5Generators = 0;
        const std::string problem = unresolved(*parsed, training, used, packet5Generators);
        QVERIFY2(problem.empty(), problem.c_str());
    }

    void errors_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected"); // the start of the message

        // The top level.
        QTest::newRow("not an object") << "[]" << "$: expected an object, got an array";
        QTest::newRow("no streams") << "{}" << "$.streams: missing (required";
        QTest::newRow("streams not an array") << R"({"streams": {}})" << "$.streams: expected an array of streams, got an object";
        QTest::newRow("no stream") << R"({"streams": []})" << "$.streams: empty (at least one stream is required)";
        QTest::newRow("unknown top-level key")
            << R"({"streams": [)" + streamWith() + R"(], "database": "x"})"
            << "$.database: unknown key; a scenario takes mdb, streams";
        QTest::newRow("mdb not a string") << R"({"mdb": 5, "streams": [)" + streamWith() + "]}"
                                          << "$.mdb: expected a string, got a number";

        // Streams.
        QTest::newRow("stream not an object") << R"({"streams": [5]})" << "$.streams[0]: expected an object (a stream), got a number";
        QTest::newRow("unknown stream key") << oneStream(R"("rat": "5pps")")
                                            << "$.streams[0].rat: unknown key; a stream takes name, destination, rate, mix, "
                                               "duration, count, transportHeaderBytes, seed, faults, generators";
        QTest::newRow("empty name") << oneStream(R"("name": "")") << "$.streams[0].name: empty";
        QTest::newRow("name not a string") << oneStream(R"("name": ["a"])") << "$.streams[0].name: expected a string, got an array";
        QTest::newRow("duplicate names")
            << scenarioOf({streamWith(R"("name": "hk")"), streamWith(R"("name": "tm")"), streamWith(R"("name": "hk")")})
            << "$.streams[2].name: \"hk\" is already the name of $.streams[0]";
        QTest::newRow("default name taken")
            << scenarioOf({streamWith(R"("name": "stream2")"), streamWith()})
            << "$.streams[1]: its default name \"stream2\" is already the name of $.streams[0]";
        QTest::newRow("missing destination") << scenarioOf({"{" + kRate + ", " + kMix + "}"})
                                             << "$.streams[0].destination: missing (required";
        QTest::newRow("destination not a string")
            << scenarioOf({R"({"destination": 47001, )" + kRate + ", " + kMix + "}"})
            << "$.streams[0].destination: expected a string, got a number";
        QTest::newRow("bad URL") << scenarioOf({streamTo("http://127.0.0.1:80")})
                                 << "$.streams[0].destination: http://127.0.0.1:80: unknown scheme";
        QTest::newRow("recording as destination")
            << scenarioOf({streamTo("file:///tmp/x.rec")})
            << "$.streams[0].destination: \"file:///tmp/x.rec\" is a recording";
        QTest::newRow("port 0") << scenarioOf({streamTo("udp://127.0.0.1:0")})
                                << "$.streams[0].destination: \"udp://127.0.0.1:0\": port 0 is only meaningful for tcp-listen://";
        QTest::newRow("missing rate") << scenarioOf({"{" + kDestination + ", " + kMix + "}"})
                                      << "$.streams[0].rate: missing (required";
        QTest::newRow("rate without unit")
            << scenarioOf({"{" + kDestination + R"(, "rate": "10", )" + kMix + "}"})
            << "$.streams[0].rate: rate \"10\": missing unit; expected a positive number and a unit";
        QTest::newRow("rate as a number") << scenarioOf({"{" + kDestination + R"(, "rate": 10, )" + kMix + "}"})
                                          << "$.streams[0].rate: expected a string, got a number";
        QTest::newRow("missing mix") << scenarioOf({"{" + kDestination + ", " + kRate + "}"})
                                     << "$.streams[0].mix: missing (required";
        QTest::newRow("empty mix") << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": []})"})
                                   << "$.streams[0].mix: empty (at least one packet type is required)";
        QTest::newRow("mix not an array") << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": "Packet5"})"})
                                          << "$.streams[0].mix: expected an array";
        QTest::newRow("mix entry not an object")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": ["Packet5"]})"})
            << "$.streams[0].mix[0]: expected an object";
        QTest::newRow("unknown mix key")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": 7, "wieght": 2}]})"})
            << "$.streams[0].mix[0].wieght: unknown key; a mix entry takes packet, weight";
        QTest::newRow("mix without packet")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": 7}, {"weight": 2}]})"})
            << "$.streams[0].mix[1].packet: missing (required: a packet name or an APID)";
        QTest::newRow("APID too large")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": 2048}]})"})
            << "$.streams[0].mix[0].packet: 2048 is not an APID (0..2047)";
        QTest::newRow("APID negative")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": -1}]})"})
            << "$.streams[0].mix[0].packet: -1 is not an APID (0..2047)";
        QTest::newRow("APID fractional")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": 7.5}]})"})
            << "$.streams[0].mix[0].packet: 7.5 is not an APID (0..2047)";
        QTest::newRow("APID string too large")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": "99999999999999999999999"}]})"})
            << "$.streams[0].mix[0].packet: \"99999999999999999999999\" is not an APID (0..2047)";
        QTest::newRow("bad packet name")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": "Pkt-5"}]})"})
            << "$.streams[0].mix[0].packet: \"Pkt-5\" is not a packet name or an APID (0..2047)";
        QTest::newRow("packet is true")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": true}]})"})
            << "$.streams[0].mix[0].packet: expected a packet name or an APID, got a boolean";
        QTest::newRow("zero weight")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": 7, "weight": 0}]})"})
            << "$.streams[0].mix[0].weight: 0 is not a weight (greater than 0)";
        QTest::newRow("packet twice in the mix")
            << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": "7"}, {"packet": 7}]})"})
            << "$.streams[0].mix[1].packet: \"7\" is already in the mix at $.streams[0].mix[0]";
        QTest::newRow("duration and count") << oneStream(R"("duration": 10, "count": 100)")
                                            << "$.streams[0]: both \"duration\" and \"count\" given";
        QTest::newRow("zero duration") << oneStream(R"("duration": 0)")
                                       << "$.streams[0].duration: 0 is not a duration (seconds, greater than 0)";
        QTest::newRow("duration as text") << oneStream(R"("duration": "10s")")
                                          << "$.streams[0].duration: expected a number, got a string";
        QTest::newRow("zero count") << oneStream(R"("count": 0)")
                                    << "$.streams[0].count: 0 is not a packet count (a whole number greater than 0)";
        QTest::newRow("fractional count") << oneStream(R"("count": 2.5)") << "$.streams[0].count: 2.5 is not a packet count";
        QTest::newRow("negative count") << oneStream(R"("count": -1)") << "$.streams[0].count: -1 is not a packet count";
        QTest::newRow("transport header too long")
            << oneStream(R"("transportHeaderBytes": 65536)")
            << "$.streams[0].transportHeaderBytes: 65536 is not a byte count (0..65535)";
        QTest::newRow("negative seed") << oneStream(R"("seed": -1)") << "$.streams[0].seed: -1 is not a seed";
        QTest::newRow("seed as text") << oneStream(R"("seed": "1")") << "$.streams[0].seed: expected a seed";

        // Faults.
        QTest::newRow("probability above 1")
            << scenarioOf({streamWith(), streamWith(R"("faults": {"drop": 1.5})")})
            << "$.streams[1].faults.drop: 1.5 is not a probability (0..1)";
        QTest::newRow("negative probability") << oneStream(R"("faults": {"truncate": -0.1})")
                                              << "$.streams[0].faults.truncate: -0.1 is not a probability (0..1)";
        QTest::newRow("probability as text") << oneStream(R"("faults": {"garbage": "1%"})")
                                             << "$.streams[0].faults.garbage: expected a number, got a string";
        QTest::newRow("unknown fault")
            << oneStream(R"("faults": {"dorp": 0.1})")
            << "$.streams[0].faults.dorp: unknown key; \"faults\" takes drop, duplicate, reorder, corruptHeader, truncate, garbage";
        QTest::newRow("faults not an object") << oneStream(R"("faults": [0.1])")
                                              << "$.streams[0].faults: expected an object of probabilities, got an array";

        // Generators.
        const QString cpu = R"($.streams[0].generators["Packet5.CPU_LOAD"])";
        QTest::newRow("generators not an object") << oneStream(R"("generators": [])")
                                                  << "$.streams[0].generators: expected an object";
        QTest::newRow("generator name without packet")
            << generator("CPU_LOAD", R"({"kind": "constant"})")
            << "$.streams[0].generators.CPU_LOAD: not a parameter name (PACKET.PARAMETER";
        QTest::newRow("generator name with two dots")
            << generator("Packet5.CPU.LOAD", R"({"kind": "constant"})")
            << R"($.streams[0].generators["Packet5.CPU.LOAD"]: not a parameter name)";
        QTest::newRow("generator not an object") << generator("Packet5.CPU_LOAD", "3")
                                                 << cpu + ": expected an object (a generator), got a number";
        QTest::newRow("generator without kind")
            << generator("Packet5.CPU_LOAD", R"({"value": 3})")
            << cpu + ".kind: missing (required: one of constant, counter, ramp, sine, square, uniform, normal, "
                     "stateCycle, list, text)";
        QTest::newRow("unknown kind")
            << generator("Packet5.CPU_LOAD", R"({"kind": "sawtooth"})")
            << cpu + ".kind: \"sawtooth\" is not a generator kind (constant, counter, ramp, sine, square, uniform, "
                     "normal, stateCycle, list, text)";
        QTest::newRow("field of another kind")
            << generator("Packet5.CPU_LOAD", R"({"kind": "counter", "amplitude": 2})")
            << cpu + ".amplitude: unknown key; a counter generator takes kind, domain, start, step";
        QTest::newRow("unknown generator field")
            << generator("Packet5.CPU_LOAD", R"({"kind": "uniform", "minimum": 2})")
            << cpu + ".minimum: unknown key; a uniform generator takes kind, domain, min, max, seed";
        QTest::newRow("domain on a text generator")
            << generator("Packet5.SW_VERSION", R"({"kind": "text", "domain": "raw", "text": "x"})")
            << R"($.streams[0].generators["Packet5.SW_VERSION"].domain: unknown key; a text generator takes kind, text)";
        QTest::newRow("domain on a state cycle")
            << generator("Packet5.OPS_MODE", R"({"kind": "stateCycle", "domain": "raw"})")
            << R"($.streams[0].generators["Packet5.OPS_MODE"].domain: unknown key; a stateCycle generator takes kind, period, values)";
        QTest::newRow("state cycle with no states")
            << generator("Packet5.OPS_MODE", R"({"kind": "stateCycle", "values": []})")
            << R"($.streams[0].generators["Packet5.OPS_MODE"].values: empty (leave "values" out to cycle through every state))";
        QTest::newRow("state index negative")
            << generator("Packet5.OPS_MODE", R"({"kind": "stateCycle", "values": [1, -1]})")
            << R"($.streams[0].generators["Packet5.OPS_MODE"].values[1]: -1 is not a state index (a whole number from 0))";
        QTest::newRow("state index fractional")
            << generator("Packet5.OPS_MODE", R"({"kind": "stateCycle", "values": [0.5]})")
            << R"($.streams[0].generators["Packet5.OPS_MODE"].values[0]: 0.5 is not a state index)";
        QTest::newRow("unknown domain")
            << generator("Packet5.CPU_LOAD", R"({"kind": "constant", "domain": "engineering"})")
            << cpu + ".domain: \"engineering\" is not a value domain (calibrated, converted, raw)";
        QTest::newRow("zero period") << generator("Packet5.CPU_LOAD", R"({"kind": "sine", "period": 0})")
                                     << cpu + ".period: 0 is not a period (seconds, greater than 0)";
        QTest::newRow("zero standard deviation")
            << generator("Packet5.CPU_LOAD", R"({"kind": "normal", "stddev": 0})")
            << cpu + ".stddev: 0 is not a standard deviation (greater than 0)";
        QTest::newRow("uniform with min = max")
            << generator("Packet5.CPU_LOAD", R"({"kind": "uniform", "min": 5, "max": 5})")
            << cpu + ": \"min\" must be less than \"max\"";
        QTest::newRow("list without values") << generator("Packet5.CPU_LOAD", R"({"kind": "list"})")
                                             << cpu + ".values: missing (required: a non-empty array of numbers)";
        QTest::newRow("list with no values") << generator("Packet5.CPU_LOAD", R"({"kind": "list", "values": []})")
                                             << cpu + ".values: empty";
        QTest::newRow("list with text") << generator("Packet5.CPU_LOAD", R"({"kind": "list", "values": [1, "2"]})")
                                        << cpu + ".values[1]: expected a number, got a string";
        QTest::newRow("text as a number") << generator("Packet5.SW_VERSION", R"({"kind": "text", "text": 2.4})")
                                          << R"($.streams[0].generators["Packet5.SW_VERSION"].text: expected a string, got a number)";
        QTest::newRow("kind not a string") << generator("Packet5.CPU_LOAD", R"({"kind": 1})")
                                           << cpu + ".kind: expected a string, got a number";
        QTest::newRow("generator seed fractional")
            << generator("Packet5.CPU_LOAD", R"({"kind": "normal", "seed": 1.5})")
            << cpu + ".seed: 1.5 is not a seed";
        QTest::newRow("value null") << generator("Packet5.CPU_LOAD", R"({"kind": "constant", "value": null})")
                                    << cpu + ".value: expected a number, got null";

        // Keys given twice, at every depth.
        QTest::newRow("duplicate top-level key")
            << R"({"streams": [], "streams": [)" + streamWith() + "]}" << "$.streams: duplicate key";
        QTest::newRow("duplicate key in a later stream")
            << scenarioOf({streamWith(), streamWith(R"("rate": "5pps")")}) << "$.streams[1].rate: duplicate key";
        QTest::newRow("duplicate fault")
            << oneStream(R"("faults": {"drop": 0.1, "drop": 0.2})") << "$.streams[0].faults.drop: duplicate key";
        QTest::newRow("duplicate generator field")
            << generator("Packet5.CPU_LOAD", R"({"kind": "list", "values": [1], "values": [2]})")
            << cpu + ".values: duplicate key";
    }

    void errors()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const auto parsed = sim::parseScenario(json.toStdString(), "test.json");
        QVERIFY2(!parsed.ok(), qPrintable(json));
        const QString message = QString::fromStdString(parsed.error().message);
        QVERIFY2(message.startsWith(expected), qPrintable(message + "\n   expected: " + expected));
        QCOMPARE(parsed.error().where.file, std::string("test.json"));
        QVERIFY(QString::fromStdString(parsed.error().toString()).startsWith("test.json: " + expected));
    }

    void validVariants_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("minimal") << oneStream();
        QTest::newRow("APID as digits") << scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": "0300"}]})"});
        QTest::newRow("count as an integral float") << oneStream(R"("count": 1e3)");
        QTest::newRow("largest seed") << oneStream(R"("seed": 18446744073709551615)");
        QTest::newRow("all faults certain")
            << oneStream(R"("faults": {"drop": 1, "duplicate": 1, "reorder": 1, "corruptHeader": 1, "truncate": 1, "garbage": 1})");
        QTest::newRow("empty faults and generators") << oneStream(R"("faults": {}, "generators": {})");
        QTest::newRow("tcp-listen on any port")
            << scenarioOf({streamTo("tcp-listen://127.0.0.1:0")});
        QTest::newRow("state cycle with and without values")
            << oneStream(R"("generators": {"Packet5.OPS_MODE": {"kind": "stateCycle", "values": [3, 3, 1e0]}, "Packet5.VALVE_POSITION": {"kind": "stateCycle"}})");
        QTest::newRow("same key in different objects")
            << oneStream(R"("generators": {"Packet5.A": {"kind": "ramp", "min": 1}, "Packet5.B": {"kind": "square", "min": 1}})");
    }

    void validVariants()
    {
        QFETCH(QString, json);
        const auto parsed = sim::parseScenario(json.toStdString());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().toString().c_str());
        const auto again = sim::parseScenario(sim::scenarioToJson(*parsed));
        QVERIFY2(again.ok(), sim::scenarioToJson(*parsed).c_str());
        QVERIFY(*again == *parsed);
    }

    void defaultsAndValues()
    {
        const auto parsed = sim::parseScenario(
            oneStream(R"("duration": 2.5, "generators": {"Packet5.X": {"kind": "sine", "amplitude": 3}}, "seed": 1e3)")
                .toStdString());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().toString().c_str());
        const StreamConfig& stream = parsed->streams.at(0);
        QCOMPARE(stream.name, std::string("stream1"));
        QCOMPARE(stream.mix.at(0).packet, std::string("Packet5"));
        QCOMPARE(stream.mix.at(0).weight, 1.0);
        QCOMPARE(stream.rate.unit, sim::Rate::Unit::PacketsPerSecond);
        QCOMPARE(stream.rate.value, 10.0);
        QCOMPARE(stream.durationSeconds.value_or(0), 2.5);
        QVERIFY(!stream.count);
        QCOMPARE(stream.transportHeaderBytes, 0U);
        QCOMPARE(stream.seed, std::uint64_t{1000});
        QVERIFY(!stream.faults.any());
        const GeneratorSpec& sine = stream.generators.at("Packet5.X");
        QVERIFY(sine.kind == GeneratorKind::Sine); // QCOMPARE would find sim::toString by ADL
        QVERIFY(sine.domain == ValueDomain::Calibrated);
        QCOMPARE(sine.amplitude, 3.0);
        QCOMPARE(sine.period, GeneratorSpec{}.period);

        const auto apid = sim::parseScenario(
            scenarioOf({"{" + kDestination + ", " + kRate + R"(, "mix": [{"packet": 7}, {"packet": "0100"}]})"}).toStdString());
        QVERIFY(apid.ok());
        QCOMPARE(apid->streams[0].mix[0].packet, std::string("7"));
        QCOMPARE(apid->streams[0].mix[1].packet, std::string("100"));
    }

    void syntaxErrors_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing value") << "{\n  \"streams\": [\n    {\"rate\": }\n  ]\n}" << 3 << 14 << "syntax error";
        QTest::newRow("trailing comma") << R"({"streams": [],})" << 1 << 16 << "syntax error";
        QTest::newRow("after the document") << "{\"streams\": []}\n  x" << 2 << 3 << "syntax error";
        QTest::newRow("comment") << "{\n  // no comments in JSON\n}" << 2 << 3 << "syntax error";
        QTest::newRow("columns count characters") << "{\"mdb\": \"\xc3\xa9\xc3\xa9\", x}" << 1 << 15 << "syntax error";
        QTest::newRow("number overflow") << "{\n\"streams\": [1e999]}" << 2 << 17 << "number overflow"; // its last digit
        // Refused before parsing: each open level kept its JSON path, so memory grew with the square of
        // the depth (found by fuzzing, docs/RELIABILITY.md). The 65th level is the 64th '['.
        QTest::newRow("nested too deep") << "{\"streams\": " + QString("[").repeated(20000) + QString("]").repeated(20000) + "}"
                                         << 1 << 76 << "arrays and objects nested deeper than 64 levels";
    }

    void syntaxErrors()
    {
        QFETCH(QString, json);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const auto parsed = sim::parseScenario(json.toStdString(), "scenario.json");
        QVERIFY(!parsed.ok());
        const Error& error = parsed.error();
        QCOMPARE(error.where.file, std::string("scenario.json"));
        QCOMPARE(error.where.line, line);
        QCOMPARE(error.where.column, column);
        const QString text = QString::fromStdString(error.toString());
        QVERIFY2(text.startsWith(QString("scenario.json:%1:%2: ").arg(line).arg(column) + message), qPrintable(text));
        QVERIFY2(!text.contains("json.exception"), qPrintable(text)); // the library's prefix is not for operators
        QVERIFY2(!text.contains("at line"), qPrintable(text));        // the location is given once
    }

    void emptyInput()
    {
        const auto parsed = sim::parseScenario("");
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().where.line, 1);
        QCOMPARE(parsed.error().where.column, 1);
    }

    void richRoundTrip()
    {
        const Scenario s = richScenario();
        const std::string json = sim::scenarioToJson(s);
        const auto parsed = sim::parseScenario(json);
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : (parsed.error().toString() + "\n" + json).c_str());
        QVERIFY2(parsed->streams.size() == 3, json.c_str());
        for (std::size_t i = 0; i < s.streams.size(); ++i) {
            const StreamConfig& want = s.streams[i];
            const StreamConfig& got = parsed->streams[i];
            QCOMPARE(got.name, want.name);
            QCOMPARE(got.mix, want.mix);
            QVERIFY(got.rate == want.rate);
            QVERIFY(got.faults == want.faults);
            QCOMPARE(got.generators.size(), want.generators.size());
            for (const auto& [name, spec] : want.generators)
                QVERIFY2(got.generators.at(name) == spec, name.c_str());
            QVERIFY(got == want);
        }
        QVERIFY(*parsed == s);
        // Writing again gives the same text: the layout is stable.
        QCOMPARE(sim::scenarioToJson(*parsed), json);
        // The second stream's name is its default and is left out.
        QCOMPARE(QString::fromStdString(json).count("\"name\""), 2);
    }

    void keyOrder()
    {
        const QString json = QString::fromStdString(sim::scenarioToJson(richScenario()));
        const QStringList order{"\"mdb\"", "\"streams\"", "\"name\"", "\"destination\"", "\"rate\"", "\"mix\"",
                                "\"duration\"", "\"transportHeaderBytes\"", "\"seed\"", "\"faults\"", "\"drop\"",
                                "\"duplicate\"", "\"reorder\"", "\"corruptHeader\"", "\"truncate\"", "\"garbage\"",
                                "\"generators\""};
        qsizetype previous = -1;
        for (const QString& key : order) {
            const qsizetype at = json.indexOf(key);
            QVERIFY2(at > previous, qPrintable(key));
            previous = at;
        }
        // Generators by name, each with kind first and domain second.
        QVERIFY(json.indexOf("Packet5.BUS_28V_VOLTAGE") < json.indexOf("Packet5.CHAMBER_PRESSURE"));
        QVERIFY(json.contains(R"("Packet5.UPTIME": {
          "kind": "counter",
          "domain": "raw",
          "start": 100.0,
          "step": -2.5
        })"));
    }

    void defaultsAreLeftOut()
    {
        Scenario s;
        StreamConfig stream;
        stream.name = "stream1";
        stream.destination = "udp://127.0.0.1:47001";
        stream.rate = rate("100pps");
        stream.mix = {{"Packet5", 1}, {"7", 2}};
        GeneratorSpec sine;
        sine.kind = GeneratorKind::Sine; // every field at its default
        stream.generators["Packet5.CPU_LOAD"] = sine;
        s.streams.push_back(stream);
        // SLASHES stands for "//", which moc would take for a comment inside a raw string.
        std::string expected = R"({
  "streams": [
    {
      "destination": "udp:SLASHES127.0.0.1:47001",
      "rate": "100pps",
      "mix": [
        {
          "packet": "Packet5"
        },
        {
          "packet": 7,
          "weight": 2.0
        }
      ],
      "generators": {
        "Packet5.CPU_LOAD": {
          "kind": "sine"
        }
      }
    }
  ]
}
)";
        expected.replace(expected.find("SLASHES"), 7, "//");
        QCOMPARE(sim::scenarioToJson(s), expected);
        const auto parsed = sim::parseScenario(expected);
        QVERIFY(parsed.ok());
        QVERIFY(*parsed == s);
    }

    void missingFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("absent.json").toStdString();
        const auto loaded = sim::loadScenarioFile(path);
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().where.file, path);
        QVERIFY2(loaded.error().message.starts_with("cannot open: "), loaded.error().message.c_str());
        QVERIFY(loaded.error().message.find("No such file") != std::string::npos);
    }

    void directory()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto loaded = sim::loadScenarioFile(dir.path().toStdString());
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().where.file, dir.path().toStdString());
        QVERIFY2(loaded.error().message.find("is a directory") != std::string::npos, loaded.error().message.c_str());
    }

    void fileErrorsNameTheFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string bad = write(dir.filePath("bad.json"), R"({"streams": [{"rate": "1pps"}]})");
        const auto semantic = sim::loadScenarioFile(bad);
        QVERIFY(!semantic.ok());
        QCOMPARE(semantic.error().toString(), bad + ": $.streams[0].destination: missing (required: an endpoint URL such as "
                                                    "\"udp://127.0.0.1:47001\")");
        const std::string broken = write(dir.filePath("broken.json"), "{\n  \"streams\": [\n");
        const auto syntax = sim::loadScenarioFile(broken);
        QVERIFY(!syntax.ok());
        QVERIFY2(syntax.error().toString().starts_with(broken + ":3:"), syntax.error().toString().c_str());
    }

    void relativeDatabase()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath("scenarios"));
        const QByteArray text = (R"({"mdb": "../db/custom.mdb", "streams": [)" + streamWith() + "]}").toUtf8();
        const std::string path = write(dir.filePath("scenarios/s.json"), text);
        QVERIFY(!path.empty());

        // As written when parsed from text; relative to the file's directory when loaded.
        const auto parsed = sim::parseScenario(text.toStdString());
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->mdb, std::string("../db/custom.mdb"));
        const auto loaded = sim::loadScenarioFile(path);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QCOMPARE(loaded->mdb, QDir::cleanPath(dir.filePath("db/custom.mdb")).toStdString());

        // An absolute path stays; no path stays empty.
        const std::string absolute = dir.filePath("elsewhere/x.mdb").toStdString();
        const std::string second = write(dir.filePath("scenarios/t.json"),
                                         (R"({"mdb": ")" + QString::fromStdString(absolute) + R"(", "streams": [)" +
                                          streamWith() + "]}").toUtf8());
        const auto kept = sim::loadScenarioFile(second);
        QVERIFY(kept.ok());
        QCOMPARE(kept->mdb, absolute);
        const std::string third = write(dir.filePath("scenarios/u.json"), oneStream().toUtf8());
        const auto none = sim::loadScenarioFile(third);
        QVERIFY(none.ok());
        QVERIFY(none->mdb.empty());

        // Relative to the current directory when the scenario's path is relative.
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        const auto fromRelative = sim::loadScenarioFile("scenarios/s.json");
        QVERIFY(QDir::setCurrent(previous));
        QVERIFY(fromRelative.ok());
        QCOMPARE(fromRelative->mdb, QDir::cleanPath(dir.filePath("db/custom.mdb")).toStdString());
    }

    void saveAndLoad()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Scenario s = richScenario();
        s.mdb = dir.filePath("db/custom.mdb").toStdString(); // absolute: loads back unchanged
        const std::string path = dir.filePath("saved.json").toStdString();
        const auto saved = sim::saveScenarioFile(s, path);
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().toString().c_str());
        const auto loaded = sim::loadScenarioFile(path);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QVERIFY(*loaded == s);
        QVERIFY(!QFile::exists(dir.filePath("saved.json.tmp")));

        const std::string nowhere = dir.filePath("no/such/dir/saved.json").toStdString();
        const auto failed = sim::saveScenarioFile(s, nowhere);
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().where.file, nowhere);
        QVERIFY(failed.error().message.starts_with("cannot write: "));
    }
};

QTEST_GUILESS_MAIN(TestSimScenario)
#include "tst_sim_scenario.moc"
