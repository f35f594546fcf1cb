// telestation-api-consumer: TReK's "performance computation" as a program of its own, reading a running
// station's user API — the C++ external consumer of `telestation-perf --consumer external`.
//
//   telestation-api-consumer --target HOST:PORT --consume packets|parameters:N [--packet Packet5]
//                            [--idle-seconds 2] [--capacity N] [--max-batch N]
//
// It subscribes, every sample: "packets" to every packet of every stream; "parameters:N" to the first N
// parameters of --packet (their names from GetMissionDatabase). It prints "subscribed" once the station
// has the subscription in place, then reads batch after batch into one reused message (no allocation per
// sample) and computes: packets — counts them and sums their lengths and last bytes; parameters — counts
// the samples and sums their calibrated values. When the station ends the call, or nothing has come for
// --idle-seconds after the first data, it prints, as the headless station's in-process consumers do,
//
//   Consumer ITEM: P packets, Q parameters, D dropped
//
// (D: what the station dropped for this client, its buffer being full) and exits 0; 1 when the call
// failed, 2 for wrong options. TELESTATION_TOKEN in the environment is sent as the call's token.
#include "clients/cpp/client.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

namespace v1 = telestation::v1;
using Clock = std::chrono::steady_clock;

struct Settings {
    std::string target;
    std::string consume;          // as given: "packets", "parameters:50"
    std::string kind;             // "packets" or "parameters"
    std::uint32_t count = 0;      // parameters:N
    std::string packet = "Packet5";
    double idleSeconds = 2;
    std::uint32_t capacity = 0;   // 0: the kind's default
    std::uint32_t maxBatch = 0;   // 0: the kind's default
};

constexpr std::uint32_t kPacketCapacity = 32768;       // ~0.3 s at 1 Gbit/s of 1288-byte packets; the pool has 65,536 slots
constexpr std::uint32_t kParameterCapacity = 1u << 21; // ~2 s at 1 M samples/s
constexpr std::uint32_t kPacketBatch = 1024;
constexpr std::uint32_t kParameterBatch = 16384;

int usage(const char* program, const std::string& why)
{
    std::fprintf(stderr, "%s: %s\nusage: %s --target HOST:PORT --consume packets|parameters:N [--packet NAME] "
                         "[--idle-seconds S] [--capacity N] [--max-batch N]\n",
                 program, why.c_str(), program);
    return 2;
}

bool wholeNumber(const char* text, std::uint32_t& out)
{
    char* end = nullptr;
    const unsigned long v = std::strtoul(text, &end, 10);
    if (end == text || *end != '\0' || v == 0 || v > 0xffffffffUL)
        return false;
    out = static_cast<std::uint32_t>(v);
    return true;
}

// Reads the options; an error text, empty when they are good.
std::string parse(int argc, char** argv, Settings& s)
{
    for (int i = 1; i < argc; ++i) {
        const std::string option = argv[i];
        if (i + 1 >= argc)
            return option + " needs a value";
        const char* value = argv[++i];
        if (option == "--target") {
            s.target = value;
        } else if (option == "--consume") {
            s.consume = value;
        } else if (option == "--packet") {
            s.packet = value;
        } else if (option == "--idle-seconds") {
            char* end = nullptr;
            s.idleSeconds = std::strtod(value, &end);
            if (end == value || *end != '\0' || !(s.idleSeconds > 0))
                return "--idle-seconds takes a number above zero";
        } else if (option == "--capacity" || option == "--max-batch") {
            if (!wholeNumber(value, option == "--capacity" ? s.capacity : s.maxBatch))
                return option + " takes a whole number above zero";
        } else {
            return "unknown option " + option;
        }
    }
    if (s.target.empty() || s.consume.empty())
        return "--target and --consume are required";
    if (s.consume == "packets") {
        s.kind = "packets";
    } else if (s.consume.rfind("parameters:", 0) == 0 && wholeNumber(s.consume.c_str() + 11, s.count)) {
        s.kind = "parameters";
    } else {
        return "--consume takes packets or parameters:N, not '" + s.consume + "'";
    }
    return {};
}

// Ends the subscription when nothing has come for `idleSeconds` after the first data: the station's
// calls do not end before it stops, and telestation-perf stops it only once its clients have all.
class IdleWatch {
public:
    template <typename Subscription>
    IdleWatch(Subscription& subscription, double idleSeconds)
        : m_thread([this, &subscription, idle = std::chrono::duration<double>(idleSeconds)] {
              while (!m_done.load()) {
                  std::this_thread::sleep_for(std::chrono::milliseconds(50));
                  const auto last = m_lastData.load(std::memory_order_relaxed);
                  if (last != 0 && Clock::now() - Clock::time_point(Clock::duration(last)) > idle) {
                      m_idled.store(true);
                      subscription.interrupt();
                      return;
                  }
              }
          })
    {
    }
    ~IdleWatch()
    {
        m_done.store(true);
        m_thread.join();
    }
    IdleWatch(const IdleWatch&) = delete;
    IdleWatch& operator=(const IdleWatch&) = delete;

    void dataCame() { m_lastData.store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed); }
    [[nodiscard]] bool idled() const { return m_idled.load(); }

private:
    std::atomic<Clock::rep> m_lastData{0};
    std::atomic<bool> m_done{false}, m_idled{false};
    std::thread m_thread; // last: starts once the members it reads exist
};

struct Tally {
    std::uint64_t packets = 0, parameters = 0, dropped = 0;
    double sum = 0; // the computation's result, printed so that it is not optimised away
};

// Reads a subscription to its end: `compute(batch, tally)` for each batch after the first (which only
// says the subscription is in place). Returns the exit code.
template <typename Batch, typename Compute>
int consume(telestation::client::Subscription<Batch>& subscription, const Settings& s, Compute compute)
{
    Batch batch;
    if (!subscription.next(batch)) {
        std::fprintf(stderr, "telestation-api-consumer: %s: the subscription was refused: %s\n", s.consume.c_str(),
                     subscription.status().error_message().c_str());
        return 1;
    }
    std::printf("subscribed\n");
    std::fflush(stdout);
    Tally tally;
    bool idled = false;
    {
        IdleWatch watch(subscription, s.idleSeconds);
        while (subscription.next(batch)) {
            if (compute(batch, tally))
                watch.dataCame();
            tally.dropped = batch.dropped();
        }
        idled = watch.idled();
    }
    const grpc::Status& status = subscription.status();
    const bool failed = !status.ok() && !(idled && status.error_code() == grpc::StatusCode::CANCELLED);
    std::printf("Computation %s: %.17g\n", s.consume.c_str(), tally.sum);
    std::printf("Consumer %s: %llu packets, %llu parameters, %llu dropped\n", s.consume.c_str(),
                static_cast<unsigned long long>(tally.packets), static_cast<unsigned long long>(tally.parameters),
                static_cast<unsigned long long>(tally.dropped));
    std::fflush(stdout);
    if (failed) {
        std::fprintf(stderr, "telestation-api-consumer: %s: the call ended with %s\n", s.consume.c_str(),
                     status.error_message().c_str());
        return 1;
    }
    return 0;
}

int consumePackets(telestation::client::Client& station, const Settings& s)
{
    v1::SubscribePacketsRequest request;
    request.set_delivery(v1::DELIVERY_EVERY_SAMPLE);
    request.set_capacity(s.capacity ? s.capacity : kPacketCapacity);
    request.set_max_batch(s.maxBatch ? s.maxBatch : kPacketBatch);
    auto subscription = station.packets(request);
    return consume(subscription, s, [](const v1::PacketBatch& batch, Tally& tally) {
        std::uint64_t bytes = 0;
        for (const v1::Packet& p : batch.packets()) {
            const std::string& frame = p.frame();
            bytes += frame.size() + (frame.empty() ? 0 : static_cast<unsigned char>(frame.back()));
        }
        tally.packets += static_cast<std::uint64_t>(batch.packets_size());
        tally.sum += double(bytes);
        return batch.packets_size() > 0;
    });
}

int consumeParameters(telestation::client::Client& station, const Settings& s)
{
    const v1::MissionDatabase db = station.missionDatabase();
    const v1::PacketType* type = nullptr;
    for (const auto& t : db.packet_types())
        if (t.name() == s.packet)
            type = &t;
    if (!type) {
        std::fprintf(stderr, "telestation-api-consumer: the station's mission database has no packet %s\n", s.packet.c_str());
        return 1;
    }
    v1::SubscribeParametersRequest request;
    request.set_delivery(v1::DELIVERY_EVERY_SAMPLE);
    request.set_capacity(s.capacity ? s.capacity : kParameterCapacity);
    request.set_max_batch(s.maxBatch ? s.maxBatch : kParameterBatch);
    for (int i = 0; i < type->parameters_size() && std::uint32_t(i) < s.count; ++i)
        request.add_parameters(type->parameters(i).qualified_name());
    auto subscription = station.parameters(request);
    return consume(subscription, s, [](const v1::ParameterBatch& batch, Tally& tally) {
        double sum = 0;
        for (const v1::ParameterSample& sample : batch.samples())
            sum += sample.calibrated();
        tally.parameters += static_cast<std::uint64_t>(batch.samples_size());
        tally.sum += sum;
        return batch.samples_size() > 0;
    });
}

} // namespace

int main(int argc, char** argv)
{
    Settings settings;
    if (const std::string error = parse(argc, argv, settings); !error.empty())
        return usage(argv[0], error);
    telestation::client::Options options;
    if (const char* token = std::getenv("TELESTATION_TOKEN"))
        options.token = token;
    options.clientName = "telestation-api-consumer " + settings.consume;
    try {
        telestation::client::Client station(settings.target, options);
        return settings.kind == "packets" ? consumePackets(station, settings) : consumeParameters(station, settings);
    } catch (const telestation::client::Error& e) {
        std::fprintf(stderr, "telestation-api-consumer: %s\n", e.what());
        return 1;
    }
}
