// The stream dialog as an operator types into it (issue 15, point 6): the title says what it does; a
// source URL pasted or typed fills the pieces, and changing a piece writes the URL again, without one
// undoing the other (the cursor stays where the operator types); an empty local address means every
// interface and the station binds to it; a port of 99999 stays 99999 and is refused beside the field
// with OK disabled; a name another stream has is refused; a port another program holds (found only by
// opening it) keeps the dialog open with the reason when OK is pressed, as does a refusal from the
// caller's apply callback.
#include "core/io/endpoint.hpp"
#include "core/io/receiver.hpp"
#include "tests/support/held_udp_port.hpp"
#include "ui/dialogs/stream_dialog.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest>

#include <string>

using namespace telestation;
using ui::StreamDialog;

namespace {

config::StreamProfile stream(const std::string& name, const std::string& source)
{
    config::StreamProfile s;
    s.name = name;
    s.source = source;
    return s;
}

template <typename T>
T* child(const QWidget& parent, const char* name)
{
    auto* w = parent.findChild<T*>(QString::fromLatin1(name));
    if (!w)
        qFatal("no child %s", name);
    return w;
}

QLineEdit* edit(const StreamDialog& d, const char* name)
{
    return child<QLineEdit>(d, name);
}

// As an operator types: the field focused, everything selected, then the keys one by one.
void typeInto(QLineEdit* field, const QString& text)
{
    field->setFocus();
    field->selectAll();
    if (text.isEmpty())
        QTest::keyClick(field, Qt::Key_Delete);
    else
        QTest::keyClicks(field, text);
}

bool okEnabled(const StreamDialog& d)
{
    return child<QPushButton>(d, "okButton")->isEnabled();
}

QString besideOk(const StreamDialog& d)
{
    const auto* label = child<QLabel>(d, "errorLabel");
    return label->isHidden() ? QString() : label->text();
}

void clickOk(StreamDialog& d)
{
    QTest::mouseClick(child<QPushButton>(d, "okButton"), Qt::LeftButton);
}

} // namespace

class TestStreamDialog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void titleSaysAddOrEdit()
    {
        StreamDialog add(stream("stream3", ""), {}, nullptr);
        QCOMPARE(add.windowTitle(), QStringLiteral("Add stream"));
        StreamDialog edited(stream("tm", "udp://127.0.0.1:5000"), {}, nullptr);
        QCOMPARE(edited.windowTitle(), QStringLiteral("Edit stream \u2013 tm"));
    }

    // A URL typed into the source field fills the pieces; the URL stays as typed (and is the source).
    void typedUrlFillsThePieces_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("transport");
        QTest::addColumn<QStringList>("fields"); // "objectName=text" of the pieces it fills
        QTest::newRow("udp") << "udp://192.168.1.10:5000" << int(StreamDialog::Udp)
                             << QStringList{"hostEdit=192.168.1.10", "portEdit=5000"};
        QTest::newRow("multicast") << "udp://239.192.0.1:6000?iface=127.0.0.1" << int(StreamDialog::UdpMulticast)
                                   << QStringList{"groupEdit=239.192.0.1", "interfaceEdit=127.0.0.1", "portEdit=6000"};
        QTest::newRow("tcp client") << "tcp://ground.example.org:7000" << int(StreamDialog::TcpClient)
                                    << QStringList{"hostEdit=ground.example.org", "portEdit=7000"};
        QTest::newRow("tcp server v6") << "tcp-listen://[::1]:7001" << int(StreamDialog::TcpServer)
                                       << QStringList{"hostEdit=::1", "portEdit=7001"};
        QTest::newRow("playback") << "file:///data/rec?from=2026-11-22T12:00:00Z&speed=2.0&stream=tm"
                                  << int(StreamDialog::Playback)
                                  << QStringList{"pathEdit=/data/rec", "speedEdit=2.0",
                                                 "optionsEdit=from=2026-11-22T12:00:00Z&stream=tm"};
        QTest::newRow("spelling kept") << "UDP://localhost:05000" << int(StreamDialog::Udp)
                                       << QStringList{"hostEdit=localhost", "portEdit=5000"};
    }

    void typedUrlFillsThePieces()
    {
        QFETCH(QString, url);
        QFETCH(int, transport);
        QFETCH(QStringList, fields);
        StreamDialog dialog(stream("new", ""), {}, nullptr);
        dialog.setCheckOpening(false);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QLineEdit* urlField = edit(dialog, "urlEdit");
        typeInto(urlField, url);
        QCOMPARE(int(dialog.transport()), transport);
        for (const QString& f : fields) {
            const QString name = f.section(QLatin1Char('='), 0, 0);
            QCOMPARE(edit(dialog, name.toLatin1().constData())->text(), f.section(QLatin1Char('='), 1));
        }
        // Not rewritten under the operator's fingers: the text and the cursor are where typing left them.
        QCOMPARE(urlField->text(), url);
        QCOMPARE(urlField->cursorPosition(), url.size());
        QVERIFY2(okEnabled(dialog), qPrintable(besideOk(dialog)));
        QCOMPARE(QString::fromStdString(dialog.profile().source), url);
        QVERIFY(io::parseEndpoint(dialog.profile().source));
    }

    // Changing a piece writes the URL again, from every piece (also after a URL was typed).
    void piecesWriteTheUrl()
    {
        StreamDialog dialog(stream("new", ""), {}, nullptr);
        dialog.show();
        QLineEdit* urlField = edit(dialog, "urlEdit");
        QCOMPARE(urlField->text(), QStringLiteral("udp://0.0.0.0:0")); // a new stream's pieces
        typeInto(edit(dialog, "hostEdit"), QStringLiteral("10.0.0.1"));
        typeInto(edit(dialog, "portEdit"), QStringLiteral("5001"));
        QCOMPARE(urlField->text(), QStringLiteral("udp://10.0.0.1:5001"));
        child<QComboBox>(dialog, "transportCombo")->setCurrentIndex(StreamDialog::TcpServer);
        QCOMPARE(urlField->text(), QStringLiteral("tcp-listen://10.0.0.1:5001"));

        typeInto(urlField, QStringLiteral("UDP://localhost:05000"));
        QCOMPARE(edit(dialog, "portEdit")->text(), QStringLiteral("5000"));
        typeInto(edit(dialog, "portEdit"), QStringLiteral("6000"));
        QCOMPARE(urlField->text(), QStringLiteral("udp://localhost:6000"));
        QCOMPARE(dialog.profile().source, std::string("udp://localhost:6000"));

        child<QComboBox>(dialog, "transportCombo")->setCurrentIndex(StreamDialog::Playback);
        typeInto(edit(dialog, "pathEdit"), QStringLiteral("/data/rec"));
        typeInto(edit(dialog, "speedEdit"), QStringLiteral("0.5"));
        QCOMPARE(urlField->text(), QStringLiteral("file:///data/rec?speed=0.5"));
    }

    // A URL that does not parse (pasted at once) says why beside the field; the pieces keep what they
    // had; a piece changed afterwards makes the URL again.
    void aUrlThatDoesNotParseIsRefused()
    {
        StreamDialog dialog(stream("new", ""), {}, nullptr);
        dialog.show();
        QLineEdit* urlField = edit(dialog, "urlEdit");
        QApplication::clipboard()->setText(QStringLiteral("udp://127.0.0.1:99999"));
        urlField->setFocus();
        urlField->selectAll();
        urlField->paste();
        QVERIFY(!okEnabled(dialog));
        QVERIFY2(dialog.fieldError(urlField).contains(QStringLiteral("port 99999 is out of range")),
                 qPrintable(dialog.fieldError(urlField)));
        QCOMPARE(besideOk(dialog), dialog.fieldError(urlField));
        QCOMPARE(urlField->text(), QStringLiteral("udp://127.0.0.1:99999"));
        QCOMPARE(edit(dialog, "portEdit")->text(), QStringLiteral("0")); // untouched

        typeInto(edit(dialog, "portEdit"), QStringLiteral("5000"));
        QCOMPARE(urlField->text(), QStringLiteral("udp://0.0.0.0:5000"));
        QCOMPARE(dialog.fieldError(urlField), QString());
        QVERIFY2(okEnabled(dialog), qPrintable(besideOk(dialog)));
    }

    // The hint says an empty local address is every interface: the URL says 0.0.0.0 and the station's
    // receiver binds to every interface.
    void anEmptyLocalAddressIsEveryInterface()
    {
        StreamDialog dialog(stream("tm", "udp://127.0.0.1:0"), {}, nullptr);
        dialog.show();
        QLineEdit* host = edit(dialog, "hostEdit");
        QVERIFY(host->placeholderText().contains(QStringLiteral("every interface")));
        typeInto(host, QString());
        QVERIFY2(okEnabled(dialog), qPrintable(besideOk(dialog)));
        QCOMPARE(dialog.profile().source, std::string("udp://0.0.0.0:0"));
        const auto endpoint = io::parseEndpoint(dialog.profile().source);
        QVERIFY(endpoint);
        auto receiver = io::openReceiver(*endpoint);
        QVERIFY2(receiver, receiver ? "" : receiver.error().message.c_str());
        const std::string state = (*receiver)->state();
        QVERIFY2(state.find("0.0.0.0:") != std::string::npos, state.c_str());

        // A TCP client has no "every interface": its server must be named.
        child<QComboBox>(dialog, "transportCombo")->setCurrentIndex(StreamDialog::TcpClient);
        typeInto(edit(dialog, "portEdit"), QStringLiteral("7000"));
        QVERIFY(!okEnabled(dialog));
        QVERIFY(dialog.fieldError(host).contains(QStringLiteral("server")));
    }

    // Out of range is an error shown below the field, never clamped: 99999 stays 99999.
    void aPortOutOfRangeIsRefusedBesideTheField_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("reason");
        QTest::newRow("99999") << "99999" << "Port 99999 is out of range: 0 to 65535";
        QTest::newRow("65536") << "65536" << "Port 65536 is out of range: 0 to 65535";
        QTest::newRow("letters") << "50x0" << "Port '50x0' is not a whole number: 0 to 65535";
        QTest::newRow("negative") << "-1" << "Port '-1' is not a whole number: 0 to 65535";
        QTest::newRow("empty") << "" << "Enter the port: 0 to 65535";
    }

    void aPortOutOfRangeIsRefusedBesideTheField()
    {
        QFETCH(QString, typed);
        QFETCH(QString, reason);
        StreamDialog dialog(stream("tm", "udp://127.0.0.1:5000"), {}, nullptr);
        dialog.show();
        QLineEdit* port = edit(dialog, "portEdit");
        typeInto(port, typed);
        QCOMPARE(port->text(), typed);
        QCOMPARE(dialog.fieldError(port), reason);
        QVERIFY(!child<QLabel>(dialog, "portError")->isHidden());
        QVERIFY(!okEnabled(dialog));
        QCOMPARE(besideOk(dialog), reason);
        QCOMPARE(dialog.validationError(), reason);
        // Return does not accept either.
        QTest::keyClick(port, Qt::Key_Return);
        QVERIFY(dialog.isVisible());

        typeInto(port, QStringLiteral("65535"));
        QCOMPARE(dialog.fieldError(port), QString());
        QVERIFY(child<QLabel>(dialog, "portError")->isHidden());
        QVERIFY2(okEnabled(dialog), qPrintable(besideOk(dialog)));
        QCOMPARE(dialog.profile().source, std::string("udp://127.0.0.1:65535"));
    }

    // The transport header is checked the same way (not clamped to its maximum).
    void aTransportHeaderOutOfRangeIsRefused()
    {
        StreamDialog dialog(stream("tm", "udp://127.0.0.1:5000"), {}, nullptr);
        dialog.show();
        QLineEdit* header = edit(dialog, "transportHeaderEdit");
        typeInto(header, QStringLiteral("4096"));
        QCOMPARE(header->text(), QStringLiteral("4096"));
        QVERIFY(!okEnabled(dialog));
        QVERIFY2(dialog.fieldError(header).contains(QStringLiteral("4096 is out of range: 0 to 1024")),
                 qPrintable(dialog.fieldError(header)));
        typeInto(header, QStringLiteral("12"));
        QVERIFY(okEnabled(dialog));
        QCOMPARE(dialog.profile().transportHeaderBytes, 12u);
    }

    // Names must be unique and not empty.
    void aNameAnotherStreamHasIsRefused()
    {
        StreamDialog dialog(stream("stream3", ""), {QStringLiteral("tm"), QStringLiteral("spare")}, nullptr);
        dialog.show();
        QLineEdit* name = edit(dialog, "nameEdit");
        QVERIFY(okEnabled(dialog));
        typeInto(name, QStringLiteral("tm"));
        QVERIFY(!okEnabled(dialog));
        QCOMPARE(dialog.fieldError(name), QStringLiteral("Another stream is already called tm: choose another name"));
        QCOMPARE(besideOk(dialog), dialog.fieldError(name));
        clickOk(dialog);
        QVERIFY(dialog.isVisible());
        typeInto(name, QString());
        QCOMPARE(dialog.fieldError(name), QStringLiteral("Give the stream a name"));
        typeInto(name, QStringLiteral("tm2"));
        QCOMPARE(dialog.fieldError(name), QString());
        QVERIFY(okEnabled(dialog));
    }

    // A port another program holds can only be found by opening it: OK does, and the dialog stays open
    // with the system's reason; another port is accepted.
    void aPortInUseKeepsTheDialogOpen()
    {
        const test::HeldUdpPort holder;
        QVERIFY(holder.port() != 0);
        StreamDialog dialog(stream("stream3", ""), {QStringLiteral("tm")}, nullptr);
        dialog.show();
        typeInto(edit(dialog, "urlEdit"), QStringLiteral("udp://127.0.0.1:%1").arg(holder.port()));
        QVERIFY2(okEnabled(dialog), qPrintable(besideOk(dialog))); // nothing wrong as typed
        clickOk(dialog);
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY2(dialog.refusal().contains(QStringLiteral("in use")), qPrintable(dialog.refusal()));
        QCOMPARE(besideOk(dialog), dialog.refusal());

        // A stream that is not received is not opened: nothing to refuse.
        QTest::mouseClick(child<QCheckBox>(dialog, "enabledCheck"), Qt::LeftButton);
        QCOMPARE(dialog.refusal(), QString()); // a change clears the refusal
        QTest::mouseClick(child<QCheckBox>(dialog, "enabledCheck"), Qt::LeftButton);

        typeInto(edit(dialog, "portEdit"), QStringLiteral("0"));
        clickOk(dialog);
        QVERIFY(!dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.profile().source, std::string("udp://127.0.0.1:0"));
    }

    // Editing a stream that holds its own port: keeping the port is not refused by the probe (the stream
    // itself would be in the way).
    void anEditedStreamKeepsItsOwnPort()
    {
        const test::HeldUdpPort own; // stands for the running stream's socket
        const std::string source = "udp://127.0.0.1:" + std::to_string(own.port());
        StreamDialog dialog(stream("tm", source), {}, nullptr);
        dialog.show();
        typeInto(edit(dialog, "transportHeaderEdit"), QStringLiteral("4"));
        typeInto(edit(dialog, "hostEdit"), QStringLiteral("0.0.0.0")); // same port, another address
        clickOk(dialog);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    // The caller's apply decides last: a refusal keeps the dialog open with its reason.
    void theApplyCallbackCanRefuse()
    {
        StreamDialog dialog(stream("stream3", ""), {}, nullptr);
        int calls = 0;
        config::StreamProfile tried;
        bool refuse = true;
        dialog.setApply([&](const config::StreamProfile& s, QString* error) {
            ++calls;
            tried = s;
            if (refuse)
                *error = QStringLiteral("the station said no");
            return !refuse;
        });
        dialog.show();
        typeInto(edit(dialog, "hostEdit"), QStringLiteral("127.0.0.1"));
        clickOk(dialog);
        QCOMPARE(calls, 1);
        QVERIFY(dialog.isVisible());
        QCOMPARE(besideOk(dialog), QStringLiteral("the station said no"));
        refuse = false;
        clickOk(dialog);
        QCOMPARE(calls, 2);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(tried.source, std::string("udp://127.0.0.1:0"));
        QCOMPARE(tried.name, std::string("stream3"));
    }
};

QTEST_MAIN(TestStreamDialog)
#include "tst_ui_stream_dialog.moc"
