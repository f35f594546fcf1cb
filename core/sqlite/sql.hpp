// SQL text written into the program, and nothing else. The only way to make an Sql is from a string
// literal or a constexpr character array, in a constructor that runs at compile time: text read or
// computed while the program runs (a name from a file, a value from a packet or an operator) cannot
// become SQL. Values reach SQLite only as bound parameters (Statement::bind*). Connection::exec,
// prepare and queryInteger take an Sql, so the compiler proves this for every statement.
//
// Statements that share text are joined at compile time: sqlJoin(parts...) of literals, SqlText
// values and sqlNumber<V>() (an integer constant as text, for a PRAGMA, which takes no parameters):
//
//     static constexpr auto kCreate = sqlite::sqlJoin(kSchema, "PRAGMA user_version=", sqlite::sqlNumber<3>(), ";");
//     db.exec(kCreate.text);
//
// (static constexpr: the text must live in the program, which a local variable does not.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace telestation::sqlite {

class Sql {
public:
    template <std::size_t N>
    consteval Sql(const char (&text)[N]) // NOLINT(google-explicit-constructor): a literal is SQL as written
        : m_text(text, N - 1)
    {
        // Reading the array here fails to compile unless it is a constant: a mutable buffer cannot pass.
        if (text[N - 1] != '\0')
            throw "SQL text must be a NUL-terminated constant";
    }

    [[nodiscard]] constexpr std::string_view text() const noexcept { return m_text; }

private:
    std::string_view m_text;
};

// Fixed text made at compile time (sqlJoin, sqlNumber): `text` is NUL-terminated.
template <std::size_t N>
struct SqlText {
    char text[N] = {};
    [[nodiscard]] constexpr std::string_view view() const noexcept { return {text, N - 1}; }
};

namespace detail {

template <typename T>
struct TextLength;
template <std::size_t N>
struct TextLength<char[N]> {
    static constexpr std::size_t value = N - 1;
};
template <std::size_t N>
struct TextLength<SqlText<N>> {
    static constexpr std::size_t value = N - 1;
};

template <std::size_t N>
constexpr std::string_view viewOf(const char (&text)[N])
{
    return {text, N - 1};
}
template <std::size_t N>
constexpr std::string_view viewOf(const SqlText<N>& text)
{
    return text.view();
}

constexpr std::size_t digitsOf(std::int64_t value)
{
    std::size_t digits = value < 0 ? 2 : 1;
    for (std::uint64_t v = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
         v >= 10; v /= 10)
        ++digits;
    return digits;
}

} // namespace detail

// The parts one after the other.
template <typename... Parts>
consteval auto sqlJoin(const Parts&... parts)
{
    SqlText<(detail::TextLength<Parts>::value + ... + 0) + 1> out;
    std::size_t at = 0;
    for (const std::string_view part : {detail::viewOf(parts)...})
        for (const char c : part)
            out.text[at++] = c;
    return out;
}

// An integer constant in decimal.
template <std::int64_t Value>
consteval auto sqlNumber()
{
    SqlText<detail::digitsOf(Value) + 1> out;
    std::uint64_t v = Value < 0 ? 0 - static_cast<std::uint64_t>(Value) : static_cast<std::uint64_t>(Value);
    std::size_t at = detail::digitsOf(Value);
    do {
        out.text[--at] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    if (Value < 0)
        out.text[0] = '-';
    return out;
}

} // namespace telestation::sqlite
