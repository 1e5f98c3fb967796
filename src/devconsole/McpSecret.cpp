#include "devconsole/McpSecret.hpp"

#include <mcp/PrivateFiles.hpp>
#include <mcp/RandomId.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace mcpkit::devconsole {

namespace {

std::string from_environment() {
    const char* value = std::getenv("MCPKIT_DEVCONSOLE_TOKEN");
    return value ? value : "";
}

/// The file's secret if it is a regular file of ours that nobody else may read, else "".
std::string read_secret(const std::filesystem::path& file) {
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return {};
    struct stat status {};
    std::string secret;
    if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_uid == ::geteuid() &&
        (status.st_mode & 077) == 0) {
        char buffer[256];
        ssize_t read = ::read(fd, buffer, sizeof buffer);
        if (read > 0) secret.assign(buffer, static_cast<std::size_t>(read));
        while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
    }
    ::close(fd);
    return secret;
}

}  // namespace

std::filesystem::path mcp_secret_file(std::uint16_t port) {
    return mcp::runtime_directory() / ("devconsole-" + std::to_string(port) + ".token");
}

std::string mcp_secret(std::uint16_t port) {
    if (auto secret = from_environment(); !secret.empty()) return secret;
    auto file = mcp_secret_file(port);
    if (auto secret = read_secret(file); !secret.empty()) return secret;
    std::string secret = mcp::random_hex(32);
    // Written beside, then renamed over: a reader never sees half a secret, and a file of someone
    // else's (or one with a wider mode) is replaced, not trusted.
    auto temporary = file;
    temporary += ".new";
    ::unlink(temporary.c_str());
    int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        throw std::runtime_error("cannot write the /mcp secret to " + temporary.string() + ": " + std::strerror(errno));
    std::string line = secret + "\n";
    bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
    ::close(fd);
    if (!written || ::rename(temporary.c_str(), file.c_str()) != 0) {
        ::unlink(temporary.c_str());
        throw std::runtime_error("cannot write the /mcp secret to " + file.string() + ": " + std::strerror(errno));
    }
    return secret;
}

std::string existing_mcp_secret(std::uint16_t port) {
    if (auto secret = from_environment(); !secret.empty()) return secret;
    return read_secret(mcp_secret_file(port));
}

}  // namespace mcpkit::devconsole
