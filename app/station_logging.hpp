// Logging for the workstation and the headless mode: spdlog, asynchronous (a full log queue drops the
// oldest message rather than stalling an engine thread), to the console (stderr) and a rotating file
// in the station's log directory. Never called per packet.
#pragma once

#include <string>

namespace telestation::app {

// Installs the default logger. `logDirectory` "" = console only. Returns a warning text when the file
// could not be opened (logging then goes to the console only), else "".
std::string setupLogging(const std::string& logDirectory, const std::string& level, bool console = true);
// Flushes and stops the logging thread (call before exit).
void shutdownLogging();

} // namespace telestation::app
