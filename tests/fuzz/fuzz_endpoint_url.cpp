// Fuzz target: endpoint URLs (io::parseEndpoint) — every stream source and forward destination of a
// profile, scenario or API request — and, for file:// URLs, the playback options of their query
// (record::playbackOptionsFromQuery).
//
// Input: the URL text.
// Checks the canonical form's round trip (core/io/endpoint.hpp): parseEndpoint(e.toString()) == e; and
// that playback accepts every file:// query parseEndpoint let through (it checks keys and values).
#include "core/io/endpoint.hpp"
#include "core/record/playback.hpp"
#include "tests/fuzz/fuzz_support.hpp"

using namespace telestation;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto endpoint = io::parseEndpoint(fuzz::asText(data, size));
    if (!endpoint)
        return 0;
    const std::string canonical = endpoint->toString();
    const auto again = io::parseEndpoint(canonical);
    fuzz::check(again.ok(), "the canonical form of a valid URL does not parse: " + canonical);
    fuzz::check(*again == *endpoint, "the canonical form reads back different: " + canonical);
    if (endpoint->scheme == io::Scheme::File) {
        const auto options = record::playbackOptionsFromQuery(endpoint->query);
        fuzz::check(options.ok(), "playback refuses the query of a valid URL: " +
                                      (options ? std::string() : options.error().message));
    }
    return 0;
}
