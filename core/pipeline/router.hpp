// Router: the worker that takes each stream's network packet queue, has every packet checked by the
// stream's PacketAcceptor, counts the verdict against the packet type and APID, and hands the packet
// to the process, record and forward queues its type's settings ask for (one reference per queue, no
// copy; malformed and discarded packets end here). Internal to core/pipeline.
#pragma once

#include "core/pipeline/worker.hpp"

#include <vector>

namespace telestation::pipeline {

class Router final : public Worker {
public:
    explicit Router(StationCore& core);

private:
    std::size_t serviceRound() override;
    bool hasWork() const override;
    void finished() override; // the downstream workers may end once their queues are empty

    std::size_t routeBatch(Stream& s, const std::vector<TypeSettings>& typeSettings);
    std::int64_t publishSequence(Stream& s, std::uint16_t apid);
    void report(const Stream& s, const PacketVerdict& v, std::int64_t receiveTimeNs, std::size_t size, std::int64_t lostDelta);

    std::vector<std::vector<TypeSettings>> m_settings; // LiveSettings::perType, refreshed between rounds
    std::uint64_t m_settingsVersion = 0;
};

} // namespace telestation::pipeline
