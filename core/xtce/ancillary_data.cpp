#include "core/xtce/ancillary_data.hpp"

#include "core/xtce/xml_numbers.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace telestation::xtce::anc {

namespace {

std::vector<std::string_view> tokens(std::string_view text)
{
    std::vector<std::string_view> out;
    while (!text.empty()) {
        const std::size_t blank = text.find(' ');
        out.push_back(text.substr(0, blank));
        text = blank == std::string_view::npos ? std::string_view {} : text.substr(blank + 1);
    }
    return out;
}

std::optional<std::uint32_t> parseUint32(std::string_view text)
{
    const auto value = parseUnsigned(text);
    if (!value || *value > UINT32_MAX)
        return std::nullopt;
    return static_cast<std::uint32_t>(*value);
}

} // namespace

std::string lengthText(const mdb::PacketDef& packet)
{
    if (packet.variableLength)
        return "VARIABLE " + std::to_string(packet.length) + " " + std::to_string(packet.maxLength);
    return std::to_string(packet.length);
}

std::optional<PacketLength> parseLengthText(std::string_view text)
{
    const auto words = tokens(text);
    if (words.size() == 1) {
        auto fixed = parseUint32(words[0]);
        if (!fixed)
            return std::nullopt;
        return PacketLength { *fixed, false, 0 };
    }
    if (words.size() != 3 || words[0] != "VARIABLE")
        return std::nullopt;
    auto minimum = parseUint32(words[1]);
    auto maximum = parseUint32(words[2]);
    if (!minimum || !maximum)
        return std::nullopt;
    return PacketLength { *minimum, true, *maximum };
}

std::string_view epochKeyword(mdb::TimeEpoch epoch)
{
    switch (epoch) {
    case mdb::TimeEpoch::Tai1958:
        return "TAI";
    case mdb::TimeEpoch::Gps1980:
        return "GPS";
    case mdb::TimeEpoch::Unix1970:
        return "UNIX";
    }
    return "TAI";
}

std::string cucText(const mdb::CucLayout& cuc)
{
    return "CUC " + std::to_string(cuc.coarseBytes) + " " + std::to_string(cuc.fineBytes)
        + (cuc.hasPField ? " PFIELD" : "") + " EPOCH " + std::string(epochKeyword(cuc.epoch));
}

std::optional<mdb::CucLayout> parseCucText(std::string_view text)
{
    const auto words = tokens(text);
    if (words.size() < 5 || words[0] != "CUC")
        return std::nullopt;
    mdb::CucLayout cuc;
    const auto coarse = parseUnsigned(words[1]);
    const auto fine = parseUnsigned(words[2]);
    std::size_t next = 3;
    cuc.hasPField = words[next] == "PFIELD";
    if (cuc.hasPField)
        ++next;
    if (!coarse || !fine || *coarse > 255 || *fine > 255 || next + 2 != words.size() || words[next] != "EPOCH")
        return std::nullopt;
    std::optional<mdb::TimeEpoch> epoch;
    for (const auto e : { mdb::TimeEpoch::Tai1958, mdb::TimeEpoch::Gps1980, mdb::TimeEpoch::Unix1970 })
        if (epochKeyword(e) == words[next + 1])
            epoch = e;
    if (!epoch)
        return std::nullopt;
    cuc.coarseBytes = static_cast<std::uint8_t>(*coarse);
    cuc.fineBytes = static_cast<std::uint8_t>(*fine);
    cuc.epoch = *epoch;
    return cuc;
}

std::string timeText(const mdb::TimeCalibrator& time)
{
    return formatDouble(time.epochUnixSeconds) + " " + formatDouble(time.scale) + " " + formatDouble(time.offset);
}

std::optional<mdb::TimeCalibrator> parseTimeText(std::string_view text)
{
    const auto words = tokens(text);
    if (words.size() != 3)
        return std::nullopt;
    std::array<double, 3> values {};
    for (std::size_t i = 0; i < values.size(); ++i) {
        auto value = parseDouble(words[i]);
        if (!value)
            return std::nullopt;
        values[i] = *value;
    }
    return mdb::TimeCalibrator { values[0], values[1], values[2] };
}

std::string_view byteOrderKeyword(mdb::ByteOrder order)
{
    return order == mdb::ByteOrder::LittleEndian ? "LITTLE_ENDIAN" : "BIG_ENDIAN";
}

mdb::ByteOrder parseByteOrderKeyword(std::string_view text)
{
    return text == "LITTLE_ENDIAN" ? mdb::ByteOrder::LittleEndian : mdb::ByteOrder::BigEndian;
}

} // namespace telestation::xtce::anc
