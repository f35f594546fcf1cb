#include "rpc/archive_service.hpp"

#include "core/archive/decode_run.hpp"
#include "core/archive/decoded_writer.hpp"
#include "core/archive/packet_file_reader.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/pipeline/packet_types.hpp"
#include "core/record/playback.hpp"
#include "rpc/proto_convert.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>

namespace telestation::rpc {

namespace {

constexpr std::uint32_t kDefaultParameterBatch = 4096;
constexpr std::uint32_t kMaxParameterBatch = 65536;
constexpr std::uint32_t kDefaultPacketBatch = 1024;
constexpr std::uint32_t kMaxPacketBatch = 16384;
constexpr std::uint32_t kMaxTransportHeader = 65536;
constexpr std::size_t kMaxDamageText = 2000; // metadata stays well under gRPC's 8 KiB
constexpr const char* kSummaryKey = "telestation-archive-summary";
constexpr const char* kDamageKey = "telestation-archive-damage";

std::uint32_t batchSize(std::uint32_t asked, std::uint32_t fallback, std::uint32_t most)
{
    return asked == 0 ? fallback : std::min(asked, most);
}

// The recording directory, or NOT_FOUND saying why there is none to query.
Result<std::string> recordingDirectory(const pipeline::Station& station)
{
    std::string directory = station.profile().recordingDirectory;
    std::error_code ec;
    if (directory.empty() || !std::filesystem::exists(std::filesystem::path(directory) / "catalog.sqlite", ec))
        return Error{"no recordings: the station's recording directory " + (directory.empty() ? std::string("(none)") : directory)
                         + " has no catalog.sqlite yet",
                     {}};
    return directory;
}

// An error opening a selection: a stream or segment the recording does not have is the caller's
// mistake; anything else (unreadable catalog or files) is the station's.
grpc::Status openFailed(const Error& error)
{
    const std::string text = error.toString();
    const bool callers = text.find("is not in the recording") != std::string::npos;
    return {callers ? grpc::StatusCode::INVALID_ARGUMENT : grpc::StatusCode::FAILED_PRECONDITION, text};
}

grpc::Status rangeChecked(std::int64_t start, std::int64_t stop)
{
    if (start < 0 || stop < 0 || (start != 0 && stop != 0 && start > stop))
        return {grpc::StatusCode::INVALID_ARGUMENT,
                "the time range is ns since 1970 with start <= stop (0 = open end), not [" + std::to_string(start) + ", "
                    + std::to_string(stop) + "]"};
    return grpc::Status::OK;
}

// The recording a query reads: its time range, streams, segments and transport header checked, the
// station's recording directory opened with that selection.
template <typename Request>
grpc::Status openInput(const pipeline::Station& station, const Request& request, std::unique_ptr<archive::PacketInput>& out)
{
    if (auto st = rangeChecked(request.start_ns(), request.stop_ns()); !st.ok())
        return st;
    if (request.transport_header_bytes() > kMaxTransportHeader)
        return {grpc::StatusCode::INVALID_ARGUMENT, "transport_header_bytes is at most " + std::to_string(kMaxTransportHeader)};
    archive::InputOptions o;
    o.transportHeaderBytes = request.transport_header_bytes();
    o.fromNs = request.start_ns();
    o.toNs = request.stop_ns();
    o.streams.assign(request.streams().begin(), request.streams().end());
    o.segments.assign(request.segments().begin(), request.segments().end());
    const auto directory = recordingDirectory(station);
    if (!directory)
        return {grpc::StatusCode::NOT_FOUND, directory.error().message};
    auto input = archive::PacketInput::open(*directory, std::move(o));
    if (!input)
        return openFailed(input.error());
    out = std::move(*input);
    return grpc::Status::OK;
}

// Metadata values are printable ASCII: anything else becomes '?'.
std::string metadataText(std::string_view text, std::size_t most)
{
    std::string out;
    for (const char c : text.substr(0, most))
        out.push_back(c >= 0x20 && c < 0x7f ? c : '?');
    if (text.size() > most)
        out += "...";
    return out;
}

void addSummary(grpc::ServerContext& context, const std::string& counts, const std::string& damage)
{
    context.AddTrailingMetadata(kSummaryKey, counts);
    if (!damage.empty())
        context.AddTrailingMetadata(kDamageKey, metadataText(damage, kMaxDamageText));
}

// Recorded stream names as ids of this call, each named once in the batch that first uses it.
class CallStreamIds {
public:
    template <typename Batch>
    std::uint32_t id(std::string_view name, Batch& batch)
    {
        if (m_lastId != 0 && name == m_lastName)
            return m_lastId;
        auto it = m_ids.find(name);
        if (it == m_ids.end()) {
            it = m_ids.emplace(std::string(name), static_cast<std::uint32_t>(m_ids.size() + 1)).first;
            auto* entry = batch.add_stream_names();
            entry->set_id(it->second);
            entry->set_name(it->first);
        }
        m_lastName = it->first;
        m_lastId = it->second;
        return m_lastId;
    }

private:
    std::map<std::string, std::uint32_t, std::less<>> m_ids;
    std::string m_lastName;
    std::uint32_t m_lastId = 0;
};

// The decoded packets' selected parameters as ParameterBatch messages on the call.
class SampleBatcher final : public archive::PacketSink {
public:
    SampleBatcher(const pipeline::PacketTypeTable& types, const archive::Selection& selection,
                  grpc::ServerWriter<v1::ParameterBatch>& writer, std::uint32_t maxBatch, std::atomic<bool>& stop)
        : m_types(types), m_selection(selection), m_writer(writer), m_maxBatch(maxBatch), m_stop(stop)
    {
    }

    void write(const archive::DecodedPacket& p) override
    {
        if (m_stop.load(std::memory_order_relaxed))
            return;
        const auto& plan = m_types.plan(p.type);
        const auto& def = m_types.definition(p.type);
        std::int64_t packetTime = 0;
        if (!plan.hasPacketTime() || !plan.packetTime(p.packet, packetTime))
            packetTime = 0;
        pipeline::ParameterSample sample;
        sample.streamId = static_cast<std::uint16_t>(m_streams.id(p.stream, m_batch));
        sample.packetTimeNs = packetTime;
        sample.receiveTimeNs = p.timeNs.value_or(0);
        const std::uint32_t first = m_types.firstParameterId(p.type);
        for (const auto& column : m_selection.columns(p.type)) {
            sample.parameterId = first + column.index;
            sample.value = p.values[column.index];
            if (!sample.value.present)
                continue;
            toProto(sample, &def.parameters[column.index], *m_batch.add_samples());
            ++m_samples;
            if (static_cast<std::uint32_t>(m_batch.samples_size()) >= m_maxBatch)
                flush();
        }
    }

    // Sends what is batched; a failed write (the client went away) stops the query.
    void flush()
    {
        if (m_batch.samples_size() == 0 && m_batch.stream_names_size() == 0)
            return;
        m_delivered += static_cast<std::uint64_t>(m_batch.samples_size());
        m_batch.set_delivered(m_delivered);
        if (!m_writer.Write(m_batch))
            m_stop.store(true);
        m_batch.Clear();
    }

    [[nodiscard]] std::uint64_t samples() const noexcept { return m_samples; }

private:
    const pipeline::PacketTypeTable& m_types;
    const archive::Selection& m_selection;
    grpc::ServerWriter<v1::ParameterBatch>& m_writer;
    std::uint32_t m_maxBatch;
    std::atomic<bool>& m_stop;
    CallStreamIds m_streams;
    v1::ParameterBatch m_batch;
    std::uint64_t m_delivered = 0;
    std::uint64_t m_samples = 0;
};

// The recorded packets of the chosen types as PacketBatch messages on the call.
class PacketBatcher final : public archive::InputSink {
public:
    PacketBatcher(const pipeline::PacketTypeTable& types, std::vector<std::uint8_t> chosenTypes,
                  grpc::ServerWriter<v1::PacketBatch>& writer, std::uint32_t maxBatch,
                  const std::function<bool()>& ended)
        : m_types(types), m_chosen(std::move(chosenTypes)), m_writer(writer), m_maxBatch(maxBatch), m_ended(ended)
    {
    }

    void onPacket(const archive::InputPacket& in) override
    {
        ++m_read;
        const std::uint32_t type = m_types.classify(in.packet);
        if (type == pipeline::kUnknownType)
            ++m_unknown;
        if (!m_chosen.empty() && !m_chosen[type])
            return;
        auto* packet = m_batch.add_packets();
        packet->set_frame(in.packet.data(), in.packet.size());
        packet->set_receive_time_ns(in.receiveTimeNs.value_or(0));
        packet->set_stream_id(m_streams.id(in.stream, m_batch));
        packet->set_apid(ccsds::readPrimaryHeader(in.packet.data()).apid);
        if (type != pipeline::kUnknownType)
            packet->set_packet_type(std::string(m_types.typeName(type)));
        if (static_cast<std::uint32_t>(m_batch.packets_size()) >= m_maxBatch)
            flush();
    }
    void onProblem(const archive::InputProblem&) override
    {
        ++m_read;
        ++m_malformed;
    }
    [[nodiscard]] bool stopRequested() const override
    {
        if (!m_stopped && (m_read & 1023) == 0 && m_ended())
            m_stopped = true;
        return m_stopped;
    }

    void flush()
    {
        if (m_batch.packets_size() == 0 && m_batch.stream_names_size() == 0)
            return;
        m_delivered += static_cast<std::uint64_t>(m_batch.packets_size());
        m_batch.set_delivered(m_delivered);
        if (!m_writer.Write(m_batch))
            m_stopped = true;
        m_batch.Clear();
    }

    [[nodiscard]] std::string counts() const
    {
        return "read=" + std::to_string(m_read) + " decoded=0 unknown=" + std::to_string(m_unknown)
            + " malformed=" + std::to_string(m_malformed) + " packets=" + std::to_string(m_delivered) + " samples=0";
    }

private:
    const pipeline::PacketTypeTable& m_types;
    std::vector<std::uint8_t> m_chosen; // per type index (kUnknownType = 0 included); empty = all
    grpc::ServerWriter<v1::PacketBatch>& m_writer;
    std::uint32_t m_maxBatch;
    const std::function<bool()>& m_ended;
    CallStreamIds m_streams;
    v1::PacketBatch m_batch;
    std::uint64_t m_read = 0, m_unknown = 0, m_malformed = 0, m_delivered = 0;
    mutable bool m_stopped = false;
};

} // namespace

ArchiveService::ArchiveService(pipeline::Station& station, StationService& access)
    : m_station(station), m_access(access)
{
}

grpc::Status ArchiveService::ListRecordings(grpc::ServerContext* context, const v1::ListRecordingsRequest*,
                                            v1::RecordingList* reply)
{
    if (auto st = m_access.authorize(*context, false); !st.ok())
        return st;
    const auto directory = recordingDirectory(m_station);
    if (!directory)
        return {grpc::StatusCode::NOT_FOUND, directory.error().message};
    auto source = record::PlaybackSource::open(*directory, {});
    if (!source)
        return openFailed(source.error());
    reply->set_directory(*directory);
    for (const auto& s : (*source)->segments()) {
        auto* out = reply->add_segments();
        out->set_file(s.file);
        out->set_stream(s.streamName);
        out->set_sequence(s.sequence);
        out->set_first_time_ns(s.firstTimeNs);
        out->set_last_time_ns(s.lastTimeNs);
        out->set_packets(s.packets);
        out->set_bytes(s.bytes);
        out->set_state(s.state == record::SegmentState::Open     ? "open"
                           : s.state == record::SegmentState::Closed ? "closed"
                                                                     : "damaged");
        out->set_problem(s.problem);
    }
    return grpc::Status::OK;
}

grpc::Status ArchiveService::QueryParameters(grpc::ServerContext* context, const v1::ArchiveParametersRequest* request,
                                             grpc::ServerWriter<v1::ParameterBatch>* writer)
{
    if (auto st = m_access.authorize(*context, false); !st.ok())
        return st;
    const pipeline::PacketTypeTable& types = m_station.types();
    // Parameters by name and every parameter of the packet types named: one list of qualified names.
    std::vector<std::string> names(request->parameters().begin(), request->parameters().end());
    for (const auto& name : names)
        if (!types.parameterId(name))
            return {grpc::StatusCode::INVALID_ARGUMENT, "no parameter '" + name + "' in the mission database"};
    for (const auto& packet : request->packet_types()) {
        const auto type = types.typeByName(packet);
        if (!type)
            return {grpc::StatusCode::INVALID_ARGUMENT, "no packet type '" + packet + "' in the mission database"};
        for (const auto& p : types.definition(*type).parameters)
            names.push_back(packet + "." + p.name);
    }
    auto selection = archive::Selection::build(types, {}, names);
    if (!selection)
        return {grpc::StatusCode::INVALID_ARGUMENT, selection.error().message};
    std::unique_ptr<archive::PacketInput> input;
    if (auto st = openInput(m_station, *request, input); !st.ok())
        return st;

    // The first batch names every parameter asked for and has no samples.
    v1::ParameterBatch first;
    for (std::uint32_t t = 1; t < types.typeCount(); ++t)
        for (const auto& column : selection->columns(t)) {
            auto* entry = first.add_parameter_names();
            entry->set_id(types.firstParameterId(t) + column.index);
            entry->set_name(std::string(types.typeName(t)) + "." + types.definition(t).parameters[column.index].name);
        }
    if (!writer->Write(first))
        return grpc::Status::OK;

    std::atomic<bool> stop{false};
    SampleBatcher batcher(types, *selection, *writer, batchSize(request->max_batch(), kDefaultParameterBatch, kMaxParameterBatch),
                          stop);
    archive::DecodeRunOptions runOptions;
    runOptions.fromNs = request->start_ns();
    runOptions.toNs = request->stop_ns();
    runOptions.stop = &stop;
    // Every 1024 packets: a cancelled call or a stopping server ends the query even when little is sent.
    runOptions.progress = [&](double, std::uint64_t) {
        if (m_access.ended(*context))
            stop.store(true);
    };
    archive::DecodeRun run(types, *selection, batcher, *input, std::move(runOptions));
    const Status read = input->read(run);
    batcher.flush();
    if (!read)
        return {grpc::StatusCode::INTERNAL, read.error().toString()};
    addSummary(*context,
               "read=" + std::to_string(run.packetsRead()) + " decoded=" + std::to_string(run.packetsDecoded())
                   + " unknown=" + std::to_string(run.unknownPackets()) + " malformed="
                   + std::to_string(run.malformedPackets()) + " packets=" + std::to_string(run.packetsWritten())
                   + " samples=" + std::to_string(batcher.samples()),
               input->damage());
    return grpc::Status::OK;
}

grpc::Status ArchiveService::QueryPackets(grpc::ServerContext* context, const v1::ArchivePacketsRequest* request,
                                          grpc::ServerWriter<v1::PacketBatch>* writer)
{
    if (auto st = m_access.authorize(*context, false); !st.ok())
        return st;
    const pipeline::PacketTypeTable& types = m_station.types();
    std::vector<std::uint8_t> chosen;
    if (!request->packet_types().empty()) {
        chosen.assign(types.typeCount(), 0);
        for (const auto& name : request->packet_types()) {
            if (name == "unknown") {
                chosen[pipeline::kUnknownType] = 1;
                continue;
            }
            const auto type = types.typeByName(name);
            if (!type)
                return {grpc::StatusCode::INVALID_ARGUMENT,
                        "no packet type '" + name + "' in the mission database (or \"unknown\")"};
            chosen[*type] = 1;
        }
    }
    std::unique_ptr<archive::PacketInput> input;
    if (auto st = openInput(m_station, *request, input); !st.ok())
        return st;
    if (!writer->Write(v1::PacketBatch()))
        return grpc::Status::OK;

    const std::function<bool()> ended = [&] { return m_access.ended(*context); };
    PacketBatcher batcher(types, std::move(chosen), *writer,
                          batchSize(request->max_batch(), kDefaultPacketBatch, kMaxPacketBatch), ended);
    const Status read = input->read(batcher);
    batcher.flush();
    if (!read)
        return {grpc::StatusCode::INTERNAL, read.error().toString()};
    addSummary(*context, batcher.counts(), input->damage());
    return grpc::Status::OK;
}

} // namespace telestation::rpc
