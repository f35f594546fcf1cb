#include "ui/plotting/decimation.hpp"

#include <algorithm>
#include <limits>

namespace telestation::ui {

namespace {

// Running extremes of one column: the earliest index holding the minimum and the maximum.
struct Extremes {
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    std::size_t minIndex = 0;
    std::size_t maxIndex = 0;

    // `values` are those of the samples of indexes offset, offset + 1, ...
    void scan(std::span<const double> values, std::size_t offset) noexcept
    {
        for (std::size_t k = 0; k < values.size(); ++k) {
            const double v = values[k];
            if (v < min) {
                min = v;
                minIndex = offset + k;
            }
            if (v > max) {
                max = v;
                maxIndex = offset + k;
            }
        }
    }
};

} // namespace

void decimateMinMax(const SampleHistory& history, double t0, double t1, int columns, std::vector<Sample>& out)
{
    out.clear();
    if (columns <= 0 || !(t0 < t1) || history.empty())
        return;
    const auto [begin, end] = history.indexRange(t0, t1);
    if (begin > 0)
        out.push_back(history.at(begin - 1));

    // The ring as two contiguous pieces, so that the inner loop runs over plain arrays.
    const auto segments = history.segments();
    const std::size_t split = segments[0].values.size();
    const auto columnAt = [&](std::size_t i) { return columnOf(history.timeAt(i), t0, t1, columns); };

    std::size_t pos = begin;
    while (pos < end) {
        // The column's samples are [pos, columnEnd): gallop from pos, then bisect, so that sparse data costs
        // O(1) per column and dense data O(log samples per column).
        const int column = columnAt(pos);
        std::size_t inside = pos;
        std::size_t step = 1;
        std::size_t probe = pos + 1;
        while (probe < end && columnAt(probe) <= column) {
            inside = probe;
            step *= 2;
            probe = pos + step;
        }
        std::size_t low = inside + 1;
        std::size_t count = std::min(probe, end) - low;
        while (count > 0) {
            const std::size_t half = count / 2;
            if (columnAt(low + half) <= column) {
                low += half + 1;
                count -= half + 1;
            } else {
                count = half;
            }
        }
        const std::size_t columnEnd = low;

        Extremes extremes;
        if (pos < split)
            extremes.scan(segments[0].values.subspan(pos, std::min(columnEnd, split) - pos), pos);
        if (columnEnd > split) {
            const std::size_t from = std::max(pos, split);
            extremes.scan(segments[1].values.subspan(from - split, columnEnd - from), from);
        }

        // first <= earlier extreme <= later extreme <= last, each emitted once.
        const std::size_t indexes[4] = {pos, std::min(extremes.minIndex, extremes.maxIndex),
                                        std::max(extremes.minIndex, extremes.maxIndex), columnEnd - 1};
        out.push_back(history.at(indexes[0]));
        for (int k = 1; k < 4; ++k) {
            if (indexes[k] != indexes[k - 1])
                out.push_back(history.at(indexes[k]));
        }
        pos = columnEnd;
    }

    if (end < history.size())
        out.push_back(history.at(end));
}

} // namespace telestation::ui
