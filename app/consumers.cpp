#include "app/consumers.hpp"

#include "core/api/consumer.hpp"
#include "core/common/thread_name.hpp"
#include "core/pipeline/station.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <thread>

namespace telestation::app {

using namespace std::chrono_literals;

namespace {

constexpr std::uint32_t kComputationDefault = 50; // TReK: "about 50 parameters per packet"
constexpr std::uint32_t kDisplayDefault = 72;     // TReK's test 8: a value display of 72 parameters
constexpr auto kIdleSleep = 200us;

struct KindName {
    ConsumerSpec::Kind kind;
    std::string_view name;
    std::uint32_t defaultCount;
};
constexpr KindName kKinds[] = {
    {ConsumerSpec::Kind::Packets, "packets", 0},
    {ConsumerSpec::Kind::Parameters, "parameters", 0},
    {ConsumerSpec::Kind::Computation, "computation", kComputationDefault},
    {ConsumerSpec::Kind::Display, "display", kDisplayDefault},
};

Result<ConsumerSpec> parseOne(std::string_view item)
{
    const auto fail = [&](const std::string& why) -> Result<ConsumerSpec> {
        return Error{"--consume: '" + std::string(item) + "': " + why
                         + " (packets[@STREAM], parameters[:N][@STREAM], computation[:N][@STREAM], display[:N][@STREAM])",
                     {}};
    };
    ConsumerSpec spec;
    spec.text = std::string(item);
    std::string_view rest = item;
    if (const auto at = rest.find('@'); at != std::string_view::npos) {
        spec.stream = std::string(rest.substr(at + 1));
        rest = rest.substr(0, at);
        if (spec.stream.empty())
            return fail("no stream name after '@'");
    }
    std::string_view count;
    if (const auto colon = rest.find(':'); colon != std::string_view::npos) {
        count = rest.substr(colon + 1);
        rest = rest.substr(0, colon);
    }
    const auto kind = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const KindName& k) { return k.name == rest; });
    if (kind == std::end(kKinds))
        return fail("unknown kind of consumer");
    spec.kind = kind->kind;
    spec.count = kind->defaultCount;
    if (!count.empty() || item.find(':') != std::string_view::npos) {
        if (spec.kind == ConsumerSpec::Kind::Packets)
            return fail("packets takes no count");
        std::uint32_t n = 0;
        const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
        if (ec != std::errc{} || end != count.data() + count.size() || n == 0)
            return fail("the count must be a whole number above zero");
        spec.count = n;
    }
    return spec;
}

} // namespace

Result<std::vector<ConsumerSpec>> parseConsumerSpecs(std::string_view text)
{
    std::vector<ConsumerSpec> specs;
    while (!text.empty()) {
        const auto comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        if (item.empty())
            return Error{"--consume: an empty item in the list", {}};
        auto spec = parseOne(item);
        if (!spec)
            return spec.error();
        specs.push_back(std::move(*spec));
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
        if (text.empty())
            return Error{"--consume: the list ends with a comma", {}};
    }
    return specs;
}

// One consumer thread. Subclasses poll their subscription; the base runs the loop and the report.
class ApiConsumer {
public:
    ApiConsumer(pipeline::Station& station, const ConsumerSpec& spec) : m_station(station), m_spec(spec) {}
    // Each subclass calls finish() in its own destructor: the base's would run after the subclass is
    // gone, while the thread still calls its pollOnce() (a joinable thread left here terminates loudly).
    virtual ~ApiConsumer() = default;
    ApiConsumer(const ApiConsumer&) = delete;
    ApiConsumer& operator=(const ApiConsumer&) = delete;

    void start()
    {
        if (m_error.empty())
            m_thread = std::thread([this] {
                setThreadName("ts-consumer");
                run();
            });
    }
    void finish()
    {
        if (!m_thread.joinable())
            return;
        m_stop = true;
        m_thread.join();
        while (pollOnce() > 0) {
        }
    }
    [[nodiscard]] ConsumerReport report() const
    {
        return {m_spec.text, m_packets.load(std::memory_order_relaxed), m_parameters.load(std::memory_order_relaxed), m_error};
    }

protected:
    // Takes what is there; returns how many items it took (0: idle).
    virtual std::size_t pollOnce() = 0;
    virtual void run()
    {
        while (!m_stop.load(std::memory_order_relaxed))
            if (pollOnce() == 0)
                std::this_thread::sleep_for(kIdleSleep);
    }
    void fail(const std::string& why)
    {
        m_error = why;
        spdlog::error("consumer {}: {}", m_spec.text, why);
    }
    // The first `count` parameters (0 = all) of every packet type, by qualified name.
    [[nodiscard]] std::vector<std::string> firstParameters(std::uint32_t count) const
    {
        std::vector<std::string> names;
        if (count == 0)
            return names; // the API's "every parameter"
        const auto& types = m_station.types();
        for (std::uint32_t t = 1; t < types.typeCount(); ++t) {
            const std::uint32_t n = std::min(count, types.parameterCount(t));
            for (std::uint32_t i = 0; i < n; ++i)
                names.push_back(types.parameter(types.firstParameterId(t) + i).qualifiedName);
        }
        return names;
    }

    pipeline::Station& m_station;
    ConsumerSpec m_spec;
    std::atomic<std::uint64_t> m_packets{0}, m_parameters{0};
    std::atomic<bool> m_stop{false};

private:
    std::string m_error;
    std::thread m_thread;
};

namespace {

class ParameterConsumer final : public ApiConsumer {
public:
    ParameterConsumer(pipeline::Station& station, const ConsumerSpec& spec) : ApiConsumer(station, spec)
    {
        api::ParameterSubscription::Options o;
        o.name = spec.text;
        o.stream = spec.stream;
        o.parameters = firstParameters(spec.count);
        auto sub = api::ParameterSubscription::create(station, o);
        if (sub)
            m_sub = std::move(*sub);
        else
            fail(sub.error().message);
    }
    ~ParameterConsumer() override { finish(); }

private:
    std::size_t pollOnce() override
    {
        const std::size_t n = m_sub->poll(m_samples);
        for (std::size_t i = 0; i < n; ++i)
            m_checksum += m_samples[i].value.raw;
        m_parameters.fetch_add(n, std::memory_order_relaxed);
        return n;
    }
    std::unique_ptr<api::ParameterSubscription> m_sub;
    std::vector<api::ParameterSample> m_samples = std::vector<api::ParameterSample>(16384);
    std::uint64_t m_checksum = 0;
};

// Every packet, and `count` of its parameters (0 for "packets") decoded through the API on demand.
class PacketConsumer final : public ApiConsumer {
public:
    PacketConsumer(pipeline::Station& station, const ConsumerSpec& spec) : ApiConsumer(station, spec), m_reader(station)
    {
        api::PacketSubscription::Options o;
        o.name = spec.text;
        o.stream = spec.stream;
        auto sub = api::PacketSubscription::create(station, o);
        if (sub)
            m_sub = std::move(*sub);
        else
            fail(sub.error().message);
    }
    ~PacketConsumer() override { finish(); }

private:
    std::size_t pollOnce() override
    {
        std::uint64_t parameters = 0;
        const std::size_t n = m_sub->poll(
            [&](const api::PacketView& p) {
                m_checksum += p.packet.size(); // touches every packet, as a real user reads its packets
                for (std::uint32_t i = 0; i < m_spec.count; ++i) {
                    const auto sample = m_reader.decode(p, i);
                    if (!sample)
                        break; // an unknown packet, or a type with fewer parameters
                    m_checksum += sample->value.raw;
                    ++parameters;
                }
            },
            4096);
        m_packets.fetch_add(n, std::memory_order_relaxed);
        m_parameters.fetch_add(parameters, std::memory_order_relaxed);
        return n;
    }
    api::ParameterReader m_reader;
    std::unique_ptr<api::PacketSubscription> m_sub;
    std::uint64_t m_checksum = 0;
};

// The newest value of `count` parameters, once a second, as an operator's value display shows them.
// The parameters: the first `count` of the packet types that have values on the stream (processed
// entirely or on demand), in mission database order.
class DisplayConsumer final : public ApiConsumer {
public:
    DisplayConsumer(pipeline::Station& station, const ConsumerSpec& spec) : ApiConsumer(station, spec), m_reader(station)
    {
        if (spec.stream.empty()) {
            m_streams = station.streamIds();
        } else if (const auto id = station.streamId(spec.stream)) {
            m_streams.push_back(*id);
        } else {
            fail("no stream named '" + spec.stream + "'");
        }
    }
    ~DisplayConsumer() override { finish(); }

private:
    void run() override
    {
        auto next = std::chrono::steady_clock::now();
        while (!m_stop.load(std::memory_order_relaxed)) {
            if (std::chrono::steady_clock::now() >= next) {
                pollOnce();
                next += 1s;
            }
            std::this_thread::sleep_for(10ms);
        }
    }
    std::size_t pollOnce() override
    {
        const auto& types = m_station.types();
        std::uint64_t read = 0;
        for (const std::uint16_t stream : m_streams) {
            std::uint32_t shown = 0;
            for (std::uint32_t t = 1; t < types.typeCount() && shown < m_spec.count; ++t) {
                const auto mode = m_station.mode(stream, t);
                if (mode == config::ProcessingMode::PassThru)
                    continue;
                for (std::uint32_t i = 0; i < types.parameterCount(t) && shown < m_spec.count; ++i, ++shown)
                    if (const auto sample = m_reader.read(stream, types.firstParameterId(t) + i)) {
                        m_checksum += sample->value.raw;
                        ++read;
                    }
            }
        }
        m_parameters.fetch_add(read, std::memory_order_relaxed);
        return 0; // finish() polls until 0: one last refresh is enough
    }
    api::ParameterReader m_reader;
    std::vector<std::uint16_t> m_streams;
    std::uint64_t m_checksum = 0;
};

} // namespace

ApiConsumers::ApiConsumers(pipeline::Station& station, const std::vector<ConsumerSpec>& specs)
{
    for (const auto& spec : specs) {
        switch (spec.kind) {
        case ConsumerSpec::Kind::Packets:
        case ConsumerSpec::Kind::Computation:
            m_consumers.push_back(std::make_unique<PacketConsumer>(station, spec));
            break;
        case ConsumerSpec::Kind::Parameters:
            m_consumers.push_back(std::make_unique<ParameterConsumer>(station, spec));
            break;
        case ConsumerSpec::Kind::Display:
            m_consumers.push_back(std::make_unique<DisplayConsumer>(station, spec));
            break;
        }
        m_consumers.back()->start();
    }
}

ApiConsumers::~ApiConsumers() = default;

void ApiConsumers::finish()
{
    for (auto& c : m_consumers)
        c->finish();
}

std::vector<ConsumerReport> ApiConsumers::reports() const
{
    std::vector<ConsumerReport> out;
    for (const auto& c : m_consumers)
        out.push_back(c->report());
    return out;
}

} // namespace telestation::app
