// The consumer API: how displays, the headless mode, tests and users' in-process code take data from
// a running Station. Subscribe to packets (by stream and packet type) or to parameters (by qualified
// name), with every-sample delivery (a bounded queue per consumer; overflows are counted per consumer
// and shown in the statistics) or newest-value delivery (only the latest, never an overflow). Values
// carry raw, converted and calibrated value, limit state, packet time and receive time.
//
// A subscription is used by one consumer thread. It must be destroyed before its Station. A subscription
// to one stream gets nothing more once that stream is removed (Station::removeStream).
#pragma once

#include "core/common/result.hpp"
#include "core/pipeline/station.hpp"
#include "core/pipeline/subscriptions.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::api {

using pipeline::Delivery;
using pipeline::ParameterSample;

struct PacketView {
    std::span<const std::uint8_t> frame;  // as received: transport header + packet
    std::span<const std::uint8_t> packet; // the space packet (transport header skipped)
    std::int64_t receiveTimeNs = 0;
    std::uint16_t streamId = 0;
    std::uint16_t apid = 0;
    std::uint32_t typeIndex = 0;          // pipeline::PacketTypeTable index; 0 = unknown
};

class PacketSubscription {
public:
    struct Options {
        std::string name = "packets";     // shown in the statistics
        std::string stream;               // "" = every stream
        std::string packet;               // a packet definition name, "unknown", or "" = every type
        Delivery delivery = Delivery::EverySample;
        std::size_t capacity = 0;         // every sample: queue size in packets; 0 = the profile's Process Packet Queue Size
    };
    // Errors: no such stream or packet name.
    [[nodiscard]] static Result<std::unique_ptr<PacketSubscription>> create(pipeline::Station& station, const Options& options);
    ~PacketSubscription();

    // Calls fn(const PacketView&) for up to `max` packets (oldest first); returns how many.
    template <typename Fn>
    std::size_t poll(Fn&& fn, std::size_t max = 256)
    {
        std::array<pipeline::PacketHandle, 256> batch{};
        std::size_t total = 0;
        while (total < max) {
            const std::size_t n = m_queue->take(std::span(batch.data(), std::min(batch.size(), max - total)));
            if (n == 0)
                break;
            for (std::size_t i = 0; i < n; ++i) {
                fn(view(batch[i]));
                m_queue->pool().release(batch[i]);
            }
            total += n;
        }
        return total;
    }
    [[nodiscard]] std::uint64_t drops() const noexcept { return m_queue->drops(); }
    [[nodiscard]] std::uint64_t delivered() const noexcept { return m_queue->delivered(); }
    [[nodiscard]] std::size_t depth() const noexcept { return m_queue->depth(); }

private:
    PacketSubscription(pipeline::Station& station, std::shared_ptr<pipeline::PacketSubscriptionQueue> queue);
    [[nodiscard]] PacketView view(pipeline::PacketHandle h) const noexcept;
    pipeline::Station& m_station;
    std::shared_ptr<pipeline::PacketSubscriptionQueue> m_queue;
};

// Reads the newest value of any parameter of any stream, whatever the packet type's mode: Process
// Entire Packet types from the current value table; Process On Demand types by decoding the newest
// kept packet now. Pass Thru types have no values (nullopt).
class ParameterReader {
public:
    explicit ParameterReader(const pipeline::Station& station);
    // nullopt for a stream the station does not have (or no longer has).
    [[nodiscard]] std::optional<ParameterSample> read(std::uint16_t streamId, std::uint32_t parameterId);
    [[nodiscard]] std::optional<ParameterSample> read(std::string_view stream, std::string_view qualifiedName);
    // From a current value table taken before (it outlives its stream's removal).
    [[nodiscard]] std::optional<ParameterSample> read(const pipeline::CurrentValueTable& values, std::uint16_t streamId,
                                                      std::uint32_t parameterId);
    // Decodes one parameter of a packet a PacketSubscription delivered, whatever its type's mode:
    // Process On Demand for a consumer that pulls every packet (TReK's "performance computation").
    // `indexInPacket` counts the type's parameters from 0; nullopt for an unknown packet or an index
    // past the type's parameters.
    [[nodiscard]] std::optional<ParameterSample> decode(const PacketView& packet, std::uint32_t indexInPacket) const;

private:
    const pipeline::Station& m_station;
    std::vector<std::uint8_t> m_packet; // the largest packet of any type
};

class ParameterSubscription {
public:
    struct Options {
        std::string name = "parameters";
        std::string stream;                  // "" = every stream
        std::vector<std::string> parameters; // qualified names "PACKET.PARAMETER"; empty = every parameter
        Delivery delivery = Delivery::EverySample;
        std::size_t capacity = 0;            // every sample: queue size in samples; 0 = the profile's
                                             // Processed Parameter Queue Size × the largest packet's parameter count
    };
    // Errors: no such stream; a name that is not a parameter (all such names listed).
    [[nodiscard]] static Result<std::unique_ptr<ParameterSubscription>> create(pipeline::Station& station, const Options& options);
    // Newest value of no parameter yet: the (stream, parameter) pairs come and go with add() and
    // remove() (a table of values the operator edits). Unlike create(), not listed in the statistics:
    // the workstation's own value tables are views, not consumers an operator needs to watch.
    [[nodiscard]] static std::unique_ptr<ParameterSubscription> createNewest(pipeline::Station& station);
    ~ParameterSubscription();

    // Every sample: the oldest queued samples. Newest: the current value of each subscribed parameter
    // that changed since the previous poll (Process Entire Packet and Process On Demand types).
    [[nodiscard]] std::size_t poll(std::span<ParameterSample> out);

    // Newest value only. add() subscribes to one parameter of one stream and returns its current
    // value (nullopt: none yet, or a Pass Thru type); poll() then reports it only when its packet type
    // updates again. False / nullopt for a stream or parameter the station does not have, or a pair
    // already subscribed (`added` says which). remove() forgets a pair; false when it was not there.
    std::optional<ParameterSample> add(std::uint16_t streamId, std::uint32_t parameterId, bool* added = nullptr);
    bool remove(std::uint16_t streamId, std::uint32_t parameterId);
    // Newest value: how many (stream, parameter) pairs are subscribed.
    [[nodiscard]] std::size_t size() const noexcept { return m_newest.size(); }
    [[nodiscard]] std::uint64_t drops() const noexcept;
    [[nodiscard]] std::uint64_t delivered() const noexcept;

    [[nodiscard]] const pipeline::ParameterInfo& info(std::uint32_t parameterId) const { return m_station.types().parameter(parameterId); }

private:
    explicit ParameterSubscription(pipeline::Station& station);
    pipeline::Station& m_station;
    std::shared_ptr<pipeline::ParameterSubscriptionQueue> m_queue; // every sample
    std::shared_ptr<pipeline::NewestParameterConsumer> m_listed;   // newest value made by create()
    // Newest value: each (stream, parameter) pair with its packet type's update count when delivered,
    // and its stream's current values (kept: a removed stream's pairs then simply never update, and a
    // stream added later under the same id is not mistaken for it).
    struct Newest {
        std::uint16_t streamId = 0;
        std::uint32_t parameterId = 0;
        std::uint32_t typeIndex = 0;
        std::uint64_t seenUpdates = 0;
        std::shared_ptr<const pipeline::CurrentValueTable> values;
    };
    [[nodiscard]] std::uint64_t updates(const Newest& entry) const;
    std::vector<Newest> m_newest;
    std::size_t m_cursor = 0; // where the next poll starts
    ParameterReader m_reader;
    std::uint64_t m_delivered = 0;
};

} // namespace telestation::api
