#include "ui/widgets/recording_export_progress.hpp"

#include "ui/models/tones.hpp"
#include "ui/text/number_format.hpp"

#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>

#include <algorithm>
#include <cmath>

namespace telestation::ui {

RecordingExportProgress::RecordingExportProgress(QWidget* parent)
    : QWidget(parent), m_export(new RecordingExport(this))
{
    setObjectName(QStringLiteral("exportProgress"));
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("exportTitle"));
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_bar = new QProgressBar(this);
    m_bar->setObjectName(QStringLiteral("exportBar"));
    m_bar->setRange(0, kProgressSteps);
    m_bar->setFormat(QStringLiteral("%p%"));
    m_packets = new QLabel(this);
    m_packets->setObjectName(QStringLiteral("exportPackets"));
    tone::setTextColour(m_packets, tone::kMutedText);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("exportCancelButton"));
    m_cancel->setToolTip(tr("Stop the export; the partial output is removed"));
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("exportMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details = new QPushButton(tr("Details…"), this);
    m_details->setObjectName(QStringLiteral("exportDetailsButton"));
    m_details->setToolTip(tr("What was decoded: packets by type, unknown APIDs, malformed packets by reason"));

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 2, 0, 2);
    grid->addWidget(m_title, 0, 0, 1, 3);
    grid->addWidget(m_bar, 1, 0);
    grid->addWidget(m_packets, 1, 1);
    grid->addWidget(m_cancel, 1, 2);
    grid->addWidget(m_message, 2, 0, 1, 2);
    grid->addWidget(m_details, 2, 2, Qt::AlignTop);
    grid->setColumnStretch(0, 1);

    connect(m_export, &RecordingExport::progress, this, &RecordingExportProgress::showProgress);
    connect(m_export, &RecordingExport::finished, this, &RecordingExportProgress::onFinished);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_export->cancel();
        m_cancel->setEnabled(false);
        m_title->setText(tr("Cancelling…"));
    });
    connect(m_details, &QPushButton::clicked, this, &RecordingExportProgress::showDetails);
    hide();
}

bool RecordingExportProgress::start(const RecordingExportRequest& request, const mdb::MissionDatabase& db,
                                    QString* error)
{
    QString why;
    if (!m_export->start(request, db, &why)) {
        if (error)
            *error = why;
        showOutcome(tr("Export"), tr("Export not started: %1").arg(why), true);
        return false;
    }
    const QString file = QFileInfo(request.outputPath).fileName();
    m_title->setText(tr("Exporting to %1").arg(file));
    m_title->setToolTip(request.outputPath);
    m_bar->setValue(0);
    m_bar->show();
    m_packets->setText(QString());
    m_packets->show();
    m_cancel->setEnabled(true);
    m_cancel->show();
    m_message->clear();
    m_message->hide();
    m_details->hide();
    show();
    Q_EMIT started();
    return true;
}

void RecordingExportProgress::showProgress(double fraction, quint64 packets)
{
    if (!m_export->isRunning())
        return; // a late signal of an export already done
    m_bar->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * kProgressSteps)));
    m_packets->setText(tr("%1 packets").arg(countText(packets)));
}

QString RecordingExportProgress::message() const
{
    return m_message->text();
}

QString RecordingExportProgress::resultText(const RecordingExportResult& r)
{
    using Outcome = RecordingExportResult::Outcome;
    switch (r.outcome) {
    case Outcome::Written: {
        QString text = tr("Exported %1 packets, %2 values to %3.")
                           .arg(countText(r.packetsWritten), countText(r.valuesWritten), r.outputPath);
        if (r.unknownPackets > 0 || r.malformedPackets > 0)
            text += tr(" Not decoded: %1 unknown, %2 malformed packets.")
                        .arg(countText(r.unknownPackets), countText(r.malformedPackets));
        if (!r.damage.isEmpty())
            text += tr(" The recording is damaged: %1").arg(r.damage);
        return text;
    }
    case Outcome::Cancelled:
        return tr("Export cancelled after %1 packets: the partial output was removed, nothing was written to %2.")
            .arg(countText(r.packetsRead), r.outputPath);
    case Outcome::Failed:
        return tr("Export failed: %1. Nothing was written to %2.").arg(r.error, r.outputPath);
    }
    return {};
}

void RecordingExportProgress::onFinished()
{
    const RecordingExportResult& r = m_export->result();
    const bool written = r.outcome == RecordingExportResult::Outcome::Written;
    const QString text = resultText(r);
    showOutcome(written ? tr("Export done") : tr("Export"), text, r.outcome == RecordingExportResult::Outcome::Failed);
    m_details->setVisible(!r.summary.isEmpty());
    Q_EMIT finished(text);
}

void RecordingExportProgress::showOutcome(const QString& title, const QString& text, bool error)
{
    m_title->setText(title);
    m_bar->hide();
    m_packets->hide();
    m_cancel->hide();
    m_details->hide();
    m_message->setText(text);
    tone::setTextColour(m_message, error ? tone::kErrorText : palette().color(QPalette::WindowText));
    m_message->show();
    show();
}

void RecordingExportProgress::showDetails()
{
    auto* box = new QMessageBox(QMessageBox::Information, tr("Export"), m_message->text(), QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("exportDetails"));
    box->setDetailedText(details());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace telestation::ui
