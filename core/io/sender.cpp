#include "core/io/sender.hpp"

#include "core/io/sender_backends.hpp"

namespace telestation::io {

Result<std::unique_ptr<Sender>> openSender(const Endpoint& endpoint, const SenderOptions& options)
{
    switch (endpoint.scheme) {
    case Scheme::Udp:
        return detail::openUdpSender(endpoint, options);
    case Scheme::Tcp:
        return detail::openTcpClientSender(endpoint, options);
    case Scheme::TcpListen:
        return detail::openTcpServerSender(endpoint, options);
    case Scheme::File:
        break;
    }
    return Error{endpoint.toString() + ": cannot send to a file:// endpoint (recordings are written by the recorder)", {}};
}

} // namespace telestation::io
