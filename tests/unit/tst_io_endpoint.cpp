// Unit tests of endpoint URL parsing: every scheme, IPv4 / names / IPv6 literals, multicast detection,
// the iface option, file:// paths (percent-escapes) and playback options, each error with its character
// offset, and the toString() round trip.
#include "core/io/endpoint.hpp"

#include <QtTest>

#include <string>

using telestation::io::Endpoint;
using telestation::io::parseEndpoint;
using telestation::io::Scheme;

Q_DECLARE_METATYPE(Scheme)

namespace {

// The query as "key=value&key=value".
QString queryText(const telestation::io::QueryOptions& query)
{
    QStringList parts;
    for (const auto& [key, value] : query)
        parts << QString::fromStdString(key) + '=' + QString::fromStdString(value);
    return parts.join('&');
}

QString describe(const Endpoint& e)
{
    return QStringLiteral("{scheme %1 host '%2' port %3 multicast %4 iface '%5' path '%6' query '%7'}")
        .arg(static_cast<int>(e.scheme))
        .arg(QString::fromStdString(e.host))
        .arg(e.port)
        .arg(e.multicast)
        .arg(QString::fromStdString(e.iface), QString::fromStdString(e.path), queryText(e.query));
}

} // namespace

class TestIoEndpoint : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parsesValidUrls_data();
    void parsesValidUrls();
    void reportsErrorsWithOffsets_data();
    void reportsErrorsWithOffsets();
    void parsesFileUrls_data();
    void parsesFileUrls();
    void outOfRangePortMessage();
    void roundTripsBuiltEndpoints();
};

void TestIoEndpoint::parsesValidUrls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<Scheme>("scheme");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<bool>("multicast");
    QTest::addColumn<QString>("iface");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("canonical");

    QTest::newRow("udp ipv4") << "udp://127.0.0.1:5000" << Scheme::Udp << "127.0.0.1" << 5000 << false << "" << ""
                              << "udp://127.0.0.1:5000";
    QTest::newRow("udp name, port 0") << "udp://localhost:0" << Scheme::Udp << "localhost" << 0 << false << "" << ""
                                      << "udp://localhost:0";
    QTest::newRow("tcp name, port 65535") << "tcp://ground-station_1.example.org:65535" << Scheme::Tcp
                                          << "ground-station_1.example.org" << 65535 << false << "" << ""
                                          << "tcp://ground-station_1.example.org:65535";
    QTest::newRow("tcp-listen any ipv4") << "tcp-listen://0.0.0.0:0" << Scheme::TcpListen << "0.0.0.0" << 0 << false
                                         << "" << "" << "tcp-listen://0.0.0.0:0";
    QTest::newRow("tcp-listen any ipv6") << "tcp-listen://[::]:0" << Scheme::TcpListen << "::" << 0 << false << ""
                                         << "" << "tcp-listen://[::]:0";
    QTest::newRow("udp ipv6 loopback") << "udp://[::1]:5000" << Scheme::Udp << "::1" << 5000 << false << "" << ""
                                       << "udp://[::1]:5000";
    QTest::newRow("tcp ipv6 full") << "tcp://[2001:db8::42:1]:80" << Scheme::Tcp << "2001:db8::42:1" << 80 << false
                                   << "" << "" << "tcp://[2001:db8::42:1]:80";
    QTest::newRow("ipv6 with zone") << "udp://[fe80::1%lo]:5000" << Scheme::Udp << "fe80::1%lo" << 5000 << false
                                    << "" << "" << "udp://[fe80::1%lo]:5000";
    QTest::newRow("multicast lowest") << "udp://224.0.0.1:1" << Scheme::Udp << "224.0.0.1" << 1 << true << "" << ""
                                      << "udp://224.0.0.1:1";
    QTest::newRow("multicast highest") << "udp://239.255.255.255:1" << Scheme::Udp << "239.255.255.255" << 1 << true
                                       << "" << "" << "udp://239.255.255.255:1";
    QTest::newRow("below multicast") << "udp://223.255.255.255:1" << Scheme::Udp << "223.255.255.255" << 1 << false
                                     << "" << "" << "udp://223.255.255.255:1";
    QTest::newRow("above multicast") << "udp://240.0.0.1:1" << Scheme::Udp << "240.0.0.1" << 1 << false << "" << ""
                                     << "udp://240.0.0.1:1";
    QTest::newRow("multicast with iface") << "udp://239.1.2.3:5000?iface=127.0.0.1" << Scheme::Udp << "239.1.2.3"
                                          << 5000 << true << "127.0.0.1" << ""
                                          << "udp://239.1.2.3:5000?iface=127.0.0.1";
    QTest::newRow("ipv6 multicast") << "udp://[ff02::1]:5000" << Scheme::Udp << "ff02::1" << 5000 << true << ""
                                    << "" << "udp://[ff02::1]:5000";
    QTest::newRow("ipv6 multicast iface") << "udp://[ff15::1234]:6000?iface=::1" << Scheme::Udp << "ff15::1234"
                                          << 6000 << true << "::1" << "" << "udp://[ff15::1234]:6000?iface=::1";
    QTest::newRow("ipv6 iface in brackets") << "udp://[ff15::1234]:6000?iface=[::1]" << Scheme::Udp << "ff15::1234"
                                            << 6000 << true << "::1" << "" << "udp://[ff15::1234]:6000?iface=::1";
    QTest::newRow("not multicast ipv6") << "udp://[fe00::1]:5000" << Scheme::Udp << "fe00::1" << 5000 << false << ""
                                        << "" << "udp://[fe00::1]:5000";
    QTest::newRow("scheme case") << "UDP://10.0.0.1:7" << Scheme::Udp << "10.0.0.1" << 7 << false << "" << ""
                                 << "udp://10.0.0.1:7";
    QTest::newRow("leading zeros in port") << "tcp://10.0.0.1:00080" << Scheme::Tcp << "10.0.0.1" << 80 << false
                                           << "" << "" << "tcp://10.0.0.1:80";
    QTest::newRow("file absolute") << "file:///var/lib/telestation/pass-0042.tsr" << Scheme::File << "" << 0 << false
                                   << "" << "/var/lib/telestation/pass-0042.tsr"
                                   << "file:///var/lib/telestation/pass-0042.tsr";
    QTest::newRow("file relative") << "file://recordings/a b%3F.tsr" << Scheme::File << "" << 0 << false << ""
                                   << "recordings/a b?.tsr" << "file://recordings/a b%3F.tsr";
}

void TestIoEndpoint::parsesValidUrls()
{
    QFETCH(QString, url);
    QFETCH(Scheme, scheme);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(bool, multicast);
    QFETCH(QString, iface);
    QFETCH(QString, path);
    QFETCH(QString, canonical);

    const auto parsed = parseEndpoint(url.toStdString());
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : qPrintable(QString::fromStdString(parsed.error().message)));
    const Endpoint& e = parsed.value();
    QCOMPARE(e.scheme, scheme);
    QCOMPARE(QString::fromStdString(e.host), host);
    QCOMPARE(int(e.port), port);
    QCOMPARE(e.multicast, multicast);
    QCOMPARE(QString::fromStdString(e.iface), iface);
    QCOMPARE(QString::fromStdString(e.path), path);

    QCOMPARE(QString::fromStdString(e.toString()), canonical);
    const auto again = parseEndpoint(e.toString());
    QVERIFY(again.ok());
    QVERIFY2(again.value() == e, qPrintable(describe(again.value()) + " != " + describe(e)));
}

void TestIoEndpoint::reportsErrorsWithOffsets_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("what");
    QTest::addColumn<int>("offset");

    QTest::newRow("empty") << "" << "empty endpoint" << 0;
    QTest::newRow("no scheme") << "127.0.0.1:5000" << "missing scheme" << 0;
    QTest::newRow("unknown scheme") << "http://example.org:80" << "unknown scheme 'http'" << 0;
    QTest::newRow("file without path") << "file://" << "missing path" << 7;
    QTest::newRow("port out of range") << "udp://127.0.0.1:99999" << "port 99999 is out of range (0-65535)" << 16;
    QTest::newRow("port 65536") << "tcp://127.0.0.1:65536" << "port 65536 is out of range" << 16;
    QTest::newRow("port with many digits") << "tcp://h:1234567" << "port 1234567 is out of range" << 8;
    QTest::newRow("no port") << "udp://127.0.0.1" << "missing port" << 15;
    QTest::newRow("empty port") << "udp://127.0.0.1:" << "missing port number" << 16;
    QTest::newRow("letter in port") << "udp://127.0.0.1:50x0" << "invalid character 'x' in port" << 18;
    QTest::newRow("port not a number") << "tcp-listen://127.0.0.1:abc" << "invalid character 'a' in port" << 23;
    QTest::newRow("path after port") << "tcp://10.0.0.1:80/x" << "invalid character '/' in port" << 17;
    QTest::newRow("no host") << "udp://:5000" << "missing host" << 6;
    QTest::newRow("ipv6 without brackets") << "udp://::1:5000" << "must be in brackets" << 6;
    QTest::newRow("unclosed bracket") << "udp://[::1:5000" << "without closing ']'" << 6;
    QTest::newRow("empty brackets") << "udp://[]:5000" << "empty IPv6 address" << 7;
    QTest::newRow("bad ipv6") << "udp://[::g]:5000" << "'::g' is not a valid IPv6 address" << 7;
    QTest::newRow("ipv6 no port") << "udp://[::1]5000" << "missing port" << 11;
    QTest::newRow("bad ipv4") << "udp://300.1.2.3:5000" << "'300.1.2.3' is not a valid IPv4 address" << 6;
    QTest::newRow("short ipv4") << "udp://10.1.2:5000" << "'10.1.2' is not a valid IPv4 address" << 6;
    QTest::newRow("space in host") << "udp://ho st:5000" << "invalid character ' ' in host" << 8;
    QTest::newRow("iface on unicast") << "udp://127.0.0.1:5000?iface=127.0.0.1" << "only valid for a multicast group"
                                      << 21;
    QTest::newRow("iface on a name") << "udp://example.com:5000?iface=1.1.1.1" << "only valid for a multicast group"
                                     << 23;
    QTest::newRow("multicast on tcp") << "tcp://239.1.2.3:5000" << "only valid with udp://" << 6;
    QTest::newRow("multicast on tcp-listen") << "tcp-listen://[ff02::1]:5000" << "only valid with udp://" << 14;
    QTest::newRow("unknown option") << "udp://239.1.2.3:5000?ttl=3" << "unknown option 'ttl'" << 21;
    QTest::newRow("empty query") << "udp://239.1.2.3:5000?" << "empty option" << 21;
    QTest::newRow("iface without value") << "udp://239.1.2.3:5000?iface" << "iface needs a value" << 26;
    QTest::newRow("empty iface") << "udp://239.1.2.3:5000?iface=" << "empty iface address" << 27;
    QTest::newRow("ipv6 iface for ipv4 group") << "udp://239.1.2.3:5000?iface=::1" << "is not an IPv4 address" << 27;
    QTest::newRow("ipv4 iface for ipv6 group") << "udp://[ff02::1]:5000?iface=127.0.0.1" << "is not an IPv6 address"
                                               << 27;
    QTest::newRow("iface twice") << "udp://239.1.2.3:5000?iface=1.2.3.4&iface=1.2.3.5" << "iface is given twice" << 35;
    QTest::newRow("stream on udp") << "udp://239.1.2.3:5000?stream=a" << "unknown option 'stream'" << 21;

    // file:// paths and playback options.
    QTest::newRow("file query without path") << "file://?speed=1" << "missing path after file://" << 7;
    QTest::newRow("file NUL escape") << "file:///a%00b" << "%00 (NUL) in the path" << 9;
    QTest::newRow("file empty query") << "file:///r?" << "empty option in the query" << 10;
    QTest::newRow("file empty option") << "file:///r?speed=1&&stream=a" << "empty option in the query" << 18;
    QTest::newRow("file unknown option") << "file:///r?loop=1" << "unknown option 'loop' (file:// takes speed" << 10;
    QTest::newRow("file iface") << "file:///r?iface=1.2.3.4" << "unknown option 'iface'" << 10;
    QTest::newRow("file option case") << "file:///r?Speed=1" << "unknown option 'Speed'" << 10;
    QTest::newRow("speed without value") << "file:///r?speed" << "speed needs a value" << 15;
    QTest::newRow("empty speed") << "file:///r?speed=" << "empty value for speed" << 16;
    QTest::newRow("negative speed") << "file:///r?speed=-1" << "speed '-1' is not a number >= 0" << 16;
    QTest::newRow("speed exponent") << "file:///r?speed=1e3" << "speed '1e3' is not a number" << 16;
    QTest::newRow("speed word") << "file:///r?speed=fast" << "speed 'fast' is not a number" << 16;
    QTest::newRow("speed trailing dot") << "file:///r?speed=1." << "speed '1.' is not a number" << 16;
    QTest::newRow("speed leading dot") << "file:///r?speed=.5" << "speed '.5' is not a number" << 16;
    QTest::newRow("speed twice") << "file:///r?speed=1&speed=2" << "speed is given twice" << 18;
    QTest::newRow("repeat yes") << "file:///r?repeat=yes" << "repeat 'yes' is not 0 or 1" << 17;
    QTest::newRow("repeat twice") << "file:///r?repeat=1&repeat=1" << "repeat is given twice" << 19;
    QTest::newRow("from word") << "file:///r?from=yesterday" << "from 'yesterday' is not a time (integer ns" << 15;
    QTest::newRow("from negative") << "file:///r?from=-5" << "is not a time" << 15;
    QTest::newRow("from not a leap year") << "file:///r?from=2026-02-29T00:00:00Z" << "is not a time" << 15;
    QTest::newRow("from month 13") << "file:///r?from=2026-13-01T00:00:00Z" << "is not a time" << 15;
    QTest::newRow("from hour 24") << "file:///r?from=2026-11-22T24:00:00Z" << "is not a time" << 15;
    QTest::newRow("from second 60") << "file:///r?from=2026-11-22T12:00:60Z" << "is not a time" << 15;
    QTest::newRow("from without Z") << "file:///r?from=2026-11-22T12:00:00" << "is not a time" << 15;
    QTest::newRow("from with offset") << "file:///r?from=2026-11-22T12:00:00+01:00" << "is not a time" << 15;
    QTest::newRow("from space") << "file:///r?from=2026-11-22 12:00:00Z" << "is not a time" << 15;
    QTest::newRow("from empty fraction") << "file:///r?from=2026-11-22T12:00:00.Z" << "is not a time" << 15;
    QTest::newRow("from 10 fraction digits") << "file:///r?from=2026-11-22T12:00:00.1234567891Z" << "is not a time"
                                             << 15;
    QTest::newRow("from before 1970") << "file:///r?from=1969-12-31T23:59:59Z" << "is not a time" << 15;
    QTest::newRow("from date only") << "file:///r?from=2026-11-22" << "is not a time" << 15;
    QTest::newRow("to past 64 bits iso") << "file:///r?to=2262-04-11T23:47:16.854775808Z" << "to '2262" << 13;
    QTest::newRow("to past 64 bits ns") << "file:///r?to=9223372036854775808" << "is not a time" << 13;
    QTest::newRow("from twice") << "file:///r?from=1&from=2" << "from is given twice" << 17;
    QTest::newRow("to before from") << "file:///r?from=20&to=10" << "to is before from" << 21;
    QTest::newRow("to before from iso") << "file:///r?to=2026-11-22T12:00:00Z&from=2026-11-22T12:00:00.000000001Z"
                                        << "to is before from" << 13;
    QTest::newRow("empty stream") << "file:///r?stream=" << "empty value for stream" << 17;
    QTest::newRow("segment as a path") << "file:///r?segment=a/b.tsrec" << "is a file name in the recording" << 18;
    QTest::newRow("stream with space") << "file:///r?stream=a b" << "stream name 'a b' is not 1 to 32" << 17;
    QTest::newRow("stream too long") << "file:///r?stream=a&stream=" + QString(33, 'x') << "is not 1 to 32" << 26;
}

void TestIoEndpoint::reportsErrorsWithOffsets()
{
    QFETCH(QString, url);
    QFETCH(QString, what);
    QFETCH(int, offset);

    const auto parsed = parseEndpoint(url.toStdString());
    QVERIFY2(!parsed.ok(), qPrintable("accepted: " + url));
    const QString message = QString::fromStdString(parsed.error().message);
    QVERIFY2(message.startsWith(url + ": "), qPrintable(message));
    QVERIFY2(message.contains(what), qPrintable(message));
    QVERIFY2(message.endsWith(QStringLiteral(" at offset %1").arg(offset)), qPrintable(message));
    QCOMPARE(parsed.error().where.column, offset + 1);
}

void TestIoEndpoint::parsesFileUrls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("query"); // key=value&... as stored
    QTest::addColumn<QString>("canonical");

    QTest::newRow("speed") << "file:///rec/pass?speed=1" << "/rec/pass" << "speed=1" << "file:///rec/pass?speed=1";
    QTest::newRow("repeat") << "file:///rec/pass?repeat=1" << "/rec/pass" << "repeat=1" << "file:///rec/pass?repeat=1";
    QTest::newRow("every option, repeated stream")
        << "file://rec?speed=0.5&from=1795348800000000000&to=2026-11-22T12:00:00.25Z&stream=tm&stream=hk-2.b_c"
        << "rec" << "speed=0.5&from=1795348800000000000&to=2026-11-22T12:00:00.25Z&stream=tm&stream=hk-2.b_c"
        << "file://rec?speed=0.5&from=1795348800000000000&to=2026-11-22T12:00:00.25Z&stream=tm&stream=hk-2.b_c";
    QTest::newRow("values as written") << "file:///r?speed=010.50&from=00042" << "/r" << "speed=010.50&from=00042"
                                       << "file:///r?speed=010.50&from=00042";
    QTest::newRow("speed 0") << "file:///r?speed=0" << "/r" << "speed=0" << "file:///r?speed=0";
    QTest::newRow("segments") << "file:///r?segment=tm-20261122T120000-1.tsrec&segment=tm-20261122T120000-2.tsrec"
                              << "/r" << "segment=tm-20261122T120000-1.tsrec&segment=tm-20261122T120000-2.tsrec"
                              << "file:///r?segment=tm-20261122T120000-1.tsrec&segment=tm-20261122T120000-2.tsrec";
    QTest::newRow("open ends") << "file:///r?from=0&to=0" << "/r" << "from=0&to=0" << "file:///r?from=0&to=0";
    QTest::newRow("to 0 is an open end") << "file:///r?from=5&to=0" << "/r" << "from=5&to=0" << "file:///r?from=5&to=0";
    QTest::newRow("from equals to") << "file:///r?from=2026-11-22T12:00:00Z&to=1795348800000000000" << "/r"
                                    << "from=2026-11-22T12:00:00Z&to=1795348800000000000"
                                    << "file:///r?from=2026-11-22T12:00:00Z&to=1795348800000000000";
    QTest::newRow("leap day, 9 digits") << "file:///r?from=2024-02-29T23:59:59.999999999Z" << "/r"
                                        << "from=2024-02-29T23:59:59.999999999Z"
                                        << "file:///r?from=2024-02-29T23:59:59.999999999Z";
    QTest::newRow("epoch") << "file:///r?from=1970-01-01T00:00:00Z" << "/r" << "from=1970-01-01T00:00:00Z"
                           << "file:///r?from=1970-01-01T00:00:00Z";
    QTest::newRow("last 64-bit ns") << "file:///r?to=2262-04-11T23:47:16.854775807Z" << "/r"
                                    << "to=2262-04-11T23:47:16.854775807Z"
                                    << "file:///r?to=2262-04-11T23:47:16.854775807Z";
    QTest::newRow("escapes decoded") << "file:///a%25b%3fc%41" << "/a%b?cA" << "" << "file:///a%25b%3FcA";
    QTest::newRow("escape before the query") << "file:///x%3F?stream=s" << "/x?" << "stream=s"
                                             << "file:///x%3F?stream=s";
    QTest::newRow("lone percent") << "file:///50%" << "/50%" << "" << "file:///50%25";
    QTest::newRow("short escape") << "file:///x%4?speed=2" << "/x%4" << "speed=2" << "file:///x%254?speed=2";
    QTest::newRow("not hex") << "file:///x%zz" << "/x%zz" << "" << "file:///x%25zz";
    QTest::newRow("hash is part of the path") << "file:///a#b" << "/a#b" << "" << "file:///a#b";
    QTest::newRow("scheme case with query") << "FILE:///r?stream=x" << "/r" << "stream=x" << "file:///r?stream=x";
}

void TestIoEndpoint::parsesFileUrls()
{
    QFETCH(QString, url);
    QFETCH(QString, path);
    QFETCH(QString, query);
    QFETCH(QString, canonical);

    const auto parsed = parseEndpoint(url.toStdString());
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : qPrintable(QString::fromStdString(parsed.error().message)));
    const Endpoint& e = parsed.value();
    QCOMPARE(e.scheme, Scheme::File);
    QCOMPARE(QString::fromStdString(e.path), path);
    QCOMPARE(queryText(e.query), query);
    QVERIFY(e.host.empty());
    QCOMPARE(int(e.port), 0);
    QCOMPARE(QString::fromStdString(e.toString()), canonical);
    const auto again = parseEndpoint(e.toString());
    QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(QString::fromStdString(again.error().message)));
    QVERIFY2(again.value() == e, qPrintable(describe(again.value()) + " != " + describe(e)));
}

void TestIoEndpoint::outOfRangePortMessage()
{
    const auto parsed = parseEndpoint("udp://127.0.0.1:99999");
    QVERIFY(!parsed.ok());
    QCOMPARE(QString::fromStdString(parsed.error().message),
             QStringLiteral("udp://127.0.0.1:99999: port 99999 is out of range (0-65535) at offset 16"));
}

void TestIoEndpoint::roundTripsBuiltEndpoints()
{
    std::vector<Endpoint> endpoints;
    Endpoint udp;
    udp.scheme = Scheme::Udp;
    udp.host = "192.0.2.7";
    udp.port = 5000;
    endpoints.push_back(udp);

    Endpoint group = udp;
    group.host = "239.255.0.1";
    group.multicast = true;
    group.iface = "10.0.0.2";
    endpoints.push_back(group);

    Endpoint group6 = group;
    group6.host = "ff05::1:3";
    group6.iface = "fd00::2";
    endpoints.push_back(group6);

    Endpoint client;
    client.scheme = Scheme::Tcp;
    client.host = "station.example";
    client.port = 1;
    endpoints.push_back(client);

    Endpoint server;
    server.scheme = Scheme::TcpListen;
    server.host = "::";
    server.port = 65535;
    endpoints.push_back(server);

    Endpoint file;
    file.scheme = Scheme::File;
    file.host.clear();
    file.port = 0;
    file.path = "/tmp/x.tsr";
    endpoints.push_back(file);

    // A path with the characters the query syntax uses, and playback options.
    Endpoint playback = file;
    playback.path = "rec/50%?done#1&a=b";
    playback.query = {
        {"stream", "tm"}, {"speed", "2.5"}, {"stream", "hk"}, {"to", "2030-01-01T00:00:00Z"}, {"from", "7"}};
    endpoints.push_back(playback);

    for (const Endpoint& e : endpoints) {
        const std::string url = e.toString();
        const auto parsed = parseEndpoint(url);
        QVERIFY2(parsed.ok(), qPrintable(QString::fromStdString(parsed.ok() ? url : parsed.error().message)));
        QVERIFY2(parsed.value() == e, qPrintable(QString::fromStdString(url) + ": " + describe(parsed.value())));
    }
}

QTEST_GUILESS_MAIN(TestIoEndpoint)
#include "tst_io_endpoint.moc"
