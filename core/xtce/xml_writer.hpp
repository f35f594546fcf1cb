// A small writer of indented XML in the "xtce:" prefix, for the XTCE export: every attribute value and
// text is escaped so that an XML parser reads it back unchanged (tabs, line breaks and carriage returns
// as character references), and what XML 1.0 cannot hold at all (C0 controls other than tab, line feed
// and carriage return; invalid UTF-8; U+FFFE, U+FFFF) is written as U+FFFD.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace telestation::xtce {

class XmlWriter {
public:
    using Attributes = std::vector<std::pair<std::string_view, std::string>>;

    // <xtce:NAME ...> ... close().
    void open(std::string_view name, const Attributes& attributes = {});
    // <xtce:NAME .../>
    void leaf(std::string_view name, const Attributes& attributes = {});
    // Text kept exactly: no indentation inside the element.
    void textElement(std::string_view name, std::string_view text, const Attributes& attributes = {});
    void close();
    // Written as it is (the XML declaration, comments).
    void raw(std::string_view text) { m_out += text; }
    [[nodiscard]] std::string take() { return std::move(m_out); }

private:
    void indent() { m_out.append(2 * m_stack.size(), ' '); }
    void startTag(std::string_view name, const Attributes& attributes);

    std::string m_out;
    std::vector<std::string> m_stack;
};

} // namespace telestation::xtce
