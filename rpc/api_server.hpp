// The station's user API server: a gRPC server on its own threads serving StationService for one
// pipeline::Station, in the GUI and in the headless mode. Loopback (127.0.0.1) by default; any other
// address needs TLS (certificate and key files, PEM) and at least one token — start() refuses
// otherwise, with the reason. Requests larger than maxRequestBytes are refused by gRPC
// (RESOURCE_EXHAUSTED) before they reach the service.
#pragma once

#include "core/common/result.hpp"
#include "core/config/station_profile.hpp"
#include "rpc/archive_service.hpp"
#include "rpc/station_service.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace grpc {
class Server;
}

namespace telestation::rpc {

struct ApiServerOptions {
    std::string address = "127.0.0.1"; // an IP address to bind ("0.0.0.0": every interface)
    std::uint16_t port = 0;            // 0: any free port (port() tells which)
    std::string tlsCertificate;        // PEM files; both or neither
    std::string tlsKey;
    std::vector<AccessToken> tokens;
    int maxRequestBytes = 1 << 20;
};

class ApiServer {
public:
    [[nodiscard]] static Result<std::unique_ptr<ApiServer>> start(pipeline::Station& station, ApiServerOptions options);
    ~ApiServer(); // ends every call (streaming ones within ~50 ms) and stops the server

    ApiServer(const ApiServer&) = delete;
    ApiServer& operator=(const ApiServer&) = delete;

    [[nodiscard]] std::uint16_t port() const noexcept { return m_port; }
    // "127.0.0.1:50051": where clients connect.
    [[nodiscard]] std::string target() const;
    [[nodiscard]] bool tls() const noexcept { return !m_options.tlsCertificate.empty(); }
    [[nodiscard]] std::uint64_t refusals() const noexcept { return m_service->refusals(); }

private:
    ApiServer(ApiServerOptions options, std::unique_ptr<StationService> service);

    ApiServerOptions m_options;
    std::unique_ptr<StationService> m_service;
    std::unique_ptr<ArchiveService> m_archive;
    std::unique_ptr<grpc::Server> m_server;
    std::uint16_t m_port = 0;
};

// The profile's `api` section as server options.
[[nodiscard]] ApiServerOptions serverOptions(const config::ApiOptions& api);

} // namespace telestation::rpc
