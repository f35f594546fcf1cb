#include "ui/session/recording_export.hpp"

#include "core/archive/decode_run.hpp"
#include "core/archive/packet_file_reader.hpp"
#include "core/pipeline/packet_types.hpp"

#include <QFileInfo>
#include <QSaveFile>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>

#include <unistd.h>

namespace telestation::ui {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

struct RecordingExport::Job {
    RecordingExportRequest request;
    pipeline::PacketTypeTable table;
    archive::Selection selection;
    std::atomic<bool> stop{false};      // DecodeRun's: a cancel, or a write that failed
    std::atomic<bool> cancelled{false}; // the operator's
    RecordingExportResult result;       // the worker's until the thread has finished
};

RecordingExport::RecordingExport(QObject* parent) : QObject(parent) { }

RecordingExport::~RecordingExport()
{
    if (m_thread) {
        // Its finished() connection to this object dies with it; the thread object is ours to delete.
        cancel();
        m_thread->wait();
        delete m_thread.data();
    }
}

QString RecordingExport::outputConflict(const QString& output, const QString& directory, const QString& databasePath)
{
    const QFileInfo target(output);
    if (target.isDir())
        return tr("%1 is a folder: choose a file.").arg(output);
    if (!target.exists())
        return {};
    const QString canonical = target.canonicalFilePath();
    if (!databasePath.isEmpty() && canonical == QFileInfo(databasePath).canonicalFilePath())
        return tr("%1 is the mission database: choose another file.").arg(output);
    const QString recording = QFileInfo(directory).canonicalFilePath();
    if (!recording.isEmpty() && QFileInfo(canonical).absolutePath() == recording)
        return tr("%1 is a file of the recording: choose another file.").arg(output);
    return {};
}

bool RecordingExport::start(const RecordingExportRequest& request, const mdb::MissionDatabase& db, QString* error)
{
    const auto refuse = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (m_thread)
        return refuse(tr("An export is running: wait for it or cancel it."));
    if (request.parameters.empty())
        return refuse(tr("No parameter chosen."));
    if (!QFileInfo(request.outputPath).isAbsolute())
        return refuse(tr("The output file needs a full path, not '%1'.").arg(request.outputPath));
    if (const QString conflict = outputConflict(request.outputPath, request.directory, request.databasePath);
        !conflict.isEmpty())
        return refuse(conflict);
    auto table = pipeline::PacketTypeTable::build(db);
    if (!table)
        return refuse(tr("The mission database cannot decode: %1").arg(qs(table.error().message)));
    auto selection = archive::Selection::build(*table, {}, request.parameters);
    if (!selection)
        return refuse(qs(selection.error().message));

    auto job = std::make_shared<Job>();
    job->request = request;
    job->table = std::move(*table);
    job->selection = std::move(*selection);
    job->result.outputPath = request.outputPath;
    m_job = job;
    m_result = RecordingExportResult{};
    m_result.outputPath = request.outputPath;

    QThread* thread = QThread::create([this, job] { run(*job); });
    thread->setObjectName(QStringLiteral("ts-export")); // the thread's name for top -H
    m_thread = thread;
    connect(thread, &QThread::finished, this, [this, thread, job] {
        if (m_thread == thread)
            m_thread = nullptr;
        thread->deleteLater();
        m_result = job->result;
        Q_EMIT finished();
    });
    thread->start();
    if (error)
        error->clear();
    return true;
}

void RecordingExport::cancel()
{
    if (const auto job = m_job) {
        job->cancelled = true;
        job->stop = true;
    }
}

void RecordingExport::run(Job& job)
{
    const RecordingExportRequest& q = job.request;
    RecordingExportResult& r = job.result;
    const auto fail = [&](const QString& why) {
        r.outcome = RecordingExportResult::Outcome::Failed;
        r.error = why;
    };

    archive::InputOptions inputOptions;
    inputOptions.fromNs = q.fromNs;
    inputOptions.toNs = q.toNs;
    inputOptions.segments = q.segments;
    auto input = archive::PacketInput::open(q.directory.toStdString(), std::move(inputOptions));
    if (!input)
        return fail(qs(input.error().toString()));

    // The temporary file next to the target; its destructor removes it unless commit() renamed it.
    QSaveFile file(q.outputPath);
    if (!file.open(QIODevice::WriteOnly))
        return fail(tr("cannot create %1: %2").arg(q.outputPath, file.errorString()));
    const int fd = ::dup(file.handle());
    std::FILE* out = fd < 0 ? nullptr : ::fdopen(fd, "wb");
    if (out == nullptr) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        if (fd >= 0)
            ::close(fd);
        return fail(tr("cannot write %1: %2").arg(q.outputPath, why));
    }

    const auto writer = archive::DecodedWriter::create(q.format, job.table, job.selection, out);
    archive::DecodeRunOptions runOptions;
    runOptions.fromNs = q.fromNs;
    runOptions.toNs = q.toNs;
    runOptions.stop = &job.stop;
    std::optional<std::chrono::steady_clock::time_point> shown;
    runOptions.progress = [&](double fraction, std::uint64_t packets) {
        if (writer->failed())
            job.stop = true; // a full disk: decoding the rest would be for nothing
        const auto now = std::chrono::steady_clock::now();
        if (shown && now - *shown < std::chrono::milliseconds(kProgressIntervalMs))
            return;
        shown = now;
        Q_EMIT progress(fraction, packets);
    };
    archive::DecodeRun decoder(job.table, job.selection, *writer, **input, std::move(runOptions));
    const Status read = (*input)->read(decoder);
    Status written = writer->finish();
    if (std::fclose(out) != 0 && written)
        written = Error{std::string("cannot write the output: ") + std::strerror(errno), {}};

    r.packetsRead = decoder.packetsRead();
    r.packetsWritten = decoder.packetsWritten();
    r.valuesWritten = writer->valuesWritten();
    r.unknownPackets = decoder.unknownPackets();
    r.malformedPackets = decoder.malformedPackets();
    r.damage = qs((*input)->damage());
    std::ostringstream summary;
    r.complete = decoder.summarize(summary, "", q.directory.toStdString(), writer->valuesWritten(), (*input)->damage());
    r.summary = qs(summary.str());

    if (!written)
        return fail(tr("%1: %2").arg(q.outputPath, qs(written.error().message)));
    if (job.cancelled) {
        r.outcome = RecordingExportResult::Outcome::Cancelled;
        return; // the temporary file goes with `file`
    }
    if (!read)
        return fail(qs(read.error().toString()));
    if (!file.commit())
        return fail(tr("cannot write %1: %2").arg(q.outputPath, file.errorString()));
    r.outcome = RecordingExportResult::Outcome::Written;
}

} // namespace telestation::ui
