#include "core/mdb/text_format.hpp"

#include "core/mdb/keywords.hpp"
#include "core/mdb/validate.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace telestation::mdb {

namespace {

constexpr int kMaxErrors = 100;
constexpr std::uint64_t kMinPacketBytes = 7;
constexpr std::uint64_t kMaxPacketBytes = 65542;
constexpr std::uint64_t kMaxApid = 2047;
constexpr std::uint64_t kMaxUint32 = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kMaxUint64 = std::numeric_limits<std::uint64_t>::max();
constexpr std::size_t kMaxPolynomialCoefficients = 6;
constexpr std::string_view kTypeList = "UINT, INT, FLOAT, STRING, BYTES, INT_SIGN_MAGNITUDE or INT_ONES_COMPLEMENT";

char toUpper(char c)
{
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

// Case-insensitive comparison with an upper-case keyword.
bool isKeyword(std::string_view word, std::string_view keyword)
{
    if (word.size() != keyword.size())
        return false;
    for (std::size_t i = 0; i < word.size(); ++i)
        if (toUpper(word[i]) != keyword[i])
            return false;
    return true;
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

std::string upper(std::string_view word)
{
    std::string out(word);
    for (auto& c : out)
        c = toUpper(c);
    return out;
}

struct Token {
    enum class Kind { Word, String };
    Kind kind = Kind::Word;
    std::string_view raw; // the token as written (a string with its quotes)
    std::string text;     // a string's content, escapes resolved
    int column = 0;       // 1-based
};

enum class Keyword {
    Unknown,
    Mission,
    Packet,
    Description,
    LongDescription,
    Path,
    Alias,
    SecondaryId,
    Match,
    SecondaryHeader,
    Parameter,
    Size,
    When,
    Units,
    OverlapOk,
    Poly,
    Point,
    State,
    Time,
    Context,
    Limits,
    Expected,
};

Keyword keywordOf(std::string_view word)
{
    static constexpr std::pair<std::string_view, Keyword> kKeywords[] = {
        {"MISSION", Keyword::Mission},
        {"PACKET", Keyword::Packet},
        {"DESCRIPTION", Keyword::Description},
        {"LONG_DESCRIPTION", Keyword::LongDescription},
        {"PATH", Keyword::Path},
        {"ALIAS", Keyword::Alias},
        {"SECONDARY_ID", Keyword::SecondaryId},
        {"MATCH", Keyword::Match},
        {"SECONDARY_HEADER", Keyword::SecondaryHeader},
        {"PARAMETER", Keyword::Parameter},
        {"SIZE", Keyword::Size},
        {"WHEN", Keyword::When},
        {"UNITS", Keyword::Units},
        {"OVERLAP_OK", Keyword::OverlapOk},
        {"POLY", Keyword::Poly},
        {"POINT", Keyword::Point},
        {"STATE", Keyword::State},
        {"TIME", Keyword::Time},
        {"CONTEXT", Keyword::Context},
        {"LIMITS", Keyword::Limits},
        {"EXPECTED", Keyword::Expected},
    };
    for (const auto& [name, keyword] : kKeywords)
        if (isKeyword(word, name))
            return keyword;
    return Keyword::Unknown;
}

// An integer as written: sign and magnitude, so that both int64 and uint64 ranges are exact.
struct ParsedInteger {
    enum class Status { Ok, Bad, Overflow };
    Status status = Status::Bad;
    bool negative = false;
    std::uint64_t magnitude = 0;
};

ParsedInteger parseInteger(std::string_view text)
{
    ParsedInteger out;
    if (!text.empty() && text.front() == '-') {
        out.negative = true;
        text.remove_prefix(1);
    }
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    // from_chars accepts no sign for unsigned types, so "--1" and "-+1" stay bad.
    if (text.empty())
        return out;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out.magnitude, base);
    if (end != text.data() + text.size() || ec == std::errc::invalid_argument)
        return out;
    out.status = ec == std::errc::result_out_of_range ? ParsedInteger::Status::Overflow : ParsedInteger::Status::Ok;
    return out;
}

bool looksHex(std::string_view text)
{
    if (!text.empty() && text.front() == '-')
        text.remove_prefix(1);
    return text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
}

std::string quote(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (const char c : text) {
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        if (c == '\r') {
            out += "\\r";
            continue;
        }
        if (c == '\t') {
            out += "\\t";
            continue;
        }
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    out += '"';
    return out;
}

void appendReal(std::string& out, double value)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

template <typename Integer>
void appendInteger(std::string& out, Integer value)
{
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

// Where each packet and parameter was defined, to place validation issues.
struct PacketSource {
    int line = 0;
    int column = 0;
    std::vector<std::pair<int, int>> parameters; // (line, column) of each PARAMETER line
};

class Parser {
public:
    Parser(std::string_view text, std::string_view fileName) : m_text(text), m_fileName(fileName) {}

    ImportResult run()
    {
        std::string_view rest = m_text;
        if (rest.substr(0, 3) == "\xEF\xBB\xBF") // a UTF-8 byte order mark
            rest.remove_prefix(3);
        while (!rest.empty() || m_line == 0) {
            const std::size_t newline = rest.find('\n');
            const std::string_view line = rest.substr(0, newline);
            rest = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
            ++m_line;
            parseLine(line);
            if (m_errorCount >= kMaxErrors) {
                if (!rest.empty())
                    m_result.diagnostics.push_back(Diagnostic{Severity::Error,
                        "too many errors (" + std::to_string(kMaxErrors) + "); stopped reading here",
                        SourceLocation{std::string(m_fileName), m_line, 0}});
                break;
            }
        }
        closeParameter();
        m_result.database = std::move(m_db);
        if (m_errorCount == 0)
            addValidationIssues();
        return std::move(m_result);
    }

private:
    // ---- lines and tokens ----

    void parseLine(std::string_view line)
    {
        m_tokens.clear();
        const bool tokenized = tokenize(line);
        if (m_tokens.empty())
            return;
        const Token& first = m_tokens.front();
        if (first.kind != Token::Kind::Word) {
            error(first.column, "expected a keyword at the start of the line, found a string");
            return;
        }
        m_keyword = upper(first.raw);
        const Keyword keyword = keywordOf(first.raw);
        if (!tokenized) {
            // The line was not read completely; still open the packet or parameter it starts, so the
            // lines that follow are attributed as intended and do not cascade into more errors.
            if (keyword == Keyword::Packet)
                startPacket();
            else if (keyword == Keyword::Parameter)
                startParameter();
            return;
        }
        switch (keyword) {
        case Keyword::Mission:
            onMission();
            break;
        case Keyword::Packet:
            onPacket();
            break;
        case Keyword::Description:
            onDescription();
            break;
        case Keyword::LongDescription:
            onLongDescription();
            break;
        case Keyword::Path:
            onPath();
            break;
        case Keyword::Alias:
            onAlias();
            break;
        case Keyword::SecondaryId:
            onSecondaryId();
            break;
        case Keyword::Match:
            onMatch();
            break;
        case Keyword::SecondaryHeader:
            onSecondaryHeader();
            break;
        case Keyword::Parameter:
            onParameter();
            break;
        case Keyword::Size:
            onSize();
            break;
        case Keyword::When:
            onWhen();
            break;
        case Keyword::Units:
            onUnits();
            break;
        case Keyword::OverlapOk:
            onOverlapOk();
            break;
        case Keyword::Poly:
            onPoly();
            break;
        case Keyword::Point:
            onPoint();
            break;
        case Keyword::State:
            onState();
            break;
        case Keyword::Time:
            onTime();
            break;
        case Keyword::Context:
            onContext();
            break;
        case Keyword::Limits:
            onLimits();
            break;
        case Keyword::Expected:
            onExpected();
            break;
        case Keyword::Unknown:
            error(first.column, "unknown keyword '" + std::string(first.raw) + "'");
            break;
        }
    }

    // Splits a line into words and strings; a '#' outside a string ends it. Returns false (after an
    // error) when a string is malformed; the tokens before it are kept.
    bool tokenize(std::string_view line)
    {
        std::size_t i = 0;
        while (i < line.size()) {
            const char c = line[i];
            if (isBlank(c)) {
                ++i;
                continue;
            }
            if (c == '#')
                return true;
            Token token;
            token.column = static_cast<int>(i) + 1;
            if (c == '"') {
                const std::size_t start = i++;
                token.kind = Token::Kind::String;
                bool closed = false;
                while (i < line.size()) {
                    const char d = line[i];
                    if (d == '"') {
                        closed = true;
                        ++i;
                        break;
                    }
                    if (d == '\\') {
                        if (i + 1 >= line.size())
                            break;
                        const char e = line[i + 1];
                        if (e != '"' && e != '\\' && e != 'n' && e != 'r' && e != 't') {
                            error(static_cast<int>(i) + 1, "unknown escape '\\" + std::string(1, e)
                                    + "' in a string; the escapes are \\\", \\\\, \\n, \\r and \\t");
                            return false;
                        }
                        token.text += e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
                        i += 2;
                        continue;
                    }
                    token.text += d;
                    ++i;
                }
                if (!closed) {
                    error(token.column, "unterminated string");
                    return false;
                }
                token.raw = line.substr(start, i - start);
            } else {
                const std::size_t start = i;
                while (i < line.size() && !isBlank(line[i]) && line[i] != '#' && line[i] != '"')
                    ++i;
                token.raw = line.substr(start, i - start);
            }
            m_tokens.push_back(std::move(token));
        }
        return true;
    }

    // ---- diagnostics ----

    void error(int column, std::string message)
    {
        ++m_errorCount;
        m_result.diagnostics.push_back(
            Diagnostic{Severity::Error, std::move(message), SourceLocation{std::string(m_fileName), m_line, column}});
    }

    // An error about the line's keyword, e.g. a missing argument or a misplaced line.
    void lineError(const std::string& message) { error(m_tokens.front().column, m_keyword + ": " + message); }

    void tokenError(std::size_t k, const std::string& message)
    {
        error(m_tokens[k].column, m_keyword + ": " + message);
    }

    std::string shown(std::size_t k) const
    {
        const Token& t = m_tokens[k];
        return t.kind == Token::Kind::String ? std::string(t.raw) : "'" + std::string(t.raw) + "'";
    }

    // ---- argument readers: each reports its own error and returns nothing on failure ----

    const Token* argument(std::size_t k, const std::string& what)
    {
        if (k >= m_tokens.size()) {
            lineError("missing " + what);
            return nullptr;
        }
        return &m_tokens[k];
    }

    bool noMoreThan(std::size_t count)
    {
        if (m_tokens.size() <= count)
            return true;
        tokenError(count, "unexpected " + shown(count) + " at the end of the line");
        return false;
    }

    bool expectKeyword(std::size_t k, std::string_view keyword)
    {
        const Token* t = argument(k, std::string(keyword));
        if (!t)
            return false;
        if (t->kind != Token::Kind::Word || !isKeyword(t->raw, keyword)) {
            tokenError(k, "expected " + std::string(keyword) + ", found " + shown(k));
            return false;
        }
        return true;
    }

    enum class NameKind { Packet, Parameter };

    std::optional<std::string> name(std::size_t k, const std::string& what, NameKind kind = NameKind::Parameter)
    {
        const Token* t = argument(k, what);
        if (!t)
            return std::nullopt;
        if (t->kind != Token::Kind::Word) {
            tokenError(k, "expected " + what + ", found a string");
            return std::nullopt;
        }
        if (kind == NameKind::Packet && !isValidPacketName(t->raw)) {
            tokenError(k, "invalid " + what + " '" + std::string(t->raw)
                    + "': packet names are letters, digits, '_', '-' and '/', starting with a letter, '_' or '/'");
            return std::nullopt;
        }
        if (kind == NameKind::Parameter && !isValidParameterName(t->raw)) {
            tokenError(k, "invalid " + what + " '" + std::string(t->raw)
                    + "': parameter names are letters, digits, '_', '-', '/', '.', '[' and ']',"
                      " starting with a letter, '_' or '/'");
            return std::nullopt;
        }
        return std::string(t->raw);
    }

    // A comparison operator: == != < <= > >=.
    std::optional<CompareOp> compareOp(std::size_t k)
    {
        const Token* t = argument(k, "a comparison (==, !=, <, <=, > or >=)");
        if (!t)
            return std::nullopt;
        for (const auto& [word, op] : kCompareOpKeywords)
            if (t->kind == Token::Kind::Word && t->raw == word)
                return op;
        tokenError(k, "expected a comparison (==, !=, <, <=, > or >=), found " + shown(k));
        return std::nullopt;
    }

    // "<parameter> <op> <real> [CALIBRATED]" from token k; `next` becomes the token after it.
    std::optional<Condition> condition(std::size_t k, std::size_t& next)
    {
        Condition c;
        const auto parameterName = name(k, "parameter name");
        if (!parameterName)
            return std::nullopt;
        c.parameter = *parameterName;
        const auto op = compareOp(k + 1);
        if (!op)
            return std::nullopt;
        c.op = *op;
        const auto value = real(k + 2, "value to compare with");
        if (!value)
            return std::nullopt;
        c.value = *value;
        next = k + 3;
        if (next < m_tokens.size() && m_tokens[next].kind == Token::Kind::Word
            && isKeyword(m_tokens[next].raw, "CALIBRATED")) {
            c.calibrated = true;
            ++next;
        }
        return c;
    }

    std::optional<std::string> quoted(std::size_t k, const std::string& what)
    {
        const Token* t = argument(k, what);
        if (!t)
            return std::nullopt;
        if (t->kind != Token::Kind::String) {
            tokenError(k, "expected " + what + " in double quotes, found " + shown(k));
            return std::nullopt;
        }
        return t->text;
    }

    std::optional<std::uint64_t> unsignedInteger(std::size_t k, const std::string& what, std::uint64_t min,
        std::uint64_t max)
    {
        const Token* t = argument(k, what);
        if (!t)
            return std::nullopt;
        const ParsedInteger n = t->kind == Token::Kind::Word ? parseInteger(t->raw) : ParsedInteger{};
        if (n.status == ParsedInteger::Status::Bad) {
            tokenError(k, "expected " + what + " (an integer), found " + shown(k));
            return std::nullopt;
        }
        const bool negative = n.negative && n.magnitude != 0;
        if (n.status == ParsedInteger::Status::Overflow || negative || n.magnitude < min || n.magnitude > max) {
            const bool onlyTooSmall = n.status == ParsedInteger::Status::Ok && !negative && n.magnitude < min;
            const std::string range = onlyTooSmall && (max == kMaxUint64 || max == kMaxUint32)
                ? "at least " + std::to_string(min)
                : std::to_string(min) + ".." + std::to_string(max);
            tokenError(k, what + " " + std::string(t->raw) + " is out of range (" + range + ")");
            return std::nullopt;
        }
        return n.magnitude;
    }

    std::optional<std::int64_t> signedInteger(std::size_t k, const std::string& what)
    {
        const Token* t = argument(k, what);
        if (!t)
            return std::nullopt;
        const ParsedInteger n = t->kind == Token::Kind::Word ? parseInteger(t->raw) : ParsedInteger{};
        if (n.status == ParsedInteger::Status::Bad) {
            tokenError(k, "expected " + what + " (an integer), found " + shown(k));
            return std::nullopt;
        }
        constexpr auto kMaxMagnitude = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        if (n.status == ParsedInteger::Status::Overflow || n.magnitude > kMaxMagnitude + (n.negative ? 1 : 0)) {
            tokenError(k, what + " " + std::string(t->raw) + " is out of range for a 64-bit signed integer");
            return std::nullopt;
        }
        if (!n.negative)
            return static_cast<std::int64_t>(n.magnitude);
        // -(m) computed without overflow for m == 2^63.
        return n.magnitude == 0 ? 0 : -static_cast<std::int64_t>(n.magnitude - 1) - 1;
    }

    std::optional<double> real(std::size_t k, const std::string& what)
    {
        const Token* t = argument(k, what);
        if (!t)
            return std::nullopt;
        const std::string_view text = t->raw;
        if (t->kind == Token::Kind::Word && looksHex(text)) {
            const ParsedInteger n = parseInteger(text);
            if (n.status == ParsedInteger::Status::Ok) {
                const auto magnitude = static_cast<double>(n.magnitude);
                return n.negative ? -magnitude : magnitude;
            }
        }
        // Only digits, '.', exponents and signs: from_chars would also take "inf" and "nan".
        const bool plain = t->kind == Token::Kind::Word && !text.empty()
            && text.find_first_not_of("0123456789.eE+-") == std::string_view::npos;
        double value = 0;
        const auto [end, ec] = plain ? std::from_chars(text.data(), text.data() + text.size(), value)
                                     : std::from_chars_result{text.data(), std::errc::invalid_argument};
        if (ec == std::errc::invalid_argument || end != text.data() + text.size()) {
            tokenError(k, "expected " + what + " (a real number), found " + shown(k));
            return std::nullopt;
        }
        if (ec == std::errc::result_out_of_range) {
            tokenError(k, what + " " + std::string(text) + " is out of the range of a double");
            return std::nullopt;
        }
        return value;
    }

    // A real, or -inf / inf (an open side of limits).
    std::optional<double> realOrInfinity(std::size_t k, const std::string& what)
    {
        if (k < m_tokens.size() && m_tokens[k].kind == Token::Kind::Word) {
            if (isKeyword(m_tokens[k].raw, "INF"))
                return std::numeric_limits<double>::infinity();
            if (isKeyword(m_tokens[k].raw, "-INF"))
                return -std::numeric_limits<double>::infinity();
        }
        return real(k, what);
    }

    // Optional BIG_ENDIAN / LITTLE_ENDIAN at k; returns false after an error.
    bool optionalByteOrder(std::size_t k, std::optional<ByteOrder>& order)
    {
        if (k >= m_tokens.size())
            return true;
        const Token& t = m_tokens[k];
        if (t.kind == Token::Kind::Word && isKeyword(t.raw, "BIG_ENDIAN"))
            order = ByteOrder::BigEndian;
        else if (t.kind == Token::Kind::Word && isKeyword(t.raw, "LITTLE_ENDIAN"))
            order = ByteOrder::LittleEndian;
        else {
            tokenError(k, "expected BIG_ENDIAN or LITTLE_ENDIAN, found " + shown(k));
            return false;
        }
        return noMoreThan(k + 1);
    }

    // ---- context ----

    PacketDef& currentPacket() { return m_db.packets.back(); }
    ParameterDef& currentParameter() { return m_db.packets.back().parameters.back(); }

    void startPacket()
    {
        closeParameter();
        m_db.packets.emplace_back();
        m_sources.push_back(PacketSource{m_line, m_tokens.front().column, {}});
        m_inParameter = false;
        m_packetTexts = {};
    }

    void startParameter()
    {
        closeParameter();
        if (m_db.packets.empty()) {
            lineError("a PARAMETER must follow a PACKET");
            // A stand-in packet takes this parameter, so its attribute lines are not errors too.
            startPacket();
        }
        currentPacket().parameters.emplace_back();
        m_sources.back().parameters.emplace_back(m_line, m_tokens.front().column);
        m_inParameter = true;
        m_parameterTexts = {};
        m_parameterHasUnits = false;
        m_parameterHasSize = false;
        m_parameterLineComplete = false;
        m_sizeStar = false;
        m_context = -1;
    }

    // At the end of a parameter: a bit length '*' needs a SIZE line.
    void closeParameter()
    {
        if (m_sizeStar && !m_parameterHasSize) {
            ++m_errorCount;
            m_result.diagnostics.push_back(Diagnostic{Severity::Error,
                "PARAMETER: the bit length '*' needs a SIZE line (SIZE FROM, SIZE TERMINATED or SIZE LEADING)",
                SourceLocation{std::string(m_fileName), m_sizeStarLine, m_sizeStarColumn}});
        }
        m_sizeStar = false;
    }

    // A packet attribute: after a PACKET, before its first PARAMETER.
    bool inPacketHeader()
    {
        if (m_db.packets.empty()) {
            lineError("comes before any PACKET; it must follow a PACKET");
            return false;
        }
        if (m_inParameter) {
            lineError("belongs to the packet and must come before the packet's first PARAMETER");
            return false;
        }
        return true;
    }

    bool inParameter()
    {
        if (m_db.packets.empty()) {
            lineError("comes before any PACKET; it must follow a PARAMETER");
            return false;
        }
        if (!m_inParameter) {
            lineError("must follow a PARAMETER");
            return false;
        }
        return true;
    }

    // ---- lines ----

    void onMission()
    {
        if (m_missionSeen) {
            lineError("a second MISSION line; there is one at most");
            return;
        }
        m_missionSeen = true;
        m_missionLine = m_line;
        m_missionColumn = m_tokens.front().column;
        if (!m_db.packets.empty()) {
            lineError("must come before the first PACKET");
            return;
        }
        const auto text = quoted(1, "the mission name");
        if (text && noMoreThan(2))
            m_db.name = *text;
    }

    void onPacket()
    {
        startPacket();
        PacketDef& p = currentPacket();
        const auto packetName = name(1, "packet name", NameKind::Packet);
        if (!packetName)
            return;
        p.name = *packetName;
        if (!expectKeyword(2, "APID"))
            return;
        const auto apid = unsignedInteger(3, "APID", 0, kMaxApid);
        if (!apid)
            return;
        p.apid = static_cast<std::uint16_t>(*apid);
        if (!expectKeyword(4, "LENGTH"))
            return;
        std::size_t next = 6;
        const Token* lengthToken = argument(5, "the packet length");
        if (!lengthToken)
            return;
        if (lengthToken->kind == Token::Kind::Word && isKeyword(lengthToken->raw, "VARIABLE")) {
            const auto minimum = unsignedInteger(6, "minimum length", kMinPacketBytes, kMaxPacketBytes);
            if (!minimum)
                return;
            const auto maximum = unsignedInteger(7, "maximum length", kMinPacketBytes, kMaxPacketBytes);
            if (!maximum)
                return;
            p.variableLength = true;
            p.length = static_cast<std::uint32_t>(*minimum);
            p.maxLength = static_cast<std::uint32_t>(*maximum);
            next = 8;
        } else {
            const auto length = unsignedInteger(5, "packet length", kMinPacketBytes, kMaxPacketBytes);
            if (!length)
                return;
            p.length = static_cast<std::uint32_t>(*length);
        }
        std::optional<ByteOrder> order;
        if (!optionalByteOrder(next, order))
            return;
        p.byteOrder = order.value_or(ByteOrder::BigEndian);
    }

    // Which one-per-owner texts a packet or parameter has had.
    struct TextsSeen {
        bool description = false;
        bool longDescription = false;
        bool path = false;
    };

    // DESCRIPTION, LONG_DESCRIPTION and PATH: of the latest PARAMETER, or of the PACKET before its first
    // PARAMETER. Returns the text to set, or nothing after an error.
    std::string* ownerText(bool TextsSeen::*seenFlag, std::string PacketDef::*packetText,
        std::string ParameterDef::*parameterText)
    {
        if (m_db.packets.empty()) {
            lineError("comes before any PACKET; it must follow a PACKET or a PARAMETER");
            return nullptr;
        }
        TextsSeen& texts = m_inParameter ? m_parameterTexts : m_packetTexts;
        bool& seen = texts.*seenFlag;
        if (seen) {
            lineError("a second " + m_keyword + " for this " + (m_inParameter ? "parameter" : "packet"));
            return nullptr;
        }
        seen = true;
        return m_inParameter ? &(currentParameter().*parameterText) : &(currentPacket().*packetText);
    }

    void setOwnerText(bool TextsSeen::*seenFlag, std::string PacketDef::*packetText,
        std::string ParameterDef::*parameterText, const std::string& what)
    {
        std::string* target = ownerText(seenFlag, packetText, parameterText);
        if (!target)
            return;
        const auto text = quoted(1, what);
        if (text && noMoreThan(2))
            *target = *text;
    }

    void onDescription()
    {
        setOwnerText(&TextsSeen::description, &PacketDef::description, &ParameterDef::description, "the description");
    }

    void onLongDescription()
    {
        setOwnerText(&TextsSeen::longDescription, &PacketDef::longDescription, &ParameterDef::longDescription,
            "the long description");
    }

    void onPath() { setOwnerText(&TextsSeen::path, &PacketDef::path, &ParameterDef::path, "the path"); }

    void onAlias()
    {
        if (m_db.packets.empty()) {
            lineError("comes before any PACKET; it must follow a PACKET or a PARAMETER");
            return;
        }
        const auto nameSpace = quoted(1, "the name space");
        if (!nameSpace)
            return;
        const auto alias = quoted(2, "the alias");
        if (!alias || !noMoreThan(3))
            return;
        auto& aliases = m_inParameter ? currentParameter().aliases : currentPacket().aliases;
        aliases.push_back(Alias{*nameSpace, *alias});
    }

    void onMatch()
    {
        if (!inPacketHeader())
            return;
        const auto offset = unsignedInteger(1, "bit offset", 0, kMaxUint32);
        if (!offset)
            return;
        const auto length = unsignedInteger(2, "bit length", 1, 64);
        if (!length)
            return;
        const auto op = compareOp(3);
        if (!op)
            return;
        const auto value = unsignedInteger(4, "value", 0, kMaxUint64);
        if (!value || !noMoreThan(5))
            return;
        currentPacket().criteria.push_back(
            FieldCriterion{static_cast<std::uint32_t>(*offset), static_cast<std::uint32_t>(*length), *op, *value});
    }

    void onSecondaryId()
    {
        if (!inPacketHeader())
            return;
        PacketDef& p = currentPacket();
        if (p.secondaryId) {
            lineError("a second SECONDARY_ID for this packet");
            return;
        }
        const auto offset = unsignedInteger(1, "bit offset", 0, kMaxUint32);
        if (!offset)
            return;
        const auto length = unsignedInteger(2, "bit length", 1, 64);
        if (!length)
            return;
        const auto value = unsignedInteger(3, "value", 0, kMaxUint64);
        if (!value || !noMoreThan(4))
            return;
        p.secondaryId = SecondaryId{static_cast<std::uint32_t>(*offset), static_cast<std::uint32_t>(*length), *value};
    }

    void onSecondaryHeader()
    {
        if (!inPacketHeader())
            return;
        PacketDef& p = currentPacket();
        if (p.secondaryHeader) {
            lineError("a second SECONDARY_HEADER for this packet");
            return;
        }
        if (!expectKeyword(1, "CUC"))
            return;
        const auto coarse = unsignedInteger(2, "coarse time bytes", 1, 4);
        if (!coarse)
            return;
        const auto fine = unsignedInteger(3, "fine time bytes", 0, 3);
        if (!fine)
            return;
        CucLayout cuc;
        cuc.coarseBytes = static_cast<std::uint8_t>(*coarse);
        cuc.fineBytes = static_cast<std::uint8_t>(*fine);
        bool pfieldSeen = false;
        bool epochSeen = false;
        for (std::size_t k = 4; k < m_tokens.size(); ++k) {
            const Token& t = m_tokens[k];
            if (t.kind == Token::Kind::Word && isKeyword(t.raw, "PFIELD") && !pfieldSeen) {
                pfieldSeen = true;
                cuc.hasPField = true;
            } else if (t.kind == Token::Kind::Word && isKeyword(t.raw, "EPOCH") && !epochSeen) {
                epochSeen = true;
                const Token* e = argument(++k, "the epoch after EPOCH (TAI, GPS or UNIX)");
                if (!e)
                    return;
                if (e->kind == Token::Kind::Word && isKeyword(e->raw, "TAI"))
                    cuc.epoch = TimeEpoch::Tai1958;
                else if (e->kind == Token::Kind::Word && isKeyword(e->raw, "GPS"))
                    cuc.epoch = TimeEpoch::Gps1980;
                else if (e->kind == Token::Kind::Word && isKeyword(e->raw, "UNIX"))
                    cuc.epoch = TimeEpoch::Unix1970;
                else {
                    tokenError(k, "expected TAI, GPS or UNIX after EPOCH, found " + shown(k));
                    return;
                }
            } else {
                tokenError(k, "expected PFIELD or EPOCH (each at most once), found " + shown(k));
                return;
            }
        }
        p.secondaryHeader = cuc;
    }

    void onParameter()
    {
        startParameter();
        ParameterDef& q = currentParameter();
        const auto parameterName = name(1, "parameter name");
        if (!parameterName)
            return;
        q.name = *parameterName;
        // <bit offset>, or +<gap> after the end of the previous parameter.
        const Token* offsetToken = argument(2, "bit offset");
        if (!offsetToken)
            return;
        if (offsetToken->kind == Token::Kind::Word && offsetToken->raw.size() > 1 && offsetToken->raw.front() == '+') {
            const ParsedInteger gap = parseInteger(offsetToken->raw.substr(1));
            if (gap.status != ParsedInteger::Status::Ok || gap.negative || gap.magnitude > kMaxUint32) {
                tokenError(2, "expected a gap after '+' (an integer 0..4294967295), found " + shown(2));
                return;
            }
            q.placement = Placement::AfterPrevious;
            q.bitOffset = static_cast<std::uint32_t>(gap.magnitude);
        } else {
            const auto offset = unsignedInteger(2, "bit offset", 0, kMaxUint32);
            if (!offset)
                return;
            q.bitOffset = static_cast<std::uint32_t>(*offset);
        }
        // <bit length>, or * for a size from a SIZE line.
        const Token* lengthToken = argument(3, "bit length");
        if (!lengthToken)
            return;
        const bool star = lengthToken->kind == Token::Kind::Word && lengthToken->raw == "*";
        if (!star) {
            const auto length = unsignedInteger(3, "bit length", 1, kMaxUint32);
            if (!length)
                return;
            q.bitLength = static_cast<std::uint32_t>(*length);
        }
        const Token* type = argument(4, "the data type (" + std::string(kTypeList) + ")");
        if (!type)
            return;
        constexpr const auto& kTypes = kDataTypeKeywords;
        const auto found = std::find_if(std::begin(kTypes), std::end(kTypes), [&](const auto& entry) {
            return type->kind == Token::Kind::Word && isKeyword(type->raw, entry.first);
        });
        if (found == std::end(kTypes)) {
            tokenError(4, "expected a data type (" + std::string(kTypeList) + "), found " + shown(4));
            return;
        }
        q.type = found->second;
        std::optional<ByteOrder> order;
        if (!optionalByteOrder(5, order))
            return;
        q.byteOrder = order;
        m_parameterLineComplete = true;
        if (star) {
            m_sizeStar = true;
            m_sizeStarLine = m_line;
            m_sizeStarColumn = m_tokens[3].column;
        }
    }

    void onSize()
    {
        if (!inParameter())
            return;
        if (m_parameterHasSize) {
            lineError("a second SIZE for this parameter");
            return;
        }
        m_parameterHasSize = true;
        if (m_parameterLineComplete && !m_sizeStar) {
            lineError("the parameter's bit length must be '*' for its size to come from a SIZE line");
            return;
        }
        FieldSize size;
        const Token* kind = argument(1, "the size kind (FROM, TERMINATED or LEADING)");
        if (!kind)
            return;
        std::size_t next = 0;
        if (kind->kind == Token::Kind::Word && isKeyword(kind->raw, "FROM")) {
            size.kind = SizeKind::FromParameter;
            const auto parameterName = name(2, "parameter name");
            if (!parameterName)
                return;
            size.sizeParameter = *parameterName;
            next = 3;
        } else if (kind->kind == Token::Kind::Word && isKeyword(kind->raw, "TERMINATED")) {
            size.kind = SizeKind::Terminated;
            const auto terminator = unsignedInteger(2, "terminator byte", 0, 255);
            if (!terminator)
                return;
            size.terminator = static_cast<std::uint8_t>(*terminator);
            next = 3;
        } else if (kind->kind == Token::Kind::Word && isKeyword(kind->raw, "LEADING")) {
            size.kind = SizeKind::LeadingSize;
            const auto bits = unsignedInteger(2, "leading size bits", 1, 32);
            if (!bits)
                return;
            size.leadingSizeBits = static_cast<std::uint8_t>(*bits);
            next = 3;
        } else {
            tokenError(1, "expected FROM, TERMINATED or LEADING, found " + shown(1));
            return;
        }
        // Options, each at most once: SLOPE and INTERCEPT (FROM only), MAX.
        bool slopeSeen = false;
        bool interceptSeen = false;
        bool maxSeen = false;
        for (std::size_t k = next; k < m_tokens.size(); k += 2) {
            const Token& t = m_tokens[k];
            const bool from = size.kind == SizeKind::FromParameter;
            if (t.kind == Token::Kind::Word && from && !slopeSeen && isKeyword(t.raw, "SLOPE")) {
                slopeSeen = true;
                const auto v = real(k + 1, "slope");
                if (!v)
                    return;
                size.sizeSlope = *v;
            } else if (t.kind == Token::Kind::Word && from && !interceptSeen && isKeyword(t.raw, "INTERCEPT")) {
                interceptSeen = true;
                const auto v = real(k + 1, "intercept");
                if (!v)
                    return;
                size.sizeIntercept = *v;
            } else if (t.kind == Token::Kind::Word && !maxSeen && isKeyword(t.raw, "MAX")) {
                maxSeen = true;
                const auto v = unsignedInteger(k + 1, "maximum bytes", 0, 65536);
                if (!v)
                    return;
                size.maxBytes = static_cast<std::uint32_t>(*v);
            } else {
                tokenError(k, std::string("expected ") + (from ? "SLOPE, INTERCEPT or MAX" : "MAX")
                        + " (each at most once) or the end of the line, found " + shown(k));
                return;
            }
        }
        currentParameter().size = std::move(size);
    }

    void onWhen()
    {
        if (!inParameter())
            return;
        std::size_t next = 0;
        const auto c = condition(1, next);
        if (!c || !noMoreThan(next))
            return;
        currentParameter().includeWhen.push_back(*c);
    }

    void onContext()
    {
        if (!inParameter())
            return;
        ContextCalibration context;
        std::size_t k = 1;
        while (true) {
            std::size_t next = 0;
            const auto c = condition(k, next);
            if (!c)
                return;
            context.when.push_back(*c);
            if (next >= m_tokens.size())
                break;
            if (m_tokens[next].kind != Token::Kind::Word || !isKeyword(m_tokens[next].raw, "AND")) {
                tokenError(next, "expected AND, CALIBRATED or the end of the line, found " + shown(next));
                return;
            }
            k = next + 1;
            if (k >= m_tokens.size()) {
                lineError("missing a condition after AND");
                return;
            }
        }
        auto& contexts = currentParameter().contextCalibrators;
        contexts.push_back(std::move(context));
        m_context = static_cast<int>(contexts.size()) - 1;
    }

    void onUnits()
    {
        if (!inParameter())
            return;
        if (m_parameterHasUnits) {
            lineError("a second UNITS for this parameter");
            return;
        }
        m_parameterHasUnits = true;
        const auto text = quoted(1, "the units");
        if (text && noMoreThan(2))
            currentParameter().units = *text;
    }

    void onOverlapOk()
    {
        if (!inParameter())
            return;
        if (currentParameter().overlapAllowed) {
            lineError("a second OVERLAP_OK for this parameter");
            return;
        }
        if (noMoreThan(1))
            currentParameter().overlapAllowed = true;
    }

    // A calibrator has one kind; returns the calibrator of kind T to add to, or nothing after an
    // error. The lines after a CONTEXT belong to that context's calibrator.
    template <typename T>
    T* calibratorOfKind(bool once)
    {
        if (!inParameter())
            return nullptr;
        const bool inContext = m_context >= 0;
        if (inContext && std::is_same_v<T, EnumerationCalibrator>) {
            lineError("after a CONTEXT line: a context calibrator is a polynomial, a point table or a time;"
                      " STATE lines go before the first CONTEXT");
            return nullptr;
        }
        Calibrator& calibrator = inContext
            ? currentParameter().contextCalibrators[static_cast<std::size_t>(m_context)].calibrator
            : currentParameter().calibrator;
        const char* owner = inContext ? "this CONTEXT" : "this parameter";
        if (std::holds_alternative<std::monostate>(calibrator))
            return &calibrator.emplace<T>();
        if (T* same = std::get_if<T>(&calibrator)) {
            if (!once)
                return same;
            lineError("a second " + m_keyword + " for " + owner);
            return nullptr;
        }
        const char* other = std::holds_alternative<PolynomialCalibrator>(calibrator) ? "POLY"
            : std::holds_alternative<PointPairCalibrator>(calibrator)              ? "POINT"
            : std::holds_alternative<TimeCalibrator>(calibrator)                   ? "TIME"
                                                                                   : "STATE";
        if (inContext)
            lineError(std::string("cannot be combined with ") + other + " in this CONTEXT: a calibrator has one kind");
        else
            lineError(std::string("cannot be combined with ") + other + ": a parameter has one calibrator kind");
        return nullptr;
    }

    void onTime()
    {
        if (!inParameter())
            return;
        TimeCalibrator time;
        const Token* epoch = argument(1, "the epoch (TAI, GPS, UNIX, J2000 or Unix seconds)");
        if (!epoch)
            return;
        bool named = false;
        for (const auto& [word, value] : kNamedEpochs) {
            if (epoch->kind == Token::Kind::Word && isKeyword(epoch->raw, word)) {
                time.epochUnixSeconds = value;
                named = true;
            }
        }
        if (!named) {
            const auto seconds = real(1, "epoch: TAI, GPS, UNIX, J2000 or Unix seconds");
            if (!seconds)
                return;
            time.epochUnixSeconds = *seconds;
        }
        bool scaleSeen = false;
        bool offsetSeen = false;
        for (std::size_t k = 2; k < m_tokens.size(); k += 2) {
            const Token& t = m_tokens[k];
            if (t.kind == Token::Kind::Word && !scaleSeen && isKeyword(t.raw, "SCALE")) {
                scaleSeen = true;
                const auto v = real(k + 1, "scale");
                if (!v)
                    return;
                time.scale = *v;
            } else if (t.kind == Token::Kind::Word && !offsetSeen && isKeyword(t.raw, "OFFSET")) {
                offsetSeen = true;
                const auto v = real(k + 1, "offset");
                if (!v)
                    return;
                time.offset = *v;
            } else {
                tokenError(k, "expected SCALE or OFFSET (each at most once) or the end of the line, found " + shown(k));
                return;
            }
        }
        if (auto* calibrator = calibratorOfKind<TimeCalibrator>(true))
            *calibrator = time;
    }

    void onPoly()
    {
        if (!inParameter())
            return;
        if (m_tokens.size() < 2) {
            lineError("missing the coefficients (1 to 6)");
            return;
        }
        if (m_tokens.size() > kMaxPolynomialCoefficients + 1) {
            tokenError(kMaxPolynomialCoefficients + 1, "at most 6 coefficients (c0 to c5)");
            return;
        }
        std::vector<double> coefficients;
        for (std::size_t k = 1; k < m_tokens.size(); ++k) {
            const auto c = real(k, "coefficient");
            if (!c)
                return;
            coefficients.push_back(*c);
        }
        if (auto* poly = calibratorOfKind<PolynomialCalibrator>(true))
            poly->coefficients = std::move(coefficients);
    }

    void onPoint()
    {
        if (!inParameter())
            return;
        const auto raw = real(1, "raw value");
        if (!raw)
            return;
        const auto calibrated = real(2, "calibrated value");
        if (!calibrated || !noMoreThan(3))
            return;
        if (auto* table = calibratorOfKind<PointPairCalibrator>(false))
            table->points.push_back(PointPair{*raw, *calibrated});
    }

    void onState()
    {
        if (!inParameter())
            return;
        const auto text = quoted(1, "the state text");
        if (!text)
            return;
        const auto low = signedInteger(2, "code");
        if (!low)
            return;
        std::optional<std::int64_t> high = low;
        if (m_tokens.size() > 3) {
            high = signedInteger(3, "high code");
            if (!high || !noMoreThan(4))
                return;
        }
        if (auto* enumeration = calibratorOfKind<EnumerationCalibrator>(false))
            enumeration->states.push_back(State{*low, *high, *text});
    }

    // A parameter has one kind of limits, once.
    bool limitsFree()
    {
        const Limits& limits = currentParameter().limits;
        if (std::holds_alternative<std::monostate>(limits))
            return true;
        const bool numeric = std::holds_alternative<NumericLimits>(limits);
        if ((m_keyword == "LIMITS") == numeric)
            lineError("a second " + m_keyword + " for this parameter");
        else
            lineError(std::string("cannot be combined with ") + (numeric ? "LIMITS" : "EXPECTED")
                + ": a parameter has one kind of limits");
        return false;
    }

    void onLimits()
    {
        if (!inParameter() || !limitsFree())
            return;
        static const std::string kNames[] = {
            "red low limit", "yellow low limit", "yellow high limit", "red high limit"};
        double values[4] = {};
        for (std::size_t k = 0; k < 4; ++k) {
            const auto v = realOrInfinity(k + 1, kNames[k]);
            if (!v)
                return;
            values[k] = *v;
        }
        bool enabled = true;
        if (m_tokens.size() > 5) {
            if (m_tokens[5].kind != Token::Kind::Word || !isKeyword(m_tokens[5].raw, "DISABLED")) {
                tokenError(5, "expected DISABLED or the end of the line, found " + shown(5));
                return;
            }
            if (!noMoreThan(6))
                return;
            enabled = false;
        }
        currentParameter().limits = NumericLimits{values[0], values[1], values[2], values[3], enabled};
    }

    void onExpected()
    {
        if (!inParameter() || !limitsFree())
            return;
        StateLimits limits;
        for (std::size_t k = 1; k < m_tokens.size(); ++k) {
            const Token& t = m_tokens[k];
            if (t.kind == Token::Kind::String) {
                limits.expectedStates.push_back(t.text);
                continue;
            }
            if (!isKeyword(t.raw, "DISABLED")) {
                tokenError(k, "expected a state name in double quotes or DISABLED, found " + shown(k));
                return;
            }
            if (!noMoreThan(k + 1))
                return;
            limits.enabled = false;
        }
        if (limits.expectedStates.empty()) {
            lineError("missing the expected states (names in double quotes)");
            return;
        }
        currentParameter().limits = std::move(limits);
    }

    // ---- validation ----

    void addValidationIssues()
    {
        const auto issues = validate(m_result.database);
        const std::size_t firstValidation = m_result.diagnostics.size();
        for (const auto& issue : issues) {
            // An issue of the database as a whole (the mission name) is placed at the MISSION line.
            SourceLocation where{std::string(m_fileName), m_missionLine, m_missionColumn};
            if (issue.packetIndex >= 0 && static_cast<std::size_t>(issue.packetIndex) < m_sources.size()) {
                const PacketSource& source = m_sources[static_cast<std::size_t>(issue.packetIndex)];
                where.line = source.line;
                where.column = source.column;
                if (issue.parameterIndex >= 0
                    && static_cast<std::size_t>(issue.parameterIndex) < source.parameters.size()) {
                    where.line = source.parameters[static_cast<std::size_t>(issue.parameterIndex)].first;
                    where.column = source.parameters[static_cast<std::size_t>(issue.parameterIndex)].second;
                }
            }
            m_result.diagnostics.push_back(Diagnostic{issue.severity, issue.message, std::move(where)});
        }
        // In file order, as a reader goes through the file.
        std::stable_sort(m_result.diagnostics.begin() + static_cast<std::ptrdiff_t>(firstValidation),
            m_result.diagnostics.end(),
            [](const Diagnostic& a, const Diagnostic& b) { return a.where.line < b.where.line; });
    }

    std::string_view m_text;
    std::string_view m_fileName;
    ImportResult m_result;
    MissionDatabase m_db;
    std::vector<PacketSource> m_sources;
    std::vector<Token> m_tokens;
    std::string m_keyword; // the current line's keyword, upper case, for messages
    int m_line = 0;
    int m_missionLine = 0;
    int m_missionColumn = 0;
    int m_errorCount = 0;
    bool m_missionSeen = false;
    bool m_inParameter = false;
    TextsSeen m_packetTexts;
    TextsSeen m_parameterTexts;
    bool m_parameterHasUnits = false;
    bool m_parameterHasSize = false;
    bool m_parameterLineComplete = false; // the PARAMETER line parsed without error
    bool m_sizeStar = false;              // its bit length is '*': a SIZE line must follow
    int m_sizeStarLine = 0;
    int m_sizeStarColumn = 0;
    int m_context = -1; // the CONTEXT the calibrator lines go to; -1: the default calibrator
};

// A real that is not its default: also -0.0 where the default is 0, so that the sign survives.
bool differs(double value, double defaultValue)
{
    return value != defaultValue || std::signbit(value) != std::signbit(defaultValue);
}

void writeCondition(std::string& out, const Condition& c)
{
    out += c.parameter;
    out += ' ';
    out += keyword(c.op);
    out += ' ';
    appendReal(out, c.value);
    if (c.calibrated)
        out += " CALIBRATED";
}

// DESCRIPTION, LONG_DESCRIPTION, PATH and ALIAS lines, the same for packets and parameters.
void writeDescriptions(std::string& out, const char* indent, const std::string& description,
                       const std::string& longDescription, const std::string& path, const std::vector<Alias>& aliases)
{
    if (!description.empty())
        out += std::string(indent) + "DESCRIPTION " + quote(description) + '\n';
    if (!longDescription.empty())
        out += std::string(indent) + "LONG_DESCRIPTION " + quote(longDescription) + '\n';
    if (!path.empty())
        out += std::string(indent) + "PATH " + quote(path) + '\n';
    for (const auto& a : aliases)
        out += std::string(indent) + "ALIAS " + quote(a.nameSpace) + ' ' + quote(a.alias) + '\n';
}

void writeSize(std::string& out, const FieldSize& size)
{
    switch (size.kind) {
    case SizeKind::Fixed:
        return;
    case SizeKind::FromParameter:
        out += "    SIZE FROM " + size.sizeParameter;
        if (differs(size.sizeSlope, 1)) {
            out += " SLOPE ";
            appendReal(out, size.sizeSlope);
        }
        if (differs(size.sizeIntercept, 0)) {
            out += " INTERCEPT ";
            appendReal(out, size.sizeIntercept);
        }
        break;
    case SizeKind::Terminated:
        out += "    SIZE TERMINATED ";
        appendInteger(out, unsigned{size.terminator});
        break;
    case SizeKind::LeadingSize:
        out += "    SIZE LEADING ";
        appendInteger(out, unsigned{size.leadingSizeBits});
        break;
    }
    if (size.maxBytes != 0) {
        out += " MAX ";
        appendInteger(out, size.maxBytes);
    }
    out += '\n';
}

// The lines of one calibrator (the default one, or a context's after its CONTEXT line).
void writeCalibrator(std::string& out, const Calibrator& calibrator)
{
    if (const auto* poly = std::get_if<PolynomialCalibrator>(&calibrator)) {
        out += "    POLY";
        for (const double c : poly->coefficients) {
            out += ' ';
            appendReal(out, c);
        }
        out += '\n';
    } else if (const auto* table = std::get_if<PointPairCalibrator>(&calibrator)) {
        for (const auto& point : table->points) {
            out += "    POINT ";
            appendReal(out, point.raw);
            out += ' ';
            appendReal(out, point.calibrated);
            out += '\n';
        }
    } else if (const auto* enumeration = std::get_if<EnumerationCalibrator>(&calibrator)) {
        for (const auto& state : enumeration->states) {
            out += "    STATE " + quote(state.text) + ' ';
            appendInteger(out, state.low);
            if (state.high != state.low) {
                out += ' ';
                appendInteger(out, state.high);
            }
            out += '\n';
        }
    } else if (const auto* time = std::get_if<TimeCalibrator>(&calibrator)) {
        out += "    TIME ";
        if (const std::string_view named = namedEpoch(time->epochUnixSeconds); !named.empty())
            out += named;
        else
            appendReal(out, time->epochUnixSeconds);
        if (differs(time->scale, 1)) {
            out += " SCALE ";
            appendReal(out, time->scale);
        }
        if (differs(time->offset, 0)) {
            out += " OFFSET ";
            appendReal(out, time->offset);
        }
        out += '\n';
    }
}

void writeParameter(std::string& out, const ParameterDef& q)
{
    out += "  PARAMETER ";
    out += q.name;
    out += ' ';
    if (q.placement == Placement::AfterPrevious)
        out += '+';
    appendInteger(out, q.bitOffset);
    out += ' ';
    if (q.fixedSize())
        appendInteger(out, q.bitLength);
    else
        out += '*';
    out += ' ';
    out += keyword(q.type);
    if (q.byteOrder) {
        out += ' ';
        out += keyword(*q.byteOrder);
    }
    out += '\n';
    writeSize(out, q.size);
    for (const auto& c : q.includeWhen) {
        out += "    WHEN ";
        writeCondition(out, c);
        out += '\n';
    }
    if (!q.units.empty())
        out += "    UNITS " + quote(q.units) + '\n';
    writeDescriptions(out, "    ", q.description, q.longDescription, q.path, q.aliases);
    if (q.overlapAllowed)
        out += "    OVERLAP_OK\n";
    writeCalibrator(out, q.calibrator);
    for (const auto& context : q.contextCalibrators) {
        out += "    CONTEXT ";
        for (std::size_t k = 0; k < context.when.size(); ++k) {
            if (k > 0)
                out += " AND ";
            writeCondition(out, context.when[k]);
        }
        out += '\n';
        writeCalibrator(out, context.calibrator);
    }
    if (const auto* numeric = std::get_if<NumericLimits>(&q.limits)) {
        out += "    LIMITS";
        for (const double v : {numeric->redLow, numeric->yellowLow, numeric->yellowHigh, numeric->redHigh}) {
            out += ' ';
            appendReal(out, v); // to_chars writes an open side as inf / -inf
        }
        out += numeric->enabled ? "\n" : " DISABLED\n";
    } else if (const auto* expected = std::get_if<StateLimits>(&q.limits)) {
        out += "    EXPECTED";
        for (const auto& state : expected->expectedStates)
            out += ' ' + quote(state);
        out += expected->enabled ? "\n" : " DISABLED\n";
    }
}

void writePacket(std::string& out, const PacketDef& p)
{
    out += "PACKET " + p.name + " APID ";
    appendInteger(out, p.apid);
    out += " LENGTH ";
    if (p.variableLength) {
        out += "VARIABLE ";
        appendInteger(out, p.length);
        out += ' ';
        appendInteger(out, p.maxLength);
    } else {
        appendInteger(out, p.length);
    }
    if (p.byteOrder == ByteOrder::LittleEndian)
        out += " LITTLE_ENDIAN";
    out += '\n';
    writeDescriptions(out, "  ", p.description, p.longDescription, p.path, p.aliases);
    if (p.secondaryId) {
        out += "  SECONDARY_ID ";
        appendInteger(out, p.secondaryId->bitOffset);
        out += ' ';
        appendInteger(out, p.secondaryId->bitLength);
        out += ' ';
        appendInteger(out, p.secondaryId->value);
        out += '\n';
    }
    for (const auto& c : p.criteria) {
        out += "  MATCH ";
        appendInteger(out, c.bitOffset);
        out += ' ';
        appendInteger(out, c.bitLength);
        out += ' ';
        out += keyword(c.op);
        out += ' ';
        appendInteger(out, c.value);
        out += '\n';
    }
    if (p.secondaryHeader) {
        const CucLayout& cuc = *p.secondaryHeader;
        out += "  SECONDARY_HEADER CUC ";
        appendInteger(out, unsigned{cuc.coarseBytes});
        out += ' ';
        appendInteger(out, unsigned{cuc.fineBytes});
        if (cuc.hasPField)
            out += " PFIELD";
        if (cuc.epoch != TimeEpoch::Tai1958) {
            out += " EPOCH ";
            out += keyword(cuc.epoch);
        }
        out += '\n';
    }
    for (const auto& q : p.parameters)
        writeParameter(out, q);
}

std::string systemMessage(int code)
{
    return std::generic_category().message(code);
}

} // namespace

ImportResult parseText(std::string_view text, std::string_view fileName)
{
    return Parser(text, fileName).run();
}

ImportResult readTextFile(const std::string& path)
{
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) {
        const int code = errno;
        ImportResult result;
        result.diagnostics.push_back(Diagnostic{Severity::Error, "cannot open '" + path + "': " + systemMessage(code),
            SourceLocation{path, 0, 0}});
        return result;
    }
    std::string content;
    char buffer[65536];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0)
        content.append(buffer, n);
    const bool failed = std::ferror(file) != 0;
    const int code = errno;
    std::fclose(file);
    if (failed) {
        ImportResult result;
        result.diagnostics.push_back(Diagnostic{Severity::Error, "cannot read '" + path + "': " + systemMessage(code),
            SourceLocation{path, 0, 0}});
        return result;
    }
    return parseText(content, path);
}

std::string writeText(const MissionDatabase& db)
{
    std::string out;
    out.reserve(64 + db.packets.size() * 64 + db.parameterCount() * 48);
    if (!db.name.empty())
        out += "MISSION " + quote(db.name) + '\n';
    for (const auto& p : db.packets) {
        if (!out.empty())
            out += '\n';
        writePacket(out, p);
    }
    return out;
}

Status writeTextFile(const MissionDatabase& db, const std::string& path)
{
    const std::string text = writeText(db);
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file)
        return Error{"cannot create '" + path + "': " + systemMessage(errno), SourceLocation{path, 0, 0}};
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    const int code = errno;
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed)
        return Error{
            "cannot write '" + path + "': " + systemMessage(written ? errno : code), SourceLocation{path, 0, 0}};
    return {};
}

} // namespace telestation::mdb
