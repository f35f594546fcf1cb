// DecodeRun: the decode loop shared by `telestation-mdb decode`, the recordings browser's export and the
// API's archive queries. It is the InputSink a PacketInput reads into: it classifies each packet by the
// mission's packet types, decodes it with its plan into one reused array of values, checks it against
// its layout, counts what it could not decode (unknown APIDs, malformed packets by reason, with the first
// few examples) and hands the selected packets inside the time range to a DecodedWriter or any other
// PacketSink. No allocation per packet once warm.
//
// Progress and cancelling: `progress` (optional) is called every 1024 packets with the input's
// fraction read and the packets so far; `stop` (optional), set from any thread, ends the read at the
// next packet (the output so far is kept; the caller decides what to do with it).
#pragma once

#include "core/archive/decoded_writer.hpp"
#include "core/archive/packet_file_reader.hpp"
#include "core/decode/decoded_value.hpp"
#include "core/pipeline/packet_types.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace telestation::archive {

struct DecodeRunOptions {
    // The time range of what is passed on (the `time` a writer writes: receive time for recordings,
    // else the packet time), inclusive, 0 = open end. With a range, packets without a time are not
    // passed on. (A recording's range is best also given to PacketInput, so it skips what is outside.)
    std::int64_t fromNs = 0;
    std::int64_t toNs = 0;
    std::function<void(double fraction, std::uint64_t packets)> progress;
    const std::atomic<bool>* stop = nullptr;
};

class DecodeRun final : public InputSink {
public:
    // Everything referenced must outlive the run.
    DecodeRun(const pipeline::PacketTypeTable& table, const Selection& selection, PacketSink& sink,
              const PacketInput& input, DecodeRunOptions options = {});

    void onPacket(const InputPacket& in) override;
    void onProblem(const InputProblem& problem) override;
    [[nodiscard]] bool stopRequested() const override;

    [[nodiscard]] std::uint64_t packetsRead() const noexcept { return m_packets; }
    [[nodiscard]] std::uint64_t packetsDecoded() const noexcept { return m_decoded; }
    [[nodiscard]] std::uint64_t packetsWritten() const noexcept { return m_written; }
    [[nodiscard]] std::uint64_t unknownPackets() const noexcept;
    [[nodiscard]] std::uint64_t malformedPackets() const noexcept;

    // The summary, lines beginning with `prefix` where a line starts a message ("telestation-mdb
    // decode: "): packets read, decoded, unknown by APID, malformed by reason with examples, long
    // packets, the recording's damage. `valuesWritten` is the writer's count. Returns true when every
    // packet decoded and nothing was damaged.
    bool summarize(std::ostream& out, std::string_view prefix, const std::string& inputPath,
                   std::uint64_t valuesWritten, const std::string& damage) const;

private:
    // Why a packet did not decode; the first three come from the input.
    enum class Reason : std::uint8_t { BadPrimaryHeader, LengthMismatch, Truncated, Short, BadSize, Count };
    struct Tally {
        std::uint64_t count = 0;
        std::vector<std::string> examples; // the first few: where and why
    };
    static std::string_view reasonName(Reason r);
    static Reason reasonOf(InputProblemKind kind);

    void tick();
    [[nodiscard]] bool inRange(const std::optional<std::int64_t>& timeNs) const noexcept;
    [[nodiscard]] std::string where(const InputPacket& in, std::uint32_t type) const;
    void malformed(Reason reason, const InputPacket& in, std::uint32_t type, const std::string& detail);

    const pipeline::PacketTypeTable& m_table;
    const Selection& m_selection;
    PacketSink& m_sink;
    const PacketInput& m_input;
    DecodeRunOptions m_options;
    std::vector<decode::DecodedValue> m_values;
    std::uint64_t m_packets = 0;
    std::uint64_t m_decoded = 0;
    std::uint64_t m_written = 0;
    std::uint64_t m_idle = 0;
    std::vector<std::uint64_t> m_decodedByType;
    std::map<std::uint16_t, std::uint64_t> m_unknownByApid;
    std::array<Tally, static_cast<std::size_t>(Reason::Count)> m_malformed;
    Tally m_long;
    std::uint64_t m_extraBytes = 0;
};

} // namespace telestation::archive
