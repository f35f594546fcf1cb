#include "app/later_displays.hpp"

#include "ui/main_window.hpp"

#include <QTimer>

#include <spdlog/spdlog.h>

#include <cstdio>

namespace telestation::app {

void openDisplaysLater(ui::MainWindow& window, QList<QJsonObject> specs, const QString& path, int delayMs)
{
    // Precise: a coarse timer may fire 5% late, minutes in a run of hours.
    QTimer::singleShot(delayMs, Qt::PreciseTimer, &window, [&window, specs = std::move(specs), path] {
        window.openDisplays(specs);
        const std::string file = path.toStdString();
        spdlog::info("displays opened: {} from {}", specs.size(), file);
        std::printf("displays opened: %lld from %s\n", static_cast<long long>(specs.size()), file.c_str());
        std::fflush(stdout);
    });
}

} // namespace telestation::app
