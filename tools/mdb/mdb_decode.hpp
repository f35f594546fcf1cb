// `telestation-mdb decode`: decodes a file of CCSDS space packets or a Telestation recording with a
// mission database and writes every parameter's raw, converted and calibrated value and limit state
// as CSV, wide CSV or JSON lines; a summary of what decoded, what was unknown and what was malformed
// goes to standard error. The user's guide is docs/decode.md.
//
// How it is built, in reading order:
//   mdb_decode.cpp          options, the decode loop, the summary (the mission: config::loadMission)
//   packet_file_reader.hpp  the input: concatenated packets or a recording, in constant memory
//   decoded_writer.hpp      the selection (--packet, --parameters) and the three output formats
//   value_text.hpp          how values, times and names are written
//   progress_bar.hpp        the progress bar on a terminal
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/mdb/model.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace telestation::tools {

// Exit statuses of `decode` (the first three are those of every telestation-mdb command).
inline constexpr int kDecodeOk = 0;           // every packet of the input decoded
inline constexpr int kDecodeFailed = 1;       // the mission or the input could not be read, or the output not written
inline constexpr int kDecodeUsage = 2;        // wrong arguments
inline constexpr int kDecodeIncomplete = 3;   // some packets were unknown or malformed, or a recording was damaged

// Runs `decode` with the arguments that follow the word "decode". Returns the exit status.
[[nodiscard]] int runDecode(std::span<const std::string> args);

} // namespace telestation::tools
