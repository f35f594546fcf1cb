// A real small file system for the tests of a full disk: a tmpfs of a given size mounted on a directory
// (needs root; the test skips with mountError() otherwise), unmounted whatever happens, with another
// program's file taking part of it that the test deletes to free space. Header-only.
#pragma once

#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace telestation::test {

class SmallDisk {
public:
    // Mounts a tmpfs of `size` (mount's syntax: "512k") on `path` (created); mounted() says whether it is.
    SmallDisk(std::string path, const std::string& size) : m_path(std::move(path))
    {
        std::error_code ec;
        std::filesystem::create_directories(m_path, ec);
        if (::mount("tmpfs", m_path.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0)
            m_mounted = true;
        else
            m_error = "cannot mount a " + size + " tmpfs to fill (needs root and mount): " + std::strerror(errno);
    }
    ~SmallDisk()
    {
        if (m_mounted)
            ::umount2(m_path.c_str(), MNT_DETACH);
    }
    SmallDisk(const SmallDisk&) = delete;
    SmallDisk& operator=(const SmallDisk&) = delete;

    [[nodiscard]] bool mounted() const noexcept { return m_mounted; }
    [[nodiscard]] const std::string& mountError() const noexcept { return m_error; }
    [[nodiscard]] const std::string& path() const noexcept { return m_path; }
    // A file of `bytes` as another program's, taking that much of the disk; freeSpace() deletes it.
    void takeSpace(std::size_t bytes) { std::ofstream(fillerPath()) << std::string(bytes, 'x'); }
    bool freeSpace() { return std::filesystem::remove(fillerPath()); }
    // Grows the file system (a bigger disk) without touching what is on it.
    bool grow(const std::string& size)
    {
        return ::mount("tmpfs", m_path.c_str(), "tmpfs", MS_REMOUNT, ("size=" + size).c_str()) == 0;
    }

private:
    [[nodiscard]] std::string fillerPath() const { return m_path + "/other-program.dat"; }

    std::string m_path;
    bool m_mounted = false;
    std::string m_error;
};

} // namespace telestation::test
