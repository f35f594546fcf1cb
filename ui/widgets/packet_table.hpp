// The packet table of one stream: every packet type of the mission database and the unknown packets,
// with the processing mode (a combo box in place: double-click, F2, or click a selected cell), record
// (a check box), forward destinations (ForwardEditorDialog: double-click the cell or Forward…) and the
// live counts. Changes apply at once through the session (PacketSettingsModel); a refused change
// shows the engine's reason above the table and the cell keeps its value. Counts are the session's
// snapshot of each tick (once a second) while visible, and the latest one at once when shown.
#pragma once

#include "ui/session/snapshot_feed.hpp"

#include <QStyledItemDelegate>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

class PacketSettingsModel;
class StationSession;

// The mode column's editor: a combo box of the modes the row may take (kModeChoicesRole); picking an
// item commits it.
class ProcessingModeDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
    void updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

class PacketTable : public QWidget {
    Q_OBJECT

public:
    explicit PacketTable(StationSession& session, QWidget* parent = nullptr);
    ~PacketTable() override;

    void setStation(pipeline::Station* station);
    void setStream(const QString& stream);
    [[nodiscard]] QString stream() const;

    // Reads the settings again and shows the session's latest snapshot (each tick does this while
    // the table is visible).
    void refresh();
    // The feed's snapshot the counts are from (nullptr before the first).
    [[nodiscard]] SharedSnapshot feedSnapshot() const;

    // Opens the forward destinations of a row; returns whether they were changed.
    bool editForward(int row);

    [[nodiscard]] PacketSettingsModel* model() const noexcept { return m_model; }
    [[nodiscard]] QTableView* view() const noexcept { return m_view; }
    // The last refused change's reason ("" when the last change went through or the message was closed).
    [[nodiscard]] QString message() const;

Q_SIGNALS:
    // A setting of `stream` was changed through the session (which marked the profile unsaved).
    void settingsChanged(const QString& stream);

private:
    void showSnapshot(const SharedSnapshot& snapshot);
    void showMessage(const QString& text);
    void updateTitle();
    void updateButtons();

    PacketSettingsModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_closeMessage = nullptr;
    QWidget* m_messageBar = nullptr;
    QPushButton* m_forward = nullptr;
    StationSession& m_session;
    bool m_sized = false;
};

} // namespace telestation::ui
