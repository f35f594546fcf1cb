#include "ui/models/event_history.hpp"

#include <QTimer>

#include <algorithm>
#include <sstream>
#include <utility>

namespace telestation::ui {

Result<std::vector<events::ArchivedEvent>> readArchivePage(const QString& path, events::EventFilter filter)
{
    if (path.isEmpty())
        return Error{QObject::tr("the profile keeps no event archive").toStdString(), {}};
    auto archive = events::EventArchive::open(path.toStdString(), true);
    if (!archive)
        return archive.error();
    filter.limit = std::min(filter.limit, kHistoryPage);
    return archive->query(filter);
}

EventRangeExport::EventRangeExport(QString archivePath, std::int64_t fromNs, std::int64_t toNs, QString csvPath,
                                   QObject* parent)
    : QObject(parent), m_archivePath(std::move(archivePath)), m_csvPath(std::move(csvPath))
{
    m_filter.fromNs = fromNs;
    m_filter.toNs = toNs;
    m_filter.limit = kHistoryPage;
}

EventRangeExport::~EventRangeExport() = default;

void EventRangeExport::start()
{
    auto archive = events::EventArchive::open(m_archivePath.toStdString(), true);
    if (!archive) {
        finish(false, QString::fromStdString(archive.error().message));
        return;
    }
    m_archive = std::move(*archive);
    m_file = std::make_unique<QSaveFile>(m_csvPath);
    if (!m_file->open(QIODevice::WriteOnly)) {
        finish(false, tr("cannot write %1: %2").arg(m_csvPath, m_file->errorString()));
        return;
    }
    QTimer::singleShot(0, this, &EventRangeExport::nextPage);
}

void EventRangeExport::nextPage()
{
    auto page = m_archive->query(m_filter);
    if (!page) {
        finish(false, QString::fromStdString(page.error().message));
        return;
    }
    std::ostringstream csv;
    events::writeCsv(*page, csv);
    std::string text = std::move(csv).str();
    // writeCsv starts every call with the header row: the file has it once, from the first page.
    if (m_written > 0)
        text.erase(0, text.find("\r\n") + 2);
    if (m_file->write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size())) {
        finish(false, tr("cannot write %1: %2").arg(m_csvPath, m_file->errorString()));
        return;
    }
    m_written += page->size();
    Q_EMIT progress(m_written);
    if (page->size() < m_filter.limit) {
        if (!m_file->commit()) {
            finish(false, tr("cannot write %1: %2").arg(m_csvPath, m_file->errorString()));
            return;
        }
        finish(true, {});
        return;
    }
    m_filter.after = page->back().position();
    QTimer::singleShot(0, this, &EventRangeExport::nextPage);
}

void EventRangeExport::finish(bool ok, const QString& error)
{
    if (!ok && m_file)
        m_file->cancelWriting();
    m_file.reset();
    m_archive.reset();
    m_done = true;
    Q_EMIT done(ok, error);
}

} // namespace telestation::ui
