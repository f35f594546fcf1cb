// A started station with its user API server on 127.0.0.1 (any free port), for the tst_rpc_* tests:
// one UDP stream "tm" (ephemeral port) of the training database. Header-only: only the tests that link
// the API server (tst_rpc_*) include it.
#pragma once

#include "rpc/api_server.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/training_mission.hpp"

#include <QTemporaryDir>
#include <QtGlobal>

#include <memory>
#include <vector>

namespace telestation::test {

struct ApiStation {
    QTemporaryDir dir;
    std::unique_ptr<pipeline::Station> station;
    std::unique_ptr<rpc::ApiServer> server; // declared last: it ends its calls before the station goes
};

// nullptr (with a warning saying why) when the station or the server does not start.
inline std::unique_ptr<ApiStation> apiStation(std::vector<rpc::AccessToken> tokens = {},
                                              const pipeline::StationOptions& options = {})
{
    auto r = std::make_unique<ApiStation>();
    auto profile = stationProfile(r->dir, {streamProfile("tm")});
    profile.streams[0].staleAfterSeconds = 0; // quiet between a test's runs: no stale reports and alarms
    r->station = startStation(profile, trainingDatabase(), options);
    if (!r->station)
        return nullptr;
    rpc::ApiServerOptions serverOptions;
    serverOptions.tokens = std::move(tokens);
    auto server = rpc::ApiServer::start(*r->station, serverOptions);
    if (!server) {
        qWarning("%s", server.error().message.c_str());
        return nullptr;
    }
    r->server = std::move(*server);
    return r;
}

} // namespace telestation::test
