// What the performance suite reads from the station's output: the "Consumer NAME: P packets, Q
// parameters[, D dropped]" lines, taken exactly — other lines, malformed numbers and foreign text
// are left out rather than read as zeros.
#include "tools/perf/perf_suite.hpp"

#include <QtTest>

using namespace telestation;
using namespace telestation::perf;

class TestPerfSuiteOutput : public QObject {
    Q_OBJECT

private slots:
    void consumerLinesAreRead()
    {
        const std::string output = "station started\n"
                                   "Consumer plot: 1200 packets, 3600 parameters\n"
                                   "Consumer archive: 18446744073709551615 packets, 7 parameters, 42 dropped\n"
                                   "Consumer user-app: 5 packets, 0 parameters, garbage\n"
                                   "Consumer broken: many packets, 3 parameters\n"
                                   "Consumer sign: -5 packets, 3 parameters\n"
                                   "Consumer cut: 12 packets\n"
                                   "Consumers: 3\n"
                                   "  Consumer indented: 1 packets, 1 parameters\n";
        const auto lines = consumerLines(output);
        QCOMPARE(lines.size(), std::size_t{3});
        QVERIFY(lines.contains("plot"));
        QCOMPARE(lines.at("plot").packets, std::uint64_t{1200});
        QCOMPARE(lines.at("plot").parameters, std::uint64_t{3600});
        QCOMPARE(lines.at("plot").dropped, std::uint64_t{0});
        QVERIFY(lines.contains("archive"));
        QCOMPARE(lines.at("archive").packets, std::uint64_t{18446744073709551615ull});
        QCOMPARE(lines.at("archive").parameters, std::uint64_t{7});
        QCOMPARE(lines.at("archive").dropped, std::uint64_t{42});
        QVERIFY(lines.contains("user-app")); // packets and parameters read; the dropped count unreadable
        QCOMPARE(lines.at("user-app").packets, std::uint64_t{5});
        QCOMPARE(lines.at("user-app").dropped, std::uint64_t{0});
        QVERIFY(consumerLines("").empty());
        QVERIFY(consumerLines("Consumer x: 99999999999999999999 packets, 1 parameters\n").empty()); // out of range
    }
};

QTEST_APPLESS_MAIN(TestPerfSuiteOutput)
#include "tst_perf_suite_output.moc"
