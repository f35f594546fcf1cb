// The headless mode's API consumers (--consume): in-process users of core/api, as a display, an
// archive or a user's computation would be, each on its own thread. They load the station the way
// TReK's performance tests did, so that benchmarks measure the station with its users attached.
//
//   packets[@STREAM]         pulls every packet (every sample)
//   parameters[:N][@STREAM]  pulls every sample of every parameter, or of the first N of each packet type
//   computation[:N][@STREAM] TReK's "performance computation": pulls every packet and decodes N of its
//                            parameters (default 50) through the API, whatever the type's mode
//   display[:N][@STREAM]     a value display: reads the newest value of N parameters (default 72) once
//                            a second
//
// Several are separated by commas: "packets,parameters:50". STREAM limits one to a stream.
#pragma once

#include "core/common/result.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::pipeline {
class Station;
}

namespace telestation::app {

struct ConsumerSpec {
    enum class Kind { Packets, Parameters, Computation, Display };
    Kind kind = Kind::Packets;
    std::uint32_t count = 0; // parameters per packet type (0 = all) or, for a display, parameters shown
    std::string stream;      // "" = every stream
    std::string text;        // as written; the subscription's name in the statistics
};

// Errors name the item that is wrong and list what is accepted.
[[nodiscard]] Result<std::vector<ConsumerSpec>> parseConsumerSpecs(std::string_view text);

// What one consumer took, reported when the run ends.
struct ConsumerReport {
    std::string name;
    std::uint64_t packets = 0;    // packets pulled
    std::uint64_t parameters = 0; // parameter values pulled, decoded or read
    std::string error;            // the subscription could not be made (no such stream, ...)
};

class ApiConsumer;

// Runs the consumers of a station. Create before Station::start() so that nothing is missed;
// finish() after Station::stop() takes what is still queued.
class ApiConsumers {
public:
    ApiConsumers(pipeline::Station& station, const std::vector<ConsumerSpec>& specs);
    ~ApiConsumers();
    ApiConsumers(const ApiConsumers&) = delete;
    ApiConsumers& operator=(const ApiConsumers&) = delete;

    void finish();
    [[nodiscard]] std::vector<ConsumerReport> reports() const;

private:
    std::vector<std::unique_ptr<ApiConsumer>> m_consumers;
};

} // namespace telestation::app
