// telestation-api-values TARGET PARAMETER... : prints every sample of the parameters from a running
// station's API (e.g. `telestation-api-values 127.0.0.1:50051 Packet5.CPU_LOAD`) until interrupted.
// TELESTATION_TOKEN in the environment is sent as the call's token.
#include "clients/cpp/client.hpp"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s HOST:PORT PACKET.PARAMETER...\n", argv[0]);
        return 2;
    }
    telestation::client::Options options;
    if (const char* token = std::getenv("TELESTATION_TOKEN"))
        options.token = token;
    options.clientName = "telestation-api-values";
    telestation::client::Client station(argv[1], options);
    std::vector<std::string> names(argv + 2, argv + argc);
    try {
        std::printf("%s, mission %s\n", argv[1], station.serverInfo().mission().c_str());
        auto subscription = station.parameters(names);
        while (auto batch = subscription.next())
            for (const auto& s : batch->samples())
                std::printf("%lld %s %s %.9g%s\n", static_cast<long long>(s.receive_time_ns()),
                            subscription.streamName(s.stream_id()).c_str(), subscription.name(s.parameter_id()).c_str(),
                            s.calibrated(), s.state_text().empty() ? "" : (" " + s.state_text()).c_str());
        if (!subscription.status().ok()) {
            std::fprintf(stderr, "%s\n", subscription.status().error_message().c_str());
            return 1;
        }
    } catch (const telestation::client::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
