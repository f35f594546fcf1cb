// Whether every packet the simulator sent reached everything its packet type's settings say, checked
// per stream and APID against the station's snapshot: received = sent; processed = received (pass thru,
// on demand or entirely); a type processed entirely decoded every packet with all of its parameters;
// recorded and forwarded = received where the type records or forwards. The simulator must have sent
// everything it generated (a TCP stream not yet connected does not send). The endurance run's loss
// check, for TReK's streams and the demo's alike.
#pragma once

#include "core/stats/snapshot.hpp"
#include "sim/engine/sim_summary.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace telestation::perf {

// One stream's counts (the station's, but `sent` and `mbps`: the simulator's).
struct StreamDelivery {
    std::string name;
    double mbps = 0; // as sent
    std::uint64_t sent = 0, received = 0, processed = 0, decoded = 0, recorded = 0, forwarded = 0;
};

struct Delivery {
    std::vector<StreamDelivery> streams; // in the simulator's order
    std::uint64_t sent = 0, received = 0, processed = 0, decoded = 0; // decoded: parameters
    std::uint64_t recorded = 0, forwarded = 0;
    std::uint64_t toRecord = 0, toForward = 0; // what the settings ask: sent packets of recording / forwarding types
    std::string failure; // "stream health APID 100: recorded 3 of 5; ...", empty when everything arrived
};

// `parameters`: each packet definition's parameter count, by name.
[[nodiscard]] Delivery checkDelivery(const sim::SimSummary& sent, const stats::StationSnapshot& station,
                                     const std::map<std::string, std::uint32_t>& parameters);

} // namespace telestation::perf
