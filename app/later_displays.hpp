// `telestation --displays FILE --displays-after SECONDS`: the display file's displays opened in the
// window SECONDS after it was shown, beside what is open and laid out as on a first start — for long
// runs whose displays are to be open for their last part only (`telestation-perf endurance
// --gui-last`). When they are open, one line on stdout, "displays opened: N from FILE", by which such a
// run times the period it measures them in.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

namespace telestation::ui {
class MainWindow;
}

namespace telestation::app {

void openDisplaysLater(ui::MainWindow& window, QList<QJsonObject> specs, const QString& path, int delayMs);

} // namespace telestation::app
