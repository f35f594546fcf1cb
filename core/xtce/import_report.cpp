#include "core/xtce/import_report.hpp"

namespace telestation::xtce {

namespace {

std::string joined(std::string_view path, std::string_view message)
{
    if (path.empty())
        return std::string(message);
    return std::string(path) + ": " + std::string(message);
}

} // namespace

bool ImportReport::firstTime(const XmlElement& at, const std::string& message)
{
    return m_seen.emplace(at.line(), at.column(), message).second;
}

void ImportReport::diagnose(Severity severity, const XmlElement& at, const std::string& message)
{
    m_diagnostics.push_back(Diagnostic { severity, message, SourceLocation { m_fileName, at.line(), at.column() } });
}

void ImportReport::skip(const XmlElement& at, const std::string& message)
{
    m_skipped.push_back(std::to_string(at.line()) + ":" + std::to_string(at.column()) + ": " + message);
}

void ImportReport::error(const XmlElement& at, std::string_view path, std::string_view message)
{
    const std::string text = joined(path, message);
    if (firstTime(at, text))
        diagnose(Severity::Error, at, text);
}

void ImportReport::warning(const XmlElement& at, std::string_view path, std::string_view message)
{
    const std::string text = joined(path, message);
    if (firstTime(at, text))
        diagnose(Severity::Warning, at, text);
}

void ImportReport::unsupported(const XmlElement& at, std::string_view path, std::string_view why)
{
    const std::string text = joined(path, why);
    if (!firstTime(at, text))
        return;
    if (!m_lenient) {
        diagnose(Severity::Error, at, text);
        return;
    }
    diagnose(Severity::Warning, at, text);
    skip(at, text);
}

void ImportReport::note(const XmlElement& at, std::string_view path, std::string_view what)
{
    const std::string text = joined(path, what);
    if (firstTime(at, text))
        skip(at, text);
}

void ImportReport::add(Diagnostic diagnostic)
{
    m_diagnostics.push_back(std::move(diagnostic));
}

} // namespace telestation::xtce
