// An io::Sender opened from a URL, for the io tests: null when the URL does not parse or the sender
// cannot open, with the reason in `error` when given.
#pragma once

#include "core/io/endpoint.hpp"
#include "core/io/sender.hpp"

#include <QString>

#include <memory>
#include <string>

namespace telestation::test {

inline std::unique_ptr<io::Sender> openSenderUrl(const std::string& text, const io::SenderOptions& options = {},
                                                 QString* error = nullptr)
{
    const auto endpoint = io::parseEndpoint(text);
    if (!endpoint) {
        if (error != nullptr)
            *error = QString::fromStdString(endpoint.error().message);
        return nullptr;
    }
    auto sender = io::openSender(endpoint.value(), options);
    if (!sender) {
        if (error != nullptr)
            *error = QString::fromStdString(sender.error().message);
        return nullptr;
    }
    return std::move(sender.value());
}

} // namespace telestation::test
