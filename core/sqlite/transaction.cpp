#include "core/sqlite/transaction.hpp"

#include "core/sqlite/connection.hpp"

namespace telestation::sqlite {

Transaction::Transaction(Connection& connection)
    : m_connection(&connection)
{ }

Transaction::Transaction(Transaction&& other) noexcept
    : m_connection(other.m_connection)
{
    other.m_connection = nullptr;
}

Transaction::~Transaction()
{
    if (m_connection != nullptr)
        (void)m_connection->exec("ROLLBACK");
}

Result<Transaction> Transaction::begin(Connection& connection, TransactionKind kind)
{
    if (auto s = connection.exec(kind == TransactionKind::Immediate ? Sql("BEGIN IMMEDIATE") : Sql("BEGIN DEFERRED")); !s)
        return s.error();
    return Transaction(connection);
}

Status Transaction::commit()
{
    if (auto s = m_connection->exec("COMMIT"); !s)
        return s;
    m_connection = nullptr;
    return {};
}

} // namespace telestation::sqlite
