// The stream combo box of a display (value display, parameter plot, packet view): the station's streams
// by name, the choice kept by name. The list is read again from the station whenever it may have
// changed (reload(), and each time the operator opens the list), so that a stream added, removed or
// renamed while the display stays open is offered as it is now; the chosen stream stays chosen while
// the station has it.
#pragma once

#include <QComboBox>
#include <QString>

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

class StreamChooser : public QComboBox {
    Q_OBJECT

public:
    explicit StreamChooser(const pipeline::Station& station, QWidget* parent = nullptr);

    // The chosen stream's name ("" when the station has none).
    [[nodiscard]] QString stream() const { return currentText(); }
    // Chooses `name` when the station has it; false (the choice unchanged) otherwise.
    bool setStream(const QString& name);
    // Reads the station's streams again; the chosen one stays chosen when it is still there, else the
    // first is chosen (streamChosen says so).
    void reload();
    // Opens the list, read again from the station first.
    void showPopup() override;

Q_SIGNALS:
    // Another stream was chosen, by the operator or because the chosen one went away.
    void streamChosen(const QString& name);

private:
    const pipeline::Station& m_station;
};

} // namespace telestation::ui
