#include "ui/session/phased_timer.hpp"

#include <QDockWidget>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace telestation::ui {

using Clock = std::chrono::steady_clock;
using std::chrono::nanoseconds;

// The running timers of each period, in the order they started, and where each period's group sits.
// Process-wide by design (the point is that timers which know nothing of each other keep apart); the
// GUI thread's only, like the timers.
class PhaseAllocator {
public:
    static PhaseAllocator& instance()
    {
        static PhaseAllocator allocator;
        return allocator;
    }

    [[nodiscard]] Clock::time_point epoch() const noexcept { return m_epoch; }

    void join(PhasedTimer* timer)
    {
        Group& group = groupOf(timer->m_period);
        group.members.push_back(timer);
        spread(group, timer->m_period);
    }

    void leave(PhasedTimer* timer, std::chrono::milliseconds period)
    {
        const auto it = m_groups.find(period.count());
        if (it == m_groups.end())
            return;
        auto& members = it->second.members;
        members.erase(std::remove(members.begin(), members.end(), timer), members.end());
        spread(it->second, period);
    }

    [[nodiscard]] int running(std::chrono::milliseconds period) const
    {
        const auto it = m_groups.find(period.count());
        return it == m_groups.end() ? 0 : static_cast<int>(it->second.members.size());
    }

private:
    struct Group {
        double base = 0; // a fraction of the spacing P/N, so that groups of different periods keep apart
        std::vector<PhasedTimer*> members;
    };

    Group& groupOf(std::chrono::milliseconds period)
    {
        const auto [it, made] = m_groups.try_emplace(period.count());
        if (made) {
            // The golden ratio's multiples spread the groups' bases over [0, 1) however many there are.
            constexpr double kGolden = 0.6180339887498949;
            double whole = 0;
            it->second.base = std::modf(static_cast<double>(m_groupsMade++) * kGolden, &whole);
        }
        return it->second;
    }

    static void spread(const Group& group, std::chrono::milliseconds period)
    {
        const auto n = static_cast<double>(group.members.size());
        const auto p = static_cast<double>(nanoseconds(period).count());
        for (std::size_t i = 0; i < group.members.size(); ++i) {
            const double at = std::fmod((group.base + static_cast<double>(i)) * p / n, p);
            group.members[i]->setPhase(nanoseconds(static_cast<std::int64_t>(at)));
        }
    }

    Clock::time_point m_epoch = Clock::now();
    std::map<std::int64_t, Group> m_groups;
    int m_groupsMade = 0;
};

namespace {

QDockWidget* dockOf(QWidget* widget)
{
    for (QWidget* w = widget; w; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w))
            return dock;
    return nullptr;
}

} // namespace

PhasedTimer::PhasedTimer(std::chrono::milliseconds period, QObject* parent)
    : QObject(parent), m_period(std::max(period, std::chrono::milliseconds(1)))
{
    m_shot.setSingleShot(true);
    m_shot.setTimerType(Qt::PreciseTimer);
    connect(&m_shot, &QTimer::timeout, this, &PhasedTimer::shoot);
}

PhasedTimer::~PhasedTimer()
{
    stop();
}

void PhasedTimer::setInterval(std::chrono::milliseconds period)
{
    period = std::max(period, std::chrono::milliseconds(1));
    if (period == m_period)
        return;
    if (!m_active) {
        m_period = period;
        return;
    }
    PhaseAllocator::instance().leave(this, m_period);
    m_period = period;
    PhaseAllocator::instance().join(this); // sets the phase and arms
}

void PhasedTimer::start()
{
    if (m_active)
        return;
    m_active = true;
    m_skipped = false;
    m_lastShot = {};
    PhaseAllocator::instance().join(this);
}

void PhasedTimer::stop()
{
    if (!m_active)
        return;
    m_active = false;
    m_shot.stop();
    PhaseAllocator::instance().leave(this, m_period);
}

int PhasedTimer::runningWithPeriod(std::chrono::milliseconds period)
{
    return PhaseAllocator::instance().running(period);
}

void PhasedTimer::setPhase(nanoseconds phase)
{
    m_phase = phase;
    if (m_active)
        arm();
}

void PhasedTimer::arm()
{
    // The next phase point after now, and at least half a period after the previous shot (a new phase
    // must not bring a shot right after the last one).
    const Clock::time_point now = Clock::now();
    const nanoseconds period = m_period;
    const Clock::time_point after = std::max(now, m_lastShot + period / 2);
    const nanoseconds since = after - (PhaseAllocator::instance().epoch() + m_phase);
    auto k = since.count() / period.count() + 1;
    if (since.count() < 0)
        k = since.count() / period.count(); // truncation went towards zero: that point is already after
    m_due = PhaseAllocator::instance().epoch() + m_phase + k * period;
    // Rounded up, so that the shot is never early for its phase point.
    const auto delay = std::chrono::ceil<std::chrono::milliseconds>(m_due - now);
    m_shot.start(std::max(delay, std::chrono::milliseconds(0)));
}

void PhasedTimer::shoot()
{
    if (!m_active)
        return;
    m_lastShot = m_due;
    arm();
    if (m_sight) {
        followDock();
        m_skipped = !isSeen(m_sight);
        if (m_skipped)
            return;
    }
    ++m_shots;
    Q_EMIT timeout();
}

void PhasedTimer::skipWhileUnseen(QWidget* widget)
{
    m_sight = widget;
    followDock();
}

void PhasedTimer::followDock()
{
    // Looked up again at each shot: a display is made before it is put into its dock.
    QDockWidget* dock = m_sight ? dockOf(m_sight) : nullptr;
    if (dock == m_dock)
        return;
    disconnect(m_dockConnection);
    m_dock = dock;
    if (!dock)
        return;
    m_dockConnection = connect(dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        // Its tab came to the front after shots were skipped: catch up now rather than a period later.
        // (The signal comes before the dock's new geometry, so isSeen() would not tell yet; a dock that
        // is just shown skipped nothing, and its view refreshes in its own show event.)
        if (!visible || !m_skipped || !m_active || !m_sight || !m_sight->isVisible() || m_sight->window()->isMinimized())
            return;
        m_skipped = false;
        ++m_shots;
        Q_EMIT timeout();
    });
}

bool PhasedTimer::isSeen(const QWidget* widget)
{
    return widget && widget->isVisible() && !widget->window()->isMinimized() && !widget->visibleRegion().isEmpty();
}

} // namespace telestation::ui
