#include "ui/widgets/recording_status_line.hpp"

#include "ui/session/station_session.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace telestation::ui {

namespace {

const QString kErrorStyle = QStringLiteral("color: #b00020");

} // namespace

RecordingStatusLine::RecordingStatusLine(StationSession& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    m_state = new QLabel(tr("Not recording"), this);
    m_state->setObjectName(QStringLiteral("recordingState"));
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_resume = new QPushButton(tr("Resume recording"), this);
    m_resume->setObjectName(QStringLiteral("resumeRecordingButton"));
    m_resume->setToolTip(tr("Record again once there is room (or the fault is fixed): each stream that stopped "
                            "records into a new segment from its next packet"));
    m_resume->hide();
    connect(m_resume, &QPushButton::clicked, this, &RecordingStatusLine::resume);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_state, 1);
    layout->addWidget(m_resume);
    session.snapshots().follow(this, [this](const SharedSnapshot& snapshot) { showState(snapshot); });
}

QString RecordingStatusLine::text() const
{
    return m_state->text();
}

void RecordingStatusLine::showState(const SharedSnapshot& snapshot)
{
    const std::string state = snapshot ? snapshot->recordingState : std::string();
    m_failed = state.starts_with("failed");
    if (m_failed)
        m_state->setText(tr("Recording stopped: %1").arg(QString::fromStdString(state.substr(state.find(':') + 1)).trimmed()));
    else if (state.starts_with("recording to "))
        m_state->setText(tr("Recording to %1").arg(QString::fromStdString(state.substr(13))));
    else
        m_state->setText(tr("Not recording"));
    m_state->setStyleSheet(m_failed ? kErrorStyle : QString());
    m_resume->setVisible(m_failed);
}

void RecordingStatusLine::resume()
{
    const QString message = m_session.resumeRecording();
    m_state->setText(message);
    m_state->setStyleSheet({});
    m_resume->hide();
    Q_EMIT resumed(message);
}

} // namespace telestation::ui
