// Encoder benchmark: fills Packet 5 (APID 7, 1288 bytes) of the training mission database over and
// over on one thread, the way the simulator does — calibrated values through the inverse of each
// parameter's calibrator, converted values where there is none, states of enumerations, text — and
// prints parameters per second, in all and per kind of call. Not a test: run it from a release build.
//
//   build/release/bin/bench_encode [--mdb FILE] [--packet NAME] [--seconds S]
#include "core/common/clock.hpp"
#include "tests/bench/bench_support.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/decode/encoder.hpp"
#include "sim/engine/packet_factory.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace telestation;

namespace {

// How each parameter is written.
enum class Call : std::uint8_t { Converted, CalibratedLinear, CalibratedPolynomial, CalibratedPoints, State, Text };
constexpr std::array<const char*, 6> kCallNames = {"setConverted", "setCalibrated, linear polynomial",
                                                   "setCalibrated, non-linear polynomial", "setCalibrated, point pairs",
                                                   "setState", "setString"};
constexpr std::size_t kSets = 64; // sets of values, written in turn

// Parameters to write, in packet order, with kSets values each: values[set * size() + k].
struct Work {
    std::vector<std::size_t> index;
    std::vector<Call> call;
    std::vector<double> values;
    [[nodiscard]] std::size_t size() const { return index.size(); }
};

double threadCpuSeconds()
{
    return double(clock::threadCpuNs()) * 1e-9;
}

} // namespace

int main(int argc, char** argv)
{
    CommandLine cli("bench_encode", "Encoder throughput on one core.");
    int exitCode = 0;
    auto setup = bench::setUp(cli, "bench_encode", argc, argv, 3, exitCode);
    if (!setup)
        return exitCode;
    const mdb::PacketDef* packet = setup->packet;
    const double seconds = setup->seconds;
    auto encoder = decode::EncodePlan::compile(*packet);
    auto decoder = decode::DecodePlan::compile(*packet);
    if (!encoder || !decoder) {
        std::fprintf(stderr, "bench_encode: %s\n", (encoder ? decoder.error() : encoder.error()).message.c_str());
        return 1;
    }
    const decode::EncodePlan& plan = *encoder;
    const sim::PacketFactory factory(*packet);
    std::vector<std::uint8_t> bytes(factory.packetSize());
    factory.build(bytes, 0, 0);

    // What to write: per parameter a kind of call and kSets values across its range (calibrated
    // values between the calibrated values of the field's ends, as the decoder computes them).
    struct Entry {
        std::size_t index;
        Call call;
        std::vector<double> values;
    };
    std::vector<Entry> entries;
    std::mt19937_64 rng(42);
    for (std::size_t i = 0; i < packet->parameters.size(); ++i) {
        const auto& p = packet->parameters[i];
        Call call;
        double low = plan.minConverted(i);
        double high = plan.maxConverted(i);
        if (p.type == mdb::DataType::String || p.type == mdb::DataType::Bytes) {
            call = Call::Text;
        } else if (plan.stateCount(i) > 0) {
            call = Call::State;
            low = 0;
            high = static_cast<double>(plan.stateCount(i)) - 1e-9;
        } else if (std::holds_alternative<std::monostate>(p.calibrator)) {
            call = Call::Converted;
            if (p.type == mdb::DataType::Float) {
                low = -1e6;
                high = 1e6;
            }
        } else if (plan.invertible(i)) {
            const auto* poly = std::get_if<mdb::PolynomialCalibrator>(&p.calibrator);
            call = !poly                            ? Call::CalibratedPoints
                : poly->coefficients.size() <= 2 ? Call::CalibratedLinear
                                                 : Call::CalibratedPolynomial;
            plan.setConverted(bytes, i, low);
            const double a = decoder->decodeOne(bytes, i).calibrated;
            plan.setConverted(bytes, i, high);
            const double b = decoder->decodeOne(bytes, i).calibrated;
            low = std::min(a, b);
            high = std::max(a, b);
        } else {
            continue;
        }
        Entry e{i, call, {}};
        std::uniform_real_distribution<double> value(low, high);
        for (std::size_t s = 0; s < kSets; ++s)
            e.values.push_back(value(rng));
        entries.push_back(std::move(e));
    }
    // The whole packet (kind < 0) or the parameters of one kind of call.
    const auto select = [&](int kind) {
        Work w;
        for (const Entry& e : entries)
            if (kind < 0 || static_cast<int>(e.call) == kind) {
                w.index.push_back(e.index);
                w.call.push_back(e.call);
            }
        w.values.resize(kSets * w.size());
        for (std::size_t s = 0; s < kSets; ++s)
            for (std::size_t k = 0, m = 0; k < entries.size(); ++k)
                if (kind < 0 || static_cast<int>(entries[k].call) == kind)
                    w.values[s * w.size() + m++] = entries[k].values[s];
        return w;
    };
    const std::array<std::string, 4> texts = {"RUN_SCIENCE 42", "MOVE_STAGE X=12.5 Y=-3.25",
                                              "SET_HEATER A ON", "v2.7.1-flight"};

    const auto fill = [&](const Work& w, std::size_t set) {
        const double* v = w.values.data() + set * w.size();
        for (std::size_t k = 0; k < w.size(); ++k) {
            const std::size_t i = w.index[k];
            switch (w.call[k]) {
            case Call::Converted:
                plan.setConverted(bytes, i, v[k]);
                break;
            case Call::CalibratedLinear:
            case Call::CalibratedPolynomial:
            case Call::CalibratedPoints:
                (void)plan.setCalibrated(bytes, i, v[k]);
                break;
            case Call::State:
                (void)plan.setState(bytes, i, static_cast<std::size_t>(v[k]));
                break;
            case Call::Text:
                plan.setString(bytes, i, texts[set % texts.size()]);
                break;
            }
        }
    };
    // Fills over and over for `duration`. Rates per second of this thread's CPU time (other load on
    // the machine does not count against it) and of wall-clock time.
    struct Rate {
        double cpu;
        double wall;
    };
    const auto measure = [&](const Work& w, double duration) {
        std::uint64_t written = 0;
        const double cpuStart = threadCpuSeconds();
        const auto start = std::chrono::steady_clock::now();
        auto now = start;
        while (std::chrono::duration<double>(now - start).count() < duration) {
            for (int round = 0; round < 16; ++round) {
                for (std::size_t s = 0; s < kSets; ++s)
                    fill(w, s);
                written += kSets * w.size();
            }
            now = std::chrono::steady_clock::now();
        }
        const double cpu = threadCpuSeconds() - cpuStart;
        return Rate{double(written) / cpu, double(written) / std::chrono::duration<double>(now - start).count()};
    };

    const Work all = select(-1);
    std::printf("packet %s (APID %u, %zu bytes): %zu parameters written per packet\n", packet->name.c_str(),
                unsigned(packet->apid), bytes.size(), all.size());
    std::printf("rates per second of CPU time (wall-clock in brackets)\n");
    const Rate whole = measure(all, seconds);
    std::printf("all parameters:                         %7.1f million parameters/s (%.1f), %.2f ns each, %.0f packets/s\n",
                whole.cpu / 1e6, whole.wall / 1e6, 1e9 / whole.cpu, whole.cpu / double(all.size()));
    for (std::size_t c = 0; c < kCallNames.size(); ++c) {
        const Work w = select(static_cast<int>(c));
        if (w.size() == 0)
            continue;
        const Rate r = measure(w, seconds / 3);
        std::printf("  %-36s %3zu: %7.1f million/s (%.1f), %.2f ns each\n", kCallNames[c], w.size(), r.cpu / 1e6,
                    r.wall / 1e6, 1e9 / r.cpu);
    }
    std::uint64_t checksum = 0;
    for (const std::uint8_t b : bytes)
        checksum = checksum * 31 + b;
    std::printf("(checksum %llu)\n", static_cast<unsigned long long>(checksum));
    return 0;
}
