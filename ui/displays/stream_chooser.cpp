#include "ui/displays/stream_chooser.hpp"

#include "core/pipeline/station.hpp"

#include <QSignalBlocker>
#include <QStringList>

namespace telestation::ui {

StreamChooser::StreamChooser(const pipeline::Station& station, QWidget* parent) : QComboBox(parent), m_station(station)
{
    setObjectName(QStringLiteral("streamCombo"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    reload();
    connect(this, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            Q_EMIT streamChosen(itemText(index));
    });
}

bool StreamChooser::setStream(const QString& name)
{
    const int index = findText(name);
    if (index < 0)
        return false;
    setCurrentIndex(index);
    return true;
}

void StreamChooser::reload()
{
    QStringList names;
    for (const std::uint16_t id : m_station.streamIds())
        names << QString::fromStdString(m_station.streamName(id));
    QStringList shown;
    for (int i = 0; i < count(); ++i)
        shown << itemText(i);
    if (names == shown)
        return;
    const QString chosen = currentText();
    {
        const QSignalBlocker blocker(this);
        clear();
        addItems(names);
        setCurrentIndex(names.contains(chosen) ? static_cast<int>(names.indexOf(chosen)) : (names.isEmpty() ? -1 : 0));
    }
    if (currentText() != chosen && currentIndex() >= 0)
        Q_EMIT streamChosen(currentText());
}

void StreamChooser::showPopup()
{
    reload();
    QComboBox::showPopup();
}

} // namespace telestation::ui
