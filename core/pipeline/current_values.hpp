// CurrentValueTable: the newest decoded value of every parameter of one stream, and the newest packet
// of every Process On Demand type. Written by the processor thread only; read by any thread (displays,
// the consumer API) without stalling the writer: each packet type has a sequence lock, and the values
// are stored as relaxed atomic words, so a reader copies a consistent packet's worth of values and
// retries only when the writer was in the middle of that very packet type.
#pragma once

#include "core/decode/decoded_value.hpp"
#include "core/pipeline/packet_types.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace telestation::pipeline {

// One value of one parameter as consumers receive it.
struct ParameterSample {
    std::uint32_t parameterId = 0;
    std::uint16_t streamId = 0;
    std::uint16_t reserved = 0;
    std::int64_t packetTimeNs = 0;  // from the packet's secondary header; 0 when the packet has none
    std::int64_t receiveTimeNs = 0;
    decode::DecodedValue value;
};

class CurrentValueTable {
public:
    explicit CurrentValueTable(const PacketTypeTable& types);

    // Writer (the processor thread): every parameter of one packet of `typeIndex` at once.
    void publish(std::uint32_t typeIndex, std::span<const decode::DecodedValue> values, std::int64_t packetTimeNs,
                 std::int64_t receiveTimeNs) noexcept;
    // Writer: keeps the newest packet of a Process On Demand type (the packet itself, no transport header).
    void keepPacket(std::uint32_t typeIndex, std::span<const std::uint8_t> packet, std::int64_t receiveTimeNs) noexcept;

    // Readers. False when nothing has been published for the parameter's packet type yet.
    [[nodiscard]] bool read(std::uint32_t parameterId, ParameterSample& out) const noexcept;
    // The newest kept packet of a type: copied into `out` (which must hold maxPacketBytes(type)); its
    // length, receive time. False when none yet.
    // `update`, when given: the packet's number (updates() when it was kept).
    [[nodiscard]] bool readPacket(std::uint32_t typeIndex, std::span<std::uint8_t> out, std::size_t& length,
                                  std::int64_t& receiveTimeNs, std::uint64_t* update = nullptr) const noexcept;
    // How many packets of the type were published / kept (readers detect new values with it).
    [[nodiscard]] std::uint64_t updates(std::uint32_t typeIndex) const noexcept;

    // Process On Demand: the kept packet number `update` was decoded (by the processor for a subscriber,
    // or by any reader). Each kept packet counts once however many decode it; any thread.
    void countDecoded(std::uint32_t typeIndex, std::uint64_t update) const noexcept;
    // Kept packets of the type decoded on demand so far.
    [[nodiscard]] std::uint64_t decodedOnDemand(std::uint32_t typeIndex) const noexcept;

private:
    static constexpr std::size_t kWordsPerValue = 4;
    static_assert(sizeof(decode::DecodedValue) == kWordsPerValue * 8);

    struct alignas(64) TypeSlot {
        std::atomic<std::uint32_t> sequence{0}; // odd while being written
        std::atomic<std::int64_t> packetTimeNs{0};
        std::atomic<std::int64_t> receiveTimeNs{0};
        std::atomic<std::uint64_t> updates{0};
        std::atomic<std::uint64_t> packetLength{0};
        std::atomic<std::uint64_t> decodedUpdate{0};   // the newest kept packet counted as decoded
        std::atomic<std::uint64_t> decodedOnDemand{0}; // kept packets decoded
        std::size_t packetWordOffset = 0; // into m_packetWords
        std::size_t packetCapacity = 0;   // bytes
    };

    const PacketTypeTable& m_types;
    std::unique_ptr<TypeSlot[]> m_slots;
    std::unique_ptr<std::atomic<std::uint64_t>[]> m_values; // kWordsPerValue per parameter id
    std::unique_ptr<std::atomic<std::uint64_t>[]> m_packetWords;
};

} // namespace telestation::pipeline
