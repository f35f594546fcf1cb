#include "app/station_logging.hpp"

#include <spdlog/async.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>
#include <vector>

namespace telestation::app {

namespace {
// The logger itself, kept here so that it outlives the registry's thread pool at shutdown (see
// shutdownLogging). The one piece of global state the style guide allows.
std::shared_ptr<spdlog::logger> g_logger;
constexpr std::size_t kQueueMessages = 8192;
constexpr std::size_t kFileBytes = std::size_t{10} * 1024 * 1024;
constexpr std::size_t kFiles = 5;
} // namespace

std::string setupLogging(const std::string& logDirectory, const std::string& level, bool console)
{
    std::vector<spdlog::sink_ptr> sinks;
    if (console)
        sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    std::string warning;
    if (!logDirectory.empty()) {
        try {
            std::filesystem::create_directories(logDirectory);
            const auto file = (std::filesystem::path(logDirectory) / "telestation.log").string();
            sinks.push_back(std::make_shared<spdlog::sinks::rotating_file_sink_mt>(file, kFileBytes, kFiles));
        } catch (const std::exception& e) {
            warning = "log file in " + logDirectory + ": " + e.what() + " (logging to the console only)";
        }
    }
    spdlog::init_thread_pool(kQueueMessages, 1);
    auto logger = std::make_shared<spdlog::async_logger>("telestation", sinks.begin(), sinks.end(), spdlog::thread_pool(),
                                                         spdlog::async_overflow_policy::overrun_oldest);
    logger->set_level(spdlog::level::from_str(level == "warning" ? "warn" : level));
    logger->flush_on(spdlog::level::warn);
    spdlog::set_default_logger(logger);
    g_logger = logger;
    spdlog::flush_every(std::chrono::seconds(2));
    if (!warning.empty())
        spdlog::warn("{}", warning);
    return warning;
}

void shutdownLogging()
{
    spdlog::default_logger()->flush();
    // shutdown() stops the periodic flusher, drops the registry's loggers and joins the thread pool's
    // worker; only then is the logger (and its sinks, which the worker wrote to) destroyed, here.
    spdlog::shutdown();
    g_logger.reset();
}

} // namespace telestation::app
