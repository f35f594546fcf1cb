// A StationSession for GUI tests: opened on a profile (the training mission database unless the
// profile names one), its station running, the test program stopped with the reason when it does not
// open. The views under test take their profile and their snapshots from it, as in the workstation.
#pragma once

#include "core/config/station_profile.hpp"
#include "tests/support/test_paths.hpp"
#include "ui/session/station_session.hpp"

#include <QString>
#include <QtGlobal>

#include <memory>
#include <string>

namespace telestation::test {

inline std::unique_ptr<ui::StationSession> openSession(config::StationProfile profile,
                                                       const pipeline::StationOptions& options = {})
{
    if (profile.mdb.empty())
        profile.mdb = test::trainingDatabasePath();
    auto session = std::make_unique<ui::StationSession>(nullptr, options);
    QString error;
    if (!session->open(profile, QString(), &error) && !session->station())
        qFatal("session: %s", qPrintable(error));
    return session;
}

} // namespace telestation::test
