// The words that name the model's enumerations — in the text definition language, in the SQLite
// store's code columns, and in messages. One table per enumeration, shared by all of them.
#pragma once

#include "core/mdb/model.hpp"

#include <array>
#include <string_view>
#include <utility>

namespace telestation::mdb {

inline constexpr std::array<std::pair<std::string_view, ByteOrder>, 2> kByteOrderKeywords{{
    {"BIG_ENDIAN", ByteOrder::BigEndian},
    {"LITTLE_ENDIAN", ByteOrder::LittleEndian},
}};
inline constexpr std::array<std::pair<std::string_view, DataType>, 5> kDataTypeKeywords{{
    {"UINT", DataType::UnsignedInt},
    {"INT", DataType::SignedInt},
    {"FLOAT", DataType::Float},
    {"STRING", DataType::String},
    {"BYTES", DataType::Bytes},
}};
inline constexpr std::array<std::pair<std::string_view, TimeEpoch>, 3> kEpochKeywords{{
    {"TAI", TimeEpoch::Tai1958},
    {"GPS", TimeEpoch::Gps1980},
    {"UNIX", TimeEpoch::Unix1970},
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

} // namespace telestation::mdb
