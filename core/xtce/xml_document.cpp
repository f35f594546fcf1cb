#include "core/xtce/xml_document.hpp"

#include <algorithm>
#include <climits>
#include <functional>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

namespace telestation::xtce {

namespace {

bool isXtceNamespace(const xmlNode* node)
{
    if (node->ns == nullptr || node->ns->href == nullptr)
        return true;
    const std::string_view href(reinterpret_cast<const char*>(node->ns->href));
    return href == kXtceNamespace11 || href == kXtceNamespace12;
}


struct ErrorCollector {
    std::string fileName;
    Diagnostics diagnostics;
};

// libxml2 hands parser errors of a context to sax->serror with the context as user data.
void collectError(void* userData, xmlErrorPtr error)
{
    auto* context = static_cast<xmlParserCtxtPtr>(userData);
    if (context == nullptr || context->_private == nullptr || error == nullptr)
        return;
    auto* collector = static_cast<ErrorCollector*>(context->_private);
    if (collector->diagnostics.size() >= 20)
        return;
    std::string message = error->message != nullptr ? std::string(trimmedXmlBlanks(error->message)) : "malformed XML";
    const Severity severity = error->level == XML_ERR_WARNING ? Severity::Warning : Severity::Error;
    collector->diagnostics.push_back(
        Diagnostic { severity, "XML: " + message, SourceLocation { collector->fileName, error->line, error->int2 } });
}

} // namespace

std::string_view trimmedXmlBlanks(std::string_view text)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    return text;
}

std::string_view XmlElement::localName() const
{
    if (m_node == nullptr || m_node->name == nullptr)
        return {};
    return reinterpret_cast<const char*>(m_node->name);
}

std::optional<std::string> XmlElement::attribute(std::string_view name) const
{
    if (m_node == nullptr)
        return std::nullopt;
    for (const xmlAttr* a = m_node->properties; a != nullptr; a = a->next) {
        if (a->ns != nullptr || a->name == nullptr || std::string_view(reinterpret_cast<const char*>(a->name)) != name)
            continue;
        xmlChar* value = xmlNodeListGetString(m_node->doc, a->children, 1);
        std::string out = value != nullptr ? reinterpret_cast<const char*>(value) : "";
        xmlFree(value);
        return out;
    }
    return std::nullopt;
}

std::string XmlElement::attributeOr(std::string_view name, std::string_view fallback) const
{
    auto value = attribute(name);
    return value ? *value : std::string(fallback);
}

std::string XmlElement::text() const
{
    return std::string(trimmedXmlBlanks(exactText()));
}

std::string XmlElement::exactText() const
{
    if (m_node == nullptr)
        return {};
    xmlChar* content = xmlNodeGetContent(m_node);
    std::string out = content != nullptr ? std::string(reinterpret_cast<const char*>(content)) : std::string();
    xmlFree(content);
    return out;
}

int XmlElement::line() const
{
    return m_node != nullptr ? m_document->positionOf(m_node).line : 0;
}

int XmlElement::column() const
{
    return m_node != nullptr ? m_document->positionOf(m_node).column : 0;
}

std::vector<XmlElement> XmlElement::children() const
{
    std::vector<XmlElement> out;
    if (m_node == nullptr)
        return out;
    for (const xmlNode* c = m_node->children; c != nullptr; c = c->next)
        if (c->type == XML_ELEMENT_NODE && isXtceNamespace(c))
            out.emplace_back(c, m_document);
    return out;
}

std::vector<XmlElement> XmlElement::children(std::string_view localName) const
{
    std::vector<XmlElement> out;
    for (const auto& c : children())
        if (c.localName() == localName)
            out.push_back(c);
    return out;
}

XmlElement XmlElement::child(std::string_view localName) const
{
    for (const auto& c : children())
        if (c.localName() == localName)
            return c;
    return {};
}

bool XmlElement::isXtce() const
{
    return m_node != nullptr && isXtceNamespace(m_node);
}

XmlDocument::Parsed XmlDocument::parse(std::string_view xml, const std::string& fileName)
{
    Parsed out;
    if (xml.size() > kMaxXmlBytes) {
        out.diagnostics.push_back(Diagnostic { Severity::Error,
            "XML: the file has " + std::to_string(xml.size()) + " bytes, more than the limit of "
                + std::to_string(kMaxXmlBytes),
            SourceLocation { fileName, 0, 0 } });
        return out;
    }
    xmlParserCtxtPtr context = xmlNewParserCtxt();
    if (context == nullptr) {
        out.diagnostics.push_back(
            Diagnostic { Severity::Error, "XML: cannot create a parser", SourceLocation { fileName, 0, 0 } });
        return out;
    }
    ErrorCollector collector { fileName, {} };
    context->_private = &collector;
    context->sax->serror = collectError;
    // No network, no DTD loading, no entity substitution (entities stay references); big line numbers.
    const int options = XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING;
    xmlDocPtr doc
        = xmlCtxtReadMemory(context, xml.data(), static_cast<int>(xml.size()), fileName.c_str(), nullptr, options);
    const bool wellFormed = context->wellFormed != 0;
    xmlFreeParserCtxt(context);
    out.diagnostics = std::move(collector.diagnostics);
    if (doc == nullptr || !wellFormed) {
        if (doc != nullptr)
            xmlFreeDoc(doc);
        if (!hasErrors(out.diagnostics))
            out.diagnostics.push_back(
                Diagnostic { Severity::Error, "XML: not well-formed", SourceLocation { fileName, 0, 0 } });
        return out;
    }
    if (doc->intSubset != nullptr || doc->extSubset != nullptr) {
        // XTCE needs no DTD; refusing one rules out entity expansion attacks entirely.
        xmlFreeDoc(doc);
        int line = 0;
        int column = 0;
        if (const std::size_t at = xml.find("<!DOCTYPE"); at != std::string_view::npos) {
            const std::string_view before = xml.substr(0, at);
            line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
            const std::size_t lineStart = before.rfind('\n');
            column = static_cast<int>(at - (lineStart == std::string_view::npos ? 0 : lineStart + 1)) + 1;
        }
        out.diagnostics.push_back(
            Diagnostic { Severity::Error, "XML: a document type declaration (DOCTYPE) is not accepted in XTCE",
                SourceLocation { fileName, line, column } });
        return out;
    }
    out.document.reset(new XmlDocument(doc, fileName));
    out.document->locateStartTags(xml);
    return out;
}

XmlDocument::~XmlDocument()
{
    if (m_doc != nullptr)
        xmlFreeDoc(m_doc);
}

XmlElement XmlDocument::root() const
{
    return XmlElement(xmlDocGetRootElement(m_doc), this);
}

SourceLocation XmlDocument::locationOf(const XmlElement& element) const
{
    return SourceLocation { m_fileName, element.line(), element.column() };
}

XmlDocument::Position XmlDocument::positionOf(const _xmlNode* node) const
{
    if (auto it = m_positions.find(node); it != m_positions.end())
        return it->second;
    const long line = xmlGetLineNo(node);
    return Position { line > 0 && line < INT_MAX ? static_cast<int>(line) : 0, 0 };
}

// libxml2 2.9 keeps no column per node. Start tags appear in the text in document order, so walking
// the elements in that order while scanning the text for the next start tag (skipping comments,
// CDATA sections and processing instructions) gives each element its exact line and column.
void XmlDocument::locateStartTags(std::string_view xml)
{
    std::size_t cursor = 0;
    int line = 1;
    std::size_t lineStart = 0;
    const auto advanceTo = [&](std::size_t target) {
        for (; cursor < target && cursor < xml.size(); ++cursor)
            if (xml[cursor] == '\n') {
                ++line;
                lineStart = cursor + 1;
            }
    };
    const auto skipPast = [&](std::string_view terminator) {
        const std::size_t end = xml.find(terminator, cursor);
        advanceTo(end == std::string_view::npos ? xml.size() : end + terminator.size());
    };
    // Finds the next start tag from the cursor; returns false at the end of the text.
    const auto nextStartTag = [&]() {
        while (cursor < xml.size()) {
            const std::size_t lt = xml.find('<', cursor);
            if (lt == std::string_view::npos) {
                advanceTo(xml.size());
                return false;
            }
            advanceTo(lt);
            const std::string_view rest = xml.substr(lt);
            if (rest.starts_with("<!--"))
                skipPast("-->");
            else if (rest.starts_with("<![CDATA["))
                skipPast("]]>");
            else if (rest.starts_with("<?"))
                skipPast("?>");
            else if (rest.starts_with("<!") || rest.starts_with("</"))
                skipPast(">");
            else
                return true;
        }
        return false;
    };
    std::function<void(const xmlNode*)> visit = [&](const xmlNode* node) {
        for (; node != nullptr; node = node->next) {
            if (node->type != XML_ELEMENT_NODE)
                continue;
            if (!nextStartTag())
                return;
            m_positions[node] = Position { line, static_cast<int>(cursor - lineStart) + 1 };
            advanceTo(cursor + 1);
            visit(node->children);
        }
    };
    visit(m_doc->children);
}

} // namespace telestation::xtce
