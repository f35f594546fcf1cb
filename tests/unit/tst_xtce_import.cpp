// The XTCE importer on the real files in place (JPSS-1, IMAP-IDEX, BogusSAT-1) and on small documents:
// layouts against an independent field list, criteria, variable sizes, calibrators, alarms, arrays and
// aggregates, namespaces, bad input with precise errors, and schema validation.
#include "core/xtce/xml_numbers.hpp"
#include "core/xtce/xtce_import.hpp"
#include "core/xtce/xtce_schema.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>
#include <QFile>
#include <QTemporaryDir>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

using namespace telestation;
using namespace telestation::mdb;
using namespace telestation::xtce;

namespace {

std::string dataPath(const std::string& relative)
{
    return test::referenceDataDir() + "/" + relative;
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string joined(const Diagnostics& diagnostics)
{
    std::string out;
    for (const auto& d : diagnostics)
        out += d.toString() + "\n";
    return out;
}

QString lines(const std::vector<std::string>& list)
{
    QStringList out;
    for (const auto& l : list)
        out << QString::fromStdString(l);
    return out.join(QLatin1Char('\n'));
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

const ParameterDef* findParameter(const PacketDef& packet, std::string_view name)
{
    for (const auto& p : packet.parameters)
        if (p.name == name)
            return &p;
    return nullptr;
}

// "line:col: message" for each diagnostic, without the file name, for pinning exact lists.
std::vector<std::string> located(const Diagnostics& diagnostics)
{
    std::vector<std::string> out;
    for (const auto& d : diagnostics)
        out.push_back(std::to_string(d.where.line) + ":" + std::to_string(d.where.column) + ": "
            + (d.severity == Severity::Error ? "error: " : "warning: ") + d.message);
    return out;
}

// A small mission in any namespace spelling: {p} is the element prefix, {ns} the namespace
// declaration on the root. Header, an APID-selected packet with an enumeration, a polynomial, an
// array of an aggregate, a string and a conditional field.
const std::string kSmallTemplate = R"(<?xml version="1.0" encoding="UTF-8"?>
<{p}SpaceSystem {ns} name="Small">
  <{p}TelemetryMetaData>
    <{p}ParameterTypeSet>
      <{p}IntegerParameterType name="U3"><{p}IntegerDataEncoding sizeInBits="3"/></{p}IntegerParameterType>
      <{p}IntegerParameterType name="U1"><{p}IntegerDataEncoding sizeInBits="1"/></{p}IntegerParameterType>
      <{p}IntegerParameterType name="U11"><{p}IntegerDataEncoding sizeInBits="11"/></{p}IntegerParameterType>
      <{p}IntegerParameterType name="U2"><{p}IntegerDataEncoding sizeInBits="2"/></{p}IntegerParameterType>
      <{p}IntegerParameterType name="U14"><{p}IntegerDataEncoding sizeInBits="14"/></{p}IntegerParameterType>
      <{p}IntegerParameterType name="U16"><{p}IntegerDataEncoding sizeInBits="16"/></{p}IntegerParameterType>
      <{p}EnumeratedParameterType name="ModeType">
        <{p}IntegerDataEncoding sizeInBits="8"/>
        <{p}EnumerationList>
          <{p}Enumeration value="0" label="SAFE"/>
          <{p}Enumeration value="1" label="NOMINAL"/>
          <{p}Enumeration value="2" maxValue="9" label="SCIENCE"/>
        </{p}EnumerationList>
      </{p}EnumeratedParameterType>
      <{p}FloatParameterType name="TempType">
        <{p}UnitSet><{p}Unit>deg</{p}Unit><{p}Unit>C</{p}Unit></{p}UnitSet>
        <{p}IntegerDataEncoding sizeInBits="12" encoding="twosComplement">
          <{p}DefaultCalibrator>
            <{p}PolynomialCalibrator>
              <{p}Term exponent="1" coefficient="0.5"/>
              <{p}Term exponent="0" coefficient="-10"/>
            </{p}PolynomialCalibrator>
          </{p}DefaultCalibrator>
        </{p}IntegerDataEncoding>
        <{p}DefaultAlarm>
          <{p}StaticAlarmRanges>
            <{p}WarningRange minInclusive="-5" maxInclusive="40"/>
            <{p}CriticalRange minInclusive="-20"/>
          </{p}StaticAlarmRanges>
        </{p}DefaultAlarm>
      </{p}FloatParameterType>
      <{p}AggregateParameterType name="VectorType">
        <{p}MemberList>
          <{p}Member name="x" typeRef="U16"/>
          <{p}Member name="y" typeRef="U16"/>
        </{p}MemberList>
      </{p}AggregateParameterType>
      <{p}ArrayParameterType name="VectorsType" arrayTypeRef="VectorType">
        <{p}DimensionList>
          <{p}Dimension>
            <{p}StartingIndex><{p}FixedValue>0</{p}FixedValue></{p}StartingIndex>
            <{p}EndingIndex><{p}FixedValue>1</{p}FixedValue></{p}EndingIndex>
          </{p}Dimension>
        </{p}DimensionList>
      </{p}ArrayParameterType>
      <{p}StringParameterType name="NameType">
        <{p}StringDataEncoding>
          <{p}SizeInBits><{p}Fixed><{p}FixedValue>32</{p}FixedValue></{p}Fixed></{p}SizeInBits>
        </{p}StringDataEncoding>
      </{p}StringParameterType>
    </{p}ParameterTypeSet>
    <{p}ParameterSet>
      <{p}Parameter name="VERSION" parameterTypeRef="U3"/>
      <{p}Parameter name="TYPE" parameterTypeRef="U1"/>
      <{p}Parameter name="SHF" parameterTypeRef="U1"/>
      <{p}Parameter name="APID" parameterTypeRef="U11"/>
      <{p}Parameter name="SEQF" parameterTypeRef="U2"/>
      <{p}Parameter name="SEQC" parameterTypeRef="U14"/>
      <{p}Parameter name="LEN" parameterTypeRef="U16"/>
      <{p}Parameter name="MODE" parameterTypeRef="ModeType" shortDescription="Operating mode"/>
      <{p}Parameter name="TEMP" parameterTypeRef="TempType"/>
      <{p}Parameter name="V" parameterTypeRef="VectorsType"/>
      <{p}Parameter name="NAME" parameterTypeRef="NameType"/>
    </{p}ParameterSet>
    <{p}ContainerSet>
      <{p}SequenceContainer name="Header" abstract="true">
        <{p}EntryList>
          <{p}ParameterRefEntry parameterRef="VERSION"/>
          <{p}ParameterRefEntry parameterRef="TYPE"/>
          <{p}ParameterRefEntry parameterRef="SHF"/>
          <{p}ParameterRefEntry parameterRef="APID"/>
          <{p}ParameterRefEntry parameterRef="SEQF"/>
          <{p}ParameterRefEntry parameterRef="SEQC"/>
          <{p}ParameterRefEntry parameterRef="LEN"/>
        </{p}EntryList>
      </{p}SequenceContainer>
      <{p}SequenceContainer name="HK">
        <{p}EntryList>
          <{p}ParameterRefEntry parameterRef="MODE"/>
          <{p}ParameterRefEntry parameterRef="TEMP">
            <{p}LocationInContainerInBits referenceLocation="previousEntry"><{p}FixedValue>4</{p}FixedValue></{p}LocationInContainerInBits>
          </{p}ParameterRefEntry>
          <{p}ParameterRefEntry parameterRef="V"/>
          <{p}ParameterRefEntry parameterRef="NAME">
            <{p}IncludeCondition><{p}Comparison parameterRef="MODE" value="SCIENCE"/></{p}IncludeCondition>
          </{p}ParameterRefEntry>
          <{p}ParameterRefEntry parameterRef="LEN">
            <{p}LocationInContainerInBits referenceLocation="containerStart"><{p}FixedValue>32</{p}FixedValue></{p}LocationInContainerInBits>
          </{p}ParameterRefEntry>
        </{p}EntryList>
        <{p}BaseContainer containerRef="Header">
          <{p}RestrictionCriteria>
            <{p}ComparisonList>
              <{p}Comparison parameterRef="APID" value="42"/>
              <{p}Comparison parameterRef="TYPE" value="0" useCalibratedValue="false"/>
            </{p}ComparisonList>
          </{p}RestrictionCriteria>
        </{p}BaseContainer>
      </{p}SequenceContainer>
    </{p}ContainerSet>
  </{p}TelemetryMetaData>
</{p}SpaceSystem>
)";

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

std::string smallDocument(const std::string& prefix, const std::string& namespaceDeclaration)
{
    return replaced(replaced(kSmallTemplate, "{p}", prefix), "{ns}", namespaceDeclaration);
}

const std::string kNs11 = "http://www.omg.org/space/xtce";
const std::string kNs12 = "http://www.omg.org/spec/XTCE/20180204";

// A minimal valid document around one packet's entries and extra types, for the bad-input cases.
std::string minimal(const std::string& types, const std::string& parameters, const std::string& containers)
{
    return "<SpaceSystem name=\"M\">\n<TelemetryMetaData>\n<ParameterTypeSet>\n"
           "<IntegerParameterType name=\"U11\"><IntegerDataEncoding sizeInBits=\"11\"/></IntegerParameterType>\n"
           "<IntegerParameterType name=\"U5\"><IntegerDataEncoding sizeInBits=\"5\"/></IntegerParameterType>\n"
        + types
        + "</ParameterTypeSet>\n<ParameterSet>\n<Parameter name=\"H\" parameterTypeRef=\"U5\"/>\n"
          "<Parameter name=\"APID\" parameterTypeRef=\"U11\"/>\n"
        + parameters + "</ParameterSet>\n<ContainerSet>\n" + containers
        + "</ContainerSet>\n</TelemetryMetaData>\n</SpaceSystem>\n";
}

std::string packet(const std::string& name, const std::string& entries, const std::string& extra = "")
{
    return "<SequenceContainer name=\"" + name
        + "\"><EntryList><ParameterRefEntry parameterRef=\"H\"/>"
          "<ParameterRefEntry parameterRef=\"APID\"/>"
        + entries + "</EntryList>" + extra + "<BaseContainer containerRef=\"" + name
        + "Base\"><RestrictionCriteria><Comparison parameterRef=\"APID\" value=\"7\"/>"
          "</RestrictionCriteria></BaseContainer></SequenceContainer>\n<SequenceContainer name=\""
        + name + "Base\" abstract=\"true\"><EntryList/></SequenceContainer>\n";
}

// BogusSAT-1 with one packet added to SC001/BusElectronics that uses its telemetry types: the file
// itself has no concrete container with an APID, so its calibrators, alarms, arrays, booleans,
// strings and times would otherwise never reach a packet.
std::string bogusSatWithPacket()
{
    std::string text = readAll(dataPath("xtce/BogusSAT-1.xml"));
    const std::string anchor = "\t\t\t\t\t<xtce:SequenceContainer name=\"SensorHistoryRecord\">";
    const std::string added = R"(<xtce:SequenceContainer name="TestPacket" shortDescription="Added by the test">
  <xtce:AliasSet><xtce:Alias nameSpace="test" alias="TP"/></xtce:AliasSet>
  <xtce:EntryList>
    <xtce:ParameterRefEntry parameterRef="SunSensorMode"/>
    <xtce:ParameterRefEntry parameterRef="SunSensorLevel"/>
    <xtce:ParameterRefEntry parameterRef="EarthSensorMode"/>
    <xtce:ParameterRefEntry parameterRef="EarthSensorLevel"/>
    <xtce:ParameterRefEntry parameterRef="Battery_Voltage"/>
    <xtce:ParameterRefEntry parameterRef="Battery_Current"/>
    <xtce:ParameterRefEntry parameterRef="Battery_Charge_Mode"/>
    <xtce:ParameterRefEntry parameterRef="Solar_Array_Voltage_1"/>
    <xtce:ParameterRefEntry parameterRef="Quadratic_Demo"/>
    <xtce:ParameterRefEntry parameterRef="Spline_Demo"/>
    <xtce:ParameterRefEntry parameterRef="Float_MathOpCal_1"/>
    <xtce:ParameterRefEntry parameterRef="SensorTime"/>
    <xtce:ParameterRefEntry parameterRef="/BogusSAT/Array_with_dimensionList"/>
    <xtce:ParameterRefEntry parameterRef="../Payload1/Payload_1_State"/>
    <xtce:ParameterRefEntry parameterRef="../Payload1/Payload_1_Phase"/>
    <xtce:ParameterRefEntry parameterRef="../Payload1/Basic_MilFloat32"/>
    <xtce:ParameterRefEntry parameterRef="../Payload1/Basic_int32_signmag"/>
    <xtce:ParameterRefEntry parameterRef="../Payload1/Payload_MD5"/>
    <xtce:ParameterRefEntry parameterRef="Bus_Fault_Message">
      <xtce:IncludeCondition><xtce:Comparison parameterRef="Battery_Charge_Mode" value="CHARGE"/></xtce:IncludeCondition>
    </xtce:ParameterRefEntry>
    <xtce:ParameterRefEntry parameterRef="../Payload1/Payload_Fault_Message"/>
    <xtce:ParameterRefEntry parameterRef="../Payload1/Basic_uint32"/>
  </xtce:EntryList>
  <xtce:BaseContainer containerRef="/BogusSAT/CCSDSTelemetryPacket">
    <xtce:RestrictionCriteria><xtce:Comparison parameterRef="/BogusSAT/CCSDSAPID" value="100"/></xtce:RestrictionCriteria>
  </xtce:BaseContainer>
</xtce:SequenceContainer>
)";
    const std::size_t at = text.find(anchor);
    if (at == std::string::npos)
        return {};
    text.insert(at, added);
    return text;
}

// One packet whose restriction criteria are APID == 7 and ID (a `bits`-bit integer of that encoding at
// bit 16) OP value.
std::string criterionDocument(
    const std::string& value, int bits, const std::string& encoding = "unsigned", const std::string& op = "==")
{
    return minimal("<IntegerParameterType name=\"ID_Type\"><IntegerDataEncoding sizeInBits=\"" + std::to_string(bits)
            + "\" encoding=\"" + encoding + "\"/></IntegerParameterType>\n",
        "<Parameter name=\"ID\" parameterTypeRef=\"ID_Type\"/>\n",
        "<SequenceContainer name=\"P\"><EntryList><ParameterRefEntry parameterRef=\"H\"/>"
        "<ParameterRefEntry parameterRef=\"APID\"/><ParameterRefEntry parameterRef=\"ID\"/></EntryList>"
        "<BaseContainer containerRef=\"PBase\"><RestrictionCriteria><ComparisonList>"
        "<Comparison parameterRef=\"APID\" value=\"7\"/><Comparison parameterRef=\"ID\" value=\""
            + value + "\" comparisonOperator=\"" + op
            + "\"/></ComparisonList></RestrictionCriteria></BaseContainer></SequenceContainer>\n"
              "<SequenceContainer name=\"PBase\" abstract=\"true\"><EntryList/></SequenceContainer>\n");
}

std::vector<std::vector<std::string>> readCsv(const std::string& path)
{
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(readAll(path));
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            continue;
        std::vector<std::string> cells;
        std::istringstream cellStream(line);
        std::string cell;
        while (std::getline(cellStream, cell, ','))
            cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

const char* const kHeaderNames[]
    = { "VERSION", "TYPE", "SEC_HDR_FLG", "PKT_APID", "SEQ_FLGS", "SRC_SEQ_CTR", "PKT_LEN" };

} // namespace

class TestXtceImport : public QObject {
    Q_OBJECT

private:
    // Checks JPSS-1's layout against the ccsdspy field list.
    static void checkJpssLayout(const MissionDatabase& db)
    {
        QCOMPARE(db.packets.size(), std::size_t { 1 });
        const PacketDef& p = db.packets.front();
        QCOMPARE(p.name, std::string("JPSS_ATT_EPHEM"));
        QCOMPARE(p.apid, std::uint16_t { 11 });
        QCOMPARE(p.path, std::string("/Libera/JPSS_ATT_EPHEM"));
        const auto rows = readCsv(dataPath("missions/jpss1/ccsdspy_jpss1_geolocation.csv"));
        QCOMPARE(rows.front(), (std::vector<std::string> { "name", "data_type", "bit_length" }));
        QCOMPARE(p.parameters.size(), 7 + rows.size() - 1);
        const std::uint32_t headerBits[] = { 3, 1, 1, 11, 2, 14, 16 };
        std::uint32_t offset = 0;
        for (std::size_t i = 0; i < 7; ++i) {
            QCOMPARE(p.parameters[i].name, std::string(kHeaderNames[i]));
            QCOMPARE(p.parameters[i].bitOffset, offset);
            QCOMPARE(p.parameters[i].bitLength, headerBits[i]);
            offset += headerBits[i];
        }
        QCOMPARE(offset, 48u);
        for (std::size_t r = 1; r < rows.size(); ++r) {
            const ParameterDef& q = p.parameters[6 + r];
            QCOMPARE(q.name, rows[r][0]);
            QCOMPARE(q.type, rows[r][1] == "uint" ? DataType::UnsignedInt : DataType::Float);
            QCOMPARE(q.bitLength, static_cast<std::uint32_t>(std::stoul(rows[r][2])));
            QCOMPARE(q.bitOffset, offset);
            QCOMPARE(q.placement, Placement::Absolute);
            offset += q.bitLength;
        }
        QCOMPARE(p.length, (offset + 7) / 8);
        QVERIFY(p.variableLength);
        QCOMPARE(p.maxLength, 65542u);
        QCOMPARE(
            p.criteria, (std::vector<FieldCriterion> { { 0, 3, CompareOp::Equal, 0 }, { 3, 1, CompareOp::Equal, 0 } }));
    }

private slots:
    void jpss1MatchesCcsdspyFieldList()
    {
        const auto result = readXtceFile(dataPath("missions/jpss1/jpss1_geolocation_xtce_v1.xml"));
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        QVERIFY2(result.diagnostics.empty(), joined(result.diagnostics).c_str());
        QVERIFY2(result.skipped.empty(), joined(result.skipped).c_str());
        QCOMPARE(result.database.name, std::string("Libera"));
        checkJpssLayout(result.database);
        const PacketDef& p = result.database.packets.front();
        QCOMPARE(p.description, std::string("Spacecraft Attitude and Ephemeris"));
        const ParameterDef* doy = findParameter(p, "DOY");
        QVERIFY(doy != nullptr);
        QCOMPARE(doy->units, std::string("day"));
        QCOMPARE(doy->path, std::string("/Libera/DOY"));
        QCOMPARE(doy->description, std::string("Secondary Header Day of Year"));
        QCOMPARE(doy->longDescription, std::string("CCSDS Packet 2nd Header Day of Year in days."));
    }

    void contrivedInheritanceGivesTheSameLayout()
    {
        const auto strict = readXtceFile(dataPath("missions/jpss1/contrived_inheritance_structure.xml"));
        QVERIFY(!strict.ok());
        const auto result = readXtceFile(dataPath("missions/jpss1/contrived_inheritance_structure.xml"), { true });
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        // UNUSED is concrete, holds only the secondary header and has no APID: it is reported.
        QCOMPARE(lines(result.skipped),
            lines({ "213:13: /Libera/UNUSED: no restriction criterion gives the APID (== on the 11 "
                    "bits at bit 5): the station could not tell its packets apart; not imported" }));
        checkJpssLayout(result.database);
        const auto plain = readXtceFile(dataPath("missions/jpss1/jpss1_geolocation_xtce_v1.xml"));
        QVERIFY(result.database.packets.front().parameters == plain.database.packets.front().parameters);
    }

    void idexPacketsWithCriteriaAndSizedBinary()
    {
        const auto result = readXtceFile(dataPath("missions/idex/idex_combined_science_definition.xml"));
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        QVERIFY2(result.diagnostics.empty(), joined(result.diagnostics).c_str());
        const auto& packets = result.database.packets;
        std::vector<std::string> names;
        for (const auto& p : packets)
            names.push_back(p.name + "@" + std::to_string(p.apid));
        QCOMPARE(names,
            (std::vector<std::string> { "Sci0TypeZero@1424", "Sci0TypeNonZero@1424", "IDX_SCIFETCH@1425",
                "SciFetchTypeZero@1425", "SciFetchTypeNonZero@1425" }));
        const FieldCriterion version { 0, 3, CompareOp::Equal, 0 };
        const FieldCriterion type { 3, 1, CompareOp::Equal, 0 };
        QCOMPARE(packets[0].criteria, (std::vector<FieldCriterion> { version, type, { 128, 8, CompareOp::Equal, 1 } }));
        QCOMPARE(
            packets[1].criteria, (std::vector<FieldCriterion> { version, type, { 128, 8, CompareOp::Greater, 1 } }));
        QCOMPARE(packets[2].criteria, (std::vector<FieldCriterion> { version, type }));
        QCOMPARE(
            packets[4].criteria, (std::vector<FieldCriterion> { version, type, { 128, 8, CompareOp::Greater, 1 } }));
        QCOMPARE(findParameter(packets[0], "IDX__SCI0TYPE")->bitOffset, 128u);
        QCOMPARE(findParameter(packets[3], "IDX__SCIFETCHTYPE")->bitOffset, 128u);

        // The raw science data: sized by PKT_LEN, the fields after it placed after it.
        for (const auto& [index, raw, sync] : { std::tuple { 1, "IDX__SCI0RAW", "IDX__SYNCSCI0PKT" },
                 std::tuple { 4, "IDX__SCIFETCHRAW", "IDX__SYNCSCIFETCHPKT" } }) {
            const PacketDef& p = packets[static_cast<std::size_t>(index)];
            const ParameterDef* r = findParameter(p, raw);
            QVERIFY(r != nullptr);
            QCOMPARE(r->type, DataType::Bytes);
            QCOMPARE(r->size.kind, SizeKind::FromParameter);
            QCOMPARE(r->size.sizeParameter, std::string("PKT_LEN"));
            QCOMPARE(r->size.sizeSlope, 8.0);
            QCOMPARE(r->size.sizeIntercept, -328.0);
            QCOMPARE(r->placement, Placement::Absolute);
            QCOMPARE(r->bitOffset, 352u);
            const ParameterDef* s = findParameter(p, sync);
            QCOMPARE(s->placement, Placement::AfterPrevious);
            QCOMPARE(s->bitOffset, 0u);
            QCOMPARE(p.length, (352u + 32u) / 8u);
            QVERIFY(p.variableLayout());
        }
        QVERIFY(!packets[0].variableLayout());
        QCOMPARE(packets[0].length, 304u);

        const ParameterDef* aid = findParameter(packets[0], "IDX__SCI0AID");
        QCOMPARE(aid->description, std::string("Accountability Identifier"));
        QCOMPARE(aid->aliases, (std::vector<Alias> { { "externalElement", "IDX" }, { "itemName", "SCI0AID" } }));
        const ParameterDef* pack = findParameter(packets[0], "IDX__SCI0PACK");
        QCOMPARE(std::get<EnumerationCalibrator>(pack->calibrator).states,
            (std::vector<State> { { 0, 0, "DS" }, { 1, 1, "EN" } }));
        QCOMPARE(findParameter(packets[0], "SHCOARSE")->units, std::string("dn"));
    }

    void bogusSatDefaultImportFailsPrecisely()
    {
        const auto result = readXtceFile(dataPath("xtce/BogusSAT-1.xml"));
        QVERIFY(!result.ok());
        QCOMPARE(lines(located(result.diagnostics)),
            lines({ "994:6: error: /BogusSAT/SC001/BusElectronics/SensorHistoryBuffer: no restriction "
                    "criterion gives the APID (== on the 11 bits at bit 5): the station could not tell its "
                    "packets apart; not imported" }));
        QCOMPARE(result.diagnostics.front().where.file, dataPath("xtce/BogusSAT-1.xml"));
    }

    void bogusSatLenientImportSucceeds()
    {
        const auto result = readXtceFile(dataPath("xtce/BogusSAT-1.xml"), { true });
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        QCOMPARE(result.database.name, std::string("BogusSAT"));
        QVERIFY(result.database.packets.empty()); // no concrete container of the file has an APID
        // The exact list: a new report must be a decision, not an accident.
        QCOMPARE(lines(result.skipped),
            lines({
                "994:6: /BogusSAT/SC001/BusElectronics/SensorHistoryBuffer: no restriction criterion gives the APID "
                "(== on "
                "the 11 bits at bit 5): the station could not tell its packets apart; not imported",
                "208:2: /BogusSAT: CommandMetaData: commands are not imported (telemetry only)",
                "124:3: /BogusSAT: 12 parameters are in no packet and not imported: Array_with_dimensionList, "
                "CCSDSAPID, "
                "CCSDSGroupFlags, CCSDSPacketLength, CCSDSSCID, CCSDSSecH, CCSDSSourceSequenceCount, CCSDSType, "
                "CCSDSVCID, "
                "CCSDSVersion, Mission, TM_CHECKSUM",
                "787:5: /BogusSAT/SC001/BusElectronics: 35 parameters are in no packet and not imported: "
                "Battery_Charge_Mode, "
                "Battery_Current, Battery_State_Of_Charge, Battery_State_Of_Charge_Custom, Battery_Voltage, "
                "Bus_Fault_Message, "
                "EarthSensorLevel, EarthSensorMode, Float_MathOpCal_1, Float_MathOpCal_10, Float_MathOpCal_2, "
                "Float_MathOpCal_3, Float_MathOpCal_4, Float_MathOpCal_5, Float_MathOpCal_6, Float_MathOpCal_7, "
                "Float_MathOpCal_8, Float_MathOpCal_9, Float_Missing_PolyTerms, Float_Order0_PolyTerms, "
                "Float_Order1_PolyTerms, Float_Order3_PolyTerms, Quadratic_Demo, Quadratic_Demo_SingleRoot, "
                "Quadratic_Demo_SingleRoot2, SensorTime, Solar_Array_Voltage_1, Solar_Array_Voltage_1_State, "
                "Solar_Array_Voltage_2, Solar_Array_Voltage_2_State, Spline_Demo, Spline_Quad_Infinite_Slope, "
                "Spline_Quad_Interpolate_Bad, SunSensorLevel, SunSensorMode",
                "1345:5: /BogusSAT/SC001/Payload1: 14 parameters are in no packet and not imported: Basic_Float32, "
                "Basic_Float64, Basic_MilFloat32, Basic_MilFloat48, Basic_int32_onescomp, Basic_int32_signmag, "
                "Basic_int32_twoscomp, Basic_uint32, CPU_Fault_Message, Payload_1_Antenna_State, Payload_1_Phase, "
                "Payload_1_State, Payload_Fault_Message, Payload_MD5",
            }));
    }

    void bogusSatTypesInAPacket()
    {
        const std::string text = bogusSatWithPacket();
        QVERIFY(!text.empty());
        const auto strict = importXtce(text, "bogus+packet.xml");
        QVERIFY(!strict.ok());
        const auto result = importXtce(text, "bogus+packet.xml", { true });
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        QCOMPARE(result.database.packets.size(), std::size_t { 1 });
        const PacketDef& p = result.database.packets.front();
        QCOMPARE(p.name, std::string("TestPacket"));
        QCOMPARE(p.apid, std::uint16_t { 100 });
        QCOMPARE(p.aliases, (std::vector<Alias> { { "test", "TP" } }));
        QCOMPARE(
            p.criteria, (std::vector<FieldCriterion> { { 0, 3, CompareOp::Equal, 0 }, { 3, 1, CompareOp::Equal, 0 } }));

        // Polynomial and context calibrators (the context names the enumeration's code).
        const ParameterDef* sun = findParameter(p, "SunSensorLevel");
        QVERIFY(sun != nullptr);
        QCOMPARE(sun->type, DataType::SignedInt);
        QCOMPARE(sun->units, std::string("cd/m^2"));
        QCOMPARE(std::get<PolynomialCalibrator>(sun->calibrator).coefficients, (std::vector<double> { -10.0, 5.0 }));
        QCOMPARE(sun->contextCalibrators.size(), std::size_t { 2 });
        QCOMPARE(sun->contextCalibrators[0].when,
            (std::vector<Condition> { { "SunSensorMode", CompareOp::Equal, 1.0, false } }));
        QCOMPARE(std::get<PolynomialCalibrator>(sun->contextCalibrators[1].calibrator).coefficients,
            (std::vector<double> { 0.0, 15.0 }));
        // Spline of order 1; the context with a spline of order 0 is left out (reported).
        const ParameterDef* earth = findParameter(p, "EarthSensorLevel");
        QCOMPARE(std::get<PointPairCalibrator>(earth->calibrator).points,
            (std::vector<PointPair> { { 0, 0 }, { 10, 5 }, { 20, 10 } }));
        QCOMPARE(earth->contextCalibrators.size(), std::size_t { 1 });
        QCOMPARE(earth->contextCalibrators[0].when,
            (std::vector<Condition> { { "EarthSensorMode", CompareOp::Equal, 1.0, false } }));
        // Alarms: warning range = yellow, critical range = red.
        const ParameterDef* volts = findParameter(p, "Battery_Voltage");
        QCOMPARE(std::get<NumericLimits>(volts->limits), (NumericLimits { 12.10, 12.35, 13.80, 14.34, true }));
        QCOMPARE(volts->units, std::string("Volts"));
        // Only a critical range: yellow = red.
        const ParameterDef* solar = findParameter(p, "Solar_Array_Voltage_1");
        QCOMPARE(solar->bitLength, 12u);
        QCOMPARE(std::get<NumericLimits>(solar->limits), (NumericLimits { 0.0, 0.0, 370.0, 370.0, true }));
        QCOMPARE(solar->aliases, (std::vector<Alias> { { "ID", "100345" }, { "FOO", "Hello" } }));
        QCOMPARE(std::get<PolynomialCalibrator>(findParameter(p, "Quadratic_Demo")->calibrator).coefficients,
            (std::vector<double> { -8, 2, 1 }));
        QCOMPARE(std::get<PointPairCalibrator>(findParameter(p, "Spline_Demo")->calibrator).points.size(),
            std::size_t { 6 });
        // Boolean: 0 and 1..max.
        const ParameterDef* charge = findParameter(p, "Battery_Charge_Mode");
        QCOMPARE(std::get<EnumerationCalibrator>(charge->calibrator).states,
            (std::vector<State> { { 0, 0, "DISCHARGE" }, { 1, 1, "CHARGE" } }));
        const ParameterDef* payloadState = findParameter(p, "Payload_1_State");
        QCOMPARE(std::get<EnumerationCalibrator>(payloadState->calibrator).states,
            (std::vector<State> { { 0, 0, "OFF" }, { 1, 15, "ON" } }));
        // MathOperationCalibrator: the parameter stays, without calibration.
        QVERIFY(std::holds_alternative<std::monostate>(findParameter(p, "Float_MathOpCal_1")->calibrator));
        // Absolute time from 1970-01-01.
        const ParameterDef* time = findParameter(p, "SensorTime");
        QCOMPARE(time->bitLength, 64u);
        QCOMPARE(std::get<TimeCalibrator>(time->calibrator), (TimeCalibrator { kEpochUnix1970, 1.0, 0.0 }));
        // A 9-element array of 3-bit integers.
        for (int i = 0; i < 9; ++i) {
            const ParameterDef* element = findParameter(p, "Array_with_dimensionList[" + std::to_string(i) + "]");
            QVERIFY(element != nullptr);
            QCOMPARE(element->bitLength, 3u);
            QCOMPARE(element->bitOffset,
                findParameter(p, "Array_with_dimensionList[0]")->bitOffset + 3u * static_cast<unsigned>(i));
        }
        // An enumeration range cut to the 4-bit field (a warning).
        QCOMPARE(std::get<EnumerationCalibrator>(findParameter(p, "Payload_1_Phase")->calibrator).states.back(),
            (State { 6, 15, "FAILED" }));
        // MILSTD_1750A is not imported but keeps its place.
        QVERIFY(findParameter(p, "Basic_MilFloat32") == nullptr);
        QCOMPARE(findParameter(p, "Basic_int32_signmag")->bitOffset,
            findParameter(p, "Payload_1_Phase")->bitOffset + 4 + 32);
        QCOMPARE(findParameter(p, "Basic_int32_signmag")->type, DataType::SignMagnitudeInt);
        QCOMPARE(findParameter(p, "Payload_MD5")->type, DataType::Bytes);
        QCOMPARE(findParameter(p, "Payload_MD5")->bitLength, 128u);
        // Conditional string, then a terminated string, then a field after it.
        const ParameterDef* busFault = findParameter(p, "Bus_Fault_Message");
        QCOMPARE(busFault->type, DataType::String);
        QCOMPARE(busFault->bitLength, 128u);
        QCOMPARE(busFault->placement, Placement::Absolute);
        QCOMPARE(busFault->includeWhen,
            (std::vector<Condition> { { "Battery_Charge_Mode", CompareOp::Equal, 1.0, false } }));
        const ParameterDef* payloadFault = findParameter(p, "Payload_Fault_Message");
        QCOMPARE(payloadFault->size.kind, SizeKind::Terminated);
        QCOMPARE(payloadFault->size.terminator, std::uint8_t { 0 });
        QCOMPARE(payloadFault->placement, Placement::AfterPrevious);
        const ParameterDef* last = findParameter(p, "Basic_uint32");
        QCOMPARE(last->placement, Placement::AfterPrevious);
        QCOMPARE(last->bitOffset, 0u);
        // Minimum length: everything up to the conditional string, the terminated string empty, the last field.
        QCOMPARE(p.length, (busFault->bitOffset + 32u) / 8u);

        std::vector<std::string> reports;
        for (const auto& line : result.skipped)
            if (line.find("in no packet") == std::string::npos)
                reports.push_back(line);
        QCOMPARE(lines(reports),
            lines({
                "767:11: /BogusSAT/SC001/BusElectronics/EarthSensorSplineCalType: a SplineCalibrator of order 0 is not "
                "supported (order 1 only)",
                "285:7: /BogusSAT/SC001/BusElectronics/Battery_Voltage_Type: ContextAlarmList is not supported; only "
                "the "
                "DefaultAlarm is imported",
                "486:61: /BogusSAT/SC001/BusElectronics/Float_MathOpCal_1_Type: MathOperationCalibrator is not "
                "supported",
                "1352:7: /BogusSAT/SC001/Payload1/Basic_MilFloat32_Type: FloatDataEncoding encoding 'MILSTD_1750A' is "
                "not "
                "supported (only IEEE754_1985 / IEEE754)",
                "1025:6: /BogusSAT/SC001/BusElectronics/SensorHistoryBuffer: no restriction criterion gives the APID "
                "(== on "
                "the 11 bits at bit 5): the station could not tell its packets apart; not imported",
                "208:2: /BogusSAT: CommandMetaData: commands are not imported (telemetry only)",
            }));
    }

    void namespaces_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::newRow("1.2 default namespace") << smallDocument("", "xmlns=\"" + kNs12 + "\"");
        QTest::newRow("1.2 prefixed") << smallDocument("xtce:", "xmlns:xtce=\"" + kNs12 + "\"");
        QTest::newRow("1.1 default namespace") << smallDocument("", "xmlns=\"" + kNs11 + "\"");
        QTest::newRow("1.1 prefixed") << smallDocument("x:", "xmlns:x=\"" + kNs11 + "\"");
        QTest::newRow("no namespace") << smallDocument("", "");
    }
    void namespaces()
    {
        QFETCH(std::string, text);
        const auto result = importXtce(text, "small.xml");
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        QVERIFY2(result.diagnostics.empty(), joined(result.diagnostics).c_str());
        const auto reference = importXtce(smallDocument("", ""), "small.xml");
        QVERIFY(result.database == reference.database);
        QCOMPARE(result.database.packets.size(), std::size_t { 1 });
    }

    // A definition file cannot make the importer read another file or the network (XXE): a document
    // type declaration — where entities are declared — is refused with a clear error, and no entity is
    // ever loaded (libxml2 without XML_PARSE_NOENT or DTDLOAD, with XML_PARSE_NONET).
    void documentTypeDeclarationsAreRefused()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString secret = dir.filePath(QStringLiteral("secret.txt"));
        QFile f(secret);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("TOP-SECRET-CONTENT");
        f.close();
        std::string text = minimal("", "", packet("P", ""));
        text = "<?xml version=\"1.0\"?>\n<!DOCTYPE SpaceSystem [\n<!ENTITY leak SYSTEM \"file://" + secret.toStdString()
            + "\">\n<!ENTITY remote SYSTEM \"http://192.0.2.1/x\">\n]>\n" + text;
        text = replaced(text, "<SequenceContainer name=\"P\"><EntryList>",
                        "<SequenceContainer name=\"P\"><LongDescription>[&leak;&remote;]</LongDescription><EntryList>");
        const auto result = importXtce(text, "xxe.xml");
        QVERIFY(!result.ok());
        const std::string said = joined(result.diagnostics);
        QVERIFY2(said.find("xxe.xml:2:1: error: XML: a document type declaration (DOCTYPE) is not accepted in XTCE")
                     != std::string::npos,
                 said.c_str());
        QVERIFY(said.find("TOP-SECRET") == std::string::npos);
        QVERIFY(result.database.packets.empty());
    }

    void smallDocumentMapping()
    {
        const auto result = importXtce(smallDocument("", ""), "small.xml");
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        const PacketDef& p = result.database.packets.front();
        QCOMPARE(p.name, std::string("HK"));
        QCOMPARE(p.apid, std::uint16_t { 42 });
        QCOMPARE(p.criteria, (std::vector<FieldCriterion> { { 3, 1, CompareOp::Equal, 0 } }));
        const ParameterDef* mode = findParameter(p, "MODE");
        QCOMPARE(mode->bitOffset, 48u);
        QCOMPARE(mode->description, std::string("Operating mode"));
        QCOMPARE(std::get<EnumerationCalibrator>(mode->calibrator).states,
            (std::vector<State> { { 0, 0, "SAFE" }, { 1, 1, "NOMINAL" }, { 2, 9, "SCIENCE" } }));
        const ParameterDef* temp = findParameter(p, "TEMP");
        QCOMPARE(temp->bitOffset, 48u + 8u + 4u);
        QCOMPARE(temp->type, DataType::SignedInt);
        QCOMPARE(temp->units, std::string("deg C"));
        QCOMPARE(std::get<PolynomialCalibrator>(temp->calibrator).coefficients, (std::vector<double> { -10, 0.5 }));
        // Yellow from the warning range; red only below (the critical range has no upper side).
        const double inf = std::numeric_limits<double>::infinity();
        QCOMPARE(std::get<NumericLimits>(temp->limits), (NumericLimits { -20, -5, 40, inf, true }));
        // An array of aggregates, flattened.
        std::uint32_t offset = 72;
        for (const char* name : { "V[0].x", "V[0].y", "V[1].x", "V[1].y" }) {
            const ParameterDef* member = findParameter(p, name);
            QVERIFY2(member != nullptr, name);
            QCOMPARE(member->bitOffset, offset);
            QCOMPARE(member->bitLength, 16u);
            QCOMPARE(member->path, "/Small/V" + std::string(name).substr(1));
            offset += 16;
        }
        // The label of a range of codes: two conditions.
        const ParameterDef* name = findParameter(p, "NAME");
        QCOMPARE(name->bitOffset, offset);
        QCOMPARE(name->includeWhen,
            (std::vector<Condition> {
                { "MODE", CompareOp::GreaterOrEqual, 2, false }, { "MODE", CompareOp::LessOrEqual, 9, false } }));
        // The same parameter twice: "#2"; located from the container start, so absolute.
        const ParameterDef* again = findParameter(p, "LEN#2");
        QVERIFY(again != nullptr);
        QCOMPARE(again->placement, Placement::Absolute);
        QCOMPARE(again->bitOffset, 32u);
        QVERIFY(again->overlapAllowed); // on the first LEN, on purpose
        QVERIFY(!findParameter(p, "LEN")->overlapAllowed);
        QCOMPARE(p.length, offset / 8);
    }

    // A string sized by a parameter (XTCE 1.2 Variable/DynamicValue) and conditions on a time.
    void variableStringAndTimeConditions()
    {
        const std::string text = minimal(
            "<StringParameterType name=\"S\"><StringDataEncoding><Variable maxSizeInBits=\"320\"><DynamicValue>"
            "<ParameterInstanceRef parameterRef=\"N\"/><LinearAdjustment slope=\"8\"/></DynamicValue></Variable>"
            "</StringDataEncoding></StringParameterType>\n"
            "<AbsoluteTimeParameterType name=\"T\"><Encoding scale=\"0.001\" units=\"seconds\"><IntegerDataEncoding "
            "sizeInBits=\"32\"/></Encoding>"
            "<ReferenceTime><Epoch>2000-01-01T00:00:00Z</Epoch></ReferenceTime></AbsoluteTimeParameterType>\n"
            "<IntegerParameterType name=\"U8\"><IntegerDataEncoding sizeInBits=\"8\"/></IntegerParameterType>\n",
            "<Parameter name=\"N\" parameterTypeRef=\"U8\"/>\n<Parameter name=\"TEXT\" parameterTypeRef=\"S\"/>\n"
            "<Parameter name=\"TIME\" parameterTypeRef=\"T\"/>\n<Parameter name=\"X\" parameterTypeRef=\"U8\"/>\n"
            "<Parameter name=\"Y\" parameterTypeRef=\"U8\"/>\n",
            packet("P",
                "<ParameterRefEntry parameterRef=\"N\"/><ParameterRefEntry parameterRef=\"TEXT\"/><ParameterRefEntry "
                "parameterRef=\"TIME\"/>"
                "<ParameterRefEntry parameterRef=\"X\"><IncludeCondition><Comparison parameterRef=\"TIME\" "
                "comparisonOperator=\"&gt;\" "
                "value=\"2020-01-01T00:00:00Z\"/></IncludeCondition></ParameterRefEntry>"
                "<ParameterRefEntry parameterRef=\"Y\"><IncludeCondition><Comparison parameterRef=\"TIME\" "
                "comparisonOperator=\"&lt;\" "
                "value=\"5\"/></IncludeCondition></ParameterRefEntry>"));
        const auto result = importXtce(text, "v.xml");
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        const PacketDef& p = result.database.packets.front();
        const ParameterDef* s = findParameter(p, "TEXT");
        QCOMPARE(s->type, DataType::String);
        QCOMPARE(s->size, (FieldSize { SizeKind::FromParameter, "N", 8, 0, 0, 0, 40 }));
        const ParameterDef* t = findParameter(p, "TIME");
        QCOMPARE(t->placement, Placement::AfterPrevious);
        QCOMPARE(std::get<TimeCalibrator>(t->calibrator), (TimeCalibrator { 946684800.0, 0.001, 0.0 }));
        QCOMPARE(findParameter(p, "X")->includeWhen,
            (std::vector<Condition> { { "TIME", CompareOp::Greater, 1577836800.0, true } }));
        QCOMPARE(
            findParameter(p, "Y")->includeWhen, (std::vector<Condition> { { "TIME", CompareOp::Less, 5.0, true } }));
    }

    // XML Schema's spellings of xs:double, and integers read exactly (never through a double).
    void numberSpellings()
    {
        constexpr double kInf = std::numeric_limits<double>::infinity();
        QCOMPARE(parseDouble("INF"), std::optional(kInf));
        QCOMPARE(parseDouble("+INF"), std::optional(kInf));
        QCOMPARE(parseDouble(" -INF\n"), std::optional(-kInf));
        QVERIFY(parseDouble("NaN") && std::isnan(*parseDouble("NaN")));
        QCOMPARE(parseDouble("+1.5e3"), std::optional(1500.0));
        QCOMPARE(parseDouble("-0.25"), std::optional(-0.25));
        for (const char* junk : { "", "inf", "-inf", "nan", "Infinity", "0x10", "1e400", "--1", "+-1", "1.5x", "+" })
            QVERIFY2(!parseDouble(junk), junk);
        QVERIFY(!parseReal("INF"));
        QVERIFY(!parseReal("NaN"));
        QCOMPARE(parseReal(" 2.5 "), std::optional(2.5));

        QCOMPARE(parseInteger("0x1F"), std::optional<std::int64_t>(31));
        QCOMPARE(parseInteger("-9223372036854775808"), std::optional(std::numeric_limits<std::int64_t>::min()));
        QVERIFY(!parseInteger("9223372036854775808"));
        QVERIFY(!parseInteger("1.0"));
        QVERIFY(!parseInteger("--1"));
        QCOMPARE(parseUnsigned("18446744073709551615"), std::optional(std::numeric_limits<std::uint64_t>::max()));
        QCOMPARE(parseUnsigned("9007199254740993"), std::optional<std::uint64_t>(9007199254740993u));
        QVERIFY(!parseUnsigned("18446744073709551616"));
        QVERIFY(!parseUnsigned("-1"));
        QCOMPARE(parseWrittenInteger("-0"), std::optional(WrittenInteger { false, 0 }));
        QCOMPARE(parseWrittenInteger("-18446744073709551615"),
            std::optional(WrittenInteger { true, std::numeric_limits<std::uint64_t>::max() }));
        QCOMPARE(formatDouble(-kInf), std::string("-INF"));
        QCOMPARE(formatDouble(0.1), std::string("0.1"));
    }

    // minInclusive="-INF" / maxInclusive="INF" are open sides; NaN or junk is reported, not guessed.
    void alarmBoundsInXsDoubleSpellings()
    {
        constexpr double kInf = std::numeric_limits<double>::infinity();
        const auto document = [](const std::string& warning, const std::string& critical) {
            return minimal("<FloatParameterType name=\"F\"><FloatDataEncoding sizeInBits=\"32\"/><DefaultAlarm>"
                           "<StaticAlarmRanges><WarningRange "
                    + warning + "/><CriticalRange " + critical
                    + "/></StaticAlarmRanges></DefaultAlarm></FloatParameterType>\n",
                "<Parameter name=\"X\" parameterTypeRef=\"F\"/>\n", packet("P", "<ParameterRefEntry parameterRef=\"X\"/>"));
        };
        auto result = importXtce(document("minInclusive=\"-INF\" maxInclusive=\"40\"",
                                     "minInclusive=\" -20 \" maxInclusive=\"+INF\" maxExclusive=\"INF\""),
            "inf.xml");
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        QVERIFY2(result.diagnostics.empty(), joined(result.diagnostics).c_str());
        QCOMPARE(findParameter(result.database.packets.at(0), "X")->limits,
            Limits(NumericLimits { -20, -20, 40, kInf, true }));

        result = importXtce(document("minInclusive=\"NaN\" maxInclusive=\"40\"", "maxInclusive=\"fifty\""), "nan.xml");
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        QCOMPARE(located(result.diagnostics),
            (std::vector<std::string> { "6:99: warning: /M/F: WarningRange minInclusive 'NaN' is not a number; ignored",
                "6:151: warning: /M/F: CriticalRange maxInclusive 'fifty' is not a number; ignored" }));
        QCOMPARE(findParameter(result.database.packets.at(0), "X")->limits,
            Limits(NumericLimits { -kInf, -kInf, 40, kInf, true }));
    }

    // Criteria compare raw 64-bit values: read as integers, exactly, whatever their size.
    void criteriaAbove2To53_data()
    {
        QTest::addColumn<std::string>("value");
        QTest::addColumn<int>("bits");
        QTest::addColumn<std::string>("encoding");
        QTest::addColumn<std::uint64_t>("raw");
        QTest::newRow("2^64-1") << std::string("18446744073709551615") << 64 << std::string("unsigned")
                                << std::numeric_limits<std::uint64_t>::max();
        QTest::newRow("2^53+1") << std::string("9007199254740993") << 64 << std::string("unsigned")
                                << std::uint64_t { 9007199254740993u };
        QTest::newRow("hexadecimal") << std::string("0xFFFFFFFFFFFFFFFF") << 64 << std::string("unsigned")
                                     << std::numeric_limits<std::uint64_t>::max();
        QTest::newRow("integral real") << std::string("1e3") << 16 << std::string("unsigned") << std::uint64_t { 1000 };
        QTest::newRow("int64 min") << std::string("-9223372036854775808") << 64 << std::string("twosComplement")
                                   << std::uint64_t { 0x8000000000000000u };
        QTest::newRow("2^63-1") << std::string("9223372036854775807") << 64 << std::string("twosComplement")
                                << std::uint64_t { 0x7FFFFFFFFFFFFFFFu };
        QTest::newRow("-1 in 64 bits") << std::string("-1") << 64 << std::string("twosComplement")
                                       << std::numeric_limits<std::uint64_t>::max();
        QTest::newRow("sign and magnitude") << std::string("-127") << 8 << std::string("signMagnitude")
                                            << std::uint64_t { 0xFF };
        QTest::newRow("ones' complement") << std::string("-127") << 8 << std::string("onesComplement")
                                          << std::uint64_t { 0x80 };
    }
    void criteriaAbove2To53()
    {
        QFETCH(std::string, value);
        QFETCH(int, bits);
        QFETCH(std::string, encoding);
        QFETCH(std::uint64_t, raw);
        const auto result = importXtce(criterionDocument(value, bits, encoding), "big.xml");
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        QCOMPARE(result.database.packets.size(), std::size_t { 1 });
        const PacketDef& p = result.database.packets.front();
        QCOMPARE(p.apid, std::uint16_t { 7 });
        QCOMPARE(p.criteria,
            (std::vector<FieldCriterion> { { 16, static_cast<std::uint32_t>(bits), CompareOp::Equal, raw } }));
    }

    void criteriaThatDoNotFit_data()
    {
        QTest::addColumn<std::string>("value");
        QTest::addColumn<int>("bits");
        QTest::addColumn<std::string>("encoding");
        QTest::newRow("2^64") << std::string("18446744073709551616") << 64 << std::string("unsigned");
        QTest::newRow("2^64 as a real") << std::string("1.8446744073709552e19") << 64 << std::string("unsigned");
        QTest::newRow("negative unsigned") << std::string("-1") << 64 << std::string("unsigned");
        QTest::newRow("2^63 signed") << std::string("9223372036854775808") << 64 << std::string("twosComplement");
        QTest::newRow("fraction") << std::string("2.5") << 8 << std::string("unsigned");
        QTest::newRow("infinity") << std::string("INF") << 64 << std::string("unsigned");
        QTest::newRow("256 in 8 bits") << std::string("256") << 8 << std::string("unsigned");
        // -128 has no sign-and-magnitude or ones' complement form in 8 bits (it would be a second zero).
        QTest::newRow("-128 sign and magnitude") << std::string("-128") << 8 << std::string("signMagnitude");
        QTest::newRow("-128 ones' complement") << std::string("-128") << 8 << std::string("onesComplement");
    }
    void criteriaThatDoNotFit()
    {
        QFETCH(std::string, value);
        QFETCH(int, bits);
        QFETCH(std::string, encoding);
        const auto result = importXtce(criterionDocument(value, bits, encoding), "big.xml");
        QVERIFY(!result.ok());
        const std::string all = joined(result.diagnostics);
        QVERIFY2(all.find("does not fit the " + std::to_string(bits) + "-bit field /M/ID") != std::string::npos
                || (value == "INF" && all.find("is not a number") != std::string::npos),
            all.c_str());
    }

    void badInput_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::string>("expected"); // line:col: error: message (without the file)
        QTest::newRow("malformed")
            << std::string("<SpaceSystem name=\"M\">\n  <TelemetryMetaData>\n  </Telemetry>\n</SpaceSystem>\n")
            << std::string("3:15: error: XML: Opening and ending tag mismatch: TelemetryMetaData line 2 and Telemetry");
        QTest::newRow("truncated") << smallDocument("", "").substr(
            0, 1500) << std::string("29:4: error: XML: Premature end of data in tag FloatParameterType line 19");
        QTest::newRow("empty") << std::string() << std::string("1:1: error: XML: Document is empty");
        QTest::newRow("not SpaceSystem") << std::string("<?xml version=\"1.0\"?>\n<Telemetry/>\n")
                                         << std::string("2:1: error: the root element is <Telemetry>, not an XTCE "
                                                        "SpaceSystem (in the XTCE 1.1 or 1.2 namespace, or in none)");
        QTest::newRow("other namespace") << std::string("<s:SpaceSystem xmlns:s=\"urn:other\" name=\"M\"/>\n")
                                         << std::string("1:1: error: the root element is <SpaceSystem>, not an XTCE "
                                                        "SpaceSystem (in the XTCE 1.1 or 1.2 namespace, or in none)");
        QTest::newRow("entity declaration")
            << std::string("<?xml version=\"1.0\"?>\n<!DOCTYPE SpaceSystem [<!ENTITY a \"aaaaaaaaaa\">]>\n<SpaceSystem "
                           "name=\"&a;\"/>\n")
            << std::string("2:1: error: XML: a document type declaration (DOCTYPE) is not accepted in XTCE");
        QTest::newRow("cyclic inheritance")
            << minimal("", "",
                   "<SequenceContainer name=\"A\"><EntryList/><BaseContainer containerRef=\"B\"/></SequenceContainer>\n"
                   "<SequenceContainer name=\"B\" abstract=\"true\"><EntryList/><BaseContainer "
                   "containerRef=\"A\"/></SequenceContainer>\n")
            << std::string("13:57: error: /M/B: cycle in container inheritance: /M/A -> /M/B -> /M/A");
        QTest::newRow("cyclic ContainerRefEntry")
            << minimal("", "",
                   packet("P", "<ContainerRefEntry containerRef=\"C\"/>")
                       + "<SequenceContainer name=\"C\" abstract=\"true\"><EntryList><ContainerRefEntry "
                         "containerRef=\"C\"/></EntryList></SequenceContainer>\n")
            << std::string("14:1: error: /M/C: cycle through ContainerRefEntry: /M/C -> /M/C");
        QTest::newRow("unresolved parameterTypeRef")
            << minimal("", "<Parameter name=\"X\" parameterTypeRef=\"Nowhere/T\"/>\n",
                   packet("P", "<ParameterRefEntry parameterRef=\"X\"/>"))
            << std::string("10:1: error: /M/X: unresolved parameter type reference 'Nowhere/T' (from space system /M)");
        QTest::newRow("unresolved parameterRef")
            << minimal("", "", packet("P", "<ParameterRefEntry parameterRef=\"../Y\"/>"))
            << std::string("12:117: error: /M/P: unresolved parameter reference '../Y' (from space system /M)");
        QTest::newRow("absurd array")
            << minimal("<ArrayParameterType name=\"Big\" arrayTypeRef=\"U5\"><DimensionList>"
                       "<Dimension><StartingIndex><FixedValue>0</FixedValue></"
                       "StartingIndex><EndingIndex><FixedValue>999</FixedValue></EndingIndex></Dimension>"
                       "<Dimension><StartingIndex><FixedValue>0</FixedValue></"
                       "StartingIndex><EndingIndex><FixedValue>999</FixedValue></EndingIndex></Dimension>"
                       "</DimensionList></ArrayParameterType>\n",
                   "<Parameter name=\"X\" parameterTypeRef=\"Big\"/>\n",
                   packet("P", "<ParameterRefEntry parameterRef=\"X\"/>"))
            << std::string("6:50: error: /M/Big: the array has more than 100000 members; refused as absurd");
        QTest::newRow("65-bit integer")
            << minimal(
                   "<IntegerParameterType name=\"W\"><IntegerDataEncoding sizeInBits=\"65\"/></IntegerParameterType>\n",
                   "<Parameter name=\"X\" parameterTypeRef=\"W\"/>\n",
                   packet("P", "<ParameterRefEntry parameterRef=\"X\"/>"))
            << std::string(
                   "6:32: error: /M/W: IntegerDataEncoding of 65 bits: integers wider than 64 bits are not supported");
        QTest::newRow("huge string")
            << minimal("<StringParameterType "
                       "name=\"S\"><StringDataEncoding><SizeInBits><Fixed><FixedValue>9999999</FixedValue></Fixed></"
                       "SizeInBits></StringDataEncoding></StringParameterType>\n",
                   "<Parameter name=\"X\" parameterTypeRef=\"S\"/>\n",
                   packet("P", "<ParameterRefEntry parameterRef=\"X\"/>"))
            << std::string("6:70: error: /M/S: a string of 9999999 bits is absurd (more than 65,536 bytes)");
        QTest::newRow("duplicate parameter")
            << minimal("", "<Parameter name=\"APID\" parameterTypeRef=\"U5\"/>\n", packet("P", ""))
            << std::string("10:1: error: /M/APID: duplicate parameter name in space system /M (first at line 9)");
        QTest::newRow("two APIDs")
            << minimal("", "",
                   "<SequenceContainer name=\"P\"><EntryList><ParameterRefEntry parameterRef=\"H\"/><ParameterRefEntry "
                   "parameterRef=\"APID\"/>"
                   "</EntryList><BaseContainer containerRef=\"PBase\"><RestrictionCriteria><ComparisonList>"
                   "<Comparison parameterRef=\"APID\" value=\"8\"/><Comparison parameterRef=\"APID\" value=\"7\"/>"
                   "</ComparisonList></RestrictionCriteria></BaseContainer></SequenceContainer>\n"
                   "<SequenceContainer name=\"PBase\" abstract=\"true\"><EntryList/></SequenceContainer>\n")
            << std::string("12:245: error: /M/P: two different APIDs in the restriction criteria: 8 and 7");
        {
            // Each level includes the next one twice: 2^20 entries unless refused.
            std::string levels = packet("P", "<ContainerRefEntry containerRef=\"L0\"/>");
            for (int i = 0; i < 20; ++i) {
                const std::string next = i == 19
                    ? "<ParameterRefEntry parameterRef=\"H\"/><ParameterRefEntry parameterRef=\"H\"/>"
                    : "<ContainerRefEntry containerRef=\"L" + std::to_string(i + 1)
                        + "\"/><ContainerRefEntry containerRef=\"L" + std::to_string(i + 1) + "\"/>";
                levels += "<SequenceContainer name=\"L" + std::to_string(i) + "\" abstract=\"true\"><EntryList>" + next
                    + "</EntryList></SequenceContainer>\n";
            }
            QTest::newRow("exponential ContainerRefEntry")
                << minimal("", "", levels)
                << std::string(
                       "32:58: error: /M/L18: the flattened container has more than 100000 entries; refused as absurd");
        }
        QTest::newRow("absurd location")
            << minimal("", "",
                   packet("P",
                       "<ParameterRefEntry "
                       "parameterRef=\"H\"><LocationInContainerInBits><FixedValue>9223372036854775807</FixedValue></"
                       "LocationInContainerInBits></ParameterRefEntry>"))
            << std::string("12:180: error: /M/P: a location of 9223372036854775807 bits is beyond the largest packet");
    }
    void badInput()
    {
        QFETCH(std::string, text);
        QFETCH(std::string, expected);
        const auto result = importXtce(text, "bad.xml");
        QVERIFY(!result.ok());
        const auto lines = located(result.diagnostics);
        QVERIFY2(std::find(lines.begin(), lines.end(), expected) != lines.end(), joined(result.diagnostics).c_str());
        for (const auto& d : result.diagnostics)
            QCOMPARE(d.where.file, std::string("bad.xml"));
        // Lenient changes nothing for errors.
        QVERIFY(!importXtce(text, "bad.xml", { true }).ok());
    }

    // Truncated and corrupted copies of a real file: errors, never a crash or an exception.
    void damagedInputNeverCrashes()
    {
        const std::string original = readAll(dataPath("xtce/BogusSAT-1.xml"));
        QVERIFY(!original.empty());
        const std::string withPacket = bogusSatWithPacket();
        std::uint32_t seed = 12345;
        const auto next = [&seed] {
            seed = seed * 1664525u + 1013904223u;
            return seed >> 8;
        };
        for (int i = 0; i < 60; ++i) {
            const std::string cut = withPacket.substr(0, next() % withPacket.size());
            (void)importXtce(cut, "cut.xml", { i % 2 == 0 });
            std::string flipped = withPacket;
            for (int k = 0; k < 4; ++k)
                flipped[next() % flipped.size()] = static_cast<char>(next() & 0x7f);
            (void)importXtce(flipped, "flipped.xml", { i % 2 == 1 });
        }
        QVERIFY(!importXtce(original.substr(0, original.size() / 2), "half.xml").ok());
    }

    void unsupportedIsAnErrorUnlessLenient()
    {
        const std::string text = minimal("<IntegerParameterType name=\"B\"><IntegerDataEncoding sizeInBits=\"8\" "
                                         "encoding=\"BCD\"/></IntegerParameterType>\n",
            "<Parameter name=\"X\" parameterTypeRef=\"B\"/>\n<Parameter name=\"Z\" parameterTypeRef=\"U5\"/>\n",
            packet("P",
                "<ParameterRefEntry parameterRef=\"X\"/><ParameterRefEntry "
                "parameterRef=\"Z\"><RepeatEntry/></ParameterRefEntry>")
                + packet("Q", "<ParameterRefEntry parameterRef=\"X\"/><ParameterRefEntry parameterRef=\"Z\"/>"));
        const auto strict = importXtce(text, "u.xml");
        QVERIFY(!strict.ok());
        const auto lenient = importXtce(text, "u.xml", { true });
        QVERIFY2(lenient.ok(), joined(lenient.diagnostics).c_str());
        QCOMPARE(lines(lenient.skipped),
            lines({
                "15:190: /M/P: RepeatEntry is not supported",
                "15:1: /M/P: the container is not imported as a packet",
                "6:32: /M/B: IntegerDataEncoding encoding 'BCD' is not supported",
            }));
        QCOMPARE(lenient.database.packets.size(), std::size_t { 1 });
        const PacketDef& q = lenient.database.packets.front();
        QCOMPARE(q.name, std::string("Q"));
        // X (BCD) keeps its 8 bits; Z comes after it.
        QVERIFY(findParameter(q, "X") == nullptr);
        QCOMPARE(findParameter(q, "Z")->bitOffset, 5u + 11u + 8u);
        for (const auto& d : lenient.diagnostics)
            QCOMPARE(d.severity, Severity::Warning);
    }

    void referencesResolveThroughTheTree()
    {
        const std::string text = R"(<SpaceSystem name="Root">
  <TelemetryMetaData>
    <ParameterTypeSet>
      <IntegerParameterType name="U5"><IntegerDataEncoding sizeInBits="5"/></IntegerParameterType>
      <IntegerParameterType name="U11"><IntegerDataEncoding sizeInBits="11"/></IntegerParameterType>
    </ParameterTypeSet>
    <ParameterSet>
      <Parameter name="H" parameterTypeRef="U5"/>
      <Parameter name="APID" parameterTypeRef="U11"/>
    </ParameterSet>
    <ContainerSet>
      <SequenceContainer name="Base" abstract="true"><EntryList><ParameterRefEntry parameterRef="H"/><ParameterRefEntry parameterRef="APID"/></EntryList></SequenceContainer>
    </ContainerSet>
  </TelemetryMetaData>
  <SpaceSystem name="A">
    <TelemetryMetaData>
      <ParameterTypeSet><IntegerParameterType name="T"><IntegerDataEncoding sizeInBits="8"/></IntegerParameterType></ParameterTypeSet>
      <ParameterSet><Parameter name="X" parameterTypeRef="T"/><Parameter name="H" parameterTypeRef="/Root/U5"/></ParameterSet>
      <ContainerSet>
        <SequenceContainer name="P">
          <EntryList>
            <ParameterRefEntry parameterRef="X"/>
            <ParameterRefEntry parameterRef="B/Y"/>
            <ParameterRefEntry parameterRef="./B/Y"/>
            <ParameterRefEntry parameterRef="../A/H"/>
          </EntryList>
          <BaseContainer containerRef="../Base"><RestrictionCriteria><Comparison parameterRef="/Root/APID" value="3"/></RestrictionCriteria></BaseContainer>
        </SequenceContainer>
      </ContainerSet>
    </TelemetryMetaData>
    <SpaceSystem name="B">
      <TelemetryMetaData>
        <ParameterSet><Parameter name="Y" parameterTypeRef="T"/></ParameterSet>
      </TelemetryMetaData>
    </SpaceSystem>
  </SpaceSystem>
</SpaceSystem>
)";
        const auto result = importXtce(text, "tree.xml");
        QVERIFY2(result.ok(), joined(result.diagnostics).c_str());
        const PacketDef& p = result.database.packets.front();
        QCOMPARE(p.path, std::string("/Root/A/P"));
        std::vector<std::string> names;
        for (const auto& q : p.parameters)
            names.push_back(q.name + "=" + q.path);
        // H is in two space systems: both are named by their paths; Y appears twice.
        QCOMPARE(names,
            (std::vector<std::string> { "/Root/H=/Root/H", "APID=/Root/APID", "X=/Root/A/X", "Y=/Root/A/B/Y",
                "Y#2=/Root/A/B/Y", "/Root/A/H=/Root/A/H" }));
    }

    void looksLikeXtceByContent()
    {
        QVERIFY(looksLikeXtce(dataPath("xtce/BogusSAT-1.xml")));
        QVERIFY(looksLikeXtce(dataPath("missions/jpss1/jpss1_geolocation_xtce_v1.xml")));
        QVERIFY(looksLikeXtce(dataPath("missions/idex/idex_combined_science_definition.xml")));
        QVERIFY(!looksLikeXtce(dataPath("xtce/SpaceSystemV1.2.xsd")));
        QVERIFY(!looksLikeXtce(dataPath("missions/jpss1/ccsdspy_jpss1_geolocation.csv")));
        QVERIFY(!looksLikeXtce(dataPath("missions/jpss1/J01_G011_LZ_2021-04-09T00-00-00Z_V01.DAT1")));
        QVERIFY(!looksLikeXtce(dataPath("no/such/file.xml")));
    }

    void realFilesAgainstTheSchema()
    {
        const std::string xsd11 = dataPath("xtce/SpaceSystemV1.1.xsd");
        // The real files declare the XTCE 1.1 namespace; what they do differently from its schema:
        const auto jpss = validateAgainstSchema(dataPath("missions/jpss1/jpss1_geolocation_xtce_v1.xml"), xsd11);
        std::vector<int> jpssLines;
        for (const auto& d : jpss)
            jpssLines.push_back(d.where.line);
        QCOMPARE(
            jpssLines, (std::vector<int> { 3, 3, 78, 84, 88 })); // Header author/validationStatus, encoding "IEEE754"
        QVERIFY(jpss[2].message.find("'IEEE754'") != std::string::npos);
        const auto idex = validateAgainstSchema(dataPath("missions/idex/idex_combined_science_definition.xml"), xsd11);
        QCOMPARE(idex.size(), std::size_t { 1 });
        QVERIFY(idex[0].message.find("validationStatus") != std::string::npos);
        const auto bogus = validateAgainstSchema(dataPath("xtce/BogusSAT-1.xml"), xsd11);
        QVERIFY(bogus.size() > 20); // deliberate errors and XTCE 1.2 constructs in the 1.1 namespace
        QCOMPARE(bogus.front().where.line, 107);
    }

    void schema12CompilesWithoutNetwork()
    {
        QTemporaryDir dir;
        const std::string good = dir.filePath(QStringLiteral("good.xml")).toStdString();
        const std::string bad = dir.filePath(QStringLiteral("bad.xml")).toStdString();
        {
            std::ofstream(good) << "<SpaceSystem xmlns=\"" << kNs12
                                << "\" name=\"S\"><TelemetryMetaData/></SpaceSystem>\n";
            std::ofstream(bad) << "<SpaceSystem xmlns=\"" << kNs12 << "\" name=\"S\">\n<Telemetry/>\n</SpaceSystem>\n";
        }
        const std::string xsd12 = dataPath("xtce/SpaceSystemV1.2.xsd");
        const auto ok = validateAgainstSchema(good, xsd12);
        QVERIFY2(ok.empty(), joined(ok).c_str());
        const auto errors = validateAgainstSchema(bad, xsd12);
        QCOMPARE(errors.size(), std::size_t { 1 });
        QCOMPARE(errors[0].where.line, 2);
        QCOMPARE(errors[0].where.file, bad);
        // The small documents of these tests are valid XTCE.
        const std::string small = dir.filePath(QStringLiteral("small.xml")).toStdString();
        std::ofstream(small) << smallDocument("", "xmlns=\"" + kNs12 + "\"");
        const auto smallErrors = validateAgainstSchema(small, xsd12);
        QVERIFY2(smallErrors.empty(), joined(smallErrors).c_str());
        // A schema that does not exist.
        QVERIFY(hasErrors(validateAgainstSchema(good, dataPath("xtce/none.xsd"))));
    }
};

QTEST_GUILESS_MAIN(TestXtceImport)
#include "tst_xtce_import.moc"
