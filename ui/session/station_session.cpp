#include "core/config/mission_file.hpp"
#include "ui/session/station_session.hpp"

#include "core/common/clock.hpp"
#include "core/common/paths.hpp"
#include "core/mdb/sqlite_store.hpp"

#include <QDir>
#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

namespace telestation::ui {

namespace {

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

// True when the station took a change; else false and the engine's reason in `error`.
bool accepted(const Status& status, QString* error)
{
    if (status)
        return true;
    if (error)
        *error = text(status.error().message);
    return false;
}

Error noStation()
{
    return Error{StationSession::tr("there is no station").toStdString(), {}};
}

// The mission database a profile names, resolved like loadProfileFile does for relative paths.
QString databasePathFor(const config::StationProfile& profile, const QString& profilePath)
{
    if (profile.mdb.empty())
        return text(trainingDatabasePath().string());
    const QString mdb = text(profile.mdb);
    if (QFileInfo(mdb).isAbsolute() || profilePath.isEmpty())
        return mdb;
    return QFileInfo(profilePath).absoluteDir().filePath(mdb);
}

} // namespace

StationSession::StationSession(QObject* parent, pipeline::StationOptions options)
    : QObject(parent),
      m_options(options),
      m_snapshots([this]() -> std::optional<stats::StationSnapshot> {
          if (!m_station)
              return std::nullopt;
          return m_station->snapshot();
      })
{
    // Before any view is handed the snapshot (connected first): the profile the views read is current.
    connect(&m_snapshots, &SnapshotFeed::snapshotTaken, this, &StationSession::followFinishedPlaybacks);
    m_snapshots.start();
}

void StationSession::followFinishedPlaybacks(const SharedSnapshot& snapshot)
{
    // A playback that finished turned itself off in the station's profile (it stays stopped): the
    // session's copy follows, so that the streams panel offers Start, not Stop, and Save keeps it stopped.
    if (!m_station || !snapshot)
        return;
    for (const stats::StreamStats& s : snapshot->streams) {
        if (s.running || s.progress < 1.0)
            continue;
        const auto it = std::find_if(m_profile.streams.begin(), m_profile.streams.end(),
                                     [&](const config::StreamProfile& p) { return p.name == s.name; });
        if (it != m_profile.streams.end() && it->enabled) {
            m_profile = m_station->profile();
            Q_EMIT profileChanged();
            return;
        }
    }
}

StationSession::~StationSession()
{
    if (m_station)
        m_station->stop();
}

const mdb::MissionDatabase* StationSession::database() const noexcept
{
    if (m_station)
        return &m_station->database();
    return m_database ? &*m_database : nullptr;
}

QStringList StationSession::streamNames() const
{
    QStringList names;
    for (const auto& s : m_profile.streams)
        names << text(s.name);
    return names;
}

bool StationSession::openFile(const QString& path, QString* error)
{
    const auto load = config::loadProfileFile(path.toStdString());
    if (!load.ok()) {
        QStringList lines;
        for (const auto& d : load.diagnostics)
            lines << text(d.toString());
        if (error)
            *error = tr("The profile %1 cannot be used:\n%2").arg(path, lines.join(QLatin1Char('\n')));
        return false;
    }
    return open(load.profile, QFileInfo(path).absoluteFilePath(), error);
}

bool StationSession::openNew(QString* error)
{
    return open(config::StationProfile{}, QString(), error);
}

bool StationSession::open(const config::StationProfile& profile, const QString& path, QString* error)
{
    const QString mdbPath = databasePathFor(profile, path);
    auto mission = config::loadMission(mdbPath.toStdString());
    if (!mission.ok()) {
        if (error)
            *error = tr("The mission database %1 cannot be loaded: %2").arg(mdbPath, text(mission.error().toString()));
        return false;
    }
    const mdb::MissionDatabase* db = &*mission.database;
    QStringList streamProblems;
    QString launchError;
    // Built before the old station stops, so that a profile that does not fit leaves everything as it was
    // (ports the old station holds are opened only after it stopped: launch() opens no source).
    auto created = pipeline::Station::create(profile, *db, m_options);
    if (!created) {
        if (error)
            *error = tr("The profile does not fit the mission database %1:\n%2").arg(mdbPath, text(created.error().message));
        return false;
    }
    created->reset();
    Q_EMIT stationAboutToChange();
    if (m_station) {
        m_station->stop();
        collectStationEvents();
        m_station.reset();
    }
    m_database = std::move(*mission.database);
    m_databasePath = mdbPath;
    m_profile = profile;
    m_path = path;
    auto station = launch(profile, *m_database, &launchError, &streamProblems);
    replaceStation(std::move(station));
    note(events::Severity::Info, {},
         tr("profile %1 opened (mission database %2)").arg(path.isEmpty() ? tr("(new)") : path, mdbPath));
    // A stream that failed to start is in the log already, under its name (the station's own event).
    setDirty(false);
    Q_EMIT profileChanged();
    if (!launchError.isEmpty()) {
        if (error)
            *error = launchError;
        Q_EMIT problem(launchError);
        return false;
    }
    if (!streamProblems.isEmpty())
        Q_EMIT problem(streamProblems.join(QLatin1Char('\n')));
    return true;
}

std::unique_ptr<pipeline::Station> StationSession::launch(const config::StationProfile& profile,
                                                          const mdb::MissionDatabase& db, QString* error,
                                                          QStringList* streamProblems)
{
    // Every stream starts on its own (see the header): the station starts with none, then each enabled
    // one is started, and a failure stays with its stream.
    config::StationProfile idle = profile;
    for (auto& s : idle.streams)
        s.enabled = false;
    auto created = pipeline::Station::create(idle, db, m_options);
    if (!created) {
        *error = text(created.error().message);
        return nullptr;
    }
    auto station = std::move(*created);
    if (auto started = station->start(); !started) {
        *error = text(started.error().message);
        return nullptr;
    }
    for (const auto& s : profile.streams) {
        if (!s.enabled)
            continue;
        if (auto started = station->startStream(s.name); !started)
            streamProblems->append(text(started.error().message));
    }
    return station;
}

void StationSession::replaceStation(std::unique_ptr<pipeline::Station> next)
{
    m_station = std::move(next);
    m_stationSeen = 0;
    m_alarmsBase = m_alarmsGiven + 1;
    m_snapshots.forget();
    if (m_station)
        m_profile = m_station->profile();
    Q_EMIT stationChanged(m_station.get());
    m_snapshots.tick(); // the new station's counts at once
}

void StationSession::close()
{
    if (!m_station)
        return;
    Q_EMIT stationAboutToChange();
    m_station->stop();
    m_profile = m_station->profile(); // playbacks' positions, a finished playback stopped
    collectStationEvents();
    replaceStation(nullptr);
}

bool StationSession::save(QString* error)
{
    if (m_path.isEmpty()) {
        if (error)
            *error = tr("The profile has no file yet: use Save As.");
        return false;
    }
    return saveAs(m_path, error);
}

bool StationSession::saveAs(const QString& path, QString* error)
{
    if (m_station) // what the station changed by itself: a finished playback stopped, positions
        m_profile = m_station->profile();
    if (auto saved = config::saveProfileFile(m_profile, path.toStdString()); !saved) {
        const QString why = tr("The profile cannot be saved to %1: %2").arg(path, text(saved.error().message));
        if (error)
            *error = why;
        note(events::Severity::Error, {}, why);
        return false;
    }
    const bool renamed = QFileInfo(path).absoluteFilePath() != m_path;
    m_path = QFileInfo(path).absoluteFilePath();
    note(events::Severity::Info, {}, tr("profile saved to %1").arg(m_path));
    setDirty(false);
    if (renamed)
        Q_EMIT profileChanged();
    return true;
}

bool StationSession::addStream(const config::StreamProfile& stream, QString* error)
{
    if (!m_station)
        return accepted(noStation(), error);
    if (!accepted(m_station->addStream(stream), error))
        return false;
    streamsChangedLive(text(stream.name), tr("stream %1 added").arg(text(stream.name)));
    return true;
}

bool StationSession::replaceStream(const QString& name, const config::StreamProfile& stream, QString* error)
{
    if (!m_station)
        return accepted(noStation(), error);
    if (!accepted(m_station->replaceStream(name.toStdString(), stream), error))
        return false;
    const QString renamed = text(stream.name) == name ? QString() : tr(" (now %1)").arg(text(stream.name));
    streamsChangedLive(text(stream.name), tr("stream %1 changed%2").arg(name, renamed));
    return true;
}

bool StationSession::removeStream(const QString& name, QString* error)
{
    if (!m_station)
        return accepted(noStation(), error);
    if (!accepted(m_station->removeStream(name.toStdString()), error))
        return false;
    streamsChangedLive(name, tr("stream %1 removed").arg(name));
    return true;
}

void StationSession::streamsChangedLive(const QString& stream, const QString& what)
{
    note(events::Severity::Info, stream, what);
    liveChanged();
    Q_EMIT streamsChanged();
    Q_EMIT profileChanged();
    m_snapshots.tick(); // the streams as they are now, shown at once
}

bool StationSession::startStream(const QString& name, QString* error)
{
    if (!m_station)
        return false;
    const bool started = accepted(m_station->startStream(name.toStdString()), error);
    liveChanged(); // `enabled` changed even when the source failed to open
    m_snapshots.tick(); // the stream's new state, shown at once
    return started;
}

bool StationSession::stopStream(const QString& name, QString* error)
{
    if (!m_station || !accepted(m_station->stopStream(name.toStdString()), error))
        return false;
    liveChanged();
    m_snapshots.tick();
    return true;
}

QString StationSession::resumeRecording()
{
    if (!m_station)
        return tr("No station");
    const QString message = QString::fromStdString(m_station->resumeRecording());
    note(events::Severity::Info, {}, tr("operator: %1").arg(message));
    m_snapshots.tick();
    return message;
}

bool StationSession::pauseStream(const QString& name, bool paused, QString* error)
{
    if (!m_station || !accepted(m_station->pauseStream(name.toStdString(), paused), error))
        return false;
    m_snapshots.tick(); // the stream's new state, shown at once
    return true;
}

bool StationSession::setPacketSettings(const QString& stream, const config::PacketSettings& settings, QString* error)
{
    if (!m_station)
        return accepted(noStation(), error);
    if (!accepted(m_station->setPacketSettings(stream.toStdString(), settings), error))
        return false;
    liveChanged();
    return true;
}

bool StationSession::setUnknownSettings(const QString& stream, config::ProcessingMode mode, bool record,
                                        const std::vector<std::string>& forward, QString* error)
{
    if (!m_station)
        return accepted(noStation(), error);
    if (!accepted(m_station->setUnknownSettings(stream.toStdString(), mode, record, forward), error))
        return false;
    liveChanged();
    return true;
}

// ---- Alarms and limits ----------------------------------------------------------------------------------

std::vector<events::Alarm> StationSession::alarms() const
{
    return m_station ? m_station->alarms() : std::vector<events::Alarm>{};
}

events::AlarmCounts StationSession::alarmCounts() const
{
    return m_station ? m_station->alarmCounts() : events::AlarmCounts{};
}

std::uint64_t StationSession::alarmsVersion() const
{
    m_alarmsGiven = m_alarmsBase + (m_station ? m_station->alarmsVersion() : 0);
    return m_alarmsGiven;
}

QString StationSession::userName()
{
    return text(events::localUserName());
}

bool StationSession::acknowledgeAlarm(std::uint64_t id, const QString& comment, QString* error)
{
    if (!m_station)
        return accepted(noStation(), error);
    return accepted(m_station->acknowledgeAlarm(id, events::localUserName(), comment.toStdString()), error);
}

void StationSession::acknowledgeAllAlarms(const QString& comment)
{
    if (m_station)
        m_station->acknowledgeAllAlarms(events::localUserName(), comment.toStdString());
}

bool StationSession::shelveAlarm(std::uint64_t id, std::chrono::seconds duration, const QString& comment, QString* error)
{
    if (!m_station)
        return accepted(noStation(), error);
    return accepted(m_station->shelveAlarm(id, duration, events::localUserName(), comment.toStdString()), error);
}

bool StationSession::unshelveAlarm(std::uint64_t id, QString* error)
{
    if (!m_station)
        return accepted(noStation(), error);
    return accepted(m_station->unshelveAlarm(id, events::localUserName()), error);
}

Result<pipeline::EffectiveLimits> StationSession::limits(const QString& parameter) const
{
    if (!m_station)
        return noStation();
    return m_station->limits(parameter.toStdString());
}

Result<pipeline::EffectiveLimits> StationSession::missionLimits(const QString& parameter) const
{
    if (!m_station)
        return noStation();
    const auto& types = m_station->types();
    const auto id = types.parameterId(parameter.toStdString());
    if (!id)
        return Error{tr("no parameter named %1 in the mission database").arg(parameter).toStdString(), {}};
    return pipeline::effectiveLimits(types, *id, {}); // no operator's setting: the mission database's
}

bool StationSession::setLimits(const QString& parameter, const std::optional<config::LimitSetting>& setting,
                               QString* error)
{
    if (!m_station)
        return accepted(noStation(), error);
    if (!accepted(m_station->setLimits(parameter.toStdString(), setting, events::localUserName()), error))
        return false;
    liveChanged();
    return true;
}

QString StationSession::eventArchivePath() const
{
    return m_station ? text(m_station->eventArchivePath()) : QString();
}

QString StationSession::eventStorageError() const
{
    return m_station ? text(m_station->eventStorageError()) : QString();
}

void StationSession::liveChanged()
{
    m_profile = m_station->profile();
    setDirty(true);
}

void StationSession::setDirty(bool dirty)
{
    if (m_dirty == dirty)
        return;
    m_dirty = dirty;
    Q_EMIT dirtyChanged(dirty);
}

void StationSession::note(events::Severity severity, const QString& stream, const QString& message)
{
    collectStationEvents(); // keep the order: what the station said before this note comes first
    events::Event e;
    e.number = m_nextEvent++;
    e.timeNs = clock::realtimeNs();
    e.severity = severity;
    e.stream = stream.toStdString();
    e.text = message.toStdString();
    if (severity == events::Severity::Error)
        spdlog::error("{}", e.text);
    else
        spdlog::info("{}", e.text);
    m_events.push_back(std::move(e));
    while (m_events.size() > kEventCapacity)
        m_events.pop_front();
}

void StationSession::collectStationEvents()
{
    if (!m_station)
        return;
    for (auto& e : m_station->events(m_stationSeen)) {
        m_stationSeen = e.number;
        e.number = m_nextEvent++;
        m_events.push_back(std::move(e));
    }
    while (m_events.size() > kEventCapacity)
        m_events.pop_front();
}

std::vector<events::Event> StationSession::events(std::uint64_t after)
{
    collectStationEvents();
    std::vector<events::Event> out;
    auto it = std::upper_bound(m_events.begin(), m_events.end(), after,
                               [](std::uint64_t n, const events::Event& e) { return n < e.number; });
    out.assign(it, m_events.end());
    return out;
}

// ---- The mission database -------------------------------------------------------------------------------

bool StationSession::useMission(const QString& path, QString* error)
{
    config::StationProfile next = m_profile;
    next.mdb = QFileInfo(path).absoluteFilePath().toStdString();
    const QString before = m_databasePath;
    const bool opened = open(next, m_path, error); // loads it (an XTCE file imported, a .tdef compiled)
    if (m_databasePath != before)
        setDirty(true); // the profile names another database: unsaved until saved
    return opened;
}

} // namespace telestation::ui
