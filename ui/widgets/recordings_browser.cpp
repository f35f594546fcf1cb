#include "ui/widgets/recordings_browser.hpp"

#include "core/common/time_text.hpp"
#include "core/io/endpoint.hpp"
#include "core/pipeline/station.hpp"
#include "core/record/playback.hpp"
#include "ui/dialogs/file_dialog_folder.hpp"
#include "ui/dialogs/recording_export_dialog.hpp"
#include "ui/models/recordings_model.hpp"
#include "ui/text/number_format.hpp"
#include "ui/session/phased_timer.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/recording_export_progress.hpp"
#include "ui/widgets/recording_status_line.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace telestation::ui {

namespace {

const QString kPlaybackName = QStringLiteral("playback");
const QString kErrorStyle = QStringLiteral("color: #b00020");
const QString kNoteStyle = QStringLiteral("color: palette(dark)");
const QString kIsoFormat = QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ");
constexpr double kSpeeds[] = { 1, 2, 5, 10, 100 };

// The same place on disk, whether or not it exists yet.
QString normalDirectory(const QString& path)
{
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : canonical;
}

// A plain decimal as file:// URLs take it (no exponent, no trailing zeros): 10, 2.5, 0.125.
QString plainDecimal(double value)
{
    QString text = QString::number(value, 'f', 9);
    while (text.contains(QLatin1Char('.')) && (text.endsWith(QLatin1Char('0')) || text.endsWith(QLatin1Char('.'))))
        text.chop(1);
    return text;
}

// The path part of a file:// URL: '%' and '?' escaped, as io::parseEndpoint reads them back.
QString urlPath(const QString& path)
{
    QString out = path;
    out.replace(QLatin1Char('%'), QStringLiteral("%25"));
    out.replace(QLatin1Char('?'), QStringLiteral("%3F"));
    return out;
}

} // namespace

RecordingsBrowser::RecordingsBrowser(StationSession& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(new RecordingsModel(this))
{
    // Directory, Browse…, Refresh.
    m_directoryLabel = new QLabel(this);
    m_directoryLabel->setObjectName(QStringLiteral("directoryLabel"));
    m_directoryLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_directoryLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_browse = new QPushButton(tr("Browse…"), this);
    m_browse->setObjectName(QStringLiteral("browseButton"));
    m_browse->setToolTip(tr("Show another recording directory"));
    connect(m_browse, &QPushButton::clicked, this, &RecordingsBrowser::browse);
    m_refresh = new QPushButton(tr("Refresh"), this);
    m_refresh->setObjectName(QStringLiteral("refreshButton"));
    m_refresh->setToolTip(
        tr("Read the recording catalog again (also every %1 s while shown)").arg(kListIntervalMs / 1000));
    connect(m_refresh, &QPushButton::clicked, this, &RecordingsBrowser::refresh);
    auto* top = new QHBoxLayout;
    top->addWidget(m_directoryLabel, 1);
    top->addWidget(m_browse);
    top->addWidget(m_refresh);

    m_recordingStatus = new RecordingStatusLine(session, this);
    connect(m_recordingStatus, &RecordingStatusLine::resumed, this, &RecordingsBrowser::refresh);

    m_listMessage = new QLabel(this);
    m_listMessage->setObjectName(QStringLiteral("listMessage"));
    m_listMessage->setWordWrap(true);

    // The segments.
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("segmentTable"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(RecordingsModel::Stream, 9 * digit);
    m_view->setColumnWidth(RecordingsModel::Sequence, 5 * digit);
    m_view->setColumnWidth(RecordingsModel::File, 30 * digit);
    m_view->setColumnWidth(RecordingsModel::State, 9 * digit);
    m_view->setColumnWidth(RecordingsModel::FirstTime, 23 * digit);
    m_view->setColumnWidth(RecordingsModel::LastTime, 23 * digit);
    m_view->setColumnWidth(RecordingsModel::Duration, 13 * digit);
    m_view->setColumnWidth(RecordingsModel::Packets, 10 * digit);
    connect(
        m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RecordingsBrowser::onSelectionChanged);
    connect(m_model, &RecordingsModel::listed, this, &RecordingsBrowser::onListed);

    // Playback controls.
    auto* controls = new QGroupBox(tr("Play back or export"), this);
    m_speed = new QComboBox(controls);
    m_speed->setObjectName(QStringLiteral("speedCombo"));
    m_speed->setEditable(true);
    m_speed->setInsertPolicy(QComboBox::NoInsert);
    m_speed->setToolTip(tr("Times real time; type any number above 0 (e.g. 0.5, 3)"));
    m_speed->addItem(tr("As fast as possible"), 0.0);
    for (const double s : kSpeeds)
        m_speed->addItem(QStringLiteral("×%1").arg(s), s);
    m_speed->setCurrentIndex(0);
    connect(m_speed, &QComboBox::currentTextChanged, this, &RecordingsBrowser::updatePlayEnabled);

    m_range = new UtcTimeRange(controls);
    connect(m_range, &UtcTimeRange::changed, this, &RecordingsBrowser::updatePlayEnabled);

    m_play = new QPushButton(tr("Play selection"), controls);
    m_play->setObjectName(QStringLiteral("playButton"));
    m_play->setToolTip(tr("Add a playback stream for the selected segments"));
    connect(m_play, &QPushButton::clicked, this, &RecordingsBrowser::playSelection);
    m_export = new QPushButton(tr("Export…"), controls);
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setToolTip(tr("Decode the selected segments (all when none is selected) to a CSV file"));
    connect(m_export, &QPushButton::clicked, this, &RecordingsBrowser::exportSelection);

    m_playMessage = new QLabel(controls);
    m_playMessage->setObjectName(QStringLiteral("playMessage"));
    m_playMessage->setWordWrap(true);
    m_playMessage->setStyleSheet(kErrorStyle);

    // Two narrow columns, so that the browser fits a dock.
    auto* grid = new QGridLayout(controls);
    grid->addWidget(new QLabel(tr("Speed"), controls), 0, 0);
    grid->addWidget(m_speed, 0, 1);
    grid->addWidget(m_play, 0, 3);
    grid->addWidget(m_range->check(), 1, 0);
    grid->addWidget(m_range->from(), 1, 1);
    grid->addWidget(m_export, 1, 3);
    grid->addWidget(new QLabel(tr("to"), controls), 2, 0, Qt::AlignRight);
    grid->addWidget(m_range->to(), 2, 1);
    grid->addWidget(m_playMessage, 3, 0, 1, 4);
    grid->setColumnStretch(2, 1);

    m_exportProgress = new RecordingExportProgress(this);
    connect(m_exportProgress, &RecordingExportProgress::started, this, &RecordingsBrowser::updatePlayEnabled);
    connect(m_exportProgress, &RecordingExportProgress::finished, this, [this](const QString& message) {
        updatePlayEnabled();
        Q_EMIT exportFinished(message);
    });
    // The dialog shows the session's database: it goes before that does.
    connect(&session, &StationSession::stationAboutToChange, this, [this] { delete m_exportDialog.data(); });

    // Running playbacks.
    auto* progress = new QGroupBox(tr("Playback streams"), this);
    progress->setObjectName(QStringLiteral("progressArea"));
    m_progressLayout = new QVBoxLayout(progress);
    m_progressLayout->setSpacing(2);
    m_noPlayback = new QLabel(tr("No playback stream"), progress);
    m_noPlayback->setStyleSheet(kNoteStyle);
    m_progressLayout->addWidget(m_noPlayback);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_recordingStatus);
    layout->addWidget(m_listMessage);
    layout->addWidget(m_view, 1);
    layout->addWidget(controls);
    layout->addWidget(m_exportProgress);
    layout->addWidget(progress);

    m_listTimer = new PhasedTimer(std::chrono::milliseconds(kListIntervalMs), this);
    m_listTimer->skipWhileUnseen(this); // tabbed behind the mission browser: no listing
    connect(m_listTimer, &PhasedTimer::timeout, this, [this] {
        if (isVisible())
            refresh();
        else
            m_listTimer->stop(); // hideEvent stops it; this is the belt to its braces
    });
    session.snapshots().follow(this, [this](const SharedSnapshot& snapshot) { showProgress(snapshot); });

    showListMessage(tr("No recording directory"), false);
    showPlayMessage({});
    updatePlayEnabled();
}

RecordingsBrowser::~RecordingsBrowser() = default;

void RecordingsBrowser::setRecordingDirectory(const QString& directory)
{
    const QString normal = directory.isEmpty() ? QString() : normalDirectory(directory);
    if (normal == m_directory)
        return;
    m_directory = normal;
    m_directoryLabel->setText(normal.isEmpty() ? tr("No recording directory") : normal);
    m_directoryLabel->setToolTip(normal);
    m_model->setDirectory(normal);
    showListMessage(normal.isEmpty() ? tr("No recording directory") : tr("Reading %1 …").arg(normal), false);
    updatePlayEnabled();
    Q_EMIT recordingDirectoryChanged(normal);
    if (isVisible())
        refresh();
}

void RecordingsBrowser::setStation(pipeline::Station* station)
{
    m_station = station;
    m_requested.clear(); // the session has answered: its profile has the streams now
    rebuildProgressRows({});
    if (m_station)
        refreshProgress();
}

QString RecordingsBrowser::nextPlaybackName() const
{
    const QStringList streams = m_session.streamNames();
    QSet<QString> taken(streams.begin(), streams.end());
    taken.unite(QSet<QString>(m_requested.begin(), m_requested.end()));
    if (!taken.contains(kPlaybackName))
        return kPlaybackName;
    for (int n = 2;; ++n) {
        const QString name = QStringLiteral("%1-%2").arg(kPlaybackName).arg(n);
        if (!taken.contains(name))
            return name;
    }
}

std::optional<double> RecordingsBrowser::speed() const
{
    QString typed = m_speed->currentText().trimmed();
    const int item = m_speed->findText(typed);
    if (item >= 0)
        return m_speed->itemData(item).toDouble();
    // Typed: "3", "×3", "x3", "3x", "0.5".
    if (typed.startsWith(QChar(0x00D7)) || typed.startsWith(QLatin1Char('x'), Qt::CaseInsensitive))
        typed.remove(0, 1);
    else if (typed.endsWith(QChar(0x00D7)) || typed.endsWith(QLatin1Char('x'), Qt::CaseInsensitive))
        typed.chop(1);
    const auto value = text::parsePlainDecimal(typed.trimmed().toStdString());
    if (!value || *value <= 0 || plainDecimal(*value) == QLatin1String("0"))
        return std::nullopt;
    return *value;
}

QString RecordingsBrowser::playbackUrl(QString* error) const
{
    const auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return QString();
    };
    if (m_directory.isEmpty())
        return fail(tr("No recording directory."));
    std::vector<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        rows.push_back(index.row());
    if (rows.empty())
        return fail(tr("Select one or more segments to play."));
    std::sort(rows.begin(), rows.end());
    const auto speedValue = speed();
    if (!speedValue)
        return fail(tr("'%1' is not a speed: choose one or type a number above 0 (times real time).")
                        .arg(m_speed->currentText()));

    QString url = QStringLiteral("file://") + urlPath(m_directory) + QLatin1Char('?');
    std::vector<std::string> files;
    for (const int row : rows) {
        const std::string& file = m_model->segment(row).file;
        if (file.find('&') != std::string::npos || file.find('/') != std::string::npos)
            return fail(tr("The segment '%1' cannot be named in a playback URL.").arg(QString::fromStdString(file)));
        url += QStringLiteral("segment=") + QString::fromStdString(file) + QLatin1Char('&');
        files.push_back(file);
    }
    url += QStringLiteral("speed=") + plainDecimal(*speedValue);
    if (m_range->isOn()) {
        const QDateTime from = m_range->from()->dateTime().toUTC();
        const QDateTime to = m_range->to()->dateTime().toUTC();
        if (from > to)
            return fail(tr("The time range ends before it starts."));
        url += QStringLiteral("&from=") + from.toString(kIsoFormat) + QStringLiteral("&to=") + to.toString(kIsoFormat);
    }

    // What the station will do with it: the same parsers, so that a request never fails there.
    const auto endpoint = io::parseEndpoint(url.toStdString());
    if (!endpoint)
        return fail(tr("Cannot play this selection: %1").arg(QString::fromStdString(endpoint.error().toString())));
    const auto options = record::playbackOptionsFromQuery(endpoint->query);
    if (!options)
        return fail(tr("Cannot play this selection: %1").arg(QString::fromStdString(options.error().toString())));
    if (options->segments != files || endpoint->path != m_directory.toStdString()
        || std::abs(options->speed - *speedValue) > 1e-9 * std::max(1.0, *speedValue))
        return fail(tr("Cannot play this selection: the URL does not read back as it was written (%1).").arg(url));
    if (error)
        error->clear();
    return url;
}

QString RecordingsBrowser::listMessage() const
{
    return m_listMessage->text();
}

QString RecordingsBrowser::playMessage() const
{
    return m_playMessage->text();
}

QStringList RecordingsBrowser::playbackStreams() const
{
    QStringList names;
    for (const auto& r : m_rows)
        names << r.name;
    return names;
}

double RecordingsBrowser::shownProgress(const QString& stream) const
{
    const ProgressRow* r = row(stream);
    return r ? r->progress : -1;
}

QString RecordingsBrowser::shownState(const QString& stream) const
{
    const ProgressRow* r = row(stream);
    return r ? r->state->toolTip() : QString();
}

QAbstractButton* RecordingsBrowser::pauseButton(const QString& stream) const
{
    const ProgressRow* r = row(stream);
    return r ? r->pause : nullptr;
}

QAbstractButton* RecordingsBrowser::stopButton(const QString& stream) const
{
    const ProgressRow* r = row(stream);
    return r ? r->stop : nullptr;
}

bool RecordingsBrowser::isPolling() const
{
    return m_listTimer->isActive();
}

void RecordingsBrowser::refresh()
{
    if (m_directory.isEmpty())
        return;
    m_model->refresh(stationMayRecordHere());
}

bool RecordingsBrowser::stationMayRecordHere() const
{
    if (!m_station || !m_station->running())
        return false;
    const config::StationProfile& profile = m_session.profile();
    if (normalDirectory(QString::fromStdString(profile.recordingDirectory)) != m_directory)
        return false;
    // The recorder opened the catalog (possibly with segments of its own) or may start to at the next packet.
    if (m_snapshot && m_snapshot->recordingState.rfind("recording", 0) == 0)
        return true;
    for (const auto& stream : profile.streams) {
        if (stream.recordUnknown)
            return true;
        for (const auto& packet : stream.packets)
            if (packet.record)
                return true;
    }
    return false;
}

void RecordingsBrowser::onListed()
{
    const RecordingListing& listing = m_model->listing();
    if (!listing.hasCatalog) {
        showListMessage(tr("No recordings in %1").arg(m_directory), true);
    } else if (!listing.error.isEmpty()) {
        showListMessage(tr("Cannot read the recordings in %1: %2").arg(m_directory, listing.error), true);
    } else {
        std::uint64_t packets = 0;
        for (const auto& s : listing.segments)
            packets += s.packets;
        QString text = (listing.segments.size() == 1 ? tr("1 segment") : tr("%1 segments").arg(listing.segments.size()))
            + tr(", %1 packets").arg(countText(packets));
        if (listing.readOnly)
            text += tr(" (being recorded: read without changing the catalog)");
        showListMessage(text, false);
    }
    updatePlayEnabled();
}

void RecordingsBrowser::onSelectionChanged()
{
    // Offer the selection's own time range; what the operator set stays while the range is on.
    if (!m_range->isOn())
        m_range->setSpan(selectedSegments());
    updatePlayEnabled();
}

std::vector<record::SegmentInfo> RecordingsBrowser::selectedSegments() const
{
    std::vector<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        rows.push_back(index.row());
    std::sort(rows.begin(), rows.end());
    std::vector<record::SegmentInfo> segments;
    for (const int row : rows)
        segments.push_back(m_model->segment(row));
    return segments;
}

void RecordingsBrowser::updatePlayEnabled()
{
    // Play is offered only for a request that would be valid; otherwise the line under it says why.
    const bool selected = m_view->selectionModel()->hasSelection();
    QString error;
    const bool valid = selected && !playbackUrl(&error).isEmpty();
    m_play->setEnabled(valid);
    showPlayMessage(selected ? error : QString());
    m_export->setEnabled(m_model->rowCount() > 0 && !m_exportProgress->isRunning());
}

void RecordingsBrowser::playSelection()
{
    QString error;
    const QString url = playbackUrl(&error);
    if (url.isEmpty()) {
        showPlayMessage(error);
        return;
    }
    showPlayMessage({});
    const QString name = nextPlaybackName();
    // Until the session says which streams exist, do not hand the same name out twice.
    m_requested << name;
    Q_EMIT playRequested(name, url);
}

RecordingExportDialog* RecordingsBrowser::exportDialog() const
{
    return m_exportDialog.data();
}

void RecordingsBrowser::exportSelection()
{
    if (m_exportDialog) {
        m_exportDialog->raise();
        m_exportDialog->activateWindow();
        return;
    }
    const mdb::MissionDatabase* db = m_session.database();
    if (db == nullptr) {
        showPlayMessage(tr("No mission database to decode the recording with: open a profile first."));
        return;
    }
    RecordingExportDialog::Recording recording;
    recording.directory = m_directory;
    recording.segments = selectedSegments();
    recording.selected = !recording.segments.empty();
    if (!recording.selected)
        recording.segments = m_model->segments();

    auto* dialog = new RecordingExportDialog(*db, std::move(recording), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setDatabasePath(m_session.databasePath());
    if (!m_lastExport.parameters.empty())
        dialog->setChoices(m_lastExport);
    if (m_range->isOn())
        dialog->setRange(m_range->from()->dateTime(), m_range->to()->dateTime());
    connect(dialog, &QDialog::accepted, this, [this, dialog] { startExport(dialog->request()); });
    m_exportDialog = dialog;
    dialog->open();
}

void RecordingsBrowser::startExport(const RecordingExportRequest& request)
{
    m_lastExport = request;
    if (const mdb::MissionDatabase* db = m_session.database())
        (void)m_exportProgress->start(request, *db); // a refusal is shown where the progress would be
    updatePlayEnabled();
}

void RecordingsBrowser::browse()
{
    const QString directory = FileDialogFolder::existingFolder(this, FileDialogFolder::kRecordings,
                                                               tr("Recording directory"), m_directory);
    if (!directory.isEmpty()) {
        setRecordingDirectory(directory);
        refresh();
    }
}

void RecordingsBrowser::refreshProgress()
{
    showProgress(m_session.snapshots().latest());
}

void RecordingsBrowser::showProgress(const SharedSnapshot& snapshot)
{
    m_snapshot = snapshot;
    if (!m_station || !snapshot) {
        rebuildProgressRows({});
        return;
    }
    QStringList names;
    for (const auto& s : snapshot->streams)
        if (s.source.rfind("file://", 0) == 0)
            names << QString::fromStdString(s.name);
    if (names != playbackStreams())
        rebuildProgressRows(names);
    for (const auto& s : snapshot->streams) {
        const QString name = QString::fromStdString(s.name);
        auto it = std::find_if(m_rows.begin(), m_rows.end(), [&](const ProgressRow& r) { return r.name == name; });
        if (it == m_rows.end())
            continue;
        it->progress = std::clamp(s.progress, 0.0, 1.0);
        it->bar->setValue(static_cast<int>(std::lround(it->progress * kProgressSteps)));
        const QString state = QString::fromStdString(s.state);
        it->state->setText(
            it->state->fontMetrics().elidedText(state, Qt::ElideMiddle, std::max(it->state->width(), 200)));
        it->state->setToolTip(state);
        const bool paused = m_station->streamPaused(s.name);
        it->pause->setText(paused ? tr("Resume") : tr("Pause"));
        it->pause->setEnabled(s.running && it->progress < 1.0);
    }
}

void RecordingsBrowser::rebuildProgressRows(const QStringList& names)
{
    for (auto& r : m_rows) {
        // Later: this may run inside the row's own button's clicked() (Stop → the session rebuilds).
        r.widget->hide();
        m_progressLayout->removeWidget(r.widget);
        r.widget->deleteLater();
    }
    m_rows.clear();
    for (const QString& name : names) {
        ProgressRow r;
        r.name = name;
        r.widget = new QWidget(m_progressLayout->parentWidget());
        r.widget->setObjectName(QStringLiteral("playback:") + name);
        auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()), r.widget);
        r.bar = new QProgressBar(r.widget);
        r.bar->setObjectName(QStringLiteral("progressBar"));
        r.bar->setRange(0, kProgressSteps);
        r.bar->setFormat(QStringLiteral("%p%"));
        r.state = new QLabel(r.widget);
        r.state->setObjectName(QStringLiteral("stateLabel"));
        r.state->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        r.state->setStyleSheet(kNoteStyle);
        r.pause = new QPushButton(tr("Pause"), r.widget);
        r.pause->setObjectName(QStringLiteral("pauseButton"));
        r.pause->setToolTip(tr("Hold this playback where it is, or go on from there"));
        r.stop = new QPushButton(tr("Stop"), r.widget);
        r.stop->setObjectName(QStringLiteral("stopButton"));
        r.stop->setToolTip(tr("Remove this playback stream from the station"));
        connect(r.pause, &QPushButton::clicked, this, [this, name] { togglePause(name); });
        connect(r.stop, &QPushButton::clicked, this, [this, name] { Q_EMIT removeStreamRequested(name); });
        auto* grid = new QGridLayout(r.widget);
        grid->setContentsMargins(0, 2, 0, 2);
        grid->addWidget(label, 0, 0);
        grid->addWidget(r.bar, 0, 1);
        grid->addWidget(r.pause, 0, 2);
        grid->addWidget(r.stop, 0, 3);
        grid->addWidget(r.state, 1, 0, 1, 4);
        grid->setColumnStretch(1, 1);
        m_progressLayout->addWidget(r.widget);
        m_rows.push_back(r);
    }
    m_noPlayback->setVisible(m_rows.empty());
}

void RecordingsBrowser::togglePause(const QString& name)
{
    if (!m_station)
        return;
    const bool paused = m_station->streamPaused(name.toStdString());
    QString error;
    if (!m_session.pauseStream(name, !paused, &error))
        showPlayMessage(tr("Cannot %1 %2: %3").arg(paused ? tr("resume") : tr("pause"), name, error));
    else
        showPlayMessage({});
    refreshProgress(); // the session took a snapshot of the new state (shown even while hidden)
}

const RecordingsBrowser::ProgressRow* RecordingsBrowser::row(const QString& name) const
{
    const auto it = std::find_if(m_rows.begin(), m_rows.end(), [&](const ProgressRow& r) { return r.name == name; });
    return it == m_rows.end() ? nullptr : &*it;
}

void RecordingsBrowser::showListMessage(const QString& text, bool error)
{
    m_listMessage->setText(text);
    m_listMessage->setStyleSheet(error ? kErrorStyle : kNoteStyle);
    m_listMessage->setVisible(!text.isEmpty());
}

void RecordingsBrowser::showPlayMessage(const QString& text)
{
    m_playMessage->setText(text);
    m_playMessage->setVisible(!text.isEmpty());
}

void RecordingsBrowser::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh();
    m_listTimer->start();
}

void RecordingsBrowser::hideEvent(QHideEvent* event)
{
    m_listTimer->stop();
    QWidget::hideEvent(event);
}

} // namespace telestation::ui
