#include "sim/engine/sim_stream.hpp"

#include "core/ccsds/cuc_time.hpp"
#include "core/common/clock.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/decode/bits.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/decode/encoder.hpp"
#include "sim/engine/packet_identity.hpp"
#include "sim/engine/value_generator.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <optional>
#include <random>
#include <sys/prctl.h>

namespace telestation::sim {

namespace {

constexpr std::size_t kBatch = 64;              // packets built per batch at most
constexpr std::size_t kSlotsPerPacket = 3;      // garbage + packet + released reordered packet
constexpr std::size_t kSpansPerPacket = 4;      // the same + a duplicate (which shares the packet's slot)
constexpr std::int64_t kRefreshNs = 1'000'000;  // time-driven generators are re-evaluated each ms
constexpr double kMaxBacklogSeconds = 0.05;     // after a stall, catch up at most 50 ms of packets

void sleepNs(std::int64_t ns)
{
    if (ns <= 0)
        return;
    timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
    nanosleep(&ts, nullptr);
}

// A generator bound to one parameter of one packet type.
struct BoundGenerator {
    std::size_t index;
    ValueGenerator generator;
    bool perPacket;    // depends on the packet index (counters, lists, random): evaluated for every packet
    bool enumeration;  // the parameter has states
    bool invertible;   // the calibration can be inverted
    // A parameter that gives a later field its size (XTCE DynamicValue): instead of the generator, the
    // value that sizes that field to a cycling number of bytes (0..32, within its bound).
    bool sizeSource = false;
    double sizeSlope = 1, sizeIntercept = 0;
    std::uint32_t sizeMaxBytes = 0;
};

bool isPerPacket(GeneratorKind kind)
{
    return kind == GeneratorKind::Counter || kind == GeneratorKind::List || kind == GeneratorKind::Uniform
        || kind == GeneratorKind::Normal;
}

struct PacketType {
    const mdb::PacketDef* def = nullptr;
    std::optional<decode::EncodePlan> plan;
    std::optional<decode::DecodePlan> decoder; // variable layouts: finds where the layout ends
    std::optional<PacketIdentity> identity;     // the secondary id's and criteria's bits
    // A variable layout: built in order, packet by packet. When a field's size comes from the packet
    // length field (IDEX: bits = 8 * PKT_LEN - 328), the length is chosen first ("length driven");
    // otherwise the packet ends where its layout ends.
    bool variable = false;
    bool lengthDriven = false;
    std::vector<std::uint8_t> image; // the packet as of the last refresh, maxSize bytes
    std::size_t minSize = 0;
    std::size_t maxSize = 0;
    std::optional<ccsds::CucFormat> time;
    std::vector<BoundGenerator> generators;
    std::int64_t lastRefreshNs = -1;
    std::uint64_t count = 0; // packets of this type built so far
    double weight = 1;
    double current = 0;      // smooth weighted round-robin state
};

// What each span of a batch is, for the accounting once the sender says how many went out.
struct SpanInfo {
    enum class Kind : std::uint8_t { Packet, Garbage } kind = Kind::Packet;
    std::uint16_t apid = 0;
    bool duplicate = false, corrupted = false, truncated = false, reorderRelease = false;
};

} // namespace

struct SimStream::Impl {
    std::unique_ptr<io::Sender> sender;
    std::vector<PacketType> types;
    double totalWeight = 0;
    std::size_t slotSize = 0;
    std::vector<std::uint8_t> slots;   // (kBatch * kSlotsPerPacket + 1) slots of slotSize bytes
    std::vector<std::uint8_t> held;    // a packet held back for reordering (slotSize bytes)
    std::size_t heldLength = 0;
    std::uint16_t heldApid = 0;
    bool heldValid = false;
    std::vector<std::span<const std::uint8_t>> spans;
    std::vector<SpanInfo> infos;
    std::array<std::uint16_t, ccsds::kApidCount> sequence{};
    std::mt19937_64 faultRng;
    std::uniform_real_distribution<double> unit{0.0, 1.0};
    bool tcp = false;
    std::uint64_t transportCounter = 0;

    // Settings changed by other threads, taken at the next batch.
    std::mutex settingsMutex;
    Rate rate;
    FaultConfig faults;
    bool settingsChanged = true;

    // Counters: written by the stream's thread, read by any thread.
    std::atomic<std::uint64_t> generated{0}, packets{0}, bytes{0}, notSent{0};
    std::atomic<std::uint64_t> dropped{0}, duplicated{0}, reordered{0}, corrupted{0}, truncated{0},
        garbageInsertions{0}, garbageBytes{0};
    std::array<std::atomic<std::uint64_t>, ccsds::kApidCount> apidPackets{};
    std::array<std::atomic<std::uint64_t>, ccsds::kApidCount> apidBytes{};
    std::atomic<std::int64_t> startNs{0}, endNs{0}, firstSentNs{-1}, lastSentNs{-1};

    // The sender's state text, published by whichever thread owns the sender at the time (the stream's
    // thread while it runs; the creating thread before): the sender itself is not thread-safe.
    mutable std::mutex stateMutex;
    std::string stateText;
    std::int64_t stateRefreshNs = 0;
    void publishState(std::int64_t nowNs)
    {
        std::string text = sender->state();
        std::lock_guard lock(stateMutex);
        stateText = std::move(text);
        stateRefreshNs = nowNs;
    }
    std::atomic<bool> finished{false};

    void resetCounters()
    {
        for (auto* c : {&generated, &packets, &bytes, &notSent, &dropped, &duplicated, &reordered, &corrupted,
                        &truncated, &garbageInsertions, &garbageBytes})
            c->store(0, std::memory_order_relaxed);
        for (auto& c : apidPackets)
            c.store(0, std::memory_order_relaxed);
        for (auto& c : apidBytes)
            c.store(0, std::memory_order_relaxed);
        firstSentNs.store(-1);
        lastSentNs.store(-1);
        finished.store(false);
        sequence.fill(0);
        transportCounter = 0;
        heldValid = false;
        for (auto& t : types) {
            t.count = 0;
            t.current = 0;
            t.lastRefreshNs = -1;
        }
    }

    PacketType& pickType()
    {
        // Smooth weighted round-robin: exact ratios, evenly interleaved, deterministic.
        PacketType* best = &types.front();
        for (auto& t : types) {
            t.current += t.weight;
            if (t.current > best->current)
                best = &t;
        }
        best->current -= totalWeight;
        return *best;
    }

    void applyGenerator(PacketType& type, BoundGenerator& g, std::span<std::uint8_t> packet, double t)
    {
        const auto& spec = g.generator.spec();
        const decode::EncodePlan& plan = *type.plan;
        if (spec.kind == GeneratorKind::Text) {
            plan.setString(packet, g.index, spec.text);
            return;
        }
        if (g.sizeSource) {
            // 0, 7, 14, ... 28, 3, 10, ... bytes: sizes that differ from packet to packet.
            std::uint64_t sizeBytes = (type.count * 7) % 33;
            if (g.sizeMaxBytes != 0)
                sizeBytes = std::min<std::uint64_t>(sizeBytes, g.sizeMaxBytes);
            const double x = g.sizeSlope != 0 ? std::ceil((8.0 * static_cast<double>(sizeBytes) - g.sizeIntercept) / g.sizeSlope) : 0;
            plan.setConverted(packet, g.index, x);
            return;
        }
        const double value = g.generator.next(t, type.count);
        if (spec.kind == GeneratorKind::StateCycle) {
            plan.setState(packet, g.index, static_cast<std::size_t>(value));
            return;
        }
        switch (spec.domain) {
        case ValueDomain::Raw:
            plan.setRaw(packet, g.index, value <= 0 ? 0 : value >= 18446744073709551615.0
                                                               ? ~std::uint64_t{0}
                                                               : static_cast<std::uint64_t>(value));
            return;
        case ValueDomain::Converted:
            plan.setConverted(packet, g.index, value);
            return;
        case ValueDomain::Calibrated:
            if (g.invertible)
                (void)plan.setCalibrated(packet, g.index, value);
            else if (g.enumeration)
                plan.setState(packet, g.index, static_cast<std::size_t>(std::max(0.0, value)));
            else
                plan.setConverted(packet, g.index, value);
            return;
        }
    }

    // Builds the next packet of `type` into `out` (at least slotSize bytes after the transport
    // header); returns the packet's length.
    std::size_t buildPacket(PacketType& type, std::uint8_t* out, std::int64_t nowNs, double t)
    {
        if (type.variable)
            return buildVariablePacket(type, out, nowNs, t);
        if (type.lastRefreshNs < 0 || nowNs - type.lastRefreshNs >= kRefreshNs) {
            type.lastRefreshNs = nowNs;
            for (auto& g : type.generators)
                if (!g.perPacket)
                    applyGenerator(type, g, type.image, t);
        }
        // Variable-length packets alternate between their shortest and longest form.
        const std::size_t length = (type.minSize != type.maxSize && (type.count & 1)) ? type.maxSize : type.minSize;
        std::copy_n(type.image.data(), length, out);
        const std::span<std::uint8_t> packet(out, length);
        for (auto& g : type.generators)
            if (g.perPacket)
                applyGenerator(type, g, packet, t);

        writeHeader(type, packet, nextHeader(type, length));
        ++type.count;
        return length;
    }

    ccsds::PrimaryHeader nextHeader(const PacketType& type, std::size_t length)
    {
        ccsds::PrimaryHeader h;
        h.secondaryHeader = type.def->secondaryHeader.has_value();
        h.apid = type.def->apid;
        h.sequenceCount = sequence[h.apid];
        sequence[h.apid] = static_cast<std::uint16_t>((sequence[h.apid] + 1) % ccsds::kSequenceCountModulo);
        h.dataLength = static_cast<std::uint16_t>(length - 7);
        return h;
    }

    void writeHeader(const PacketType& type, std::span<std::uint8_t> packet, const ccsds::PrimaryHeader& h)
    {
        ccsds::writePrimaryHeader(h, packet.data());
        if (type.identity)
            type.identity->applyToPrimaryHeader(packet); // e.g. a criterion on the secondary header flag
        if (type.time)
            (void)ccsds::encodeCuc(clock::realtimeNs(), *type.time, packet.subspan(ccsds::kPrimaryHeaderSize, ccsds::cucSize(*type.time)));
    }

    // A variable layout, written parameter by parameter in order (the encoder places each field after
    // the ones before it), with the header first so that a size taken from the length field is there.
    std::size_t buildVariablePacket(PacketType& type, std::uint8_t* out, std::int64_t nowNs, double t)
    {
        if (type.lastRefreshNs < 0 || nowNs - type.lastRefreshNs >= kRefreshNs) {
            type.lastRefreshNs = nowNs;
            for (auto& g : type.generators)
                if (!g.perPacket)
                    applyGenerator(type, g, type.image, t);
        }
        std::size_t length = type.maxSize;
        if (type.lengthDriven) // the lengths in turn: the shortest, then growing by 7 bytes
            length = type.minSize + (type.count * 7) % (type.maxSize - type.minSize + 1);
        std::copy_n(type.image.data(), length, out);
        const std::span<std::uint8_t> packet(out, length);
        ccsds::PrimaryHeader h = nextHeader(type, length);
        writeHeader(type, packet, h);
        for (auto& g : type.generators)
            if (g.perPacket)
                applyGenerator(type, g, packet, t);
        if (!type.lengthDriven) {
            decode::LayoutReport report;
            thread_local std::vector<decode::DecodedValue> values;
            values.resize(type.decoder->parameterCount());
            type.decoder->decode(packet, values, &report);
            length = std::clamp<std::size_t>(report.endByte(), type.minSize, type.maxSize);
            h.dataLength = static_cast<std::uint16_t>(length - 7);
            ccsds::writePrimaryHeader(h, out);
            if (type.identity)
                type.identity->applyToPrimaryHeader(packet);
        }
        ++type.count;
        return length;
    }

    std::uint8_t* slot(std::size_t i) { return slots.data() + i * slotSize; }

    void writeTransportHeader(std::uint8_t* out, std::uint32_t headerBytes)
    {
        std::fill_n(out, headerBytes, std::uint8_t{0});
        if (headerBytes >= 4) {
            const auto c = static_cast<std::uint32_t>(transportCounter);
            out[headerBytes - 4] = static_cast<std::uint8_t>(c >> 24);
            out[headerBytes - 3] = static_cast<std::uint8_t>(c >> 16);
            out[headerBytes - 2] = static_cast<std::uint8_t>(c >> 8);
            out[headerBytes - 1] = static_cast<std::uint8_t>(c);
        }
        ++transportCounter;
    }

    bool chance(double p) { return p > 0 && unit(faultRng) < p; }

    void account(std::size_t sentSpans, std::int64_t nowNs)
    {
        std::uint64_t p = 0, b = 0, unsent = 0;
        for (std::size_t i = 0; i < spans.size(); ++i) {
            const SpanInfo& info = infos[i];
            if (info.kind == SpanInfo::Kind::Garbage) {
                if (i < sentSpans) {
                    garbageInsertions.fetch_add(1, std::memory_order_relaxed);
                    garbageBytes.fetch_add(spans[i].size(), std::memory_order_relaxed);
                }
                continue;
            }
            if (i >= sentSpans) {
                ++unsent;
                continue;
            }
            ++p;
            b += spans[i].size();
            apidPackets[info.apid].fetch_add(1, std::memory_order_relaxed);
            apidBytes[info.apid].fetch_add(spans[i].size(), std::memory_order_relaxed);
            if (info.duplicate)
                duplicated.fetch_add(1, std::memory_order_relaxed);
            if (info.corrupted)
                corrupted.fetch_add(1, std::memory_order_relaxed);
            if (info.truncated)
                truncated.fetch_add(1, std::memory_order_relaxed);
            if (info.reorderRelease)
                reordered.fetch_add(1, std::memory_order_relaxed);
        }
        packets.fetch_add(p, std::memory_order_relaxed);
        bytes.fetch_add(b, std::memory_order_relaxed);
        notSent.fetch_add(unsent, std::memory_order_relaxed);
        if (p > 0) {
            std::int64_t expected = -1;
            firstSentNs.compare_exchange_strong(expected, nowNs, std::memory_order_relaxed);
            lastSentNs.store(nowNs, std::memory_order_relaxed);
        }
    }

    // Builds `count` packets (faults applied) into the batch and sends it.
    void sendBatch(std::size_t count, const FaultConfig& f, std::uint32_t headerBytes, std::int64_t nowNs, double t)
    {
        spans.clear();
        infos.clear();
        std::size_t used = 0;
        for (std::size_t k = 0; k < count; ++k) {
            PacketType& type = pickType();
            std::uint8_t* out = slot(used++);
            writeTransportHeader(out, headerBytes);
            std::size_t length = buildPacket(type, out + headerBytes, nowNs, t) + headerBytes;
            generated.fetch_add(1, std::memory_order_relaxed);
            const std::uint16_t apid = type.def->apid;

            if (chance(f.drop)) {
                dropped.fetch_add(1, std::memory_order_relaxed);
                continue;
            }
            SpanInfo info;
            info.apid = apid;
            if (chance(f.corruptHeader)) {
                out[headerBytes] |= 0xE0; // version 0b111
                info.corrupted = true;
            }
            if (chance(f.truncate)) {
                length = headerBytes + (length - headerBytes) / 2;
                info.truncated = true;
            }
            if (!heldValid && chance(f.reorder)) {
                std::copy_n(out, length, held.data());
                heldLength = length;
                heldApid = apid;
                heldValid = true;
                continue; // goes out after the next packet
            }
            if (tcp && chance(f.garbage)) {
                std::uint8_t* g = slot(used++);
                const std::size_t n = 1 + faultRng() % 64;
                for (std::size_t i = 0; i < n; ++i)
                    g[i] = static_cast<std::uint8_t>(faultRng());
                spans.emplace_back(g, n);
                infos.push_back({SpanInfo::Kind::Garbage});
            }
            spans.emplace_back(out, length);
            infos.push_back(info);
            if (chance(f.duplicate)) {
                SpanInfo copy = info;
                copy.duplicate = true;
                spans.emplace_back(out, length);
                infos.push_back(copy);
            }
            if (heldValid) {
                std::uint8_t* r = slot(used++);
                std::copy_n(held.data(), heldLength, r);
                SpanInfo released;
                released.apid = heldApid;
                released.reorderRelease = true;
                spans.emplace_back(r, heldLength);
                infos.push_back(released);
                heldValid = false;
            }
        }
        flush(nowNs);
    }

    // Sends what is in spans/infos and accounts for it.
    void flush(std::int64_t nowNs)
    {
        if (spans.empty())
            return;
        const std::size_t sent = sender->send(spans);
        account(sent, nowNs);
        spans.clear();
        infos.clear();
    }

    // At the end of a run a packet still held for reordering goes out (its swap partner never came).
    void releaseHeld(std::int64_t nowNs)
    {
        if (!heldValid)
            return;
        SpanInfo info;
        info.apid = heldApid;
        spans.emplace_back(held.data(), heldLength);
        infos.push_back(info);
        heldValid = false;
        flush(nowNs);
    }
};

SimStream::SimStream(StreamConfig config) : m_config(std::move(config)), m_impl(std::make_unique<Impl>()) {}

SimStream::~SimStream()
{
    stop();
}

Result<std::unique_ptr<SimStream>> SimStream::create(const StreamConfig& config, const mdb::MissionDatabase& db,
                                                     const io::SenderOptions& options)
{
    const std::string who = "stream " + config.name + ": ";
    if (config.mix.empty())
        return Error{who + "the packet mix is empty", {}};
    if (config.rate.unit != Rate::Unit::Flood && !(config.rate.value > 0))
        return Error{who + "the rate must be above zero", {}};

    std::unique_ptr<SimStream> stream(new SimStream(config));
    Impl& impl = *stream->m_impl;

    // Resolve the mix.
    for (const MixEntry& entry : config.mix) {
        const mdb::PacketDef* def = db.findPacket(entry.packet);
        if (!def) {
            unsigned apid = 0;
            const auto [end, ec] = std::from_chars(entry.packet.data(), entry.packet.data() + entry.packet.size(), apid);
            if (ec == std::errc{} && end == entry.packet.data() + entry.packet.size())
                for (const auto& p : db.packets)
                    if (p.apid == apid) {
                        def = &p;
                        break;
                    }
        }
        if (!def)
            return Error{who + "no packet type '" + entry.packet + "' (a name or APID) in the mission database", {}};
        if (!(entry.weight > 0))
            return Error{who + "the weight of " + entry.packet + " must be above zero", {}};
        auto plan = decode::EncodePlan::compile(*def);
        if (!plan)
            return Error{who + plan.error().message, {}};
        PacketType type;
        type.def = def;
        type.plan.emplace(std::move(plan).value());
        auto decoder = decode::DecodePlan::compile(*def);
        if (!decoder)
            return Error{who + decoder.error().message, {}};
        type.minSize = std::clamp<std::size_t>(def->length, ccsds::kMinPacketSize, ccsds::kMaxPacketSize);
        type.variable = !decoder->fixedLayout();
        if (type.variable) {
            // Room for the fixed part and a few hundred bytes of the variable one.
            type.minSize = std::max(type.minSize, std::clamp<std::size_t>(decoder->requiredSize(), ccsds::kMinPacketSize, ccsds::kMaxPacketSize));
            type.maxSize = std::clamp<std::size_t>(def->maxLength, type.minSize, std::min(type.minSize + 512, ccsds::kMaxPacketSize));
            type.decoder.emplace(std::move(*decoder));
        } else if (def->variableLength) {
            // Variable length with a fixed layout: up to where the layout ends (an XTCE container's
            // length is open-ended; a .tdef packet's parameters reach its maximum).
            const std::size_t layoutEnd = std::max<std::size_t>(decoder->requiredSize(), type.minSize);
            type.maxSize = std::clamp<std::size_t>(std::min<std::size_t>(def->maxLength, layoutEnd), type.minSize, ccsds::kMaxPacketSize);
        } else {
            type.maxSize = type.minSize;
        }
        type.image.assign(type.maxSize, 0);
        type.weight = entry.weight;
        if (def->secondaryHeader)
            type.time = decode::cucFormat(*def->secondaryHeader);
        type.identity.emplace(*def, db.packets); // tells packet types sharing an APID apart; set once
        type.identity->apply(type.image);
        if (type.variable)
            for (const auto& p : def->parameters)
                if (p.size.kind == mdb::SizeKind::FromParameter)
                    for (const auto& source : def->parameters)
                        if (source.name == p.size.sizeParameter && source.placement == mdb::Placement::Absolute
                            && source.bitOffset == 32 && source.bitLength == 16)
                            type.lengthDriven = true; // the CCSDS packet length field
        if (type.lengthDriven) {
            // The shortest length whose layout fits it exactly (sizes from the length field must not
            // come out negative): probed on a packet of zeros with just the length set.
            std::vector<std::uint8_t> probe(type.maxSize, 0);
            std::vector<decode::DecodedValue> values(type.decoder->parameterCount());
            for (std::size_t length = type.minSize; length <= type.maxSize; ++length) {
                ccsds::PrimaryHeader h;
                h.apid = def->apid;
                h.dataLength = static_cast<std::uint16_t>(length - 7);
                ccsds::writePrimaryHeader(h, probe.data());
                decode::LayoutReport report;
                type.decoder->decode(std::span<const std::uint8_t>(probe.data(), length), values, &report);
                if (report.status == decode::LayoutStatus::Complete && report.endByte() == length) {
                    type.minSize = length;
                    break;
                }
            }
        }
        impl.totalWeight += entry.weight;
        impl.types.push_back(std::move(type));
    }

    // Generators: the scenario's, by qualified name, else the defaults.
    for (const auto& [qualified, spec] : config.generators) {
        const auto dot = qualified.find('.');
        const mdb::PacketDef* def = dot == std::string::npos ? nullptr : db.findPacket(qualified.substr(0, dot));
        bool found = false;
        if (def)
            for (const auto& p : def->parameters)
                found = found || p.name == qualified.substr(dot + 1);
        if (!found)
            return Error{who + "a generator names '" + qualified + "', which is no parameter of the mission database", {}};
    }
    for (std::size_t ti = 0; ti < impl.types.size(); ++ti) {
        PacketType& type = impl.types[ti];
        for (std::size_t i = 0; i < type.def->parameters.size(); ++i) {
            const mdb::ParameterDef& p = type.def->parameters[i];
            const auto named = config.generators.find(type.def->name + "." + p.name);
            GeneratorSpec spec;
            if (named != config.generators.end()) {
                spec = named->second;
            } else {
                spec = defaultGenerator(*type.def, p, i);
                spec.seed = config.seed * 1'000'003 + ti * 10'007 + i;
                if (p.placement == mdb::Placement::Absolute && type.identity->overlaps(p.bitOffset, std::max<std::uint32_t>(p.bitLength, 1))) {
                    // Holds the bits that tell this type from the others of its APID.
                    const bool bytes = mdb::isByteSequence(p.type);
                    spec = GeneratorSpec{};
                    spec.kind = GeneratorKind::Constant;
                    spec.domain = ValueDomain::Raw;
                    spec.value = static_cast<double>(type.identity->rawAt(
                        p.bitOffset, bytes ? 8 * std::min(8u, p.bitLength / 8) : std::min(64u, p.bitLength),
                        !bytes && mdb::effectiveByteOrder(*type.def, p) == mdb::ByteOrder::LittleEndian));
                }
            }
            // The primary header is the simulator's to write (XTCE definitions list its fields).
            if (p.placement == mdb::Placement::Absolute && p.fixedSize() && p.bitOffset + p.bitLength <= 48)
                continue;
            const std::size_t states = type.plan->stateCount(i);
            const bool variablePart = type.variable && i >= type.decoder->fixedCount();
            BoundGenerator g{i, ValueGenerator(spec, states), isPerPacket(spec.kind) || variablePart, states > 0,
                             type.plan->invertible(i)};
            if (type.variable && named == config.generators.end()) {
                for (const auto& sized : type.def->parameters) {
                    if (sized.size.kind == mdb::SizeKind::FromParameter && sized.size.sizeParameter == p.name) {
                        g.sizeSource = true;
                        g.perPacket = true;
                        g.sizeSlope = sized.size.sizeSlope;
                        g.sizeIntercept = sized.size.sizeIntercept;
                        g.sizeMaxBytes = sized.size.maxBytes;
                    }
                }
            }
            type.generators.push_back(std::move(g));
        }
    }

    // Buffers: every span of a full batch has a slot of its own.
    std::size_t largest = 0;
    double weightedBytes = 0;
    for (const auto& t : impl.types) {
        largest = std::max(largest, t.maxSize);
        weightedBytes += t.weight * (double(t.minSize + t.maxSize) / 2.0 + config.transportHeaderBytes);
    }
    stream->m_averageBytes = weightedBytes / impl.totalWeight;
    impl.slotSize = largest + config.transportHeaderBytes + 64; // 64: room for a garbage run
    impl.slots.assign((kBatch * kSlotsPerPacket + 1) * impl.slotSize, 0);
    impl.held.assign(impl.slotSize, 0);
    impl.spans.reserve(kBatch * kSpansPerPacket + 1);
    impl.infos.reserve(kBatch * kSpansPerPacket + 1);
    impl.rate = config.rate;
    impl.faults = config.faults;

    auto endpoint = io::parseEndpoint(config.destination);
    if (!endpoint)
        return Error{who + endpoint.error().message, {}};
    if (endpoint->scheme == io::Scheme::File)
        return Error{who + "the simulator sends to udp://, tcp:// or tcp-listen:// destinations, not " + config.destination, {}};
    impl.tcp = endpoint->scheme != io::Scheme::Udp;
    auto sender = io::openSender(*endpoint, options);
    if (!sender)
        return Error{who + sender.error().message, {}};
    impl.sender = std::move(sender).value();
    impl.publishState(clock::monotonicNs());
    return stream;
}

void SimStream::start()
{
    if (m_running.load())
        return;
    if (m_thread.joinable())
        m_thread.join();
    m_stopRequested.store(false);
    m_impl->resetCounters();
    m_impl->endNs.store(0);
    m_running.store(true, std::memory_order_release);
    m_thread = std::thread([this] { run(); });
}

void SimStream::stop()
{
    m_stopRequested.store(true);
    if (m_thread.joinable())
        m_thread.join();
}

void SimStream::wait()
{
    if (m_thread.joinable())
        m_thread.join();
}

void SimStream::setRate(const Rate& rate)
{
    m_config.rate = rate; // the worker reads its own copy (m_impl->rate), never m_config.rate
    std::lock_guard lock(m_impl->settingsMutex);
    m_impl->rate = rate;
    m_impl->settingsChanged = true;
}

void SimStream::setFaults(const FaultConfig& faults)
{
    m_config.faults = faults;
    std::lock_guard lock(m_impl->settingsMutex);
    m_impl->faults = faults;
    m_impl->settingsChanged = true;
}

void SimStream::run()
{
    Impl& impl = *m_impl;
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL); // wake up on time: pacing at 100k packets/s needs it
    impl.faultRng.seed(m_config.seed ^ 0x5EED5EED5EEDull);
    const std::uint32_t headerBytes = m_config.transportHeaderBytes;
    const std::optional<std::uint64_t> limit = m_config.count;
    const std::int64_t start = clock::monotonicNs();
    const std::int64_t end = m_config.durationSeconds
        ? start + static_cast<std::int64_t>(*m_config.durationSeconds * 1e9)
        : std::numeric_limits<std::int64_t>::max();
    impl.startNs.store(start);

    Rate rate;
    FaultConfig faults;
    double pps = 0;
    bool flood = false;
    double credit = 0;
    std::int64_t last = start;
    std::uint64_t built = 0;

    while (!m_stopRequested.load(std::memory_order_relaxed)) {
        {
            std::lock_guard lock(impl.settingsMutex);
            if (impl.settingsChanged) {
                rate = impl.rate;
                faults = impl.faults;
                flood = rate.unit == Rate::Unit::Flood;
                pps = flood ? 0 : rate.packetsPerSecond(m_averageBytes);
                impl.settingsChanged = false;
            }
        }
        const std::int64_t now = clock::monotonicNs();
        if (now >= end || (limit && built >= *limit))
            break;
        std::size_t due = kBatch;
        if (!flood) {
            credit = std::min(credit + double(now - last) * pps / 1e9, std::max(double(kBatch), pps * kMaxBacklogSeconds));
            last = now;
            if (credit < 1) {
                // Sleep until the next packet is due (at most 50 ms, to notice stop and rate changes).
                const double waitNs = (1 - credit) / pps * 1e9;
                sleepNs(std::min<std::int64_t>(static_cast<std::int64_t>(waitNs), std::min<std::int64_t>(50'000'000, end - now)));
                continue;
            }
            due = std::min<std::size_t>(kBatch, static_cast<std::size_t>(credit));
            credit -= double(due);
        }
        if (limit)
            due = std::min<std::uint64_t>(due, *limit - built);
        impl.sendBatch(due, faults, headerBytes, now, double(now - start) / 1e9);
        built += due;
        if (now - impl.stateRefreshNs >= 100'000'000) // a string per 100 ms, not per packet
            impl.publishState(now);
    }
    impl.releaseHeld(clock::monotonicNs());
    impl.endNs.store(clock::monotonicNs());
    impl.publishState(clock::monotonicNs());
    impl.finished.store(!m_stopRequested.load());
    m_running.store(false, std::memory_order_release);
}

LiveCounters SimStream::live() const noexcept
{
    const Impl& impl = *m_impl;
    LiveCounters c;
    c.generated = impl.generated.load(std::memory_order_relaxed);
    c.packets = impl.packets.load(std::memory_order_relaxed);
    c.bytes = impl.bytes.load(std::memory_order_relaxed);
    c.notSent = impl.notSent.load(std::memory_order_relaxed);
    c.running = m_running.load(std::memory_order_acquire);
    c.finished = impl.finished.load();
    const std::int64_t start = impl.startNs.load();
    const std::int64_t end = c.running ? clock::monotonicNs() : impl.endNs.load();
    c.seconds = start > 0 && end >= start ? double(end - start) / 1e9 : 0;
    return c;
}

StreamSummary SimStream::summary() const
{
    const Impl& impl = *m_impl;
    StreamSummary s;
    s.name = m_config.name;
    s.destination = m_config.destination;
    s.rate = toString(m_config.rate);
    s.generated = impl.generated.load();
    s.sent.packets = impl.packets.load();
    s.sent.bytes = impl.bytes.load();
    s.notSent = impl.notSent.load();
    for (std::size_t apid = 0; apid < ccsds::kApidCount; ++apid) {
        const std::uint64_t n = impl.apidPackets[apid].load();
        if (n > 0)
            s.apids[static_cast<std::uint16_t>(apid)] = TrafficCounts{n, impl.apidBytes[apid].load()};
    }
    s.faults.dropped = impl.dropped.load();
    s.faults.duplicated = impl.duplicated.load();
    s.faults.reordered = impl.reordered.load();
    s.faults.corruptedHeaders = impl.corrupted.load();
    s.faults.truncated = impl.truncated.load();
    s.faults.garbageInsertions = impl.garbageInsertions.load();
    s.faults.garbageBytes = impl.garbageBytes.load();
    const std::int64_t first = impl.firstSentNs.load();
    const std::int64_t lastSent = impl.lastSentNs.load();
    // A run's length: from its start to its last batch, so a single batch still has a duration.
    const std::int64_t start = impl.startNs.load();
    if (first >= 0 && lastSent >= start)
        s.seconds = std::max(1e-9, double(lastSent - start) / 1e9);
    if (s.seconds > 0) {
        s.packetsPerSecond = double(s.sent.packets) / s.seconds;
        s.bitsPerSecond = 8.0 * double(s.sent.bytes) / s.seconds;
    }
    return s;
}

std::string SimStream::senderState() const
{
    std::lock_guard lock(m_impl->stateMutex);
    return m_impl->stateText;
}

std::uint16_t SimStream::localPort() const
{
    return m_impl->sender->localPort();
}

} // namespace telestation::sim
