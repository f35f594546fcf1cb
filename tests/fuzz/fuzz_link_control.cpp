// Fuzz target: the link test's control connection (core/link: ControlChannel, protocol.hpp) as the
// responder and the controller read it from the peer — lines of JSON, each checked for its message
// type and, for "start" and "result", read into a PhaseRequest / PhaseResult.
//
// Input: the bytes the peer sends, delivered through a real socket pair.
// Checks: nothing throws; what reads without error writes back (toJson) to JSON that reads back equal.
#include "core/io/socket_util.hpp"
#include "core/link/control_channel.hpp"
#include "core/link/protocol.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <sys/socket.h>
#include <unistd.h>

using namespace telestation;

namespace {

void readMessage(const link::Json& message)
{
    const auto kind = link::kindOf(message);
    if (!kind)
        return;
    switch (*kind) {
    case link::MessageKind::Start: {
        if (!message.contains("phase"))
            return;
        const auto request = link::phaseRequestFromJson(message["phase"], "$.phase");
        if (!request)
            return;
        const auto again = link::phaseRequestFromJson(link::toJson(*request), "$.phase");
        fuzz::check(again.ok() && *again == *request, "a phase request does not read back equal: " + link::toJson(*request).dump());
        return;
    }
    case link::MessageKind::Result: {
        if (!message.contains("result"))
            return;
        const auto result = link::phaseResultFromJson(message["result"], "$.result");
        if (!result)
            return;
        const auto again = link::phaseResultFromJson(link::toJson(*result), "$.result");
        fuzz::check(again.ok() && *again == *result, "a phase result does not read back equal: " + link::toJson(*result).dump());
        return;
    }
    case link::MessageKind::Ready:
        (void)link::readyPort(message);
        return;
    case link::MessageKind::Hello:
        (void)link::helloFrom(message);
        return;
    case link::MessageKind::Error:
        (void)link::errorReason(message);
        return;
    case link::MessageKind::Finish:
    case link::MessageKind::Bye:
        return;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    int ends[2];
    fuzz::check(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) == 0, "socketpair failed");
    io::detail::UniqueFd writer(ends[1]);
    link::ControlChannel reader{io::detail::UniqueFd(ends[0])};
    // Fuzz inputs are small (libFuzzer's -max_len): they fit the socket's buffer whole.
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::write(writer.get(), data + done, size - done);
        fuzz::check(n > 0, "writing the input into the socket pair failed");
        done += static_cast<std::size_t>(n);
    }
    writer.reset(); // the peer goes away after its last byte
    for (int i = 0; i < 10'000; ++i) {
        auto message = reader.receive(std::chrono::milliseconds(0));
        if (!message)
            break; // the peer closed, a line is not JSON, or too long: each ends a session
        readMessage(*message);
    }
    return 0;
}
