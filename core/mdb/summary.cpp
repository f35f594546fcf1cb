#include "core/mdb/summary.hpp"

#include "core/mdb/keywords.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace telestation::mdb {
namespace {

constexpr std::size_t kColumns = 7;
using Row = std::array<std::string, kColumns>;
// Numbers are right-aligned so that their digits line up.
constexpr std::array<bool, kColumns> kRightAligned { false, true, false, true, false, false, false };

Row packetRow(const PacketDef& p)
{
    Row row;
    row[0] = p.name;
    row[1] = std::to_string(p.apid);
    row[2]
        = p.variableLength ? std::to_string(p.length) + ".." + std::to_string(p.maxLength) : std::to_string(p.length);
    row[3] = std::to_string(p.parameters.size());
    if (p.secondaryId) {
        const std::uint64_t first = p.secondaryId->bitOffset;
        const std::uint64_t last = first + p.secondaryId->bitLength - (p.secondaryId->bitLength > 0 ? 1 : 0);
        row[4] = "bits " + std::to_string(first) + ".." + std::to_string(last) + " = "
            + std::to_string(p.secondaryId->value);
    } else {
        row[4] = "-";
    }
    if (p.secondaryHeader) {
        const CucLayout& cuc = *p.secondaryHeader;
        row[5] = "CUC " + std::to_string(cuc.coarseBytes) + "+" + std::to_string(cuc.fineBytes)
            + (cuc.hasPField ? " P-field " : " ") + std::string(keyword(cuc.epoch));
    } else {
        row[5] = "-";
    }
    row[6] = p.byteOrder == ByteOrder::BigEndian ? "big-endian" : "little-endian";
    return row;
}

} // namespace

std::string summarize(const MissionDatabase& db)
{
    std::string out;
    out += "Mission: " + (db.name.empty() ? std::string("(unnamed)") : db.name) + '\n';
    out += "Packets: " + std::to_string(db.packets.size()) + '\n';
    out += "Parameters: " + std::to_string(db.parameterCount()) + '\n';
    if (db.packets.empty())
        return out;

    std::vector<Row> rows;
    rows.push_back(Row { "Packet", "APID", "Length", "Parameters", "Secondary id", "Secondary header", "Byte order" });
    for (const auto& p : db.packets)
        rows.push_back(packetRow(p));

    std::array<std::size_t, kColumns> width {};
    for (const auto& row : rows)
        for (std::size_t i = 0; i < kColumns; ++i)
            width[i] = std::max(width[i], row[i].size());

    out += '\n';
    for (const auto& row : rows) {
        std::string line = " ";
        for (std::size_t i = 0; i < kColumns; ++i) {
            const std::string padding(width[i] - row[i].size(), ' ');
            line += ' ';
            line += kRightAligned[i] ? padding + row[i] : row[i] + (i + 1 < kColumns ? padding : "");
            if (i + 1 < kColumns)
                line += ' ';
        }
        out += line + '\n';
    }
    return out;
}

} // namespace telestation::mdb
