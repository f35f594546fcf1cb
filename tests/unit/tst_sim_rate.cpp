// Stream rates: every accepted form reads to the right unit and value and prints back in its shortest
// form; every rejected form is rejected with a message that names the text and says what is accepted;
// toString reads back equal for values of every magnitude.
#include "sim/engine/rate.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

using namespace telestation;
using sim::Rate;

Q_DECLARE_METATYPE(sim::Rate::Unit)

class TestSimRate : public QObject {
    Q_OBJECT

private slots:
    void accepted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Rate::Unit>("unit");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("canonical");

        const auto pps = Rate::Unit::PacketsPerSecond;
        const auto bps = Rate::Unit::BitsPerSecond;
        QTest::newRow("100pps") << "100pps" << pps << 100.0 << "100pps";
        QTest::newRow("2.5kpps") << "2.5kpps" << pps << 2500.0 << "2.5kpps";
        QTest::newRow("25.6Mbps") << "25.6Mbps" << bps << 25.6e6 << "25.6Mbps";
        QTest::newRow("1.5Gbps") << "1.5Gbps" << bps << 1.5e9 << "1.5Gbps";
        QTest::newRow("9600bps") << "9600bps" << bps << 9600.0 << "9.6kbps";
        QTest::newRow("64kbps") << "64kbps" << bps << 64000.0 << "64kbps";
        QTest::newRow("1Mpps") << "1Mpps" << pps << 1e6 << "1Mpps";
        QTest::newRow("2Gpps") << "2Gpps" << pps << 2e9 << "2Gpps";
        QTest::newRow("fraction") << "0.5pps" << pps << 0.5 << "0.5pps";
        QTest::newRow("small fraction") << "0.001pps" << pps << 0.001 << "0.001pps";
        QTest::newRow("1000pps") << "1000pps" << pps << 1000.0 << "1kpps";
        QTest::newRow("1200pps") << "1200pps" << pps << 1200.0 << "1.2kpps";      // a tie: the engineering form
        QTest::newRow("100000pps") << "100000pps" << pps << 100000.0 << "100kpps";
        QTest::newRow("leading zeros") << "007pps" << pps << 7.0 << "7pps";
        QTest::newRow("trailing zeros") << "12.50kbps" << bps << 12500.0 << "12.5kbps";
        QTest::newRow("prefix shift") << "0.001Gbps" << bps << 1e6 << "1Mbps";
        QTest::newRow("many digits") << "123456789bps" << bps << 123456789.0 << "123456789bps";
        QTest::newRow("milli-range in k") << "0.0001kbps" << bps << 0.1 << "0.1bps";
        QTest::newRow("1288-byte packets") << "10.304Mbps" << bps << 10.304e6 << "10304kbps"; // shorter than 10.304Mbps
    }

    void accepted()
    {
        QFETCH(QString, text);
        QFETCH(Rate::Unit, unit);
        QFETCH(double, value);
        QFETCH(QString, canonical);
        const auto rate = sim::parseRate(text.toStdString());
        QVERIFY2(rate.ok(), rate.ok() ? "" : rate.error().message.c_str());
        QCOMPARE(rate->unit, unit);
        // Exact: the prefix is a decimal exponent, not a multiplication with rounding.
        QVERIFY2(rate->value == value, qPrintable(QString::number(rate->value, 'g', 17)));
        QCOMPARE(QString::fromStdString(sim::toString(*rate)), canonical);
        const auto again = sim::parseRate(sim::toString(*rate));
        QVERIFY(again.ok());
        QVERIFY(*again == *rate);
    }

    void flood()
    {
        const auto rate = sim::parseRate("flood");
        QVERIFY(rate.ok());
        QCOMPARE(rate->unit, Rate::Unit::Flood);
        QCOMPARE(sim::toString(*rate), std::string("flood"));
        QCOMPARE(rate->packetsPerSecond(1288), 0.0);
    }

    void rejected_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("why");

        QTest::newRow("empty") << "" << "empty";
        QTest::newRow("missing unit") << "100" << "missing unit";
        QTest::newRow("missing unit with prefix only") << "100k" << "unknown unit \"k\"";
        QTest::newRow("unit only") << "pps" << "does not start with a number";
        QTest::newRow("zero") << "0pps" << "must be greater than zero";
        QTest::newRow("zero with prefix") << "0.0kbps" << "must be greater than zero";
        QTest::newRow("negative") << "-5pps" << "must be greater than zero";
        QTest::newRow("plus sign") << "+5pps" << "does not start with a number";
        QTest::newRow("nan") << "nanpps" << "does not start with a number";
        QTest::newRow("NaN") << "NaNbps" << "does not start with a number";
        QTest::newRow("inf") << "infpps" << "does not start with a number";
        QTest::newRow("inf alone") << "inf" << "does not start with a number";
        QTest::newRow("overflow") << (QString("1") + QString(400, '0') + "Gbps") << "out of range";
        QTest::newRow("exponent") << "1e3pps" << "unknown unit \"e3pps\"";
        QTest::newRow("space inside") << "100 pps" << "contains white space";
        QTest::newRow("space before") << " 100pps" << "contains white space";
        QTest::newRow("space after") << "100pps " << "contains white space";
        QTest::newRow("tab") << "100\tpps" << "contains white space";
        QTest::newRow("upper-case K") << "100Kpps" << "unknown prefix \"K\"";
        QTest::newRow("milli") << "100mbps" << "unknown prefix \"m\"";
        QTest::newRow("tera") << "1Tbps" << "unknown prefix \"T\"";
        QTest::newRow("upper-case unit") << "100PPS" << "unknown unit \"PPS\"";
        QTest::newRow("bits per second spelled") << "100Mb/s" << "unknown unit \"Mb/s\"";
        QTest::newRow("bytes per second") << "100MBps" << "unknown unit \"MBps\"";
        QTest::newRow("trailing junk") << "5ppsx" << "unknown unit \"ppsx\"";
        QTest::newRow("two prefixes") << "5kMpps" << "unknown unit \"kMpps\"";
        QTest::newRow("point without digits") << "1.pps" << "a decimal point must be followed by digits";
        QTest::newRow("leading point") << ".5pps" << "does not start with a number";
        QTest::newRow("two points") << "1.2.3pps" << "unknown unit \".3pps\"";
        QTest::newRow("comma") << "1,5kpps" << "unknown unit \",5kpps\"";
        QTest::newRow("Flood") << "Flood" << "does not start with a number";
        QTest::newRow("garbage") << "fast" << "does not start with a number";
    }

    void rejected()
    {
        QFETCH(QString, text);
        QFETCH(QString, why);
        const auto rate = sim::parseRate(text.toStdString());
        QVERIFY(!rate.ok());
        const QString message = QString::fromStdString(rate.error().message);
        // The text, the reason, and what is accepted.
        QVERIFY2(message.startsWith("rate \"" + text + "\": " + why), qPrintable(message));
        QVERIFY2(message.contains("pps or bps") && message.contains("k, M or G") && message.contains("\"flood\""),
                 qPrintable(message));
    }

    // Values of every magnitude, with few and many significant digits, print to text that reads back
    // to the same double, and no prefix gives a shorter text.
    void toStringReadsBackEqual()
    {
        std::mt19937_64 rng(2024);
        std::uniform_int_distribution<int> exponent(-6, 12);
        std::uniform_int_distribution<int> digits(1, 17);
        std::uniform_real_distribution<double> mantissa(1.0, 10.0);
        for (int i = 0; i < 5000; ++i) {
            const double raw = mantissa(rng) * std::pow(10.0, exponent(rng));
            // Round to a random number of significant digits, so that short forms occur too.
            const double value = std::stod(QString::number(raw, 'g', digits(rng)).toStdString());
            for (const auto unit : {Rate::Unit::PacketsPerSecond, Rate::Unit::BitsPerSecond}) {
                const Rate rate{unit, value};
                const std::string text = sim::toString(rate);
                const auto again = sim::parseRate(text);
                QVERIFY2(again.ok(), text.c_str());
                QVERIFY2(*again == rate, qPrintable(QString::fromStdString(text) + " for " + QString::number(value, 'g', 17)));
                // No text in fixed notation, with any prefix, that reads back equal is shorter.
                const std::string unitText = unit == Rate::Unit::BitsPerSecond ? "bps" : "pps";
                std::size_t shortest = SIZE_MAX;
                for (const auto& [prefix, scale] : {std::pair{"", 1.0}, std::pair{"k", 1e3}, std::pair{"M", 1e6}, std::pair{"G", 1e9}}) {
                    for (int decimals = 0; decimals <= 24; ++decimals) {
                        const std::string candidate =
                            QString::number(value / scale, 'f', decimals).toStdString() + prefix + unitText;
                        const auto parsed = sim::parseRate(candidate);
                        if (parsed.ok() && *parsed == rate) {
                            shortest = std::min(shortest, candidate.size());
                            break; // more decimals only make it longer
                        }
                    }
                }
                QVERIFY2(text.size() <= shortest, text.c_str());
            }
        }
    }

    void shortestForm_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("exact thousand") << 3000.0 << "3kpps";
        QTest::newRow("no prefix shorter") << 1234567.0 << "1234567pps";
        QTest::newRow("fewer characters than engineering") << 1234000.0 << "1234kpps";
        QTest::newRow("mega") << 1234500.0 << "1.2345Mpps"; // three forms of 10 characters
        QTest::newRow("giga") << 40e9 << "40Gpps";
        QTest::newRow("below one") << 0.25 << "0.25pps";
        QTest::newRow("tiny") << 2e-6 << "0.000002pps";
        QTest::newRow("huge") << 5e12 << "5000Gpps";
        QTest::newRow("tie prefers engineering") << 1500.0 << "1.5kpps";
        QTest::newRow("binary fraction") << 0.1 << "0.1pps";
    }

    void shortestForm()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(sim::toString(Rate{Rate::Unit::PacketsPerSecond, value})), text);
    }

    void packetsPerSecond()
    {
        QCOMPARE(Rate({Rate::Unit::PacketsPerSecond, 250}).packetsPerSecond(1288), 250.0);
        QCOMPARE(Rate({Rate::Unit::PacketsPerSecond, 250}).packetsPerSecond(0), 250.0);
        // 1 Mbit/s of 125-byte packets: 1000 packets per second.
        QCOMPARE(Rate({Rate::Unit::BitsPerSecond, 1e6}).packetsPerSecond(125), 1000.0);
        QCOMPARE(Rate({Rate::Unit::BitsPerSecond, 25.6e6}).packetsPerSecond(1288), 25.6e6 / (8 * 1288));
        QCOMPARE(Rate({Rate::Unit::BitsPerSecond, 1e6}).packetsPerSecond(0), 0.0);
        QCOMPARE(Rate({Rate::Unit::Flood, 0}).packetsPerSecond(125), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestSimRate)
#include "tst_sim_rate.moc"
