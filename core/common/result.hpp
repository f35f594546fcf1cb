// Result<T>: a value or an Error, for parsing edges (files, headers, URLs, profiles). C++20 has no
// std::expected yet; this is the small subset we use. Exceptions are for programmer errors only.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace telestation {

// Where an error was found. Any part may be empty/zero when it does not apply.
struct SourceLocation {
    std::string file;  // path, or a description such as "<string>"
    int line = 0;      // 1-based; 0 = unknown
    int column = 0;    // 1-based; 0 = unknown
    friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

struct Error {
    std::string message;
    SourceLocation where;

    // "file:line:col: message", leaving out the parts that are unknown.
    [[nodiscard]] std::string toString() const
    {
        std::string out;
        if (!where.file.empty()) {
            out += where.file;
            if (where.line > 0) {
                out += ':' + std::to_string(where.line);
                if (where.column > 0)
                    out += ':' + std::to_string(where.column);
            }
            out += ": ";
        }
        out += message;
        return out;
    }
};

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_data(std::in_place_index<1>, std::move(error)) {}

    [[nodiscard]] bool ok() const noexcept { return m_data.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }

    T& value() & { return std::get<0>(m_data); }
    const T& value() const& { return std::get<0>(m_data); }
    T&& value() && { return std::get<0>(std::move(m_data)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

// Result<void>: success or an Error.
template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)), m_ok(false) {}

    [[nodiscard]] bool ok() const noexcept { return m_ok; }
    explicit operator bool() const noexcept { return m_ok; }
    const Error& error() const { return m_error; }

private:
    Error m_error;
    bool m_ok = true;
};

using Status = Result<void>;

} // namespace telestation
