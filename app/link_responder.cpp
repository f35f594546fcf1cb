#include "app/link_responder.hpp"

#include "core/config/mission_file.hpp"

#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>

namespace telestation::app {

Result<std::unique_ptr<link::Responder>> startLinkResponder(const config::LinkResponderOptions& options,
                                                            const mdb::MissionDatabase& mission)
{
    link::ResponderOptions responder;
    responder.listen = options.listen;
    responder.allow = options.allow;
    responder.mission = std::make_shared<const mdb::MissionDatabase>(mission);
    auto started = link::Responder::start(std::move(responder));
    if (!started)
        return started.error();
    spdlog::info("link test responder on {} (controllers allowed: loopback{}{})", (*started)->address(), options.allow.empty() ? "" : ", ",
                 [&] {
                     std::string list;
                     for (const auto& a : options.allow)
                         list += (list.empty() ? "" : ", ") + a;
                     return list;
                 }());
    return started;
}

int runLinkResponderOnly(const config::LinkResponderOptions& options, const std::string& mdbPath)
{
    // Signals are taken by sigwait: blocked before the responder's threads start, which inherit the mask.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    auto mission = config::loadMission(mdbPath);
    if (!mission.ok()) {
        std::fprintf(stderr, "telestation: %s\n", mission.error().toString().c_str());
        return 1;
    }
    auto responder = startLinkResponder(options, *mission.database);
    if (!responder) {
        std::fprintf(stderr, "telestation: %s\n", responder.error().message.c_str());
        return 1;
    }
    std::fprintf(stderr, "telestation: link test responder listening on %s (SIGINT or SIGTERM ends it)\n", (*responder)->address().c_str());
    int signal = 0;
    sigwait(&signals, &signal);
    (*responder)->stop();
    const auto counts = (*responder)->counts();
    std::fprintf(stderr, "telestation: link test responder stopped: %llu test(s), %llu phase(s), %llu connection(s) refused\n",
                 static_cast<unsigned long long>(counts.sessions), static_cast<unsigned long long>(counts.phases),
                 static_cast<unsigned long long>(counts.refused));
    return 0;
}

} // namespace telestation::app
