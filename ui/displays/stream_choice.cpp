#include "ui/displays/stream_choice.hpp"

#include "core/pipeline/station.hpp"

#include <QComboBox>
#include <QSignalBlocker>

namespace telestation::ui {

bool fillStreamChoice(QComboBox& combo, const pipeline::Station& station)
{
    const QString chosen = combo.currentText();
    const QVariant chosenId = combo.currentData();
    const QSignalBlocker block(&combo);
    combo.clear();
    for (const std::uint16_t id : station.streamIds())
        combo.addItem(QString::fromStdString(station.streamName(id)), id);
    const int at = combo.findText(chosen);
    combo.setCurrentIndex(at >= 0 ? at : (combo.count() > 0 ? 0 : -1));
    return combo.currentText() != chosen || combo.currentData() != chosenId;
}

} // namespace telestation::ui
