// Displays as the main window hosts them: each in a dock (so that it can be tabbed, split, floated onto
// another screen, and its place kept by QMainWindow::saveState), described by a JSON spec so that it can
// be saved in a display file or the settings, and rebuilt when the station is rebuilt.
//
// Specs (the "type" key decides):
//   {"type":"values","title":T,"rawHex":true,"stream":S,"rows":[{"stream":S,"parameter":"PACKET.PARAM"}]}
//   {"type":"plot","title":T,"window":SECONDS,"stream":S,"plots":[{"title":T,"curves":[{"stream","parameter","color","axis"}]}]}
// (a values or plot display's top "stream": the stream its combo has chosen, kept across station
// rebuilds by name).
//   {"type":"packet","title":T,"stream":S,"packet":P}
// A display file: {"format":"telestation-displays","version":1,"displays":[spec, ...]}.
#pragma once

#include <QDockWidget>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

class QLabel;

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

class SnapshotFeed;

// Builds the display a spec describes (a packet view counts from `snapshots`); nullptr (and why in
// `error`) for an unknown type. Parts that no longer resolve (a parameter renamed in the mission
// database) are skipped and listed in `problems`.
[[nodiscard]] QWidget* createDisplay(pipeline::Station& station, SnapshotFeed& snapshots, const QJsonObject& spec,
                                     QWidget* parent, QStringList* problems, QString* error);
// The spec of a display createDisplay() made (with its current contents); empty for anything else.
[[nodiscard]] QJsonObject displaySpec(const QWidget* display);

inline constexpr const char* kDisplayFileFormat = "telestation-displays";
[[nodiscard]] bool saveDisplayFile(const QString& path, const QList<QJsonObject>& specs, QString* error);
// Every problem named (not JSON, wrong format, a display without a known type).
[[nodiscard]] std::optional<QList<QJsonObject>> loadDisplayFile(const QString& path, QString* error);

class DisplayDock : public QDockWidget {
    Q_OBJECT

public:
    // Builds the display from `spec` on `station` (nullptr: a placeholder until attach()).
    DisplayDock(const QJsonObject& spec, pipeline::Station* station, SnapshotFeed& snapshots, QWidget* parent = nullptr);

    [[nodiscard]] QJsonObject spec() const;
    [[nodiscard]] QString title() const;
    [[nodiscard]] QWidget* display() const noexcept { return m_display; }
    // The station goes away: keep the spec, drop the display (and with it every subscription).
    void detach();
    // Rebuild the display on a (new) station.
    void attach(pipeline::Station* station);
    // Streams were added, changed or removed on the same station: the display's stream selector lists
    // them again, keeping its choice (its subscriptions and history stay).
    void refreshStreams();
    [[nodiscard]] QStringList problems() const { return m_problems; }

Q_SIGNALS:
    void closed(telestation::ui::DisplayDock* dock);
    // A value display's row menu, passed on (the display is rebuilt with the station; the dock stays).
    void showAlarmRequested(const QString& stream, const QString& parameter);
    void editLimitsRequested(const QString& parameter);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    QJsonObject m_spec;
    SnapshotFeed& m_snapshots;
    QWidget* m_display = nullptr;
    QLabel* m_placeholder = nullptr;
    QStringList m_problems;
};

} // namespace telestation::ui
