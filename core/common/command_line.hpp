// A small command-line parser for the Telestation programs. Works before any QApplication exists, so
// --help, --version and --headless need no display. Errors are one line, for exit code 2.
#pragma once

#include "core/common/result.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation {

class CommandLine {
public:
    struct Option {
        std::string name;      // without the leading "--"
        std::string valueName; // empty: a flag without a value
        std::string help;
        bool hidden = false;   // accepted but not listed (test hooks)
    };

    CommandLine(std::string program, std::string summary) : m_program(std::move(program)), m_summary(std::move(summary)) {}

    void addFlag(std::string name, std::string help, bool hidden = false)
    {
        m_options.push_back({std::move(name), {}, std::move(help), hidden});
    }
    void addOption(std::string name, std::string valueName, std::string help, bool hidden = false)
    {
        m_options.push_back({std::move(name), std::move(valueName), std::move(help), hidden});
    }

    // Accepts "--name value", "--name=value" and "--flag". Fails on an unknown option, a missing value,
    // a value given to a flag, or a positional argument.
    [[nodiscard]] Status parse(int argc, const char* const* argv)
    {
        for (int i = 1; i < argc; ++i) {
            std::string_view arg = argv[i];
            if (arg.size() < 3 || arg.substr(0, 2) != "--")
                return Error{"unexpected argument '" + std::string(arg) + "' (see --help)", {}};
            arg.remove_prefix(2);
            std::string_view value;
            bool hasValue = false;
            if (const auto eq = arg.find('='); eq != std::string_view::npos) {
                value = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
                hasValue = true;
            }
            const Option* option = find(arg);
            if (!option)
                return Error{"unknown option --" + std::string(arg) + " (see --help)", {}};
            if (option->valueName.empty()) {
                if (hasValue)
                    return Error{"option --" + option->name + " takes no value", {}};
                m_values[option->name] = "";
                continue;
            }
            if (!hasValue) {
                if (i + 1 >= argc)
                    return Error{"option --" + option->name + " needs a value: " + option->valueName, {}};
                value = argv[++i];
            }
            m_values[option->name] = std::string(value);
        }
        return {};
    }

    [[nodiscard]] bool isSet(std::string_view name) const { return m_values.find(std::string(name)) != m_values.end(); }
    [[nodiscard]] std::string value(std::string_view name, std::string fallback = {}) const
    {
        const auto it = m_values.find(std::string(name));
        return it == m_values.end() ? fallback : it->second;
    }

    // The option's value as a comma-separated list ("a,b,c"), empty parts left out; empty when not given.
    [[nodiscard]] std::vector<std::string> list(std::string_view name) const
    {
        std::vector<std::string> parts;
        const std::string text = value(name);
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t comma = std::min(text.find(',', start), text.size());
            if (comma > start)
                parts.push_back(text.substr(start, comma - start));
            start = comma + 1;
        }
        return parts;
    }

    // The option's value as an integer; `fallback` when the option is not given.
    [[nodiscard]] Result<long long> integer(std::string_view name, long long fallback) const
    {
        if (!isSet(name))
            return fallback;
        const std::string text = value(name);
        long long out = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (ec != std::errc{} || end != text.data() + text.size())
            return Error{"option --" + std::string(name) + " needs a whole number, not '" + text + "'", {}};
        return out;
    }

    // The option's value as a real number; `fallback` when the option is not given.
    [[nodiscard]] Result<double> number(std::string_view name, double fallback) const
    {
        if (!isSet(name))
            return fallback;
        const std::string text = value(name);
        double out = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(out))
            return Error{"option --" + std::string(name) + " needs a number, not '" + text + "'", {}};
        return out;
    }

    // parse() as a program's main() uses it: on a wrong argument prints "PROGRAM: why" to stderr and
    // returns 2; with --help (when the program has that flag) prints the help and returns 0; nothing when
    // the program goes on.
    [[nodiscard]] std::optional<int> parseOrExit(int argc, const char* const* argv)
    {
        if (const auto ok = parse(argc, argv); !ok) {
            std::fprintf(stderr, "%s: %s\n", m_program.c_str(), ok.error().message.c_str());
            return 2;
        }
        if (find("help") && isSet("help")) {
            std::fputs(helpText().c_str(), stdout);
            return 0;
        }
        return std::nullopt;
    }

    [[nodiscard]] std::string helpText() const
    {
        std::string out = "Usage: " + m_program + " [options]\n" + m_summary + "\n\nOptions:\n";
        std::size_t width = 0;
        for (const auto& o : m_options)
            if (!o.hidden)
                width = std::max(width, o.name.size() + (o.valueName.empty() ? 0 : o.valueName.size() + 1));
        for (const auto& o : m_options) {
            if (o.hidden)
                continue;
            std::string left = "--" + o.name + (o.valueName.empty() ? "" : " " + o.valueName);
            out += "  " + left + std::string(width + 4 - left.size() + 2, ' ') + o.help + "\n";
        }
        return out;
    }

private:
    [[nodiscard]] const Option* find(std::string_view name) const
    {
        for (const auto& o : m_options)
            if (o.name == name)
                return &o;
        return nullptr;
    }

    std::string m_program;
    std::string m_summary;
    std::vector<Option> m_options;
    std::map<std::string, std::string> m_values;
};

} // namespace telestation
