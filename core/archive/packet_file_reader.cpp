#include "core/archive/packet_file_reader.hpp"

#include "core/ccsds/space_packet.hpp"
#include "core/record/playback.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace telestation::archive {

namespace {

constexpr std::array<char, 8> kSegmentMagic{'T', 'S', 'T', 'R', 'E', 'C', '\r', '\n'};
constexpr std::size_t kReadBlock = std::size_t{1} << 20;

Error pathError(const std::string& path, const std::string& what) { return Error{what, SourceLocation{path, 0, 0}}; }

std::string errnoText(int error) { return std::strerror(error); }

std::uint16_t apidOf(const std::uint8_t* header) noexcept
{
    return static_cast<std::uint16_t>(((header[0] & 0x07) << 8) | header[1]);
}

std::string plural(std::uint64_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// A file of concatenated packets, read through one buffer; each frame is the transport header, then
// the packet as long as its length field says.
class PacketFileReader final : public PacketInput {
public:
    PacketFileReader(std::string path, int fd, std::uint64_t size, InputOptions options)
        : m_path(std::move(path)), m_fd(fd), m_size(size), m_options(std::move(options)),
          m_buffer(kReadBlock + m_options.transportHeaderBytes + ccsds::kMaxPacketSize)
    {
    }
    ~PacketFileReader() override { ::close(m_fd); }
    PacketFileReader(const PacketFileReader&) = delete;
    PacketFileReader& operator=(const PacketFileReader&) = delete;

    [[nodiscard]] InputKind kind() const noexcept override { return InputKind::PacketFile; }
    [[nodiscard]] std::uint64_t totalBytes() const noexcept override { return m_size; }
    [[nodiscard]] double fraction() const override
    {
        return m_size == 0 ? 1.0 : std::min(1.0, static_cast<double>(offset()) / static_cast<double>(m_size));
    }

    [[nodiscard]] Status read(InputSink& sink) override
    {
        const std::size_t n = m_options.transportHeaderBytes;
        const std::size_t headerEnd = n + ccsds::kPrimaryHeaderSize;
        std::uint64_t index = 0;
        for (;;) {
            if (sink.stopRequested())
                return {};
            if (!fill(headerEnd))
                return m_error;
            const std::size_t available = m_end - m_begin;
            if (available == 0)
                return {};
            if (available < headerEnd) {
                sink.onProblem({InputProblemKind::TruncatedPacket, index++, offset(),
                                "the file ends " + plural(available, "byte", "bytes")
                                    + " into a packet, inside its primary header"});
                m_begin = m_end;
                return {};
            }
            const std::uint8_t* header = m_buffer.data() + m_begin + n;
            if ((header[0] >> 5) != 0) {
                if (!skipGarbage(sink, index++))
                    return m_error;
                continue;
            }
            const std::size_t packetLength = ccsds::readPrimaryHeader(header).packetLength();
            const std::size_t frameLength = n + packetLength;
            if (!fill(frameLength))
                return m_error;
            if (m_end - m_begin < frameLength) {
                sink.onProblem({InputProblemKind::TruncatedPacket, index++, offset(),
                                "APID " + std::to_string(apidOf(m_buffer.data() + m_begin + n)) + ": the file ends "
                                    + std::to_string(m_end - m_begin - std::min(m_end - m_begin, n)) + " bytes into a packet of "
                                    + std::to_string(packetLength) + " bytes"});
                m_begin = m_end;
                return {};
            }
            const InputPacket packet{index++, offset(), std::nullopt, {},
                                     std::span<const std::uint8_t>(m_buffer.data() + m_begin + n, packetLength)};
            sink.onPacket(packet);
            m_begin += frameLength;
        }
    }

private:
    [[nodiscard]] std::uint64_t offset() const noexcept { return m_bufferOffset + m_begin; }

    // A frame whose header cannot start a packet: skip byte by byte to the next plausible header
    // (version 0, an APID the mission defines) and report the run as one bad packet.
    [[nodiscard]] bool skipGarbage(InputSink& sink, std::uint64_t index)
    {
        const std::size_t n = m_options.transportHeaderBytes;
        const std::size_t headerEnd = n + ccsds::kPrimaryHeaderSize;
        const std::uint64_t start = offset();
        const std::uint8_t* first = m_buffer.data() + m_begin + n;
        std::string detail = "version " + std::to_string(first[0] >> 5) + ", APID " + std::to_string(apidOf(first));
        std::uint64_t skipped = 0;
        for (;;) {
            ++m_begin;
            ++skipped;
            if (!fill(headerEnd))
                return false;
            if (m_end - m_begin < headerEnd) {
                skipped += m_end - m_begin;
                m_begin = m_end;
                detail += "; " + plural(skipped, "byte", "bytes") + " skipped to the end of the file";
                break;
            }
            if (plausible(m_buffer.data() + m_begin + n)) {
                detail += "; " + plural(skipped, "byte", "bytes") + " skipped to the next packet";
                break;
            }
        }
        sink.onProblem({InputProblemKind::BadPrimaryHeader, index, start, std::move(detail)});
        return true;
    }

    [[nodiscard]] bool plausible(const std::uint8_t* header) const noexcept
    {
        if ((header[0] >> 5) != 0)
            return false;
        return m_options.knownApids.empty() || m_options.knownApids[apidOf(header)];
    }

    // Makes at least `need` bytes available from m_begin, unless the file ends first. False on a read
    // error (m_error says which).
    [[nodiscard]] bool fill(std::size_t need)
    {
        if (m_end - m_begin >= need || m_eof)
            return true;
        if (m_begin > 0) {
            std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
            m_bufferOffset += m_begin;
            m_end -= m_begin;
            m_begin = 0;
        }
        while (m_end < need && !m_eof) {
            const ssize_t got = ::read(m_fd, m_buffer.data() + m_end, m_buffer.size() - m_end);
            if (got < 0) {
                if (errno == EINTR)
                    continue;
                m_error = pathError(m_path, "cannot read at byte offset " + std::to_string(m_bufferOffset + m_end) + ": "
                                                + errnoText(errno));
                return false;
            }
            if (got == 0)
                m_eof = true;
            m_end += static_cast<std::size_t>(got);
        }
        return true;
    }

    std::string m_path;
    int m_fd;
    std::uint64_t m_size;
    InputOptions m_options;
    std::vector<std::uint8_t> m_buffer;
    std::size_t m_begin = 0;         // the next frame's first byte in m_buffer
    std::size_t m_end = 0;           // one past the last byte read
    std::uint64_t m_bufferOffset = 0; // the file offset of m_buffer[0]
    bool m_eof = false;
    Error m_error;
};

// A recording directory or one segment, through record::PlaybackSource as fast as it reads.
class RecordingReader final : public PacketInput {
public:
    RecordingReader(InputKind kind, std::unique_ptr<record::PlaybackSource> source, InputOptions options)
        : m_kind(kind), m_source(std::move(source)), m_options(std::move(options))
    {
        for (const auto& segment : m_source->segments())
            m_totalBytes += segment.bytes;
    }

    [[nodiscard]] InputKind kind() const noexcept override { return m_kind; }
    [[nodiscard]] std::uint64_t totalBytes() const noexcept override { return m_totalBytes; }
    [[nodiscard]] double fraction() const override { return m_source->progress().fraction(); }
    [[nodiscard]] std::string damage() const override { return m_damage; }

    [[nodiscard]] Status read(InputSink& sink) override
    {
        std::uint64_t index = 0;
        bool stopped = false;
        const auto deliver = [&](const record::RecordMeta& meta, std::span<const std::uint8_t> payload) {
            // Asked before each record, not only between batches: a stop ends the read at the next packet.
            stopped = stopped || sink.stopRequested();
            if (!stopped)
                deliverRecord(sink, index++, meta, payload);
        };
        while (!stopped && !m_source->finished() && !sink.stopRequested())
            m_source->poll(std::chrono::milliseconds(100), deliver, 4096);
        m_damage = m_source->progress().problem;
        return {};
    }

private:
    void deliverRecord(InputSink& sink, std::uint64_t index, const record::RecordMeta& meta,
                       std::span<const std::uint8_t> payload)
    {
        const std::size_t n = m_options.transportHeaderBytes;
        if (payload.size() < n + ccsds::kPrimaryHeaderSize) {
            sink.onProblem({InputProblemKind::BadPrimaryHeader, index, 0,
                            "a record of " + plural(payload.size(), "byte", "bytes") + " has no room for "
                                + (n > 0 ? "a " + std::to_string(n) + "-byte transport header and " : std::string())
                                + "a primary header"});
            return;
        }
        const std::uint8_t* header = payload.data() + n;
        const auto h = ccsds::readPrimaryHeader(header);
        if (h.version != 0) {
            sink.onProblem({InputProblemKind::BadPrimaryHeader, index, 0,
                            "version " + std::to_string(h.version) + ", APID " + std::to_string(h.apid)});
            return;
        }
        if (h.packetLength() != payload.size() - n) {
            sink.onProblem({InputProblemKind::LengthMismatch, index, 0,
                            "APID " + std::to_string(h.apid) + ": the length field says " + std::to_string(h.packetLength())
                                + " bytes, the record holds " + std::to_string(payload.size() - n)});
            return;
        }
        sink.onPacket(InputPacket{index, 0, meta.receiveTimeNs, m_source->deliveringStream(), payload.subspan(n)});
    }

    InputKind m_kind;
    std::unique_ptr<record::PlaybackSource> m_source;
    InputOptions m_options;
    std::uint64_t m_totalBytes = 0;
    std::string m_damage;
};

} // namespace

std::string_view inputKindName(InputKind kind) noexcept
{
    switch (kind) {
    case InputKind::PacketFile: return "packet file";
    case InputKind::RecordingDirectory: return "recording";
    case InputKind::SegmentFile: return "recording segment";
    }
    return "?";
}

std::string_view inputProblemName(InputProblemKind kind) noexcept
{
    switch (kind) {
    case InputProblemKind::BadPrimaryHeader: return "bad primary header";
    case InputProblemKind::LengthMismatch: return "length field disagrees with the bytes";
    case InputProblemKind::TruncatedPacket: return "truncated last packet";
    }
    return "?";
}

Result<InputKind> detectInputKind(const std::string& path)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        return pathError(path, "no such file or directory");
    if (std::filesystem::is_directory(status))
        return InputKind::RecordingDirectory;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return pathError(path, "cannot open: " + errnoText(errno));
    std::array<char, kSegmentMagic.size()> head{};
    std::size_t got = 0;
    while (got < head.size()) {
        const ssize_t n = ::read(fd, head.data() + got, head.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            return pathError(path, "cannot read: " + errnoText(error));
        }
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return got == head.size() && head == kSegmentMagic ? InputKind::SegmentFile : InputKind::PacketFile;
}

Result<std::unique_ptr<PacketInput>> PacketInput::open(const std::string& path, InputOptions options)
{
    auto kind = detectInputKind(path);
    if (!kind)
        return kind.error();
    if (*kind != InputKind::PacketFile) {
        record::PlaybackOptions playback;
        playback.fromNs = options.fromNs;
        playback.toNs = options.toNs;
        playback.streams = options.streams;
        playback.segments = options.segments;
        auto source = record::PlaybackSource::open(path, playback);
        if (!source)
            return source.error();
        return std::unique_ptr<PacketInput>(new RecordingReader(*kind, std::move(*source), std::move(options)));
    }
    if (!options.streams.empty() || !options.segments.empty())
        return pathError(path, "a file of packets has no streams or segments (those select from a recording)");
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return pathError(path, "cannot open: " + errnoText(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int error = errno;
        ::close(fd);
        return pathError(path, "cannot read: " + errnoText(error));
    }
    // A pipe (e.g. `--input <(zcat file.gz)`) reads too; its size is unknown (no progress bar).
    const bool regular = S_ISREG(st.st_mode);
    if (regular)
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    return std::unique_ptr<PacketInput>(new PacketFileReader(
        path, fd, regular ? static_cast<std::uint64_t>(st.st_size) : 0, std::move(options)));
}

} // namespace telestation::archive
