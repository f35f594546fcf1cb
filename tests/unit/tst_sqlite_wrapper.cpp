// The SQLite wrapper (core/sqlite): each bound type read back as it went in, failed binds and statements
// reported with SQLite's message (or the caller's words for it) without running anything, and a
// transaction that is not committed leaving the database as it was.
#include "core/sqlite/connection.hpp"
#include "core/sqlite/transaction.hpp"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>

using namespace telestation;
using namespace telestation::sqlite;

namespace {

// The error text of a failed result, or "" when it succeeded.
template <typename T>
std::string errorOf(const Result<T>& r)
{
    return r.ok() ? std::string() : r.error().message;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

std::string wordsOf(Failure failure, const std::string& message)
{
    switch (failure) {
    case Failure::NotADatabase:
        return "not a database (" + message + ")";
    case Failure::Corrupt:
        return "corrupt (" + message + ")";
    case Failure::ReadOnly:
        return "read-only (" + message + ")";
    case Failure::Busy:
        return "busy (" + message + ")";
    case Failure::Other:
        break;
    }
    return "other (" + message + ")";
}

} // namespace

class TestSqliteWrapper : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(QString::fromUtf8(name)).toStdString(); }

    // A new database with table t (x ANY: keeps every type as given).
    Connection create(const char* name)
    {
        auto c = Connection::open(path(name), OpenMode::ReadWriteCreate);
        if (!c)
            qFatal("cannot create %s: %s", name, c.error().message.c_str());
        if (auto s = c->exec("CREATE TABLE t (id INTEGER PRIMARY KEY, x ANY) STRICT"); !s)
            qFatal("cannot create table t: %s", s.error().message.c_str());
        return std::move(*c);
    }

    static std::int64_t count(Connection& c)
    {
        auto n = c.queryInteger("SELECT count(*) FROM t");
        return n ? *n : -1;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void eachTypeReadsBackAsBound()
    {
        Connection c = create("types.sqlite");
        auto insert = c.prepare("INSERT INTO t (id, x) VALUES (?1, ?2)");
        QVERIFY2(insert.ok(), errorOf(insert).c_str());

        const std::int64_t big = std::numeric_limits<std::int64_t>::max();
        const std::int64_t small = std::numeric_limits<std::int64_t>::min();
        constexpr char kText[] = "caf\xC3\xA9 with a \0 inside";
        const std::string text(kText, sizeof kText - 1);
        insert->bindInteger(1, 1);
        insert->bindInteger(2, big);
        QVERIFY(insert->run().ok());
        QCOMPARE(c.lastInsertRowId(), std::int64_t { 1 });
        insert->bindInteger(1, 2);
        insert->bindInteger(2, small);
        QVERIFY(insert->run().ok());
        insert->bindInteger(1, 3);
        insert->bindReal(2, -0.1);
        QVERIFY(insert->run().ok());
        insert->bindInteger(1, 4);
        insert->bindReal(2, -std::numeric_limits<double>::infinity());
        QVERIFY(insert->run().ok());
        insert->bindInteger(1, 5);
        insert->bindText(2, text);
        QVERIFY(insert->run().ok());
        insert->bindInteger(1, 6);
        insert->bindNull(2);
        QVERIFY(insert->run().ok());
        insert->bindInteger(1, 7);
        insert->bindText(2, "");
        QVERIFY(insert->run().ok());
        QCOMPARE(c.changes(), std::int64_t { 1 });

        auto select = c.prepare("SELECT x AS value FROM t ORDER BY id");
        QVERIFY2(select.ok(), errorOf(select).c_str());
        QVERIFY(select->next());
        QCOMPARE(select->columnName(0), std::string("value"));
        QCOMPARE(select->type(0), ColumnType::Integer);
        QCOMPARE(select->integer(0), big);
        QVERIFY(select->next());
        QCOMPARE(select->integer(0), small);
        QVERIFY(select->next());
        QCOMPARE(select->type(0), ColumnType::Real);
        QCOMPARE(select->real(0), -0.1);
        QVERIFY(select->next());
        QCOMPARE(select->real(0), -std::numeric_limits<double>::infinity());
        QVERIFY(select->next());
        QCOMPARE(select->type(0), ColumnType::Text);
        QCOMPARE(select->text(0), text);
        QVERIFY(select->next());
        QCOMPARE(select->type(0), ColumnType::Null);
        QVERIFY(select->isNull(0));
        QCOMPARE(select->text(0), std::string());
        QVERIFY(select->next());
        QCOMPARE(select->type(0), ColumnType::Text);
        QVERIFY(!select->isNull(0));
        QCOMPARE(select->text(0), std::string());
        QVERIFY(!select->next());
        QVERIFY(select->status().ok());

        // reset() starts over, with new binds.
        select->reset();
        QVERIFY(select->next());
        QCOMPARE(select->integer(0), big);
    }

    void failedStatementSaysWhy()
    {
        Connection c = create("errors.sqlite");
        auto bad = c.prepare("SELEC 1");
        QVERIFY(!bad.ok());
        QVERIFY2(contains(bad.error().message, "syntax error"), bad.error().message.c_str());

        auto exec = c.exec("INSERT INTO missing VALUES (1)");
        QVERIFY(!exec.ok());
        QCOMPARE(exec.error().message, std::string("no such table: missing"));

        QVERIFY(c.exec("CREATE TABLE positive (v INTEGER NOT NULL CHECK (v > 0))").ok());
        auto insert = c.prepare("INSERT INTO positive (v) VALUES (?1)");
        QVERIFY(insert.ok());
        insert->bindInteger(1, -1);
        auto s = insert->run();
        QVERIFY(!s.ok());
        QVERIFY2(contains(s.error().message, "CHECK constraint failed"), s.error().message.c_str());
        // run() reset the statement: it is good for the next row.
        insert->bindInteger(1, 5);
        QVERIFY(insert->run().ok());

        auto none = c.queryInteger("SELECT v FROM positive WHERE v > 100");
        QCOMPARE(errorOf(none), std::string("no result from SELECT v FROM positive WHERE v > 100"));
    }

    void failedBindRunsNothing()
    {
        Connection c = create("binds.sqlite");
        auto insert = c.prepare("INSERT INTO t (x) VALUES (?1)");
        QVERIFY(insert.ok());

        insert->bindReal(1, std::nan(""));
        auto s = insert->run();
        QCOMPARE(errorOf(s), std::string("NaN cannot be stored"));

        insert->bindInteger(2, 1); // there is no ?2
        insert->bindInteger(1, 7);
        s = insert->run();
        QCOMPARE(errorOf(s), std::string("column index out of range"));

        insert->bindInteger(3, 1);
        QVERIFY(!insert->next());
        QCOMPARE(errorOf(insert->status()), std::string("column index out of range"));
        insert->reset();
        QVERIFY(insert->status().ok());

        QCOMPARE(count(c), std::int64_t { 0 });
    }

    void describeWordsTheFailure()
    {
        const std::string file = path("not-a-database.sqlite");
        std::ofstream(file) << std::string(4096, 'x');
        auto c = Connection::open(file, OpenMode::ReadOnly, &wordsOf);
        QVERIFY(c.ok()); // SQLite reads the file at the first statement
        auto n = c->queryInteger("PRAGMA user_version");
        QCOMPARE(errorOf(n), std::string("not a database (file is not a database)"));

        auto plain = Connection::open(file, OpenMode::ReadOnly);
        QVERIFY(plain.ok());
        QCOMPARE(errorOf(plain->queryInteger("PRAGMA user_version")), std::string("file is not a database"));

        auto missing = Connection::open(path("no/such/dir.sqlite"), OpenMode::ReadWriteCreate, &wordsOf);
        QCOMPARE(errorOf(missing), std::string("other (unable to open database file)"));
    }

    void readOnlyConnectionRefusesWrites()
    {
        {
            Connection c = create("read-only.sqlite");
            QVERIFY(!c.readOnly());
        }
        auto c = Connection::open(path("read-only.sqlite"), OpenMode::ReadOnly, &wordsOf);
        QVERIFY(c.ok());
        QVERIFY(c->readOnly());
        auto s = c->exec("INSERT INTO t (x) VALUES (1)");
        QVERIFY2(contains(errorOf(s), "read-only (attempt to write a readonly database)"), errorOf(s).c_str());
    }

    void immutableOpenReadsPathsWithUriCharacters()
    {
        const std::string file = path("odd %41 name?#.sqlite");
        {
            auto c = Connection::open(file, OpenMode::ReadWriteCreate);
            QVERIFY(c.ok());
            QVERIFY(c->exec("CREATE TABLE t (x); INSERT INTO t VALUES (42)").ok());
        }
        auto c = Connection::openImmutable(file);
        QVERIFY2(c.ok(), errorOf(c).c_str());
        QCOMPARE(errorOf(c->queryInteger("SELECT x FROM t")), std::string());
        QCOMPARE(*c->queryInteger("SELECT x FROM t"), std::int64_t { 42 });
        QVERIFY(c->readOnly());
    }

    void transactionRollsBackUnlessCommitted()
    {
        Connection c = create("transactions.sqlite");
        {
            auto t = Transaction::begin(c, TransactionKind::Immediate);
            QVERIFY2(t.ok(), errorOf(t).c_str());
            QVERIFY(c.exec("INSERT INTO t (x) VALUES (1)").ok());
            QCOMPARE(count(c), std::int64_t { 1 });
        } // no commit
        QCOMPARE(count(c), std::int64_t { 0 });

        {
            auto t = Transaction::begin(c, TransactionKind::Deferred);
            QVERIFY(t.ok());
            QVERIFY(c.exec("INSERT INTO t (x) VALUES (2)").ok());
            Transaction moved(std::move(*t)); // the moved-from guard does not roll back
            QVERIFY(moved.commit().ok());
        }
        QCOMPARE(count(c), std::int64_t { 1 });

        // A failed commit (deferred foreign keys violated) rolls back too.
        QVERIFY(c.exec("PRAGMA foreign_keys = ON; CREATE TABLE child (p INTEGER REFERENCES t (id))").ok());
        {
            auto t = Transaction::begin(c, TransactionKind::Immediate);
            QVERIFY(t.ok());
            QVERIFY(c.exec("PRAGMA defer_foreign_keys = ON; INSERT INTO child VALUES (99)").ok());
            auto s = t->commit();
            QVERIFY2(contains(errorOf(s), "FOREIGN KEY constraint failed"), errorOf(s).c_str());
        }
        QCOMPARE(*c.queryInteger("SELECT count(*) FROM child"), std::int64_t { 0 });
        // No transaction is left open.
        auto again = Transaction::begin(c, TransactionKind::Immediate);
        QVERIFY2(again.ok(), errorOf(again).c_str());
        QVERIFY(again->commit().ok());
    }
};

QTEST_GUILESS_MAIN(TestSqliteWrapper)
#include "tst_sqlite_wrapper.moc"
