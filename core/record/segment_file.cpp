// Segment files: the writer (1 MiB buffer, large write(2) calls, an error state on the first failed
// write), the reader (header check, then record by record: sync, length bound, CRC) and their names.
#include "core/record/record_detail.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fcntl.h>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace telestation::record {
namespace {

using detail::kMaxPayload;
using detail::kRecordHeaderSize;
using detail::kRecordSync;
using detail::load;
using detail::store;

constexpr std::size_t kBufferSize = std::size_t{1} << 20;
constexpr std::uint16_t kFlagMalformed = 0x0001;

std::string errnoText(int error)
{
    return std::strerror(error); // glibc: thread-safe for known errno values
}

Error fileError(const std::string& path, std::string message)
{
    return Error{std::move(message), {path, 0, 0}};
}

// Writes all of `bytes`, going on after partial writes and EINTR. Returns 0 or the errno of the
// failure; `written` says how much reached the file either way.
int writeAll(int fd, const std::uint8_t* bytes, std::size_t size, std::size_t& written) noexcept
{
    written = 0;
    while (written < size) {
        const ssize_t n = ::write(fd, bytes + written, size - written);
        if (n > 0) {
            written += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        return n < 0 ? errno : EIO; // write() returning 0 for a regular file: treat as an I/O error
    }
    return 0;
}

// Where a header's CRC-32C sits (it covers the bytes before it) and how long its name field is.
constexpr std::size_t crcOffset(std::size_t headerSize) noexcept { return headerSize - 4; }
constexpr std::size_t kNameOffset = 32;
constexpr std::size_t kNameSizeVersion1 = 28;

void encodeHeader(const SegmentHeader& header, std::uint8_t* out) noexcept
{
    std::memset(out, 0, kFileHeaderSize);
    std::memcpy(out, detail::kMagic.data(), detail::kMagic.size());
    store<std::uint32_t>(out + 8, header.version);
    store<std::uint32_t>(out + 12, static_cast<std::uint32_t>(kFileHeaderSize));
    store<std::int64_t>(out + 16, header.createdNs);
    store<std::uint64_t>(out + 24, header.sequence);
    std::memcpy(out + kNameOffset, header.streamName.data(), header.streamName.size()); // checked: <= 32
    static_assert(kNameOffset + detail::kStreamNameSize <= crcOffset(kFileHeaderSize));
    store<std::uint32_t>(out + crcOffset(kFileHeaderSize), crc32c({out, crcOffset(kFileHeaderSize)}));
}

// A version-1 header's stream name: its 28 bytes, or — when they are all used, so that a longer name
// may have lost its end to the CRC — the stream of the file name, if that one starts with them.
std::string version1StreamName(const std::uint8_t* field, const std::string& path)
{
    const char* name = reinterpret_cast<const char*>(field);
    std::string stream(name, strnlen(name, kNameSizeVersion1));
    if (stream.size() < kNameSizeVersion1)
        return stream;
    const auto parts = detail::parseSegmentFileName(std::filesystem::path(path).filename().string());
    if (parts && parts->stream.size() <= detail::kStreamNameSize && parts->stream.starts_with(stream))
        return parts->stream;
    return stream;
}

} // namespace

// ---- SegmentWriter --------------------------------------------------------------------------------

struct SegmentWriter::Impl {
    std::string path;
    int fd = -1;
    std::unique_ptr<std::uint8_t[]> buffer;
    std::size_t used = 0;
    std::uint64_t fileBytes = 0; // reached the file
    std::uint64_t syncedBytes = 0; // made durable by the last sync()
    std::uint64_t records = 0;
    std::optional<std::int64_t> firstTime;
    std::optional<std::int64_t> lastTime;
    bool failed = false;
    std::string error;

    ~Impl()
    {
        if (fd >= 0)
            ::close(fd);
    }

    void fail(std::string_view what, int error_) noexcept
    {
        failed = true;
        try {
            error = std::string(what) + " " + path + ": " + errnoText(error_);
        } catch (...) { // out of memory while describing the failure: keep the failed state
        }
    }

    bool flushBuffer() noexcept
    {
        if (failed)
            return false;
        if (used == 0)
            return true;
        std::size_t written = 0;
        const int rc = writeAll(fd, buffer.get(), used, written);
        fileBytes += written;
        used = 0; // on failure the rest is dropped: the file keeps its intact prefix
        if (rc != 0) {
            fail("write to", rc);
            return false;
        }
        return true;
    }
};

SegmentWriter::SegmentWriter(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

SegmentWriter::~SegmentWriter()
{
    if (m_impl && m_impl->fd >= 0)
        (void)close();
}

Result<std::unique_ptr<SegmentWriter>> SegmentWriter::create(const std::string& path, const SegmentHeader& header)
{
    if (header.streamName.size() > detail::kStreamNameSize)
        return fileError(path, "stream name '" + header.streamName + "' is longer than 32 bytes");
    if (header.version != kFormatVersion)
        return fileError(path, "cannot write format version " + std::to_string(header.version));
    auto impl = std::make_unique<Impl>();
    impl->path = path;
    impl->fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (impl->fd < 0)
        return fileError(path, "cannot create: " + errnoText(errno));
    impl->buffer = std::make_unique<std::uint8_t[]>(kBufferSize);
    // The header goes out at once, so that even a segment without records is a valid file.
    std::uint8_t bytes[kFileHeaderSize];
    encodeHeader(header, bytes);
    std::size_t written = 0;
    if (const int rc = writeAll(impl->fd, bytes, sizeof bytes, written); rc != 0) {
        ::unlink(path.c_str());
        return fileError(path, "write: " + errnoText(rc));
    }
    impl->fileBytes = written;
    return std::unique_ptr<SegmentWriter>(new SegmentWriter(std::move(impl)));
}

bool SegmentWriter::append(const RecordMeta& meta, std::span<const std::uint8_t> payload) noexcept
{
    Impl& d = *m_impl;
    if (d.failed || d.fd < 0 || payload.size() > kMaxPayload)
        return false;
    const std::size_t size = kRecordOverhead + payload.size(); // < kBufferSize always
    if (d.used + size > kBufferSize && !d.flushBuffer())
        return false;
    std::uint8_t* out = d.buffer.get() + d.used;
    store<std::uint32_t>(out, kRecordSync);
    store<std::uint32_t>(out + 4, static_cast<std::uint32_t>(payload.size()));
    store<std::int64_t>(out + 8, meta.receiveTimeNs);
    store<std::uint16_t>(out + 16, meta.streamId);
    store<std::uint16_t>(out + 18, meta.apid);
    store<std::uint16_t>(out + 20, meta.malformed ? kFlagMalformed : std::uint16_t{0});
    store<std::uint16_t>(out + 22, 0);
    if (!payload.empty())
        std::memcpy(out + kRecordHeaderSize, payload.data(), payload.size());
    const std::size_t crcEnd = kRecordHeaderSize + payload.size();
    store<std::uint32_t>(out + crcEnd, crc32c({out + 4, crcEnd - 4}));
    d.used += size;
    ++d.records;
    if (!d.firstTime)
        d.firstTime = meta.receiveTimeNs;
    d.lastTime = meta.receiveTimeNs;
    return true;
}

bool SegmentWriter::flush() noexcept
{
    return m_impl->fd >= 0 && m_impl->flushBuffer();
}

bool SegmentWriter::sync() noexcept
{
    Impl& d = *m_impl;
    if (d.fd < 0 || d.failed)
        return false;
    if (d.fileBytes == d.syncedBytes)
        return true;
    if (::fdatasync(d.fd) != 0) {
        d.fail("fdatasync", errno);
        return false;
    }
    d.syncedBytes = d.fileBytes;
    return true;
}

bool SegmentWriter::close() noexcept
{
    Impl& d = *m_impl;
    if (d.fd < 0)
        return !d.failed;
    bool ok = d.flushBuffer();
    // Even after a failed write, make what did reach the file durable.
    if (::fsync(d.fd) != 0 && ok) {
        d.fail("fsync", errno);
        ok = false;
    }
    if (::close(d.fd) != 0 && ok) {
        d.fail("close", errno);
        ok = false;
    }
    d.fd = -1;
    return ok && !d.failed;
}

std::uint64_t SegmentWriter::bytesWritten() const noexcept { return m_impl->fileBytes + m_impl->used; }
std::uint64_t SegmentWriter::records() const noexcept { return m_impl->records; }
std::optional<std::int64_t> SegmentWriter::firstTimeNs() const noexcept { return m_impl->firstTime; }
std::optional<std::int64_t> SegmentWriter::lastTimeNs() const noexcept { return m_impl->lastTime; }
bool SegmentWriter::failed() const noexcept { return m_impl->failed; }
const std::string& SegmentWriter::error() const noexcept { return m_impl->error; }
const std::string& SegmentWriter::path() const noexcept { return m_impl->path; }

// ---- SegmentReader --------------------------------------------------------------------------------

struct SegmentReader::Impl {
    std::string path;
    int fd = -1;
    SegmentHeader header;
    std::vector<std::uint8_t> buffer = std::vector<std::uint8_t>(kBufferSize);
    std::size_t pos = 0;         // next unread byte in buffer
    std::size_t len = 0;         // valid bytes in buffer
    std::uint64_t bufferStart = 0; // file offset of buffer[0]
    bool eof = false;
    int readError = 0;
    std::uint64_t offset = 0;    // just past the last intact record (the header, once open)
    bool done = false;
    SegmentEnd end = SegmentEnd::Clean;
    std::string problem;

    ~Impl()
    {
        if (fd >= 0)
            ::close(fd);
    }

    // Makes `n` bytes available from pos (n <= buffer size) unless the file ends first; returns
    // how many are available.
    std::size_t ensure(std::size_t n)
    {
        if (len - pos >= n || eof)
            return len - pos;
        if (pos > 0) {
            std::memmove(buffer.data(), buffer.data() + pos, len - pos);
            bufferStart += pos;
            len -= pos;
            pos = 0;
        }
        while (len < n && !eof) {
            const ssize_t got = ::read(fd, buffer.data() + len, buffer.size() - len);
            if (got > 0)
                len += static_cast<std::size_t>(got);
            else if (got < 0 && errno == EINTR)
                continue;
            else {
                if (got < 0)
                    readError = errno;
                eof = true;
            }
        }
        return len - pos;
    }

    bool stop(SegmentEnd how, std::string what)
    {
        done = true;
        end = how;
        problem = std::move(what);
        return false;
    }
};

SegmentReader::SegmentReader(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
SegmentReader::~SegmentReader() = default;

Result<std::unique_ptr<SegmentReader>> SegmentReader::open(const std::string& path)
{
    auto impl = std::make_unique<Impl>();
    impl->path = path;
    impl->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (impl->fd < 0)
        return fileError(path, "cannot open: " + errnoText(errno));
    std::size_t got = impl->ensure(kFileHeaderSizeVersion1);
    if (impl->readError != 0)
        return fileError(path, "read: " + errnoText(impl->readError));
    const std::uint8_t* h = impl->buffer.data();
    if (got < detail::kMagic.size() || std::memcmp(h, detail::kMagic.data(), detail::kMagic.size()) != 0)
        return fileError(path, "not a recording segment (bad magic)");
    // Version and header size first (where the CRC is depends on them), checked against each other.
    const auto version = got >= 16 ? load<std::uint32_t>(h + 8) : kFormatVersion;
    const std::size_t headerSize = version == 1 ? kFileHeaderSizeVersion1 : kFileHeaderSize;
    if (got >= 16 && version != 1 && version != kFormatVersion)
        return fileError(path, "unsupported segment format version " + std::to_string(version)
                                   + " (this program reads 1 and " + std::to_string(kFormatVersion) + ")");
    got = impl->ensure(headerSize);
    if (impl->readError != 0)
        return fileError(path, "read: " + errnoText(impl->readError));
    if (got < headerSize)
        return fileError(path, "segment header truncated (" + std::to_string(got) + " of " + std::to_string(headerSize)
                                   + " bytes)");
    h = impl->buffer.data();
    if (load<std::uint32_t>(h + crcOffset(headerSize)) != crc32c({h, crcOffset(headerSize)}))
        return fileError(path, "segment header CRC mismatch");
    if (const auto stated = load<std::uint32_t>(h + 12); stated != headerSize)
        return fileError(path, "unexpected segment header size " + std::to_string(stated) + " for format version "
                                   + std::to_string(version));
    SegmentHeader& header = impl->header;
    header.version = version;
    header.createdNs = load<std::int64_t>(h + 16);
    header.sequence = load<std::uint64_t>(h + 24);
    if (version == 1) {
        header.streamName = version1StreamName(h + kNameOffset, path);
    } else {
        const char* name = reinterpret_cast<const char*>(h + kNameOffset);
        header.streamName.assign(name, strnlen(name, detail::kStreamNameSize));
    }
    impl->pos = headerSize;
    impl->offset = headerSize;
    return std::unique_ptr<SegmentReader>(new SegmentReader(std::move(impl)));
}

const SegmentHeader& SegmentReader::header() const noexcept { return m_impl->header; }

bool SegmentReader::next(RecordMeta& meta, std::vector<std::uint8_t>& payload)
{
    Impl& d = *m_impl;
    if (d.done)
        return false;
    const std::uint64_t at = d.bufferStart + d.pos;
    const auto where = [&] { return " at byte offset " + std::to_string(at); };
    std::size_t avail = d.ensure(kRecordHeaderSize);
    if (d.readError != 0)
        return d.stop(SegmentEnd::Damaged, "read error" + where() + ": " + errnoText(d.readError));
    if (avail == 0)
        return d.stop(SegmentEnd::Clean, {});
    const std::uint8_t* r = d.buffer.data() + d.pos;
    // A file cut inside the sync word still has to agree with the bytes that are there.
    std::uint8_t sync[4];
    store<std::uint32_t>(sync, kRecordSync);
    if (std::memcmp(r, sync, std::min<std::size_t>(avail, 4)) != 0)
        return d.stop(SegmentEnd::Damaged, "bad record sync" + where());
    if (avail < kRecordHeaderSize)
        return d.stop(SegmentEnd::TruncatedRecord, "file ends inside the record header" + where() + " ("
                                                       + std::to_string(avail) + " of 24 bytes)");
    const auto length = load<std::uint32_t>(r + 4);
    if (length > kMaxPayload)
        return d.stop(SegmentEnd::Damaged, "bad record length " + std::to_string(length) + where());
    const std::size_t size = kRecordOverhead + length;
    avail = d.ensure(size);
    if (d.readError != 0)
        return d.stop(SegmentEnd::Damaged, "read error" + where() + ": " + errnoText(d.readError));
    r = d.buffer.data() + d.pos;
    if (avail < size)
        return d.stop(SegmentEnd::TruncatedRecord, "file ends inside the record" + where() + " (" + std::to_string(avail)
                                                       + " of " + std::to_string(size) + " bytes)");
    const std::size_t crcEnd = kRecordHeaderSize + length;
    if (load<std::uint32_t>(r + crcEnd) != crc32c({r + 4, crcEnd - 4}))
        return d.stop(SegmentEnd::Damaged, "record CRC mismatch" + where());
    meta.receiveTimeNs = load<std::int64_t>(r + 8);
    meta.streamId = load<std::uint16_t>(r + 16);
    meta.apid = load<std::uint16_t>(r + 18);
    meta.malformed = (load<std::uint16_t>(r + 20) & kFlagMalformed) != 0;
    payload.assign(r + kRecordHeaderSize, r + crcEnd);
    d.pos += size;
    d.offset = at + size;
    return true;
}

SegmentEnd SegmentReader::end() const noexcept { return m_impl->end; }
const std::string& SegmentReader::problem() const noexcept { return m_impl->problem; }
std::uint64_t SegmentReader::offset() const noexcept { return m_impl->offset; }

Result<SegmentScan> scanSegment(const std::string& path)
{
    auto summary = detail::summarizeSegment(path);
    if (!summary)
        return summary.error();
    return std::move(summary->scan);
}

namespace detail {

bool endsInsideHeader(const std::string& path, std::uint64_t size)
{
    if (size >= kFileHeaderSize)
        return false;
    if (size < kFileHeaderSizeVersion1)
        return true;
    std::uint8_t start[12] = {};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const ssize_t got = ::pread(fd, start, sizeof start, 0);
    ::close(fd);
    return got == static_cast<ssize_t>(sizeof start) && std::memcmp(start, kMagic.data(), kMagic.size()) == 0
        && load<std::uint32_t>(start + 8) == kFormatVersion;
}

std::string segmentFileName(const std::string& stream, std::int64_t createdNs, std::uint64_t sequence)
{
    const std::time_t seconds = static_cast<std::time_t>(createdNs / 1'000'000'000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &utc);
    return stream + "-" + stamp + "-" + std::to_string(sequence) + std::string(kSegmentExtension);
}

std::optional<SegmentNameParts> parseSegmentFileName(std::string_view name)
{
    if (!name.ends_with(kSegmentExtension))
        return std::nullopt;
    name.remove_suffix(kSegmentExtension.size());
    const auto lastDash = name.rfind('-');
    if (lastDash == std::string_view::npos || lastDash < 17)
        return std::nullopt;
    SegmentNameParts parts;
    const std::string_view digits = name.substr(lastDash + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), parts.sequence);
    if (ec != std::errc{} || end != digits.data() + digits.size() || digits.empty())
        return std::nullopt;
    const std::string_view stamp = name.substr(lastDash - 15, 15); // yyyymmddThhmmss
    if (name[lastDash - 16] != '-' || stamp[8] != 'T')
        return std::nullopt;
    parts.stream = std::string(name.substr(0, lastDash - 16));
    if (parts.stream.empty())
        return std::nullopt;
    return parts;
}

Result<SegmentSummary> summarizeSegment(const std::string& path)
{
    auto reader = SegmentReader::open(path);
    if (!reader)
        return reader.error();
    SegmentSummary summary;
    summary.scan.header = (*reader)->header();
    RecordMeta meta;
    std::vector<std::uint8_t> payload;
    while ((*reader)->next(meta, payload)) {
        if (summary.scan.records == 0)
            summary.firstTimeNs = meta.receiveTimeNs;
        summary.lastTimeNs = meta.receiveTimeNs;
        ++summary.scan.records;
        ++summary.apidPackets[meta.apid];
    }
    summary.scan.intactBytes = (*reader)->offset();
    summary.scan.end = (*reader)->end();
    summary.scan.problem = (*reader)->problem();
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0)
        summary.fileSize = static_cast<std::uint64_t>(st.st_size);
    return summary;
}

} // namespace detail
} // namespace telestation::record
