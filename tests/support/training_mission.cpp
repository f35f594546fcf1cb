#include "tests/support/training_mission.hpp"

#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/text_format.hpp"
#include "tests/support/test_paths.hpp"

#include <QtGlobal>

#include <utility>

namespace telestation::test {

const mdb::MissionDatabase& trainingDatabase()
{
    static const mdb::MissionDatabase db = [] {
        auto loaded = mdb::loadDatabase(trainingDatabasePath());
        if (!loaded)
            qFatal("training database: %s", loaded.error().toString().c_str());
        return std::move(*loaded);
    }();
    return db;
}

const mdb::MissionDatabase& trainingDefinition()
{
    static const mdb::MissionDatabase db = [] {
        auto imported = mdb::readTextFile(trainingDefinitionPath());
        if (!imported.ok())
            qFatal("training definition %s does not import", trainingDefinitionPath().c_str());
        return std::move(imported.database);
    }();
    return db;
}

} // namespace telestation::test
