#include "core/archive/decode_run.hpp"

#include "core/ccsds/space_packet.hpp"

#include <algorithm>

namespace telestation::archive {

namespace {

constexpr std::size_t kExamplesPerReason = 5;

std::string plural(std::uint64_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

} // namespace

DecodeRun::DecodeRun(const pipeline::PacketTypeTable& table, const Selection& selection, PacketSink& sink,
                     const PacketInput& input, DecodeRunOptions options)
    : m_table(table), m_selection(selection), m_sink(sink), m_input(input), m_options(std::move(options)),
      m_values(std::max<std::uint32_t>(1, table.maxParametersPerPacket())), m_decodedByType(table.typeCount(), 0)
{
}

std::string_view DecodeRun::reasonName(Reason r)
{
    switch (r) {
    case Reason::BadPrimaryHeader: return inputProblemName(InputProblemKind::BadPrimaryHeader);
    case Reason::LengthMismatch: return inputProblemName(InputProblemKind::LengthMismatch);
    case Reason::Truncated: return inputProblemName(InputProblemKind::TruncatedPacket);
    case Reason::Short: return "shorter than its layout";
    case Reason::BadSize: return "a size out of range";
    case Reason::Count: break;
    }
    return "?";
}

DecodeRun::Reason DecodeRun::reasonOf(InputProblemKind kind)
{
    switch (kind) {
    case InputProblemKind::BadPrimaryHeader: return Reason::BadPrimaryHeader;
    case InputProblemKind::LengthMismatch: return Reason::LengthMismatch;
    case InputProblemKind::TruncatedPacket: return Reason::Truncated;
    }
    return Reason::BadPrimaryHeader;
}

void DecodeRun::onPacket(const InputPacket& in)
{
    tick();
    const auto packet = in.packet;
    const std::uint32_t type = m_table.classify(packet);
    if (type == pipeline::kUnknownType) {
        const auto apid = ccsds::readPrimaryHeader(packet.data()).apid;
        if (apid == ccsds::kIdleApid)
            ++m_idle;
        else
            ++m_unknownByApid[apid];
        return;
    }
    const auto& plan = m_table.plan(type);
    const auto& def = m_table.definition(type);
    decode::LayoutReport layout;
    plan.decode(packet, std::span(m_values.data(), plan.parameterCount()), &layout);
    if (packet.size() < def.length) {
        malformed(Reason::Short, in, type,
                  std::to_string(packet.size()) + " bytes, its definition has at least " + std::to_string(def.length));
        return;
    }
    if (layout.status != decode::LayoutStatus::Complete) {
        const std::string parameter = layout.failedIndex >= 0
            ? def.parameters[static_cast<std::size_t>(layout.failedIndex)].name
            : std::string("?");
        malformed(layout.status == decode::LayoutStatus::Short ? Reason::Short : Reason::BadSize, in, type,
                  layout.status == decode::LayoutStatus::Short
                      ? std::to_string(packet.size()) + " bytes end before parameter " + parameter
                      : "parameter " + parameter + " has a size out of range");
        return;
    }
    ++m_decoded;
    ++m_decodedByType[type];
    // A packet longer than its layout (or its definition's length) decodes; the rest is ignored.
    const std::size_t layoutEnd = plan.fixedLayout() ? plan.requiredSize() : layout.endByte();
    const std::size_t end = std::max<std::size_t>(layoutEnd, def.length);
    if (packet.size() > end) {
        ++m_long.count;
        m_extraBytes += packet.size() - end;
        if (m_long.examples.size() < kExamplesPerReason)
            m_long.examples.push_back(where(in, type) + ": " + std::to_string(packet.size()) + " bytes, "
                                      + plural(packet.size() - end, "byte", "bytes") + " past the end of its layout");
    }
    if (!m_selection.selected(type))
        return;
    DecodedPacket out{in.index, in.receiveTimeNs, type, packet, std::span(m_values.data(), plan.parameterCount()),
                      in.stream};
    std::int64_t packetTime = 0;
    if (!out.timeNs && plan.hasPacketTime() && plan.packetTime(packet, packetTime))
        out.timeNs = packetTime;
    if (!inRange(out.timeNs))
        return;
    m_sink.write(out);
    ++m_written;
}

void DecodeRun::onProblem(const InputProblem& problem)
{
    tick();
    InputPacket at;
    at.index = problem.index;
    at.byteOffset = problem.byteOffset;
    malformed(reasonOf(problem.kind), at, pipeline::kUnknownType, problem.detail);
}

bool DecodeRun::stopRequested() const
{
    return m_options.stop != nullptr && m_options.stop->load(std::memory_order_relaxed);
}

std::uint64_t DecodeRun::unknownPackets() const noexcept
{
    std::uint64_t unknown = 0;
    for (const auto& [apid, n] : m_unknownByApid)
        unknown += n;
    return unknown;
}

std::uint64_t DecodeRun::malformedPackets() const noexcept
{
    std::uint64_t n = 0;
    for (const auto& t : m_malformed)
        n += t.count;
    return n;
}

bool DecodeRun::summarize(std::ostream& err, std::string_view prefix, const std::string& inputPath,
                          std::uint64_t valuesWritten, const std::string& damage) const
{
    std::uint64_t unknown = 0;
    for (const auto& [apid, n] : m_unknownByApid)
        unknown += n;
    std::uint64_t malformedCount = 0;
    for (const auto& t : m_malformed)
        malformedCount += t.count;
    err << prefix << inputPath << " (" << inputKindName(m_input.kind())
        << "): " << plural(m_packets, "packet", "packets") << ": " << m_decoded << " decoded, " << unknown
        << " unknown, " << malformedCount << " malformed";
    if (m_idle > 0)
        err << ", " << m_idle << " idle (APID 2047, skipped)";
    err << '\n';
    err << "  written: " << plural(m_written, "packet", "packets") << ", "
        << plural(valuesWritten, "parameter value", "parameter values") << '\n';
    if (m_decoded > 0) {
        err << "  decoded, by packet type:\n";
        for (std::uint32_t t = 1; t < m_decodedByType.size(); ++t)
            if (m_decodedByType[t] > 0)
                err << "    " << m_table.typeName(t) << ": " << m_decodedByType[t] << '\n';
    }
    if (unknown > 0) {
        err << "  unknown (no definition), by APID:\n";
        for (const auto& [apid, n] : m_unknownByApid)
            err << "    APID " << apid << ": " << plural(n, "packet", "packets") << '\n';
    }
    if (malformedCount > 0) {
        err << "  malformed, by reason:\n";
        for (std::size_t r = 0; r < m_malformed.size(); ++r) {
            const Tally& t = m_malformed[r];
            if (t.count == 0)
                continue;
            err << "    " << reasonName(static_cast<Reason>(r)) << ": " << plural(t.count, "packet", "packets")
                << '\n';
            for (const auto& e : t.examples)
                err << "      " << e << '\n';
            if (t.count > t.examples.size())
                err << "      …\n";
        }
    }
    if (m_long.count > 0) {
        err << "  long packets (decoded, extra bytes ignored): " << plural(m_long.count, "packet", "packets")
            << " with " << plural(m_extraBytes, "extra byte", "extra bytes") << '\n';
        for (const auto& e : m_long.examples)
            err << "      " << e << '\n';
        if (m_long.count > m_long.examples.size())
            err << "      …\n";
    }
    if (!damage.empty())
        err << "  recording damaged: " << damage << '\n';
    return unknown == 0 && malformedCount == 0 && damage.empty();
}

void DecodeRun::tick()
{
    ++m_packets;
    if ((m_packets & 1023) == 0 && m_options.progress)
        m_options.progress(m_input.fraction(), m_packets);
}

bool DecodeRun::inRange(const std::optional<std::int64_t>& timeNs) const noexcept
{
    if (m_options.fromNs == 0 && m_options.toNs == 0)
        return true;
    return timeNs && (m_options.fromNs == 0 || *timeNs >= m_options.fromNs)
        && (m_options.toNs == 0 || *timeNs <= m_options.toNs);
}

std::string DecodeRun::where(const InputPacket& in, std::uint32_t type) const
{
    std::string out = "packet " + std::to_string(in.index);
    if (m_input.kind() == InputKind::PacketFile)
        out += " at byte offset " + std::to_string(in.byteOffset);
    if (type != pipeline::kUnknownType)
        out += " (" + std::string(m_table.typeName(type)) + ")";
    return out;
}

void DecodeRun::malformed(Reason reason, const InputPacket& in, std::uint32_t type, const std::string& detail)
{
    Tally& t = m_malformed[static_cast<std::size_t>(reason)];
    ++t.count;
    if (t.examples.size() < kExamplesPerReason)
        t.examples.push_back(where(in, type) + ": " + detail);
}

} // namespace telestation::archive
