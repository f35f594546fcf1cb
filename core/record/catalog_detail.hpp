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

// A failure SQLite reports as "not a database" or "corrupt" (also a failed integrity check) has this
// in its message: the catalog file is damaged and will be rebuilt from the segment files.
inline constexpr std::string_view kDamagedCatalog = "damaged catalog: ";

// catalog_repair.cpp: bringing the catalog in line with the segment files. Each note is logged and
// appended to `notes`.
// Before the catalog is opened: a catalog whose file is gone but whose -wal / -shm are left would have
// that old journal applied to the new, empty file; they are moved aside.
void setAsideOrphanJournal(const std::string& directory, std::vector<std::string>& notes);
// The damaged catalog and its journal moved aside (catalog.sqlite.corrupt-<UTC stamp>[-wal|-shm]).
[[nodiscard]] Status setAsideDamagedCatalog(const std::string& directory, const std::string& why,
                                            std::vector<std::string>& notes);
// Segments marked open (of `stream`, or all when it is empty) rescanned from their files.
[[nodiscard]] Status recoverOpen(RecordingCatalog& catalog, const std::string& stream, std::vector<std::string>& notes);
// Every segment file gets an entry; every entry whose file is missing is marked damaged.
[[nodiscard]] Status reconcileWithFiles(RecordingCatalog& catalog, std::vector<std::string>& notes);

// A segment's file as a catalog row names it must be a plain file name in the recording directory: a
// name with a '/' (absolute or not), "." or ".." — in a damaged or crafted catalog — would reach outside
// it. readSegmentRows() marks such a row DAMAGED, and nothing opens it.
[[nodiscard]] bool isSegmentFileName(std::string_view file);

// Which rows of the segment table: all, or those with records whose time range overlaps fromNs..toNs.
enum class SegmentRows { All, Overlapping };

// Appends the rows of the segment table to `out`, ordered by stream and sequence, without their
// per-APID counts. On a failure, `out` keeps the rows read before it.
[[nodiscard]] Status readSegmentRows(sqlite::Connection& db, SegmentRows rows, std::int64_t fromNs,
    std::int64_t toNs, std::vector<SegmentInfo>& out);

} // namespace telestation::record::detail
