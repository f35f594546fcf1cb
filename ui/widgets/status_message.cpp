#include "ui/widgets/status_message.hpp"

#include <QStatusBar>
#include <QStringList>

namespace telestation::ui {

StatusMessage::StatusMessage(QStatusBar& bar) : QObject(&bar), m_bar(bar)
{
    // The tool tip belongs to the message: it goes when the message times out or is cleared.
    connect(&m_bar, &QStatusBar::messageChanged, this, [this](const QString& message) {
        if (message.isEmpty())
            m_bar.setToolTip(QString());
    });
}

QString StatusMessage::oneLine(const QString& text)
{
    QStringList lines;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            lines << line.trimmed();
    }
    if (lines.isEmpty())
        return {};
    if (lines.size() == 1)
        return lines.front();
    return tr("%1 (+%n more: see the event log)", nullptr, static_cast<int>(lines.size() - 1)).arg(lines.front());
}

void StatusMessage::show(const QString& text)
{
    const QString line = oneLine(text);
    if (line.isEmpty()) {
        m_bar.clearMessage();
        return;
    }
    // QStatusBar keeps one temporary message: showing another replaces it and restarts the timeout.
    m_bar.showMessage(line, kTimeoutMs);
    m_bar.setToolTip(text.trimmed());
}

QString StatusMessage::current() const
{
    return m_bar.currentMessage();
}

} // namespace telestation::ui
