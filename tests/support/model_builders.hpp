// Small builders for mission-database model objects, shared by the tests.
#pragma once

#include "core/mdb/model.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace telestation::test {

inline mdb::ParameterDef makeParameter(std::string name, std::uint32_t bitOffset, std::uint32_t bitLength,
                                       mdb::DataType type = mdb::DataType::UnsignedInt)
{
    mdb::ParameterDef p;
    p.name = std::move(name);
    p.bitOffset = bitOffset;
    p.bitLength = bitLength;
    p.type = type;
    return p;
}

// A parameter placed `gap` bits after the end of the previous one (how XTCE lays out entries).
inline mdb::ParameterDef makeFollowing(std::string name, std::uint32_t gap, std::uint32_t bitLength,
                                       mdb::DataType type = mdb::DataType::UnsignedInt)
{
    mdb::ParameterDef p = makeParameter(std::move(name), gap, bitLength, type);
    p.placement = mdb::Placement::AfterPrevious;
    return p;
}

// Bytes after the previous parameter, `slope * value(sizeParameter) + intercept` bits long (XTCE's
// DynamicValue with a LinearAdjustment: IDEX's science data).
inline mdb::ParameterDef makeSizedBytes(std::string name, std::string sizeParameter, double slope = 8, double intercept = 0)
{
    mdb::ParameterDef p = makeFollowing(std::move(name), 0, 0, mdb::DataType::Bytes);
    p.size.kind = mdb::SizeKind::FromParameter;
    p.size.sizeParameter = std::move(sizeParameter);
    p.size.sizeSlope = slope;
    p.size.sizeIntercept = intercept;
    return p;
}

// A packet as an XTCE import makes it: variable length up to the CCSDS maximum, its layout (and the
// packet's length field) deciding each packet's size.
inline mdb::PacketDef makeOpenPacket(std::string name, std::uint16_t apid, std::vector<mdb::ParameterDef> parameters = {})
{
    mdb::PacketDef pk;
    pk.name = std::move(name);
    pk.apid = apid;
    pk.length = 7;
    pk.variableLength = true;
    pk.maxLength = 65542;
    pk.parameters = std::move(parameters);
    return pk;
}

// "Bulk": `count` 16-bit parameters P000, P001, ... after the primary header, every tenth with limits
// 100..60000 yellow / 50..65000 red. The training mission has 145 parameters in all; displays and their
// benchmarks need a packet of a thousand.
inline mdb::PacketDef makeBulkPacket(std::uint16_t apid, int count)
{
    mdb::PacketDef bulk;
    bulk.name = "Bulk";
    bulk.apid = apid;
    bulk.length = static_cast<std::uint32_t>(6 + 2 * count);
    for (int i = 0; i < count; ++i) {
        auto p = makeParameter("P" + std::to_string(1000 + i).substr(1), static_cast<std::uint32_t>(48 + 16 * i), 16);
        if (i % 10 == 0)
            p.limits = mdb::NumericLimits{50, 100, 60000, 65000, true};
        bulk.parameters.push_back(std::move(p));
    }
    return bulk;
}

} // namespace telestation::test
