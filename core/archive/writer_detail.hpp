// Internal to core/archive: what the decoded-value writers share — text written to a FILE in blocks,
// the names each format writes, where a string or bytes parameter lies in a packet.
#pragma once

#include "core/archive/decoded_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::archive::detail {

inline constexpr std::size_t kBlock = std::size_t{64} * 1024;

// Text on its way to a FILE: appended to `text`, written in blocks; remembers the first failure.
class TextSink {
public:
    explicit TextSink(std::FILE* file) : m_file(file) { text.reserve(2 * kBlock); }

    std::string text;

    void writeIfFull()
    {
        if (text.size() >= kBlock)
            writeOut();
    }
    void writeOut()
    {
        if (!text.empty() && m_error == 0 && std::fwrite(text.data(), 1, text.size(), m_file) != text.size())
            m_error = errno != 0 ? errno : EIO;
        text.clear();
    }
    // Writes and flushes; the errno of the first failure, or 0.
    [[nodiscard]] int finish()
    {
        writeOut();
        if (m_error == 0 && (std::fflush(m_file) != 0 || std::ferror(m_file) != 0))
            m_error = errno != 0 ? errno : EIO;
        return m_error;
    }
    [[nodiscard]] std::FILE* file() const noexcept { return m_file; }
    [[nodiscard]] int error() const noexcept { return m_error; }
    void fail(int error) noexcept
    {
        if (m_error == 0)
            m_error = error;
    }

private:
    std::FILE* m_file;
    int m_error = 0;
};

inline Status writeError(int error, std::string_view what)
{
    return Error{"cannot write " + std::string(what) + ": " + std::strerror(error), {}};
}

// Names in the form each format writes them, worked out once.
struct Names {
    std::string packet;                 // quoted (CSV) or escaped with quotes (JSON)
    std::vector<std::string> parameter; // per selected column
};

template <typename Quote>
std::vector<Names> quotedNames(const pipeline::PacketTypeTable& table, const Selection& selection, Quote quote)
{
    std::vector<Names> names(table.typeCount());
    for (std::uint32_t t = 1; t < table.typeCount(); ++t) {
        if (!selection.selected(t))
            continue;
        quote(names[t].packet, table.typeName(t));
        for (const auto& column : selection.columns(t)) {
            names[t].parameter.emplace_back();
            quote(names[t].parameter.back(), table.definition(t).parameters[column.index].name);
        }
    }
    return names;
}

inline ByteField byteField(const ValueFormat& format, const decode::DecodePlan& plan, std::span<const std::uint8_t> packet)
{
    return mdb::isByteSequence(format.type) ? locateBytes(plan, packet, format.index) : ByteField{packet, 0, 0};
}

// A value as a CSV field: written straight when its kind never needs quoting, else through `scratch`.
inline void appendCsvConverted(std::string& out, std::string& scratch, const ValueFormat& f,
                               const decode::DecodedValue& v, const ByteField& field)
{
    if (!convertedMayNeedQuoting(f)) {
        appendConverted(out, f, v, field);
        return;
    }
    scratch.clear();
    appendConverted(scratch, f, v, field);
    appendCsvField(out, scratch);
}

inline void appendCsvCalibrated(std::string& out, std::string& scratch, const ValueFormat& f,
                                const decode::DecodedValue& v, const ByteField& field, const decode::DecodePlan& plan)
{
    if (!calibratedMayNeedQuoting(f)) {
        appendCalibrated(out, f, v, field, plan);
        return;
    }
    scratch.clear();
    appendCalibrated(scratch, f, v, field, plan);
    appendCsvField(out, scratch);
}

// One row per time, the selected parameters of every selected type as columns (aligned_csv_writer.cpp).
[[nodiscard]] std::unique_ptr<DecodedWriter> makeAlignedCsvWriter(const pipeline::PacketTypeTable& table,
                                                                  const Selection& selection, std::FILE* out);

} // namespace telestation::archive::detail
