// Internals of the recording catalog that playback shares: the catalog's file name and application id,
// and the reading of its segment table. Playback reads the catalog with its own read-only connection
// (playback.hpp says why); both read the rows the same way. Not part of the module's API.
#pragma once

#include "core/common/result.hpp"
#include "core/record/recording_catalog.hpp"
#include "core/sqlite/connection.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::record::detail {

inline constexpr const char* kCatalogFile = "catalog.sqlite";
// PRAGMA application_id of a catalog: 'TSRC', as the record sync word.
inline constexpr std::int32_t kCatalogApplicationId = 0x54535243;

// The path of a segment the catalog lists: `directory`/`file`. The catalog keeps file names relative to
// the recording directory, and the recorder writes only plain names; a corrupt or hostile catalog could
// name any path ("/dev/stdin", "../../elsewhere", a FIFO that blocks the reader), so anything but a
// plain file name (empty, ".", "..", a '/' or a NUL in it) is an error, never opened.
[[nodiscard]] Result<std::string> segmentPath(std::string_view directory, std::string_view file);

// Appends the rows of the segment table to `out`, ordered by stream and sequence, without their
// per-APID counts. `where` is empty or a WHERE clause that may use ?1 = fromNs and ?2 = toNs. On a
// failure, `out` keeps the rows read before it.
[[nodiscard]] Status readSegmentRows(sqlite::Connection& db, std::string_view where, std::int64_t fromNs,
    std::int64_t toNs, std::vector<SegmentInfo>& out);

} // namespace telestation::record::detail
