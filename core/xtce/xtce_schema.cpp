#include "core/xtce/xtce_schema.hpp"

#include <cstring>
#include <fstream>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlschemas.h>
#include <memory>
#include <mutex>
#include <string_view>

namespace telestation::xtce {

namespace {

// The attributes of the xml: namespace that XTCE 1.2 refers to (xml:base, xml:lang, xml:space,
// xml:id), written for Telestation; the W3C's own copy lives on the network.
constexpr std::string_view kXmlNamespaceSchema = R"(<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/XML/1998/namespace" xml:lang="en">
  <xs:attribute name="base" type="xs:anyURI"/>
  <xs:attribute name="lang" type="xs:language"/>
  <xs:attribute name="id" type="xs:ID"/>
  <xs:attribute name="space">
    <xs:simpleType>
      <xs:restriction base="xs:NCName">
        <xs:enumeration value="default"/>
        <xs:enumeration value="preserve"/>
      </xs:restriction>
    </xs:simpleType>
  </xs:attribute>
</xs:schema>
)";

xmlExternalEntityLoader g_previousLoader = nullptr;

bool isXmlNamespaceSchema(std::string_view url)
{
    return url.ends_with("/XML/1998/namespace") || url.ends_with("/xml.xsd");
}

// Serves the xml: namespace schema from memory and refuses every other network resource; local files
// go to libxml2's own loader.
xmlParserInputPtr safeLoader(const char* url, const char* id, xmlParserCtxtPtr context)
{
    const std::string_view u = url != nullptr ? url : "";
    if (isXmlNamespaceSchema(u))
        return xmlNewStringInputStream(context, reinterpret_cast<const xmlChar*>(kXmlNamespaceSchema.data()));
    if (u.starts_with("http:") || u.starts_with("https:") || u.starts_with("ftp:"))
        return nullptr;
    return g_previousLoader != nullptr ? g_previousLoader(url, id, context) : nullptr;
}

// libxml2's loader is process-wide; it is set once and only ever narrows what may be loaded.
void installSafeLoader()
{
    static std::once_flag once;
    std::call_once(once, [] {
        g_previousLoader = xmlGetExternalEntityLoader();
        xmlSetExternalEntityLoader(safeLoader);
    });
}

struct Collector {
    std::string file;
    Diagnostics diagnostics;
};

void collect(void* data, xmlErrorPtr error)
{
    auto* collector = static_cast<Collector*>(data);
    if (collector == nullptr || error == nullptr || collector->diagnostics.size() >= 1000)
        return;
    std::string message = error->message != nullptr ? error->message : "schema error";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
        message.pop_back();
    const std::string file = error->file != nullptr ? error->file : collector->file;
    collector->diagnostics.push_back(Diagnostic { error->level == XML_ERR_WARNING ? Severity::Warning : Severity::Error,
        message, SourceLocation { file, error->line, error->int2 } });
}

} // namespace

Diagnostics validateAgainstSchema(const std::string& xmlPath, const std::string& xsdPath)
{
    installSafeLoader();
    // Missing files are told here: libxml2 would also print its own I/O warning on standard error.
    for (const auto* path : { &xsdPath, &xmlPath })
        if (!std::ifstream(*path))
            return { Diagnostic { Severity::Error, "cannot open the file", SourceLocation { *path, 0, 0 } } };
    Collector schemaErrors { xsdPath, {} };
    std::unique_ptr<xmlSchemaParserCtxt, decltype(&xmlSchemaFreeParserCtxt)> parser(
        xmlSchemaNewParserCtxt(xsdPath.c_str()), xmlSchemaFreeParserCtxt);
    if (!parser)
        return { Diagnostic { Severity::Error, "cannot read the schema", SourceLocation { xsdPath, 0, 0 } } };
    xmlSchemaSetParserStructuredErrors(parser.get(), collect, &schemaErrors);
    std::unique_ptr<xmlSchema, decltype(&xmlSchemaFree)> schema(xmlSchemaParse(parser.get()), xmlSchemaFree);
    if (!schema) {
        Diagnostics out = std::move(schemaErrors.diagnostics);
        out.push_back(Diagnostic { Severity::Error, "the schema does not compile", SourceLocation { xsdPath, 0, 0 } });
        return out;
    }

    Collector errors { xmlPath, {} };
    std::unique_ptr<xmlParserCtxt, decltype(&xmlFreeParserCtxt)> context(xmlNewParserCtxt(), xmlFreeParserCtxt);
    if (!context)
        return { Diagnostic { Severity::Error, "cannot create an XML parser", SourceLocation { xmlPath, 0, 0 } } };
    std::unique_ptr<xmlDoc, decltype(&xmlFreeDoc)> doc(
        xmlCtxtReadFile(context.get(), xmlPath.c_str(), nullptr,
            XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR | XML_PARSE_NOWARNING),
        xmlFreeDoc);
    if (!doc || context->wellFormed == 0) {
        const xmlError* e = xmlCtxtGetLastError(context.get());
        std::string message = e != nullptr && e->message != nullptr ? e->message : "cannot read the file";
        while (!message.empty() && message.back() == '\n')
            message.pop_back();
        return { Diagnostic { Severity::Error, "XML: " + message,
            SourceLocation { xmlPath, e != nullptr ? e->line : 0, e != nullptr ? e->int2 : 0 } } };
    }
    std::unique_ptr<xmlSchemaValidCtxt, decltype(&xmlSchemaFreeValidCtxt)> validator(
        xmlSchemaNewValidCtxt(schema.get()), xmlSchemaFreeValidCtxt);
    if (!validator)
        return { Diagnostic { Severity::Error, "cannot create a schema validator", SourceLocation { xmlPath, 0, 0 } } };
    xmlSchemaSetValidStructuredErrors(validator.get(), collect, &errors);
    const int rc = xmlSchemaValidateDoc(validator.get(), doc.get());
    if (rc < 0 && errors.diagnostics.empty())
        errors.diagnostics.push_back(Diagnostic { Severity::Error,
            "the schema validator failed (libxml2 internal error)", SourceLocation { xmlPath, 0, 0 } });
    return std::move(errors.diagnostics);
}

} // namespace telestation::xtce
