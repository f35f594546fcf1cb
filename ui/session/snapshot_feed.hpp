// SnapshotFeed: one statistics snapshot per tick for every view that shows counts. The session owns
// one; its source is the running station's snapshot(). Once a second it takes one snapshot, fills in
// what the engine leaves to its observers (rates over the interval since the previous tick, the
// process's CPU) and hands the same shared, immutable copy to every view (the streams panel, the
// packet table, packet views, the recordings browser, the statistics dialog), so the views agree with
// each other and the station is asked once, not once per view. follow() connects a view: it gets the
// ticks while visible and latest() at once when shown; a hidden view costs nothing.
//
// tick() is also what a view calls when the operator needs the state of this moment (the statistics
// dialog's Reset, the first packet a packet view shows): every view gets that snapshot too.
#pragma once

#include "core/stats/cpu_meter.hpp"
#include "core/stats/rate_tracker.hpp"
#include "core/stats/snapshot.hpp"
#include "ui/session/phased_timer.hpp"

#include <QObject>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

class QWidget;

namespace telestation::ui {

using SharedSnapshot = std::shared_ptr<const stats::StationSnapshot>;

class SnapshotFeed : public QObject {
    Q_OBJECT

public:
    // Called on the GUI thread at each tick; nullopt when there is nothing to take (no station).
    using Source = std::function<std::optional<stats::StationSnapshot>()>;
    static constexpr std::chrono::milliseconds kInterval{1000};

    explicit SnapshotFeed(Source source, QObject* parent = nullptr);

    // The timer: a tick every kInterval while running.
    void start();
    void stop();
    [[nodiscard]] bool isRunning() const { return m_timer.isActive(); }

    // The snapshot of the last tick (nullptr before the first, and after forget()).
    [[nodiscard]] SharedSnapshot latest() const { return m_latest; }
    // How many snapshots the source gave: one per tick that had something to take.
    [[nodiscard]] std::uint64_t snapshotsTaken() const noexcept { return m_taken; }
    // Another station: latest() is nullptr until the next tick, whose rates are 0 (no interval yet).
    void forget();

    // Calls show(snapshot) at each tick while `view` is visible, and show(latest()) each time it is
    // shown (when there is one). Ends with the view.
    void follow(QWidget* view, std::function<void(const SharedSnapshot&)> show);

public Q_SLOTS:
    // Takes one snapshot now and hands it to every view.
    void tick();

Q_SIGNALS:
    void snapshotTaken(const telestation::ui::SharedSnapshot& snapshot);

private:
    Source m_source;
    PhasedTimer m_timer{kInterval};
    stats::RateTracker m_rates;
    stats::CpuMeter m_cpu;
    SharedSnapshot m_latest;
    std::uint64_t m_taken = 0;
};

} // namespace telestation::ui
