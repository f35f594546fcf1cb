// RecordingExport: the recordings browser's export — a recording (all or some of its segments, an
// optional receive-time range) decoded with the mission database and written to a CSV file, in a
// worker thread, through core/archive (PacketInput, DecodeRun, DecodedWriter): the same code and the
// same text as `telestation-mdb decode --input DIR --parameters …`. It knows nothing of widgets.
//
// - Memory stays bounded whatever the range: core/archive streams (one segment reader, one reused
//   text buffer); nothing per packet reaches the GUI thread — only progress(), at most
//   kProgressIntervalMs apart, and finished() once.
// - The file is written to a temporary file in the target's folder (QSaveFile: unnamed where the file
//   system allows, O_TMPFILE, else "TARGET.XXXXXX") and renamed over the target only when everything
//   was written: a cancelled or failed export leaves no half file under the chosen name (and a file
//   already there as it was).
// - cancel() (any thread) stops the read at the next packet; a full disk stops it too (the writer has
//   failed: decoding the rest would be for nothing).
// - One export at a time per object.
#pragma once

#include "core/archive/decoded_writer.hpp"
#include "core/mdb/model.hpp"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QThread>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace telestation::ui {

// What to export, and where.
struct RecordingExportRequest {
    QString directory;                 // the recording (with catalog.sqlite)
    std::vector<std::string> segments; // its segment files to read; empty: every segment
    std::int64_t fromNs = 0;           // receive-time range, inclusive, ns since 1970; 0: open end
    std::int64_t toNs = 0;
    std::vector<std::string> parameters; // "PACKET.PARAMETER"; at least one
    archive::OutputFormat format = archive::OutputFormat::Csv; // Csv (long) or AlignedCsv (wide)
    QString outputPath;                // absolute
    QString databasePath;              // the mission database's file ("" = none): never overwritten
};

struct RecordingExportResult {
    enum class Outcome : std::uint8_t { Written, Cancelled, Failed };
    Outcome outcome = Outcome::Failed;
    QString outputPath;
    QString error; // Failed: why, naming the file
    std::uint64_t packetsRead = 0;
    std::uint64_t packetsWritten = 0;
    std::uint64_t valuesWritten = 0;
    std::uint64_t unknownPackets = 0;
    std::uint64_t malformedPackets = 0;
    QString damage;        // the recording's damaged segments ("" = none)
    bool complete = false; // every packet read decoded and nothing was damaged
    QString summary;       // archive::DecodeRun::summarize: by packet type, unknown APIDs, malformed by reason
};

class RecordingExport : public QObject {
    Q_OBJECT

public:
    static constexpr int kProgressIntervalMs = 100; // at most 10 progress() signals a second

    explicit RecordingExport(QObject* parent = nullptr);
    ~RecordingExport() override; // cancels a running export and waits for it: its temporary file goes

    // Why `output` must not be written ("" when it may): a folder, the mission database file, or a file
    // already in the recording directory (the catalog, a segment: the inputs and the recorder's files).
    [[nodiscard]] static QString outputConflict(const QString& output, const QString& directory,
                                                const QString& databasePath);

    // Starts the export; false with `error` and nothing started when one is running, no parameter is
    // given, a name is not in `db`, the output path is not absolute or would overwrite an input. `db` is
    // read before start() returns (the packet types are compiled then) and need not outlive the call.
    // What only reading or writing can tell (a missing segment, an unwritable folder) comes with finished().
    bool start(const RecordingExportRequest& request, const mdb::MissionDatabase& db, QString* error = nullptr);
    // Asks the running export to stop at the next packet; callable from any thread.
    void cancel();
    [[nodiscard]] bool isRunning() const noexcept { return m_thread != nullptr; }
    // The last export's outcome, complete once finished() has been emitted.
    [[nodiscard]] const RecordingExportResult& result() const noexcept { return m_result; }

Q_SIGNALS:
    // Emitted from the worker thread (queued to receivers in the GUI thread): the fraction of the input
    // read (0..1) and the packets read so far. The first comes after 1024 packets, then at most one
    // every kProgressIntervalMs.
    void progress(double fraction, quint64 packets);
    // In this object's thread, once the worker has ended; result() says how it went.
    void finished();

private:
    struct Job;
    void run(Job& job); // the worker thread

    std::shared_ptr<Job> m_job; // the running (or last) export's state
    QPointer<QThread> m_thread;
    RecordingExportResult m_result;
};

} // namespace telestation::ui
