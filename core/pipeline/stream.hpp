// Stream: one telemetry stream as the station runs it — its source and receiver thread, its four
// packet queues, its counters per packet type and per APID, its current values and its packet
// acceptor. Written by the thread named beside each member; read by any (snapshots). Internal to
// core/pipeline.
#pragma once

#include "core/ccsds/space_packet.hpp"
#include "core/config/station_profile.hpp"
#include "core/io/endpoint.hpp"
#include "core/pipeline/counters.hpp"
#include "core/pipeline/current_values.hpp"
#include "core/pipeline/packet_acceptor.hpp"
#include "core/pipeline/packet_queue.hpp"
#include "core/pipeline/packet_types.hpp"
#include "core/pipeline/station_sources.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace telestation::pipeline {

struct Stream {
    Stream(std::uint16_t streamId, std::uint64_t streamSerial, const config::StreamProfile& p, io::Endpoint e,
           const config::QueueOptions& q, const PacketTypeTable& types)
        : id(streamId)
        , serial(streamSerial)
        , profile(p)
        , endpoint(std::move(e))
        , transportHeaderBytes(p.transportHeaderBytes)
        , network(q.networkPacketQueueSize, q.networkPacketQueueWarningThreshold)
        , process(q.processPacketQueueSize)
        , recordQueue(q.recordPacketQueueSize)
        , forward(q.forwardPacketQueueSize)
        , receiverCounters(std::make_unique<ReceiverTypeCounters[]>(types.typeCount()))
        , routerCounters(std::make_unique<RouterTypeCounters[]>(types.typeCount()))
        , processorCounters(std::make_unique<ProcessorTypeCounters[]>(types.typeCount()))
        , recorderCounters(std::make_unique<RecorderTypeCounters[]>(types.typeCount()))
        , forwarderCounters(std::make_unique<ForwarderTypeCounters[]>(types.typeCount()))
        , apidSequence(std::make_unique<ApidSequence[]>(ccsds::kApidCount))
        , acceptor(types)
        , values(std::make_shared<CurrentValueTable>(types))
        , lastLimit(std::make_unique<decode::LimitState[]>(types.totalParameters()))
    {
        idleState = p.enabled ? "stopped" : "disabled";
        staleAfterSeconds.store(p.staleAfterSeconds, std::memory_order_relaxed);
        playbackSource.store(endpoint.scheme == io::Scheme::File, std::memory_order_relaxed);
    }

    std::uint16_t id;     // its slot in the StreamTable
    std::uint64_t serial; // unique in the station's life: tells this stream from earlier ones of its slot
    // The LiveSettings version that holds this stream's row of type settings: a worker whose copy is
    // older refreshes before it handles the stream (a new stream's first packets get its settings).
    std::uint64_t settingsVersion = 0;

    // As created or last replaced; settings live in LiveSettings. The name, source, endpoint and
    // transport header change only while the receiver thread is stopped (controlling thread, under
    // sourceMutex); the receiver reads them freely, other threads through name() / under the mutex.
    config::StreamProfile profile;
    io::Endpoint endpoint;
    std::uint32_t transportHeaderBytes;
    std::atomic<double> staleAfterSeconds{0}; // the event thread watches it; a replace may change it
    std::atomic<bool> playbackSource{false};  // endpoint is file:// (the router reads it every batch)
    std::atomic<std::uint32_t> renames{0};    // moves with each new name: the recorder opens a segment under it
    [[nodiscard]] bool playback() const noexcept { return playbackSource.load(std::memory_order_relaxed); }
    [[nodiscard]] std::string name() const
    {
        std::lock_guard lock(sourceMutex);
        return profile.name;
    }
    // `out` = the name, copied only when it changed (the event thread looks every round: no allocation).
    void nameInto(std::string& out) const
    {
        std::lock_guard lock(sourceMutex);
        if (out != profile.name)
            out = profile.name;
    }

    // `source` is replaced only while the receiver thread is not running (controlling thread); the
    // mutex keeps snapshots, which may run on any thread, from reading it meanwhile.
    std::unique_ptr<Source> source;
    mutable std::mutex sourceMutex;
    std::string idleState; // the state shown while there is no source: disabled, stopped, error: why
    std::thread thread;    // the receiver
    std::atomic<bool> running{false};
    std::atomic<bool> stopRequested{false};
    std::atomic<bool> paused{false};

    PacketQueue network, process, recordQueue, forward;
    Counter routed{0};    // router: packets taken from the network queue and finished with
    Counter poolDrops{0}; // receiver

    std::unique_ptr<ReceiverTypeCounters[]> receiverCounters;
    std::unique_ptr<RouterTypeCounters[]> routerCounters;
    std::unique_ptr<ProcessorTypeCounters[]> processorCounters;
    std::unique_ptr<RecorderTypeCounters[]> recorderCounters;
    std::unique_ptr<ForwarderTypeCounters[]> forwarderCounters;
    std::unique_ptr<ApidSequence[]> apidSequence; // router
    ApidSequence sequenceTotal;                   // router
    PacketAcceptor acceptor;                      // router thread only
    // The processor writes; consumers read, and keep it alive past the stream's removal (a shared_ptr
    // handed out under the StreamTable's mutex).
    std::shared_ptr<CurrentValueTable> values;
    std::unique_ptr<decode::LimitState[]> lastLimit; // processor: each parameter's limit state (index = parameter id)

};

} // namespace telestation::pipeline
