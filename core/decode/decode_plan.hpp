// DecodePlan: a packet definition compiled once into a flat array of field operations, so that
// decoding a packet is a tight loop with no allocation, no virtual call and no map lookup per
// parameter. Yields, for each parameter, raw / converted / calibrated values and a limit state.
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

class DecodePlan {
public:
    // Compiles a packet definition. Fails (with a message naming the parameter) on a definition the
    // decoder cannot execute — one that validation would also reject, e.g. a 65-bit integer.
    [[nodiscard]] static Result<DecodePlan> compile(const mdb::PacketDef& packet);

    [[nodiscard]] std::size_t parameterCount() const noexcept { return m_ops.size(); }
    // The packet size at which every parameter is present.
    [[nodiscard]] std::size_t requiredSize() const noexcept { return m_requiredSize; }

    // Decodes every parameter of `packet` (the whole space packet, primary header first) into
    // out[0 .. parameterCount()). out must have room for parameterCount() values. Parameters the
    // packet is too short for are marked absent. Returns the number of parameters present.
    std::size_t decode(std::span<const std::uint8_t> packet, std::span<DecodedValue> out) const noexcept;

    // Decodes one parameter (index as in the packet definition).
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

    [[nodiscard]] bool hasPacketTime() const noexcept { return m_time.has_value(); }
    // The packet time from the CUC secondary header, ns since the Unix epoch; false when the packet
    // has no time (no secondary header defined, packet too short, or a P-field that does not match).
    [[nodiscard]] bool packetTime(std::span<const std::uint8_t> packet, std::int64_t& unixNs) const noexcept;

private:
    enum : std::uint8_t { kLittleEndian = 1, kSigned = 2 };
    enum class CalKind : std::uint8_t { None, Polynomial, PointPair, Enumeration };
    enum class LimitKind : std::uint8_t { None, Numeric, States };

    // One parameter: where its bits are and what to do with them. 24 bytes, kept in one array.
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
        std::uint32_t calIndex;  // into m_polys / m_pointRanges / m_stateRanges
        std::uint32_t limitIndex;// into m_numericLimits
    };
    struct Poly { double c[6]; std::uint32_t count; };
    struct Range { std::uint32_t first; std::uint32_t count; };
    struct NumericLimit { double redLow, yellowLow, yellowHigh, redHigh; };

    void decodeField(const FieldOp& op, const std::uint8_t* bytes, bool fast, DecodedValue& v) const noexcept;
    [[nodiscard]] double calibrate(const FieldOp& op, double x, std::int64_t code, DecodedValue& v) const noexcept;
    [[nodiscard]] LimitState checkLimits(const FieldOp& op, const DecodedValue& v) const noexcept;

    std::vector<FieldOp> m_ops;
    std::vector<Poly> m_polys;
    std::vector<Range> m_pointRanges;
    std::vector<mdb::PointPair> m_points;
    std::vector<Range> m_stateRanges;
    std::vector<mdb::State> m_states;
    std::vector<NumericLimit> m_numericLimits;
    std::vector<std::uint8_t> m_stateExpected;   // parallel to m_states: 1 = an expected state
    std::vector<std::uint32_t> m_bytesLength;    // String/Bytes: full length in bytes, per op (0 otherwise)
    std::size_t m_requiredSize = 0;
    std::optional<ccsds::CucFormat> m_time;
};

} // namespace telestation::decode
