// Instants in XTCE (an Epoch, a comparison value on a time): an epoch name or an xs:date / xs:dateTime,
// as seconds since 1970-01-01T00:00:00 UTC (leap seconds ignored, as everywhere in Telestation) — read
// by the importer, written by the exporter so that the importer reads back the same double.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace telestation::xtce {

// TAI, J2000, UNIX/POSIX, GPS (the mdb::kEpoch* values) or an xs:date / xs:dateTime (UTC unless it
// has an offset); nullopt for anything else.
[[nodiscard]] std::optional<double> parseTimeInstant(std::string_view text);

struct WrittenInstant {
    std::string text;
    bool exact = false; // parseTimeInstant(text) gives the instant back exactly
};

// The instant as an epoch name where one is exact, else as the xs:dateTime (UTC, "Z") with the fewest
// fraction digits that reads back exactly. Outside years 1..9999, or when no dateTime is exact, the
// text is the nearest one (or "UNIX" for an instant out of range) and `exact` is false.
[[nodiscard]] WrittenInstant writeTimeInstant(double unixSeconds);

} // namespace telestation::xtce
