// The training mission database (resources/mdb/training.tdef): it imports without a single error or
// warning, Packet5 has the layout and the variety of fields the other tests and the simulator rely on,
// the other packet kinds exist, and every field lies inside its packet after its headers.
// The build compiles it into SQLite, so it must also come back unchanged from there.
// Only Packet5 is looked up by name; everything else is found by what it is.
#include "core/mdb/model.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/text_format.hpp"
#include "core/mdb/validate.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <algorithm>
#include <functional>
#include <map>
#include <string>

using namespace telestation;
using namespace telestation::mdb;

namespace {

constexpr std::uint32_t kPrimaryHeaderBits = 48;

const std::string kTrainingPath = test::trainingDefinitionPath();

// The first bit a parameter may use: after the primary header and the secondary header, if any.
std::uint32_t firstDataBit(const PacketDef& packet)
{
    const std::uint32_t secondary = packet.secondaryHeader ? packet.secondaryHeader->sizeBytes() * 8 : 0;
    return kPrimaryHeaderBits + secondary;
}

// One past the last bit a parameter may use: the (maximum) length of the packet.
std::uint32_t endBit(const PacketDef& packet)
{
    return (packet.variableLength ? packet.maxLength : packet.length) * 8;
}

std::uint32_t paramEnd(const ParameterDef& p) { return p.bitOffset + p.bitLength; }

bool anyParameter(const PacketDef& packet, const std::function<bool(const ParameterDef&)>& predicate)
{
    return std::any_of(packet.parameters.begin(), packet.parameters.end(), predicate);
}

bool isInteger(const ParameterDef& p, DataType type, std::uint32_t bits)
{
    return p.type == type && p.bitLength == bits;
}

const EnumerationCalibrator* enumerationOf(const ParameterDef& p)
{
    return std::get_if<EnumerationCalibrator>(&p.calibrator);
}

std::string describe(const Diagnostics& diagnostics)
{
    std::string text;
    for (const auto& d : diagnostics)
        text += d.toString() + "\n";
    return text;
}

} // namespace

class TestMdbTraining : public QObject {
    Q_OBJECT

private:
    MissionDatabase m_db;

    const PacketDef& packet5()
    {
        const PacketDef* p = m_db.findPacket("Packet5");
        if (p == nullptr)
            qFatal("Packet5 is missing from %s", kTrainingPath.c_str());
        return *p;
    }

private slots:
    void initTestCase()
    {
        const ImportResult imported = readTextFile(kTrainingPath);
        // No errors and no warnings either: the training database is the reference example.
        QVERIFY2(imported.diagnostics.empty(), describe(imported.diagnostics).c_str());
        QVERIFY(imported.ok());
        m_db = imported.database;
        QVERIFY(!m_db.packets.empty());
    }

    void validatesClean()
    {
        const auto issues = validate(m_db);
        std::string text;
        for (const auto& issue : issues)
            text += issue.message + "\n";
        QVERIFY2(issues.empty(), text.c_str());
    }

    void hasMissionName() { QVERIFY(!m_db.name.empty()); }

    void packet5Header()
    {
        const PacketDef& p = packet5();
        QCOMPARE(p.apid, 7);
        QVERIFY(!p.variableLength);
        QCOMPARE(p.length, 1288u);
        QVERIFY(p.secondaryHeader.has_value());
        QVERIFY(p.parameters.size() >= 50);
    }

    void packet5IntegersOfEveryWidth_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("bits");
        for (const int bits : {8, 16, 32, 64}) {
            QTest::addRow("uint%d", bits) << static_cast<int>(DataType::UnsignedInt) << bits;
            QTest::addRow("int%d", bits) << static_cast<int>(DataType::SignedInt) << bits;
        }
    }

    void packet5IntegersOfEveryWidth()
    {
        QFETCH(int, type);
        QFETCH(int, bits);
        QVERIFY(anyParameter(packet5(), [&](const ParameterDef& p) {
            return isInteger(p, static_cast<DataType>(type), static_cast<std::uint32_t>(bits));
        }));
    }

    void packet5BitFields()
    {
        const PacketDef& p = packet5();
        // Narrower than a byte at an offset that is not a multiple of 8.
        QVERIFY(anyParameter(p, [](const ParameterDef& q) { return q.bitLength < 8 && q.bitOffset % 8 != 0; }));
        // A single-bit flag, a signed field narrower than a byte, and a field crossing a byte boundary
        // without being whole bytes.
        QVERIFY(anyParameter(p, [](const ParameterDef& q) { return q.bitLength == 1; }));
        QVERIFY(anyParameter(p, [](const ParameterDef& q) {
            return q.type == DataType::SignedInt && q.bitLength < 8;
        }));
        QVERIFY(anyParameter(p, [](const ParameterDef& q) {
            return q.bitLength % 8 != 0 && q.bitOffset / 8 != (paramEnd(q) - 1) / 8;
        }));
    }

    void packet5FloatsStringsBytes()
    {
        const PacketDef& p = packet5();
        QVERIFY(anyParameter(p, [](const ParameterDef& q) { return isInteger(q, DataType::Float, 32); }));
        QVERIFY(anyParameter(p, [](const ParameterDef& q) { return isInteger(q, DataType::Float, 64); }));
        QVERIFY(anyParameter(p, [](const ParameterDef& q) { return q.type == DataType::String && q.bitLength >= 8; }));
        QVERIFY(anyParameter(p, [](const ParameterDef& q) { return q.type == DataType::Bytes && q.bitLength >= 8; }));
    }

    void packet5ByteOrders()
    {
        const PacketDef& p = packet5();
        QCOMPARE(p.byteOrder, ByteOrder::BigEndian);
        QVERIFY(anyParameter(p, [&](const ParameterDef& q) {
            return effectiveByteOrder(p, q) == ByteOrder::LittleEndian && q.bitLength > 8;
        }));
        // Mostly big-endian, as the brief of the mission says.
        const auto little = std::count_if(p.parameters.begin(), p.parameters.end(),
            [&](const ParameterDef& q) { return effectiveByteOrder(p, q) == ByteOrder::LittleEndian; });
        QVERIFY(static_cast<std::size_t>(little) * 4 < p.parameters.size());
    }

    void packet5Enumerations()
    {
        const PacketDef& p = packet5();
        QVERIFY(anyParameter(p, [](const ParameterDef& q) {
            const auto* e = enumerationOf(q);
            return e != nullptr && e->states.size() >= 2;
        }));
        // A state that covers a range of codes.
        QVERIFY(anyParameter(p, [](const ParameterDef& q) {
            const auto* e = enumerationOf(q);
            return e != nullptr && std::any_of(e->states.begin(), e->states.end(),
                                      [](const State& s) { return s.low < s.high; });
        }));
        // Expected states on some enumerations, each naming a state of its enumeration.
        bool anyExpected = false;
        for (const auto& q : p.parameters) {
            const auto* limits = std::get_if<StateLimits>(&q.limits);
            if (limits == nullptr)
                continue;
            anyExpected = true;
            const auto* e = enumerationOf(q);
            QVERIFY2(e != nullptr, q.name.c_str());
            for (const auto& expected : limits->expectedStates)
                QVERIFY2(std::any_of(e->states.begin(), e->states.end(),
                             [&](const State& s) { return s.text == expected; }),
                    (q.name + ": " + expected).c_str());
        }
        QVERIFY(anyExpected);
    }

    void packet5Calibrators()
    {
        const PacketDef& p = packet5();
        QVERIFY(anyParameter(p, [](const ParameterDef& q) {
            const auto* poly = std::get_if<PolynomialCalibrator>(&q.calibrator);
            return poly != nullptr && poly->coefficients.size() == 2;
        }));
        // A 3rd-order fit (a thermistor).
        QVERIFY(anyParameter(p, [](const ParameterDef& q) {
            const auto* poly = std::get_if<PolynomialCalibrator>(&q.calibrator);
            return poly != nullptr && poly->coefficients.size() >= 4;
        }));
        QVERIFY(anyParameter(p, [](const ParameterDef& q) {
            const auto* table = std::get_if<PointPairCalibrator>(&q.calibrator);
            return table != nullptr && table->points.size() >= 4;
        }));
    }

    void packet5Limits()
    {
        const PacketDef& p = packet5();
        int enabled = 0;
        int disabled = 0;
        for (const auto& q : p.parameters) {
            const auto* limits = std::get_if<NumericLimits>(&q.limits);
            if (limits == nullptr)
                continue;
            QVERIFY2(q.type != DataType::String && q.type != DataType::Bytes && enumerationOf(q) == nullptr,
                q.name.c_str());
            QVERIFY2(limits->redLow <= limits->yellowLow && limits->yellowLow <= limits->yellowHigh
                    && limits->yellowHigh <= limits->redHigh,
                q.name.c_str());
            (limits->enabled ? enabled : disabled)++;
        }
        QVERIFY(enabled >= 10); // "limits on many numeric parameters"
        QVERIFY(disabled >= 1);
    }

    void packet5SpreadOverTheWholePacket()
    {
        const PacketDef& p = packet5();
        // The last field ends exactly at the end of the packet, the first starts right after the
        // secondary header, and something lies in the second half.
        QVERIFY(anyParameter(p, [&](const ParameterDef& q) { return paramEnd(q) == endBit(p); }));
        QVERIFY(anyParameter(p, [&](const ParameterDef& q) { return q.bitOffset == firstDataBit(p); }));
        QVERIFY(anyParameter(p, [&](const ParameterDef& q) {
            return q.bitOffset >= endBit(p) / 2 && paramEnd(q) < endBit(p) - 64;
        }));
    }

    void otherPacketKinds()
    {
        const PacketDef* small = nullptr;
        const PacketDef* littleEndian = nullptr;
        const PacketDef* timed = nullptr;
        for (const auto& p : m_db.packets) {
            if (p.name == "Packet5")
                continue;
            if (!p.variableLength && p.length <= 64 && !p.parameters.empty())
                small = &p;
            if (p.byteOrder == ByteOrder::LittleEndian && !p.parameters.empty())
                littleEndian = &p;
            if (p.secondaryHeader && !p.parameters.empty())
                timed = &p;
        }
        QVERIFY2(small != nullptr, "no housekeeping packet of at most 64 bytes");
        QVERIFY2(littleEndian != nullptr, "no packet that is little-endian by default");
        QVERIFY2(timed != nullptr, "no packet besides Packet5 with a CUC secondary header");

        // The little-endian packet has integers and a float in its default order, and one override.
        const PacketDef& le = *littleEndian;
        QVERIFY(anyParameter(le, [&](const ParameterDef& q) {
            return effectiveByteOrder(le, q) == ByteOrder::LittleEndian && q.type != DataType::Float
                && q.bitLength >= 16;
        }));
        QVERIFY(anyParameter(le, [&](const ParameterDef& q) {
            return effectiveByteOrder(le, q) == ByteOrder::LittleEndian && isInteger(q, DataType::Float, 32);
        }));
        QVERIFY(anyParameter(le, [&](const ParameterDef& q) {
            return effectiveByteOrder(le, q) == ByteOrder::BigEndian && q.bitLength > 8;
        }));
    }

    void apidsDistinctOrTellApart()
    {
        std::map<std::uint16_t, std::vector<const PacketDef*>> byApid;
        for (const auto& p : m_db.packets) {
            QVERIFY2(p.apid <= 2047, p.name.c_str());
            byApid[p.apid].push_back(&p);
        }
        for (const auto& [apid, packets] : byApid) {
            if (packets.size() < 2)
                continue;
            for (std::size_t i = 0; i < packets.size(); ++i) {
                const auto& a = packets[i]->secondaryId;
                QVERIFY2(a.has_value(), packets[i]->name.c_str());
                for (std::size_t j = i + 1; j < packets.size(); ++j) {
                    const auto& b = packets[j]->secondaryId;
                    QVERIFY2(b.has_value(), packets[j]->name.c_str());
                    QCOMPARE(a->bitOffset, b->bitOffset);
                    QCOMPARE(a->bitLength, b->bitLength);
                    QVERIFY(a->value != b->value);
                }
            }
        }
    }

    void everyFieldInsideItsPacket()
    {
        for (const auto& p : m_db.packets) {
            QVERIFY2(!p.parameters.empty(), p.name.c_str());
            const std::uint32_t first = firstDataBit(p);
            const std::uint32_t end = endBit(p);
            QVERIFY2(first < end, p.name.c_str());
            for (const auto& q : p.parameters) {
                const std::string where = p.name + "." + q.name;
                QVERIFY2(q.bitLength > 0, where.c_str());
                QVERIFY2(q.bitOffset >= first, where.c_str());
                QVERIFY2(paramEnd(q) <= end, where.c_str());
            }
        }
    }

    void noUnintendedOverlaps()
    {
        for (const auto& p : m_db.packets) {
            std::vector<const ParameterDef*> sorted;
            for (const auto& q : p.parameters)
                if (!q.overlapAllowed)
                    sorted.push_back(&q);
            std::sort(sorted.begin(), sorted.end(),
                [](const ParameterDef* a, const ParameterDef* b) { return a->bitOffset < b->bitOffset; });
            // The field reaching furthest so far: a later field must start at or after its end.
            const ParameterDef* furthest = nullptr;
            for (const ParameterDef* q : sorted) {
                if (furthest != nullptr)
                    QVERIFY2(paramEnd(*furthest) <= q->bitOffset,
                        (p.name + ": " + furthest->name + " / " + q->name).c_str());
                if (furthest == nullptr || paramEnd(*q) > paramEnd(*furthest))
                    furthest = q;
            }
        }
    }

    void everythingIsDescribed()
    {
        for (const auto& p : m_db.packets) {
            QVERIFY2(!p.description.empty(), p.name.c_str());
            for (const auto& q : p.parameters)
                QVERIFY2(!q.description.empty(), (p.name + "." + q.name).c_str());
        }
    }

    void survivesExportAndImport()
    {
        const ImportResult again = parseText(writeText(m_db), "training-export.tdef");
        QVERIFY2(again.diagnostics.empty(), describe(again.diagnostics).c_str());
        QVERIFY(again.database == m_db);
    }

    // What the build does with it: share/telestation/training.mdb.
    void survivesSqlite()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("training.mdb")).toStdString();
        const Status saved = saveDatabase(m_db, path);
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().message.c_str());
        const auto loaded = loadDatabase(path);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        QVERIFY(loaded.value() == m_db);
    }
};

QTEST_GUILESS_MAIN(TestMdbTraining)
#include "tst_mdb_training.moc"
