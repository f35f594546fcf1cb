// Export… of the recordings browser: what to decode to CSV and where.
//
// - Records: the segments the browser has selected (all of the directory's when none is), and an
//   optional receive-time range in the browser's convention ("Only from … to": UTC, to the ms,
//   inclusive); it starts as the browser's range when that is on, else as the segments' own span.
// - Parameters: the mission tree with a check box on every parameter and packet (a packet's box: all
//   of its parameters), a filter over names, units and descriptions, "Check shown" (every parameter
//   the filter shows) and "Uncheck all".
// - Layout: Long (one row per sample: archive::OutputFormat::Csv) or Wide (one row per time, a column
//   per parameter: AlignedCsv).
// - Output file: typed, or Choose… (a save dialog starting where FileDialogFolder says, purpose
//   kRecordingExports). A file already there is replaced only once the export has succeeded (the note
//   under the field says so); an input (a file of the recording, the mission database) is refused.
//
// OK ("Export") is refused with the reason beside it while the choice cannot run — no parameter, a
// range that ends before it starts, no output file, a relative path, a folder that does not exist, an
// input. The dialog starts nothing: request() is what the caller hands to RecordingExport.
#pragma once

#include "core/mdb/model.hpp"
#include "core/record/recording_catalog.hpp"
#include "ui/dialogs/utc_time_range.hpp"
#include "ui/session/recording_export.hpp"

#include <QDateTime>
#include <QDialog>
#include <QString>

#include <vector>

class QCheckBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSortFilterProxyModel;
class QTreeView;

namespace telestation::ui {

class MissionTreeModel;
class ParameterChoiceModel;

class RecordingExportDialog : public QDialog {
    Q_OBJECT

public:
    struct Recording {
        QString directory;
        std::vector<record::SegmentInfo> segments; // the segments exported
        bool selected = false;                     // chosen by the operator (else: all of the directory's)
    };

    // `db` must outlive the dialog.
    RecordingExportDialog(const mdb::MissionDatabase& db, Recording recording, QWidget* parent = nullptr);
    ~RecordingExportDialog() override;

    // The browser's range, when it is on (else the segments' span is offered, off).
    void setRange(const QDateTime& from, const QDateTime& to);
    // The mission database's file, which the export must not overwrite.
    void setDatabasePath(const QString& path);
    // A previous request's parameters, layout and output file (the browser keeps the last one).
    void setChoices(const RecordingExportRequest& previous);

    // What OK starts; problem() says whether it can run.
    [[nodiscard]] RecordingExportRequest request() const;
    // Why OK is refused now ("" when it is not).
    [[nodiscard]] QString problem() const;
    // The line beside OK (shown once OK has been pressed).
    [[nodiscard]] QString shownProblem() const;

    [[nodiscard]] QLineEdit* filterEdit() const noexcept { return m_filter; }
    [[nodiscard]] QTreeView* parameterView() const noexcept { return m_view; }
    [[nodiscard]] ParameterChoiceModel* choiceModel() const noexcept { return m_choice; }
    [[nodiscard]] QSortFilterProxyModel* filterModel() const noexcept { return m_filterModel; }
    [[nodiscard]] QPushButton* checkShownButton() const noexcept { return m_checkShown; }
    [[nodiscard]] QRadioButton* longButton() const noexcept { return m_long; }
    [[nodiscard]] QRadioButton* wideButton() const noexcept { return m_wide; }
    [[nodiscard]] QCheckBox* rangeCheck() const noexcept { return m_range->check(); }
    [[nodiscard]] QDateTimeEdit* fromEdit() const noexcept { return m_range->from(); }
    [[nodiscard]] QDateTimeEdit* toEdit() const noexcept { return m_range->to(); }
    [[nodiscard]] QLineEdit* outputEdit() const noexcept { return m_output; }
    [[nodiscard]] QPushButton* okButton() const noexcept { return m_ok; }

public Q_SLOTS:
    void accept() override; // refused, with the reason, while problem() says why
    void chooseOutput();

private:
    void validate();
    void checkShown();
    [[nodiscard]] QString defaultFileName() const;

    Recording m_recording;
    QString m_databasePath;
    bool m_tried = false; // OK was pressed: the reason is shown from then on

    MissionTreeModel* m_tree = nullptr;
    ParameterChoiceModel* m_choice = nullptr;
    QSortFilterProxyModel* m_filterModel = nullptr;
    QLineEdit* m_filter = nullptr;
    QTreeView* m_view = nullptr;
    QPushButton* m_checkShown = nullptr;
    QLabel* m_chosen = nullptr;
    UtcTimeRange* m_range = nullptr;
    QRadioButton* m_long = nullptr;
    QRadioButton* m_wide = nullptr;
    QLineEdit* m_output = nullptr;
    QLabel* m_outputNote = nullptr;
    QLabel* m_reason = nullptr;
    QPushButton* m_ok = nullptr;
};

} // namespace telestation::ui
