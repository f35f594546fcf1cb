// Aligned CSV: time,<PACKET.PARAMETER>… — one row per time, one column per selected parameter of every
// selected packet type, the calibrated values. Packets that follow one another with the same time share
// a row unless a cell would be written twice (then a new row starts with that time again); a cell
// without a sample at that time is empty. Packets without a time get a row each with an empty time.
#include "core/archive/writer_detail.hpp"

namespace telestation::archive::detail {

namespace {

class AlignedCsvWriter final : public DecodedWriter {
public:
    AlignedCsvWriter(const pipeline::PacketTypeTable& table, const Selection& selection, std::FILE* out)
        : m_table(table), m_selection(selection), m_out(out), m_firstColumn(table.typeCount(), 0)
    {
        std::string& header = m_out.text;
        header += "time";
        std::string name;
        for (std::uint32_t t = 1; t < table.typeCount(); ++t) {
            if (!selection.selected(t))
                continue;
            m_firstColumn[t] = m_cells.size();
            for (const auto& column : selection.columns(t)) {
                name.assign(table.typeName(t));
                name += '.';
                name += table.definition(t).parameters[column.index].name;
                header.push_back(',');
                appendCsvField(header, name);
                m_cells.emplace_back();
            }
        }
        header.push_back('\n');
        m_filled.assign(m_cells.size(), 0);
    }

    void write(const DecodedPacket& p) override
    {
        const auto& plan = m_table.plan(p.type);
        const auto columns = m_selection.columns(p.type);
        const std::size_t first = m_firstColumn[p.type];
        if (m_rowOpen && (!p.timeNs || p.timeNs != m_rowTime || anyFilled(first, columns.size())))
            flushRow();
        m_rowOpen = true;
        m_rowTime = p.timeNs;
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const ValueFormat& f = columns[c];
            const decode::DecodedValue& v = p.values[f.index];
            if (!v.present)
                continue;
            std::string& cell = m_cells[first + c];
            cell.clear();
            appendCsvCalibrated(cell, m_scratch, f, v, byteField(f, plan, p.packet), plan);
            m_filled[first + c] = 1;
            ++m_values;
        }
    }

    Status finish() override
    {
        if (m_rowOpen)
            flushRow();
        if (const int error = m_out.finish(); error != 0)
            return writeError(error, "the output");
        return {};
    }

    [[nodiscard]] bool failed() const noexcept override { return m_out.error() != 0; }

private:
    [[nodiscard]] bool anyFilled(std::size_t first, std::size_t count) const noexcept
    {
        for (std::size_t c = first; c < first + count; ++c)
            if (m_filled[c])
                return true;
        return false;
    }

    void flushRow()
    {
        std::string& out = m_out.text;
        if (m_rowTime)
            appendIsoTime(out, *m_rowTime);
        for (std::size_t c = 0; c < m_cells.size(); ++c) {
            out.push_back(',');
            if (m_filled[c])
                out += m_cells[c];
            m_filled[c] = 0;
        }
        out.push_back('\n');
        m_rowOpen = false;
        m_out.writeIfFull();
    }

    const pipeline::PacketTypeTable& m_table;
    const Selection& m_selection;
    TextSink m_out;
    std::vector<std::size_t> m_firstColumn; // per type index: its first column
    std::vector<std::string> m_cells;       // per column: the open row's text (reused)
    std::vector<std::uint8_t> m_filled;     // per column: the open row has a value
    bool m_rowOpen = false;
    std::optional<std::int64_t> m_rowTime;
    std::string m_scratch;
};

} // namespace

std::unique_ptr<DecodedWriter> makeAlignedCsvWriter(const pipeline::PacketTypeTable& table, const Selection& selection,
                                                    std::FILE* out)
{
    return std::make_unique<AlignedCsvWriter>(table, selection, out);
}

} // namespace telestation::archive::detail
