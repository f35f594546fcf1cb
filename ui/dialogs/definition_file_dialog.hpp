// The result of checking a text definition file (*.tdef, docs/mission-database.md): its errors and
// warnings in a table sorted by line, beside the file's text with line numbers; choosing a diagnostic
// scrolls to its line and highlights it. A file without errors is said to be usable, with the counts
// of what it defines, and its database is shown in a mission browser tree (warnings, if any, are
// still listed). An unreadable file is one error naming the path.
//
// Checking parses and validates (mdb::parseText, or the XTCE import for an XML file) and changes
// nothing: the station's database stays as it is. Reload reads the file again, for the operator fixing
// it in an editor. "Use this mission" (offered when the caller gave a way to use one and the file has
// no error) hands the file to the caller (the workstation: StationSession::useMission, which loads it —
// XTCE imported, .tdef compiled — and opens the station on it); the dialog closes when it is in use and
// stays open with the reason when it is refused.
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/mdb/text_format.hpp"

#include <QByteArray>
#include <QDialog>
#include <QList>
#include <QString>

#include <functional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTableView;

namespace telestation::ui {

class MissionBrowser;

class DefinitionFileDialog : public QDialog {
    Q_OBJECT

public:
    // Makes the mission at `path` the station's; false with the reason when it cannot.
    using UseMission = std::function<bool(const QString& path, QString* error)>;

    explicit DefinitionFileDialog(QWidget* parent = nullptr);
    ~DefinitionFileDialog() override;

    // Offers "Use this mission" for a file without errors (none: not offered).
    void setUseMission(UseMission use);
    [[nodiscard]] bool canUseMission() const;
    // Uses the file (as the button does): true when it is in use (the dialog closes).
    bool useMission();
    // Why the last useMission() was refused ("" when it was not).
    [[nodiscard]] QString useMissionError() const { return m_useError; }

    // Reads and checks `path`. True when the file was read and has no error (warnings allowed).
    bool loadFile(const QString& path);
    // Checks `content` as the text of `fileName` (which is only shown). True when it has no error.
    bool setDefinition(const QByteArray& content, const QString& fileName);
    // Reads the file of the last loadFile() again.
    bool reload();

    [[nodiscard]] QString fileName() const { return m_fileName; }
    [[nodiscard]] bool hasErrors() const { return telestation::hasErrors(m_result.diagnostics); }
    [[nodiscard]] int errorCount() const;
    [[nodiscard]] int warningCount() const;
    // The diagnostics in the order listed (by line, then column).
    [[nodiscard]] int diagnosticCount() const { return static_cast<int>(m_result.diagnostics.size()); }
    [[nodiscard]] const Diagnostic& diagnostic(int row) const { return m_result.diagnostics.at(static_cast<std::size_t>(row)); }
    [[nodiscard]] QList<int> diagnosticLines() const;
    // What was read: meaningful when there is no error.
    [[nodiscard]] const mdb::MissionDatabase& database() const noexcept { return m_result.database; }

    // Makes `row` the current diagnostic, as a click in the table does.
    void selectDiagnostic(int row);
    // The 1-based line of the text cursor.
    [[nodiscard]] int currentLine() const;
    // The sentence above the table ("2 errors, 1 warning …" / "No errors: …").
    [[nodiscard]] QString resultText() const;

    [[nodiscard]] QTableView* diagnosticsView() const noexcept { return m_table; }
    [[nodiscard]] QPlainTextEdit* textView() const noexcept;
    [[nodiscard]] MissionBrowser* browser() const noexcept { return m_browser; }

private:
    void showResult(const QString& text);
    void updateUseButton();
    void goToDiagnostic(int row);
    void highlightLines(int currentRow);

    class DiagnosticsModel;
    class NumberedTextEdit;

    QString m_path; // the file loadFile() read; empty for setDefinition()
    QString m_fileName;
    mdb::ImportResult m_result;
    bool m_readFailed = false; // the file could not be read: its one error says why

    QLabel* m_fileLabel = nullptr;
    QLabel* m_icon = nullptr;
    QLabel* m_resultLabel = nullptr;
    DiagnosticsModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    NumberedTextEdit* m_text = nullptr;
    MissionBrowser* m_browser = nullptr;
    QSplitter* m_split = nullptr;
    QPushButton* m_reloadButton = nullptr;
    QPushButton* m_useButton = nullptr;
    QLabel* m_useErrorLabel = nullptr;
    UseMission m_useMission;
    QString m_useError;
};

} // namespace telestation::ui
