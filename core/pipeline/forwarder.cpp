#include "core/pipeline/forwarder.hpp"

#include "core/io/endpoint.hpp"

#include <algorithm>
#include <bit>

namespace telestation::pipeline {

using namespace std::chrono_literals;

Forwarder::Forwarder(StationCore& core) : QueueWorker(core, core.forwarderBell, &Stream::forward, "ts-forwarder") {}

Forwarder::~Forwarder() = default;

io::Sender* Forwarder::open(std::size_t index)
{
    Destination& d = m_destinations[index];
    if (d.sender)
        return d.sender.get();
    const auto now = std::chrono::steady_clock::now();
    if (now < d.retryAt)
        return nullptr;
    auto endpoint = io::parseEndpoint(d.url);
    io::SenderOptions o;
    o.blocking = false; // never let a slow destination stall the others
    auto sender = endpoint ? io::openSender(*endpoint, o) : Result<std::unique_ptr<io::Sender>>(endpoint.error());
    if (!sender) {
        d.retryAt = now + 5s;
        m_core.event(events::EventKind::Forward, events::Severity::Error, d.streams, "forward to " + d.url + ": " + sender.error().toString() + " (retrying in 5 s)", d.url);
        std::lock_guard lock(m_core.forwards.mutex);
        m_core.forwards.destinations[index].state = "error: " + sender.error().message;
        return nullptr;
    }
    d.sender = std::move(*sender);
    return d.sender.get();
}

void Forwarder::publish(std::size_t index, bool withState)
{
    Destination& d = m_destinations[index];
    if (!d.sender)
        return;
    DestinationView& v = m_core.forwards.destinations[index];
    const io::SenderStats& st = d.sender->stats();
    set(v.packets, st.packets);
    set(v.bytes, st.bytes);
    set(v.notSent, st.notSent);
    set(v.connects, st.connects);
    set(v.disconnects, st.disconnects);
    const bool connected = d.sender->connected();
    v.connected.store(connected, std::memory_order_relaxed);
    // Up when connected; down when it was up, or when it has never been up and packets for it could not
    // be sent (a destination that is down from the start is reported too).
    using Link = Destination::Link;
    if (connected && d.link != Link::Up) {
        d.link = Link::Up;
        m_core.event(events::EventKind::Forward, events::Severity::Info, d.streams, "forward destination " + d.url + " is up", d.url);
    } else if (!connected && (d.link == Link::Up || (d.link == Link::Unknown && st.notSent > 0))) {
        d.link = Link::Down;
        m_core.event(events::EventKind::Forward, events::Severity::Warning, d.streams, "forward destination " + d.url + " is down", d.url);
    }
    if (!withState)
        return;
    const std::uint64_t version = d.sender->stateVersion();
    if (d.stateShown && version == d.stateVersion)
        return;
    std::string state = d.sender->state(); // allocates: only when the state changed
    d.stateVersion = version;
    d.stateShown = true;
    std::lock_guard lock(m_core.forwards.mutex);
    v.state = std::move(state);
}

void Forwarder::beforeRound()
{
    auto& live = m_core.settings;
    refreshIfChanged(live.version, m_settingsVersion, live.mutex, [&] { // the packets carry the router's choice
        for (std::size_t i = m_destinations.size(); i < live.destinations.size(); ++i)
            m_destinations.push_back(Destination{live.destinations[i], {}, nullptr, {}, Destination::Link::Unknown, {}});
        nameStreams(live);
    });
    // Senders connect and reconnect on send calls; keep idle TCP destinations moving too.
    const auto now = std::chrono::steady_clock::now();
    // Not `200ms`: cppcheck 2.10 gives up on the whole file at that literal.
    if (now - m_lastPublish < std::chrono::milliseconds{200})
        return;
    m_lastPublish = now;
    for (std::size_t d = 0; d < m_destinations.size(); ++d) {
        if (io::Sender* sender = open(d)) {
            if (!sender->connected())
                (void)sender->send({});
            publish(d, true);
        }
    }
}

void Forwarder::nameStreams(const LiveSettings& live)
{
    for (std::size_t d = 0; d < m_destinations.size(); ++d) {
        const std::uint64_t bit = std::uint64_t{1} << d;
        std::string names;
        for (std::size_t i = 0; i < live.streamIds.size() && i < live.profile.streams.size(); ++i) {
            const std::uint16_t id = live.streamIds[i];
            if (id >= live.perType.size())
                continue;
            const auto& types = live.perType[id];
            if (std::any_of(types.begin(), types.end(), [bit](const TypeSettings& t) { return (t.forwardMask & bit) != 0; }))
                names += (names.empty() ? "" : ", ") + live.profile.streams[i].name;
        }
        m_destinations[d].streams = std::move(names);
    }
}

void Forwarder::handle(Stream& s, std::span<const PacketHandle> batch)
{
    PacketPool& pool = *m_core.pool;
    std::uint64_t used = 0;
    for (const PacketHandle h : batch)
        used |= pool.meta(h).forwardMask;
    while (used != 0) {
        const auto d = static_cast<std::size_t>(std::countr_zero(used));
        used &= used - 1;
        const std::uint64_t bit = std::uint64_t{1} << d;
        std::size_t m = 0;
        for (const PacketHandle h : batch) {
            const PacketMeta& meta = pool.meta(h);
            if (meta.forwardMask & bit) {
                m_spans[m] = pool.bytes(h);
                m_typeOf[m++] = meta.typeIndex;
            }
        }
        io::Sender* sender = d < m_destinations.size() ? open(d) : nullptr;
        const std::size_t sent = sender ? sender->send(std::span(m_spans.data(), m)) : 0;
        // Senders send in order and stop at the first packet they cannot send.
        for (std::size_t i = 0; i < m; ++i) {
            ForwarderTypeCounters& fc = s.forwarderCounters[m_typeOf[i]];
            if (i < sent) {
                bump(fc.forwarded);
                bump(fc.bytes, m_spans[i].size());
            } else {
                bump(fc.errors);
            }
        }
        if (d < m_destinations.size())
            publish(d, false);
    }
    for (const PacketHandle h : batch)
        pool.release(h);
}

} // namespace telestation::pipeline
