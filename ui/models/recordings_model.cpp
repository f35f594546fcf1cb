#include "ui/models/recordings_model.hpp"

#include "core/record/playback.hpp"
#include "ui/text/number_format.hpp"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QThread>

#include <algorithm>
#include <memory>
#include <tuple>
#include <unordered_map>

namespace telestation::ui {

namespace {

constexpr const char* kCatalogFile = "catalog.sqlite";

bool rowLess(const record::SegmentInfo& a, const record::SegmentInfo& b)
{
    return std::tie(a.streamName, a.sequence, a.file) < std::tie(b.streamName, b.sequence, b.file);
}

} // namespace

RecordingsModel::RecordingsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

RecordingsModel::~RecordingsModel()
{
    if (m_thread) {
        // Its finished() connection to this model dies with the model; the thread object is ours to delete.
        m_thread->wait();
        delete m_thread.data();
    }
}

RecordingListing RecordingsModel::listRecording(const QString& directory, bool mayBeRecording)
{
    RecordingListing out;
    out.directory = directory;
    // Checked first: neither PlaybackSource nor RecordingCatalog is asked about a directory without a
    // catalog, so browsing somewhere never creates anything there.
    if (directory.isEmpty() || !QFileInfo(QDir(directory).filePath(QString::fromLatin1(kCatalogFile))).isFile())
        return out;
    out.hasCatalog = true;

    auto source = record::PlaybackSource::open(directory.toStdString(), {});
    if (!source) {
        out.error = QString::fromStdString(source.error().toString());
        return out;
    }
    std::vector<record::SegmentInfo> segments = (*source)->segments();
    source->reset();
    const bool anyOpen = std::any_of(segments.begin(), segments.end(),
        [](const record::SegmentInfo& s) { return s.state == record::SegmentState::Open; });
    if (!mayBeRecording && !anyOpen) {
        // Nothing open, so RecordingCatalog's recovery has nothing to change; it adds the per-APID
        // counts and the segments without records. It fails on read-only media: the read-only list stays.
        if (auto catalog = record::RecordingCatalog::open(directory.toStdString())) {
            segments = (*catalog)->segments();
            out.readOnly = false;
        }
    }
    std::sort(segments.begin(), segments.end(), rowLess);
    out.segments = std::move(segments);
    return out;
}

void RecordingsModel::setDirectory(const QString& directory)
{
    if (directory == m_directory)
        return;
    m_directory = directory;
    m_listing = RecordingListing {};
    m_listing.directory = directory;
    if (!m_rows.empty()) {
        beginResetModel();
        m_rows.clear();
        endResetModel();
    }
}

void RecordingsModel::refresh(bool mayBeRecording)
{
    if (m_thread) {
        m_again = true;
        m_againMayBeRecording = m_againMayBeRecording || mayBeRecording;
        return;
    }
    m_againMayBeRecording = mayBeRecording;
    startListing();
}

void RecordingsModel::startListing()
{
    auto result = std::make_shared<RecordingListing>();
    const QString directory = m_directory;
    const bool mayBeRecording = m_againMayBeRecording;
    m_againMayBeRecording = false;
    QThread* thread
        = QThread::create([result, directory, mayBeRecording] { *result = listRecording(directory, mayBeRecording); });
    thread->setObjectName(QStringLiteral("recording listing"));
    m_thread = thread;
    connect(thread, &QThread::finished, this, [this, thread, result] {
        if (m_thread == thread)
            m_thread = nullptr;
        thread->deleteLater();
        apply(*result);
        if (m_again) {
            m_again = false;
            startListing();
        }
    });
    thread->start();
}

void RecordingsModel::apply(const RecordingListing& listing)
{
    if (listing.directory != m_directory)
        return; // listed before the directory changed
    m_listing = listing;
    setRows(listing.segments);
    Q_EMIT listed();
}

void RecordingsModel::setRows(std::vector<record::SegmentInfo> next)
{
    std::sort(next.begin(), next.end(), rowLess);
    std::unordered_map<std::string, std::size_t> position;
    for (std::size_t i = 0; i < next.size(); ++i)
        position.emplace(next[i].file, i);

    // Rows that went away (a segment deleted behind our back, another catalog).
    for (int r = static_cast<int>(m_rows.size()) - 1; r >= 0; --r) {
        if (position.count(m_rows[static_cast<std::size_t>(r)].file) == 0) {
            beginRemoveRows({}, r, r);
            m_rows.erase(m_rows.begin() + r);
            endRemoveRows();
        }
    }
    // What is left must come in the same order in `next`; it does unless the catalog was replaced.
    std::size_t last = 0;
    bool ordered = true;
    for (const auto& row : m_rows) {
        const std::size_t at = position.at(row.file);
        if (&row != &m_rows.front() && at <= last)
            ordered = false;
        last = at;
    }
    if (!ordered) {
        beginResetModel();
        m_rows = std::move(next);
        endResetModel();
        return;
    }
    // Insert the new ones where they belong, update the changed ones in place.
    for (std::size_t i = 0; i < next.size(); ++i) {
        const int row = static_cast<int>(i);
        if (i < m_rows.size() && m_rows[i].file == next[i].file) {
            if (!(m_rows[i] == next[i])) {
                m_rows[i] = next[i];
                Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
            }
            continue;
        }
        beginInsertRows({}, row, row);
        m_rows.insert(m_rows.begin() + row, next[i]);
        endInsertRows();
    }
}

int RecordingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RecordingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RecordingsModel::stateText(record::SegmentState state)
{
    switch (state) {
    case record::SegmentState::Open:
        return tr("open");
    case record::SegmentState::Closed:
        return tr("closed");
    case record::SegmentState::Damaged:
        return tr("damaged");
    }
    return {};
}

QString RecordingsModel::timeText(std::int64_t ns)
{
    if (ns == 0)
        return {};
    const std::int64_t ms = ns >= 0 ? ns / 1'000'000 : -((-ns + 999'999) / 1'000'000);
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString RecordingsModel::durationText(std::int64_t ns)
{
    const std::int64_t totalMs = std::max<std::int64_t>(0, ns) / 1'000'000;
    const std::int64_t days = totalMs / 86'400'000;
    const std::int64_t hours = totalMs / 3'600'000 % 24;
    const std::int64_t minutes = totalMs / 60'000 % 60;
    const std::int64_t seconds = totalMs / 1000 % 60;
    const std::int64_t ms = totalMs % 1000;
    const QString text = QStringLiteral("%1:%2:%3.%4")
                             .arg(hours, 2, 10, QLatin1Char('0'))
                             .arg(minutes, 2, 10, QLatin1Char('0'))
                             .arg(seconds, 2, 10, QLatin1Char('0'))
                             .arg(ms, 3, 10, QLatin1Char('0'));
    return days > 0 ? QStringLiteral("%1d %2").arg(days).arg(text) : text;
}

QVariant RecordingsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const record::SegmentInfo& s = m_rows[static_cast<std::size_t>(index.row())];
    const bool hasTimes = s.firstTimeNs != 0 && s.lastTimeNs != 0;
    const QLocale locale;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Stream:
            return QString::fromStdString(s.streamName);
        case Sequence:
            return QString::number(s.sequence);
        case File:
            return QString::fromStdString(s.file);
        case State:
            return stateText(s.state);
        case FirstTime:
            return timeText(s.firstTimeNs);
        case LastTime:
            return timeText(s.lastTimeNs);
        case Duration:
            return hasTimes ? durationText(s.lastTimeNs - s.firstTimeNs) : QString();
        case Packets:
            return countText(s.packets);
        case Bytes:
            return locale.formattedDataSize(static_cast<qint64>(s.bytes), 1, QLocale::DataSizeTraditionalFormat);
        default:
            return {};
        }
    case kValueRole:
        switch (index.column()) {
        case Stream:
            return QString::fromStdString(s.streamName);
        case Sequence:
            return static_cast<qulonglong>(s.sequence);
        case File:
            return QString::fromStdString(s.file);
        case State:
            return static_cast<int>(s.state);
        case FirstTime:
            return static_cast<qlonglong>(s.firstTimeNs);
        case LastTime:
            return static_cast<qlonglong>(s.lastTimeNs);
        case Duration:
            return static_cast<qlonglong>(hasTimes ? s.lastTimeNs - s.firstTimeNs : 0);
        case Packets:
            return static_cast<qulonglong>(s.packets);
        case Bytes:
            return static_cast<qulonglong>(s.bytes);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        switch (index.column()) {
        case File:
            return QDir(m_directory).filePath(QString::fromStdString(s.file));
        case State:
            if (!s.problem.empty())
                return QString::fromStdString(s.problem);
            return s.state == record::SegmentState::Open
                ? tr("Being written (or left open by a crash); counts from a scan of the file")
                : QString();
        case Packets: {
            if (s.apidPackets.empty()) {
                if (s.packets == 0)
                    return tr("No packets");
                return tr("Per-APID counts are shown when nothing records into this directory "
                          "(the catalog is then read without any risk of changing it)");
            }
            QStringList lines;
            for (const auto& [apid, count] : s.apidPackets)
                lines << tr("APID %1: %2").arg(apid).arg(countText(count));
            return lines.join(QLatin1Char('\n'));
        }
        case Bytes:
            return tr("%1 bytes").arg(countText(s.bytes));
        default:
            return {};
        }
    case Qt::ForegroundRole:
        if (index.column() == State) {
            if (s.state == record::SegmentState::Damaged)
                return QBrush(QColor(0xb0, 0x00, 0x20));
            if (s.state == record::SegmentState::Open)
                return QBrush(QColor(0x1b, 0x5e, 0x20));
        }
        return {};
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case Sequence:
        case Duration:
        case Packets:
        case Bytes:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant RecordingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Stream:
        return tr("Stream");
    case Sequence:
        return tr("Seq");
    case File:
        return tr("File");
    case State:
        return tr("State");
    case FirstTime:
        return tr("First (UTC)");
    case LastTime:
        return tr("Last (UTC)");
    case Duration:
        return tr("Duration");
    case Packets:
        return tr("Packets");
    case Bytes:
        return tr("Bytes");
    default:
        return {};
    }
}

} // namespace telestation::ui
