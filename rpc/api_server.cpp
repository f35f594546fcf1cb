#include "rpc/api_server.hpp"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <fstream>
#include <sstream>

namespace telestation::rpc {

namespace {

Result<std::string> readFile(const std::string& path, const char* what)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{std::string("cannot read the API's TLS ") + what + " '" + path + "'", {}};
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string hostPort(const std::string& address, std::uint16_t port)
{
    const bool ipv6 = address.find(':') != std::string::npos;
    return (ipv6 ? "[" + address + "]" : address) + ":" + std::to_string(port);
}

} // namespace

ApiServerOptions serverOptions(const config::ApiOptions& api)
{
    ApiServerOptions options;
    options.address = api.address;
    options.port = api.port;
    options.tlsCertificate = api.tlsCertificate;
    options.tlsKey = api.tlsKey;
    for (const auto& t : api.tokens)
        options.tokens.push_back({t.token, t.name, t.control});
    return options;
}

ApiServer::ApiServer(ApiServerOptions options, std::unique_ptr<StationService> service)
    : m_options(std::move(options)), m_service(std::move(service))
{
}

Result<std::unique_ptr<ApiServer>> ApiServer::start(pipeline::Station& station, ApiServerOptions options)
{
    const bool hasTls = !options.tlsCertificate.empty() || !options.tlsKey.empty();
    if (hasTls && (options.tlsCertificate.empty() || options.tlsKey.empty()))
        return Error{"the API's TLS needs both a certificate and a key", {}};
    if (!config::isLoopbackAddress(options.address) && (!hasTls || options.tokens.empty()))
        return Error{"the API listens on " + options.address +
                         " (not loopback) only with TLS (certificate and key) and at least one token",
                     {}};
    std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
    if (hasTls) {
        auto certificate = readFile(options.tlsCertificate, "certificate");
        if (!certificate)
            return certificate.error();
        auto key = readFile(options.tlsKey, "key");
        if (!key)
            return key.error();
        grpc::SslServerCredentialsOptions ssl;
        ssl.pem_key_cert_pairs.push_back({*key, *certificate});
        credentials = grpc::SslServerCredentials(ssl);
    }
    auto service = std::make_unique<StationService>(station, options.tokens);
    std::unique_ptr<ApiServer> server(new ApiServer(options, std::move(service)));
    int port = 0;
    grpc::ServerBuilder builder;
    builder.AddListeningPort(hostPort(options.address, options.port), credentials, &port);
    server->m_archive = std::make_unique<ArchiveService>(station, *server->m_service);
    builder.RegisterService(server->m_service.get());
    builder.RegisterService(server->m_archive.get());
    builder.SetMaxReceiveMessageSize(options.maxRequestBytes);
    // gRPC sets SO_REUSEPORT by default: a second station could then bind the same port without error
    // and clients would be split between the two. Off: the second one is refused, as it should be.
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    server->m_server = builder.BuildAndStart();
    if (!server->m_server || port == 0)
        return Error{"the API cannot listen on " + hostPort(options.address, options.port) +
                         " (in use, or not an address of this machine)",
                     {}};
    server->m_port = static_cast<std::uint16_t>(port);
    return server;
}

ApiServer::~ApiServer()
{
    m_service->stop();
    if (m_server) {
        m_server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
        m_server->Wait();
    }
}

std::string ApiServer::target() const
{
    return hostPort(m_options.address == "0.0.0.0" ? "127.0.0.1" : m_options.address, m_port);
}

} // namespace telestation::rpc
