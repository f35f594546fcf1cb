// Unit tests of the mission database validator: every rule of docs/mission-database.md ("Validation"),
// one failing case each and the valid cases at its boundaries.
#include "tests/support/model_builders.hpp"
#include "core/mdb/validate.hpp"

#include <QElapsedTimer>
#include <QtTest>

#include <cmath>
#include <functional>
#include <limits>

using namespace telestation;
using namespace telestation::mdb;

using Mutator = std::function<void(MissionDatabase&)>;
Q_DECLARE_METATYPE(Mutator)

namespace {

using test::makeParameter;

// One packet P (APID 100, 20 bytes = bits 0..159) whose fields tile bits 48..159 exactly:
// A 48..63 UINT, B 64..95 FLOAT, C 96..103 UINT enumeration, D 104..159 STRING (ends at the length).
MissionDatabase baseDb()
{
    MissionDatabase db;
    db.name = "Test";
    PacketDef p;
    p.name = "P";
    p.apid = 100;
    p.length = 20;
    p.parameters.push_back(makeParameter("A", 48, 16));
    ParameterDef b = makeParameter("B", 64, 32, DataType::Float);
    b.calibrator = PolynomialCalibrator{{1.0, 2.0}};
    b.limits = NumericLimits{-10, -5, 5, 10, true};
    p.parameters.push_back(b);
    ParameterDef c = makeParameter("C", 96, 8);
    c.calibrator = EnumerationCalibrator{{State{0, 0, "OFF"}, State{1, 1, "ON"}}};
    c.limits = StateLimits{{"ON"}, true};
    p.parameters.push_back(c);
    p.parameters.push_back(makeParameter("D", 104, 56, DataType::String));
    db.packets.push_back(p);
    return db;
}

PacketDef& pk(MissionDatabase& db, int i = 0)
{
    return db.packets[static_cast<std::size_t>(i)];
}

ParameterDef& pa(MissionDatabase& db, int j, int i = 0)
{
    return pk(db, i).parameters[static_cast<std::size_t>(j)];
}

// A second packet Q sharing P's APID.
void addTwin(MissionDatabase& db)
{
    PacketDef q = pk(db);
    q.name = "Q";
    db.packets.push_back(q);
}

QString dump(const std::vector<ValidationIssue>& issues)
{
    QString out = QString::number(issues.size()) + " issue(s):";
    for (const auto& issue : issues)
        out += QStringLiteral("\n  [%1 p%2 q%3] %4")
                   .arg(issue.severity == Severity::Error ? "error" : "warning")
                   .arg(issue.packetIndex)
                   .arg(issue.parameterIndex)
                   .arg(QString::fromStdString(issue.message));
    return out;
}

bool hasIssue(const std::vector<ValidationIssue>& issues, Severity severity, int packet, int parameter,
    const QString& text)
{
    for (const auto& issue : issues)
        if (issue.severity == severity && issue.packetIndex == packet && issue.parameterIndex == parameter
            && QString::fromStdString(issue.message).contains(text))
            return true;
    return false;
}

} // namespace

class TestMdbValidate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void baseIsValid();
    void richDatabaseIsValid();
    void failingRules_data();
    void failingRules();
    void validBoundaries_data();
    void validBoundaries();
    void lengthEqualToTheHeadersIsFine();
    void overlapWarningNamesBothFields();
    void overlapIsNotQuadratic();
    void manyParametersWithoutOverlap();
    void issuesAreGroupedByPacket();
    void toDiagnosticsKeepsSeverityAndMessage();
    void validNames();
};

void TestMdbValidate::baseIsValid()
{
    const auto issues = validate(baseDb());
    QVERIFY2(issues.empty(), qPrintable(dump(issues)));
}

void TestMdbValidate::richDatabaseIsValid()
{
    MissionDatabase db = baseDb();
    PacketDef v;
    v.name = "V";
    v.apid = 100; // shares P's APID: both need distinct secondary ids at the same field
    v.variableLength = true;
    v.length = 16;
    v.maxLength = 1000;
    v.byteOrder = ByteOrder::LittleEndian;
    v.secondaryHeader = CucLayout{4, 3, true, TimeEpoch::Unix1970}; // bits 48..111
    v.secondaryId = SecondaryId{112, 8, 2};
    pk(db).secondaryId = SecondaryId{112, 8, 1};
    pk(db).parameters[3].bitOffset = 120; // P's D makes room for the secondary id, still ending at 160
    pk(db).parameters[3].bitLength = 40;
    v.parameters.push_back(makeParameter("ID", 112, 8));
    ParameterDef t = makeParameter("TEMP", 120, 16, DataType::SignedInt);
    t.calibrator = PointPairCalibrator{{{-100, -50.5}, {0, 0}, {100, 1e-300}}};
    t.limits = NumericLimits{-1, -1, 1, 1, false};
    v.parameters.push_back(t);
    ParameterDef s = makeParameter("MODE", 136, 3, DataType::SignedInt); // little-endian packet, 3-bit field
    s.calibrator = EnumerationCalibrator{{State{-4, -1, "NEG"}, State{0, 3, "POS"}}};
    s.limits = StateLimits{{"POS", "NEG"}, false};
    v.parameters.push_back(s);
    v.parameters.push_back(makeParameter("BLOB", 139, 7856, DataType::Bytes)); // unaligned, ends at bit 7994 of 7999
    db.packets.push_back(v);
    const auto issues = validate(db);
    QVERIFY2(issues.empty(), qPrintable(dump(issues)));
}

void TestMdbValidate::failingRules_data()
{
    QTest::addColumn<Mutator>("mutate");
    QTest::addColumn<bool>("isError");
    QTest::addColumn<int>("packet");
    QTest::addColumn<int>("parameter");
    QTest::addColumn<QString>("message");

    const auto error = [](const char* name, Mutator m, int packet, int parameter, const char* message) {
        QTest::newRow(name) << m << true << packet << parameter << QString::fromUtf8(message);
    };

    // Names.
    error("duplicate packet name", [](MissionDatabase& db) { addTwin(db); pk(db, 1).name = "P"; pk(db, 1).apid = 7; },
        1, -1, "packet P: duplicate packet name");
    error("duplicate parameter name", [](MissionDatabase& db) { pa(db, 2).name = "A"; }, 0, 2,
        "parameter P.A: duplicate parameter name");
    error("invalid packet name", [](MissionDatabase& db) { pk(db).name = "1P"; }, 0, -1, "invalid name '1P'");
    error("empty packet name", [](MissionDatabase& db) { pk(db).name.clear(); }, 0, -1, "has no name");
    error("invalid parameter name", [](MissionDatabase& db) { pa(db, 1).name = "B#1"; }, 0, 1, "invalid name 'B#1'");
    error("parameter name with a blank", [](MissionDatabase& db) { pa(db, 1).name = "B 1"; }, 0, 1, "invalid name");

    // APIDs and secondary ids.
    error("APID out of range", [](MissionDatabase& db) { pk(db).apid = 2048; }, 0, -1, "APID 2048 is out of range");
    error("shared APID, no secondary ids (first)", [](MissionDatabase& db) { addTwin(db); }, 0, -1,
        "APID 100 is shared with packet Q, but this packet has no SECONDARY_ID");
    error("shared APID, no secondary ids (second)", [](MissionDatabase& db) { addTwin(db); }, 1, -1,
        "APID 100 is shared with packet P, but this packet has no SECONDARY_ID");
    error("shared APID, same secondary id value", [](MissionDatabase& db) {
        addTwin(db);
        pk(db, 0).secondaryId = SecondaryId{96, 8, 1};
        pk(db, 1).secondaryId = SecondaryId{96, 8, 1};
    }, 1, -1, "the SECONDARY_ID value 1 is also used by packet P, which shares APID 100");
    error("secondary id of 0 bits", [](MissionDatabase& db) { pk(db).secondaryId = SecondaryId{96, 0, 0}; }, 0, -1,
        "SECONDARY_ID bit length 0 is out of range");
    error("secondary id of 65 bits", [](MissionDatabase& db) { pk(db).secondaryId = SecondaryId{48, 65, 0}; }, 0, -1,
        "SECONDARY_ID bit length 65 is out of range");
    error("secondary id in the primary header", [](MissionDatabase& db) { pk(db).secondaryId = SecondaryId{40, 8, 0}; },
        0, -1, "SECONDARY_ID: bit offset 40 is inside the primary header");
    error("secondary id past the length", [](MissionDatabase& db) { pk(db).secondaryId = SecondaryId{153, 8, 0}; },
        0, -1, "SECONDARY_ID: bits 153..160 end past the packet's length of 20 bytes");
    error("secondary id value too wide", [](MissionDatabase& db) { pk(db).secondaryId = SecondaryId{96, 8, 256}; },
        0, -1, "SECONDARY_ID value 256 does not fit in 8 bits");
    error("secondary id in the secondary header", [](MissionDatabase& db) {
        pk(db).secondaryHeader = CucLayout{1, 0, false, TimeEpoch::Tai1958}; // bits 48..55
        pk(db).secondaryId = SecondaryId{50, 8, 0};
    }, 0, -1, "SECONDARY_ID: bits 50..57 overlap the secondary header (bits 48..55)");

    // Field placement.
    error("field past the length", [](MissionDatabase& db) { pa(db, 3).bitLength = 64; }, 0, 3,
        "parameter P.D: bits 104..167 end past the packet's length of 20 bytes");
    error("field one bit past the length", [](MissionDatabase& db) { pa(db, 3).type = DataType::Bytes; pa(db,
        3).bitOffset = 105; },
        0, 3, "bits 105..160 end past the packet's length");
    error("field past the maximum length", [](MissionDatabase& db) {
        pk(db).variableLength = true;
        pk(db).length = 7;
        pk(db).maxLength = 19;
    }, 0, 3, "end past the packet's maximum length of 19 bytes");
    error("field overlapping the secondary header", [](MissionDatabase& db) {
        pk(db).secondaryHeader = CucLayout{1, 1, false, TimeEpoch::Tai1958}; // bits 48..63
        pa(db, 0).bitOffset = 56;
        pa(db, 0).bitLength = 8;
    }, 0, 0, "bits 56..63 overlap the secondary header (bits 48..63)");
    error("field overlapping the P-field", [](MissionDatabase& db) {
        pk(db).secondaryHeader = CucLayout{1, 0, true, TimeEpoch::Tai1958}; // bits 48..63
    }, 0, 0, "overlap the secondary header (bits 48..63)");

    // Bit lengths and types.
    error("bit length 0", [](MissionDatabase& db) { pa(db, 0).bitLength = 0; }, 0, 0, "parameter P.A: bit length 0");
    error("UINT of 65 bits", [](MissionDatabase& db) {
        pk(db).length = 30;
        pa(db, 3).bitOffset = 160;
        pa(db, 0).bitLength = 65;
        pa(db, 0).overlapAllowed = true;
    }, 0, 0, "UINT of 65 bits");
    error("INT of 65 bits", [](MissionDatabase& db) {
        pk(db).length = 30;
        pa(db, 0).type = DataType::SignedInt;
        pa(db, 0).bitLength = 65;
        pa(db, 0).overlapAllowed = true;
    }, 0, 0, "INT of 65 bits");
    error("FLOAT of 16 bits", [](MissionDatabase& db) { pa(db, 0).type = DataType::Float; }, 0, 0, "FLOAT of 16 bits");
    error("FLOAT of 48 bits", [](MissionDatabase& db) {
        pa(db, 1).bitLength = 48;
        pa(db, 1).overlapAllowed = true;
    }, 0, 1, "FLOAT of 48 bits");
    error("STRING of 12 bits", [](MissionDatabase& db) { pa(db, 0).type = DataType::String; pa(db, 0).bitLength = 12; },
        0, 0, "STRING of 12 bits");
    error("BYTES of 12 bits", [](MissionDatabase& db) { pa(db, 0).type = DataType::Bytes; pa(db, 0).bitLength = 12; },
        0, 0, "BYTES of 12 bits");
    error("little-endian field of 12 bits", [](MissionDatabase& db) {
        pa(db, 0).bitLength = 12;
        pa(db, 0).byteOrder = ByteOrder::LittleEndian;
    }, 0, 0, "a little-endian field must be a whole number of bytes, not 12 bits");
    error("little-endian packet, field of 9 bits", [](MissionDatabase& db) {
        pk(db).byteOrder = ByteOrder::LittleEndian;
        pa(db, 0).bitLength = 9;
    }, 0, 0, "not 9 bits");

    // Calibrators.
    error("polynomial without coefficients", [](MissionDatabase& db) { pa(db, 1).calibrator = PolynomialCalibrator{}; },
        0, 1, "a polynomial without coefficients");
    error("polynomial with 7 coefficients",
        [](MissionDatabase& db) { pa(db, 1).calibrator = PolynomialCalibrator{{1, 2, 3, 4, 5, 6, 7}}; }, 0, 1,
        "a polynomial with 7 coefficients");
    error("polynomial with a NaN", [](MissionDatabase& db) {
        pa(db, 1).calibrator = PolynomialCalibrator{{1, std::numeric_limits<double>::quiet_NaN()}};
    }, 0, 1, "not a finite number");
    error("point table of one point", [](MissionDatabase& db) { pa(db, 1).calibrator = PointPairCalibrator{{{0, 1}}}; },
        0, 1, "at least two points, it has 1");
    error("point table of no point", [](MissionDatabase& db) { pa(db, 1).calibrator = PointPairCalibrator{}; }, 0, 1,
        "at least two points, it has 0");
    error("point table with equal raw values",
        [](MissionDatabase& db) { pa(db, 1).calibrator = PointPairCalibrator{{{0, 1}, {1, 2}, {1, 3}}}; }, 0, 1,
        "strictly increasing: point 3 (raw 1) does not follow point 2 (raw 1)");
    error("point table decreasing",
        [](MissionDatabase& db) { pa(db, 1).calibrator = PointPairCalibrator{{{5, 1}, {4, 2}}}; }, 0, 1,
        "strictly increasing");
    error("point table with infinity", [](MissionDatabase& db) {
        pa(db, 1).calibrator = PointPairCalibrator{{{0, 1}, {1, std::numeric_limits<double>::infinity()}}};
    }, 0, 1, "not a finite number");
    error("enumeration without states", [](MissionDatabase& db) {
        pa(db, 2).calibrator = EnumerationCalibrator{};
        pa(db, 2).limits = {};
    }, 0, 2, "an enumeration without states");
    error("enumeration with the same code twice", [](MissionDatabase& db) {
        std::get<EnumerationCalibrator>(pa(db, 2).calibrator).states.push_back(State{1, 1, "AGAIN"});
    }, 0, 2, "state \"AGAIN\" (code 1) overlaps state \"ON\" (code 1)");
    error("enumeration with overlapping ranges", [](MissionDatabase& db) {
        pa(db, 2).calibrator = EnumerationCalibrator{{State{10, 20, "HIGH"}, State{0, 10, "LOW"}}};
        pa(db, 2).limits = {};
    }, 0, 2, "state \"HIGH\" (codes 10..20) overlaps state \"LOW\" (codes 0..10)");
    error("enumeration with a range inside a wide range", [](MissionDatabase& db) {
        pa(db, 2).calibrator = EnumerationCalibrator{{State{0, 100, "WIDE"}, State{2, 3, "A"}, State{50, 60, "B"}}};
        pa(db, 2).limits = {};
    }, 0, 2, "state \"B\" (codes 50..60) overlaps state \"WIDE\" (codes 0..100)");
    error("enumeration range low above high", [](MissionDatabase& db) {
        std::get<EnumerationCalibrator>(pa(db, 2).calibrator).states.push_back(State{5, 4, "BACKWARDS"});
    }, 0, 2, "state \"BACKWARDS\": the range 5..4 has its low above its high");
    error("state code too big for UINT 8", [](MissionDatabase& db) {
        std::get<EnumerationCalibrator>(pa(db, 2).calibrator).states.push_back(State{256, 256, "BIG"});
    }, 0, 2, "state \"BIG\": code 256 cannot be held by the field (UINT of 8 bits: 0..255)");
    error("negative state code on UINT", [](MissionDatabase& db) {
        std::get<EnumerationCalibrator>(pa(db, 2).calibrator).states.push_back(State{-1, -1, "NEG"});
    }, 0, 2, "code -1 cannot be held");
    error("state range reaching past UINT 8", [](MissionDatabase& db) {
        std::get<EnumerationCalibrator>(pa(db, 2).calibrator).states.push_back(State{200, 300, "R"});
    }, 0, 2, "codes 200..300 cannot be held by the field (UINT of 8 bits");
    error("state code too big for INT 8", [](MissionDatabase& db) {
        pa(db, 2).type = DataType::SignedInt;
        std::get<EnumerationCalibrator>(pa(db, 2).calibrator).states.push_back(State{128, 128, "BIG"});
    }, 0, 2, "code 128 cannot be held by the field (INT of 8 bits: -128..127)");
    error("state code too small for INT 8", [](MissionDatabase& db) {
        pa(db, 2).type = DataType::SignedInt;
        std::get<EnumerationCalibrator>(pa(db, 2).calibrator).states.push_back(State{-129, -129, "SMALL"});
    }, 0, 2, "code -129 cannot be held by the field (INT of 8 bits");
    error("calibrator on a string",
        [](MissionDatabase& db) { pa(db, 3).calibrator = PolynomialCalibrator{{0, 1}}; }, 0, 3,
        "a calibrator on a STRING parameter");
    error("calibrator on bytes", [](MissionDatabase& db) {
        pa(db, 3).type = DataType::Bytes;
        pa(db, 3).calibrator = EnumerationCalibrator{{State{0, 0, "Z"}}};
    }, 0, 3, "a calibrator on a BYTES parameter");

    // Limits.
    error("limits out of order",
        [](MissionDatabase& db) { pa(db, 1).limits = NumericLimits{-10, 5, -5, 10, true}; }, 0, 1,
        "limits out of order: red low -10, yellow low 5, yellow high -5, red high 10");
    error("red low above yellow low",
        [](MissionDatabase& db) { pa(db, 1).limits = NumericLimits{-4, -5, 5, 10, true}; },
        0, 1, "limits out of order");
    error("yellow high above red high",
        [](MissionDatabase& db) { pa(db, 1).limits = NumericLimits{-10, -5, 11, 10, true}; },
        0, 1, "limits out of order");
    error("limits out of order even when disabled",
        [](MissionDatabase& db) { pa(db, 1).limits = NumericLimits{1, 0, 0, 0, false}; }, 0, 1, "limits out of order");
    error("a NaN limit", [](MissionDatabase& db) {
        pa(db, 1).limits = NumericLimits{std::numeric_limits<double>::quiet_NaN(), 0, 0, 0, true};
    }, 0, 1, "a limit is not a finite number");
    error("numeric limits on a string",
        [](MissionDatabase& db) { pa(db, 3).limits = NumericLimits{0, 0, 0, 0, true}; },
        0, 3, "numeric LIMITS on a STRING parameter");
    error("numeric limits on bytes", [](MissionDatabase& db) {
        pa(db, 3).type = DataType::Bytes;
        pa(db, 3).limits = NumericLimits{0, 0, 0, 0, true};
    }, 0, 3, "numeric LIMITS on a BYTES parameter");
    error("numeric limits on an enumeration",
        [](MissionDatabase& db) { pa(db, 2).limits = NumericLimits{0, 0, 1, 1, true}; },
        0, 2, "numeric LIMITS on an enumeration");
    error("expected states without an enumeration",
        [](MissionDatabase& db) { pa(db, 0).limits = StateLimits{{"ON"}, true}; }, 0, 0,
        "EXPECTED states on a parameter without an enumeration");
    error("expected states with a polynomial",
        [](MissionDatabase& db) { pa(db, 1).limits = StateLimits{{"ON"}, true}; },
        0, 1, "without an enumeration");
    error("expected state the enumeration lacks",
        [](MissionDatabase& db) { pa(db, 2).limits = StateLimits{{"ON", "STANDBY"}, true}; }, 0, 2,
        "EXPECTED names the state \"STANDBY\", which the enumeration does not have");
    error("expected state differing in case",
        [](MissionDatabase& db) { pa(db, 2).limits = StateLimits{{"on"}, true}; }, 0, 2, "\"on\"");
    error("expected names no state", [](MissionDatabase& db) { pa(db, 2).limits = StateLimits{{}, true}; }, 0, 2,
        "EXPECTED names no state");

    // CUC layouts.
    error("CUC with 0 coarse bytes",
        [](MissionDatabase& db) { pk(db).secondaryHeader = CucLayout{0, 0, false, TimeEpoch::Tai1958}; },
        0, -1, "0 coarse time bytes is out of range (1..4)");
    error("CUC with 5 coarse bytes",
        [](MissionDatabase& db) { pk(db).secondaryHeader = CucLayout{5, 0, false, TimeEpoch::Tai1958}; },
        0, -1, "5 coarse time bytes is out of range (1..4)");
    error("CUC with 4 fine bytes",
        [](MissionDatabase& db) { pk(db).secondaryHeader = CucLayout{1, 4, false, TimeEpoch::Tai1958}; },
        0, -1, "4 fine time bytes is out of range (0..3)");

    // Lengths.
    error("variable length min above max", [](MissionDatabase& db) {
        pk(db).variableLength = true;
        pk(db).length = 21;
        pk(db).maxLength = 20;
    }, 0, -1, "the minimum 21 bytes is greater than the maximum 20 bytes");
    error("variable length min under the headers", [](MissionDatabase& db) {
        pk(db).secondaryHeader = CucLayout{4, 2, true, TimeEpoch::Tai1958}; // 7 bytes: headers are 13
        pk(db).variableLength = true;
        pk(db).length = 12;
        pk(db).maxLength = 30;
        for (auto& q : pk(db).parameters)
            q.bitOffset += 104;
    }, 0, -1, "the minimum 12 bytes is less than the headers (13 bytes)");
    error("variable length min under the primary header", [](MissionDatabase& db) {
        pk(db).variableLength = true;
        pk(db).length = 5;
        pk(db).maxLength = 20;
    }, 0, -1, "the minimum 5 bytes is less than the headers (6 bytes)");
    error("variable length min of 6", [](MissionDatabase& db) {
        pk(db).variableLength = true;
        pk(db).length = 6;
        pk(db).maxLength = 20;
    }, 0, -1, "under 7, the smallest space packet");
    error("variable length max over 65542", [](MissionDatabase& db) {
        pk(db).variableLength = true;
        pk(db).length = 20;
        pk(db).maxLength = 65543;
    }, 0, -1, "the maximum 65543 bytes is over 65542");
    error("fixed length 6", [](MissionDatabase& db) {
        pk(db).length = 6;
        pk(db).parameters.clear();
    }, 0, -1, "length 6 bytes is out of range (7..65542)");
    error("fixed length 65543", [](MissionDatabase& db) { pk(db).length = 65543; }, 0, -1,
        "length 65543 bytes is out of range (7..65542)");
    error("fixed length under the secondary header", [](MissionDatabase& db) {
        pk(db).secondaryHeader = CucLayout{4, 3, true, TimeEpoch::Tai1958}; // 8 bytes
        pk(db).length = 13;
        pk(db).parameters.clear();
    }, 0, -1, "length 13 bytes is less than the headers (14 bytes)");

    // Texts the definition language cannot hold.
    error("line break in a description", [](MissionDatabase& db) { pa(db, 0).description = "two\nlines"; }, 0, 0,
        "the description contains a line break");
    error("line break in the mission name", [](MissionDatabase& db) { db.name = "a\rb"; }, -1, -1,
        "the mission name contains a line break");

    // The generalised model (issue 12).
    error("packet name with a dot", [](MissionDatabase& db) { pk(db).name = "P.Q"; }, 0, -1, "invalid name 'P.Q'");
    error("packet name with a bracket", [](MissionDatabase& db) { pk(db).name = "P[0]"; }, 0, -1, "invalid name");
    error("parameter name with a comma", [](MissionDatabase& db) { pa(db, 0).name = "A,B"; }, 0, 0, "invalid name");
    error("parameter name with a quote", [](MissionDatabase& db) { pa(db, 0).name = "A\"B"; }, 0, 0, "invalid name");
    error("parameter name with a control character", [](MissionDatabase& db) { pa(db, 0).name = "A\tB"; }, 0, 0,
        "invalid name");
    error("parameter name starting with a dot", [](MissionDatabase& db) { pa(db, 0).name = ".A"; }, 0, 0,
        "invalid name '.A'");
    error("sign-magnitude of 1 bit", [](MissionDatabase& db) {
        pa(db, 0).type = DataType::SignMagnitudeInt;
        pa(db, 0).bitLength = 1;
    }, 0, 0, "INT_SIGN_MAGNITUDE of 1 bits: sign-magnitude and ones' complement integers have 2 to 64 bits");
    error("ones' complement of 65 bits", [](MissionDatabase& db) {
        pk(db).length = 40;
        pa(db, 0).type = DataType::OnesComplementInt;
        pa(db, 0).bitLength = 65;
        pa(db, 0).overlapAllowed = true;
    }, 0, 0, "INT_ONES_COMPLEMENT of 65 bits");
    error("little-endian sign-magnitude of 12 bits", [](MissionDatabase& db) {
        pa(db, 0).type = DataType::SignMagnitudeInt;
        pa(db, 0).bitLength = 12;
        pa(db, 0).byteOrder = ByteOrder::LittleEndian;
    }, 0, 0, "a little-endian field must be a whole number of bytes");
    error("sign-magnitude state code -128 in 8 bits", [](MissionDatabase& db) {
        pa(db, 2).type = DataType::SignMagnitudeInt;
        std::get<EnumerationCalibrator>(pa(db, 2).calibrator).states = {State{-128, -128, "LOW"}, State{1, 1, "ON"}};
    }, 0, 2, "code -128 cannot be held by the field (INT_SIGN_MAGNITUDE of 8 bits: -127..127)");
    error("ones' complement state code 128 in 8 bits", [](MissionDatabase& db) {
        pa(db, 2).type = DataType::OnesComplementInt;
        std::get<EnumerationCalibrator>(pa(db, 2).calibrator).states.push_back(State{128, 128, "HIGH"});
    }, 0, 2, "code 128 cannot be held");
    // Sizes.
    error("fixed size with a size parameter", [](MissionDatabase& db) { pa(db, 3).size.sizeParameter = "A"; }, 0, 3,
        "a fixed size with settings of a variable size");
    error("variable size with a bit length", [](MissionDatabase& db) {
        pa(db, 3).size = FieldSize{SizeKind::Terminated, "", 1, 0, 0, 0, 0};
    }, 0, 3, "SIZE TERMINATED: the bit length must be 0 (it is 56)");
    error("size from a parameter on an integer", [](MissionDatabase& db) {
        pa(db, 1).type = DataType::UnsignedInt;
        pa(db, 1).calibrator = {};
        pa(db, 1).limits = {};
        pa(db, 1).bitLength = 0;
        pa(db, 1).size = FieldSize{SizeKind::FromParameter, "A", 8, 0, 0, 0, 0};
    }, 0, 1, "only a STRING or BYTES parameter takes its size from another parameter, not UINT");
    error("size from a later parameter", [](MissionDatabase& db) {
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::FromParameter, "E", 8, 0, 0, 0, 0};
        pk(db).parameters.push_back(makeParameter("E", 48, 8));
        pk(db).parameters.back().overlapAllowed = true;
    }, 0, 3, "names parameter 'E', which comes after this parameter");
    error("size from itself", [](MissionDatabase& db) {
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::FromParameter, "D", 8, 0, 0, 0, 0};
    }, 0, 3, "this parameter itself");
    error("size from an unknown parameter", [](MissionDatabase& db) {
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::FromParameter, "NOPE", 8, 0, 0, 0, 0};
    }, 0, 3, "names parameter 'NOPE', which the packet does not have");
    error("size from a float", [](MissionDatabase& db) {
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::FromParameter, "B", 8, 0, 0, 0, 0};
    }, 0, 3, "the size parameter 'B' is FLOAT, not an integer");
    error("size with an infinite slope", [](MissionDatabase& db) {
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::FromParameter, "A", std::numeric_limits<double>::infinity(), 0, 0, 0, 0};
    }, 0, 3, "the slope and the intercept must be finite numbers");
    error("terminated bytes", [](MissionDatabase& db) {
        pa(db, 3).type = DataType::Bytes;
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::Terminated, "", 1, 0, 0, 0, 0};
    }, 0, 3, "only a STRING parameter has this size kind, not BYTES");
    error("leading size of 33 bits", [](MissionDatabase& db) {
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::LeadingSize, "", 1, 0, 0, 33, 0};
    }, 0, 3, "33 leading size bits is out of range (1..32)");
    error("leading size of 0 bits", [](MissionDatabase& db) {
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::LeadingSize, "", 1, 0, 0, 0, 0};
    }, 0, 3, "0 leading size bits is out of range");
    error("leading size bytes", [](MissionDatabase& db) {
        pa(db, 3).type = DataType::Bytes;
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::LeadingSize, "", 1, 0, 0, 8, 0};
    }, 0, 3, "only a STRING parameter has this size kind");
    error("maximum bytes over 65536", [](MissionDatabase& db) {
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::Terminated, "", 1, 0, 0, 0, 65537};
    }, 0, 3, "MAX 65537 bytes is over 65536");
    // Placement.
    error("gap past the packet", [](MissionDatabase& db) {
        pa(db, 3).placement = Placement::AfterPrevious;
        pa(db, 3).bitOffset = 161;
    }, 0, 3, "a gap of 161 bits after the previous parameter is more than the packet's length of 20 bytes");
    error("variable size starting past the packet", [](MissionDatabase& db) {
        pa(db, 3).bitLength = 0;
        pa(db, 3).bitOffset = 161;
        pa(db, 3).size = FieldSize{SizeKind::Terminated, "", 1, 0, 0, 0, 0};
    }, 0, 3, "bit offset 161 is past the packet's length of 20 bytes");
    // Conditions.
    error("WHEN on a later parameter", [](MissionDatabase& db) {
        pa(db, 0).includeWhen = {Condition{"C", CompareOp::Equal, 1, false}};
    }, 0, 0, "WHEN C == 1: names parameter 'C', which comes after this parameter");
    error("WHEN on an unknown parameter", [](MissionDatabase& db) {
        pa(db, 1).includeWhen = {Condition{"Z", CompareOp::Equal, 1, false}};
    }, 0, 1, "which the packet does not have");
    error("WHEN with an unknown operator", [](MissionDatabase& db) {
        pa(db, 1).includeWhen = {Condition{"A", static_cast<CompareOp>(9), 1, false}};
    }, 0, 1, "WHEN: unknown comparison operator");
    error("WHEN with a NaN", [](MissionDatabase& db) {
        pa(db, 1).includeWhen = {Condition{"A", CompareOp::Equal, std::nan(""), false}};
    }, 0, 1, "the value is not a finite number");
    error("WHEN CALIBRATED without a numeric calibrator", [](MissionDatabase& db) {
        pa(db, 1).includeWhen = {Condition{"A", CompareOp::Equal, 1, true}};
    }, 0, 1, "CALIBRATED, but 'A' has no numeric calibrator (POLY, POINT or TIME)");
    error("WHEN CALIBRATED on an enumeration", [](MissionDatabase& db) {
        pa(db, 3).includeWhen = {Condition{"C", CompareOp::Equal, 1, true}};
    }, 0, 3, "CALIBRATED, but 'C' has no numeric calibrator");
    error("WHEN on a string", [](MissionDatabase& db) {
        pk(db).parameters.push_back(makeParameter("E", 160, 8));
        pk(db).length = 21;
        pa(db, 4).includeWhen = {Condition{"D", CompareOp::Equal, 1, false}};
    }, 0, 4, "'D' is a STRING parameter; conditions compare numbers");
    // Context calibrations.
    error("context without conditions", [](MissionDatabase& db) {
        pa(db, 1).contextCalibrators = {ContextCalibration{{}, PolynomialCalibrator{{1}}}};
    }, 0, 1, "CONTEXT 1: no condition");
    error("context with an enumeration", [](MissionDatabase& db) {
        pa(db, 1).contextCalibrators
            = {ContextCalibration{{Condition{"A", CompareOp::Equal, 1, false}}, EnumerationCalibrator{{State{0, 0, "Z"}}}}};
    }, 0, 1, "CONTEXT 1: the calibrator must be a polynomial, a point table or a time (POLY, POINT or TIME lines), not an enumeration");
    error("context without a calibrator", [](MissionDatabase& db) {
        pa(db, 1).contextCalibrators = {ContextCalibration{{Condition{"A", CompareOp::Equal, 1, false}}, {}}};
    }, 0, 1, "not none");
    error("context with a bad point table", [](MissionDatabase& db) {
        pa(db, 1).contextCalibrators = {ContextCalibration{{Condition{"A", CompareOp::Equal, 1, false}},
            PointPairCalibrator{{{1, 0}, {0, 1}}}}};
    }, 0, 1, "CONTEXT 1: point table raw values must be strictly increasing");
    error("context with 7 coefficients", [](MissionDatabase& db) {
        pa(db, 1).contextCalibrators = {ContextCalibration{{Condition{"A", CompareOp::Equal, 1, false}},
            PolynomialCalibrator{{1, 2, 3, 4, 5, 6, 7}}}};
    }, 0, 1, "CONTEXT 1: a polynomial with 7 coefficients");
    error("context on a string", [](MissionDatabase& db) {
        pa(db, 3).contextCalibrators = {ContextCalibration{{Condition{"A", CompareOp::Equal, 1, false}},
            PolynomialCalibrator{{1}}}};
    }, 0, 3, "a context calibration on a STRING parameter");
    error("context condition on a later parameter", [](MissionDatabase& db) {
        pa(db, 1).contextCalibrators = {ContextCalibration{{Condition{"C", CompareOp::Equal, 1, false}},
            PolynomialCalibrator{{1}}}};
    }, 0, 1, "CONTEXT 1 C == 1: names parameter 'C', which comes after this parameter");
    // Time calibrators.
    error("time with scale 0", [](MissionDatabase& db) { pa(db, 0).calibrator = TimeCalibrator{0, 0, 0}; }, 0, 0,
        "TIME: the scale is 0");
    error("time with an infinite epoch", [](MissionDatabase& db) {
        pa(db, 0).calibrator = TimeCalibrator{std::numeric_limits<double>::infinity(), 1, 0};
    }, 0, 0, "TIME: the epoch, scale and offset must be finite numbers");
    error("time with a NaN offset", [](MissionDatabase& db) {
        pa(db, 0).calibrator = TimeCalibrator{0, 1, std::nan("")};
    }, 0, 0, "must be finite numbers");
    error("time on a string", [](MissionDatabase& db) { pa(db, 3).calibrator = TimeCalibrator{}; }, 0, 3,
        "a calibrator on a STRING parameter");
    error("time with limits", [](MissionDatabase& db) { pa(db, 1).calibrator = TimeCalibrator{}; }, 0, 1,
        "limits on a time parameter");
    error("time in a context with limits", [](MissionDatabase& db) {
        pa(db, 1).contextCalibrators = {ContextCalibration{{Condition{"A", CompareOp::Equal, 1, false}},
            TimeCalibrator{}}};
    }, 0, 1, "limits on a time parameter");
    // Criteria.
    error("criterion of 0 bits", [](MissionDatabase& db) { pk(db).criteria = {FieldCriterion{48, 0, CompareOp::Equal, 0}}; },
        0, -1, "bit length 0 is out of range (1..64)");
    error("criterion of 65 bits", [](MissionDatabase& db) { pk(db).criteria = {FieldCriterion{48, 65, CompareOp::Less, 0}}; },
        0, -1, "bit length 65 is out of range (1..64)");
    error("criterion past the minimum length", [](MissionDatabase& db) {
        pk(db).variableLength = true;
        pk(db).length = 10;
        pk(db).maxLength = 20;
        pk(db).criteria = {FieldCriterion{80, 8, CompareOp::Equal, 1}};
    }, 0, -1, "MATCH bits 80..87 == 1: the field ends past the packet's minimum length of 10 bytes");
    error("criterion value too wide for ==", [](MissionDatabase& db) {
        pk(db).criteria = {FieldCriterion{48, 8, CompareOp::Equal, 256}};
    }, 0, -1, "the value does not fit in 8 bits, so no packet can match");
    error("criterion with an unknown operator", [](MissionDatabase& db) {
        pk(db).criteria = {FieldCriterion{48, 8, static_cast<CompareOp>(6), 1}};
    }, 0, -1, "MATCH: unknown comparison operator");
    // Packets sharing an APID.
    error("shared APID, same criteria in another order", [](MissionDatabase& db) {
        pk(db).criteria = {FieldCriterion{48, 8, CompareOp::Equal, 1}, FieldCriterion{56, 8, CompareOp::Less, 9}};
        addTwin(db);
        pk(db, 1).criteria = {FieldCriterion{56, 8, CompareOp::Less, 9}, FieldCriterion{48, 8, CompareOp::Equal, 1},
            FieldCriterion{48, 8, CompareOp::Equal, 1}};
    }, 1, -1, "APID 100 is shared with packet P, which has the same MATCH criteria and, like this packet, no SECONDARY_ID");
    error("shared APID, same secondary id and criteria", [](MissionDatabase& db) {
        pk(db).secondaryId = SecondaryId{96, 8, 1};
        pk(db).criteria = {FieldCriterion{48, 8, CompareOp::Equal, 1}};
        addTwin(db);
    }, 1, -1, "the SECONDARY_ID value 1 is also used by packet P, which shares APID 100, with the same MATCH criteria");
    // Aliases and limits.
    error("empty packet alias", [](MissionDatabase& db) { pk(db).aliases = {Alias{"ns", ""}}; }, 0, -1,
        "an ALIAS in name space \"ns\" is empty");
    error("empty parameter alias", [](MissionDatabase& db) { pa(db, 0).aliases = {Alias{"", ""}}; }, 0, 0,
        "an ALIAS in name space \"\" is empty");
    error("infinite limits out of order", [](MissionDatabase& db) {
        pa(db, 1).limits = NumericLimits{std::numeric_limits<double>::infinity(), 0, 1, 2, true};
    }, 0, 1, "limits out of order: red low inf");

    // Warnings.
    const auto warning = [](const char* name, Mutator m, int packet, int parameter, const char* message) {
        QTest::newRow(name) << m << false << packet << parameter << QString::fromUtf8(message);
    };
    warning("overlapping fields", [](MissionDatabase& db) { pa(db, 1).bitOffset = 63; }, 0, 1,
        "parameter P.B (bits 63..94) overlaps P.A (bits 48..63)");
    warning("field inside another", [](MissionDatabase& db) {
        pk(db).parameters.push_back(makeParameter("E", 70, 4));
    }, 0, 4, "parameter P.E (bits 70..73) overlaps P.B (bits 64..95)");
    warning("identical fields", [](MissionDatabase& db) { pk(db).parameters.push_back(makeParameter("E", 48, 16)); }, 0, 4,
        "parameter P.E (bits 48..63) overlaps P.A");
    warning("packet without parameters", [](MissionDatabase& db) { pk(db).parameters.clear(); }, 0, -1,
        "packet P: the packet has no parameters");
    warning("fields in the primary header overlap", [](MissionDatabase& db) {
        pk(db).parameters.push_back(makeParameter("APID", 5, 11));
        pk(db).parameters.push_back(makeParameter("APID_LOW", 8, 8));
    }, 0, 5, "parameter P.APID_LOW (bits 8..15) overlaps P.APID (bits 5..15)");
}

void TestMdbValidate::failingRules()
{
    QFETCH(Mutator, mutate);
    QFETCH(bool, isError);
    QFETCH(int, packet);
    QFETCH(int, parameter);
    QFETCH(QString, message);

    MissionDatabase db = baseDb();
    mutate(db);
    const auto issues = validate(db);
    QVERIFY2(hasIssue(issues, isError ? Severity::Error : Severity::Warning, packet, parameter, message),
        qPrintable("expected \"" + message + "\" at p" + QString::number(packet) + " q" + QString::number(parameter)
            + "; got " + dump(issues)));
    if (!isError) {
        // A warning case is otherwise valid: the database still has no error.
        for (const auto& issue : issues)
            QVERIFY2(issue.severity == Severity::Warning, qPrintable(dump(issues)));
    }
}

void TestMdbValidate::validBoundaries_data()
{
    QTest::addColumn<Mutator>("mutate");
    const auto ok = [](const char* name, Mutator m) { QTest::newRow(name) << m; };

    ok("field ending exactly at the length (base)", [](MissionDatabase&) {});
    ok("field ending exactly at the maximum length", [](MissionDatabase& db) {
        pk(db).variableLength = true;
        pk(db).length = 7;
        pk(db).maxLength = 20;
    });
    ok("bit offset exactly 48", [](MissionDatabase& db) { QCOMPARE(pa(db, 0).bitOffset, 48u); });
    ok("field right after the secondary header", [](MissionDatabase& db) {
        pk(db).secondaryHeader = CucLayout{1, 1, false, TimeEpoch::Gps1980}; // bits 48..63
        pk(db).parameters.erase(pk(db).parameters.begin());
    });
    ok("secondary header of 8 bytes", [](MissionDatabase& db) {
        pk(db).secondaryHeader = CucLayout{4, 3, true, TimeEpoch::Tai1958}; // bits 48..111
        pk(db).length = 28;
        for (auto& q : pk(db).parameters)
            q.bitOffset += 64;
    });
    ok("fixed length 7", [](MissionDatabase& db) {
        pk(db).length = 7;
        pk(db).parameters = {makeParameter("X", 48, 8)};
    });
    ok("fixed length 65542", [](MissionDatabase& db) {
        pk(db).length = 65542;
        pk(db).parameters.push_back(makeParameter("LAST", 65542 * 8 - 8, 8));
    });
    ok("variable length min == headers", [](MissionDatabase& db) {
        pk(db).secondaryHeader = CucLayout{4, 2, true, TimeEpoch::Tai1958}; // headers 13 bytes
        pk(db).variableLength = true;
        pk(db).length = 13;
        pk(db).maxLength = 30;
        for (auto& q : pk(db).parameters)
            q.bitOffset += 56;
    });
    ok("variable length min == max", [](MissionDatabase& db) {
        pk(db).variableLength = true;
        pk(db).length = 20;
        pk(db).maxLength = 20;
    });
    ok("variable length max 65542", [](MissionDatabase& db) {
        pk(db).variableLength = true;
        pk(db).length = 7;
        pk(db).maxLength = 65542;
    });
    ok("APID 2047", [](MissionDatabase& db) { pk(db).apid = 2047; });
    ok("APID 0", [](MissionDatabase& db) { pk(db).apid = 0; });
    ok("shared APID with distinct secondary ids", [](MissionDatabase& db) {
        addTwin(db);
        pk(db, 0).secondaryId = SecondaryId{96, 8, 1};
        pk(db, 1).secondaryId = SecondaryId{96, 8, 2};
        PacketDef third = pk(db, 1);
        third.name = "R";
        third.secondaryId->value = 255;
        db.packets.push_back(third);
    });
    ok("same secondary id value on different APIDs", [](MissionDatabase& db) {
        addTwin(db);
        pk(db, 1).apid = 101;
        pk(db, 0).secondaryId = SecondaryId{96, 8, 1};
        pk(db, 1).secondaryId = SecondaryId{100, 4, 1};
    });
    ok("secondary id of 64 bits with the largest value", [](MissionDatabase& db) {
        pk(db).secondaryId = SecondaryId{48, 64, std::numeric_limits<std::uint64_t>::max()};
    });
    ok("secondary id value filling its field", [](MissionDatabase& db) { pk(db).secondaryId = SecondaryId{96, 8,
        255}; });
    ok("UINT of 64 bits", [](MissionDatabase& db) {
        pa(db, 0).bitLength = 64;
        pa(db, 0).overlapAllowed = true;
    });
    ok("UINT of 1 bit", [](MissionDatabase& db) { pa(db, 0).bitLength = 1; });
    ok("FLOAT of 64 bits", [](MissionDatabase& db) {
        pa(db, 1).bitLength = 64;
        pa(db, 1).overlapAllowed = true;
    });
    ok("STRING of 8 bits", [](MissionDatabase& db) { pa(db, 3).bitLength = 8; });
    ok("BYTES unaligned", [](MissionDatabase& db) {
        pa(db, 3).type = DataType::Bytes;
        pa(db, 3).bitOffset = 105;
        pa(db, 3).bitLength = 48;
    });
    ok("little-endian 16 bits at an unaligned offset", [](MissionDatabase& db) {
        pa(db, 0).bitOffset = 50;
        pa(db, 0).byteOrder = ByteOrder::LittleEndian;
        pa(db, 0).overlapAllowed = true;
    });
    ok("little-endian packet with small fields", [](MissionDatabase& db) {
        pk(db).byteOrder = ByteOrder::LittleEndian;
        pa(db, 0).bitLength = 3;
        pk(db).parameters.push_back(makeParameter("F", 51, 5));
        pk(db).parameters.push_back(makeParameter("G", 58, 6)); // crosses no byte boundary
        pk(db).parameters.push_back(makeParameter("H", 61, 7)); // fewer than 8 bits, across a byte boundary
        pk(db).parameters.back().overlapAllowed = true;
    });
    ok("little-endian 64 bits", [](MissionDatabase& db) {
        pa(db, 1).byteOrder = ByteOrder::LittleEndian;
        pa(db, 1).bitLength = 64;
        pa(db, 1).overlapAllowed = true;
    });
    ok("big-endian field of 12 bits in a little-endian packet", [](MissionDatabase& db) {
        pk(db).byteOrder = ByteOrder::LittleEndian;
        pa(db, 0).bitLength = 12;
        pa(db, 0).byteOrder = ByteOrder::BigEndian;
    });
    ok("polynomial of 6 coefficients", [](MissionDatabase& db) { pa(db, 1).calibrator = PolynomialCalibrator{{1, 2, 3,
        4, 5, 6}}; });
    ok("polynomial of 1 coefficient", [](MissionDatabase& db) { pa(db, 1).calibrator = PolynomialCalibrator{{0.5}}; });
    ok("point table of 2 points", [](MissionDatabase& db) { pa(db, 1).calibrator = PointPairCalibrator{{{0, 5},
        {1e-300, -5}}}; });
    ok("enumeration ranges touching", [](MissionDatabase& db) {
        pa(db, 2).calibrator = EnumerationCalibrator{{State{4, 255, "HIGH"}, State{0, 3, "LOW"}}};
        pa(db, 2).limits = StateLimits{{"LOW"}, true};
    });
    ok("enumeration: same text for two codes", [](MissionDatabase& db) {
        pa(db, 2).calibrator = EnumerationCalibrator{{State{0, 0, "BAD"}, State{255, 255, "BAD"}, State{1, 1, "OK"}}};
        pa(db, 2).limits = StateLimits{{"OK"}, true};
    });
    ok("state codes at the INT 8 bounds", [](MissionDatabase& db) {
        pa(db, 2).type = DataType::SignedInt;
        pa(db, 2).calibrator = EnumerationCalibrator{{State{-128, -1, "NEG"}, State{0, 127, "POS"}}};
        pa(db, 2).limits = {};
    });
    ok("state codes at the UINT 64 bound", [](MissionDatabase& db) {
        pk(db).length = 28;
        pa(db, 2).bitOffset = 160;
        pa(db, 2).bitLength = 64;
        pa(db, 2).calibrator = EnumerationCalibrator{{State{0, std::numeric_limits<std::int64_t>::max(), "ANY"}}};
        pa(db, 2).limits = {};
    });
    ok("state codes at the INT 64 bounds", [](MissionDatabase& db) {
        pk(db).length = 28;
        pa(db, 2).type = DataType::SignedInt;
        pa(db, 2).bitOffset = 160;
        pa(db, 2).bitLength = 64;
        pa(db, 2).calibrator = EnumerationCalibrator{{State{std::numeric_limits<std::int64_t>::min(), -1, "NEG"},
            State{0, std::numeric_limits<std::int64_t>::max(), "POS"}}};
        pa(db, 2).limits = {};
    });
    ok("enumeration on a float", [](MissionDatabase& db) {
        pa(db, 1).calibrator = EnumerationCalibrator{{State{-5, 5, "NEAR"}}};
        pa(db, 1).limits = StateLimits{{"NEAR"}, false};
    });
    ok("all limits equal", [](MissionDatabase& db) { pa(db, 1).limits = NumericLimits{3, 3, 3, 3, true}; });
    ok("yellow limits equal to red", [](MissionDatabase& db) { pa(db, 1).limits = NumericLimits{-1, -1, 2, 2, true}; });
    ok("limits on a raw integer", [](MissionDatabase& db) { pa(db, 0).limits = NumericLimits{0, 1, 2, 3, false}; });
    ok("CUC 1 coarse 0 fine", [](MissionDatabase& db) {
        pk(db).secondaryHeader = CucLayout{1, 0, false, TimeEpoch::Unix1970};
        pk(db).parameters.erase(pk(db).parameters.begin());
    });
    ok("overlap marked on the first field", [](MissionDatabase& db) {
        pa(db, 1).bitOffset = 56;
        pa(db, 0).overlapAllowed = true;
    });
    ok("overlap marked on the second field", [](MissionDatabase& db) {
        pa(db, 1).bitOffset = 56;
        pa(db, 1).overlapAllowed = true;
    });
    ok("empty mission name", [](MissionDatabase& db) { db.name.clear(); });
    ok("no packets", [](MissionDatabase& db) { db.packets.clear(); });
    ok("XTCE names", [](MissionDatabase& db) {
        pk(db).name = "/IDEX/Sci0-TypeZero_1";
        pa(db, 0).name = "Q[0]";
        pa(db, 1).name = "POS.x";
        pa(db, 2).name = "/JPSS/ADGPSPOSX";
        pa(db, 2).limits = {};
    });
    ok("field at bit 0, in the primary header", [](MissionDatabase& db) {
        pk(db).parameters.push_back(makeParameter("VERSION", 0, 3));
        pk(db).parameters.push_back(makeParameter("APID", 5, 11));
    });
    ok("shared APID, one secondary id", [](MissionDatabase& db) {
        addTwin(db);
        pk(db, 0).secondaryId = SecondaryId{96, 8, 1};
    });
    ok("shared APID, different secondary id fields", [](MissionDatabase& db) {
        addTwin(db);
        pk(db, 0).secondaryId = SecondaryId{96, 8, 1};
        pk(db, 1).secondaryId = SecondaryId{96, 4, 1};
    });
    ok("shared APID, told apart by criteria only", [](MissionDatabase& db) {
        addTwin(db);
        pk(db, 1).criteria = {FieldCriterion{48, 8, CompareOp::Equal, 1}};
        PacketDef third = pk(db, 1);
        third.name = "R";
        third.criteria.push_back(FieldCriterion{56, 8, CompareOp::GreaterOrEqual, 3});
        db.packets.push_back(third);
    });
    ok("sign-magnitude and ones' complement of 2 and 64 bits", [](MissionDatabase& db) {
        pk(db).length = 40;
        pk(db).parameters.push_back(makeParameter("SM2", 160, 2, DataType::SignMagnitudeInt));
        pk(db).parameters.push_back(makeParameter("OC64", 162, 64, DataType::OnesComplementInt));
        pk(db).parameters.back().byteOrder = ByteOrder::LittleEndian;
    });
    ok("enumerations on sign-magnitude and ones' complement", [](MissionDatabase& db) {
        pa(db, 2).type = DataType::SignMagnitudeInt;
        pa(db, 2).calibrator = EnumerationCalibrator{{State{-127, -1, "NEG"}, State{0, 127, "POS"}}};
        pa(db, 2).limits = StateLimits{{"POS"}, true};
        pa(db, 0).type = DataType::OnesComplementInt;
        pa(db, 0).calibrator = EnumerationCalibrator{{State{-32767, 32767, "ANY"}}};
    });
    ok("sizes of every kind", [](MissionDatabase& db) {
        pa(db, 3).type = DataType::Bytes;
        pa(db, 3).bitLength = 0;
        pa(db, 3).size = FieldSize{SizeKind::FromParameter, "A", 8, -16, 0, 0, 65536};
        ParameterDef t = makeParameter("T", 0, 0, DataType::String);
        t.placement = Placement::AfterPrevious;
        t.size = FieldSize{SizeKind::Terminated, "", 1, 0, 0xFF, 0, 0};
        pk(db).parameters.push_back(t);
        ParameterDef l = makeParameter("L", 0, 0, DataType::String);
        l.placement = Placement::AfterPrevious;
        l.size = FieldSize{SizeKind::LeadingSize, "", 1, 0, 0, 32, 10};
        pk(db).parameters.push_back(l);
        ParameterDef one = makeParameter("L1", 0, 0, DataType::String);
        one.placement = Placement::AfterPrevious;
        one.size = FieldSize{SizeKind::LeadingSize, "", 1, 0, 0, 1, 0};
        pk(db).parameters.push_back(one);
    });
    ok("a gap up to the packet's length", [](MissionDatabase& db) {
        ParameterDef q = makeParameter("G", 160, 8);
        q.placement = Placement::AfterPrevious;
        pk(db).parameters.push_back(q);
    });
    ok("the first parameter after bit 0", [](MissionDatabase& db) {
        pa(db, 0).placement = Placement::AfterPrevious;
        pa(db, 0).overlapAllowed = true;
    });
    ok("conditions on earlier parameters", [](MissionDatabase& db) {
        pa(db, 2).includeWhen = {Condition{"A", CompareOp::NotEqual, 0, false}, Condition{"B", CompareOp::Greater, -1.5, true}};
        pa(db, 3).includeWhen = {Condition{"C", CompareOp::LessOrEqual, 1, false}};
    });
    ok("CALIBRATED on a point table and a time", [](MissionDatabase& db) {
        pa(db, 0).calibrator = TimeCalibrator{kEpochGps1980, 0.5, -2};
        pa(db, 1).calibrator = PointPairCalibrator{{{0, 0}, {1, 2}}};
        pa(db, 2).includeWhen = {Condition{"A", CompareOp::Less, 1e9, true}, Condition{"B", CompareOp::GreaterOrEqual, 1, true}};
    });
    ok("context calibrations of each kind", [](MissionDatabase& db) {
        pa(db, 1).contextCalibrators = {
            ContextCalibration{{Condition{"A", CompareOp::Equal, 1, false}}, PolynomialCalibrator{{0, 2}}},
            ContextCalibration{{Condition{"A", CompareOp::Equal, 2, false}, Condition{"A", CompareOp::Less, 9, false}},
                PointPairCalibrator{{{0, 1}, {2, 3}}}},
        };
        pa(db, 2).limits = {}; // a time has no limits
        pa(db, 2).contextCalibrators
            = {ContextCalibration{{Condition{"B", CompareOp::Equal, 1, true}}, TimeCalibrator{kEpochJ2000, 1, 0}}};
    });
    ok("time with a negative scale", [](MissionDatabase& db) { pa(db, 0).calibrator = TimeCalibrator{kEpochTai1958, -1e-3, 5}; });
    ok("criteria within the minimum length", [](MissionDatabase& db) {
        pk(db).criteria = {FieldCriterion{0, 3, CompareOp::Equal, 0}, FieldCriterion{96, 64, CompareOp::Equal,
            std::numeric_limits<std::uint64_t>::max()}, FieldCriterion{48, 8, CompareOp::Less, 1000}};
    });
    ok("open-sided limits", [](MissionDatabase& db) {
        constexpr double kInf = std::numeric_limits<double>::infinity();
        pa(db, 1).limits = NumericLimits{-kInf, -kInf, 5, kInf, true};
        pa(db, 0).limits = NumericLimits{-kInf, -kInf, kInf, kInf, true};
    });
    ok("aliases with an empty name space", [](MissionDatabase& db) {
        pk(db).aliases = {Alias{"", "p"}};
        pa(db, 0).aliases = {Alias{"ops", "a"}, Alias{"", "a2"}};
        pa(db, 0).longDescription = "two\nlines";
        pa(db, 0).path = "/P/A";
    });
    ok("names with underscores and digits", [](MissionDatabase& db) {
        pk(db).name = "_p9";
        pa(db, 0).name = "a_1";
    });
}

void TestMdbValidate::validBoundaries()
{
    QFETCH(Mutator, mutate);
    MissionDatabase db = baseDb();
    mutate(db);
    const auto issues = validate(db);
    QVERIFY2(issues.empty(), qPrintable(dump(issues)));
}

// A packet that is only its headers is valid; it just has nothing to show.
void TestMdbValidate::lengthEqualToTheHeadersIsFine()
{
    MissionDatabase db = baseDb();
    pk(db).secondaryHeader = CucLayout{4, 3, true, TimeEpoch::Tai1958}; // 8 bytes
    pk(db).length = 14;
    pk(db).parameters.clear();
    auto issues = validate(db);
    QCOMPARE(issues.size(), 1u);
    QVERIFY2(hasIssue(issues, Severity::Warning, 0, -1, "has no parameters"), qPrintable(dump(issues)));

    pk(db).variableLength = true;
    pk(db).maxLength = 14;
    issues = validate(db);
    QCOMPARE(issues.size(), 1u);
    QCOMPARE(issues[0].severity, Severity::Warning);

    pk(db).length = 13; // one byte short of the headers
    issues = validate(db);
    QVERIFY2(hasIssue(issues, Severity::Error, 0, -1, "less than the headers (14 bytes)"), qPrintable(dump(issues)));
}

void TestMdbValidate::overlapWarningNamesBothFields()
{
    MissionDatabase db = baseDb();
    pa(db, 1).bitOffset = 60; // B: 60..91 overlaps A: 48..63
    pa(db, 2).bitOffset = 90; // C: 90..97 overlaps B
    const auto issues = validate(db);
    QCOMPARE(issues.size(), 2u);
    QVERIFY2(hasIssue(issues, Severity::Warning, 0, 1, "P.A"), qPrintable(dump(issues)));
    QVERIFY2(hasIssue(issues, Severity::Warning, 0, 2, "parameter P.C (bits 90..97) overlaps P.B (bits 60..91)"),
        qPrintable(dump(issues)));
}

// 100,000 fields at one place: each but the first overlaps; a pairwise check would take billions of
// steps and report billions of pairs.
void TestMdbValidate::overlapIsNotQuadratic()
{
    MissionDatabase db;
    PacketDef p;
    p.name = "BIG";
    p.length = 100;
    constexpr int kCount = 100000;
    p.parameters.reserve(kCount);
    for (int i = 0; i < kCount; ++i)
        p.parameters.push_back(makeParameter("F" + std::to_string(i), 48, 8));
    db.packets.push_back(std::move(p));
    QElapsedTimer timer;
    timer.start();
    const auto issues = validate(db);
    const qint64 ms = timer.elapsed();
    QCOMPARE(issues.size(), std::size_t{kCount - 1});
    for (const auto& issue : issues)
        QCOMPARE(issue.severity, Severity::Warning);
    qInfo("validated %d parameters in %lld ms", kCount, static_cast<long long>(ms));
}

void TestMdbValidate::manyParametersWithoutOverlap()
{
    MissionDatabase db;
    PacketDef p;
    p.name = "BIG";
    constexpr int kCount = 100000;
    p.length = 6 + kCount / 8;
    // In reverse order, so the check has to sort.
    for (int i = kCount - 1; i >= 0; --i)
        p.parameters.push_back(makeParameter("F" + std::to_string(i), static_cast<std::uint32_t>(48 + i), 1));
    db.packets.push_back(std::move(p));
    QElapsedTimer timer;
    timer.start();
    const auto issues = validate(db);
    const qint64 ms = timer.elapsed();
    QVERIFY2(issues.empty(), qPrintable(dump(issues)));
    qInfo("validated %d parameters in %lld ms", kCount, static_cast<long long>(ms));

    // One field moved one bit onto its neighbour is found among them.
    db.packets[0].parameters[500].bitOffset -= 1;
    const auto one = validate(db);
    QCOMPARE(one.size(), 1u);
    QCOMPARE(one[0].severity, Severity::Warning);
}

void TestMdbValidate::issuesAreGroupedByPacket()
{
    MissionDatabase db = baseDb();
    addTwin(db);          // shared APID errors on both (found after the per-packet checks)
    pa(db, 0, 1).bitLength = 0; // a parameter error in Q
    pa(db, 0, 0).bitLength = 65; // a parameter error in P
    const auto issues = validate(db);
    QVERIFY(issues.size() >= 4);
    for (std::size_t k = 1; k < issues.size(); ++k)
        QVERIFY2(issues[k - 1].packetIndex <= issues[k].packetIndex, qPrintable(dump(issues)));
}

void TestMdbValidate::toDiagnosticsKeepsSeverityAndMessage()
{
    MissionDatabase db = baseDb();
    pa(db, 0).bitOffset = 10;
    pa(db, 0).bitLength = 0;
    pk(db).parameters.push_back(makeParameter("E", 48, 16));
    pk(db).parameters.push_back(makeParameter("F", 48, 16));
    const auto issues = validate(db);
    const Diagnostics diagnostics = toDiagnostics(issues, "mission.mdb");
    QCOMPARE(diagnostics.size(), issues.size());
    QVERIFY(hasErrors(diagnostics));
    bool sawWarning = false;
    for (std::size_t k = 0; k < issues.size(); ++k) {
        QCOMPARE(diagnostics[k].severity, issues[k].severity);
        QCOMPARE(diagnostics[k].message, issues[k].message);
        QCOMPARE(diagnostics[k].where, (SourceLocation{"mission.mdb", 0, 0}));
        sawWarning = sawWarning || diagnostics[k].severity == Severity::Warning;
    }
    QVERIFY(sawWarning);
    QCOMPARE(QString::fromStdString(diagnostics[0].toString()),
        QStringLiteral("mission.mdb: error: parameter P.A: bit length 0"));
    QVERIFY(toDiagnostics({}, "x").empty());
}

void TestMdbValidate::validNames()
{
    QVERIFY(isValidPacketName("/IDEX/Sci0TypeZero"));
    QVERIFY(isValidPacketName("A-b_1"));
    QVERIFY(!isValidPacketName("P.Q"));
    QVERIFY(!isValidPacketName("Q[0]"));
    QVERIFY(!isValidPacketName("9P"));
    QVERIFY(!isValidPacketName("-P"));
    QVERIFY(!isValidPacketName(""));
    QVERIFY(isValidParameterName("Q[0]"));
    QVERIFY(isValidParameterName("POS.x"));
    QVERIFY(isValidParameterName("/JPSS/ADGPSPOSX"));
    QVERIFY(isValidParameterName("a-b"));
    for (const char* bad : {"", "a b", "a\"b", "a#b", "a,b", "a\tb", "a\nb", ".a", "[0]", "1a", "\xC3\xA9"})
        QVERIFY2(!isValidParameterName(bad), bad);

    QVERIFY(isValidName("a"));
    QVERIFY(isValidName("_"));
    QVERIFY(isValidName("Volts_2"));
    QVERIFY(!isValidName(""));
    QVERIFY(!isValidName("2a"));
    QVERIFY(!isValidName("a.b"));
    QVERIFY(!isValidName("a b"));
    QVERIFY(!isValidName("\xC3\xA9t\xC3\xA9"));
}

QTEST_GUILESS_MAIN(TestMdbValidate)
#include "tst_mdb_validate.moc"
