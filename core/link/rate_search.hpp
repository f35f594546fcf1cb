// The search for the highest rate that passes (the telemetry test's 100% delivery): doubles from a
// start rate while tries pass, halves while even the start fails, then bisects between the best
// passing and the lowest failing rate until they are within a tolerance or the tries run out.
#pragma once

#include <optional>
#include <vector>

namespace telestation::link {

class RateSearch {
public:
    struct Options {
        double start = 10;     // first rate tried
        double minimum = 0.1;  // below this, stop halving: nothing passes
        double maximum = 1e5;  // never try above this (the link's limit, a sender's ceiling)
        double tolerance = 0.1; // stop when failing ≤ passing × (1 + tolerance)
        int maxTries = 12;
    };
    explicit RateSearch(Options options);

    // The next rate to try, or nullopt when the search is over.
    [[nodiscard]] std::optional<double> next() const;
    void record(double rate, bool passed);

    [[nodiscard]] std::optional<double> bestPassing() const noexcept { return m_pass; }
    [[nodiscard]] std::optional<double> lowestFailing() const noexcept { return m_fail; }
    [[nodiscard]] int tries() const noexcept { return m_tries; }

private:
    Options m_options;
    std::optional<double> m_pass, m_fail;
    int m_tries = 0;
};

} // namespace telestation::link
