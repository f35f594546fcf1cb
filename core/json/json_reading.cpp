#include "core/json/json_reading.hpp"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>
#include <utility>

namespace telestation::json {

namespace {

// nlohmann's own parser keeps the last of two equal keys silently and gives no byte offset for some
// errors (a number overflow); this SAX handler records repeated keys by path and where parsing failed.
class DomBuilder final : public nlohmann::json_sax<Json> {
public:
    Json root;
    std::vector<std::string> repeatedKeys;
    std::optional<std::size_t> errorOffset;
    std::string errorMessage;

    bool null() override { return put(Json(nullptr)); }
    bool boolean(bool val) override { return put(Json(val)); }
    bool number_integer(number_integer_t val) override { return put(Json(val)); }
    bool number_unsigned(number_unsigned_t val) override { return put(Json(val)); }
    bool number_float(number_float_t val, const string_t& /*text*/) override { return put(Json(val)); }
    bool string(string_t& val) override { return put(Json(std::move(val))); }
    bool binary(binary_t& val) override { return put(Json::binary(std::move(val))); }
    bool start_object(std::size_t /*elements*/) override { return open(Json::object()); }
    bool start_array(std::size_t /*elements*/) override { return open(Json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& val) override
    {
        Level& level = m_stack.back();
        if (level.node->contains(val))
            repeatedKeys.push_back(member(level.path, val));
        level.key = std::move(val);
        return true;
    }

    bool parse_error(std::size_t position, const std::string& /*lastToken*/, const Json::exception& ex) override
    {
        errorOffset = position;
        std::string_view what = ex.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 4: syntax error ..." -> the
        // part after the location, which the caller gives itself.
        if (const auto bracket = what.find("] "); what.starts_with("[json.exception.") && bracket != what.npos)
            what.remove_prefix(bracket + 2);
        if (what.starts_with("parse error")) {
            if (const auto colon = what.find(": "); colon != what.npos)
                what.remove_prefix(colon + 2);
        }
        errorMessage = std::string(what);
        return false;
    }

private:
    struct Level {
        Json* node;       // parents are not changed while a child is open, so this stays valid
        std::string path; // JSON path of node
        std::string key;  // objects: the key of the value being read
    };
    std::vector<Level> m_stack;

    Json* insert(Json value, std::string& path)
    {
        if (m_stack.empty()) {
            root = std::move(value);
            path = "$";
            return &root;
        }
        Level& level = m_stack.back();
        if (level.node->is_array()) {
            path = element(level.path, level.node->size());
            level.node->push_back(std::move(value));
            return &level.node->back();
        }
        path = member(level.path, level.key);
        Json& slot = (*level.node)[level.key];
        slot = std::move(value);
        return &slot;
    }

    bool put(Json value)
    {
        std::string ignored;
        insert(std::move(value), ignored);
        return true;
    }

    bool open(Json container)
    {
        std::string path;
        Json* node = insert(std::move(container), path);
        m_stack.push_back(Level{node, std::move(path), {}});
        return true;
    }

    bool close()
    {
        m_stack.pop_back();
        return true;
    }
};

// The offset of the first '[' or '{' (outside strings) that opens a level deeper than `maxDepth`.
std::optional<std::size_t> tooDeep(std::string_view text, std::size_t maxDepth) noexcept
{
    std::size_t depth = 0;
    bool inString = false;
    bool escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

} // namespace

bool isIdentifier(std::string_view text) noexcept
{
    const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    if (text.empty() || !letter(text.front()))
        return false;
    return std::all_of(text.begin(), text.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

std::string member(const std::string& path, std::string_view key)
{
    if (isIdentifier(key))
        return path + '.' + std::string(key);
    return path + '[' + Json(std::string(key)).dump() + ']';
}

std::string element(const std::string& path, std::size_t index)
{
    return path + '[' + std::to_string(index) + ']';
}

LineColumn lineColumnOf(std::string_view text, std::size_t offset) noexcept
{
    LineColumn at;
    offset = std::min(offset, text.size());
    for (std::size_t i = 0; i < offset; ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '\n') {
            ++at.line;
            at.column = 1;
        } else if ((byte & 0xC0U) != 0x80U) {
            ++at.column;
        }
    }
    return at;
}

Document parseDocument(std::string_view text)
{
    if (const auto at = tooDeep(text, kMaxDepth))
        return Document{{}, {}, SyntaxError{"arrays and objects nested deeper than " + std::to_string(kMaxDepth) + " levels",
                                            lineColumnOf(text, *at)}};
    DomBuilder builder;
    const bool parsed = Json::sax_parse(text.begin(), text.end(), &builder);
    Document document{std::move(builder.root), std::move(builder.repeatedKeys), std::nullopt};
    if (!parsed || builder.errorOffset) {
        // The parser's position counts the characters read, the offending one included.
        const std::size_t offset = builder.errorOffset.value_or(text.size());
        document.syntaxError = SyntaxError{
            builder.errorMessage.empty() ? std::string("syntax error") : std::move(builder.errorMessage),
            lineColumnOf(text, offset > 0 ? offset - 1 : 0)};
    }
    return document;
}

std::string describe(const Json& value)
{
    switch (value.type()) {
    case Json::value_t::object:
        return "an object";
    case Json::value_t::array:
        return "an array";
    case Json::value_t::string:
        return "a string";
    case Json::value_t::boolean:
        return "a boolean";
    case Json::value_t::null:
        return "null";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
        return "a number";
    default:
        return "a value";
    }
}

std::string shown(const Json& value, std::size_t maxLength, StringStyle style)
{
    std::string text = value.is_string() && style == StringStyle::SingleQuoted
                           ? "'" + value.get<std::string>() + "'"
                           : value.dump();
    if (text.size() > maxLength)
        text = text.substr(0, maxLength - 3) + "...";
    return text;
}

std::string errnoText()
{
    return std::error_code(errno, std::generic_category()).message();
}

Status writeFileReplacing(const std::string& path, std::string_view text, std::string_view failurePrefix)
{
    namespace fs = std::filesystem;
    const std::string temporary = path + ".tmp";
    const auto failed = [&](const std::string& reason) -> Status {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        return Error{std::string(failurePrefix) + reason, SourceLocation{path, 0, 0}};
    };
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) // nothing of ours to remove: whatever is at `temporary` was not written by us
            return Error{std::string(failurePrefix) + errnoText(), SourceLocation{path, 0, 0}};
        out << text;
        out.flush();
        if (!out)
            return failed(errnoText());
    }
    std::error_code ec;
    fs::rename(temporary, path, ec);
    if (ec)
        return failed(ec.message());
    return {};
}

} // namespace telestation::json
