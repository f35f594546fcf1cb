// What the GUI benchmarks (bench_gui_*) share: a probe of the GUI thread's event-loop lateness, CPU
// clocks, percentiles, a paint counter, the one-stream station profile they open, and the wait for a
// station to take in what the simulator sent.
#pragma once

#include "core/common/clock.hpp"
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"

#include <QElapsedTimer>
#include <QEvent>
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

namespace telestation::bench {

inline double threadCpuSeconds()
{
    return static_cast<double>(clock::threadCpuNs()) * 1e-9;
}

inline double processCpuSeconds()
{
    return static_cast<double>(clock::processCpuNs()) * 1e-9;
}

inline double percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

inline double maximum(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

// Counts the paint events of the widgets it is installed on: frames actually drawn.
class PaintCounter : public QObject {
public:
    using QObject::QObject;
    long frames = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            ++frames;
        return QObject::eventFilter(watched, event);
    }
};

// A Qt::PreciseTimer on the GUI thread that records how much later than asked each tick arrives
// (ms), while measuring.
class LatencyProbe {
public:
    explicit LatencyProbe(int intervalMs, double expectedSeconds = 20) : m_intervalMs(intervalMs)
    {
        m_lateness.reserve(static_cast<std::size_t>(expectedSeconds * 1000.0 / intervalMs) + 1024);
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(intervalMs);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_measuring && m_lastTickNs >= 0)
                m_lateness.push_back(
                    std::max<double>(0, static_cast<double>(now - m_lastTickNs) * 1e-6 - static_cast<double>(m_intervalMs)));
            m_lastTickNs = now;
            if (m_measuring && m_onTick)
                m_onTick();
        });
    }

    // Called at each tick while measuring, after the tick's lateness is recorded (a look at what the
    // GUI did meanwhile; keep it to a few reads).
    void onTick(std::function<void()> f) { m_onTick = std::move(f); }

    void start()
    {
        m_clock.start();
        m_timer.start();
    }
    // Starts (again) recording; the clock restarts.
    void measure()
    {
        m_clock.restart();
        m_lastTickNs = -1;
        m_measuring = true;
    }
    void pause() { m_measuring = false; }
    void stop()
    {
        m_measuring = false;
        m_timer.stop();
    }
    [[nodiscard]] double elapsedSeconds() const { return static_cast<double>(m_clock.nsecsElapsed()) * 1e-9; }
    [[nodiscard]] const std::vector<double>& lateness() const noexcept { return m_lateness; }
    [[nodiscard]] int intervalMs() const noexcept { return m_intervalMs; }

private:
    int m_intervalMs;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastTickNs = -1;
    bool m_measuring = false;
    std::vector<double> m_lateness;
    std::function<void()> m_onTick;
};

// One stream `streamName` on udp://127.0.0.1:0 over the mission database `mdbPath`, every packet type
// processed entirely (the profile's default), nothing recorded; recordings and logs under `dir`.
inline config::StationProfile oneStreamProfile(const QTemporaryDir& dir, const std::string& mdbPath,
                                               const std::string& streamName)
{
    config::StationProfile profile;
    profile.mdb = mdbPath;
    profile.recordingDirectory = dir.filePath(QStringLiteral("recordings")).toStdString();
    profile.logDirectory = dir.filePath(QStringLiteral("logs")).toStdString();
    config::StreamProfile stream;
    stream.name = streamName;
    stream.source = "udp://127.0.0.1:0";
    profile.streams.push_back(stream);
    return profile;
}

// What the simulator sent may still be in the socket: waits until the station has read `sent` packets
// (or 5 s pass, and the delivery line says what is missing), then until its queues are empty.
inline void waitForDelivery(pipeline::Station& station, std::uint64_t sent)
{
    QElapsedTimer catchUp;
    catchUp.start();
    while (catchUp.elapsed() < 5000 && station.snapshot().totals.packetsReceived < sent)
        QThread::msleep(10);
    station.waitIdle(std::chrono::seconds(10));
}

} // namespace telestation::bench
