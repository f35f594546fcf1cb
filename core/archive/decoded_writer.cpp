#include "core/archive/decoded_writer.hpp"

#include "core/archive/writer_detail.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <unistd.h>

namespace telestation::archive {

// ---- Selection -------------------------------------------------------------------------------------

namespace {

std::string packetList(const pipeline::PacketTypeTable& table)
{
    constexpr std::uint32_t kShown = 12;
    std::string out;
    for (std::uint32_t t = 1; t < table.typeCount() && t <= kShown; ++t)
        out += (t > 1 ? ", " : "") + std::string(table.typeName(t));
    if (table.typeCount() - 1 > kShown)
        out += ", … (" + std::to_string(table.typeCount() - 1) + " in all)";
    return out.empty() ? "none" : out;
}

std::optional<std::size_t> parameterIndex(const mdb::PacketDef& def, std::string_view name)
{
    for (std::size_t i = 0; i < def.parameters.size(); ++i)
        if (def.parameters[i].name == name)
            return i;
    return std::nullopt;
}

} // namespace

Result<Selection> Selection::build(const pipeline::PacketTypeTable& table, const std::vector<std::string>& packets,
                                   const std::vector<std::string>& parameters)
{
    const std::uint32_t types = table.typeCount();
    std::vector<std::uint8_t> chosenPacket(types, 0);
    for (const auto& name : packets) {
        const auto type = table.typeByName(name);
        if (!type)
            return Error{"no packet '" + name + "' in the mission (packets: " + packetList(table) + ")", {}};
        chosenPacket[*type] = 1;
    }
    const bool byPacket = !packets.empty();

    struct Wanted {
        std::uint32_t type = 0; // 0: in any selected packet
        std::string name;
        std::string asGiven;
        bool matched = false;
    };
    std::vector<Wanted> wanted;
    for (const auto& text : parameters) {
        Wanted w{0, text, text, false};
        if (const auto dot = text.find('.'); dot != std::string::npos) {
            if (const auto type = table.typeByName(std::string_view(text).substr(0, dot))) {
                w.type = *type;
                w.name = text.substr(dot + 1);
                if (!parameterIndex(table.definition(*type), w.name))
                    return Error{"packet " + std::string(table.typeName(*type)) + " has no parameter '" + w.name + "'", {}};
                if (byPacket && !chosenPacket[*type])
                    return Error{"parameter " + text + ": packet " + std::string(table.typeName(*type))
                                     + " is not among the --packet selection",
                                 {}};
            }
        }
        wanted.push_back(std::move(w));
    }

    Selection s;
    s.m_selected.assign(types, 0);
    s.m_columns.resize(types);
    for (std::uint32_t t = 1; t < types; ++t) {
        const auto& def = table.definition(t);
        std::vector<std::uint8_t> chosen(def.parameters.size(), parameters.empty() ? 1 : 0);
        bool matched = false;
        for (auto& w : wanted) {
            if (w.type != t && (w.type != 0 || (byPacket && !chosenPacket[t])))
                continue;
            if (const auto i = parameterIndex(def, w.name)) {
                chosen[*i] = 1;
                w.matched = matched = true;
            }
        }
        s.m_selected[t] = byPacket ? chosenPacket[t] : (parameters.empty() || matched ? 1 : 0);
        if (!s.m_selected[t])
            continue;
        for (std::size_t i = 0; i < def.parameters.size(); ++i)
            if (chosen[i])
                s.m_columns[t].push_back(valueFormat(def.parameters[i], static_cast<std::uint32_t>(i), table.plan(t)));
    }
    for (const auto& w : wanted)
        if (!w.matched)
            return Error{"parameter '" + w.asGiven + "' is in none of the "
                             + (byPacket ? std::string("selected packets") : std::string("mission's packets")),
                         {}};
    return s;
}

std::optional<std::uint32_t> Selection::onlyType() const noexcept
{
    std::optional<std::uint32_t> only;
    for (std::uint32_t t = 0; t < m_selected.size(); ++t) {
        if (!m_selected[t])
            continue;
        if (only)
            return std::nullopt;
        only = t;
    }
    return only;
}

// ---- Writers ---------------------------------------------------------------------------------------

namespace {

using namespace detail;

// packet_index,time,packet,parameter,raw,converted,calibrated,limit — one row per parameter sample.
class CsvWriter final : public DecodedWriter {
public:
    CsvWriter(const pipeline::PacketTypeTable& table, const Selection& selection, std::FILE* out)
        : m_table(table), m_selection(selection), m_out(out), m_names(quotedNames(table, selection, appendCsvField))
    {
        m_out.text += "packet_index,time,packet,parameter,raw,converted,calibrated,limit\n";
    }

    void write(const DecodedPacket& p) override
    {
        const auto& plan = m_table.plan(p.type);
        const auto columns = m_selection.columns(p.type);
        const Names& names = m_names[p.type];
        std::string& out = m_out.text;
        // What every row of this packet starts with, made once: "index,time,packet,".
        m_rowStart.clear();
        appendUnsigned(m_rowStart, p.index);
        m_rowStart.push_back(',');
        if (p.timeNs)
            appendIsoTime(m_rowStart, *p.timeNs);
        m_rowStart.push_back(',');
        m_rowStart += names.packet;
        m_rowStart.push_back(',');
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const ValueFormat& f = columns[c];
            const decode::DecodedValue& v = p.values[f.index];
            if (!v.present)
                continue;
            const ByteField field = byteField(f, plan, p.packet);
            out += m_rowStart;
            out += names.parameter[c];
            out.push_back(',');
            appendRaw(out, f, v, field); // digits or hex: never quoted
            out.push_back(',');
            appendCsvConverted(out, m_scratch, f, v, field);
            out.push_back(',');
            appendCsvCalibrated(out, m_scratch, f, v, field, plan);
            out.push_back(',');
            out += decode::limitStateName(v.limit);
            out.push_back('\n');
            ++m_values;
        }
        m_out.writeIfFull();
    }

    Status finish() override
    {
        if (const int error = m_out.finish(); error != 0)
            return writeError(error, "the output");
        return {};
    }

    [[nodiscard]] bool failed() const noexcept override { return m_out.error() != 0; }

private:
    const pipeline::PacketTypeTable& m_table;
    const Selection& m_selection;
    TextSink m_out;
    std::vector<Names> m_names;
    std::string m_scratch;
    std::string m_rowStart;
};

// A temporary file that is gone once closed (unlinked at creation): $TMPDIR, else /tmp.
std::FILE* spoolFile()
{
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/telestation-decode-XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0)
        return nullptr;
    ::unlink(pattern.c_str());
    std::FILE* file = ::fdopen(fd, "w+b");
    if (file == nullptr)
        ::close(fd);
    return file;
}

// packet_index,time,packet,<parameter>… — one row per packet, the calibrated values; one section
// per packet type in the order the types first appear, separated by an empty line, each with its
// header row.
class WideCsvWriter final : public DecodedWriter {
public:
    WideCsvWriter(const pipeline::PacketTypeTable& table, const Selection& selection, std::FILE* out)
        : m_table(table), m_selection(selection), m_out(out), m_names(quotedNames(table, selection, appendCsvField)),
          m_sections(table.typeCount())
    {
    }
    ~WideCsvWriter() override
    {
        for (auto& s : m_sections)
            if (s.spool)
                std::fclose(s.spool->file());
    }
    WideCsvWriter(const WideCsvWriter&) = delete;
    WideCsvWriter& operator=(const WideCsvWriter&) = delete;

    void write(const DecodedPacket& p) override
    {
        TextSink* sink = sectionFor(p.type);
        if (sink == nullptr)
            return;
        const auto& plan = m_table.plan(p.type);
        std::string& out = sink->text;
        appendUnsigned(out, p.index);
        out.push_back(',');
        if (p.timeNs)
            appendIsoTime(out, *p.timeNs);
        out.push_back(',');
        out += m_names[p.type].packet;
        for (const ValueFormat& f : m_selection.columns(p.type)) {
            out.push_back(',');
            const decode::DecodedValue& v = p.values[f.index];
            if (!v.present)
                continue;
            appendCsvCalibrated(out, m_scratch, f, v, byteField(f, plan, p.packet), plan);
            ++m_values;
        }
        out.push_back('\n');
        sink->writeIfFull();
    }

    Status finish() override
    {
        // One selected type that never came: its header all the same, for a table with no rows.
        if (m_order.empty())
            if (const auto only = m_selection.onlyType())
                header(*only, m_out.text);
        for (const std::uint32_t type : m_order) {
            Section& s = m_sections[type];
            if (!s.spool)
                continue;
            if (const int error = s.spool->finish(); error != 0)
                return writeError(error, "a temporary file");
            std::rewind(s.spool->file());
            m_out.text.push_back('\n');
            m_out.writeOut();
            char block[kBlock];
            std::size_t n = 0;
            while ((n = std::fread(block, 1, sizeof block, s.spool->file())) > 0 && m_out.error() == 0) {
                m_out.text.append(block, n);
                m_out.writeOut();
            }
            if (std::ferror(s.spool->file()))
                return writeError(errno != 0 ? errno : EIO, "a temporary file");
        }
        if (const int error = m_out.finish(); error != 0)
            return writeError(error, "the output");
        return {};
    }

    [[nodiscard]] bool failed() const noexcept override
    {
        return m_out.error() != 0
            || std::any_of(m_sections.begin(), m_sections.end(),
                           [](const Section& s) { return s.spool && s.spool->error() != 0; });
    }

private:
    struct Section {
        bool started = false;
        std::unique_ptr<TextSink> spool; // null for the section written straight to the output
    };

    void header(std::uint32_t type, std::string& out) const
    {
        out += "packet_index,time,packet";
        for (const auto& name : m_names[type].parameter) {
            out.push_back(',');
            out += name;
        }
        out.push_back('\n');
    }

    TextSink* sectionFor(std::uint32_t type)
    {
        Section& s = m_sections[type];
        if (!s.started) {
            s.started = true;
            if (!m_order.empty()) {
                std::FILE* file = spoolFile();
                if (file == nullptr) {
                    m_out.fail(errno != 0 ? errno : EIO);
                    return nullptr;
                }
                s.spool = std::make_unique<TextSink>(file);
            }
            m_order.push_back(type);
            header(type, s.spool ? s.spool->text : m_out.text);
        }
        if (m_out.error() != 0)
            return nullptr;
        return s.spool ? s.spool.get() : &m_out;
    }

    const pipeline::PacketTypeTable& m_table;
    const Selection& m_selection;
    TextSink m_out;
    std::vector<Names> m_names;
    std::vector<Section> m_sections; // per type index
    std::vector<std::uint32_t> m_order;
    std::string m_scratch;
};

// {"index":…,"time":…,"packet":…,"apid":…,"parameters":{"NAME":{"raw":…,"converted":…,"calibrated":…,"limit":…}}}
class JsonlWriter final : public DecodedWriter {
public:
    JsonlWriter(const pipeline::PacketTypeTable& table, const Selection& selection, std::FILE* out)
        : m_table(table), m_selection(selection), m_out(out), m_names(quotedNames(table, selection, appendJsonString))
    {
    }

    void write(const DecodedPacket& p) override
    {
        const auto& plan = m_table.plan(p.type);
        const auto columns = m_selection.columns(p.type);
        const Names& names = m_names[p.type];
        std::string& out = m_out.text;
        out += "{\"index\":";
        appendUnsigned(out, p.index);
        out += ",\"time\":";
        if (p.timeNs) {
            out.push_back('"');
            appendIsoTime(out, *p.timeNs);
            out.push_back('"');
        } else {
            out += "null";
        }
        out += ",\"packet\":";
        out += names.packet;
        out += ",\"apid\":";
        appendUnsigned(out, m_table.definition(p.type).apid);
        out += ",\"parameters\":{";
        bool first = true;
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const ValueFormat& f = columns[c];
            const decode::DecodedValue& v = p.values[f.index];
            if (!v.present)
                continue;
            const ByteField field = byteField(f, plan, p.packet);
            if (!first)
                out.push_back(',');
            first = false;
            out += names.parameter[c];
            out += ":{\"raw\":";
            m_scratch.clear();
            appendRaw(m_scratch, f, v, field);
            value(out, rawJsonKind(f));
            out += ",\"converted\":";
            m_scratch.clear();
            appendConverted(m_scratch, f, v, field);
            value(out, convertedJsonKind(f, v));
            out += ",\"calibrated\":";
            m_scratch.clear();
            appendCalibrated(m_scratch, f, v, field, plan);
            value(out, calibratedJsonKind(f, v));
            out += ",\"limit\":\"";
            out += decode::limitStateName(v.limit);
            out += "\"}";
            ++m_values;
        }
        out += "}}\n";
        m_out.writeIfFull();
    }

    Status finish() override
    {
        if (const int error = m_out.finish(); error != 0)
            return writeError(error, "the output");
        return {};
    }

    [[nodiscard]] bool failed() const noexcept override { return m_out.error() != 0; }

private:
    // m_scratch as the JSON value of that kind.
    void value(std::string& out, JsonKind kind) const
    {
        switch (kind) {
        case JsonKind::Number: out += m_scratch; return;
        case JsonKind::String: appendJsonString(out, m_scratch); return;
        case JsonKind::Null: out += "null"; return;
        }
    }

    const pipeline::PacketTypeTable& m_table;
    const Selection& m_selection;
    TextSink m_out;
    std::vector<Names> m_names;
    std::string m_scratch;
};

} // namespace

std::unique_ptr<DecodedWriter> DecodedWriter::create(OutputFormat format, const pipeline::PacketTypeTable& table,
                                                     const Selection& selection, std::FILE* out)
{
    switch (format) {
    case OutputFormat::Csv: return std::make_unique<CsvWriter>(table, selection, out);
    case OutputFormat::WideCsv: return std::make_unique<WideCsvWriter>(table, selection, out);
    case OutputFormat::Jsonl: return std::make_unique<JsonlWriter>(table, selection, out);
    case OutputFormat::AlignedCsv: return detail::makeAlignedCsvWriter(table, selection, out);
    }
    return nullptr;
}

} // namespace telestation::archive
