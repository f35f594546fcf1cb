// telestation: the workstation. Parses its command line before any QApplication exists, so that
// --help, --version and --headless run without a display.
#include "core/common/guarded_main.hpp"
#include "core/config/mission_file.hpp"
#include "core/config/station_profile.hpp"
#include "app/consumers.hpp"
#include "app/demo.hpp"
#include "app/headless.hpp"
#include "app/link_responder.hpp"
#include "app/later_displays.hpp"
#include "app/quit_on_signal.hpp"
#include "app/station_logging.hpp"
#include "core/common/command_line.hpp"
#include "core/common/paths.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/summary.hpp"
#include "telestation_version.hpp"
#include "sim/engine/simulator.hpp"
#include "ui/displays/display_dock.hpp"
#include "ui/main_window.hpp"
#include "ui/session/api_host.hpp"
#include "ui/session/link_responder_host.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/window_capture.hpp"

#include <QApplication>
#include <QSettings>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <string>

using namespace telestation;

namespace {

int runHeadless(const mdb::MissionDatabase& db, const std::string& path)
{
    std::printf("Telestation %s (headless)\nMission database: %s\n%s", kVersion, path.c_str(),
                mdb::summarize(db).c_str());
    std::fflush(stdout);
    return 0;
}

// main()'s body (guardedMain runs it).
int run(int argc, char** argv)
{
    CommandLine cli("telestation", "Ground-station telemetry workstation.");
    cli.addFlag("help", "Show this help and exit.");
    cli.addFlag("version", "Show the version and exit.");
    cli.addFlag("headless", "Run the station without a display (needs --profile or --demo; alone: check the mission database).");
    cli.addOption("profile", "FILE", "Station profile (JSON) to run: streams, packet settings, queues, recording.");
    cli.addFlag("demo", "Run the training profile with the demo simulator in the same process (live data).");
    cli.addOption("duration", "SECONDS", "Headless: stop after SECONDS (default: run until SIGINT/SIGTERM).");
    cli.addOption("stats-interval", "SECONDS", "Headless: print a status line and write a snapshot every SECONDS (default 1).");
    cli.addOption("stats-out", "FILE", "Headless: write every snapshot to FILE as JSON lines.");
    cli.addOption("summary-out", "FILE", "Headless: write the final summary to FILE as JSON.");
    cli.addOption("events-out", "FILE", "Headless: write every event and alarm change to FILE as JSON lines.");
    cli.addOption("recordings", "DIR", "Record into DIR instead of the profile's recording directory.");
    cli.addOption("log-dir", "DIR", "Write the log file into DIR instead of the profile's log directory.");
    cli.addOption("consume", "LIST", "Headless: API consumers, comma-separated: packets, parameters[:N], computation[:N] "
                                     "(every packet + N parameters decoded), display[:N] (N newest values each second); "
                                     "each may end in @STREAM.");
    cli.addOption("link-responder", "ADDR:PORT", "Headless: answer link tests (telestation-sim link --to ADDR:PORT) on ADDR:PORT; "
                                               "with a profile beside the station, without one alone. See docs/link-test.md.");
    cli.addOption("link-allow", "ADDR,...", "Headless: controllers allowed to run link tests besides loopback.");
    cli.addFlag("quiet", "Headless: no status lines (the final summary is still printed).");
    cli.addOption("mdb", "FILE", "Mission database to load: .mdb, XTCE .xml or .tdef (told apart by content); default: the training database.");
    cli.addOption("displays", "FILE", "Open the displays of this display file (.tsdisplays, JSON) instead of the ones "
                                      "open when the window last closed (with --demo: instead of the demo's).");
    cli.addOption("displays-after", "SECONDS", "Open --displays only SECONDS after the window is shown, beside what is "
                                               "open (a long run's last part; prints 'displays opened: N from FILE').");
    cli.addOption("quit-after", "MS", "Close the window after MS milliseconds (for tests and screenshots).", true);
    cli.addOption("screenshot", "FILE", "With --quit-after: save a PNG of the window just before closing it.", true);
    // Log lines go to stderr: stdout carries what the program reports (summaries, help).
    spdlog::set_default_logger(spdlog::stderr_color_mt("telestation"));
    if (const auto parsed = cli.parse(argc, argv); !parsed) {
        std::fprintf(stderr, "telestation: %s\n", parsed.error().message.c_str());
        return 2;
    }
    if (cli.isSet("help")) {
        std::fputs(cli.helpText().c_str(), stdout);
        return 0;
    }
    if (cli.isSet("version")) {
        std::printf("telestation %s\n", kVersion);
        return 0;
    }

    const auto quitAfterMs = cli.integer("quit-after", -1);
    if (!quitAfterMs) {
        std::fprintf(stderr, "telestation: %s\n", quitAfterMs.error().message.c_str());
        return 2;
    }

    if (cli.isSet("headless") && (cli.isSet("profile") || cli.isSet("demo"))) {
        app::HeadlessOptions o;
        o.profilePath = cli.value("profile", "");
        o.demo = cli.isSet("demo");
        o.mdbPath = cli.value("mdb", "");
        const auto duration = cli.number("duration", 0);
        const auto interval = cli.number("stats-interval", 1);
        if (!duration || !interval || *duration < 0 || *interval <= 0) {
            std::fprintf(stderr, "telestation: %s\n",
                         !duration ? duration.error().message.c_str()
                         : !interval ? interval.error().message.c_str()
                                     : "--duration must be >= 0 and --stats-interval > 0");
            return 2;
        }
        o.durationSeconds = *duration;
        o.statsIntervalSeconds = *interval;
        o.statsOut = cli.value("stats-out", "");
        o.summaryOut = cli.value("summary-out", "");
        o.eventsOut = cli.value("events-out", "");
        o.recordingDirectory = cli.value("recordings", "");
        o.logDirectory = cli.value("log-dir", "");
        o.consume = cli.value("consume", "");
        o.quiet = cli.isSet("quiet");
        o.linkResponder = cli.value("link-responder", "");
        o.linkAllow = cli.list("link-allow");
        if (const auto specs = app::parseConsumerSpecs(o.consume); !specs) {
            std::fprintf(stderr, "telestation: %s\n", specs.error().message.c_str());
            return 2;
        }
        return app::runHeadless(o);
    }

    if (cli.isSet("link-allow") && !cli.isSet("link-responder")) {
        std::fprintf(stderr, "telestation: --link-allow needs --link-responder\n");
        return 2;
    }
    if (cli.isSet("link-responder") && !cli.isSet("headless")) {
        std::fprintf(stderr, "telestation: --link-responder needs --headless (the workstation takes it from the profile's linkResponder)\n");
        return 2;
    }
    if (cli.isSet("headless") && cli.isSet("link-responder")) {
        const config::LinkResponderOptions link{cli.value("link-responder"), cli.list("link-allow")};
        return app::runLinkResponderOnly(link, cli.value("mdb", trainingDatabasePath().string()));
    }

    if (cli.isSet("headless")) {
        const std::string mdbPath = cli.value("mdb", trainingDatabasePath().string());
        auto mission = config::loadMission(mdbPath);
        if (!mission.ok()) {
            std::fprintf(stderr, "telestation: %s\n", mission.error().toString().c_str());
            return 1;
        }
        for (const auto& note : mission.notes())
            std::fprintf(stderr, "telestation: %s\n", note.c_str());
        return runHeadless(*mission.database, mdbPath);
    }

    const auto displaysAfter = cli.number("displays-after", -1);
    if (!displaysAfter || (cli.isSet("displays-after") && (*displaysAfter < 0 || !cli.isSet("displays")))) {
        std::fprintf(stderr, "telestation: %s\n", !displaysAfter ? displaysAfter.error().message.c_str()
                                                                : "--displays-after takes SECONDS >= 0 and needs --displays");
        return 2;
    }

    // Before any thread starts (Qt's, the station's): every thread inherits the blocked signals.
    app::QuitOnSignal::blockSignals();
    QApplication app(argc, argv);
    app::QuitOnSignal quitOnSignal;
    QApplication::setApplicationName(QStringLiteral("Telestation"));
    QApplication::setOrganizationName(QStringLiteral("Telestation"));
    QApplication::setApplicationVersion(QString::fromLatin1(kVersion));

    // What to open: the demo, the profile named, else the last profile used, else a new one.
    ui::StationSession session;
    std::unique_ptr<sim::Simulator> simulator;
    // Logging is set up from the profile about to be opened, before the session starts its station:
    // replacing spdlog's default logger while a station thread logs through it is a data race
    // (ThreadSanitizer found it in the GUI workstation). A profile that does not load: the defaults.
    const auto startLogging = [](const config::StationProfile& p) {
        if (const auto warning = app::setupLogging(p.logDirectory, p.logLevel); !warning.empty())
            std::fprintf(stderr, "telestation: %s\n", warning.c_str());
    };
    const auto startLoggingFor = [&](const QString& file) {
        const auto load = config::loadProfileFile(file.toStdString());
        startLogging(load.ok() ? load.profile : config::StationProfile{});
    };
    std::optional<QList<QJsonObject>> displays;
    QString problem;
    if (cli.isSet("demo")) {
        auto profile = app::demoProfile();
        if (!profile) {
            std::fprintf(stderr, "telestation: demo profile: %s\n", profile.error().message.c_str());
            return 1;
        }
        if (cli.isSet("mdb"))
            profile->mdb = cli.value("mdb");
        startLogging(*profile);
        if (!session.open(*profile, {}, &problem))
            std::fprintf(stderr, "telestation: %s\n", problem.toLocal8Bit().constData());
        auto made = app::demoSimulator();
        if (!made) {
            std::fprintf(stderr, "telestation: demo scenario: %s\n", made.error().toString().c_str());
            return 1;
        }
        simulator = std::move(*made);
        displays = ui::loadDisplayFile(QString::fromStdString(app::demoDisplayFilePath()), &problem);
        if (!displays)
            std::fprintf(stderr, "telestation: %s\n", problem.toLocal8Bit().constData());
    } else if (cli.isSet("profile")) {
        startLoggingFor(QString::fromStdString(cli.value("profile")));
        if (!session.openFile(QString::fromStdString(cli.value("profile")), &problem)) {
            std::fprintf(stderr, "telestation: %s\n", problem.toLocal8Bit().constData());
            if (!session.station())
                return 1;
        }
    } else {
        const QStringList recent = QSettings().value(QStringLiteral("profiles/recent")).toStringList();
        if (recent.isEmpty())
            startLogging(config::StationProfile{});
        else
            startLoggingFor(recent.front());
        bool opened = !recent.isEmpty() && session.openFile(recent.front(), &problem);
        if (!opened) {
            config::StationProfile empty;
            empty.mdb = cli.value("mdb", "");
            opened = session.open(empty, {}, &problem);
        }
        if (!opened && !session.station()) {
            std::fprintf(stderr, "telestation: %s\n", problem.toLocal8Bit().constData());
            return 1;
        }
    }
    if (cli.isSet("displays")) {
        displays = ui::loadDisplayFile(QString::fromStdString(cli.value("displays")), &problem);
        if (!displays) {
            std::fprintf(stderr, "telestation: %s\n", problem.toLocal8Bit().constData());
            return 2;
        }
    }
    spdlog::info("Telestation {} starting; profile {}; mission database {}", kVersion,
                 session.profilePath().isEmpty() ? "(unsaved)" : session.profilePath().toStdString(),
                 session.databasePath().toStdString());
    if (simulator)
        simulator->startAll();

    int rc = 0;
    {
        ui::ApiHost api(session); // the user API, following the session's station
        ui::LinkResponderHost linkResponder(session); // the profile's link test responder, likewise
        ui::MainWindow window(session);
        api.showIn(window);
        const bool later = cli.isSet("displays-after");
        window.restoreLayout(later ? std::optional(QList<QJsonObject>{}) : displays);
        window.show();
        if (later && displays) // --displays-after without a loaded --displays exited above
            app::openDisplaysLater(window, *displays, QString::fromStdString(cli.value("displays")),
                                   static_cast<int>(*displaysAfter * 1000));
        if (*quitAfterMs >= 0)
            ui::closeLater(window, static_cast<int>(*quitAfterMs), QString::fromStdString(cli.value("screenshot")));
        rc = QApplication::exec();
    }
    if (simulator)
        simulator->stopAll();
    session.close();
    spdlog::info("Telestation exiting ({})", rc);
    app::shutdownLogging();
    return rc;
}

} // namespace

int main(int argc, char** argv)
{
    return telestation::guardedMain("telestation", [&] { return run(argc, argv); });
}
