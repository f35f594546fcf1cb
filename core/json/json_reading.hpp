// Reading JSON documents for the parsers that report problems by JSON path (the station profile, the
// simulator scenario): paths, a parse that keeps what nlohmann's own parser drops (repeated keys, the
// position of every syntax error), value descriptions for messages, and the replace-by-rename save.
#pragma once

#include "core/common/result.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::json {

using Json = nlohmann::json;

// ---- JSON paths ("$.streams[0].packets", $["log level"]) ----------------------------------------

// A letter or '_', then letters, digits and '_': a key written after a dot in a path.
[[nodiscard]] bool isIdentifier(std::string_view text) noexcept;

// "$.streams" + "rate" -> "$.streams.rate"; other keys in brackets, JSON-quoted: $["A.B"].
[[nodiscard]] std::string member(const std::string& path, std::string_view key);

// "$.streams" + 2 -> "$.streams[2]".
[[nodiscard]] std::string element(const std::string& path, std::size_t index);

// ---- Text to DOM --------------------------------------------------------------------------------

struct LineColumn {
    int line = 1;
    int column = 1;
};

// 1-based line and column of byte `offset`; columns count characters (UTF-8 continuation bytes skipped).
[[nodiscard]] LineColumn lineColumnOf(std::string_view text, std::size_t offset) noexcept;

struct SyntaxError {
    std::string message; // nlohmann's message without its own "[json.exception...] ... line 1, column 4: "
    LineColumn at;
};

struct Document {
    Json root;                             // what could be read; meaningless when syntaxError is set
    std::vector<std::string> repeatedKeys; // JSON paths of keys given twice in one object (the last one is kept)
    std::optional<SyntaxError> syntaxError;
};

// Arrays and objects may nest this deep at most. Profiles and scenarios nest a handful of levels; a
// document nested deeper is refused before it is parsed, because each open level keeps its JSON path
// (memory grows with the square of the depth: 60 KB of '[' took gigabytes) and a deep value is written
// out recursively in messages.
inline constexpr std::size_t kMaxDepth = 64;

// Parses the whole text, collecting every repeated key up to the first syntax error. A document nested
// deeper than kMaxDepth is a syntax error at the bracket that goes too deep.
[[nodiscard]] Document parseDocument(std::string_view text);

// ---- Values in messages -------------------------------------------------------------------------

// "an object", "an array", "a string", "a boolean", "null", "a number".
[[nodiscard]] std::string describe(const Json& value);

enum class StringStyle {
    JsonQuoted,   // "text", escaped as in the file
    SingleQuoted, // 'text', as is
};

// A value as written, for messages: strings in `style`, others as JSON; longer than `maxLength`
// characters (maxLength > 3) shortened to maxLength - 3 characters and "...".
[[nodiscard]] std::string shown(const Json& value, std::size_t maxLength, StringStyle style);

// "a, b, c".
template <typename Names>
[[nodiscard]] std::string joined(const Names& names)
{
    std::string out;
    for (const auto& name : names) {
        if (!out.empty())
            out += ", ";
        out += name;
    }
    return out;
}

// ---- Files --------------------------------------------------------------------------------------

// The text of errno, for messages.
[[nodiscard]] std::string errnoText();

// Writes `text` to `path`.tmp and renames it over `path`, so that a failed write leaves the old file
// intact (the temporary file is removed). The error is failurePrefix + the reason, located at `path`.
[[nodiscard]] Status writeFileReplacing(const std::string& path, std::string_view text,
                                        std::string_view failurePrefix);

} // namespace telestation::json
