// The bounded history of one plotted curve: (time, value) samples in time order, kept in a ring so that
// the newest `capacity` samples stay and the oldest are overwritten. Plots read it as a time window
// (indexRange) and decimate it per pixel column; nothing is copied out.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace telestation::ui {

// One point of a curve: `time` in seconds (the display shows it as UTC, seconds since the Unix epoch),
// `value` in the parameter's engineering unit.
struct Sample {
    double time = 0;
    double value = 0;
    friend bool operator==(const Sample&, const Sample&) = default;
};

class SampleHistory {
public:
    // 2^20 samples = 16 MiB per curve once full; memory grows with what was appended, not up front.
    static constexpr std::size_t kDefaultCapacity = std::size_t{1} << 20;

    explicit SampleHistory(std::size_t capacity = kDefaultCapacity);

    // Appends in order. A sample whose time or value is not finite, or whose time is older than the
    // newest sample kept, is not stored and is counted in rejected(): decimation relies on time order.
    // Equal times are kept. When the history is full the oldest samples are overwritten.
    void append(std::span<const Sample> samples);
    void append(Sample sample) { append(std::span<const Sample>(&sample, 1)); }
    // Forgets every sample (e.g. a new playback with another time base); keeps the capacity and counters.
    void clear() noexcept;

    [[nodiscard]] std::size_t size() const noexcept { return m_times.size(); }
    [[nodiscard]] bool empty() const noexcept { return m_times.empty(); }
    [[nodiscard]] std::size_t capacity() const noexcept { return m_capacity; }
    // The i-th sample kept, 0 = the oldest. Precondition: i < size().
    [[nodiscard]] Sample at(std::size_t i) const noexcept
    {
        const std::size_t p = physical(i);
        return {m_times[p], m_values[p]};
    }
    [[nodiscard]] double timeAt(std::size_t i) const noexcept { return m_times[physical(i)]; }
    [[nodiscard]] Sample oldest() const noexcept { return at(0); }
    [[nodiscard]] Sample newest() const noexcept { return at(size() - 1); }

    // The kept samples as at most two contiguous pieces, oldest first (the second is empty until the
    // ring wraps); times and values apart, so that a scan of values reads only values. Valid until the
    // next append or clear.
    struct Segment {
        std::span<const double> times;
        std::span<const double> values;
    };
    [[nodiscard]] std::array<Segment, 2> segments() const noexcept;

    // Indexes [first, second) of the samples with t0 <= time <= t1; first == second when none.
    struct IndexRange {
        std::size_t begin = 0;
        std::size_t end = 0;
    };
    [[nodiscard]] IndexRange indexRange(double t0, double t1) const noexcept;
    // The index of the first sample with time >= t (lower) or > t (upper); size() when none.
    [[nodiscard]] std::size_t lowerBound(double t) const noexcept;
    [[nodiscard]] std::size_t upperBound(double t) const noexcept;

    // Samples stored since construction (overwritten ones included) and samples refused by append.
    [[nodiscard]] std::uint64_t appended() const noexcept { return m_appended; }
    [[nodiscard]] std::uint64_t rejected() const noexcept { return m_rejected; }
    // Changes whenever the content changes: readers cache derived data (decimation) against it.
    [[nodiscard]] std::uint64_t revision() const noexcept { return m_revision; }

private:
    [[nodiscard]] std::size_t physical(std::size_t i) const noexcept
    {
        const std::size_t p = m_start + i;
        return p < m_times.size() ? p : p - m_times.size();
    }

    // Times and values in separate arrays (grown up to m_capacity, then used as a ring): decimation scans
    // values only, half the memory traffic of (time, value) pairs.
    std::vector<double> m_times;
    std::vector<double> m_values;
    std::size_t m_capacity;
    std::size_t m_start = 0; // physical index of the oldest sample (non-zero only once full)
    std::uint64_t m_appended = 0;
    std::uint64_t m_rejected = 0;
    std::uint64_t m_revision = 0;
};

} // namespace telestation::ui
