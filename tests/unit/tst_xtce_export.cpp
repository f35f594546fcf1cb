// The XTCE exporter: what it writes validates against the XTCE 1.2 schema, and importing it (the XTCE
// importer, which calls applyTelestationAncillary) gives back an equal mission database — for the training
// mission, for a database using every construct of the model, and for the real XTCE files imported,
// exported and imported again.
#include "core/mdb/text_format.hpp"
#include "core/mdb/validate.hpp"
#include "core/xtce/telestation_ancillary.hpp"
#include "core/xtce/xtce_export.hpp"
#include "core/xtce/xtce_import.hpp"
#include "core/xtce/xtce_schema.hpp"
#include "tests/support/test_paths.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <tuple>
#include <string>

using namespace telestation;
using namespace telestation::mdb;
using namespace telestation::xtce;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string dataPath(const std::string& relative)
{
    return test::referenceDataDir() + "/" + relative;
}
std::string sourcePath(const std::string& relative) { return test::sourceDir() + "/" + relative; }

std::string joined(const Diagnostics& diagnostics, std::size_t limit = 20)
{
    std::string out;
    for (std::size_t i = 0; i < diagnostics.size() && i < limit; ++i)
        out += diagnostics[i].toString() + "\n";
    if (diagnostics.size() > limit)
        out += "... and " + std::to_string(diagnostics.size() - limit) + " more\n";
    return out;
}

std::string errorsOf(const std::vector<ValidationIssue>& issues)
{
    std::string out;
    for (const auto& i : issues)
        if (i.severity == Severity::Error)
            out += i.message + "\n";
    return out;
}

// ---- the first difference between two databases, in words ----

template <typename T>
std::string text(const T& value)
{
    std::ostringstream s;
    s.precision(17);
    s << value;
    return s.str();
}

std::string conditionsText(const std::vector<Condition>& conditions)
{
    std::string out;
    for (const auto& c : conditions)
        out += "[" + c.parameter + " op" + text(static_cast<int>(c.op)) + " " + text(c.value)
            + (c.calibrated ? " cal" : "") + "]";
    return out;
}

std::string calibratorText(const Calibrator& c)
{
    if (const auto* p = std::get_if<PolynomialCalibrator>(&c)) {
        std::string out = "poly";
        for (double v : p->coefficients)
            out += " " + text(v);
        return out;
    }
    if (const auto* t = std::get_if<PointPairCalibrator>(&c)) {
        std::string out = "points";
        for (const auto& p : t->points)
            out += " (" + text(p.raw) + "," + text(p.calibrated) + ")";
        return out;
    }
    if (const auto* e = std::get_if<EnumerationCalibrator>(&c)) {
        std::string out = "states";
        for (const auto& s : e->states)
            out += " " + s.text + "=" + text(s.low) + ".." + text(s.high);
        return out;
    }
    if (const auto* t = std::get_if<TimeCalibrator>(&c))
        return "time " + text(t->epochUnixSeconds) + " " + text(t->scale) + " " + text(t->offset);
    return "none";
}

std::string limitsText(const Limits& l)
{
    if (const auto* n = std::get_if<NumericLimits>(&l))
        return "limits " + text(n->redLow) + " " + text(n->yellowLow) + " " + text(n->yellowHigh) + " "
            + text(n->redHigh)
            + (n->enabled ? "" : " disabled");
    if (const auto* s = std::get_if<StateLimits>(&l)) {
        std::string out = "expected";
        for (const auto& e : s->expectedStates)
            out += " " + e;
        return out + (s->enabled ? "" : " disabled");
    }
    return "none";
}

std::string aliasesText(const std::vector<Alias>& aliases)
{
    std::string out;
    for (const auto& a : aliases)
        out += "[" + a.nameSpace + ":" + a.alias + "]";
    return out;
}

std::string parameterDifference(const ParameterDef& a, const ParameterDef& b)
{
    std::string out;
    const auto field = [&](const char* what, const std::string& x, const std::string& y) {
        if (x != y)
            out += std::string("  ") + what + ": expected '" + x + "', got '" + y + "'\n";
    };
    field("name", a.name, b.name);
    field("bitOffset", text(a.bitOffset), text(b.bitOffset));
    field("bitLength", text(a.bitLength), text(b.bitLength));
    field("type", text(static_cast<int>(a.type)), text(static_cast<int>(b.type)));
    field("placement", text(static_cast<int>(a.placement)), text(static_cast<int>(b.placement)));
    const auto size = [](const FieldSize& f) {
        return text(static_cast<int>(f.kind)) + " " + f.sizeParameter + " " + text(f.sizeSlope) + " "
            + text(f.sizeIntercept) + " " + text(int(f.terminator)) + " " + text(int(f.leadingSizeBits)) + " "
            + text(f.maxBytes);
    };
    field("size", size(a.size), size(b.size));
    field("includeWhen", conditionsText(a.includeWhen), conditionsText(b.includeWhen));
    const auto order = [](const std::optional<ByteOrder>& o) { return o ? text(static_cast<int>(*o)) : "-"; };
    field("byteOrder", order(a.byteOrder), order(b.byteOrder));
    field("units", a.units, b.units);
    field("description", a.description, b.description);
    field("longDescription", a.longDescription, b.longDescription);
    field("path", a.path, b.path);
    field("aliases", aliasesText(a.aliases), aliasesText(b.aliases));
    field("overlapAllowed", text(a.overlapAllowed), text(b.overlapAllowed));
    field("calibrator", calibratorText(a.calibrator), calibratorText(b.calibrator));
    std::string ca, cb;
    for (const auto& c : a.contextCalibrators)
        ca += conditionsText(c.when) + " " + calibratorText(c.calibrator) + "; ";
    for (const auto& c : b.contextCalibrators)
        cb += conditionsText(c.when) + " " + calibratorText(c.calibrator) + "; ";
    field("contexts", ca, cb);
    field("limits", limitsText(a.limits), limitsText(b.limits));
    return out.empty() && !(a == b) ? "  (a difference this description does not show)\n" : out;
}

std::string firstDifference(const MissionDatabase& a, const MissionDatabase& b)
{
    if (a.name != b.name)
        return "mission name: expected '" + a.name + "', got '" + b.name + "'";
    if (a.packets.size() != b.packets.size()) {
        std::string out = "packet count: expected " + text(a.packets.size()) + ", got " + text(b.packets.size()) + ":";
        for (const auto& p : b.packets)
            out += " " + p.name;
        return out;
    }
    for (std::size_t i = 0; i < a.packets.size(); ++i) {
        const PacketDef& x = a.packets[i];
        const PacketDef& y = b.packets[i];
        if (x == y)
            continue;
        std::string out = "packet #" + text(i + 1) + " " + x.name + " (got " + y.name + "):\n";
        const auto field = [&](const char* what, const std::string& u, const std::string& v) {
            if (u != v)
                out += std::string("  ") + what + ": expected '" + u + "', got '" + v + "'\n";
        };
        field("apid", text(x.apid), text(y.apid));
        const auto id = [](const std::optional<SecondaryId>& s) {
            return s ? text(s->bitOffset) + "/" + text(s->bitLength) + "=" + text(s->value) : std::string("-");
        };
        field("secondaryId", id(x.secondaryId), id(y.secondaryId));
        const auto criteria = [](const std::vector<FieldCriterion>& list) {
            std::string all;
            for (const auto& c : list)
                all += "[" + text(c.bitOffset) + "/" + text(c.bitLength) + " op" + text(int(c.op)) + " " + text(c.value)
                    + "]";
            return all;
        };
        field("criteria", criteria(x.criteria), criteria(y.criteria));
        field("length", text(x.length) + (x.variableLength ? " variable " + text(x.maxLength) : ""),
            text(y.length) + (y.variableLength ? " variable " + text(y.maxLength) : ""));
        field("byteOrder", text(int(x.byteOrder)), text(int(y.byteOrder)));
        field("description", x.description, y.description);
        field("longDescription", x.longDescription, y.longDescription);
        field("path", x.path, y.path);
        field("aliases", aliasesText(x.aliases), aliasesText(y.aliases));
        const auto cuc = [](const std::optional<CucLayout>& c) {
            return c ? text(int(c->coarseBytes)) + "+" + text(int(c->fineBytes)) + (c->hasPField ? " P" : "") + " epoch"
                    + text(int(c->epoch))
                     : std::string("-");
        };
        field("secondaryHeader", cuc(x.secondaryHeader), cuc(y.secondaryHeader));
        if (x.parameters.size() != y.parameters.size()) {
            out += "  parameter count: expected " + text(x.parameters.size()) + ", got " + text(y.parameters.size())
                + ":";
            for (const auto& p : y.parameters)
                out += " " + p.name;
            return out;
        }
        for (std::size_t j = 0; j < x.parameters.size(); ++j)
            if (!(x.parameters[j] == y.parameters[j]))
                return out + " parameter #" + text(j + 1) + " " + x.parameters[j].name + ":\n"
                    + parameterDifference(x.parameters[j], y.parameters[j]);
        return out;
    }
    return {};
}

// ---- a database with every construct of the model ----

ParameterDef param(std::string name, std::uint32_t offset, std::uint32_t bits, DataType type)
{
    ParameterDef p;
    p.name = std::move(name);
    p.bitOffset = offset;
    p.bitLength = bits;
    p.type = type;
    return p;
}

ParameterDef after(std::string name, std::uint32_t gap, std::uint32_t bits, DataType type)
{
    ParameterDef p = param(std::move(name), gap, bits, type);
    p.placement = Placement::AfterPrevious;
    return p;
}

MissionDatabase everyConstruct()
{
    MissionDatabase db;
    db.name = "Test mission: <all> & \"more\"";

    // A fixed packet: CUC header with P-field, secondary id, criteria, every data type, calibrators,
    // limits, aliases, descriptions.
    PacketDef a;
    a.name = "/Sat/HK-Main";
    a.apid = 42;
    a.length = 80;
    a.description = "Housekeeping <main> & \"friends\"";
    a.longDescription = "  Line one\n\tline two with a tab\r\nline three <&>  ";
    a.path = "/Sat/HK";
    a.aliases = { { "ops", "HKM" }, { "telestation", "in our name space" }, { "", "no name space" } };
    a.secondaryHeader = CucLayout { 4, 2, true, TimeEpoch::Gps1980 };
    a.secondaryId = SecondaryId { 104, 8, 3 };
    a.criteria = { { 112, 4, CompareOp::GreaterOrEqual, 2 }, { 116, 4, CompareOp::NotEqual, 15 },
        { 120, 8, CompareOp::Less, 200 }, { 16, 2, CompareOp::Equal, 3 },
        { 464, 64, CompareOp::LessOrEqual, (std::uint64_t { 1 } << 60) + 1 } };
    {
        ParameterDef mode = param("MODE", 104, 8, DataType::UnsignedInt);
        mode.calibrator = EnumerationCalibrator {
            { { 0, 0, "OFF" }, { 1, 2, "ON" }, { 3, 3, "SAFE" }, { 4, 9, "a \"quoted\" <state>" } } };
        mode.limits = StateLimits { { "SAFE", "OFF" }, true };
        mode.description = "Operating mode";
        a.parameters.push_back(mode);

        ParameterDef x = param("pos.x", 128, 32, DataType::Float);
        x.byteOrder = ByteOrder::BigEndian;
        x.units = "m";
        x.limits = NumericLimits { -kInf, -10, 10, kInf, true };
        x.path = "/Sat/Nav/POS.x";
        x.aliases = { { "ops", "POSX" } };
        a.parameters.push_back(x);

        ParameterDef q = param("Q[0]", 160, 16, DataType::SignedInt);
        q.byteOrder = ByteOrder::LittleEndian;
        q.calibrator = PolynomialCalibrator { { 1, 0.5, 0, 0 } };
        q.limits = NumericLimits { -100, -50, 50, 100, false };
        q.units = "deg C";
        a.parameters.push_back(q);

        ParameterDef sm = param("SM", 176, 16, DataType::SignMagnitudeInt);
        sm.calibrator = PointPairCalibrator { { { -100, -1 }, { 0, 0 }, { 100, 2.5 } } };
        sm.limits = NumericLimits { -2, -1, 1, 2, true };
        a.parameters.push_back(sm);

        ParameterDef t = param("T", 192, 48, DataType::UnsignedInt);
        t.calibrator = TimeCalibrator { 1234567.125, 1.52587890625e-05, 0.5 };
        t.units = "s";
        t.longDescription = "A time with a dateTime epoch";
        a.parameters.push_back(t);

        ParameterDef oc = param("OC", 240, 16, DataType::OnesComplementInt);
        oc.calibrator = PolynomialCalibrator { { 0, 2 } };
        oc.contextCalibrators = {
            { { { "MODE", CompareOp::Equal, 3, false } }, PolynomialCalibrator { { 1, 2, 3 } } },
            { { { "MODE", CompareOp::GreaterOrEqual, 1, false }, { "Q[0]", CompareOp::Greater, 10.5, true } },
                PointPairCalibrator { { { 0, 1 }, { 10, 20 } } } },
            { { { "MODE", CompareOp::LessOrEqual, 0, false } }, TimeCalibrator { kEpochGps1980, 1, 0 } },
        };
        a.parameters.push_back(oc);

        ParameterDef te = param("TE", 256, 32, DataType::UnsignedInt);
        te.calibrator = TimeCalibrator { kEpochJ2000, 0.001, -3 };
        te.contextCalibrators = { { { { "MODE", CompareOp::NotEqual, 1, false } }, PolynomialCalibrator { { 5 } } } };
        te.units = "UTC";
        a.parameters.push_back(te);

        ParameterDef str = param("STR", 288, 64, DataType::String);
        str.units = "text";
        a.parameters.push_back(str);

        a.parameters.push_back(param("RAWB", 352, 32, DataType::Bytes));

        ParameterDef flags = param("FLAGS", 384, 8, DataType::UnsignedInt);
        a.parameters.push_back(flags);
        ParameterDef flag0 = param("FLAG0", 384, 1, DataType::UnsignedInt);
        flag0.overlapAllowed = true;
        a.parameters.push_back(flag0);

        a.parameters.push_back(param("SPARE", 392, 8, DataType::UnsignedInt));

        ParameterDef f64 = param("F64", 400, 64, DataType::Float);
        f64.byteOrder = ByteOrder::LittleEndian;
        f64.calibrator = PolynomialCalibrator { { -0.0, 1e-300, 1e300 } };
        a.parameters.push_back(f64);

        ParameterDef u64 = param("U64", 464, 64, DataType::UnsignedInt);
        u64.limits = NumericLimits { 0, 1, 1e18, 1.5e19, true };
        a.parameters.push_back(u64);

        ParameterDef s3 = param("S3", 528, 3, DataType::SignedInt);
        s3.limits = NumericLimits { -4, -3, 2, 3, true };
        a.parameters.push_back(s3);

        ParameterDef open = param("OPEN", 531, 5, DataType::UnsignedInt);
        open.limits = NumericLimits { -kInf, -kInf, kInf, kInf, true };
        a.parameters.push_back(open);

        ParameterDef red = param("REDONLY", 536, 8, DataType::UnsignedInt);
        red.limits = NumericLimits { -5, -5, 200, 200, true };
        a.parameters.push_back(red);

        ParameterDef up = param("UPPER", 544, 8, DataType::UnsignedInt);
        up.limits = NumericLimits { 1, kInf, kInf, kInf, true };
        a.parameters.push_back(up);
    }
    db.packets.push_back(a);

    // A variable-length, little-endian packet with sizes from the data, conditions and strings.
    PacketDef b;
    b.name = "Event";
    b.apid = 43;
    b.length = 10;
    b.variableLength = true;
    b.maxLength = 200;
    b.byteOrder = ByteOrder::LittleEndian;
    {
        b.parameters.push_back(param("TYPE", 48, 8, DataType::UnsignedInt));
        b.parameters.push_back(param("COUNT", 56, 16, DataType::UnsignedInt));
        ParameterDef data = after("DATA", 0, 0, DataType::Bytes);
        data.size = FieldSize { SizeKind::FromParameter, "COUNT", 8, -16, 0, 0, 100 };
        data.includeWhen = { { "TYPE", CompareOp::Equal, 1, false } };
        b.parameters.push_back(data);
        ParameterDef name = after("NAME", 0, 0, DataType::String);
        name.size = FieldSize { SizeKind::Terminated, "", 1, 0, 0, 0, 64 };
        b.parameters.push_back(name);
        ParameterDef name2 = after("NAME2", 8, 0, DataType::String);
        name2.size = FieldSize { SizeKind::Terminated, "", 1, 0, 0x0A, 0, 0 };
        b.parameters.push_back(name2);
        ParameterDef pascal = after("PASCAL", 0, 0, DataType::String);
        pascal.size = FieldSize { SizeKind::LeadingSize, "", 1, 0, 0, 8, 32 };
        b.parameters.push_back(pascal);
        ParameterDef pascal0 = after("PASCAL0", 0, 0, DataType::String);
        pascal0.size = FieldSize { SizeKind::LeadingSize, "", 1, 0, 0, 16, 0 };
        b.parameters.push_back(pascal0);
        ParameterDef blob = after("BLOB", 0, 0, DataType::Bytes);
        blob.size = FieldSize { SizeKind::FromParameter, "COUNT", 1, 0, 0, 0, 0 };
        b.parameters.push_back(blob);
        ParameterDef tail = after("TAIL", 0, 16, DataType::UnsignedInt);
        tail.includeWhen = { { "TYPE", CompareOp::NotEqual, 2, false }, { "COUNT", CompareOp::Less, 50.5, false } };
        tail.byteOrder = ByteOrder::BigEndian;
        b.parameters.push_back(tail);
        b.parameters.push_back(param("LATE_ABS", 1000, 8, DataType::UnsignedInt));
        b.parameters.push_back(after("NEXT", 3, 5, DataType::UnsignedInt));
    }
    db.packets.push_back(b);

    // Packets that describe the primary header themselves (as XTCE imports do), sharing an APID with
    // one that does not, told apart by a criterion on one of its parameters.
    PacketDef c;
    c.name = "Covers";
    c.apid = 44;
    c.length = 8;
    for (const auto& [n, o, l] : std::vector<std::tuple<std::string, std::uint32_t, std::uint32_t>> {
             { "VERSION", 0, 3 }, { "TYPE", 3, 1 }, { "SHF", 4, 1 }, { "APID", 5, 11 }, { "SEQ", 16, 2 },
             { "CNT", 18, 14 }, { "LEN", 32, 16 } })
        c.parameters.push_back(param(n, o, l, DataType::UnsignedInt));
    c.parameters.push_back(param("X", 48, 8, DataType::UnsignedInt));
    db.packets.push_back(c);

    PacketDef d;
    d.name = "Covers2";
    d.apid = 44;
    d.length = 8;
    d.criteria = { { 48, 8, CompareOp::Equal, 7 } };
    d.parameters.push_back(param("X", 48, 8, DataType::UnsignedInt));
    ParameterDef y = param("Y", 56, 8, DataType::UnsignedInt);
    y.calibrator = EnumerationCalibrator { { { 0, 255, "ANY" } } };
    y.limits = StateLimits { { "ANY" }, false };
    d.parameters.push_back(y);
    db.packets.push_back(d);

    // Relative placement from the first parameter, names XTCE cannot hold, times with odd epochs.
    PacketDef e;
    e.name = "Rel";
    e.apid = 45;
    e.length = 30;
    {
        e.parameters.push_back(after("P1", 48, 8, DataType::UnsignedInt));
        e.parameters.push_back(after("/abs/name-1", 0, 8, DataType::UnsignedInt));
        e.parameters.push_back(param("P3", 64, 8, DataType::UnsignedInt));
        e.parameters.push_back(param("P3.dup", 72, 8, DataType::UnsignedInt));
        ParameterDef far = param("T_FAR", 80, 32, DataType::UnsignedInt);
        far.calibrator = TimeCalibrator { 1e15, 1, 0 };
        e.parameters.push_back(far);
        ParameterDef frac = param("T_FRAC", 112, 32, DataType::UnsignedInt);
        frac.calibrator = TimeCalibrator { 0.1, 2, 0 };
        e.parameters.push_back(frac);
        ParameterDef odd = param("T_ODD", 144, 32, DataType::SignedInt);
        odd.calibrator = TimeCalibrator { -123.75, 1, 0 };
        e.parameters.push_back(odd);
        ParameterDef tf = param("TF", 176, 64, DataType::Float);
        tf.calibrator = TimeCalibrator { kEpochUnix1970, 1, 0 };
        e.parameters.push_back(tf);
    }
    db.packets.push_back(e);

    // A packet without parameters, and one whose name collides with the XTCE names Telestation uses.
    PacketDef f;
    f.name = "CCSDSPacket";
    f.apid = 46;
    f.length = 7;
    db.packets.push_back(f);
    PacketDef g;
    g.name = "MODE";
    g.apid = 47;
    g.length = 8;
    g.parameters.push_back(param("CCSDS_APID", 48, 8, DataType::UnsignedInt));
    g.parameters.push_back(param("MODE", 56, 8, DataType::UnsignedInt));
    db.packets.push_back(g);
    return db;
}

} // namespace

class TestXtceExport : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string m_xsd = dataPath("xtce/SpaceSystemV1.2.xsd");

    // Writes the export to a file, validates it against the XTCE 1.2 schema; returns the text.
    std::string exportAndValidate(const MissionDatabase& db, const std::string& fileName)
    {
        const std::string path = m_dir.filePath(QString::fromStdString(fileName)).toStdString();
        const auto written = writeXtceFile(db, path);
        if (!written.ok())
            qFatal("%s", written.error().toString().c_str());
        const Diagnostics issues = validateAgainstSchema(path, m_xsd);
        if (!issues.empty())
            qWarning("%s", joined(issues).c_str());
        [&] { QVERIFY2(issues.empty(), ("schema violations in " + path).c_str()); }();
        std::ifstream in(path, std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }

    // importXtce, which restores what the export keeps beyond XTCE; applyTelestationAncillary once
    // more must change nothing (it is idempotent).
    static MissionDatabase importBack(const std::string& xml, Diagnostics& diagnostics)
    {
        xtce::ImportResult result = importXtce(xml, "export.xml");
        diagnostics = result.diagnostics;
        if (!result.ok())
            return {};
        MissionDatabase db = std::move(result.database);
        const MissionDatabase imported = db;
        const Diagnostics again = applyTelestationAncillary(xml, db, "export.xml");
        diagnostics.insert(diagnostics.end(), again.begin(), again.end());
        if (!(db == imported))
            diagnostics.push_back(Diagnostic { Severity::Error, "applyTelestationAncillary after importXtce changed "
                "the database: " + firstDifference(imported, db), SourceLocation {} });
        return db;
    }

    // Exports (checking the schema), imports back; empty when the database came back equal, else why not.
    std::string roundTripProblem(const MissionDatabase& db, const std::string& fileName)
    {
        const std::string xml = exportAndValidate(db, fileName);
        if (QTest::currentTestFailed())
            return "schema";
        Diagnostics diagnostics;
        const MissionDatabase back = importBack(xml, diagnostics);
        if (hasErrors(diagnostics))
            return joined(diagnostics);
        for (const auto& d : diagnostics)
            if (d.message.find("not restored") != std::string::npos)
                return joined(diagnostics);
        if (!(back == db))
            return firstDifference(db, back);
        // And once more: the export of the import is the same text.
        if (writeXtce(back) != xml)
            return "the export of the import differs from the export";
        return {};
    }

    void roundTrip(const MissionDatabase& db, const std::string& fileName)
    {
        const std::string problem = roundTripProblem(db, fileName);
        QVERIFY2(problem.empty(), problem.c_str());
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void trainingMissionValidatesAndComesBack()
    {
        const auto training = readTextFile(sourcePath("resources/mdb/training.tdef"));
        QVERIFY2(training.ok(), joined(training.diagnostics).c_str());
        roundTrip(training.database, "training.xml");
    }

    void everyConstructValidatesAndComesBack()
    {
        const MissionDatabase db = everyConstruct();
        QVERIFY2(errorsOf(validate(db)).empty(), errorsOf(validate(db)).c_str());
        roundTrip(db, "every.xml");
    }

    // Model constructs the exporter writes (schema-valid) that the XTCE importer did not read back;
    // readBack says which it reads now (a row that is still a gap turns into an XPASS once it does).
    void importerGaps_data()
    {
        QTest::addColumn<int>("gap");
        QTest::addColumn<bool>("readBack");
        QTest::newRow("enumeration with context calibrators") << 0 << false;
        QTest::newRow("string sized by a parameter") << 1 << true;
        QTest::newRow("calibrated condition on a time") << 2 << true;
    }

    void importerGaps()
    {
        QFETCH(int, gap);
        QFETCH(bool, readBack);
        MissionDatabase db;
        PacketDef p;
        p.name = "Gap";
        p.apid = 1;
        p.length = 24;
        ParameterDef mode = param("MODE", 48, 8, DataType::UnsignedInt);
        p.parameters.push_back(mode);
        const char* why = "";
        switch (gap) {
        case 0: {
            ParameterDef e = param("ENUMCTX", 56, 8, DataType::UnsignedInt);
            e.calibrator = EnumerationCalibrator { { { 0, 0, "A" }, { 1, 1, "B" } } };
            e.contextCalibrators = { { { { "MODE", CompareOp::Equal, 3, false } }, PolynomialCalibrator { { 2 } } } };
            p.parameters.push_back(e);
            why = "the importer refuses a ContextCalibratorList in an EnumeratedParameterType's encoding";
            break;
        }
        case 1: {
            p.variableLength = true;
            p.maxLength = 100;
            ParameterDef s = after("TEXT", 0, 0, DataType::String);
            s.size = FieldSize { SizeKind::FromParameter, "MODE", 8, 0, 0, 0, 40 };
            p.parameters.push_back(s);
            why = "the importer refuses a Variable string sized by a DynamicValue without TerminationChar or "
                  "LeadingSize";
            break;
        }
        case 2: {
            ParameterDef t = param("T", 56, 32, DataType::UnsignedInt);
            t.calibrator = TimeCalibrator { kEpochUnix1970, 1, 0 };
            p.parameters.push_back(t);
            ParameterDef x = param("X", 88, 8, DataType::UnsignedInt);
            x.includeWhen = { { "T", CompareOp::Greater, 5, true } };
            p.parameters.push_back(x);
            why = "the importer refuses a comparison on the calibrated value of a time";
            break;
        }
        default:
            QFAIL("unknown gap");
        }
        db.packets.push_back(p);
        QVERIFY2(errorsOf(validate(db)).empty(), errorsOf(validate(db)).c_str());
        const std::string problem = roundTripProblem(db, "gap" + std::to_string(gap) + ".xml");
        QVERIFY(!QTest::currentTestFailed());
        if (!problem.empty())
            qInfo("%s", problem.c_str());
        if (!readBack)
            QEXPECT_FAIL("", why, Abort);
        QVERIFY2(problem.empty(), problem.c_str());
    }

    // importXtce alone gives back zero polynomial terms and criteria whose values a double cannot hold.
    void importAloneGivesBackTheDatabase()
    {
        MissionDatabase db;
        db.name = "Big values";
        PacketDef p;
        p.name = "BIG";
        p.apid = 9;
        p.length = 32;
        p.criteria = { { 48, 64, CompareOp::Equal, 18446744073709551615u },
            { 112, 64, CompareOp::GreaterOrEqual, 9007199254740993u } };
        ParameterDef poly = param("POLY", 176, 16, DataType::UnsignedInt);
        poly.calibrator = PolynomialCalibrator { { 1, 0.5, 0, 0 } };
        p.parameters.push_back(poly);
        db.packets.push_back(p);
        QVERIFY2(errorsOf(validate(db)).empty(), errorsOf(validate(db)).c_str());
        const std::string xml = exportAndValidate(db, "big.xml");
        const xtce::ImportResult result = importXtce(xml, "big.xml");
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        QVERIFY2(result.diagnostics.empty(), joined(result.diagnostics).c_str());
        QVERIFY2(result.database == db, firstDifference(db, result.database).c_str());
    }

    void emptyDatabaseAndMissionName()
    {
        MissionDatabase db;
        const std::string xml = exportAndValidate(db, "empty.xml");
        QVERIFY(xml.find("name=\"Telestation\"") != std::string::npos);
        QVERIFY(isTelestationXtce(xml));
        Diagnostics diagnostics;
        MissionDatabase back = importBack(xml, diagnostics);
        QVERIFY2(!hasErrors(diagnostics), joined(diagnostics).c_str());
        QCOMPARE(back.name, std::string());
        QVERIFY(back == db);
    }

    void escapingAndShortestReals()
    {
        MissionDatabase db = everyConstruct();
        const std::string xml = writeXtce(db);
        const auto has = [&](std::string_view part) { return xml.find(part) != std::string::npos; };
        QVERIFY(has("shortDescription=\"Housekeeping &lt;main&gt; &amp; &quot;friends&quot;\""));
        QVERIFY(has("<xtce:LongDescription>  Line one\n\tline two with a tab&#13;\nline three &lt;&amp;&gt;  "
                    "</xtce:LongDescription>"));
        QVERIFY(xml.find("coefficient=\"1e-300\"") != std::string::npos);
        QVERIFY(xml.find("coefficient=\"0.5\"") != std::string::npos);
        QVERIFY(xml.find("<xtce:Epoch>1970-01-15T06:56:07.125Z</xtce:Epoch>") != std::string::npos);
        QVERIFY(xml.find("<xtce:Epoch>1969-12-31T23:57:56.25Z</xtce:Epoch>") != std::string::npos);
        QVERIFY(!has("<xtce:Epoch>J2000</xtce:Epoch>")); // TE has contexts: not an absolute time type
        QVERIFY(xml.find("name=\"pos_x\"") != std::string::npos);
        QVERIFY(xml.find("<xtce:Alias nameSpace=\"telestation\" alias=\"pos.x\"/>") != std::string::npos);
        // Characters XML cannot hold become U+FFFD instead of making the document unreadable.
        db.packets[0].description = std::string("bell\a and a bad byte \xFF");
        const std::string odd = writeXtce(db);
        QVERIFY(odd.find("shortDescription=\"bell\xEF\xBF\xBD and a bad byte \xEF\xBF\xBD\"") != std::string::npos);
    }

    void foreignXtceIsLeftAlone()
    {
        const std::string path = dataPath("missions/jpss1/jpss1_geolocation_xtce_v1.xml");
        xtce::ImportResult result = readXtceFile(path);
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        std::ifstream in(path, std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        QVERIFY(!isTelestationXtce(s.str()));
        MissionDatabase copy = result.database;
        QVERIFY(applyTelestationAncillary(s.str(), copy).empty());
        QVERIFY(copy == result.database);
    }

    void realXtceFilesComeBack_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("JPSS-1") << QStringLiteral("missions/jpss1/jpss1_geolocation_xtce_v1.xml");
        QTest::newRow("JPSS-1 contrived inheritance")
            << QStringLiteral("missions/jpss1/contrived_inheritance_structure.xml");
        QTest::newRow("IDEX") << QStringLiteral("missions/idex/idex_combined_science_definition.xml");
    }

    void realXtceFilesComeBack()
    {
        QFETCH(QString, file);
        xtce::ImportResult first = readXtceFile(dataPath(file.toStdString()), ImportOptions { true });
        QVERIFY2(first.ok(), joined(first.diagnostics).c_str());
        QVERIFY(!first.database.packets.empty());
        roundTrip(first.database, QFileInfo(file).completeBaseName().toStdString() + ".export.xml");
    }
};

QTEST_GUILESS_MAIN(TestXtceExport)
#include "tst_xtce_export.moc"
