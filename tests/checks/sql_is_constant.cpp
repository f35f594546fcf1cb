// Compiled by sql_is_constant.cmake once per CASE: only case 0 may compile. The others are the ways a
// value read or computed at run time could become SQL text, and core/sqlite/sql.hpp must refuse each.
#include "core/sqlite/connection.hpp"

#include <string>

using telestation::sqlite::Connection;
using telestation::sqlite::Sql;

void statements(Connection& db, const std::string& name)
{
#if CASE == 0 // literals, compile-time joins and a choice between them: SQL as written
    static constexpr auto kJoined = telestation::sqlite::sqlJoin("SELECT ", telestation::sqlite::sqlNumber<42>(), ";");
    (void)db.exec("CREATE TABLE t (name TEXT)");
    (void)db.prepare(name.empty() ? Sql("SELECT 1") : Sql(kJoined.text));
    auto insert = db.prepare("INSERT INTO t (name) VALUES (?1)");
    if (insert)
        insert->bindText(1, name); // the value goes in bound
#elif CASE == 1 // a string built at run time
    (void)db.exec("DELETE FROM t WHERE name = '" + name + "'");
#elif CASE == 2 // the text of a std::string
    (void)db.prepare(name.c_str());
#elif CASE == 3 // a buffer filled at run time
    static char buffer[64] = "SELECT 1";
    buffer[7] = name.empty() ? '1' : '2';
    (void)db.prepare(buffer);
#elif CASE == 4 // a pointer to constant text: not a literal the compiler can see
    const char* text = "SELECT 1";
    (void)db.prepare(text);
#elif CASE == 5 // a string_view
    (void)db.queryInteger(std::string_view(name));
#endif
}
