// The segments of a recording directory as a table: stream, sequence, file, state (open, closed,
// damaged, with the problem as tooltip), first and last receive time (UTC), duration, packets (per-APID
// counts as tooltip) and bytes. Rows are kept in (stream, sequence) order and updated in place when
// the directory is listed again — inserted, removed or changed, never reset — so a selection survives
// the periodic refresh while a station records.
//
// Listing a directory (listRecording) reads the catalog READ-ONLY through record::PlaybackSource
// whenever a segment is open or the caller says the directory may be recorded into:
// record::RecordingCatalog::open would "recover" OPEN segments, i.e. mark the recorder's current ones
// closed under its feet, and it needs a writable directory. The read-only path has no per-APID counts
// for closed segments and leaves out closed segments without records, so when nothing is being
// recorded the catalog is opened with RecordingCatalog (then nothing is left open to recover) for the
// full picture. A directory without catalog.sqlite is never opened at all (nothing is created in it).
//
// Open segments are counted by scanning their files, which can take a while for a large segment:
// refresh() lists in a worker thread and applies the result in the GUI thread.
#pragma once

#include "core/record/recording_catalog.hpp"

#include <QAbstractTableModel>
#include <QPointer>
#include <QString>
#include <QThread>

#include <cstdint>
#include <vector>

namespace telestation::ui {

// What listing a recording directory found.
struct RecordingListing {
    QString directory;
    bool hasCatalog = false; // the directory has a catalog.sqlite
    QString error; // it has one but it could not be read ("" = fine)
    bool readOnly = true; // read without RecordingCatalog (open segments, or a live directory)
    std::vector<record::SegmentInfo> segments; // by stream name, then sequence
};

class RecordingsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Stream, Sequence, File, State, FirstTime, LastTime, Duration, Packets, Bytes, ColumnCount };
    // Numbers and times as numbers (qulonglong / qlonglong ns), for tests and sorting.
    static constexpr int kValueRole = Qt::UserRole + 1;

    explicit RecordingsModel(QObject* parent = nullptr);
    ~RecordingsModel() override; // waits for a listing still running

    // `mayBeRecording`: a station may write into `directory` now; it is then read read-only even when
    // no segment is open yet (a recorder opens its first segment at its first packet).
    [[nodiscard]] static RecordingListing listRecording(const QString& directory, bool mayBeRecording);

    // The directory listed by refresh(); changing it clears the rows.
    void setDirectory(const QString& directory);
    [[nodiscard]] QString directory() const { return m_directory; }
    // Lists the directory in a worker thread (a request during a running listing runs after it);
    // listed() says when the rows are up to date.
    void refresh(bool mayBeRecording);
    [[nodiscard]] bool isListing() const noexcept { return m_thread != nullptr; }
    // Applies a listing (what refresh() does when its worker is done); ignored when it is of another
    // directory than the current one.
    void apply(const RecordingListing& listing);
    [[nodiscard]] const RecordingListing& listing() const noexcept { return m_listing; }

    [[nodiscard]] const record::SegmentInfo& segment(int row) const { return m_rows.at(static_cast<std::size_t>(row)); }
    [[nodiscard]] const std::vector<record::SegmentInfo>& segments() const noexcept { return m_rows; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    [[nodiscard]] static QString stateText(record::SegmentState state);
    // "2026-11-22 12:00:00.250" (UTC, ms); "" for 0 (no record).
    [[nodiscard]] static QString timeText(std::int64_t ns);
    // "00:01:05.250"; with "Nd " in front from one day on.
    [[nodiscard]] static QString durationText(std::int64_t ns);

Q_SIGNALS:
    // A listing was applied (also one with an error or without a catalog).
    void listed();

private:
    void startListing();
    void setRows(std::vector<record::SegmentInfo> next);

    QString m_directory;
    RecordingListing m_listing;
    std::vector<record::SegmentInfo> m_rows;
    QPointer<QThread> m_thread;
    bool m_again = false; // refresh() was called while listing
    bool m_againMayBeRecording = false;
};

} // namespace telestation::ui
