// DecodePlan: a packet definition compiled once into a flat array of field operations, so that
// decoding a packet is a tight loop with no allocation, no virtual call and no map lookup per
// parameter. Yields, for each parameter, raw / converted / calibrated values and a limit state.
//
// Layouts: the parameters up to the first one whose place, size or presence depends on the packet's
// data form the fixed part, decoded at offsets computed at compile time (the fast path). From that
// parameter on (the variable part), each parameter is placed per packet: at its absolute offset, or
// after the end of the previous present parameter; its size comes from another parameter, a
// terminator or a leading count; a condition may leave it out. Still no allocation per packet.
#pragma once

#include "core/ccsds/cuc_time.hpp"
#include "core/common/result.hpp"
#include "core/decode/decoded_value.hpp"
#include "core/mdb/model.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::decode {

// The CUC format of a packet's secondary header, its epoch as Unix seconds.
[[nodiscard]] ccsds::CucFormat cucFormat(const mdb::CucLayout& layout) noexcept;

// How a packet's bytes met its layout.
enum class LayoutStatus : std::uint8_t {
    Complete, // every parameter that should be there is there (a fixed layout may leave trailing ones absent)
    Short,    // the packet ends before a parameter of the variable part that it should hold
    BadSize,  // a size taken from the packet's data is negative or larger than its bound
};

[[nodiscard]] std::string_view layoutStatusText(LayoutStatus status) noexcept;

struct LayoutReport {
    LayoutStatus status = LayoutStatus::Complete;
    // One past the last bit of the last present parameter of a variable layout; for a fixed layout,
    // the end of the layout whatever the packet's length (a short packet leaves the parameters it
    // lacks absent, status Complete): only a variable layout's end depends on the packet.
    std::uint32_t endBit = 0;
    std::int32_t failedIndex = -1; // the parameter where the layout failed (Short, BadSize)
    [[nodiscard]] std::uint32_t endByte() const noexcept { return (endBit + 7) / 8; }
};

class DecodePlan {
public:
    // Compiles a packet definition. Fails (with a message naming the parameter) on a definition the
    // decoder cannot execute — one that validation would also reject, e.g. a 65-bit integer.
    [[nodiscard]] static Result<DecodePlan> compile(const mdb::PacketDef& packet);

    [[nodiscard]] std::size_t parameterCount() const noexcept { return m_ops.size(); }
    // The packet size at which every parameter of the fixed part is present.
    [[nodiscard]] std::size_t requiredSize() const noexcept { return m_requiredSize; }
    // True when every parameter's place and size are known before the packet arrives.
    [[nodiscard]] bool fixedLayout() const noexcept { return m_fixedCount == m_ops.size(); }
    // Parameters [0, fixedCount()) form the fixed part.
    [[nodiscard]] std::size_t fixedCount() const noexcept { return m_fixedCount; }

    // Where parameter `index` lies in this packet (for the fixed part: where it lies in any packet).
    struct Location {
        std::uint32_t bitOffset = 0; // the value's first bit (after a leading count)
        std::uint32_t bitLength = 0; // the value's bits (String/Bytes: all of them)
        bool present = false;        // false: the condition does not hold, or the layout failed before it
        // Where the field begins (a leading count included), known when every field before it could be
        // placed and its condition holds, even if its own size could not be read.
        std::uint32_t startBit = 0;
        bool startKnown = false;
    };
    [[nodiscard]] Location locate(std::span<const std::uint8_t> packet, std::size_t index) const noexcept;

    // Decodes every parameter of `packet` (the whole space packet, primary header first) into
    // out[0 .. parameterCount()). out must have room for parameterCount() values. Parameters the
    // packet is too short for, or whose condition does not hold, are marked absent. Returns the number
    // of parameters present; `report`, when given, says where the layout ended and whether it fitted.
    std::size_t decode(std::span<const std::uint8_t> packet, std::span<DecodedValue> out,
                       LayoutReport* report = nullptr) const noexcept;

    // Decodes one parameter (index as in the packet definition). A parameter of the fixed part without
    // context calibration is read directly; any other decodes the packet up to it (no allocation
    // after the first call on a thread).
    [[nodiscard]] DecodedValue decodeOne(std::span<const std::uint8_t> packet, std::size_t index) const noexcept;

    // The bytes of a String or Bytes parameter (at any bit offset) copied into out; returns the count
    // copied (0 when absent). For a String, trailing NUL bytes are included; see stringValue().
    std::size_t extractBytes(std::span<const std::uint8_t> packet, std::size_t index,
                             std::span<std::uint8_t> out) const noexcept;
    // A String parameter as text, trailing NULs removed. Allocates: for displays, not the hot path.
    [[nodiscard]] std::string stringValue(std::span<const std::uint8_t> packet, std::size_t index) const;

    // The text of a decoded enumeration state, or "" when the value has none.
    [[nodiscard]] std::string_view stateText(std::size_t index, const DecodedValue& value) const noexcept;

    [[nodiscard]] mdb::DataType dataType(std::size_t index) const noexcept
    {
        return static_cast<mdb::DataType>(m_ops[index].type);
    }
    // True when the calibrated value is a time: seconds since the Unix epoch (mdb::TimeCalibrator).
    [[nodiscard]] bool isTime(std::size_t index) const noexcept { return m_ops[index].calKind == CalKind::Time; }

    [[nodiscard]] bool hasPacketTime() const noexcept { return m_time.has_value(); }
    // The packet time from the CUC secondary header, ns since the Unix epoch; false when the packet
    // has no time (no secondary header defined, packet too short, or a P-field that does not match).
    [[nodiscard]] bool packetTime(std::span<const std::uint8_t> packet, std::int64_t& unixNs) const noexcept;

private:
    enum : std::uint8_t { kLittleEndian = 1, kContext = 2 };
    enum class CalKind : std::uint8_t { None, Polynomial, PointPair, Enumeration, Time };
    enum class LimitKind : std::uint8_t { None, Numeric, States };

    // One parameter: where its bits are and what to do with them. 24 bytes, kept in one array. In the
    // variable part, bitOffset / endByte / bitLength are filled in per packet on a copy.
    struct FieldOp {
        std::uint32_t bitOffset;
        std::uint32_t endByte;   // one past the field's last byte
        std::uint8_t bitLength;  // 1..64 (String/Bytes: 8 * min(8, bytes))
        std::uint8_t type;       // mdb::DataType
        std::uint8_t flags;
        CalKind calKind;
        LimitKind limitKind;
        std::uint8_t byteCount;  // bytes of the value for little-endian reversal
        std::uint16_t pad = 0;
        std::uint32_t calIndex;  // into m_polys / m_pointRanges / m_stateRanges / m_times
        std::uint32_t limitIndex;// into m_numericLimits
    };
    // How a parameter of the variable part is placed, sized and included.
    struct VariableOp {
        std::uint32_t offset;     // absolute bit offset, or the gap after the previous parameter
        bool absolute;
        mdb::SizeKind sizeKind;
        std::uint8_t leadingSizeBits;
        std::uint8_t terminator;
        std::uint32_t fixedBits;  // Fixed: the field's bits
        std::uint32_t sizeIndex;  // FromParameter: the parameter giving the size
        double slope, intercept;  // FromParameter
        std::uint32_t maxBits;    // bound on a data-given size (0: the packet's end)
        std::uint32_t conditionFirst, conditionCount; // into m_conditions
    };
    struct Condition {
        std::uint32_t index; // the compared parameter
        mdb::CompareOp op;
        bool calibrated;
        double value;
    };
    struct Calibration { CalKind kind; std::uint32_t index; };
    struct Context { std::uint32_t conditionFirst, conditionCount; Calibration calibration; };
    struct Poly { double c[6]; std::uint32_t count; };
    struct Range { std::uint32_t first; std::uint32_t count; };
    struct NumericLimit { double redLow, yellowLow, yellowHigh, redHigh; };
    struct Time { double base, scale; }; // calibrated = base + scale * x
    // Where a field of the variable part lies in one packet: its value's bits (after any leading
    // count) and the bits it takes in all (value, leading count, terminator).
    struct Place { std::uint32_t startBit, valueBit, valueBits, totalBits; bool started; };

    [[nodiscard]] Result<Calibration> compileCalibrator(const mdb::Calibrator& calibrator, bool integer);
    [[nodiscard]] std::uint32_t compileConditions(const std::vector<mdb::Condition>& conditions,
                                                  const mdb::PacketDef& packet, std::size_t self, std::string& error);
    void decodeField(const FieldOp& op, const std::uint8_t* bytes, bool fast, std::uint32_t bytesLength,
                     DecodedValue& v) const noexcept;
    [[nodiscard]] double calibrate(Calibration c, double x, std::int64_t code, DecodedValue& v) const noexcept;
    [[nodiscard]] LimitState checkLimits(const FieldOp& op, const DecodedValue& v) const noexcept;
    [[nodiscard]] bool holds(std::uint32_t first, std::uint32_t count, std::span<const DecodedValue> values) const noexcept;
    void applyContext(const FieldOp& op, std::span<const DecodedValue> values, DecodedValue& v) const noexcept;
    [[nodiscard]] LayoutStatus place(const VariableOp& vop, std::span<const std::uint8_t> packet,
                                     std::span<const DecodedValue> values, std::uint32_t cursor, Place& at) const noexcept;
    // Decodes parameters [0, last] (all when last is out of range); places[i - m_fixedCount] receives
    // the place of each variable-part parameter when given.
    std::size_t decodeUpTo(std::span<const std::uint8_t> packet, std::span<DecodedValue> out, std::size_t last,
                           LayoutReport* report, std::span<Place> places) const noexcept;

    std::vector<FieldOp> m_ops;
    std::vector<VariableOp> m_variable;        // parameters m_fixedCount.. of m_ops
    std::size_t m_fixedCount = 0;
    std::uint32_t m_fixedCursor = 0;           // the end of the fixed part's last parameter, in bits
    std::vector<Condition> m_conditions;
    std::vector<Range> m_contextRanges;        // per op: its context calibrations in m_contexts (kContext)
    std::vector<Context> m_contexts;
    std::vector<Poly> m_polys;
    std::vector<Range> m_pointRanges;
    std::vector<mdb::PointPair> m_points;
    std::vector<Range> m_stateRanges;
    std::vector<mdb::State> m_states;
    std::vector<Time> m_times;
    std::vector<NumericLimit> m_numericLimits;
    std::vector<std::uint8_t> m_stateExpected;   // parallel to m_states: 1 = an expected state
    std::vector<std::uint32_t> m_bytesLength;    // String/Bytes of the fixed part: length in bytes (0 otherwise)
    std::size_t m_requiredSize = 0;
    std::optional<ccsds::CucFormat> m_time;
};

} // namespace telestation::decode
