#include "ui/session/snapshot_feed.hpp"

#include <QEvent>
#include <QPointer>
#include <QWidget>

namespace telestation::ui {

namespace {

// Shows the feed's latest snapshot when the followed view is shown.
class ShowFollower : public QObject {
public:
    ShowFollower(SnapshotFeed& feed, QWidget* view, std::function<void(const SharedSnapshot&)> show)
        : QObject(view), m_feed(&feed), m_show(std::move(show))
    {
        view->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Show && m_feed) {
            if (const SharedSnapshot latest = m_feed->latest())
                m_show(latest);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QPointer<SnapshotFeed> m_feed;
    std::function<void(const SharedSnapshot&)> m_show;
};

} // namespace

SnapshotFeed::SnapshotFeed(Source source, QObject* parent) : QObject(parent), m_source(std::move(source))
{
    connect(&m_timer, &PhasedTimer::timeout, this, &SnapshotFeed::tick);
}

void SnapshotFeed::start()
{
    m_timer.start();
}

void SnapshotFeed::stop()
{
    m_timer.stop();
}

void SnapshotFeed::forget()
{
    m_latest.reset();
    m_rates.reset();
}

void SnapshotFeed::tick()
{
    auto snapshot = m_source ? m_source() : std::nullopt;
    if (!snapshot)
        return;
    ++m_taken;
    // The engine leaves rates and CPU to its observers: the feed is the one observer of every view.
    snapshot->cpuPercent = m_cpu.sample();
    m_rates.update(*snapshot);
    m_latest = std::make_shared<const stats::StationSnapshot>(std::move(*snapshot));
    const SharedSnapshot handed = m_latest; // a view may tick again: this signal keeps its own
    Q_EMIT snapshotTaken(handed);
}

void SnapshotFeed::follow(QWidget* view, std::function<void(const SharedSnapshot&)> show)
{
    connect(this, &SnapshotFeed::snapshotTaken, view, [view, show](const SharedSnapshot& snapshot) {
        if (view->isVisible())
            show(snapshot);
    });
    new ShowFollower(*this, view, std::move(show));
}

} // namespace telestation::ui
