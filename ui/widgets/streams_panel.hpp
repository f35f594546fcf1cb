// The streams panel: a table of the session's streams (StreamsModel: state, rates, loss, playback
// progress, source) with a toolbar — Add…, Edit…, Remove, Start, Stop. It shows the session's
// snapshot of each tick (once a second) while visible, and the latest one at once when shown.
//
// Add… and Edit… apply the operator's stream from inside the dialog (by default the session's live
// addStream / replaceStream; the other streams keep running): a refusal — a port in use, a host that
// does not resolve — is shown in the dialog, which stays open. Remove, Start and Stop emit a request
// (the main window hands it to the session) and the next refresh shows the result.
#pragma once

#include "core/config/station_profile.hpp"
#include "ui/session/snapshot_feed.hpp"

#include <QMetaType>
#include <QString>
#include <QWidget>

#include <functional>

class QAction;
class QTableView;
class QToolBar;

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

class StationSession;
class StreamsModel;

class StreamsPanel : public QWidget {
    Q_OBJECT

public:
    // What Add… and Edit… do with the stream the operator entered: false with the reason when refused.
    using AddStream = std::function<bool(const config::StreamProfile& stream, QString* error)>;
    using ReplaceStream = std::function<bool(const QString& oldName, const config::StreamProfile& stream, QString* error)>;

    explicit StreamsPanel(StationSession& session, QWidget* parent = nullptr);
    ~StreamsPanel() override;

    // Replaces the session's addStream / replaceStream (tests that only look at what the dialog composed).
    void setStreamChanges(AddStream add, ReplaceStream replace);

    // nullptr: no station (none yet, or being rebuilt). The stream selected last is selected again when
    // a later station has it (else the first stream).
    void setStation(pipeline::Station* station);
    // Remove asks for confirmation first unless this is off (tests).
    void setConfirmRemoval(bool confirm) { m_confirmRemoval = confirm; }

    [[nodiscard]] QString currentStream() const { return m_current; }
    void setCurrentStream(const QString& name);

    // Shows the session's latest snapshot again (each tick does this while the panel is visible).
    void refresh();

    [[nodiscard]] StreamsModel* model() const noexcept { return m_model; }
    // The feed's snapshot the panel shows now (nullptr before the first).
    [[nodiscard]] SharedSnapshot feedSnapshot() const;
    [[nodiscard]] QTableView* view() const noexcept { return m_view; }
    [[nodiscard]] QToolBar* toolBar() const noexcept { return m_toolBar; }
    [[nodiscard]] QAction* addStreamAction() const noexcept { return m_add; }
    [[nodiscard]] QAction* editStreamAction() const noexcept { return m_edit; }
    [[nodiscard]] QAction* removeStreamAction() const noexcept { return m_remove; }
    [[nodiscard]] QAction* startStreamAction() const noexcept { return m_start; }
    [[nodiscard]] QAction* stopStreamAction() const noexcept { return m_stop; }

public Q_SLOTS:
    void addStream();
    void editStream();
    void removeStream();
    void startStream();
    void stopStream();

Q_SIGNALS:
    void currentStreamChanged(const QString& name);
    void removeStreamRequested(const QString& name);
    void startStreamRequested(const QString& name);
    void stopStreamRequested(const QString& name);

private:
    void showSnapshot(const SharedSnapshot& snapshot);
    void sizeColumns();
    void onCurrentRowChanged();
    void selectByName(const QString& name);
    void updateActions();
    [[nodiscard]] int currentRow() const;
    [[nodiscard]] QString newStreamName() const;
    [[nodiscard]] bool stationOpensSources() const;

    StreamsModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QToolBar* m_toolBar = nullptr;
    QAction* m_add = nullptr;
    QAction* m_edit = nullptr;
    QAction* m_remove = nullptr;
    QAction* m_start = nullptr;
    QAction* m_stop = nullptr;
    StationSession& m_session;
    AddStream m_addStream;
    ReplaceStream m_replaceStream;
    QString m_current;
    // The stream last selected: selected again when a rebuilt station (even after none) has it.
    QString m_chosen;
    bool m_confirmRemoval = true;
    bool m_sized = false;
};

} // namespace telestation::ui

Q_DECLARE_METATYPE(telestation::config::StreamProfile)
