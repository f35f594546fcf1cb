// Internal to core/io: the three sender implementations behind openSender(). Not public API.
#pragma once

#include "core/io/sender.hpp"

namespace telestation::io::detail {

[[nodiscard]] Result<std::unique_ptr<Sender>> openUdpSender(const Endpoint& endpoint, const SenderOptions& options);
[[nodiscard]] Result<std::unique_ptr<Sender>> openTcpClientSender(const Endpoint& endpoint, const SenderOptions& options);
[[nodiscard]] Result<std::unique_ptr<Sender>> openTcpServerSender(const Endpoint& endpoint, const SenderOptions& options);

} // namespace telestation::io::detail
