// A transaction that rolls back unless committed: begin() it, do the work, commit(); any early return
// (or a failed commit) leaves the database as it was.
#pragma once

#include "core/common/result.hpp"

namespace telestation::sqlite {

class Connection;

enum class TransactionKind {
    Deferred, // takes locks as statements need them (reads)
    Immediate, // takes the write lock at once (writes; waits for another writer as the connection does)
};

class Transaction {
public:
    [[nodiscard]] static Result<Transaction> begin(Connection& connection, TransactionKind kind);

    Transaction(Transaction&& other) noexcept;
    Transaction& operator=(Transaction&&) = delete;
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction(); // rolls back unless committed

    // Statements still stepping (not reset or finished) may make the commit fail: reset them first.
    [[nodiscard]] Status commit();

private:
    explicit Transaction(Connection& connection);

    Connection* m_connection = nullptr; // null once committed or moved from
};

} // namespace telestation::sqlite
