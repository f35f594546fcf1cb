// Decoded values as text — the output of `telestation-mdb decode` and of the recordings browser's
// export: which packet types and parameters are written (Selection) and the formats (DecodedWriter):
// CSV with one row per parameter sample, wide CSV with one row per packet, aligned CSV with one row per
// time, and JSON lines with one object per packet. docs/decode.md shows each with an example.
//
// Writers append to a reused text buffer and hand it to the output FILE in blocks of about 64 KiB: no
// allocation per packet once the buffer has grown. Wide CSV writes one section per packet type; the
// first type seen goes straight to the output, the others are spooled to unlinked temporary files
// (in $TMPDIR, else /tmp) and appended at the end, so that memory stays constant for any input size.
#pragma once

#include "core/common/result.hpp"
#include "core/decode/decoded_value.hpp"
#include "core/pipeline/packet_types.hpp"
#include "core/archive/value_text.hpp"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace telestation::archive {

// Csv: one row per parameter sample. WideCsv: one row per packet, a section per packet type.
// AlignedCsv: one row per time, every selected parameter of every selected type a column
// ("PACKET.PARAMETER"), empty where that time has no sample of it. Jsonl: one object per packet.
enum class OutputFormat : std::uint8_t { Csv, WideCsv, AlignedCsv, Jsonl };

// The packet types and parameters to write.
class Selection {
public:
    // packets: packet names (empty: every packet type). parameters: "PARAMETER" (in every selected
    // packet that has it) or "PACKET.PARAMETER" (which selects its packet when `packets` is empty);
    // empty: every parameter of each selected packet. With parameters but no packets, the packets
    // selected are those holding a listed parameter. Errors (for exit status 2) say which name is not
    // in the mission or not in the selected packets.
    [[nodiscard]] static Result<Selection> build(const pipeline::PacketTypeTable& table,
                                                 const std::vector<std::string>& packets,
                                                 const std::vector<std::string>& parameters);

    [[nodiscard]] bool selected(std::uint32_t type) const noexcept { return type < m_selected.size() && m_selected[type]; }
    // The selected parameters of a type, in definition order.
    [[nodiscard]] std::span<const ValueFormat> columns(std::uint32_t type) const noexcept { return m_columns[type]; }
    // The only selected type, when exactly one is selected.
    [[nodiscard]] std::optional<std::uint32_t> onlyType() const noexcept;

private:
    std::vector<std::uint8_t> m_selected;            // per type index
    std::vector<std::vector<ValueFormat>> m_columns; // per type index
};

// One decoded packet as the writers get it.
struct DecodedPacket {
    std::uint64_t index = 0;
    std::optional<std::int64_t> timeNs;            // receive time (recordings) or packet time (CUC)
    std::uint32_t type = 0;                        // a type index of the PacketTypeTable, never unknown
    std::span<const std::uint8_t> packet;          // the space packet
    std::span<const decode::DecodedValue> values;  // every parameter of the type (absent ones marked)
    std::string_view stream;                       // recordings: the recorded stream's name
};

// Where decoded packets go (DecodeRun's output): a DecodedWriter, or samples on their way to a client.
class PacketSink {
public:
    virtual ~PacketSink() = default;
    virtual void write(const DecodedPacket& packet) = 0;
};

class DecodedWriter : public PacketSink {
public:
    // `out` stays the caller's (it is flushed, not closed). The table and selection must outlive the writer.
    [[nodiscard]] static std::unique_ptr<DecodedWriter> create(OutputFormat format, const pipeline::PacketTypeTable& table,
                                                               const Selection& selection, std::FILE* out);
    // write(): a packet of a selected type.
    // Writes what is buffered (and, for wide CSV, the spooled sections) and flushes `out`. An error
    // says what could not be written; the writer has then stopped writing at the first failure.
    [[nodiscard]] virtual Status finish() = 0;
    // True once a write has failed (a full disk, a file size limit): nothing more is written, finish()
    // says why. A caller may stop reading then rather than decode the rest for nothing.
    [[nodiscard]] virtual bool failed() const noexcept = 0;

    [[nodiscard]] std::uint64_t valuesWritten() const noexcept { return m_values; }

protected:
    std::uint64_t m_values = 0;
};

} // namespace telestation::archive
