#include "core/pipeline/current_values.hpp"

#include <algorithm>
#include <cstring>

namespace telestation::pipeline {

namespace {

// Sequence lock helpers. The writer makes the sequence odd, writes, makes it even; a reader copies
// between two loads of an even, unchanged sequence. Without standalone fences (ThreadSanitizer does
// not model them): the writer's data stores are releases, so the odd sequence is visible before any of
// them; the reader's data loads are acquires, so its second look at the sequence comes after all of
// them. On x86-64 all of these are plain moves.
constexpr auto kDataStore = std::memory_order_release;
constexpr auto kDataLoad = std::memory_order_acquire;

void beginWrite(std::atomic<std::uint32_t>& sequence) noexcept
{
    sequence.store(sequence.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void endWrite(std::atomic<std::uint32_t>& sequence) noexcept
{
    sequence.store(sequence.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

template <typename Copy>
bool readConsistent(const std::atomic<std::uint32_t>& sequence, Copy&& copy) noexcept
{
    for (;;) {
        const std::uint32_t before = sequence.load(std::memory_order_acquire);
        if (before == 0)
            return false; // never written
        if (before & 1u)
            continue;     // a write is in progress: it takes well under a microsecond
        copy();
        if (sequence.load(std::memory_order_relaxed) == before)
            return true;
    }
}

} // namespace

CurrentValueTable::CurrentValueTable(const PacketTypeTable& types)
    : m_types(types)
    , m_slots(std::make_unique<TypeSlot[]>(types.typeCount()))
    , m_values(std::make_unique<std::atomic<std::uint64_t>[]>(std::size_t{types.totalParameters()} * kWordsPerValue))
{
    std::size_t words = 0;
    for (std::uint32_t t = 1; t < types.typeCount(); ++t) {
        m_slots[t].packetWordOffset = words;
        m_slots[t].packetCapacity = types.maxPacketBytes(t);
        words += (m_slots[t].packetCapacity + 7) / 8;
    }
    m_packetWords = std::make_unique<std::atomic<std::uint64_t>[]>(std::max<std::size_t>(words, 1));
}

void CurrentValueTable::publish(std::uint32_t typeIndex, std::span<const decode::DecodedValue> values,
                                std::int64_t packetTimeNs, std::int64_t receiveTimeNs) noexcept
{
    TypeSlot& slot = m_slots[typeIndex];
    const std::size_t first = m_types.firstParameterId(typeIndex);
    const std::size_t count = std::min<std::size_t>(values.size(), m_types.parameterCount(typeIndex));
    beginWrite(slot.sequence);
    std::atomic<std::uint64_t>* out = m_values.get() + first * kWordsPerValue;
    for (std::size_t i = 0; i < count; ++i) {
        std::uint64_t words[kWordsPerValue];
        std::memcpy(words, &values[i], sizeof words);
        for (std::size_t w = 0; w < kWordsPerValue; ++w)
            out[i * kWordsPerValue + w].store(words[w], kDataStore);
    }
    slot.packetTimeNs.store(packetTimeNs, kDataStore);
    slot.receiveTimeNs.store(receiveTimeNs, kDataStore);
    slot.updates.store(slot.updates.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    endWrite(slot.sequence);
}

void CurrentValueTable::keepPacket(std::uint32_t typeIndex, std::span<const std::uint8_t> packet,
                                   std::int64_t receiveTimeNs) noexcept
{
    TypeSlot& slot = m_slots[typeIndex];
    const std::size_t length = std::min(packet.size(), slot.packetCapacity);
    beginWrite(slot.sequence);
    std::atomic<std::uint64_t>* out = m_packetWords.get() + slot.packetWordOffset;
    for (std::size_t at = 0; at < length; at += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, packet.data() + at, std::min<std::size_t>(8, length - at));
        out[at / 8].store(word, kDataStore);
    }
    slot.packetLength.store(length, kDataStore);
    slot.receiveTimeNs.store(receiveTimeNs, kDataStore);
    slot.updates.store(slot.updates.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    endWrite(slot.sequence);
}

bool CurrentValueTable::read(std::uint32_t parameterId, ParameterSample& out) const noexcept
{
    if (parameterId >= m_types.totalParameters())
        return false;
    const std::uint32_t typeIndex = m_types.parameter(parameterId).typeIndex;
    const TypeSlot& slot = m_slots[typeIndex];
    const std::atomic<std::uint64_t>* in = m_values.get() + std::size_t{parameterId} * kWordsPerValue;
    return readConsistent(slot.sequence, [&] {
        std::uint64_t words[kWordsPerValue];
        for (std::size_t w = 0; w < kWordsPerValue; ++w)
            words[w] = in[w].load(kDataLoad);
        std::memcpy(&out.value, words, sizeof words);
        out.parameterId = parameterId;
        out.packetTimeNs = slot.packetTimeNs.load(kDataLoad);
        out.receiveTimeNs = slot.receiveTimeNs.load(kDataLoad);
    });
}

bool CurrentValueTable::readPacket(std::uint32_t typeIndex, std::span<std::uint8_t> out, std::size_t& length,
                                   std::int64_t& receiveTimeNs, std::uint64_t* update) const noexcept
{
    if (typeIndex == kUnknownType || typeIndex >= m_types.typeCount())
        return false;
    const TypeSlot& slot = m_slots[typeIndex];
    const std::atomic<std::uint64_t>* in = m_packetWords.get() + slot.packetWordOffset;
    bool any = false;
    const bool ok = readConsistent(slot.sequence, [&] {
        length = std::min<std::size_t>(slot.packetLength.load(kDataLoad), out.size());
        receiveTimeNs = slot.receiveTimeNs.load(kDataLoad);
        if (update)
            *update = slot.updates.load(kDataLoad);
        for (std::size_t at = 0; at < length; at += 8) {
            const std::uint64_t word = in[at / 8].load(kDataLoad);
            std::memcpy(out.data() + at, &word, std::min<std::size_t>(8, length - at));
        }
        any = length > 0;
    });
    return ok && any;
}

std::uint64_t CurrentValueTable::updates(std::uint32_t typeIndex) const noexcept
{
    return typeIndex < m_types.typeCount() ? m_slots[typeIndex].updates.load(std::memory_order_relaxed) : 0;
}

void CurrentValueTable::countDecoded(std::uint32_t typeIndex, std::uint64_t update) const noexcept
{
    if (typeIndex >= m_types.typeCount() || update == 0)
        return;
    TypeSlot& slot = m_slots[typeIndex];
    std::uint64_t last = slot.decodedUpdate.load(std::memory_order_relaxed);
    while (last < update)
        if (slot.decodedUpdate.compare_exchange_weak(last, update, std::memory_order_relaxed)) {
            slot.decodedOnDemand.fetch_add(1, std::memory_order_relaxed);
            return;
        }
}

std::uint64_t CurrentValueTable::decodedOnDemand(std::uint32_t typeIndex) const noexcept
{
    return typeIndex < m_types.typeCount() ? m_slots[typeIndex].decodedOnDemand.load(std::memory_order_relaxed) : 0;
}

} // namespace telestation::pipeline
