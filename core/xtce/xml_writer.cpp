#include "core/xtce/xml_writer.hpp"

#include <cstdint>

namespace telestation::xtce {

namespace {

// `text` with what XML 1.0 cannot hold (C0 controls but tab, LF and CR; invalid UTF-8; U+FFFE, U+FFFF)
// replaced by U+FFFD.
std::string xmlSafe(std::string_view text)
{
    constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                out += kReplacement;
            else
                out += static_cast<char>(c);
            ++i;
            continue;
        }
        std::size_t length = 0;
        std::uint32_t code = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
            code = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            code = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            code = c & 0x07u;
        }
        bool ok = length > 0 && i + length <= text.size();
        for (std::size_t k = 1; ok && k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            ok = (next & 0xC0u) == 0x80u;
            code = (code << 6) | (next & 0x3Fu);
        }
        const std::uint32_t smallest = length == 3 ? 0x800u : length == 4 ? 0x10000u : 0x80u;
        ok = ok && code >= smallest && code <= 0x10FFFFu && !(code >= 0xD800u && code <= 0xDFFFu) && code != 0xFFFEu
            && code != 0xFFFFu;
        if (ok) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out += kReplacement;
            ++i;
        }
    }
    return out;
}

enum class Where { Text, Attribute };

// Escaped so that a parser reads back exactly `text`: a literal CR would be read back as LF, and
// literal tabs and line breaks in an attribute are normalised to spaces.
std::string escaped(std::string_view text, Where where)
{
    const bool attribute = where == Where::Attribute;
    std::string out;
    for (const char c : xmlSafe(text)) {
        if (c == '&')
            out += "&amp;";
        else if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '\r')
            out += "&#13;";
        else if (attribute && c == '"')
            out += "&quot;";
        else if (attribute && c == '\t')
            out += "&#9;";
        else if (attribute && c == '\n')
            out += "&#10;";
        else
            out += c;
    }
    return out;
}

} // namespace

void XmlWriter::open(std::string_view name, const Attributes& attributes)
{
    startTag(name, attributes);
    m_out += ">\n";
    m_stack.emplace_back(name);
}

void XmlWriter::leaf(std::string_view name, const Attributes& attributes)
{
    startTag(name, attributes);
    m_out += "/>\n";
}

void XmlWriter::textElement(std::string_view name, std::string_view text, const Attributes& attributes)
{
    startTag(name, attributes);
    m_out += '>';
    m_out += escaped(text, Where::Text);
    m_out += "</xtce:";
    m_out += name;
    m_out += ">\n";
}

void XmlWriter::close()
{
    const std::string name = std::move(m_stack.back());
    m_stack.pop_back();
    indent();
    m_out += "</xtce:" + name + ">\n";
}

void XmlWriter::startTag(std::string_view name, const Attributes& attributes)
{
    indent();
    m_out += "<xtce:";
    m_out += name;
    for (const auto& [key, value] : attributes) {
        m_out += ' ';
        m_out += key;
        m_out += "=\"";
        m_out += escaped(value, Where::Attribute);
        m_out += '"';
    }
}

} // namespace telestation::xtce
