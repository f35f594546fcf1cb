// A small read-only view of an XML document parsed by libxml2, the one XML reading layer of core/xtce
// (the importer and the reading back of an export): elements by their local name in the XTCE namespace
// (1.1, 1.2 or none), attributes, text, and the line and column of every start tag. Parsing is safe for
// untrusted input: no network, no DTD, no entity expansion, a size limit.
#pragma once

#include "core/common/diagnostic.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct _xmlNode;
struct _xmlDoc;

namespace telestation::xtce {

inline constexpr std::string_view kXtceNamespace11 = "http://www.omg.org/space/xtce";
inline constexpr std::string_view kXtceNamespace12 = "http://www.omg.org/spec/XTCE/20180204";
inline constexpr std::size_t kMaxXmlBytes = std::size_t{64} * 1024 * 1024;

class XmlDocument;

// `text` without XML blanks (space, tab, line feed, carriage return) at either end.
[[nodiscard]] std::string_view trimmedXmlBlanks(std::string_view text);

// A non-owning view of one element; valid while its XmlDocument lives. A default-constructed
// element is "absent": every query on it returns nothing.
class XmlElement {
public:
    XmlElement() = default;
    XmlElement(const _xmlNode* node, const XmlDocument* document)
        : m_node(node)
        , m_document(document)
    { }

    [[nodiscard]] explicit operator bool() const { return m_node != nullptr; }
    [[nodiscard]] std::string_view localName() const;
    // An attribute without namespace (XTCE attributes are unqualified).
    [[nodiscard]] std::optional<std::string> attribute(std::string_view name) const;
    [[nodiscard]] std::string attributeOr(std::string_view name, std::string_view fallback) const;
    // The text content, blanks trimmed at both ends.
    [[nodiscard]] std::string text() const;
    // The text content exactly as written, blanks included.
    [[nodiscard]] std::string exactText() const;
    [[nodiscard]] int line() const;
    [[nodiscard]] int column() const;
    // Child elements in the XTCE namespace (or no namespace); others are not XTCE and left out.
    [[nodiscard]] std::vector<XmlElement> children() const;
    [[nodiscard]] std::vector<XmlElement> children(std::string_view localName) const;
    [[nodiscard]] XmlElement child(std::string_view localName) const;
    [[nodiscard]] bool isXtce() const;
    [[nodiscard]] const _xmlNode* node() const { return m_node; }

private:
    const _xmlNode* m_node = nullptr;
    const XmlDocument* m_document = nullptr;
};

class XmlDocument {
public:
    struct Parsed {
        std::unique_ptr<XmlDocument> document; // null when the text is not well-formed XML
        Diagnostics diagnostics; // libxml2's messages with line:column
    };

    // Never throws. fileName is only used in diagnostics.
    [[nodiscard]] static Parsed parse(std::string_view xml, const std::string& fileName);

    ~XmlDocument();
    XmlDocument(const XmlDocument&) = delete;
    XmlDocument& operator=(const XmlDocument&) = delete;

    [[nodiscard]] XmlElement root() const;
    [[nodiscard]] const std::string& fileName() const { return m_fileName; }
    [[nodiscard]] SourceLocation locationOf(const XmlElement& element) const;

private:
    friend class XmlElement;
    struct Position {
        int line = 0;
        int column = 0;
    };
    XmlDocument(_xmlDoc* doc, std::string fileName)
        : m_doc(doc)
        , m_fileName(std::move(fileName))
    { }
    void locateStartTags(std::string_view xml);
    [[nodiscard]] Position positionOf(const _xmlNode* node) const;

    _xmlDoc* m_doc = nullptr;
    std::string m_fileName;
    std::unordered_map<const _xmlNode*, Position> m_positions;
};

} // namespace telestation::xtce
