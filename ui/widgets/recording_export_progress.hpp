// The recordings browser's export while it runs and once it is done: "Exporting to FILE", a progress
// bar (how much of the input has been read), the packets read and Cancel; then one line saying what
// was written (packets, values, unknown and malformed packets) or why not — a cancel removes the
// partial output, a failure names its cause — with Details… (the decode summary: packets by type,
// unknown APIDs, malformed packets by reason, damage). Hidden until the first export.
//
// It owns the RecordingExport worker and shows its throttled progress signals; nothing per packet
// reaches it.
#pragma once

#include "ui/session/recording_export.hpp"

#include <QString>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace telestation::ui {

class RecordingExportProgress : public QWidget {
    Q_OBJECT

public:
    static constexpr int kProgressSteps = 1000; // the bar's range

    explicit RecordingExportProgress(QWidget* parent = nullptr);

    // Starts an export (RecordingExport::start); false with `error`, also shown in place of the
    // progress, when it does not start.
    bool start(const RecordingExportRequest& request, const mdb::MissionDatabase& db, QString* error = nullptr);
    [[nodiscard]] bool isRunning() const noexcept { return m_export->isRunning(); }

    // The outcome in one line, as the status bar shows it.
    [[nodiscard]] static QString resultText(const RecordingExportResult& result);

    [[nodiscard]] RecordingExport* exporter() const noexcept { return m_export; }
    [[nodiscard]] QString message() const;
    [[nodiscard]] QString details() const { return m_export->result().summary; }
    [[nodiscard]] QProgressBar* bar() const noexcept { return m_bar; }
    [[nodiscard]] QPushButton* cancelButton() const noexcept { return m_cancel; }
    [[nodiscard]] QPushButton* detailsButton() const noexcept { return m_details; }

Q_SIGNALS:
    void started();
    // The export ended; `message` is resultText().
    void finished(const QString& message);

private:
    void showProgress(double fraction, quint64 packets);
    void onFinished();
    // The bar and Cancel give way to one line: what was written, or why not (in red).
    void showOutcome(const QString& title, const QString& text, bool error);
    void showDetails();

    RecordingExport* m_export = nullptr;
    QLabel* m_title = nullptr;
    QProgressBar* m_bar = nullptr;
    QLabel* m_packets = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_details = nullptr;
};

} // namespace telestation::ui
