// A synthetic mission for the scale benchmarks (bench_mission, bench_gui_mission): N parameters in M
// packet types, generated deterministically, that looks like a real spacecraft's telemetry rather than
// a uniform block — subsystems (EPS, TCS, AOCS, ...) with housekeeping and diagnostic packets, a CUC
// secondary header on every packet, and parameters of every common kind:
//   - unsigned and signed integers of 1 to 32 bits (some unaligned, a few little-endian) with linear
//     polynomials and numeric limits, thermistors with point-pair tables, raw counters;
//   - float32 and float64 values with limits;
//   - enumerations (modes, statuses, on/off flags) with expected states;
//   - fixed strings, an on-board time (TIME calibrator) per packet;
//   - three APIDs shared by three packet types each, told apart by a TLM_ID byte (MATCH criteria);
//   - one packet in ten with a variable layout: a block of bytes sized by a length field, then the rest
//     of the packet placed after it, with a parameter present only in one mode and a terminated string.
// The result passes mdb::validate (the benchmarks check it).
#pragma once

#include "core/mdb/model.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace telestation::bench {

namespace detail {

struct Subsystem {
    const char* name;
    const char* title;
};

inline constexpr std::array<Subsystem, 10> kSubsystems = {{
    {"EPS", "electrical power"},  {"TCS", "thermal control"}, {"AOCS", "attitude and orbit control"},
    {"COMMS", "communications"},  {"OBC", "on-board computer"}, {"PL", "payload"},
    {"PROP", "propulsion"},       {"STR", "star tracker"},    {"GNSS", "navigation receiver"},
    {"MECH", "mechanisms"},
}};

inline constexpr std::array<const char*, 4> kPacketKinds = {"HK", "DIAG", "FAST", "SCI"};

// What a parameter of each slot of the cycle measures: name stem, units, description.
struct Measurand {
    const char* stem;
    const char* units;
    const char* what;
};

inline std::string padded(std::size_t value, int width)
{
    char text[32];
    std::snprintf(text, sizeof text, "%0*zu", width, value);
    return text;
}

// A cheap deterministic generator (splitmix64): the same mission for the same sizes, everywhere.
class Random {
public:
    explicit Random(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53; }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

private:
    std::uint64_t m_state;
};

inline mdb::ParameterDef field(std::string name, std::uint32_t bitLength, mdb::DataType type)
{
    mdb::ParameterDef p;
    p.name = std::move(name);
    p.bitLength = bitLength;
    p.type = type;
    return p;
}

inline mdb::EnumerationCalibrator states(std::initializer_list<const char*> texts)
{
    mdb::EnumerationCalibrator e;
    std::int64_t code = 0;
    for (const char* t : texts)
        e.states.push_back({code, code, t}), ++code;
    return e;
}

// Numeric limits around the middle of [lo, hi]: yellow at 10% from the ends, red at 3%.
inline mdb::NumericLimits limitsWithin(double lo, double hi)
{
    const double span = hi - lo;
    return mdb::NumericLimits{lo + 0.03 * span, lo + 0.10 * span, hi - 0.10 * span, hi - 0.03 * span, true};
}

// The parameter of cycle slot `slot` (0..19); `serial` makes its name unique in the mission.
inline mdb::ParameterDef makeParameter(const Subsystem& sub, std::size_t slot, std::size_t serial, Random& rng)
{
    static constexpr std::array<Measurand, 20> kCycle = {{
        {"BUS_VOLT", "V", "bus voltage"},          {"PANEL_TEMP", "degC", "panel temperature"},
        {"CURRENT", "A", "current draw"},          {"MODE", "", "operating mode"},
        {"CYCLE_COUNT", "", "cycle counter"},      {"HEATER_SW", "", "heater switch"},
        {"POSITION", "m", "position"},             {"RATE", "deg/s", "angular rate"},
        {"THERM", "degC", "thermistor"},           {"STATUS", "", "health status"},
        {"PRESSURE", "kPa", "pressure"},           {"ERR_COUNT", "", "error counter"},
        {"QUAT", "", "attitude quaternion component"}, {"LOAD_PCT", "%", "processor load"},
        {"REF_VOLT", "V", "reference voltage"},    {"SUBMODE", "", "sub-mode"},
        {"FLOW", "g/s", "flow rate"},              {"VELOCITY", "m/s", "velocity"},
        {"LABEL", "", "configuration label"},      {"BOARD_TEMP", "degC", "board temperature"},
    }};
    const Measurand& m = kCycle[slot];
    const std::string name = std::string(sub.name) + "_" + m.stem + "_" + padded(serial, 5);
    mdb::ParameterDef p;
    switch (slot) {
    case 0: // 16-bit raw, linear voltage
    case 14: {
        p = field(name, 16, mdb::DataType::UnsignedInt);
        const double scale = rng.uniform(0.0002, 0.001);
        p.calibrator = mdb::PolynomialCalibrator{{0.0, scale}};
        p.limits = limitsWithin(0, 65535 * scale);
        break;
    }
    case 1: { // signed 16-bit, linear temperature
        p = field(name, 16, mdb::DataType::SignedInt);
        p.calibrator = mdb::PolynomialCalibrator{{rng.uniform(-5, 5), 0.01}};
        p.limits = mdb::NumericLimits{-40, -20, 60, 85, true};
        break;
    }
    case 2: // 12-bit current, unaligned
        p = field(name, 12, mdb::DataType::UnsignedInt);
        p.calibrator = mdb::PolynomialCalibrator{{-0.05, 0.0025}};
        p.limits = limitsWithin(-0.05, 4095 * 0.0025 - 0.05);
        break;
    case 3:
        p = field(name, 4, mdb::DataType::UnsignedInt);
        p.calibrator = states({"OFF", "BOOT", "STANDBY", "NOMINAL", "SAFE", "MAINTENANCE"});
        p.limits = mdb::StateLimits{{"STANDBY", "NOMINAL", "MAINTENANCE"}, true};
        break;
    case 4: // raw counter
        p = field(name, 24, mdb::DataType::UnsignedInt);
        break;
    case 5:
        p = field(name, 1, mdb::DataType::UnsignedInt);
        p.calibrator = states({"OFF", "ON"});
        break;
    case 6: // float64
        p = field(name, 64, mdb::DataType::Float);
        p.limits = mdb::NumericLimits{-8e6, -7.5e6, 7.5e6, 8e6, true};
        break;
    case 7: // float32
    case 17:
        p = field(name, 32, mdb::DataType::Float);
        p.limits = limitsWithin(-1000, 1000);
        break;
    case 8: { // thermistor: 10-bit counts through a point table
        p = field(name, 10, mdb::DataType::UnsignedInt);
        mdb::PointPairCalibrator table;
        for (int k = 0; k < 6; ++k)
            table.points.push_back({k * 200.0 + 10.0, 100.0 - 28.0 * k + rng.uniform(-2, 2)});
        p.calibrator = table;
        p.limits = mdb::NumericLimits{-45, -30, 70, 90, true};
        break;
    }
    case 9:
        p = field(name, 2, mdb::DataType::UnsignedInt);
        p.calibrator = states({"GOOD", "DEGRADED", "FAILED", "UNKNOWN"});
        p.limits = mdb::StateLimits{{"GOOD"}, true};
        break;
    case 10: // little-endian 16-bit pressure
        p = field(name, 16, mdb::DataType::UnsignedInt);
        p.byteOrder = mdb::ByteOrder::LittleEndian;
        p.calibrator = mdb::PolynomialCalibrator{{0.0, 0.05}};
        p.limits = limitsWithin(0, 65535 * 0.05);
        break;
    case 11:
        p = field(name, 8, mdb::DataType::UnsignedInt);
        p.limits = mdb::NumericLimits{-1, -1, 10, 100, true};
        break;
    case 12:
        p = field(name, 32, mdb::DataType::Float);
        p.limits = mdb::NumericLimits{-1.001, -1.0005, 1.0005, 1.001, true};
        break;
    case 13: // 7-bit percentage
        p = field(name, 7, mdb::DataType::UnsignedInt);
        p.limits = mdb::NumericLimits{-1, -1, 85, 95, true};
        break;
    case 15:
        p = field(name, 3, mdb::DataType::UnsignedInt);
        p.calibrator = states({"IDLE", "ACQUIRE", "TRACK", "HOLD", "CALIBRATE"});
        break;
    case 16: { // signed 32-bit, quadratic calibration
        p = field(name, 32, mdb::DataType::SignedInt);
        p.calibrator = mdb::PolynomialCalibrator{{0.1, 1e-6, 1e-14}};
        break;
    }
    case 18:
        p = field(name, 64, mdb::DataType::String); // 8 characters
        break;
    default: // 19
        p = field(name, 14, mdb::DataType::SignMagnitudeInt);
        p.calibrator = mdb::PolynomialCalibrator{{0.0, 0.02}};
        p.limits = mdb::NumericLimits{-60, -45, 95, 120, true};
        break;
    }
    p.units = m.units;
    p.description = std::string(sub.title) + ": " + m.what + " " + std::to_string(serial);
    return p;
}

inline std::uint32_t bitsOf(const mdb::ParameterDef& p)
{
    return p.fixedSize() ? p.bitLength : 0;
}

} // namespace detail

struct SyntheticMissionInfo {
    std::size_t sharedApidPackets = 0; // packet types told apart by criteria
    std::size_t variablePackets = 0;
};

// `parameters` spread as evenly as possible over `packets` types (at least 1 packet, and at least 8
// parameters per packet so that every packet has its fixed header fields).
inline mdb::MissionDatabase syntheticMission(std::size_t parameters, std::size_t packets,
                                             SyntheticMissionInfo* info = nullptr)
{
    using namespace detail;
    packets = std::max<std::size_t>(packets, 1);
    parameters = std::max(parameters, packets * 8);
    Random rng(0x7e1e57a710ull + parameters * 131 + packets);
    mdb::MissionDatabase db;
    db.name = "Synthetic-" + std::to_string(parameters);
    SyntheticMissionInfo local;
    std::size_t serial = 0;
    for (std::size_t k = 0; k < packets; ++k) {
        const Subsystem& sub = kSubsystems[k % kSubsystems.size()];
        mdb::PacketDef pkt;
        pkt.name = std::string(sub.name) + "_" + kPacketKinds[(k / kSubsystems.size()) % kPacketKinds.size()] + "_"
            + padded(k, 2);
        pkt.description = std::string(sub.title) + " telemetry " + std::to_string(k);
        pkt.secondaryHeader = mdb::CucLayout{4, 2, false, mdb::TimeEpoch::Tai1958};
        // Packets 7, 8, 9 of every ten share an APID: their TLM_ID byte tells them apart.
        const std::size_t inTen = k % 10;
        const bool shared = inTen >= 7 && k - inTen + 9 < packets;
        pkt.apid = static_cast<std::uint16_t>(100 + (shared ? k - inTen + 7 : k));
        const bool variable = inTen == 4;
        const std::size_t count = parameters / packets + (k < parameters % packets ? 1 : 0);

        std::uint32_t cursor = 96; // after the primary header and the 6-byte CUC time
        const auto append = [&](mdb::ParameterDef p) {
            p.bitOffset = cursor;
            cursor += bitsOf(p);
            pkt.parameters.push_back(std::move(p));
        };
        if (shared) {
            mdb::ParameterDef id = field(std::string(sub.name) + "_TLM_ID_" + padded(serial++, 5), 8,
                                         mdb::DataType::UnsignedInt);
            id.description = "telemetry packet identifier";
            pkt.criteria.push_back({cursor, 8, mdb::CompareOp::Equal, inTen - 6});
            append(std::move(id));
            ++local.sharedApidPackets;
        }
        {
            mdb::ParameterDef obt = field(std::string(sub.name) + "_OBT_" + padded(serial++, 5), 32,
                                          mdb::DataType::UnsignedInt);
            obt.calibrator = mdb::TimeCalibrator{mdb::kEpochGps1980, 1.0, 0.0};
            obt.units = "s";
            obt.description = "on-board time of the last measurement";
            append(std::move(obt));
        }
        // A variable packet: the first third fixed, then LEN, the block sized by it, then the rest
        // placed after the block; one parameter of the rest present only in mode NOMINAL.
        const std::size_t fixedPart = variable ? count / 3 : count;
        std::size_t modeIndex = SIZE_MAX;
        for (std::size_t i = pkt.parameters.size(); i < count; ++i) {
            if (variable && i == fixedPart) {
                mdb::ParameterDef len = field(std::string(sub.name) + "_BLOCK_LEN_" + padded(serial++, 5), 16,
                                              mdb::DataType::UnsignedInt);
                len.description = "length of the memory dump block, bytes";
                len.units = "B";
                append(std::move(len));
                mdb::ParameterDef block = field(std::string(sub.name) + "_BLOCK_" + padded(serial++, 5), 0,
                                                mdb::DataType::Bytes);
                block.placement = mdb::Placement::AfterPrevious;
                block.bitOffset = 0;
                block.size.kind = mdb::SizeKind::FromParameter;
                block.size.sizeParameter = pkt.parameters.back().name;
                block.size.sizeSlope = 8;
                block.size.maxBytes = 64;
                block.description = "memory dump block";
                pkt.parameters.push_back(std::move(block));
                i += 1; // two parameters added
                continue;
            }
            mdb::ParameterDef p = makeParameter(sub, i % 20, serial++, rng);
            if (variable && i > fixedPart) {
                if (i == fixedPart + 7) { // a note of up to 16 characters, NUL-terminated
                    p = field(std::string(sub.name) + "_NOTE_" + padded(serial - 1, 5), 0, mdb::DataType::String);
                    p.size.kind = mdb::SizeKind::Terminated;
                    p.size.terminator = 0;
                    p.size.maxBytes = 16;
                    p.description = "operator note of the last command";
                }
                if (i == fixedPart + 5 && modeIndex != SIZE_MAX)
                    p.includeWhen.push_back({pkt.parameters[modeIndex].name, mdb::CompareOp::Equal, 3.0, false});
                p.placement = mdb::Placement::AfterPrevious;
                p.bitOffset = 0;
                pkt.parameters.push_back(std::move(p));
                continue;
            }
            if (i % 20 == 3)
                modeIndex = pkt.parameters.size();
            // Strings, floats and little-endian fields start on a byte, as on most spacecraft.
            if (p.type == mdb::DataType::String || p.type == mdb::DataType::Float || p.byteOrder)
                cursor = (cursor + 7) / 8 * 8;
            append(std::move(p));
        }
        if (variable) {
            // Fixed part, LEN, then the rest with the block empty and the conditional field absent, at
            // the least; the block, the conditional field and the string at their largest, at the most.
            std::uint32_t leastBits = 0, mostBits = 0;
            for (std::size_t i = fixedPart + 2; i < pkt.parameters.size(); ++i) {
                const auto& p = pkt.parameters[i];
                const std::uint32_t bits = p.fixedSize() ? p.bitLength : 8; // a terminated string: its NUL
                mostBits += bits;
                if (p.includeWhen.empty())
                    leastBits += bits;
            }
            pkt.variableLength = true;
            pkt.length = (cursor + leastBits + 7) / 8;
            pkt.maxLength = (cursor + mostBits + 7) / 8 + 64 + 16;
            ++local.variablePackets;
        } else {
            pkt.length = (cursor + 7) / 8;
        }
        db.packets.push_back(std::move(pkt));
    }
    if (info)
        *info = local;
    return db;
}

} // namespace telestation::bench
