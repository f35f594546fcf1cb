// The workstation's session: the station profile being edited (its file, whether it has unsaved
// changes), the mission database it names and the running pipeline::Station built from them.
//
// The session holds the one copy of the profile the GUI reads (profile()) and whether it has unsaved
// changes: views ask it, and every change goes through it. Live changes (a packet type's mode, record
// flag or forward list; starting or stopping one stream) apply to the running station, then the copy
// is taken again from the station and marked unsaved. Adding, editing or removing a stream is live too
// (pipeline::Station::addStream, replaceStream, removeStream): the Station stays the same object, the
// other streams run on untouched, and views that list streams refresh on streamsChanged (keeping their
// selection). A new Station comes only with another profile (open, close): views hold no Station
// pointer across stationAboutToChange / stationChanged.
//
// Opening a station starts every enabled stream on its own, so a stream whose source cannot open (a
// port in use, a missing recording) shows "error: why" while the others run.
//
// Counts: snapshots() takes the station's snapshot once a second and hands it to every view that shows
// counts (snapshot_feed.hpp); a stream started or stopped, or a new station, is shown at once by an
// extra tick.
//
// The event log: events() merges the session's own notes with every station's events, numbered on
// without restarting when the station is replaced, so an event view keeps its place.
//
// Alarms and limits pass through to the station, every operator action in the local user's name
// (events::localUserName(): the audit trail says who). A limit edit is a live change like a packet
// setting: the profile carries the limits, so it is marked unsaved and saving keeps them.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/mdb/model.hpp"
#include "core/pipeline/station.hpp"
#include "ui/session/snapshot_feed.hpp"

#include <QObject>
#include <QString>

#include <chrono>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

namespace telestation::ui {

class StationSession : public QObject {
    Q_OBJECT

public:
    static constexpr std::size_t kEventCapacity = 5000;

    explicit StationSession(QObject* parent = nullptr, pipeline::StationOptions options = {});
    ~StationSession() override; // stops the station

    // Replaces the session: loads the mission database the profile names (relative to the profile's
    // directory; none = the training database), builds and starts the station. `path` "" = not yet
    // saved. On error nothing changes and `error` says why (every profile diagnostic, a database that
    // does not load, a profile that does not fit the database).
    bool open(const config::StationProfile& profile, const QString& path, QString* error = nullptr);
    bool openFile(const QString& path, QString* error = nullptr);
    // An empty profile on the training database.
    bool openNew(QString* error = nullptr);
    // Stops and forgets the station (the profile stays, e.g. for a last save).
    void close();

    bool save(QString* error = nullptr); // to profilePath(); an error when there is none
    bool saveAs(const QString& path, QString* error = nullptr);

    [[nodiscard]] QString profilePath() const { return m_path; }
    [[nodiscard]] bool isDirty() const noexcept { return m_dirty; }
    // The profile as it is now, with every live change.
    [[nodiscard]] const config::StationProfile& profile() const noexcept { return m_profile; }
    [[nodiscard]] pipeline::Station* station() const noexcept { return m_station.get(); }
    [[nodiscard]] const mdb::MissionDatabase* database() const noexcept;
    [[nodiscard]] QString databasePath() const { return m_databasePath; }
    [[nodiscard]] QStringList streamNames() const;

    // Streams added, changed or removed live, one at a time (pipeline::Station's addStream,
    // replaceStream, removeStream): on success the profile has the change and is unsaved, an event note
    // says what changed, streamsChanged and profileChanged are emitted; on error (the engine's reason in
    // `error`) nothing changed.
    bool addStream(const config::StreamProfile& stream, QString* error = nullptr);
    bool replaceStream(const QString& name, const config::StreamProfile& stream, QString* error = nullptr);
    bool removeStream(const QString& name, QString* error = nullptr);
    // Live.
    bool startStream(const QString& name, QString* error = nullptr);
    bool stopStream(const QString& name, QString* error = nullptr);
    // Holds a playback stream where it is, or lets it go on (not part of the profile).
    bool pauseStream(const QString& name, bool paused, QString* error = nullptr);
    // After recording stopped on a failure (a full disk): record again, into new segments
    // (Station::resumeRecording); what the station did, also in the event log.
    QString resumeRecording();
    // A packet type's settings (pipeline::Station::setPacketSettings) / the unknown packets' of a
    // stream; on success the profile has them and is unsaved, else `error` has the engine's reason.
    bool setPacketSettings(const QString& stream, const config::PacketSettings& settings, QString* error = nullptr);
    bool setUnknownSettings(const QString& stream, config::ProcessingMode mode, bool record,
                            const std::vector<std::string>& forward, QString* error = nullptr);

    // One snapshot a second for every view that shows counts.
    [[nodiscard]] SnapshotFeed& snapshots() noexcept { return m_snapshots; }
    [[nodiscard]] const SnapshotFeed& snapshots() const noexcept { return m_snapshots; }

    // Station events (renumbered) and the session's own, with number > after, oldest first.
    [[nodiscard]] std::vector<events::Event> events(std::uint64_t after);
    // Alarms of the running station (none without one), most severe first, then the newest first.
    [[nodiscard]] std::vector<events::Alarm> alarms() const;
    [[nodiscard]] events::AlarmCounts alarmCounts() const;
    // Moves with every change of alarms(), a new station included (whose own count starts again at 0).
    [[nodiscard]] std::uint64_t alarmsVersion() const;
    // Operator actions; false with the station's reason in `error` when it refuses (an alarm gone or
    // already acknowledged, one not shelved).
    bool acknowledgeAlarm(std::uint64_t id, const QString& comment, QString* error = nullptr);
    void acknowledgeAllAlarms(const QString& comment);
    bool shelveAlarm(std::uint64_t id, std::chrono::seconds duration, const QString& comment, QString* error = nullptr);
    bool unshelveAlarm(std::uint64_t id, QString* error = nullptr);

    // The limits in effect for a parameter (the operator's or the mission database's), and the mission
    // database's own (what restoring brings back).
    [[nodiscard]] Result<pipeline::EffectiveLimits> limits(const QString& parameter) const;
    [[nodiscard]] Result<pipeline::EffectiveLimits> missionLimits(const QString& parameter) const;
    // An operator's limits, live (pipeline::Station::setLimits; nullopt = the mission database's again);
    // on success the profile has them and is unsaved, else `error` has the engine's reason.
    bool setLimits(const QString& parameter, const std::optional<config::LimitSetting>& setting, QString* error = nullptr);

    // The running station's event archive ("" when none) and its trouble ("" when fine).
    [[nodiscard]] QString eventArchivePath() const;
    [[nodiscard]] QString eventStorageError() const;
    // Who operator actions are recorded as.
    [[nodiscard]] static QString userName();

Q_SIGNALS:
    // Views drop every pointer into the station (subscriptions, models) now.
    void stationAboutToChange();
    // The new station (nullptr after close()); the mission database may have changed too.
    void stationChanged(telestation::pipeline::Station* station);
    void profileChanged(); // another profile (path, streams)
    // A stream was added, changed or removed on the same station: views that list streams refresh.
    void streamsChanged();
    void dirtyChanged(bool dirty);
    // Something the operator should read (also in the event log).
    void problem(const QString& text);

private:
    // Each tick: a playback that finished by itself is stopped in the session's profile too.
    void followFinishedPlaybacks(const SharedSnapshot& snapshot);
    // After a stream was added, changed or removed: the note, the profile, the signals.
    void streamsChangedLive(const QString& stream, const QString& what);
    // Creates and starts a station for `profile` on `db`; stream failures go to `streamProblems`.
    std::unique_ptr<pipeline::Station> launch(const config::StationProfile& profile, const mdb::MissionDatabase& db,
                                              QString* error, QStringList* streamProblems);
    void replaceStation(std::unique_ptr<pipeline::Station> next);
    void collectStationEvents();
    void note(events::Severity severity, const QString& stream, const QString& text);
    void setDirty(bool dirty);
    // After a live change: the station's profile is the session's copy again, unsaved.
    void liveChanged();

    pipeline::StationOptions m_options;
    config::StationProfile m_profile; // the one copy: the running station's, or the last one's
    QString m_path;
    QString m_databasePath;
    std::optional<mdb::MissionDatabase> m_database;
    std::unique_ptr<pipeline::Station> m_station;
    bool m_dirty = false;

    std::deque<events::Event> m_events;
    std::uint64_t m_nextEvent = 1;
    std::uint64_t m_stationSeen = 0; // the current station's last event number taken
    // alarmsVersion() = base + the station's version; a new station's base is past every value given out.
    std::uint64_t m_alarmsBase = 0;
    mutable std::uint64_t m_alarmsGiven = 0;
    SnapshotFeed m_snapshots;

public:
    // The mission database at `path` (.mdb, XTCE .xml or .tdef, told apart by content: config::loadMission)
    // in place of the profile's: the station is opened again on it with the same streams and settings,
    // and the profile names it (unsaved). On error (it does not load, or the profile's packet settings
    // name packets it does not have) nothing changes and `error` says why.
    bool useMission(const QString& path, QString* error = nullptr);
};

} // namespace telestation::ui
