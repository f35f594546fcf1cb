// telestation-sim: the training simulator. Parses its command line before any QApplication exists so
// --help and --version run without a display.
#include "core/common/command_line.hpp"
#include "sim/gui/sim_main_window.hpp"
#include "telestation_version.hpp"
#include "ui/widgets/window_capture.hpp"

#include <QApplication>

#include <cstdio>
#include <string>

int main(int argc, char** argv)
{
    using namespace telestation;
    CommandLine cli("telestation-sim", "Training simulator: generates telemetry streams from the mission database.");
    cli.addFlag("help", "Show this help and exit.");
    cli.addFlag("version", "Show the version and exit.");
    cli.addOption("quit-after", "MS", "Close the window after MS milliseconds (for tests and screenshots).", true);
    cli.addOption("screenshot", "FILE", "With --quit-after: save a PNG of the window just before closing it.", true);
    if (const auto parsed = cli.parse(argc, argv); !parsed) {
        std::fprintf(stderr, "telestation-sim: %s\n", parsed.error().message.c_str());
        return 2;
    }
    if (cli.isSet("help")) {
        std::fputs(cli.helpText().c_str(), stdout);
        return 0;
    }
    if (cli.isSet("version")) {
        std::printf("telestation-sim %s\n", kVersion);
        return 0;
    }
    const auto quitAfterMs = cli.integer("quit-after", -1);
    if (!quitAfterMs) {
        std::fprintf(stderr, "telestation-sim: %s\n", quitAfterMs.error().message.c_str());
        return 2;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Telestation training simulator"));
    sim::SimMainWindow window;
    window.show();
    if (*quitAfterMs >= 0)
        ui::closeLater(window, static_cast<int>(*quitAfterMs), QString::fromStdString(cli.value("screenshot")));
    return QApplication::exec();
}
