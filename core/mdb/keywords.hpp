// The words that name the model's enumerations — in the text definition language, in the SQLite
// store's code columns, and in messages. One table per enumeration, shared by all of them.
#pragma once

#include "core/mdb/model.hpp"

#include <array>
#include <cmath>
#include <string_view>
#include <utility>

namespace telestation::mdb {

inline constexpr std::array<std::pair<std::string_view, ByteOrder>, 2> kByteOrderKeywords{{
    {"BIG_ENDIAN", ByteOrder::BigEndian},
    {"LITTLE_ENDIAN", ByteOrder::LittleEndian},
}};
inline constexpr std::array<std::pair<std::string_view, DataType>, 7> kDataTypeKeywords{{
    {"UINT", DataType::UnsignedInt},
    {"INT", DataType::SignedInt},
    {"FLOAT", DataType::Float},
    {"STRING", DataType::String},
    {"BYTES", DataType::Bytes},
    {"INT_SIGN_MAGNITUDE", DataType::SignMagnitudeInt},
    {"INT_ONES_COMPLEMENT", DataType::OnesComplementInt},
}};
// Epochs of a CUC secondary header.
inline constexpr std::array<std::pair<std::string_view, TimeEpoch>, 3> kEpochKeywords{{
    {"TAI", TimeEpoch::Tai1958},
    {"GPS", TimeEpoch::Gps1980},
    {"UNIX", TimeEpoch::Unix1970},
}};
// Named epochs of a time calibrator (TimeCalibrator::epochUnixSeconds).
inline constexpr std::array<std::pair<std::string_view, double>, 4> kNamedEpochs{{
    {"TAI", kEpochTai1958},
    {"GPS", kEpochGps1980},
    {"UNIX", kEpochUnix1970},
    {"J2000", kEpochJ2000},
}};
inline constexpr std::array<std::pair<std::string_view, CompareOp>, 6> kCompareOpKeywords{{
    {"==", CompareOp::Equal},
    {"!=", CompareOp::NotEqual},
    {"<", CompareOp::Less},
    {"<=", CompareOp::LessOrEqual},
    {">", CompareOp::Greater},
    {">=", CompareOp::GreaterOrEqual},
}};
// Size kinds, as the SQLite store names them (the text language says FROM / TERMINATED / LEADING
// after SIZE, and nothing for a fixed size).
inline constexpr std::array<std::pair<std::string_view, SizeKind>, 4> kSizeKindKeywords{{
    {"FIXED", SizeKind::Fixed},
    {"FROM", SizeKind::FromParameter},
    {"TERMINATED", SizeKind::Terminated},
    {"LEADING", SizeKind::LeadingSize},
}};
inline constexpr std::array<std::pair<std::string_view, Placement>, 2> kPlacementKeywords{{
    {"ABSOLUTE", Placement::Absolute},
    {"AFTER_PREVIOUS", Placement::AfterPrevious},
}};

namespace detail {
template <typename E, std::size_t N>
constexpr std::string_view keywordIn(const std::array<std::pair<std::string_view, E>, N>& table, E value)
{
    for (const auto& [word, v] : table)
        if (v == value)
            return word;
    return "?";
}
} // namespace detail

[[nodiscard]] constexpr std::string_view keyword(ByteOrder v) { return detail::keywordIn(kByteOrderKeywords, v); }
[[nodiscard]] constexpr std::string_view keyword(DataType v) { return detail::keywordIn(kDataTypeKeywords, v); }
[[nodiscard]] constexpr std::string_view keyword(TimeEpoch v) { return detail::keywordIn(kEpochKeywords, v); }
[[nodiscard]] constexpr std::string_view keyword(CompareOp v) { return detail::keywordIn(kCompareOpKeywords, v); }
[[nodiscard]] constexpr std::string_view keyword(SizeKind v) { return detail::keywordIn(kSizeKindKeywords, v); }
[[nodiscard]] constexpr std::string_view keyword(Placement v) { return detail::keywordIn(kPlacementKeywords, v); }

// The name of a named epoch whose value has exactly these bits (so -0.0 is not UNIX), or empty.
[[nodiscard]] inline std::string_view namedEpoch(double epochUnixSeconds)
{
    for (const auto& [word, value] : kNamedEpochs)
        if (value == epochUnixSeconds && std::signbit(value) == std::signbit(epochUnixSeconds))
            return word;
    return {};
}

} // namespace telestation::mdb
