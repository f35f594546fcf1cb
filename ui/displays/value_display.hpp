// The value display: a table of chosen parameters with their newest raw, converted and calibrated
// values, units, limit state, packet time and age (ui/models/value_table_model.hpp). Parameters are
// added by qualified name (with completion over the whole mission database) for the stream chosen in
// the combo, or dropped from a parameter browser; selected rows are removed with the button or Delete.
//
// A row's context menu: "Show alarm" (when its parameter has an alarm listed) and "Edit limits…",
// asked of the main window (showAlarmRequested, editLimitsRequested), which owns the alarm list and the
// session the limits change through.
//
// Polls the engine at 10 Hz while visible only: a hidden display (another tab, a minimised window)
// reads nothing. Raw format (hex/decimal) and the stale timeout are kept in QSettings.
#pragma once

#include <QString>
#include <QWidget>

class QCompleter;
class QLabel;
class QMenu;
class QTableView;
class QToolButton;

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

class ParameterNameEdit;
class PhasedTimer;
class StreamChooser;
class ValueTableModel;

class ValueDisplay : public QWidget {
    Q_OBJECT

public:
    static constexpr int kRefreshHz = 10;

    explicit ValueDisplay(pipeline::Station& station, QWidget* parent = nullptr);
    ~ValueDisplay() override;

    [[nodiscard]] ValueTableModel* model() const noexcept { return m_model; }
    [[nodiscard]] pipeline::Station& station() const noexcept { return m_station; }
    [[nodiscard]] QTableView* view() const noexcept { return m_view; }
    [[nodiscard]] QCompleter* completer() const;
    [[nodiscard]] StreamChooser* streamChooser() const noexcept { return m_streamCombo; }
    // The stream parameters are added for (the combo's choice, kept by name in the display's spec).
    [[nodiscard]] QString addStream() const;
    bool setAddStream(const QString& name);

    // Adds a parameter of the stream chosen in the combo; false (the reason shown in the display) when
    // it is not a parameter or already shown.
    bool addParameter(const QString& qualifiedName);
    void removeSelected();
    // Hex or decimal raw values; remembered in the settings.
    void setRawHex(bool hex);
    [[nodiscard]] bool isRawHex() const noexcept;
    // Seconds without a new value after which a row turns grey; remembered in the settings.
    void setStaleTimeout(double seconds);

    // The context menu of a row (the caller owns it): Show alarm, Edit limits…, Remove selected.
    [[nodiscard]] QMenu* rowMenu(int row, QWidget* parent);
    // A row's stream and qualified parameter name.
    [[nodiscard]] QString rowStream(int row) const;
    [[nodiscard]] QString rowParameter(int row) const;

    [[nodiscard]] bool isRefreshActive() const;
    // Duration of the last refresh (reading and signalling, not painting), ms.
    [[nodiscard]] double lastRefreshMs() const noexcept { return m_lastRefreshMs; }

public Q_SLOTS:
    // What the timer does.
    void refresh();
    // Streams were added, changed or removed: the stream selector lists them again (choice kept).
    void refreshStreams();

Q_SIGNALS:
    // The operator wants the alarm of a row's parameter selected in the alarm list.
    void showAlarmRequested(const QString& stream, const QString& parameter);
    // The operator wants to edit a parameter's limits.
    void editLimitsRequested(const QString& parameter);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void addFromEdit();
    void showMessage(const QString& text);

    pipeline::Station& m_station;
    ValueTableModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    StreamChooser* m_streamCombo = nullptr;
    ParameterNameEdit* m_nameEdit = nullptr;
    QToolButton* m_addButton = nullptr;
    QToolButton* m_removeButton = nullptr;
    QToolButton* m_hexButton = nullptr;
    QLabel* m_messageLabel = nullptr;
    PhasedTimer* m_timer = nullptr;
    double m_lastRefreshMs = 0;
};

} // namespace telestation::ui
