// The mission database browser: every packet type and parameter of the loaded mission database in a
// tree (ui/models/mission_tree_model.hpp), a filter over names, units and descriptions, and a summary
// line. Parameters are dragged from it into value displays and plots (a packet drags all of its
// parameters); double click or Enter asks for them to be shown (parametersActivated).
//
// A parameter's context menu offers "Edit limits…" (editLimitsRequested: the main window opens the
// dialog on the running station), unless the browser shows a file's result (setLimitsEditable(false)).
//
// "Open definition file…" checks a definition file (*.tdef, XTCE *.xml) without loading it into the
// station: DefinitionFileDialog lists its errors and warnings by line, or shows what it defines and —
// when the browser was given a way (setUseMission) — offers "Use this mission".
//
// The browser reads a database it does not own and polls nothing: it has no timer.
#pragma once

#include "core/mdb/model.hpp"
#include "ui/dialogs/definition_file_dialog.hpp"

#include <QPointer>
#include <QString>
#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QToolButton;
class QTreeView;

namespace telestation::ui {

class DefinitionFileDialog;
class MissionTreeModel;

class MissionBrowser : public QWidget {
    Q_OBJECT

public:
    explicit MissionBrowser(QWidget* parent = nullptr);
    ~MissionBrowser() override;

    // nullptr clears. `db` must stay valid until the next call (the main window passes
    // &station->database() and calls again before the station goes away). `source` (a file path, or
    // empty) is shown in the summary's tool tip.
    void setDatabase(const mdb::MissionDatabase* db, const QString& source = {});
    [[nodiscard]] const mdb::MissionDatabase* database() const noexcept;

    // Case-insensitive substring over qualified names, units and descriptions (and packet names and
    // descriptions: a matching packet shows all of its parameters).
    void setFilterText(const QString& text);
    [[nodiscard]] QString filterText() const;
    // Parameters that pass the filter.
    [[nodiscard]] int shownParameterCount() const;

    // The qualified names of the selected parameters, and of every parameter of a selected packet.
    [[nodiscard]] QStringList selectedQualifiedNames() const;

    // "Open definition file…" is hidden where the browser shows a file's result itself.
    void setDefinitionFileButtonVisible(bool visible);

    // What the definition file dialogs it opens offer as "Use this mission" (none: not offered).
    void setUseMission(DefinitionFileDialog::UseMission use) { m_useMission = std::move(use); }

    // Whether a parameter's context menu offers "Edit limits…" (default: yes).
    void setLimitsEditable(bool editable) noexcept { m_limitsEditable = editable; }
    // The context menu of a row (the caller owns it); nullptr where there is nothing to offer.
    [[nodiscard]] QMenu* contextMenu(const QModelIndex& viewIndex, QWidget* parent);

    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] MissionTreeModel* model() const noexcept { return m_model; }
    [[nodiscard]] QSortFilterProxyModel* filterModel() const noexcept { return m_filter; }
    [[nodiscard]] QTreeView* view() const noexcept { return m_view; }
    // The dialog the last openDefinitionFile() opened, while it is open.
    [[nodiscard]] DefinitionFileDialog* definitionDialog() const { return m_dialog; }

public Q_SLOTS:
    // Reads and checks a definition file and shows the result in a (non-modal) DefinitionFileDialog,
    // which is returned; it deletes itself when closed. An unreadable file is shown as one error.
    DefinitionFileDialog* openDefinitionFile(const QString& path);

Q_SIGNALS:
    // Double click on a parameter, or Enter on the selection: the operator wants these shown.
    void parametersActivated(const QStringList& qualifiedNames);
    // "Edit limits…" on a parameter.
    void editLimitsRequested(const QString& qualifiedName);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void chooseDefinitionFile();
    void applyFilter(const QString& text);
    void updateSummary();

    MissionTreeModel* m_model = nullptr;
    QSortFilterProxyModel* m_filter = nullptr;
    QTreeView* m_view = nullptr;
    QLineEdit* m_filterEdit = nullptr;
    QToolButton* m_openButton = nullptr;
    QLabel* m_summary = nullptr;
    QString m_source;
    QPointer<DefinitionFileDialog> m_dialog;
    DefinitionFileDialog::UseMission m_useMission;
    bool m_limitsEditable = true;
};

} // namespace telestation::ui
