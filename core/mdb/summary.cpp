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

constexpr std::size_t kColumns = 9;
using Row = std::array<std::string, kColumns>;
// Numbers are right-aligned so that their digits line up.
constexpr std::array<bool, kColumns> kRightAligned { false, true, false, true, false, false, false, false, false };

std::string bits(std::uint64_t offset, std::uint64_t length)
{
    return "bits " + std::to_string(offset) + ".." + std::to_string(offset + length - (length > 0 ? 1 : 0));
}

// "fixed", or "variable" with what makes it so: fields sized by the packet's data, fields present
// only under a condition.
std::string layout(const PacketDef& p)
{
    if (!p.variableLayout())
        return "fixed";
    std::size_t sized = 0;
    std::size_t conditional = 0;
    for (const auto& q : p.parameters) {
        sized += q.fixedSize() ? 0 : 1;
        conditional += q.includeWhen.empty() ? 0 : 1;
    }
    std::string details;
    if (sized > 0)
        details += std::to_string(sized) + " sized by data";
    if (conditional > 0)
        details += (details.empty() ? "" : ", ") + std::to_string(conditional) + " conditional";
    return details.empty() ? "variable" : "variable (" + details + ")";
}

// The criteria, e.g. "bits 0..2 == 0, bits 48..55 >= 2".
std::string criteria(const PacketDef& p)
{
    if (p.criteria.empty())
        return "-";
    std::string out;
    for (const auto& c : p.criteria) {
        if (!out.empty())
            out += ", ";
        out += bits(c.bitOffset, c.bitLength) + " " + std::string(keyword(c.op)) + " " + std::to_string(c.value);
    }
    return out;
}

Row packetRow(const PacketDef& p)
{
    Row row;
    row[0] = p.name;
    row[1] = std::to_string(p.apid);
    row[2]
        = p.variableLength ? std::to_string(p.length) + ".." + std::to_string(p.maxLength) : std::to_string(p.length);
    row[3] = std::to_string(p.parameters.size());
    row[4] = layout(p);
    if (p.secondaryId)
        row[5] = bits(p.secondaryId->bitOffset, p.secondaryId->bitLength) + " = " + std::to_string(p.secondaryId->value);
    else
        row[5] = "-";
    row[6] = criteria(p);
    if (p.secondaryHeader) {
        const CucLayout& cuc = *p.secondaryHeader;
        row[7] = "CUC " + std::to_string(cuc.coarseBytes) + "+" + std::to_string(cuc.fineBytes)
            + (cuc.hasPField ? " P-field " : " ") + std::string(keyword(cuc.epoch));
    } else {
        row[7] = "-";
    }
    row[8] = p.byteOrder == ByteOrder::BigEndian ? "big-endian" : "little-endian";
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
    rows.push_back(Row { "Packet", "APID", "Length", "Parameters", "Layout", "Secondary id", "Criteria",
        "Secondary header", "Byte order" });
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
