// Diagnostics: the errors and warnings that importers and validators report, each with its location.
#pragma once

#include "core/common/result.hpp"

#include <string>
#include <vector>

namespace telestation {

enum class Severity { Warning, Error };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string message;
    SourceLocation where;

    [[nodiscard]] std::string toString() const
    {
        Error e{(severity == Severity::Error ? "error: " : "warning: ") + message, where};
        return e.toString();
    }
};

using Diagnostics = std::vector<Diagnostic>;

[[nodiscard]] inline bool hasErrors(const Diagnostics& diagnostics)
{
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Error)
            return true;
    return false;
}

} // namespace telestation
