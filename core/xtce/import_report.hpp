// What the XTCE importer tells its caller: errors, warnings, and the list of constructs it did not
// import. "Unsupported" constructs are errors by default; in lenient mode they become warnings and
// lines of the skipped list. Each message names the XTCE path of what it concerns; each is reported
// once even when the construct is met again (a parameter type used by many packets).
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/xtce/xml_document.hpp"

#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace telestation::xtce {

class ImportReport {
public:
    ImportReport(std::string fileName, bool lenient)
        : m_fileName(std::move(fileName))
        , m_lenient(lenient)
    { }

    void error(const XmlElement& at, std::string_view path, std::string_view message);
    void warning(const XmlElement& at, std::string_view path, std::string_view message);
    // A construct the importer cannot express: an error, or (lenient) a warning and a skipped line.
    void unsupported(const XmlElement& at, std::string_view path, std::string_view why);
    // Something not imported by design (e.g. commands): a skipped line only, never an error.
    void note(const XmlElement& at, std::string_view path, std::string_view what);
    void add(Diagnostic diagnostic);

    [[nodiscard]] bool lenient() const { return m_lenient; }
    [[nodiscard]] bool hasErrors() const { return telestation::hasErrors(m_diagnostics); }
    [[nodiscard]] const std::string& fileName() const { return m_fileName; }
    [[nodiscard]] Diagnostics takeDiagnostics() { return std::move(m_diagnostics); }
    [[nodiscard]] std::vector<std::string> takeSkipped() { return std::move(m_skipped); }

private:
    [[nodiscard]] bool firstTime(const XmlElement& at, const std::string& message);
    void diagnose(Severity severity, const XmlElement& at, const std::string& message);
    void skip(const XmlElement& at, const std::string& message);

    std::string m_fileName;
    bool m_lenient = false;
    Diagnostics m_diagnostics;
    std::vector<std::string> m_skipped;
    std::set<std::tuple<int, int, std::string>> m_seen;
};

} // namespace telestation::xtce
