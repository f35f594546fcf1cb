// Unit tests of the mission database text definition language: parsing, error locations, the
// canonical export and round trips.
#include "tests/support/model_builders.hpp"
#include "core/mdb/text_format.hpp"
#include "core/mdb/validate.hpp"
#include "tests/support/test_paths.hpp"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

using namespace telestation;
using namespace telestation::mdb;

namespace {

QString dump(const Diagnostics& diagnostics)
{
    QString out = QString::number(diagnostics.size()) + " diagnostic(s):";
    for (const auto& d : diagnostics)
        out += "\n  " + QString::fromStdString(d.toString());
    return out;
}

using test::makeParameter;

// Every keyword, data type, calibrator and limit kind; both byte orders; each epoch; the extremes of
// the integer ranges; strings with escapes; awkward reals.
MissionDatabase richDatabase()
{
    MissionDatabase db;
    db.name = "Training \"TS-1\" \\ mission # not a comment";

    PacketDef hk;
    hk.name = "HK";
    hk.apid = 100;
    hk.length = 64; // bits 0..511
    hk.description = "Housekeeping: \"quoted\", back\\slash\\\\, tab\there, UTF-8 \xC2\xB0" "C";
    hk.secondaryId = SecondaryId{104, 8, 1};
    hk.secondaryHeader = CucLayout{4, 2, true, TimeEpoch::Tai1958}; // bits 48..103
    hk.parameters.push_back(makeParameter("ID", 104, 8, DataType::UnsignedInt));
    {
        ParameterDef q = makeParameter("VOLTS", 112, 16, DataType::UnsignedInt);
        q.units = "V";
        q.description = "Bus \"main\" voltage \\ raw";
        q.calibrator = PolynomialCalibrator{{0.1, -1.5e-3, 1e-300, 2.5e10, -0.0, 1.0 / 3.0}};
        q.limits = NumericLimits{-1e-300, 0.1, 28.5, 1e300, true};
        hk.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("TEMP", 128, 16, DataType::SignedInt);
        q.byteOrder = ByteOrder::LittleEndian;
        q.units = "\xC2\xB0" "C";
        q.calibrator = PointPairCalibrator{{{-32768, -273.15}, {0, 0}, {0.5, 5e-324}, {32767, 1234.5678901234567}}};
        q.limits = NumericLimits{-50, -40, 60, 70, false};
        hk.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("MODE", 144, 4, DataType::UnsignedInt);
        q.calibrator = EnumerationCalibrator{{State{0, 0, "OFF"}, State{1, 1, "ON"}, State{2, 15, "ERR \"x\" \\"}}};
        q.limits = StateLimits{{"ON", "OFF"}, true};
        hk.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("FLAGS", 148, 4, DataType::SignedInt);
        q.byteOrder = ByteOrder::BigEndian;
        q.overlapAllowed = true;
        q.calibrator = EnumerationCalibrator{{State{-8, -1, "NEG"}, State{0, 7, ""}}};
        q.limits = StateLimits{{""}, false};
        hk.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("F32", 152, 32, DataType::Float);
        q.calibrator = PolynomialCalibrator{{-2.5e-10}};
        q.limits = NumericLimits{-1.7976931348623157e308, -1e-5, 1e-5, 1.7976931348623157e308, true};
        hk.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("F64", 184, 64, DataType::Float);
        q.byteOrder = ByteOrder::LittleEndian;
        q.description = "   leading and trailing blanks   ";
        hk.parameters.push_back(q);
    }
    hk.parameters.push_back(makeParameter("NAME", 248, 64, DataType::String));
    hk.parameters.push_back(makeParameter("RAW", 312, 200, DataType::Bytes)); // ends exactly at bit 512
    db.packets.push_back(hk);

    PacketDef evt;
    evt.name = "EVT";
    evt.apid = 100; // shares HK's APID, told apart by the secondary id
    evt.variableLength = true;
    evt.length = 14;
    evt.maxLength = 1000;
    evt.byteOrder = ByteOrder::LittleEndian;
    evt.description = "";
    evt.secondaryId = SecondaryId{104, 8, 2};
    evt.secondaryHeader = CucLayout{4, 2, true, TimeEpoch::Gps1980};
    {
        ParameterDef q = makeParameter("CODE", 104, 16, DataType::UnsignedInt);
        q.calibrator = EnumerationCalibrator{{State{0, 0x1FF, "LOW"}, State{0x200, 65535, "HIGH"}}};
        evt.parameters.push_back(q);
    }
    evt.parameters.push_back(makeParameter("MSG", 121, 7000, DataType::Bytes)); // unaligned, little-endian packet
    evt.parameters.back().overlapAllowed = true;
    db.packets.push_back(evt);

    PacketDef wide;
    wide.name = "WIDE_64";
    wide.apid = 2047;
    wide.length = 40;
    wide.secondaryHeader = CucLayout{1, 0, false, TimeEpoch::Unix1970}; // bits 48..55
    wide.secondaryId = SecondaryId{56, 64, std::numeric_limits<std::uint64_t>::max()};
    {
        ParameterDef q = makeParameter("I64", 120, 64, DataType::SignedInt);
        q.calibrator = EnumerationCalibrator{{State{std::numeric_limits<std::int64_t>::min(), -1, "NEGATIVE"},
            State{0, 0, "ZERO"}, State{1, std::numeric_limits<std::int64_t>::max(), "POSITIVE"}}};
        q.limits = StateLimits{{"ZERO"}, true};
        wide.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("U64", 184, 64, DataType::UnsignedInt);
        q.limits = NumericLimits{0, 0, 0, 0, true};
        wide.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("CUC4_3", 248, 56, DataType::UnsignedInt);
        q.byteOrder = ByteOrder::LittleEndian;
        wide.parameters.push_back(q);
    }
    db.packets.push_back(wide);

    PacketDef tiny;
    tiny.name = "_tiny0";
    tiny.apid = 0;
    tiny.secondaryHeader = CucLayout{3, 3, false, TimeEpoch::Tai1958}; // bits 48..95
    tiny.length = 13;
    tiny.parameters.push_back(makeParameter("_", 96, 1, DataType::UnsignedInt));
    tiny.parameters.back().overlapAllowed = true;
    db.packets.push_back(tiny);
    return db;
}

// The generalised model (issue 12, XTCE imports): every new field, in the canonical text below.
MissionDatabase generalisedDatabase()
{
    constexpr double kInf = std::numeric_limits<double>::infinity();
    MissionDatabase db;
    db.name = "XTCE-like";

    PacketDef sci;
    sci.name = "/IDEX/Sci0";
    sci.apid = 1418;
    sci.variableLength = true;
    sci.length = 24;
    sci.maxLength = 4000;
    sci.description = "Science";
    sci.longDescription = "Line one\nLine \"two\"\r\twith a tab";
    sci.path = "/IDEX/Sci0TypeZero";
    sci.aliases = {Alias{"ops", "SCI0"}, Alias{"", "sci-zero"}};
    sci.criteria = {FieldCriterion{0, 3, CompareOp::Equal, 0}, FieldCriterion{48, 8, CompareOp::GreaterOrEqual, 2},
        FieldCriterion{56, 64, CompareOp::NotEqual, std::numeric_limits<std::uint64_t>::max()}};
    sci.parameters.push_back(makeParameter("VERSION", 0, 3));
    sci.parameters.push_back(makeParameter("APID", 5, 11));
    {
        ParameterDef q = makeParameter("TYPE", 48, 8);
        q.calibrator = EnumerationCalibrator{{State{0, 0, "A"}, State{1, 10, "B"}}};
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("COUNT", 56, 16);
        q.calibrator = PolynomialCalibrator{{0, 8}};
        q.limits = NumericLimits{-kInf, -100, 100, kInf, true};
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("MAG", 72, 8, DataType::SignMagnitudeInt);
        q.calibrator = EnumerationCalibrator{{State{-127, -1, "neg"}, State{0, 127, "pos"}}};
        q.limits = StateLimits{{"pos"}, true};
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("OC", 80, 16, DataType::OnesComplementInt);
        q.byteOrder = ByteOrder::LittleEndian;
        q.calibrator = PolynomialCalibrator{{-0.0, 1}};
        q.contextCalibrators.push_back(ContextCalibration{
            {Condition{"TYPE", CompareOp::Equal, 1, false}, Condition{"COUNT", CompareOp::Greater, 10.5, true}},
            PolynomialCalibrator{{1, 2}}});
        q.contextCalibrators.push_back(
            ContextCalibration{{Condition{"TYPE", CompareOp::LessOrEqual, -0.0, false}}, PointPairCalibrator{{{0, 0}, {1, 10}}}});
        q.contextCalibrators.push_back(ContextCalibration{{Condition{"VERSION", CompareOp::NotEqual, 7, false}},
            TimeCalibrator{kEpochGps1980, 2, 0}});
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("T", 96, 48);
        q.calibrator = TimeCalibrator{kEpochTai1958, 1.52587890625e-05, 0};
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("T2", 144, 32);
        q.calibrator = TimeCalibrator{12345.5, 1, -3};
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("DATA", 0, 0, DataType::Bytes);
        q.placement = Placement::AfterPrevious;
        q.size.kind = SizeKind::FromParameter;
        q.size.sizeParameter = "COUNT";
        q.size.sizeSlope = 8;
        q.size.sizeIntercept = -16;
        q.size.maxBytes = 3000;
        q.includeWhen = {Condition{"TYPE", CompareOp::Equal, 1, false}, Condition{"COUNT", CompareOp::Less, 1e3, true}};
        q.units = "counts";
        q.description = "d";
        q.longDescription = "long";
        q.path = "/IDEX/DATA";
        q.aliases = {Alias{"ground", "DATA0"}};
        q.overlapAllowed = true;
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("Q[0]", 4, 16);
        q.placement = Placement::AfterPrevious;
        q.includeWhen = {Condition{"COUNT", CompareOp::GreaterOrEqual, 2, true}};
        q.limits = NumericLimits{-kInf, -kInf, 5, 6, false};
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("POS.x", 0, 32, DataType::Float);
        q.placement = Placement::AfterPrevious;
        q.contextCalibrators.push_back(
            ContextCalibration{{Condition{"Q[0]", CompareOp::Less, 5, false}}, TimeCalibrator{kEpochJ2000, 1, 0.25}});
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("NAME", 0, 0, DataType::String);
        q.placement = Placement::AfterPrevious;
        q.size.kind = SizeKind::Terminated;
        q.size.terminator = 0;
        q.size.maxBytes = 64;
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("NAME2", 0, 0, DataType::String);
        q.placement = Placement::AfterPrevious;
        q.size.kind = SizeKind::LeadingSize;
        q.size.leadingSizeBits = 16;
        q.calibrator = {};
        sci.parameters.push_back(q);
    }
    {
        ParameterDef q = makeParameter("TAIL", 8, 0, DataType::String);
        q.size.kind = SizeKind::Terminated;
        q.size.terminator = 0xFF;
        q.placement = Placement::Absolute;
        q.bitOffset = 176;
        q.overlapAllowed = true;
        sci.parameters.push_back(q);
    }
    db.packets.push_back(sci);

    // The same APID, told apart from Sci0 by its criteria only.
    PacketDef other;
    other.name = "/IDEX/Sci1-b";
    other.apid = 1418;
    other.length = 8;
    other.criteria = {FieldCriterion{48, 8, CompareOp::Equal, 1}};
    other.parameters.push_back(makeParameter("X", 48, 16));
    db.packets.push_back(other);
    return db;
}

// Its canonical text.
const char* const kGeneralisedText =
    "MISSION \"XTCE-like\"\n"
    "\n"
    "PACKET /IDEX/Sci0 APID 1418 LENGTH VARIABLE 24 4000\n"
    "  DESCRIPTION \"Science\"\n"
    "  LONG_DESCRIPTION \"Line one\\nLine \\\"two\\\"\\r\\twith a tab\"\n"
    "  PATH \"/IDEX/Sci0TypeZero\"\n"
    "  ALIAS \"ops\" \"SCI0\"\n"
    "  ALIAS \"\" \"sci-zero\"\n"
    "  MATCH 0 3 == 0\n"
    "  MATCH 48 8 >= 2\n"
    "  MATCH 56 64 != 18446744073709551615\n"
    "  PARAMETER VERSION 0 3 UINT\n"
    "  PARAMETER APID 5 11 UINT\n"
    "  PARAMETER TYPE 48 8 UINT\n"
    "    STATE \"A\" 0\n"
    "    STATE \"B\" 1 10\n"
    "  PARAMETER COUNT 56 16 UINT\n"
    "    POLY 0 8\n"
    "    LIMITS -inf -100 100 inf\n"
    "  PARAMETER MAG 72 8 INT_SIGN_MAGNITUDE\n"
    "    STATE \"neg\" -127 -1\n"
    "    STATE \"pos\" 0 127\n"
    "    EXPECTED \"pos\"\n"
    "  PARAMETER OC 80 16 INT_ONES_COMPLEMENT LITTLE_ENDIAN\n"
    "    POLY -0 1\n"
    "    CONTEXT TYPE == 1 AND COUNT > 10.5 CALIBRATED\n"
    "    POLY 1 2\n"
    "    CONTEXT TYPE <= -0\n"
    "    POINT 0 0\n"
    "    POINT 1 10\n"
    "    CONTEXT VERSION != 7\n"
    "    TIME GPS SCALE 2\n"
    "  PARAMETER T 96 48 UINT\n"
    "    TIME TAI SCALE 1.52587890625e-05\n"
    "  PARAMETER T2 144 32 UINT\n"
    "    TIME 12345.5 OFFSET -3\n"
    "  PARAMETER DATA +0 * BYTES\n"
    "    SIZE FROM COUNT SLOPE 8 INTERCEPT -16 MAX 3000\n"
    "    WHEN TYPE == 1\n"
    "    WHEN COUNT < 1000 CALIBRATED\n"
    "    UNITS \"counts\"\n"
    "    DESCRIPTION \"d\"\n"
    "    LONG_DESCRIPTION \"long\"\n"
    "    PATH \"/IDEX/DATA\"\n"
    "    ALIAS \"ground\" \"DATA0\"\n"
    "    OVERLAP_OK\n"
    "  PARAMETER Q[0] +4 16 UINT\n"
    "    WHEN COUNT >= 2 CALIBRATED\n"
    "    LIMITS -inf -inf 5 6 DISABLED\n"
    "  PARAMETER POS.x +0 32 FLOAT\n"
    "    CONTEXT Q[0] < 5\n"
    "    TIME J2000 OFFSET 0.25\n"
    "  PARAMETER NAME +0 * STRING\n"
    "    SIZE TERMINATED 0 MAX 64\n"
    "  PARAMETER NAME2 +0 * STRING\n"
    "    SIZE LEADING 16\n"
    "  PARAMETER TAIL 176 * STRING\n"
    "    SIZE TERMINATED 255\n"
    "    OVERLAP_OK\n"
    "\n"
    "PACKET /IDEX/Sci1-b APID 1418 LENGTH 8\n"
    "  MATCH 48 8 == 1\n"
    "  PARAMETER X 48 16 UINT\n";

// The first error's location and message, for the table of error cases.
struct Expected {
    int line = 0;
    int column = 0;
    QString message;
};

} // namespace

class TestMdbTextFormat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void richDatabaseIsValid();
    void roundTripRichDatabase();
    void exportIsAFixedPoint();
    void canonicalForm();
    void canonicalizesFreeForm();
    void realsRoundTripExactly();
    void parsesEveryKeyword();
    void numbersAndHex();
    void descriptionAppliesToLatest();
    void blankLinesCommentsAndLineEnds();
    void errors_data();
    void errors();
    void reportsEveryErrorLine();
    void errorCapStopsReading();
    void malformedLineDoesNotCascade();
    void validationIssuesAtTheirLines();
    void noValidationAfterParseErrors();
    void warningsDoNotFail();
    void fileNameInDiagnostics();
    void readMissingFile();
    void readDirectory();
    void writeAndReadFile();
    void writeToMissingDirectory();
    void tenThousandParametersRoundTrip();
    void generalisedDatabaseIsValid();
    void generalisedCanonicalForm();
    void generalisedRoundTrip();
    void generalisedFreeForm();
    void trainingMissionUnchanged();
    void mutatedInputNeverCrashes();
};

void TestMdbTextFormat::richDatabaseIsValid()
{
    const auto issues = validate(richDatabase());
    QString text;
    for (const auto& issue : issues)
        text += QString::fromStdString(issue.message) + "\n";
    QVERIFY2(issues.empty(), qPrintable(text));
}

void TestMdbTextFormat::roundTripRichDatabase()
{
    const MissionDatabase db = richDatabase();
    const std::string text = writeText(db);
    const ImportResult imported = parseText(text, "rich.tdef");
    QVERIFY2(imported.diagnostics.empty(),
        qPrintable(dump(imported.diagnostics) + "\n" + QString::fromStdString(text)));
    QVERIFY(imported.ok());
    QVERIFY2(imported.database == db, qPrintable(QString::fromStdString(text)));
    // operator== treats -0.0 and 0.0 as equal; the sign of zero must survive too.
    const auto& poly = std::get<PolynomialCalibrator>(imported.database.packets[0].parameters[1].calibrator);
    QVERIFY(std::signbit(poly.coefficients[4]));
    QCOMPARE(std::bit_cast<std::uint64_t>(poly.coefficients[5]), std::bit_cast<std::uint64_t>(1.0 / 3.0));
}

void TestMdbTextFormat::exportIsAFixedPoint()
{
    const std::string first = writeText(richDatabase());
    const ImportResult once = parseText(first);
    QVERIFY2(once.ok(), qPrintable(dump(once.diagnostics)));
    const std::string second = writeText(once.database);
    QCOMPARE(QString::fromStdString(second), QString::fromStdString(first));
    const ImportResult twice = parseText(second);
    QVERIFY(twice.ok());
    QCOMPARE(QString::fromStdString(writeText(twice.database)), QString::fromStdString(first));
}

void TestMdbTextFormat::canonicalForm()
{
    MissionDatabase db;
    db.name = "M \"1\"";
    PacketDef p;
    p.name = "P";
    p.apid = 5;
    p.length = 24;
    p.byteOrder = ByteOrder::LittleEndian;
    p.description = "a\\b";
    p.secondaryId = SecondaryId{112, 8, 9};
    p.secondaryHeader = CucLayout{4, 3, true, TimeEpoch::Gps1980};
    ParameterDef a = makeParameter("A", 120, 16, DataType::UnsignedInt);
    a.units = "V";
    a.description = "volts";
    a.overlapAllowed = true;
    a.calibrator = PolynomialCalibrator{{0, 0.5, -1e-300}};
    a.limits = NumericLimits{-1, 0, 2.5, 1e21, false};
    p.parameters.push_back(a);
    ParameterDef b = makeParameter("B", 136, 8, DataType::SignedInt);
    b.byteOrder = ByteOrder::BigEndian;
    b.calibrator = EnumerationCalibrator{{State{0, 0, "OFF"}, State{1, 3, "ON"}}};
    b.limits = StateLimits{{"ON"}, true};
    p.parameters.push_back(b);
    ParameterDef c = makeParameter("C", 144, 32, DataType::Float);
    c.calibrator = PointPairCalibrator{{{0, 1}, {10, 0.1}}};
    p.parameters.push_back(c);
    p.parameters.push_back(makeParameter("S", 176, 8, DataType::String));
    p.parameters.push_back(makeParameter("R", 184, 8, DataType::Bytes));
    db.packets.push_back(p);
    PacketDef v;
    v.name = "V";
    v.apid = 6;
    v.variableLength = true;
    v.length = 7;
    v.maxLength = 100;
    v.secondaryHeader = CucLayout{1, 0, false, TimeEpoch::Tai1958};
    db.packets.push_back(v);

    const std::string expected = "MISSION \"M \\\"1\\\"\"\n"
                                 "\n"
                                 "PACKET P APID 5 LENGTH 24 LITTLE_ENDIAN\n"
                                 "  DESCRIPTION \"a\\\\b\"\n"
                                 "  SECONDARY_ID 112 8 9\n"
                                 "  SECONDARY_HEADER CUC 4 3 PFIELD EPOCH GPS\n"
                                 "  PARAMETER A 120 16 UINT\n"
                                 "    UNITS \"V\"\n"
                                 "    DESCRIPTION \"volts\"\n"
                                 "    OVERLAP_OK\n"
                                 "    POLY 0 0.5 -1e-300\n"
                                 "    LIMITS -1 0 2.5 1e+21 DISABLED\n"
                                 "  PARAMETER B 136 8 INT BIG_ENDIAN\n"
                                 "    STATE \"OFF\" 0\n"
                                 "    STATE \"ON\" 1 3\n"
                                 "    EXPECTED \"ON\"\n"
                                 "  PARAMETER C 144 32 FLOAT\n"
                                 "    POINT 0 1\n"
                                 "    POINT 10 0.1\n"
                                 "  PARAMETER S 176 8 STRING\n"
                                 "  PARAMETER R 184 8 BYTES\n"
                                 "\n"
                                 "PACKET V APID 6 LENGTH VARIABLE 7 100\n"
                                 "  SECONDARY_HEADER CUC 1 0\n";
    QCOMPARE(QString::fromStdString(writeText(db)), QString::fromStdString(expected));
    const ImportResult back = parseText(expected);
    QVERIFY(back.ok());
    QVERIFY(back.database == db);

    QCOMPARE(QString::fromStdString(writeText(MissionDatabase{})), QString());
}

// A hand-written file in any case, order and spacing exports in the canonical form, which then stays.
void TestMdbTextFormat::canonicalizesFreeForm()
{
    const std::string text = "# free form\r\n"
                             "mission \"X\"\r\n"
                             "\tpacket Q apid 0x10 length 0x10 big_endian  # trailing comment\r\n"
                             "secondary_header cuc 2 1 epoch unix pfield\r\n"
                             "  description \"d\"\r\n"
                             "parameter V 0x50 8 uint little_endian\r\n"
                             "limits 0 1 2 3 disabled\r\n"
                             "point 1.0 2.50\r\n"
                             "point 2E1 -0.0e0\r\n"
                             "overlap_ok\r\n"
                             "units \"u\"\r\n";
    const ImportResult first = parseText(text);
    QVERIFY2(first.ok(), qPrintable(dump(first.diagnostics)));
    const PacketDef& q = first.database.packets.at(0);
    QCOMPARE(q.apid, std::uint16_t{16});
    QCOMPARE(q.length, 16u);
    QCOMPARE(q.secondaryHeader->epoch, TimeEpoch::Unix1970);
    QVERIFY(q.secondaryHeader->hasPField);
    QCOMPARE(q.parameters.at(0).bitOffset, 80u);
    const std::string canonical = writeText(first.database);
    QCOMPARE(QString::fromStdString(canonical),
        QStringLiteral("MISSION \"X\"\n\nPACKET Q APID 16 LENGTH 16\n  DESCRIPTION \"d\"\n"
                       "  SECONDARY_HEADER CUC 2 1 PFIELD EPOCH UNIX\n  PARAMETER V 80 8 UINT LITTLE_ENDIAN\n"
                       "    UNITS \"u\"\n    OVERLAP_OK\n    POINT 1 2.5\n    POINT 20 -0\n"
                       "    LIMITS 0 1 2 3 DISABLED\n"));
    const ImportResult second = parseText(canonical);
    QVERIFY(second.ok());
    QVERIFY(second.database == first.database);
    QCOMPARE(writeText(second.database), canonical);
}

void TestMdbTextFormat::realsRoundTripExactly()
{
    std::vector<double> values = {0.1, 0.2, 0.3, 1e-300, -1e-300, 1e300, 5e-324, -5e-324, 2.2250738585072014e-308,
        1.7976931348623157e308, -1.7976931348623157e308, 123456789012345678.0, 1.0 / 3.0, -2.0 / 3.0,
            9007199254740993.0,
        0.0, -0.0, 1e22, 1e21, 1e-7, 100.0};
    std::mt19937_64 random(20240601);
    while (values.size() < 5000) {
        const double d = std::bit_cast<double>(random());
        if (std::isfinite(d))
            values.push_back(d);
    }
    MissionDatabase db;
    PacketDef p;
    p.name = "R";
    p.length = 100;
    for (std::size_t k = 0; k + 1 < values.size(); k += 2) {
        ParameterDef q = makeParameter("P" + std::to_string(k), 48, 8, DataType::UnsignedInt);
        q.calibrator = PointPairCalibrator{{{values[k], values[k + 1]}}}; // one point: not valid, but parses
        p.parameters.push_back(q);
    }
    db.packets.push_back(p);
    const ImportResult back = parseText(writeText(db));
    const auto& parsed = back.database.packets.at(0).parameters;
    QCOMPARE(parsed.size(), p.parameters.size());
    for (std::size_t k = 0; k < parsed.size(); ++k) {
        const auto& expected = std::get<PointPairCalibrator>(p.parameters[k].calibrator).points.at(0);
        const auto& actual = std::get<PointPairCalibrator>(parsed[k].calibrator).points.at(0);
        QCOMPARE(std::bit_cast<std::uint64_t>(actual.raw), std::bit_cast<std::uint64_t>(expected.raw));
        QCOMPARE(std::bit_cast<std::uint64_t>(actual.calibrated), std::bit_cast<std::uint64_t>(expected.calibrated));
    }
}

void TestMdbTextFormat::parsesEveryKeyword()
{
    const ImportResult r = parseText("MISSION \"Demo\"\n"
                                     "PACKET P APID 7 LENGTH VARIABLE 20 30 LITTLE_ENDIAN\n"
                                     "  DESCRIPTION \"pkt\"\n"
                                     "  SECONDARY_ID 104 8 3\n"
                                     "  SECONDARY_HEADER CUC 4 2 PFIELD EPOCH GPS\n"
                                     "  PARAMETER A 104 8 UINT\n"
                                     "    UNITS \"n\"\n"
                                     "    DESCRIPTION \"id\"\n"
                                     "    OVERLAP_OK\n"
                                     "    STATE \"X\" 3\n"
                                     "    STATE \"Y\" 4 9\n"
                                     "    EXPECTED \"X\" \"Y\" DISABLED\n"
                                     "  PARAMETER B 112 16 INT BIG_ENDIAN\n"
                                     "    POLY 1 2 3 4 5 6\n"
                                     "    LIMITS -4 -3 3 4\n"
                                     "  PARAMETER C 128 32 FLOAT\n"
                                     "    POINT -1 -10\n"
                                     "    POINT 1 10\n"
                                     "    LIMITS -2 -1 1 2 DISABLED\n"
                                     "  PARAMETER D 160 16 STRING\n"
                                     "  PARAMETER E 176 16 BYTES LITTLE_ENDIAN\n");
    QVERIFY2(r.ok() && r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
    const MissionDatabase& db = r.database;
    QCOMPARE(db.name, std::string("Demo"));
    QCOMPARE(db.packets.size(), 1u);
    const PacketDef& p = db.packets[0];
    QCOMPARE(p.name, std::string("P"));
    QCOMPARE(p.apid, std::uint16_t{7});
    QVERIFY(p.variableLength);
    QCOMPARE(p.length, 20u);
    QCOMPARE(p.maxLength, 30u);
    QCOMPARE(p.byteOrder, ByteOrder::LittleEndian);
    QCOMPARE(p.description, std::string("pkt"));
    QVERIFY(p.secondaryId == (SecondaryId{104, 8, 3}));
    QVERIFY(p.secondaryHeader == (CucLayout{4, 2, true, TimeEpoch::Gps1980}));
    QCOMPARE(p.parameters.size(), 5u);

    const ParameterDef& a = p.parameters[0];
    QCOMPARE(a.name, std::string("A"));
    QCOMPARE(a.bitOffset, 104u);
    QCOMPARE(a.bitLength, 8u);
    QCOMPARE(a.type, DataType::UnsignedInt);
    QVERIFY(!a.byteOrder);
    QCOMPARE(a.units, std::string("n"));
    QCOMPARE(a.description, std::string("id"));
    QVERIFY(a.overlapAllowed);
    QVERIFY(a.calibrator == Calibrator(EnumerationCalibrator{{State{3, 3, "X"}, State{4, 9, "Y"}}}));
    QVERIFY(a.limits == Limits(StateLimits{{"X", "Y"}, false}));

    const ParameterDef& b = p.parameters[1];
    QCOMPARE(b.type, DataType::SignedInt);
    QCOMPARE(b.byteOrder, std::optional<ByteOrder>(ByteOrder::BigEndian));
    QVERIFY(!b.overlapAllowed);
    QVERIFY(b.calibrator == Calibrator(PolynomialCalibrator{{1, 2, 3, 4, 5, 6}}));
    QVERIFY(b.limits == Limits(NumericLimits{-4, -3, 3, 4, true}));

    const ParameterDef& c = p.parameters[2];
    QCOMPARE(c.type, DataType::Float);
    QVERIFY(c.calibrator == Calibrator(PointPairCalibrator{{{-1, -10}, {1, 10}}}));
    QVERIFY(c.limits == Limits(NumericLimits{-2, -1, 1, 2, false}));
    QCOMPARE(p.parameters[3].type, DataType::String);
    QCOMPARE(p.parameters[4].type, DataType::Bytes);
    QCOMPARE(p.parameters[4].byteOrder, std::optional<ByteOrder>(ByteOrder::LittleEndian));
    QVERIFY(std::holds_alternative<std::monostate>(p.parameters[4].calibrator));
    QVERIFY(std::holds_alternative<std::monostate>(p.parameters[4].limits));

    // Defaults: big-endian packet, TAI epoch, no P-field.
    const ImportResult d = parseText("PACKET Q APID 1 LENGTH 7\n SECONDARY_HEADER CUC 1 0\n");
    QVERIFY(d.ok());
    QCOMPARE(d.database.packets[0].byteOrder, ByteOrder::BigEndian);
    QVERIFY(!d.database.packets[0].variableLength);
    QVERIFY(d.database.packets[0].secondaryHeader == (CucLayout{1, 0, false, TimeEpoch::Tai1958}));
    const ImportResult t = parseText("PACKET Q APID 1 LENGTH 8\n SECONDARY_HEADER CUC 1 0 EPOCH TAI\n");
    QVERIFY(t.ok());
    QCOMPARE(t.database.packets[0].secondaryHeader->epoch, TimeEpoch::Tai1958);
}

void TestMdbTextFormat::numbersAndHex()
{
    const ImportResult r = parseText("PACKET P APID 0x7FF LENGTH 0X20\n"
                                     "  SECONDARY_ID 0x40 64 0xFFFFFFFFFFFFFFFF\n"
                                     "  PARAMETER A 0x30 0x10 INT\n"
                                     "    STATE \"MIN\" -9223372036854775808 -0x10\n"
                                     "    STATE \"MAX\" 0x0 9223372036854775807\n"
                                     "    STATE \"LEAD\" -0\n"
                                     "  PARAMETER B 00112 8 UINT\n"
                                     "    POINT 0xFF -0x1\n"
                                     "    POINT 1e3 .5\n"
                                     "    POINT 1001. -1.5E-3\n"
                                     "    POLY 0\n");
    QVERIFY(!r.ok()); // POINT and POLY mixed: the last line
    QCOMPARE(r.diagnostics.size(), 1u);
    QCOMPARE(r.diagnostics[0].where.line, 11);
    const PacketDef& p = r.database.packets.at(0);
    QCOMPARE(p.apid, std::uint16_t{2047});
    QCOMPARE(p.length, 32u);
    QCOMPARE(p.secondaryId->bitOffset, 64u);
    QCOMPARE(p.secondaryId->value, std::numeric_limits<std::uint64_t>::max());
    QCOMPARE(p.parameters[0].bitOffset, 48u);
    QCOMPARE(p.parameters[0].bitLength, 16u);
    const auto& states = std::get<EnumerationCalibrator>(p.parameters[0].calibrator).states;
    QCOMPARE(states.size(), 3u);
    QCOMPARE(states[0].low, std::numeric_limits<std::int64_t>::min());
    QCOMPARE(states[0].high, std::int64_t{-16});
    QCOMPARE(states[1].low, std::int64_t{0});
    QCOMPARE(states[1].high, std::numeric_limits<std::int64_t>::max());
    QCOMPARE(states[2].low, std::int64_t{0});
    QCOMPARE(p.parameters[1].bitOffset, 112u);
    const auto& points = std::get<PointPairCalibrator>(p.parameters[1].calibrator).points;
    QCOMPARE(points.size(), 3u);
    QCOMPARE(points[0].raw, 255.0);
    QCOMPARE(points[0].calibrated, -1.0);
    QCOMPARE(points[1].raw, 1000.0);
    QCOMPARE(points[1].calibrated, 0.5);
    QCOMPARE(points[2].raw, 1001.0);
    QCOMPARE(points[2].calibrated, -1.5e-3);
}

void TestMdbTextFormat::descriptionAppliesToLatest()
{
    const ImportResult r = parseText("PACKET P APID 1 LENGTH 8\n"
                                     "  DESCRIPTION \"of the packet\"\n"
                                     "  PARAMETER A 48 8 UINT\n"
                                     "  DESCRIPTION \"of A\"\n"
                                     "  PARAMETER B 56 8 UINT\n"
                                     "PACKET Q APID 2 LENGTH 8\n"
                                     "  PARAMETER C 48 8 UINT\n"
                                     "    DESCRIPTION \"\"\n");
    QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
    QCOMPARE(r.database.packets[0].description, std::string("of the packet"));
    QCOMPARE(r.database.packets[0].parameters[0].description, std::string("of A"));
    QCOMPARE(r.database.packets[0].parameters[1].description, std::string());
    QCOMPARE(r.database.packets[1].description, std::string());
    QCOMPARE(r.database.packets[1].parameters[0].description, std::string());
}

void TestMdbTextFormat::blankLinesCommentsAndLineEnds()
{
    for (const char* text : {"", "\n\n", "# only a comment", "   \t  \r\n# x\r\n", "\xEF\xBB\xBF# with a BOM\n"}) {
        const ImportResult r = parseText(text);
        QVERIFY2(r.ok() && r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
        QVERIFY(r.database == MissionDatabase{});
    }
    const ImportResult r = parseText("\xEF\xBB\xBFPACKET P APID 1 LENGTH 8 # comment \"with a quote\r\n"
                                     "\tPARAMETER A 48 8 UINT#no blank needed\r\n"
                                     "\t\tUNITS \"a # is not a comment in a string\"\r\n"
                                     "  \t  \r\n"
                                     "  PARAMETER B 56 8 UINT"); // no final line break
    QVERIFY2(r.ok() && r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
    QCOMPARE(r.database.packets.size(), 1u);
    QCOMPARE(r.database.packets[0].parameters.size(), 2u);
    QCOMPARE(r.database.packets[0].parameters[0].units, std::string("a # is not a comment in a string"));
    QCOMPARE(r.database.packets[0].parameters[1].name, std::string("B"));
}

void TestMdbTextFormat::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");

    const QString pkt = "PACKET P APID 1 LENGTH 100\n";
    const QString prm = pkt + "  PARAMETER A 48 8 UINT\n"; // the next line is line 3
    const auto row = [](const char* name, const QString& text, int line, int column, const char* message) {
        QTest::newRow(name) << text << line << column << QString::fromUtf8(message);
    };

    // Keywords and placement.
    row("unknown keyword", "FOO 1 2", 1, 1, "unknown keyword 'FOO'");
    row("unknown keyword, indented", pkt + "  \tLENGHT 3", 2, 4, "unknown keyword 'LENGHT'");
    row("string at line start", "\"MISSION\"", 1, 1, "expected a keyword at the start of the line");
    row("packet attribute before any PACKET", "DESCRIPTION \"x\"", 1, 1, "DESCRIPTION: comes before any PACKET");
    row("SECONDARY_ID before any PACKET", "SECONDARY_ID 48 8 1", 1, 1, "SECONDARY_ID: comes before any PACKET");
    row("parameter attribute before any PACKET", "  UNITS \"V\"", 1, 3, "UNITS: comes before any PACKET");
    row("LIMITS before any PACKET", "LIMITS 1 2 3 4", 1, 1, "LIMITS: comes before any PACKET");
    row("parameter attribute before any PARAMETER", pkt + "  UNITS \"V\"", 2, 3, "UNITS: must follow a PARAMETER");
    row("POLY before any PARAMETER", pkt + " POLY 1", 2, 2, "POLY: must follow a PARAMETER");
    row("OVERLAP_OK before any PARAMETER", pkt + "OVERLAP_OK", 2, 1, "OVERLAP_OK: must follow a PARAMETER");
    row("PARAMETER before any PACKET", "PARAMETER A 48 8 UINT", 1, 1, "PARAMETER: a PARAMETER must follow a PACKET");
    row("SECONDARY_ID after a PARAMETER", prm + "  SECONDARY_ID 48 8 1", 3, 3,
        "SECONDARY_ID: belongs to the packet and must come before the packet's first PARAMETER");
    row("SECONDARY_HEADER after a PARAMETER", prm + "SECONDARY_HEADER CUC 4 2", 3, 1,
        "must come before the packet's first PARAMETER");
    row("MISSION after a PACKET", pkt + "MISSION \"M\"", 2, 1, "MISSION: must come before the first PACKET");
    row("second MISSION", "MISSION \"A\"\nMISSION \"B\"", 2, 1, "MISSION: a second MISSION line");

    // Argument counts.
    row("PACKET without arguments", "PACKET", 1, 1, "PACKET: missing packet name");
    row("PACKET without LENGTH", "PACKET P APID 1", 1, 1, "PACKET: missing LENGTH");
    row("PACKET without its length", "  PACKET P APID 1 LENGTH", 1, 3, "PACKET: missing the packet length");
    row("PACKET VARIABLE without max", "PACKET P APID 1 LENGTH VARIABLE 10", 1, 1, "PACKET: missing maximum length");
    row("PACKET with an extra word", "PACKET P APID 1 LENGTH 10 BIG_ENDIAN extra", 1, 38,
        "PACKET: unexpected 'extra' at the end of the line");
    row("PACKET with a wrong byte order", "PACKET P APID 1 LENGTH 10 MIDDLE_ENDIAN", 1, 27,
        "expected BIG_ENDIAN or LITTLE_ENDIAN, found 'MIDDLE_ENDIAN'");
    row("PACKET without APID keyword", "PACKET P 1 LENGTH 10", 1, 10, "PACKET: expected APID, found '1'");
    row("PARAMETER without type", pkt + "PARAMETER A 48 8", 2, 1, "PARAMETER: missing the data type");
    row("PARAMETER unknown type", pkt + "PARAMETER A 48 8 DOUBLE", 2, 18,
        "PARAMETER: expected a data type (UINT, INT, FLOAT, STRING, BYTES, INT_SIGN_MAGNITUDE or INT_ONES_COMPLEMENT),"
        " found 'DOUBLE'");
    row("PARAMETER extra word", pkt + "PARAMETER A 48 8 UINT LITTLE_ENDIAN more", 2, 37, "unexpected 'more'");
    row("UNITS without text", prm + "UNITS", 3, 1, "UNITS: missing the units");
    row("UNITS two texts", prm + "UNITS \"a\" \"b\"", 3, 11, "UNITS: unexpected \"b\" at the end of the line");
    row("UNITS unquoted", prm + "UNITS V", 3, 7, "UNITS: expected the units in double quotes, found 'V'");
    row("OVERLAP_OK with an argument", prm + "OVERLAP_OK yes", 3, 12, "unexpected 'yes'");
    row("POLY without coefficients", prm + "POLY", 3, 1, "POLY: missing the coefficients");
    row("POLY with 7 coefficients", prm + "POLY 1 2 3 4 5 6 7", 3, 18, "POLY: at most 6 coefficients");
    row("POINT with one value", prm + "POINT 1", 3, 1, "POINT: missing calibrated value");
    row("POINT with three values", prm + "POINT 1 2 3", 3, 11, "unexpected '3'");
    row("STATE without code", prm + "STATE \"ON\"", 3, 1, "STATE: missing code");
    row("STATE with unquoted text", prm + "STATE ON 1", 3, 7, "expected the state text in double quotes, found 'ON'");
    row("STATE with four arguments", prm + "STATE \"R\" 1 2 3", 3, 15, "unexpected '3'");
    row("LIMITS with three values", prm + "LIMITS 1 2 3", 3, 1, "LIMITS: missing red high limit");
    row("LIMITS with a wrong flag", prm + "LIMITS 1 2 3 4 ENABLED", 3, 16, "expected DISABLED or the end of the line");
    row("LIMITS after DISABLED", prm + "LIMITS 1 2 3 4 DISABLED 5", 3, 25, "unexpected '5'");
    row("EXPECTED without states", prm + "EXPECTED", 3, 1, "EXPECTED: missing the expected states");
    row("EXPECTED only DISABLED", prm + "EXPECTED DISABLED", 3, 1, "EXPECTED: missing the expected states");
    row("EXPECTED state after DISABLED", prm + "EXPECTED \"A\" DISABLED \"B\"", 3, 23, "unexpected \"B\"");
    row("EXPECTED unquoted state", prm + "EXPECTED \"A\" B", 3, 14,
        "expected a state name in double quotes or DISABLED");
    row("SECONDARY_ID missing value", pkt + "SECONDARY_ID 48 8", 2, 1, "SECONDARY_ID: missing value");
    row("SECONDARY_HEADER not CUC", pkt + "SECONDARY_HEADER CDS 4 2", 2, 18,
        "SECONDARY_HEADER: expected CUC, found 'CDS'");
    row("SECONDARY_HEADER missing fine", pkt + "SECONDARY_HEADER CUC 4", 2, 1, "missing fine time bytes");
    row("SECONDARY_HEADER unknown epoch", pkt + "SECONDARY_HEADER CUC 4 2 EPOCH MARS", 2, 32,
        "expected TAI, GPS or UNIX after EPOCH, found 'MARS'");
    row("SECONDARY_HEADER EPOCH without value", pkt + "SECONDARY_HEADER CUC 4 2 PFIELD EPOCH", 2, 1,
        "missing the epoch after EPOCH");
    row("SECONDARY_HEADER PFIELD twice", pkt + "SECONDARY_HEADER CUC 4 2 PFIELD PFIELD", 2, 33,
        "expected PFIELD or EPOCH (each at most once)");
    row("DESCRIPTION with a number", pkt + "DESCRIPTION 5", 2, 13,
        "DESCRIPTION: expected the description in double quotes");

    // Repeats and mixtures.
    row("second POLY", prm + "POLY 1\nPOLY 2", 4, 1, "POLY: a second POLY for this parameter");
    row("POINT after POLY", prm + "POLY 1 2\n    POINT 0 1", 4, 5,
        "POINT: cannot be combined with POLY: a parameter has one calibrator kind");
    row("STATE after POINT", prm + "POINT 0 1\nPOINT 1 2\nSTATE \"A\" 1", 5, 1, "STATE: cannot be combined with POINT");
    row("POLY after STATE", prm + "STATE \"A\" 1\nPOLY 1", 4, 1, "POLY: cannot be combined with STATE");
    row("second LIMITS", prm + "LIMITS 1 2 3 4\n  LIMITS 1 2 3 4", 4, 3, "LIMITS: a second LIMITS for this parameter");
    row("EXPECTED after LIMITS", prm + "LIMITS 1 2 3 4\nEXPECTED \"A\"", 4, 1,
        "EXPECTED: cannot be combined with LIMITS: a parameter has one kind of limits");
    row("LIMITS after EXPECTED", prm + "EXPECTED \"A\"\nLIMITS 1 2 3 4", 4, 1,
        "LIMITS: cannot be combined with EXPECTED");
    row("second EXPECTED", prm + "EXPECTED \"A\"\nEXPECTED \"B\"", 4, 1, "EXPECTED: a second EXPECTED");
    row("second UNITS", prm + "UNITS \"a\"\nUNITS \"b\"", 4, 1, "UNITS: a second UNITS for this parameter");
    row("second parameter DESCRIPTION", prm + "DESCRIPTION \"a\"\nDESCRIPTION \"b\"", 4, 1,
        "DESCRIPTION: a second DESCRIPTION for this parameter");
    row("second packet DESCRIPTION", pkt + "DESCRIPTION \"a\"\nDESCRIPTION \"b\"", 3, 1,
        "DESCRIPTION: a second DESCRIPTION for this packet");
    row("second OVERLAP_OK", prm + "OVERLAP_OK\nOVERLAP_OK", 4, 1, "a second OVERLAP_OK");
    row("second SECONDARY_ID", pkt + "SECONDARY_ID 48 8 1\nSECONDARY_ID 48 8 2", 3, 1,
        "a second SECONDARY_ID for this packet");
    row("second SECONDARY_HEADER", pkt + "SECONDARY_HEADER CUC 1 0\nSECONDARY_HEADER CUC 1 0", 3, 1,
        "a second SECONDARY_HEADER for this packet");

    // Numbers and ranges.
    row("APID 2048", "PACKET P APID 2048 LENGTH 10", 1, 15, "PACKET: APID 2048 is out of range (0..2047)");
    row("APID negative", "PACKET P APID -1 LENGTH 10", 1, 15, "APID -1 is out of range (0..2047)");
    row("APID not a number", "PACKET P APID one LENGTH 10", 1, 15, "expected APID (an integer), found 'one'");
    row("APID real", "PACKET P APID 1.0 LENGTH 10", 1, 15, "expected APID (an integer), found '1.0'");
    row("length 6", "PACKET P APID 1 LENGTH 6", 1, 24, "packet length 6 is out of range (7..65542)");
    row("length 65543", "PACKET P APID 1 LENGTH 65543", 1, 24, "packet length 65543 is out of range (7..65542)");
    row("variable minimum 0", "PACKET P APID 1 LENGTH VARIABLE 0 10", 1, 33,
        "minimum length 0 is out of range (7..65542)");
    row("variable maximum 70000", "PACKET P APID 1 LENGTH variable 10 70000", 1, 36,
        "maximum length 70000 is out of range");
    row("bit length 0", pkt + "  PARAMETER A 48 0 UINT", 2, 18, "PARAMETER: bit length 0 is out of range (at least 1)");
    row("bit offset over 32 bits", pkt + "PARAMETER A 4294967296 8 UINT", 2, 13,
        "bit offset 4294967296 is out of range (0..4294967295)");
    row("bit offset garbage", pkt + "PARAMETER A 4x8 8 UINT", 2, 13, "expected bit offset (an integer), found '4x8'");
    row("bit offset hex without digits", pkt + "PARAMETER A 0x 8 UINT", 2, 13,
        "expected bit offset (an integer), found '0x'");
    row("bit offset with two pluses", pkt + "PARAMETER A ++48 8 UINT", 2, 13, "found '++48'");
    row("bit offset of two minuses", pkt + "PARAMETER A --48 8 UINT", 2, 13, "found '--48'");
    row("secondary id 65 bits", pkt + "SECONDARY_ID 48 65 1", 2, 17, "bit length 65 is out of range (1..64)");
    row("secondary id value 2^64", pkt + "SECONDARY_ID 48 64 18446744073709551616", 2, 20,
        "value 18446744073709551616 is out of range (0..18446744073709551615)");
    row("secondary id negative value", pkt + "SECONDARY_ID 48 8 -1", 2, 19, "value -1 is out of range");
    row("CUC 5 coarse bytes", pkt + "SECONDARY_HEADER CUC 5 2", 2, 22, "coarse time bytes 5 is out of range (1..4)");
    row("CUC 0 coarse bytes", pkt + "SECONDARY_HEADER CUC 0 2", 2, 22, "coarse time bytes 0 is out of range (1..4)");
    row("CUC 4 fine bytes", pkt + "SECONDARY_HEADER CUC 4 4", 2, 24, "fine time bytes 4 is out of range (0..3)");
    row("state code 2^63", prm + "STATE \"X\" 9223372036854775808", 3, 11,
        "code 9223372036854775808 is out of range for a 64-bit signed integer");
    row("state code -2^63-1", prm + "STATE \"X\" -9223372036854775809", 3, 11,
        "out of range for a 64-bit signed integer");
    row("state high code huge", prm + "STATE \"X\" 1 0x10000000000000000", 3, 13,
        "high code 0x10000000000000000 is out of range");
    row("state code real", prm + "STATE \"X\" 1.5", 3, 11, "expected code (an integer), found '1.5'");
    row("real inf", prm + "POLY 1 inf", 3, 8, "POLY: expected coefficient (a real number), found 'inf'");
    row("real nan", prm + "POINT nan 1", 3, 7, "expected raw value (a real number), found 'nan'");
    row("real -infinity", prm + "POINT 0 -infinity", 3, 9, "found '-infinity'");
    row("real garbage", prm + "LIMITS 1 2 3x 4", 3, 12, "expected yellow high limit (a real number), found '3x'");
    row("real comma", prm + "LIMITS 1 2,5 3 4", 3, 10, "found '2,5'");
    row("real with a plus", prm + "POLY +1", 3, 6, "found '+1'");
    row("real exponent without digits", prm + "POLY 1e", 3, 6, "found '1e'");
    row("real too big", prm + "POLY 1e400", 3, 6, "coefficient 1e400 is out of the range of a double");
    row("real string", prm + "POLY \"1\"", 3, 6, "found \"1\"");

    // Names.
    row("packet name starting with a digit", "PACKET 9P APID 1 LENGTH 10", 1, 8,
        "PACKET: invalid packet name '9P': packet names are letters, digits, '_', '-' and '/', starting with a letter");
    row("packet name quoted", "PACKET \"P\" APID 1 LENGTH 10", 1, 8, "expected packet name, found a string");
    row("parameter name with a comma", pkt + "PARAMETER P,A 48 8 UINT", 2, 11, "invalid parameter name 'P,A'");
    row("parameter name with a colon", pkt + "  PARAMETER a:b 48 8 UINT", 2, 13, "invalid parameter name 'a:b'");
    row("packet name with a dot", "PACKET P.Q APID 1 LENGTH 10", 1, 8, "invalid packet name 'P.Q'");

    // The constructs of the generalised model.
    const QString star = pkt + "  PARAMETER S 48 * STRING\n"; // the next line is line 3
    row("MATCH with a bad operator", pkt + "MATCH 48 8 =< 1", 2, 12,
        "MATCH: expected a comparison (==, !=, <, <=, > or >=), found '=<'");
    row("MATCH after a PARAMETER", prm + "MATCH 48 8 == 1", 3, 1, "must come before the packet's first PARAMETER");
    row("MATCH of 65 bits", pkt + "MATCH 48 65 == 1", 2, 10, "bit length 65 is out of range (1..64)");
    row("MATCH with a negative value", pkt + "MATCH 48 8 == -1", 2, 15, "value -1 is out of range");
    row("MATCH without value", pkt + "MATCH 48 8 ==", 2, 1, "MATCH: missing value");
    row("SIZE without '*'", prm + "SIZE FROM A", 3, 1, "SIZE: the parameter's bit length must be '*'");
    row("'*' without SIZE", pkt + "  PARAMETER S 48 * STRING\n  PARAMETER T 56 8 UINT", 2, 18,
        "PARAMETER: the bit length '*' needs a SIZE line");
    row("'*' without SIZE at the end", pkt + "PARAMETER S +0 * BYTES\n  UNITS \"u\"", 2, 16,
        "the bit length '*' needs a SIZE line");
    row("'*' as the offset", pkt + "PARAMETER A * 8 UINT", 2, 13, "expected bit offset (an integer), found '*'");
    row("negative gap", pkt + "PARAMETER A +-8 8 UINT", 2, 13, "expected a gap after '+' (an integer");
    row("SIZE of an unknown kind", star + "SIZE FIXED 8", 3, 6, "SIZE: expected FROM, TERMINATED or LEADING, found 'FIXED'");
    row("SIZE LEADING 33", star + "SIZE LEADING 33", 3, 14, "leading size bits 33 is out of range (1..32)");
    row("SIZE LEADING 0", star + "SIZE LEADING 0", 3, 14, "leading size bits 0 is out of range (1..32)");
    row("SIZE TERMINATED 256", star + "SIZE TERMINATED 256", 3, 17, "terminator byte 256 is out of range (0..255)");
    row("SIZE TERMINATED with a slope", star + "SIZE TERMINATED 0 SLOPE 2", 3, 19,
        "expected MAX (each at most once) or the end of the line, found 'SLOPE'");
    row("SIZE MAX twice", star + "SIZE LEADING 8 MAX 1 MAX 2", 3, 22, "found 'MAX'");
    row("SIZE MAX 65537", star + "SIZE LEADING 8 MAX 65537", 3, 20, "maximum bytes 65537 is out of range (0..65536)");
    row("SIZE FROM without a name", star + "SIZE FROM", 3, 1, "SIZE: missing parameter name");
    row("SIZE FROM with a bad slope", star + "SIZE FROM A SLOPE x", 3, 19, "expected slope (a real number), found 'x'");
    row("second SIZE", star + "SIZE LEADING 8\nSIZE LEADING 8", 4, 1, "SIZE: a second SIZE for this parameter");
    row("WHEN without value", prm + "WHEN A ==", 3, 1, "WHEN: missing value to compare with");
    row("WHEN with a bad name", prm + "WHEN A,B == 1", 3, 6, "invalid parameter name 'A,B'");
    row("WHEN with inf", prm + "WHEN A == inf", 3, 11, "expected value to compare with (a real number), found 'inf'");
    row("WHEN with a word after", prm + "WHEN A == 1 CALIBRATED x", 3, 24, "WHEN: unexpected 'x'");
    row("WHEN with a bad operator", prm + "WHEN A = 1", 3, 8, "expected a comparison");
    row("CONTEXT without AND", prm + "CONTEXT A == 1 B == 2", 3, 16,
        "CONTEXT: expected AND, CALIBRATED or the end of the line, found 'B'");
    row("CONTEXT ending in AND", prm + "CONTEXT A == 1 AND", 3, 1, "CONTEXT: missing a condition after AND");
    row("CONTEXT without a condition", prm + "CONTEXT", 3, 1, "CONTEXT: missing parameter name");
    row("STATE after CONTEXT", prm + "CONTEXT A == 1\nSTATE \"X\" 1", 4, 1, "STATE: after a CONTEXT line");
    row("POINT after POLY in a context", prm + "CONTEXT A == 1\nPOLY 1\nPOINT 0 1", 5, 1,
        "POINT: cannot be combined with POLY in this CONTEXT");
    row("second POLY in a context", prm + "CONTEXT A == 1\nPOLY 1\nPOLY 2", 5, 1, "POLY: a second POLY for this CONTEXT");
    row("second TIME", prm + "TIME TAI\nTIME GPS", 4, 1, "TIME: a second TIME for this parameter");
    row("TIME after POLY", prm + "POLY 1\nTIME TAI", 4, 1, "TIME: cannot be combined with POLY");
    row("POLY after TIME", prm + "TIME TAI\nPOLY 1", 4, 1, "POLY: cannot be combined with TIME");
    row("TIME with an unknown epoch", prm + "TIME MARS", 3, 6, "found 'MARS'");
    row("TIME without epoch", prm + "TIME", 3, 1, "TIME: missing the epoch");
    row("TIME SCALE without value", prm + "TIME TAI SCALE", 3, 1, "TIME: missing scale");
    row("TIME with an unknown option", prm + "TIME TAI EPOCH 1", 3, 10, "expected SCALE or OFFSET");
    row("LIMITS nan", prm + "LIMITS nan 1 2 3", 3, 8, "expected red low limit (a real number), found 'nan'");
    row("LIMITS infinity spelled out", prm + "LIMITS -infinity 1 2 3", 3, 8, "found '-infinity'");
    row("ALIAS with one string", prm + "ALIAS \"a\"", 3, 1, "ALIAS: missing the alias");
    row("ALIAS unquoted", pkt + "ALIAS ops X", 2, 7, "ALIAS: expected the name space in double quotes");
    row("ALIAS before any PACKET", "ALIAS \"a\" \"b\"", 1, 1, "ALIAS: comes before any PACKET");
    row("second PATH", prm + "PATH \"a\"\nPATH \"b\"", 4, 1, "PATH: a second PATH for this parameter");
    row("second packet LONG_DESCRIPTION", pkt + "LONG_DESCRIPTION \"a\"\nLONG_DESCRIPTION \"b\"", 3, 1,
        "LONG_DESCRIPTION: a second LONG_DESCRIPTION for this packet");
    row("PATH unquoted", prm + "PATH /x", 3, 6, "PATH: expected the path in double quotes");

    // Strings.
    row("unterminated string", "MISSION \"abc", 1, 9, "unterminated string");
    row("unterminated string after escape", prm + "UNITS \"abc\\\"", 3, 7, "unterminated string");
    row("string ending in a backslash", prm + "UNITS \"abc\\", 3, 7, "unterminated string");
    row("unknown escape", "MISSION \"a\\qb\"", 1, 11, "unknown escape '\\q' in a string");
    row("string broken by a line break", "MISSION \"a\n", 1, 9, "unterminated string");

    // Columns count bytes; a tab is one.
    row("column after tabs", "\t\tPACKET P APID 4096 LENGTH 10", 1, 17, "APID 4096 is out of range");
}

void TestMdbTextFormat::errors()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);

    const ImportResult r = parseText(text.toStdString(), "case.tdef");
    QVERIFY(!r.ok());
    QVERIFY2(!r.diagnostics.empty(), "no diagnostic");
    const Diagnostic& first = r.diagnostics.front();
    QCOMPARE(first.severity, Severity::Error);
    QVERIFY2(QString::fromStdString(first.message).contains(message), qPrintable(dump(r.diagnostics)));
    QCOMPARE(first.where.file, std::string("case.tdef"));
    QCOMPARE(first.where.line, line);
    QCOMPARE(first.where.column, column);
    // One error per bad line: none of these cases cascades.
    QVERIFY2(r.diagnostics.size() == 1, qPrintable(dump(r.diagnostics)));
}

void TestMdbTextFormat::reportsEveryErrorLine()
{
    const ImportResult r = parseText("PACKET P APID 1 LENGTH 100\n"  // 1
                                     "  PARAMETER A 48 8 UINT\n"     // 2
                                     "    UNITS V\n"                 // 3: error
                                     "    LIMITS 1 2 3 4\n"          // 4
                                     "  PARAMETER B 56 0 UINT\n"     // 5: error
                                     "    POLY 1 x\n"                // 6: error
                                     "  PARAMETER C 64 8 UINT\n"     // 7
                                     "BOGUS\n"                       // 8: error
                                     "PACKET Q APID 9999 LENGTH 10\n" // 9: error
                                     "  PARAMETER D 48 8 UINT\n"     // 10
                                     "    STATE \"x\n");             // 11: error
    QCOMPARE(r.diagnostics.size(), 6u);
    const int lines[] = {3, 5, 6, 8, 9, 11};
    const int columns[] = {11, 18, 12, 1, 15, 11};
    for (std::size_t k = 0; k < 6; ++k) {
        QCOMPARE(r.diagnostics[k].severity, Severity::Error);
        QCOMPARE(r.diagnostics[k].where.line, lines[k]);
        QCOMPARE(r.diagnostics[k].where.column, columns[k]);
    }
    // What could be read is kept, for information.
    QCOMPARE(r.database.packets.size(), 2u);
    QCOMPARE(r.database.packets[0].parameters.size(), 3u);
    QVERIFY(r.database.packets[0].parameters[0].limits == Limits(NumericLimits{1, 2, 3, 4, true}));
}

void TestMdbTextFormat::errorCapStopsReading()
{
    std::string text;
    for (int i = 0; i < 1000; ++i)
        text += "NOPE " + std::to_string(i) + "\n";
    const ImportResult r = parseText(text);
    QCOMPARE(r.diagnostics.size(), 101u);
    QCOMPARE(r.diagnostics[99].where.line, 100);
    QVERIFY(QString::fromStdString(r.diagnostics[100].message).contains("too many errors"));
    QCOMPARE(r.diagnostics[100].where.line, 100);

    // Exactly 100 errors and nothing after: no note.
    std::string exact;
    for (int i = 0; i < 100; ++i)
        exact += "NOPE\n";
    QCOMPARE(parseText(exact).diagnostics.size(), 100u);
}

// A PACKET or PARAMETER line with an error still opens its packet or parameter, so the lines after
// it are not reported as misplaced.
void TestMdbTextFormat::malformedLineDoesNotCascade()
{
    const struct {
        const char* text;
        int line;
    } cases[] = {
        {"PACKET P APID 1 LENGTH 10 \"oops\n  DESCRIPTION \"d\"\n  PARAMETER A 48 8 UINT\n    UNITS \"V\"\n", 1},
        {"PACKET P APID x LENGTH 10\n  SECONDARY_ID 48 8 1\n  PARAMETER A 48 8 UINT\n", 1},
        {"PACKET P APID 1 LENGTH 10\n  PARAMETER A 48 8 \"UINT\"\n    UNITS \"V\"\n    POLY 1\n", 2},
        {"PACKET P APID 1 LENGTH 10\n  PARAMETER A 48 8 UINT \"x\n    UNITS \"V\"\n", 2},
        {"PARAMETER A 48 8 UINT\n  UNITS \"V\"\n  LIMITS 1 2 3 4\n", 1},
    };
    for (const auto& c : cases) {
        const ImportResult r = parseText(c.text);
        QVERIFY2(r.diagnostics.size() == 1, qPrintable(QString(c.text) + dump(r.diagnostics)));
        QCOMPARE(r.diagnostics[0].where.line, c.line);
    }
}

void TestMdbTextFormat::validationIssuesAtTheirLines()
{
    const ImportResult r = parseText("MISSION \"V\"\n"                  // 1
                                     "PACKET P APID 1 LENGTH 10\n"      // 2
                                     "  PARAMETER A 48 16 UINT\n"       // 3
                                     "  PARAMETER B 56 16 UINT\n"       // 4: overlaps A (warning)
                                     "    LIMITS 4 3 2 1\n"             // 5: out of order (error at line 4)
                                     "\n"                               // 6
                                     "   PACKET P APID 2 LENGTH 10\n"   // 7: duplicate name (error)
                                     "    PARAMETER C 76 8 UINT\n"      // 8: past the length
                                     "PACKET E APID 3 LENGTH VARIABLE 20 10\n" // 9: min > max; no parameters
                                     "PACKET S APID 1 LENGTH 10\n"      // 10: shares APID 1 without ids
                                     "  PARAMETER X 48 8 UINT\n");      // 11
    QVERIFY(!r.ok());
    const auto find = [&](Severity severity, const QString& text) -> const Diagnostic* {
        for (const auto& d : r.diagnostics)
            if (d.severity == severity && QString::fromStdString(d.message).contains(text))
                return &d;
        return nullptr;
    };
    const struct {
        Severity severity;
        const char* text;
        int line;
        int column;
    } expected[] = {
        {Severity::Warning, "parameter P.B (bits 56..71) overlaps P.A (bits 48..63)", 4, 3},
        {Severity::Error, "parameter P.B: limits out of order", 4, 3},
        {Severity::Error, "packet P: duplicate packet name", 7, 4},
        {Severity::Error, "parameter P.C: bits 76..83 end past the packet's length of 10 bytes", 8, 5},
        {Severity::Error, "packet E: variable length: the minimum 20 bytes is greater than the maximum 10 bytes", 9, 1},
        {Severity::Warning, "packet E: the packet has no parameters", 9, 1},
        {Severity::Error, "packet S: APID 1 is shared with packet P", 10, 1},
        {Severity::Error, "packet P: APID 1 is shared with packet S", 2, 1},
    };
    for (const auto& e : expected) {
        const Diagnostic* d = find(e.severity, e.text);
        QVERIFY2(d, qPrintable(QString(e.text) + " not in " + dump(r.diagnostics)));
        QCOMPARE(d->where.file, std::string("<string>"));
        QCOMPARE(d->where.line, e.line);
        QCOMPARE(d->where.column, e.column);
    }
    QCOMPARE(r.diagnostics.size(), std::size(expected));
    for (std::size_t k = 1; k < r.diagnostics.size(); ++k)
        QVERIFY2(r.diagnostics[k - 1].where.line <= r.diagnostics[k].where.line, qPrintable(dump(r.diagnostics)));
}

void TestMdbTextFormat::noValidationAfterParseErrors()
{
    const ImportResult r = parseText("PACKET P APID 1 LENGTH 10\n"
                                     "  PARAMETER A 48 16 UINT\n"
                                     "  PARAMETER A 40 16 UINT\n" // duplicate, in the header, overlapping
                                     "  UNITS 5\n");              // the parse error
    QCOMPARE(r.diagnostics.size(), 1u);
    QCOMPARE(r.diagnostics[0].where.line, 4);
}

void TestMdbTextFormat::warningsDoNotFail()
{
    const ImportResult r = parseText("PACKET P APID 1 LENGTH 10\nPACKET Q APID 2 LENGTH 10\n  PARAMETER A 48 8 UINT\n"
                                     "  PARAMETER B 48 8 UINT\n");
    QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
    QCOMPARE(r.diagnostics.size(), 2u);
    QCOMPARE(r.diagnostics[0].severity, Severity::Warning);
    QCOMPARE(r.diagnostics[0].where.line, 1);
    QCOMPARE(r.diagnostics[1].severity, Severity::Warning);
    QCOMPARE(r.diagnostics[1].where.line, 4);
    QCOMPARE(r.database.packets.size(), 2u);
}

void TestMdbTextFormat::fileNameInDiagnostics()
{
    const ImportResult r = parseText("\n\n  BAD", "dir/mission.tdef");
    QCOMPARE(r.diagnostics.size(), 1u);
    QCOMPARE(QString::fromStdString(r.diagnostics[0].toString()),
        QStringLiteral("dir/mission.tdef:3:3: error: unknown keyword 'BAD'"));
}

void TestMdbTextFormat::readMissingFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("does-not-exist.tdef").toStdString();
    const ImportResult r = readTextFile(path);
    QVERIFY(!r.ok());
    QCOMPARE(r.diagnostics.size(), 1u);
    QCOMPARE(r.diagnostics[0].severity, Severity::Error);
    QVERIFY(QString::fromStdString(r.diagnostics[0].message).contains(QString::fromStdString(path)));
    QVERIFY(QString::fromStdString(r.diagnostics[0].message).contains("No such file"));
    QCOMPARE(r.diagnostics[0].where.file, path);
    QVERIFY(r.database == MissionDatabase{});
}

void TestMdbTextFormat::readDirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.path().toStdString();
    const ImportResult r = readTextFile(path);
    QVERIFY(!r.ok());
    QCOMPARE(r.diagnostics.size(), 1u);
    QVERIFY(QString::fromStdString(r.diagnostics[0].message).contains(QString::fromStdString(path)));
}

void TestMdbTextFormat::writeAndReadFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("rich.tdef").toStdString();
    const MissionDatabase db = richDatabase();
    const Status written = writeTextFile(db, path);
    QVERIFY2(written.ok(), written.ok() ? "" : written.error().toString().c_str());
    std::ifstream in(path, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    QCOMPARE(content.str(), writeText(db));
    const ImportResult r = readTextFile(path);
    QVERIFY2(r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
    QVERIFY(r.database == db);

    // Errors in a file name the file.
    const std::string bad = dir.filePath("bad.tdef").toStdString();
    std::ofstream(bad) << "PACKET P APID 1 LENGTH 10\n  PARAMETER A 48 8 WORD\n";
    const ImportResult e = readTextFile(bad);
    QCOMPARE(e.diagnostics.size(), 1u);
    QCOMPARE(e.diagnostics[0].where, (SourceLocation{bad, 2, 20}));
}

void TestMdbTextFormat::writeToMissingDirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("no/such/dir/x.tdef").toStdString();
    const Status s = writeTextFile(richDatabase(), path);
    QVERIFY(!s.ok());
    QVERIFY(QString::fromStdString(s.error().message).contains(QString::fromStdString(path)));
}

void TestMdbTextFormat::tenThousandParametersRoundTrip()
{
    MissionDatabase db;
    for (int k = 0; k < 10; ++k) {
        PacketDef p;
        p.name = "P" + std::to_string(k);
        p.apid = static_cast<std::uint16_t>(k);
        p.length = 6 + 1000 * 4;
        for (int i = 0; i < 1000; ++i) {
            ParameterDef q = makeParameter("PARAM_" + std::to_string(i), static_cast<std::uint32_t>(48 + 32 * i), 32,
                i % 2 ? DataType::Float : DataType::UnsignedInt);
            q.units = "V";
            q.description = "parameter number " + std::to_string(i);
            q.calibrator = PolynomialCalibrator{{0.5 * i, 1.25, -3e-7}};
            q.limits = NumericLimits{-1e3, -10.5, 10.5, 1e3, i % 3 != 0};
            p.parameters.push_back(q);
        }
        db.packets.push_back(p);
    }
    const std::string text = writeText(db);
    QElapsedTimer timer;
    timer.start();
    const ImportResult r = parseText(text);
    const qint64 ms = timer.elapsed();
    QVERIFY2(r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
    QCOMPARE(r.database.parameterCount(), 10000u);
    QVERIFY(r.database == db);
    qInfo("10,000 parameters (%zu bytes) parsed and validated in %lld ms", text.size(), static_cast<long long>(ms));
}

// Random damage to a valid file never crashes or throws; every error is located; whatever the
// parser accepts without error round-trips through the export.
void TestMdbTextFormat::mutatedInputNeverCrashes()
{
    const std::string original = writeText(richDatabase());
    const std::string alphabet = "\"\\# \t\n\r0123456789.-xeEPACKETUINTLIMITS_";
    std::mt19937 random(7);
    int accepted = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string text = original;
        const int edits = 1 + static_cast<int>(random() % 4);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = random() % text.size();
            switch (random() % 3) {
            case 0:
                text[at] = alphabet[random() % alphabet.size()];
                break;
            case 1:
                text.erase(at, 1 + random() % 8);
                break;
            default:
                text.insert(at, 1, alphabet[random() % alphabet.size()]);
                break;
            }
        }
        const ImportResult r = parseText(text, "fuzz");
        for (const auto& d : r.diagnostics) {
            QCOMPARE(d.where.file, std::string("fuzz"));
            QVERIFY2(d.where.line >= 1, d.toString().c_str());
            if (d.message.find("too many errors") == std::string::npos)
                QVERIFY2(d.where.column >= 1, d.toString().c_str());
        }
        if (r.ok()) {
            ++accepted;
            const ImportResult again = parseText(writeText(r.database));
            QVERIFY2(again.ok() && again.database == r.database, text.c_str());
            QCOMPARE(writeText(again.database), writeText(r.database));
        }
    }
    QVERIFY(accepted > 0);
}

void TestMdbTextFormat::generalisedDatabaseIsValid()
{
    const auto issues = validate(generalisedDatabase());
    QString text;
    for (const auto& issue : issues)
        text += QString::fromStdString(issue.message) + "\n";
    QVERIFY2(issues.empty(), qPrintable(text));
}

// Every new construct, written exactly as the language says, and read back to the same model.
void TestMdbTextFormat::generalisedCanonicalForm()
{
    const MissionDatabase db = generalisedDatabase();
    QCOMPARE(QString::fromStdString(writeText(db)), QString::fromUtf8(kGeneralisedText));
    const ImportResult back = parseText(kGeneralisedText, "xtce.tdef");
    QVERIFY2(back.diagnostics.empty(), qPrintable(dump(back.diagnostics)));
    QVERIFY(back.database == db);
    // Signs of zero survive where the model keeps them.
    const auto& oc = back.database.packets[0].parameters[5];
    QVERIFY(std::signbit(std::get<PolynomialCalibrator>(oc.calibrator).coefficients[0]));
    QVERIFY(std::signbit(oc.contextCalibrators[1].when[0].value));
    QCOMPARE(back.database.packets[0].longDescription, std::string("Line one\nLine \"two\"\r\twith a tab"));
}

void TestMdbTextFormat::generalisedRoundTrip()
{
    MissionDatabase db = generalisedDatabase();
    // The reals of the new constructs at awkward values.
    auto& data = db.packets[0].parameters[8];
    data.size.sizeSlope = 1.0 / 3.0;
    data.size.sizeIntercept = -0.0;
    data.includeWhen[1].value = 5e-324;
    auto& t2 = std::get<TimeCalibrator>(db.packets[0].parameters[7].calibrator);
    t2.epochUnixSeconds = -0.0; // not UNIX: the sign stays
    t2.scale = 1e-300;
    t2.offset = 1.7976931348623157e308;
    const std::string text = writeText(db);
    const ImportResult back = parseText(text);
    QVERIFY2(back.ok(), qPrintable(dump(back.diagnostics) + "\n" + QString::fromStdString(text)));
    QVERIFY2(back.database == db, qPrintable(QString::fromStdString(text)));
    const auto& backT2 = std::get<TimeCalibrator>(back.database.packets[0].parameters[7].calibrator);
    QVERIFY(std::signbit(backT2.epochUnixSeconds));
    QVERIFY(std::signbit(back.database.packets[0].parameters[8].size.sizeIntercept));
    QCOMPARE(writeText(back.database), text);

    // Every named epoch is written by name and read back to its value.
    for (const auto& [word, value] : {std::pair{"TAI", kEpochTai1958}, std::pair{"GPS", kEpochGps1980},
             std::pair{"UNIX", kEpochUnix1970}, std::pair{"J2000", kEpochJ2000}}) {
        t2.epochUnixSeconds = value;
        const std::string named = writeText(db);
        QVERIFY2(named.find(std::string("TIME ") + word + " ") != std::string::npos, named.c_str());
        const ImportResult r = parseText(named);
        QVERIFY(r.ok());
        QCOMPARE(std::get<TimeCalibrator>(r.database.packets[0].parameters[7].calibrator).epochUnixSeconds, value);
    }
}

// Hand-written: any case, options in any order, hex, the default calibrator's lines between contexts'
// other attributes.
void TestMdbTextFormat::generalisedFreeForm()
{
    const ImportResult r = parseText("packet P APID 1 length variable 10 100\n"
                                     "  match 0x30 8 > 0x10\n"
                                     "  alias \"a\" \"b\"\n"
                                     "  path \"/p\"\n"
                                     "  long_description \"x\"\n"
                                     "  parameter N 48 8 uint\n"
                                     "  parameter S +0X8 * bytes\n"
                                     "    size from N max 10 intercept 8 slope 0.5\n"
                                     "    when N != 0\n"
                                     "  parameter V +0 16 int\n"
                                     "    limits -INF 0 1 INF\n"
                                     "    context N == 1 calibrated and N < 3\n"
                                     "    time unix offset 1 scale 2\n"
                                     "    units \"u\"\n"
                                     "    context N == 2\n"
                                     "    point 0 0\n"
                                     "    point 1 1\n");
    // It parses; validation finds two errors, at V's line: N has no numeric calibrator, so CALIBRATED
    // on it cannot be; and a time (a context's TIME) has no limits.
    QCOMPARE(r.diagnostics.size(), 2u);
    QCOMPARE(r.diagnostics[0].where.line, 10);
    QCOMPARE(r.diagnostics[1].where.line, 10);
    QVERIFY2(QString::fromStdString(r.diagnostics[0].message).contains("CALIBRATED, but 'N' has no numeric calibrator"),
        qPrintable(dump(r.diagnostics)));
    QVERIFY2(QString::fromStdString(r.diagnostics[1].message).contains("limits on a time parameter"),
        qPrintable(dump(r.diagnostics)));
    const PacketDef& p = r.database.packets.at(0);
    QVERIFY(p.criteria == (std::vector<FieldCriterion>{FieldCriterion{48, 8, CompareOp::Greater, 16}}));
    QVERIFY(p.aliases == (std::vector<Alias>{Alias{"a", "b"}}));
    QCOMPARE(p.path, std::string("/p"));
    QCOMPARE(p.longDescription, std::string("x"));
    const ParameterDef& s = p.parameters.at(1);
    QCOMPARE(s.placement, Placement::AfterPrevious);
    QCOMPARE(s.bitOffset, 8u);
    QCOMPARE(s.bitLength, 0u);
    QVERIFY(s.size == (FieldSize{SizeKind::FromParameter, "N", 0.5, 8, 0, 0, 10}));
    QVERIFY(s.includeWhen == (std::vector<Condition>{Condition{"N", CompareOp::NotEqual, 0, false}}));
    const ParameterDef& v = p.parameters.at(2);
    QVERIFY(v.limits
        == Limits(NumericLimits{-std::numeric_limits<double>::infinity(), 0, 1, std::numeric_limits<double>::infinity(),
            true}));
    QCOMPARE(v.units, std::string("u"));
    QVERIFY(std::holds_alternative<std::monostate>(v.calibrator));
    QCOMPARE(v.contextCalibrators.size(), 2u);
    QVERIFY(v.contextCalibrators[0].when
        == (std::vector<Condition>{Condition{"N", CompareOp::Equal, 1, true}, Condition{"N", CompareOp::Less, 3, false}}));
    QVERIFY(v.contextCalibrators[0].calibrator == Calibrator(TimeCalibrator{kEpochUnix1970, 2, 1}));
    QVERIFY(v.contextCalibrators[1].calibrator == Calibrator(PointPairCalibrator{{{0, 0}, {1, 1}}}));
}

// The training mission reads to the same model as before the language grew: the canonical text of
// this build, re-read, is the model, and it uses none of the new constructs.
void TestMdbTextFormat::trainingMissionUnchanged()
{
    const ImportResult r = readTextFile(test::trainingDefinitionPath());
    QVERIFY2(r.ok() && r.diagnostics.empty(), qPrintable(dump(r.diagnostics)));
    for (const auto& p : r.database.packets) {
        QVERIFY(p.criteria.empty() && p.aliases.empty() && p.path.empty() && p.longDescription.empty());
        QVERIFY(!p.variableLayout());
        for (const auto& q : p.parameters) {
            QVERIFY(q.contextCalibrators.empty() && q.aliases.empty() && q.path.empty());
            QVERIFY(!std::holds_alternative<TimeCalibrator>(q.calibrator));
            QVERIFY(q.type <= DataType::Bytes);
        }
    }
    QVERIFY(parseText(writeText(r.database)).database == r.database);
}

QTEST_GUILESS_MAIN(TestMdbTextFormat)
#include "tst_mdb_text_format.moc"
