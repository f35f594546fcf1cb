// What the benchmark executables share: the options --help, --mdb, --packet and --seconds, and
// loading the mission database (in any form: .mdb, .tdef or XTCE) and the packet type to measure.
#pragma once

#include "core/common/command_line.hpp"
#include "core/common/paths.hpp"
#include "core/config/mission_file.hpp"

#include <cstdio>
#include <optional>
#include <string>

namespace telestation::bench {

// A mission database in any form config::loadMission reads (told apart by content), compiled in
// memory: an XTCE file is imported every time (no cache beside it), so that runs measure the same.
inline Result<mdb::MissionDatabase> loadAnyMission(const std::string& path)
{
    config::MissionLoadOptions options;
    options.useCache = false;
    auto loaded = config::loadMission(path, options);
    if (!loaded.ok())
        return loaded.error();
    return std::move(*loaded.database);
}

struct Setup {
    mdb::MissionDatabase db;
    const mdb::PacketDef* packet = nullptr; // into db
    double seconds = 3;
};

// Adds the common options to `cli` (a benchmark adds its own before calling this), parses, loads.
// Returns nothing when the program should exit now, with `exitCode` set (0 after --help, 2 for a
// wrong argument, 1 for a database that cannot be loaded).
inline std::optional<Setup> setUp(CommandLine& cli, const char* program, int argc, char** argv, double defaultSeconds,
                                  int& exitCode)
{
    cli.addFlag("help", "Show this help.");
    cli.addOption("mdb", "FILE", "Mission database: .mdb, .tdef or XTCE; default: the training database.");
    cli.addOption("packet", "NAME", "Packet type; default Packet5 (another mission: its first fixed-layout type).");
    cli.addOption("seconds", "S", "How long to run.");
    exitCode = 2;
    if (const auto ok = cli.parse(argc, argv); !ok) {
        std::fprintf(stderr, "%s: %s\n", program, ok.error().message.c_str());
        return std::nullopt;
    }
    if (cli.isSet("help")) {
        std::fputs(cli.helpText().c_str(), stdout);
        exitCode = 0;
        return std::nullopt;
    }
    const auto seconds = cli.number("seconds", defaultSeconds);
    if (!seconds || *seconds <= 0) {
        std::fprintf(stderr, "%s: --seconds needs a number above zero\n", program);
        return std::nullopt;
    }
    exitCode = 1;
    const std::string path = cli.value("mdb", trainingDatabasePath().string());
    auto db = loadAnyMission(path);
    if (!db) {
        std::fprintf(stderr, "%s: %s\n", program, db.error().toString().c_str());
        return std::nullopt;
    }
    Setup setup{std::move(db).value(), nullptr, *seconds};
    const std::string name = cli.value("packet", "Packet5");
    setup.packet = setup.db.findPacket(name);
    if (!setup.packet && !cli.isSet("packet")) {
        // Another mission: its first packet type with a fixed layout, else its first.
        for (const auto& p : setup.db.packets)
            if (!setup.packet || (setup.packet->variableLayout() && !p.variableLayout()))
                setup.packet = &p;
    }
    if (!setup.packet) {
        std::fprintf(stderr, "%s: no packet %s in %s\n", program, name.c_str(), path.c_str());
        return std::nullopt;
    }
    exitCode = 0;
    return setup;
}

} // namespace telestation::bench
