// Where the tests find the checkout, the build's programs and data, and the reference missions. Only
// test_paths.cpp knows these absolute paths (compile definitions of telestation_test_support), so that
// every test source compiles to the same object in any clone and the compiler cache serves them all.
#pragma once

#include <QString>

#include <string>

namespace telestation::test {

// The repository's root (resources/, docs/).
[[nodiscard]] const std::string& sourceDir();
// The build's share/telestation (training.mdb).
[[nodiscard]] const std::string& dataDir();
// The build's bin/ (telestation, telestation-sim, telestation-mdb, telestation-perf), for QProcess.
[[nodiscard]] const QString& binDir();
// Real missions' definition files and packets (shared/data beside the repository).
[[nodiscard]] const std::string& referenceDataDir();

// The training mission: its text definition in the sources, and the database the build makes of it.
[[nodiscard]] std::string trainingDefinitionPath();
[[nodiscard]] std::string trainingDatabasePath();

} // namespace telestation::test
