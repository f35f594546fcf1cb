// Small builders for the pipeline's inputs, shared by the tests: packet settings by APID (and
// secondary id) or by packet name, and a packet type table that must build.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/mdb/model.hpp"
#include "core/pipeline/packet_types.hpp"

#include <QtGlobal>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace telestation::test {

inline config::PacketSettings byApid(std::uint16_t apid, std::optional<std::uint64_t> secondaryId,
                                     config::ProcessingMode mode)
{
    config::PacketSettings s;
    s.apid = apid;
    s.secondaryId = secondaryId;
    s.mode = mode;
    return s;
}

inline config::PacketSettings byName(std::string packet, config::ProcessingMode mode)
{
    config::PacketSettings s;
    s.packet = std::move(packet);
    s.mode = mode;
    return s;
}

// qFatal when the database does not make a table (a mistake in the test's database).
inline pipeline::PacketTypeTable buildTypeTable(const mdb::MissionDatabase& db)
{
    auto t = pipeline::PacketTypeTable::build(db);
    if (!t.ok())
        qFatal("%s", t.error().message.c_str());
    return std::move(t).value();
}

} // namespace telestation::test
