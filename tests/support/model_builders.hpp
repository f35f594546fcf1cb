// Small builders for mission-database model objects, shared by the tests.
#pragma once

#include "core/mdb/model.hpp"

#include <string>

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

} // namespace telestation::test
