// The one test source compiled with the checkout's paths (see test_paths.hpp).
#include "tests/support/test_paths.hpp"

namespace telestation::test {

const std::string& sourceDir()
{
    static const std::string dir = TELESTATION_SOURCE_DIR;
    return dir;
}

const std::string& dataDir()
{
    static const std::string dir = TELESTATION_DATA_DIR;
    return dir;
}

const QString& binDir()
{
    static const QString dir = QStringLiteral(TELESTATION_BIN_DIR);
    return dir;
}

const std::string& referenceDataDir()
{
    static const std::string dir = TELESTATION_REFERENCE_DATA_DIR;
    return dir;
}

std::string trainingDefinitionPath()
{
    return sourceDir() + "/resources/mdb/training.tdef";
}

std::string trainingDatabasePath()
{
    return dataDir() + "/training.mdb";
}

} // namespace telestation::test
