// The mission database browser and the definition file dialog, over the training mission database
// of a real station: one top-level row per packet with its parameters in definition order and the
// columns the operator checks; the filter (case-insensitive, over names, units and descriptions)
// keeps exactly the packets with a match; dragged parameters carry their qualified names and a real
// ValueDisplay accepts them when dropped; double click / Enter activate parameters. The dialog lists a
// definition file's errors by line and moves the cursor to the line chosen, shows a valid file's
// database, and reports an unreadable file as one error naming it.
#include "core/config/station_profile.hpp"
#include "core/mdb/text_format.hpp"
#include "core/pipeline/station.hpp"
#include "ui/dialogs/definition_file_dialog.hpp"
#include "ui/displays/value_display.hpp"
#include "ui/models/mission_tree_model.hpp"
#include "ui/models/value_table_model.hpp"
#include "ui/widgets/mission_browser.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/test_paths.hpp"

#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

#include <memory>
#include <string>
#include <variant>
#include <vector>

using namespace telestation;
using ui::DefinitionFileDialog;
using ui::MissionBrowser;
using ui::MissionTreeModel;
using ui::ValueTableModel;

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// One UDP stream "tm" on loopback, every packet type processed entirely.
std::unique_ptr<pipeline::Station> startStation(const mdb::MissionDatabase& db)
{
    config::StationProfile profile;
    profile.streams = {test::streamProfile("tm")};
    auto station = test::startStation(profile, db);
    if (!station)
        qFatal("the station did not start");
    return station;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& content)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

// The filter's rule, written independently of the model: a parameter matches when its qualified name,
// units or description contains the text; a packet whose name or description contains it keeps all.
std::vector<std::pair<std::string, std::vector<std::string>>> expectedMatches(const mdb::MissionDatabase& db,
                                                                              const QString& text)
{
    const auto has = [&](const std::string& s) { return qs(s).contains(text, Qt::CaseInsensitive); };
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (const auto& p : db.packets) {
        const bool packetMatches = has(p.name) || has(p.description);
        std::vector<std::string> names;
        for (const auto& q : p.parameters)
            if (packetMatches || has(p.name + '.' + q.name) || has(q.units) || has(q.description))
                names.push_back(q.name);
        if (!names.empty())
            out.emplace_back(p.name, names);
    }
    return out;
}

// What the browser's filtered tree shows, in order.
std::vector<std::pair<std::string, std::vector<std::string>>> shownTree(const QAbstractItemModel& model)
{
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (int r = 0; r < model.rowCount(); ++r) {
        const QModelIndex packet = model.index(r, 0);
        std::vector<std::string> names;
        for (int c = 0; c < model.rowCount(packet); ++c)
            names.push_back(model.index(c, 0, packet).data().toString().toStdString());
        out.emplace_back(packet.data().toString().toStdString(), names);
    }
    return out;
}

// The proxy index of "Packet" or "Packet.PARAMETER" in the browser's view.
QModelIndex shownIndex(const MissionBrowser& browser, const QString& name)
{
    return browser.filterModel()->mapFromSource(browser.model()->indexOf(name));
}

// Drags `mime` onto `target` as the platform's drag and drop would: enter, move, drop.
bool dropOn(QWidget* target, const QMimeData* mime)
{
    const QPoint pos = target->rect().center();
    QDragEnterEvent enter(pos, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted())
        return false;
    QDragMoveEvent move(pos, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &move);
    if (!move.isAccepted())
        return false;
    QDropEvent drop(QPointF(pos), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    return drop.isAccepted();
}

// A double click as the platform delivers it: press, release, double-click press, release.
void doubleClick(QWidget* widget, QPoint pos)
{
    QTest::mouseClick(widget, Qt::LeftButton, {}, pos);
    QTest::mouseDClick(widget, Qt::LeftButton, {}, pos);
    QTest::mouseRelease(widget, Qt::LeftButton, {}, pos);
}

QStringList rowNames(const ValueTableModel& model)
{
    QStringList names;
    for (int r = 0; r < model.rowCount(); ++r)
        names << model.index(r, ValueTableModel::Name).data(ValueTableModel::kValueRole).toString();
    return names;
}

const mdb::PacketDef& packetWith(const mdb::MissionDatabase& db, bool (*pred)(const mdb::PacketDef&))
{
    for (const auto& p : db.packets)
        if (pred(p))
            return p;
    qFatal("the training database has no such packet");
}

} // namespace

class TestMissionBrowser : public QObject {
    Q_OBJECT

    mdb::MissionDatabase m_db;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = test::trainingDatabase();
        QVERIFY(m_db.packets.size() >= 5);
    }

    // One top-level row per packet, its parameters under it in definition order, the columns filled
    // from the definition, the summary with the name and counts; nullptr clears.
    void treeShowsTheDatabase()
    {
        auto station = startStation(m_db);
        const mdb::MissionDatabase& db = station->database();
        MissionBrowser browser;
        QCOMPARE(browser.model()->rowCount(), 0);
        QVERIFY(browser.summaryText().contains(QStringLiteral("No mission database")));

        browser.setDatabase(&db, QStringLiteral("/somewhere/training.mdb"));
        const MissionTreeModel& model = *browser.model();
        QCOMPARE(model.rowCount(), static_cast<int>(db.packets.size()));
        QCOMPARE(browser.view()->model()->rowCount(), static_cast<int>(db.packets.size()));
        for (int r = 0; r < model.rowCount(); ++r) {
            const mdb::PacketDef& p = db.packets[static_cast<std::size_t>(r)];
            const QModelIndex packet = model.index(r, MissionTreeModel::Name);
            QCOMPARE(packet.data().toString(), qs(p.name));
            QCOMPARE(model.rowCount(packet), static_cast<int>(p.parameters.size()));
            QCOMPARE(packet.siblingAtColumn(MissionTreeModel::Parameters).data().toString(),
                     QString::number(p.parameters.size()));
            QVERIFY(packet.siblingAtColumn(MissionTreeModel::Apid).data().toString().startsWith(QString::number(p.apid)));
            QCOMPARE(packet.siblingAtColumn(MissionTreeModel::Description).data().toString(), qs(p.description));
            QCOMPARE(model.data(packet, MissionTreeModel::kKindRole).toInt(),
                     static_cast<int>(MissionTreeModel::ItemKind::Packet));
            for (int c = 0; c < model.rowCount(packet); ++c) {
                const mdb::ParameterDef& q = p.parameters[static_cast<std::size_t>(c)];
                const QModelIndex parameter = model.index(c, 0, packet);
                QCOMPARE(parameter.data().toString(), qs(q.name));
                QCOMPARE(parameter.parent(), packet);
                QCOMPARE(model.rowCount(parameter), 0);
                QCOMPARE(parameter.data(MissionTreeModel::kQualifiedNameRole).toString(), qs(p.name + '.' + q.name));
                QCOMPARE(parameter.siblingAtColumn(MissionTreeModel::BitOffset).data().toString(),
                         QString::number(q.bitOffset));
                QCOMPARE(parameter.siblingAtColumn(MissionTreeModel::BitLength).data().toString(),
                         QString::number(q.bitLength));
                QCOMPARE(parameter.siblingAtColumn(MissionTreeModel::Units).data().toString(), qs(q.units));
                QCOMPARE(model.parameter(parameter), &q);
                QCOMPARE(model.indexOf(qs(p.name + '.' + q.name)), parameter);
                // The tool tip holds the definition's PARAMETER line.
                QVERIFY(parameter.data(Qt::ToolTipRole).toString().contains(
                    QStringLiteral("PARAMETER %1 %2 %3").arg(qs(q.name)).arg(q.bitOffset).arg(q.bitLength)));
            }
        }

        // Columns that summarise: a secondary id, a variable length, an enumeration, numeric limits.
        const auto& shared = packetWith(db, [](const mdb::PacketDef& p) { return p.secondaryId.has_value(); });
        QCOMPARE(model.indexOf(qs(shared.name)).siblingAtColumn(MissionTreeModel::Apid).data().toString(),
                 QStringLiteral("%1 (id %2)").arg(shared.apid).arg(shared.secondaryId->value));
        const auto& variable = packetWith(db, [](const mdb::PacketDef& p) { return p.variableLength; });
        QCOMPARE(model.indexOf(qs(variable.name)).siblingAtColumn(MissionTreeModel::Length).data().toString(),
                 QStringLiteral("%1..%2 bytes").arg(variable.length).arg(variable.maxLength));
        int enumerations = 0;
        int numericLimits = 0;
        for (const auto& p : db.packets) {
            for (const auto& q : p.parameters) {
                const QModelIndex index = model.indexOf(qs(p.name + '.' + q.name));
                const QString calibration = index.siblingAtColumn(MissionTreeModel::Calibration).data().toString();
                const QString limits = index.siblingAtColumn(MissionTreeModel::Limits).data().toString();
                if (const auto* e = std::get_if<mdb::EnumerationCalibrator>(&q.calibrator)) {
                    ++enumerations;
                    QVERIFY2(calibration.startsWith(qs(e->states.front().text) + QLatin1Char('=')),
                             qPrintable(calibration));
                }
                if (std::holds_alternative<std::monostate>(q.calibrator))
                    QVERIFY(calibration.isEmpty());
                if (const auto* n = std::get_if<mdb::NumericLimits>(&q.limits)) {
                    ++numericLimits;
                    // Each limit reads back as the same double.
                    static const QRegularExpression pattern(QStringLiteral("^R<(\\S+) Y<(\\S+) Y>(\\S+) R>(\\S+)"));
                    const QRegularExpressionMatch match = pattern.match(limits);
                    QVERIFY2(match.hasMatch(), qPrintable(limits));
                    QCOMPARE(match.captured(1).toDouble(), n->redLow);
                    QCOMPARE(match.captured(2).toDouble(), n->yellowLow);
                    QCOMPARE(match.captured(3).toDouble(), n->yellowHigh);
                    QCOMPARE(match.captured(4).toDouble(), n->redHigh);
                    QVERIFY2(!match.captured(0).contains(QLatin1Char('e')), qPrintable(limits)); // no exponents
                    QCOMPARE(limits.endsWith(QStringLiteral("(disabled)")), !n->enabled);
                } else if (const auto* s = std::get_if<mdb::StateLimits>(&q.limits)) {
                    QVERIFY2(limits.contains(qs(s->expectedStates.front())), qPrintable(limits));
                } else {
                    QVERIFY(limits.isEmpty());
                }
            }
        }
        QVERIFY(enumerations > 0 && numericLimits > 0);

        // The model drags a packet as all of its parameters, and a parameter and its packet once.
        const mdb::PacketDef& diag = *db.findPacket("Diag_Power");
        QStringList diagNames;
        for (const auto& q : diag.parameters)
            diagNames << qs("Diag_Power." + q.name);
        const QModelIndex diagIndex = model.indexOf(QStringLiteral("Diag_Power"));
        std::unique_ptr<QMimeData> mime(model.mimeData({diagIndex.siblingAtColumn(MissionTreeModel::Length),
                                                        model.index(1, 0, diagIndex), diagIndex}));
        QVERIFY(mime);
        QCOMPARE(QString::fromUtf8(mime->data(QString::fromLatin1(ValueTableModel::kParameterMimeType))),
                 diagNames.join(QLatin1Char('\n')));
        QVERIFY(!model.mimeData({}));

        // The summary: name and counts; the source in its tool tip.
        const QString summary = browser.summaryText();
        QVERIFY2(summary.contains(qs(db.name)), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("%1 packet types").arg(db.packets.size())), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("%1 parameters").arg(db.parameterCount())), qPrintable(summary));
        QVERIFY(browser.findChild<QLabel*>(QStringLiteral("missionSummary"))->toolTip().contains(
            QStringLiteral("/somewhere/training.mdb")));

        browser.setDatabase(nullptr);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(browser.summaryText().contains(QStringLiteral("No mission database")));
    }

    // Typing a parameter name (any case) leaves exactly the packets with a match and their matching
    // parameters, expanded; a packet name shows all of its parameters; clearing shows everything.
    void filterKeepsThePacketsOfMatches()
    {
        MissionBrowser browser;
        browser.setDatabase(&m_db);
        browser.resize(900, 600);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        const QAbstractItemModel& shown = *browser.filterModel();

        auto* edit = browser.findChild<QLineEdit*>(QStringLiteral("missionFilter"));
        QVERIFY(edit);
        QTest::keyClicks(edit, QStringLiteral("ops_mode"));
        const auto expected = expectedMatches(m_db, QStringLiteral("ops_mode"));
        QCOMPARE(shownTree(shown), expected);
        // Both packets that have an OPS_MODE are there, with it; the others are not.
        QVERIFY(expected.size() >= 2 && expected.size() < m_db.packets.size());
        for (const char* name : {"Packet5.OPS_MODE", "HK_Status.OPS_MODE"})
            QVERIFY2(shownIndex(browser, QString::fromLatin1(name)).isValid(), name);
        QVERIFY(!shownIndex(browser, QStringLiteral("GNC_State")).isValid());
        QVERIFY(browser.view()->isExpanded(shownIndex(browser, QStringLiteral("Packet5"))));
        int count = 0;
        for (const auto& [packet, names] : expected)
            count += static_cast<int>(names.size());
        QCOMPARE(browser.shownParameterCount(), count);
        QVERIFY2(browser.summaryText().contains(QStringLiteral("%1 shown").arg(count)),
                 qPrintable(browser.summaryText()));

        // A packet's name: all of its parameters.
        browser.setFilterText(QStringLiteral("gnc_STATE"));
        const auto gnc = shownTree(shown);
        QVERIFY(!gnc.empty());
        QCOMPARE(gnc.front().first, std::string("GNC_State"));
        QCOMPARE(gnc.front().second.size(), m_db.findPacket("GNC_State")->parameters.size());
        QCOMPARE(gnc, expectedMatches(m_db, QStringLiteral("gnc_STATE")));

        // Units: every parameter shown has the text somewhere the filter looks.
        std::string units;
        for (const auto& p : m_db.packets)
            for (const auto& q : p.parameters)
                if (units.empty() && q.units.size() >= 2)
                    units = q.units;
        QVERIFY(!units.empty());
        browser.setFilterText(qs(units));
        QCOMPARE(shownTree(shown), expectedMatches(m_db, qs(units)));

        browser.setFilterText(QStringLiteral("no parameter is called this"));
        QCOMPARE(shown.rowCount(), 0);

        edit->clear();
        QCOMPARE(shown.rowCount(), static_cast<int>(m_db.packets.size()));
        QCOMPARE(browser.shownParameterCount(), static_cast<int>(m_db.parameterCount()));
        QVERIFY(!browser.view()->isExpanded(shownIndex(browser, QStringLiteral("Packet5"))));
        QVERIFY(!browser.summaryText().contains(QStringLiteral("shown")));
    }

    // The selected parameters (a packet: all of those shown under it) are dragged as qualified names,
    // and a real value display built on the station adds them as rows when they are dropped on it.
    void dragIntoValueDisplay()
    {
        auto station = startStation(m_db);
        MissionBrowser browser;
        browser.setDatabase(&station->database());
        ui::ValueDisplay display(*station);
        display.resize(900, 400);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));

        QItemSelectionModel* selection = browser.view()->selectionModel();
        const auto select = [&](const char* name) {
            const QModelIndex index = shownIndex(browser, QString::fromLatin1(name));
            QVERIFY2(index.isValid(), name);
            selection->select(index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
        };
        // Selected out of definition order; Diag_Power stands for all of its parameters.
        select("Packet5.OPS_MODE");
        select("Diag_Power");
        select("Packet5.BUS_28V_VOLTAGE");
        QStringList expected;
        for (const auto& q : m_db.findPacket("Packet5")->parameters)
            if (q.name == "OPS_MODE" || q.name == "BUS_28V_VOLTAGE")
                expected << qs("Packet5." + q.name);
        for (const auto& q : m_db.findPacket("Diag_Power")->parameters)
            expected << qs("Diag_Power." + q.name);
        QCOMPARE(expected.size(), 2 + static_cast<int>(m_db.findPacket("Diag_Power")->parameters.size()));
        QCOMPARE(browser.selectedQualifiedNames(), expected);

        std::unique_ptr<QMimeData> mime(browser.filterModel()->mimeData(selection->selectedIndexes()));
        QVERIFY(mime);
        const QString mimeType = QString::fromLatin1(ValueTableModel::kParameterMimeType);
        QVERIFY(browser.filterModel()->mimeTypes().contains(mimeType));
        QCOMPARE(QString::fromUtf8(mime->data(mimeType)).split(QLatin1Char('\n')), expected);
        QCOMPARE(mime->text().split(QLatin1Char('\n')), expected);

        QVERIFY(dropOn(display.view()->viewport(), mime.get()));
        QCOMPARE(rowNames(*display.model()), expected);
        for (int r = 0; r < display.model()->rowCount(); ++r)
            QCOMPARE(display.model()->streamId(r), std::uint16_t{0});

        // Dropped again: nothing twice. With a filter on, a packet drags what is shown under it.
        QVERIFY(!dropOn(display.view()->viewport(), mime.get()));
        QCOMPARE(display.model()->rowCount(), expected.size());
        browser.setFilterText(QStringLiteral("_28V_"));
        selection->clearSelection();
        select("Packet5");
        QStringList filtered;
        for (const auto& q : m_db.findPacket("Packet5")->parameters)
            if (qs("Packet5." + q.name + '\n' + q.units + '\n' + q.description).contains(QStringLiteral("_28v_"), Qt::CaseInsensitive))
                filtered << qs("Packet5." + q.name);
        QVERIFY(filtered.size() >= 2 && filtered.size() < static_cast<int>(m_db.findPacket("Packet5")->parameters.size()));
        mime.reset(browser.filterModel()->mimeData(selection->selectedIndexes()));
        QVERIFY(mime);
        QCOMPARE(QString::fromUtf8(mime->data(mimeType)).split(QLatin1Char('\n')), filtered);
        QVERIFY(dropOn(display.view()->viewport(), mime.get()));
        QStringList all = expected;
        for (const QString& name : filtered)
            if (!all.contains(name))
                all << name;
        QCOMPARE(rowNames(*display.model()), all);
    }

    // Double click on a parameter activates it; on a packet it only expands; Enter activates the selection.
    void activation()
    {
        MissionBrowser browser;
        browser.setDatabase(&m_db);
        browser.resize(900, 600);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        QSignalSpy activated(&browser, &MissionBrowser::parametersActivated);
        QTreeView* view = browser.view();

        const QModelIndex packet = shownIndex(browser, QStringLiteral("HK_Status"));
        QVERIFY(!view->isExpanded(packet));
        doubleClick(view->viewport(), view->visualRect(packet).center());
        QVERIFY(view->isExpanded(packet));
        QCOMPARE(activated.count(), 0);

        const QModelIndex parameter = shownIndex(browser, QStringLiteral("HK_Status.OPS_MODE"));
        const QPoint at = view->visualRect(parameter).center();
        doubleClick(view->viewport(), at);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.takeFirst().at(0).toStringList(), QStringList{QStringLiteral("HK_Status.OPS_MODE")});

        // Enter on a selection of two.
        view->selectionModel()->select(view->model()->index(0, 0, packet),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Return);
        QCOMPARE(activated.count(), 1);
        const QStringList names = activated.takeFirst().at(0).toStringList();
        QCOMPARE(names, browser.selectedQualifiedNames());
        QCOMPARE(names.size(), 2);
        QVERIFY(names.contains(QStringLiteral("HK_Status.OPS_MODE")));
        QCOMPARE(names.front(), qs("HK_Status." + m_db.findPacket("HK_Status")->parameters.front().name));
    }

    // Two parse errors (an unknown keyword at line 3, a bad number at line 7): listed by line, the
    // cursor on the first; choosing the second in the table moves the cursor to line 7.
    void definitionFileParseErrors()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = writeFile(dir, QStringLiteral("errors.tdef"),
                                       "MISSION \"broken\"\n"
                                       "PACKET Alpha APID 10 LENGTH 16\n"
                                       "  COLOUR \"red\"\n"
                                       "  PARAMETER A 48 8 UINT\n"
                                       "  PARAMETER B 56 8 UINT\n"
                                       "    UNITS \"V\"\n"
                                       "    LIMITS 1 2 three 4\n"
                                       "  PARAMETER C 64 16 UINT\n");
        MissionBrowser browser;
        browser.setDatabase(&m_db);
        DefinitionFileDialog* dialog = browser.openDefinitionFile(path);
        QVERIFY(dialog);
        QCOMPARE(browser.definitionDialog(), dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(QTest::qWaitForWindowExposed(dialog));

        QVERIFY(dialog->hasErrors());
        QCOMPARE(dialog->diagnosticCount(), 2);
        QCOMPARE(dialog->diagnosticLines(), (QList<int>{3, 7}));
        QVERIFY(qs(dialog->diagnostic(0).message).contains(QStringLiteral("COLOUR")));
        QCOMPARE(dialog->errorCount(), 2);
        QVERIFY2(dialog->resultText().startsWith(QStringLiteral("2 errors")), qPrintable(dialog->resultText()));
        QVERIFY(dialog->browser()->isHidden()); // nothing to show from a file with errors

        // The table lists them; the text is the file's, line for line; the cursor is on the first error.
        QTableView* table = dialog->diagnosticsView();
        QCOMPARE(table->model()->rowCount(), 2);
        QCOMPARE(table->model()->index(1, 1).data().toInt(), 7);
        QCOMPARE(dialog->textView()->document()->blockCount(), 9);
        QCOMPARE(dialog->textView()->document()->findBlockByNumber(6).text(), QStringLiteral("    LIMITS 1 2 three 4"));
        QCOMPARE(dialog->currentLine(), 3);
        QCOMPARE(dialog->textView()->textCursor().positionInBlock(), dialog->diagnostic(0).where.column - 1);

        // A click on the second row: the cursor goes to line 7, at the column of the error.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(1, 3)).center());
        QCOMPARE(table->currentIndex().row(), 1);
        QCOMPARE(dialog->currentLine(), 7);
        QCOMPARE(dialog->textView()->textCursor().positionInBlock(), dialog->diagnostic(1).where.column - 1);
        QVERIFY(dialog->diagnostic(1).where.column > 1);
        // ...and both lines are highlighted, line 7 on top.
        const auto highlights = dialog->textView()->extraSelections();
        QCOMPARE(highlights.size(), 2);
        QCOMPARE(highlights.back().cursor.blockNumber(), 6);

        dialog->selectDiagnostic(0);
        QCOMPARE(dialog->currentLine(), 3);

        // Closing deletes it.
        QPointer<DefinitionFileDialog> guard(dialog);
        dialog->close();
        QTRY_VERIFY(guard.isNull());
        QVERIFY(!browser.definitionDialog());
    }

    // Validation errors (reported when the file parses): a duplicate parameter at line 7 and a field
    // past the end of the packet at line 9, each at its PARAMETER line.
    void definitionFileValidationErrors()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("invalid.tdef"),
                                       "# two definitions that cannot both be right\n"
                                       "PACKET Alpha APID 10 LENGTH 16\n"
                                       "  DESCRIPTION \"first packet\"\n"
                                       "  PARAMETER A 48 8 UINT\n"
                                       "  PARAMETER B 56 8 UINT\n"
                                       "    UNITS \"V\"\n"
                                       "  PARAMETER A 64 8 UINT\n"
                                       "PACKET Beta APID 11 LENGTH 8\n"
                                       "  PARAMETER WIDE 48 32 UINT\n");
        DefinitionFileDialog dialog;
        QVERIFY(!dialog.loadFile(path));
        QCOMPARE(dialog.diagnosticLines(), (QList<int>{7, 9}));
        QCOMPARE(dialog.errorCount(), 2);
        QVERIFY(qs(dialog.diagnostic(0).message).contains(QStringLiteral("A")));
        QCOMPARE(dialog.currentLine(), 7);
        dialog.selectDiagnostic(1);
        QCOMPARE(dialog.currentLine(), 9);
    }

    // A valid file: no errors, the counts, and its database in the tree. The training definition
    // file itself reads back as the compiled training database.
    void definitionFileValid()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("valid.tdef"),
                                       "MISSION \"small\"\n"
                                       "PACKET Alpha APID 10 LENGTH 16\n"
                                       "  PARAMETER A 48 8 UINT\n"
                                       "    UNITS \"V\"\n"
                                       "    POLY 0 0.5\n"
                                       "  PARAMETER B 56 8 UINT\n"
                                       "PACKET Beta APID 11 LENGTH 10\n"
                                       "  PARAMETER WORD 48 32 UINT\n"
                                       "    LIMITS 0 1 9 10\n");
        DefinitionFileDialog dialog;
        QVERIFY(dialog.loadFile(path));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(dialog.diagnosticCount(), 0);
        QVERIFY(!dialog.hasErrors());
        QVERIFY2(dialog.resultText().startsWith(QStringLiteral("No errors: 2 packet types and 3 parameters")),
                 qPrintable(dialog.resultText()));
        QVERIFY(dialog.diagnosticsView()->isHidden());
        MissionBrowser* tree = dialog.browser();
        QVERIFY(tree->isVisible());
        QVERIFY(!tree->findChild<QToolButton*>(QStringLiteral("openDefinitionButton"))->isVisible());
        QCOMPARE(tree->model()->rowCount(), 2);
        QCOMPARE(tree->model()->index(0, 0).data().toString(), QStringLiteral("Alpha"));
        QCOMPARE(tree->model()->rowCount(tree->model()->index(0, 0)), 2);
        QCOMPARE(tree->model()->rowCount(tree->model()->index(1, 0)), 1);
        QCOMPARE(tree->model()->indexOf(QStringLiteral("Alpha.A")).siblingAtColumn(MissionTreeModel::Calibration)
                     .data().toString(),
                 QStringLiteral("0.5\u00b7x"));
        QVERIFY(tree->summaryText().startsWith(QStringLiteral("small")));

        // Broken on disk and reloaded: the errors, and no tree; fixed again: the tree is back.
        writeFile(dir, QStringLiteral("valid.tdef"), "PACKET Alpha APID 4000 LENGTH 16\n  PARAMETER A 48 8 UINT\n");
        dialog.findChild<QPushButton*>(QStringLiteral("reloadButton"))->click();
        QVERIFY(dialog.hasErrors());
        QCOMPARE(dialog.diagnosticLines(), QList<int>{1});
        QVERIFY(tree->isHidden());
        QCOMPARE(tree->model()->rowCount(), 0);
        writeFile(dir, QStringLiteral("valid.tdef"), "PACKET Alpha APID 12 LENGTH 16\n  PARAMETER A 48 8 UINT\n");
        QVERIFY(dialog.reload());
        QVERIFY(tree->isVisible());
        QCOMPARE(tree->model()->rowCount(), 1);

        // A warning only (a packet without parameters): usable, the warning listed.
        writeFile(dir, QStringLiteral("valid.tdef"), "PACKET Alpha APID 12 LENGTH 16\n");
        QVERIFY(dialog.reload());
        QCOMPARE(dialog.diagnosticCount(), 1);
        QCOMPARE(dialog.warningCount(), 1);
        QVERIFY2(dialog.resultText().contains(QStringLiteral("1 warning")), qPrintable(dialog.resultText()));
        QVERIFY(tree->isVisible());

        DefinitionFileDialog training;
        QVERIFY(training.loadFile(QString::fromStdString(test::trainingDefinitionPath())));
        QCOMPARE(training.errorCount(), 0);
        QVERIFY(training.database() == m_db);
        QCOMPARE(training.browser()->model()->rowCount(), static_cast<int>(m_db.packets.size()));
    }

    // A real mission's XTCE file (IDEX): the dialog imports it, lists what is not imported as warnings
    // at their lines, and the browser shows the packets with their criteria, the fields the data
    // sizes, and finds parameters by alias and path.
    void definitionFileXtce()
    {
        DefinitionFileDialog dialog;
        QVERIFY(dialog.loadFile(QString::fromStdString(test::referenceDataDir() + "/missions/idex/idex_combined_science_definition.xml")));
        QCOMPARE(dialog.errorCount(), 0);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        MissionBrowser* tree = dialog.browser();
        QVERIFY(tree->isVisible());
        QCOMPARE(tree->model()->rowCount(), 5);
        const QModelIndex nonZero = tree->model()->indexOf(QStringLiteral("Sci0TypeNonZero"));
        QVERIFY(nonZero.isValid());
        QVERIFY2(nonZero.siblingAtColumn(MissionTreeModel::Apid).data().toString().startsWith(QStringLiteral("1424 (")),
                 qPrintable(nonZero.siblingAtColumn(MissionTreeModel::Apid).data().toString()));
        QVERIFY(nonZero.siblingAtColumn(MissionTreeModel::Apid).data().toString().contains(QStringLiteral("> 1")));
        const QModelIndex raw = tree->model()->indexOf(QStringLiteral("Sci0TypeNonZero.IDX__SCI0RAW"));
        QVERIFY(raw.isValid());
        QCOMPARE(raw.siblingAtColumn(MissionTreeModel::BitLength).data().toString(),
                 QStringLiteral("8\u00b7PKT_LEN \u2212 328"));
        QVERIFY(raw.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Path: /IDEX/IDX__SCI0RAW")));

        // Paths are searched: SHCOARSE is in every packet.
        tree->setFilterText(QStringLiteral("/IDEX/SHCOARSE"));
        QCOMPARE(tree->shownParameterCount(), 5);

        // Aliases are kept and searched (IDEX's aliases repeat its names: a small file of our own).
        const QByteArray xtce =
            "<SpaceSystem name='Demo' xmlns='http://www.omg.org/spec/XTCE/20180204'>\n"
            " <TelemetryMetaData>\n"
            "  <ParameterTypeSet>\n"
            "   <IntegerParameterType name='U5'><IntegerDataEncoding sizeInBits='5'/></IntegerParameterType>\n"
            "   <IntegerParameterType name='U11'><IntegerDataEncoding sizeInBits='11'/></IntegerParameterType>\n"
            "   <IntegerParameterType name='U32'><IntegerDataEncoding sizeInBits='32'/></IntegerParameterType>\n"
            "   <FloatParameterType name='Volts'><UnitSet><Unit>V</Unit></UnitSet><IntegerDataEncoding sizeInBits='16'/></FloatParameterType>\n"
            "  </ParameterTypeSet>\n"
            "  <ParameterSet>\n"
            "   <Parameter name='HDR' parameterTypeRef='U5'/>\n"
            "   <Parameter name='APID' parameterTypeRef='U11'/>\n"
            "   <Parameter name='REST' parameterTypeRef='U32'/>\n"
            "   <Parameter name='EPS_VOLTAGE' parameterTypeRef='Volts'><AliasSet><Alias nameSpace='ops' alias='BATT_V'/></AliasSet></Parameter>\n"
            "  </ParameterSet>\n"
            "  <ContainerSet>\n"
            "   <SequenceContainer name='Header' abstract='true'>\n"
            "    <EntryList><ParameterRefEntry parameterRef='HDR'/><ParameterRefEntry parameterRef='APID'/><ParameterRefEntry parameterRef='REST'/></EntryList>\n"
            "   </SequenceContainer>\n"
            "   <SequenceContainer name='Power'>\n"
            "    <EntryList><ParameterRefEntry parameterRef='EPS_VOLTAGE'/></EntryList>\n"
            "    <BaseContainer containerRef='Header'><RestrictionCriteria><Comparison parameterRef='APID' value='42'/></RestrictionCriteria></BaseContainer>\n"
            "   </SequenceContainer>\n"
            "  </ContainerSet>\n"
            " </TelemetryMetaData>\n"
            "</SpaceSystem>\n";
        DefinitionFileDialog demo;
        QVERIFY(demo.setDefinition(xtce, QStringLiteral("demo.xml")));
        QCOMPARE(demo.database().packets.size(), std::size_t{1});
        QCOMPARE(demo.database().packets[0].apid, std::uint16_t{42});
        demo.browser()->setFilterText(QStringLiteral("batt_v"));
        QCOMPARE(demo.browser()->shownParameterCount(), 1);
        QVERIFY(shownIndex(*demo.browser(), QStringLiteral("Power.EPS_VOLTAGE")).isValid());
        QVERIFY(demo.browser()->model()->indexOf(QStringLiteral("Power.EPS_VOLTAGE")).data(Qt::ToolTipRole).toString()
                    .contains(QStringLiteral("ops:BATT_V")));
    }

    // A missing file, a directory, a compiled database: one error each, naming the path.
    void definitionFileUnreadable()
    {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("missing.tdef"));
        for (const QString& path : {missing, dir.path(), QString::fromStdString(test::trainingDatabasePath())}) {
            DefinitionFileDialog dialog;
            QVERIFY(!dialog.loadFile(path));
            QCOMPARE(dialog.diagnosticCount(), 1);
            QCOMPARE(dialog.errorCount(), 1);
            QVERIFY2(qs(dialog.diagnostic(0).message).contains(path), dialog.diagnostic(0).message.c_str());
            QCOMPARE(dialog.diagnosticLines(), QList<int>{0});
            QCOMPARE(dialog.resultText(), QStringLiteral("The file could not be read."));
            QVERIFY(dialog.browser()->isHidden());
            QCOMPARE(dialog.diagnosticsView()->model()->index(0, 3).data().toString(), qs(dialog.diagnostic(0).message));
        }
        DefinitionFileDialog dialog;
        QVERIFY(!dialog.loadFile(QString::fromStdString(test::trainingDatabasePath())));
        QVERIFY(qs(dialog.diagnostic(0).message).contains(QStringLiteral("SQLite")));
    }

    void screenshots()
    {
        auto station = startStation(m_db);
        MissionBrowser browser;
        browser.setDatabase(&station->database(), QString::fromStdString(test::trainingDatabasePath()));
        browser.resize(1300, 520);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        browser.view()->expand(shownIndex(browser, QStringLiteral("Packet5")));
        browser.view()->selectionModel()->select(shownIndex(browser, QStringLiteral("Packet5.OPS_MODE")),
                                                 QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QVERIFY(browser.grab().save(QStringLiteral("/tmp/h-mdb-browser.png")));
        browser.setFilterText(QStringLiteral("temp"));
        QVERIFY(browser.grab().save(QStringLiteral("/tmp/h-mdb-browser-filter.png")));

        QTemporaryDir dir;
        QFile training(QString::fromStdString(test::trainingDefinitionPath()));
        QVERIFY(training.open(QIODevice::ReadOnly));
        QByteArray text = training.readAll();
        // Two mistakes an operator makes: a misspelt keyword, and limits out of order.
        text.replace("    UNITS \"V\"", "    UNIT \"V\"");
        text.replace("PARAMETER OPS_MODE 97 4 UINT", "PARAMETER OPS_MODE 97 4 UNIT");
        const QString path = writeFile(dir, QStringLiteral("training-edited.tdef"), text);
        DefinitionFileDialog* dialog = browser.openDefinitionFile(path);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QVERIFY(dialog->diagnosticCount() >= 2);
        dialog->selectDiagnostic(1);
        QVERIFY(dialog->grab().save(QStringLiteral("/tmp/h-mdb-dialog-errors.png")));
        dialog->close();

        dialog = browser.openDefinitionFile(QString::fromStdString(test::trainingDefinitionPath()));
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        dialog->browser()->view()->expand(dialog->browser()->filterModel()->index(1, 0));
        QVERIFY(dialog->grab().save(QStringLiteral("/tmp/h-mdb-dialog-valid.png")));
    }
};

QTEST_MAIN(TestMissionBrowser)
#include "tst_ui_mission_browser.moc"
