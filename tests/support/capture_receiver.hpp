// Test receivers on loopback that capture everything that arrives, with arrival times: a UDP socket
// (each datagram kept) and a TCP listener (the byte stream kept). Each runs a thread of its own until
// destroyed. For tests only: they keep every byte in memory.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace telestation::test {

inline std::int64_t steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

class UdpCapture {
public:
    struct Datagram {
        std::int64_t arrivalNs;
        std::vector<std::uint8_t> bytes;
    };

    UdpCapture()
    {
        m_fd = ::socket(AF_INET, SOCK_DGRAM, 0);
        if (m_fd < 0)
            throw std::runtime_error("socket");
        const int size = 32 * 1024 * 1024;
        // As root the buffer may exceed net.core.rmem_max; otherwise the kernel caps it.
        if (::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) != 0)
            ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
            throw std::runtime_error("bind");
        socklen_t len = sizeof addr;
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        m_thread = std::thread([this] { run(); });
    }
    ~UdpCapture()
    {
        m_stop.store(true);
        m_thread.join();
        ::close(m_fd);
    }
    UdpCapture(const UdpCapture&) = delete;
    UdpCapture& operator=(const UdpCapture&) = delete;

    [[nodiscard]] std::uint16_t port() const { return m_port; }
    [[nodiscard]] std::size_t count() const
    {
        std::lock_guard lock(m_mutex);
        return m_records.size();
    }
    [[nodiscard]] std::vector<Datagram> datagrams() const
    {
        std::lock_guard lock(m_mutex);
        std::vector<Datagram> out;
        out.reserve(m_records.size());
        for (const Record& r : m_records)
            out.push_back({r.arrivalNs, std::vector<std::uint8_t>(m_data.begin() + std::ptrdiff_t(r.offset),
                                                                  m_data.begin() + std::ptrdiff_t(r.offset + r.size))});
        return out;
    }

private:
    struct Record {
        std::int64_t arrivalNs;
        std::size_t offset;
        std::size_t size;
    };

    // Drains in batches with recvmmsg into one flat buffer: cheap enough to timestamp 100,000
    // datagrams/s faithfully on a loaded machine.
    void run()
    {
        constexpr int kBatch = 64;
        std::vector<std::uint8_t> buffers(std::size_t(kBatch) * 65536);
        std::vector<iovec> iov(kBatch);
        std::vector<mmsghdr> msgs(kBatch);
        for (int i = 0; i < kBatch; ++i) {
            iov[std::size_t(i)] = {buffers.data() + std::size_t(i) * 65536, 65536};
            msgs[std::size_t(i)] = {};
            msgs[std::size_t(i)].msg_hdr.msg_iov = &iov[std::size_t(i)];
            msgs[std::size_t(i)].msg_hdr.msg_iovlen = 1;
        }
        {
            std::lock_guard lock(m_mutex);
            m_data.reserve(64u << 20);
            m_records.reserve(1u << 20);
        }
        while (!m_stop.load()) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 20) <= 0)
                continue;
            const int n = ::recvmmsg(m_fd, msgs.data(), kBatch, MSG_DONTWAIT, nullptr);
            if (n <= 0)
                continue;
            const std::int64_t now = steadyNowNs();
            std::lock_guard lock(m_mutex);
            for (int i = 0; i < n; ++i) {
                const std::size_t size = msgs[std::size_t(i)].msg_len;
                const std::uint8_t* data = buffers.data() + std::size_t(i) * 65536;
                m_records.push_back({now, m_data.size(), size});
                m_data.insert(m_data.end(), data, data + size);
            }
        }
    }

    int m_fd = -1;
    std::uint16_t m_port = 0;
    std::atomic<bool> m_stop{false};
    mutable std::mutex m_mutex;
    std::vector<std::uint8_t> m_data;
    std::vector<Record> m_records;
    std::thread m_thread;
};

// Accepts TCP connections on 127.0.0.1 (ephemeral port), one at a time, and keeps every byte it
// receives. With Listen::Later the port is bound at once (no other program can take it) but refuses
// connections until listen() — a destination that is down, then comes up.
class TcpCapture {
public:
    enum class Listen { Now, Later };
    explicit TcpCapture(Listen when = Listen::Now)
    {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        const int one = 1;
        ::setsockopt(m_listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(m_listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
            throw std::runtime_error("bind");
        socklen_t len = sizeof addr;
        ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        if (when == Listen::Now && !listen())
            throw std::runtime_error("listen");
    }
    [[nodiscard]] bool listen()
    {
        if (::listen(m_listener, 4) != 0)
            return false;
        m_thread = std::thread([this] { run(); });
        return true;
    }
    ~TcpCapture()
    {
        m_stop.store(true);
        if (m_thread.joinable())
            m_thread.join();
        if (m_client >= 0)
            ::close(m_client);
        ::close(m_listener);
    }
    TcpCapture(const TcpCapture&) = delete;
    TcpCapture& operator=(const TcpCapture&) = delete;

    [[nodiscard]] std::uint16_t port() const { return m_port; }
    [[nodiscard]] std::size_t size() const
    {
        std::lock_guard lock(m_mutex);
        return m_bytes.size();
    }
    [[nodiscard]] std::vector<std::uint8_t> bytes() const
    {
        std::lock_guard lock(m_mutex);
        return m_bytes;
    }

private:
    void run()
    {
        std::vector<std::uint8_t> buffer(1 << 16);
        while (!m_stop.load()) {
            const int fd = m_client >= 0 ? m_client : m_listener;
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 20) <= 0)
                continue;
            if (m_client < 0) {
                m_client = ::accept(m_listener, nullptr, nullptr);
                continue;
            }
            const ssize_t n = ::recv(m_client, buffer.data(), buffer.size(), 0);
            if (n <= 0) {
                ::close(m_client);
                m_client = -1;
                continue;
            }
            std::lock_guard lock(m_mutex);
            m_bytes.insert(m_bytes.end(), buffer.begin(), buffer.begin() + n);
        }
    }

    int m_listener = -1;
    int m_client = -1;
    std::uint16_t m_port = 0;
    std::atomic<bool> m_stop{false};
    mutable std::mutex m_mutex;
    std::vector<std::uint8_t> m_bytes;
    std::thread m_thread;
};

} // namespace telestation::test
