// The training mission, read once per test program: the database the build compiles into
// share/telestation/training.mdb (integration and GUI tests), or its text definition in the sources
// (unit tests, which do not wait for that build step). qFatal when it cannot be read: every test that
// asks for it would fail for the same reason. Tests that change it take a copy.
#pragma once

#include "core/mdb/model.hpp"

namespace telestation::test {

[[nodiscard]] const mdb::MissionDatabase& trainingDatabase();
[[nodiscard]] const mdb::MissionDatabase& trainingDefinition();

} // namespace telestation::test
