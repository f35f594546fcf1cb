// The event archive as the GUI reads it: a page at a time (at most kHistoryPage rows per query), the
// file opened read-only for each request while the station goes on writing it (SQLite WAL: readers and
// the writer do not block each other). The event log dock pages back through it ("Load earlier…",
// "Range…"); EventRangeExport writes a time range to CSV a page per event-loop turn, so that a long
// range never holds the GUI up. Nothing here runs on a timer.
#pragma once

#include "core/common/result.hpp"
#include "core/events/event_archive.hpp"

#include <QObject>
#include <QSaveFile>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace telestation::ui {

inline constexpr std::size_t kHistoryPage = 500;

// One query of the archive at `path` (its limit capped at kHistoryPage). An error names the file: not
// there yet, not an event archive, unreadable.
[[nodiscard]] Result<std::vector<events::ArchivedEvent>> readArchivePage(const QString& path, events::EventFilter filter);

// The events of [fromNs, toNs) of an archive, written to a CSV file with events::writeCsv's columns
// (one header row), oldest first. start() returns at once; each page is read and written on a later
// turn of the event loop; the file replaces `csvPath` only when all is written.
class EventRangeExport : public QObject {
    Q_OBJECT

public:
    EventRangeExport(QString archivePath, std::int64_t fromNs, std::int64_t toNs, QString csvPath,
                     QObject* parent = nullptr);
    ~EventRangeExport() override;

    void start();
    [[nodiscard]] bool isDone() const noexcept { return m_done; }
    [[nodiscard]] std::uint64_t written() const noexcept { return m_written; }
    [[nodiscard]] const QString& csvPath() const noexcept { return m_csvPath; }

Q_SIGNALS:
    void progress(std::uint64_t written);
    // ok: every event of the range is in the file; else `error` says why (the file is left as it was).
    void done(bool ok, const QString& error);

private:
    void nextPage();
    void finish(bool ok, const QString& error);

    QString m_archivePath;
    QString m_csvPath;
    events::EventFilter m_filter;
    std::optional<events::EventArchive> m_archive;
    std::unique_ptr<QSaveFile> m_file;
    std::uint64_t m_written = 0;
    bool m_done = false;
};

} // namespace telestation::ui
