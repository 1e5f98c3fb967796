#include "review/SocketDiscovery.hpp"

#include "mcp/PrivateFiles.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace mcpkit::review {
namespace json = boost::json;

namespace {
std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::optional<json::object> read_json_object(const std::string& path) {
    // A file someone else wrote could name their socket: a review sent there would be theirs to read.
    struct stat status {};
    if (::lstat(path.c_str(), &status) != 0 || !S_ISREG(status.st_mode) || status.st_uid != ::geteuid())
        return std::nullopt;
    std::ifstream file(path);
    if (!file) return std::nullopt;
    std::stringstream text;
    text << file.rdbuf();
    boost::system::error_code ec;
    json::value value = json::parse(text.str(), ec);
    if (ec || !value.is_object()) return std::nullopt;
    return std::move(value.get_object());
}

bool process_alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }
}  // namespace

std::string runtime_directory() { return mcp::runtime_directory().string(); }

std::string discovery_file_path() {
    std::string overridden = environment("MCPKIT_REVIEW_DISCOVERY");
    return overridden.empty() ? runtime_directory() + "/review-panel.json" : overridden;
}

std::string default_socket_path() { return runtime_directory() + "/review.sock"; }

std::optional<DiscoveryRecord> read_discovery_file(const std::string& path) {
    auto object = read_json_object(path);
    if (!object) return std::nullopt;
    DiscoveryRecord record;
    if (auto* socket = object->if_contains("socket"); socket && socket->is_string())
        record.socket = std::string(socket->get_string());
    if (auto* pid = object->if_contains("pid"); pid && pid->is_int64()) record.pid = static_cast<long>(pid->get_int64());
    if (auto* url = object->if_contains("url"); url && url->is_string()) record.url = std::string(url->get_string());
    if (record.socket.empty() || !process_alive(record.pid)) return std::nullopt;
    return record;
}

void write_discovery_file(const std::string& path, const DiscoveryRecord& record) {
    json::object object{{"socket", record.socket}, {"pid", record.pid}};
    if (!record.url.empty()) object["url"] = record.url;
    std::string temporary = path + ".tmp-" + std::to_string(::getpid());
    {
        mode_t previous = ::umask(0077);
        std::ofstream file(temporary, std::ios::trunc);
        ::umask(previous);
        file << json::serialize(object) << '\n';
        if (!file) throw std::runtime_error("cannot write the discovery file " + temporary + ": " + std::strerror(errno));
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        std::string why = std::strerror(errno);
        ::unlink(temporary.c_str());
        throw std::runtime_error("cannot write the discovery file " + path + ": " + why);
    }
}

void remove_discovery_file(const std::string& path, long pid) {
    auto object = read_json_object(path);
    const json::value* recorded = object ? object->if_contains("pid") : nullptr;
    if (recorded && recorded->is_int64() && recorded->get_int64() == pid) ::unlink(path.c_str());
}

SocketCandidates locate_panel() {
    SocketCandidates candidates;
    std::string variable = environment("DIALECTIC_IPC_PATH");
    if (!variable.empty()) candidates.paths.push_back(variable);
    std::string file;
    try {
        file = discovery_file_path();
    } catch (const mcp::PrivateDirectoryError& e) {
        // The shared runtime directory is not ours: say so rather than trusting what it names.
        candidates.searched = (variable.empty() ? std::string("DIALECTIC_IPC_PATH is not set")
                                                : "DIALECTIC_IPC_PATH is " + variable) +
                              " and the discovery file was not read: " + e.what();
        return candidates;
    }
    auto record = read_discovery_file(file);
    if (record && record->socket != variable) candidates.paths.push_back(record->socket);
    candidates.searched = (variable.empty() ? std::string("DIALECTIC_IPC_PATH is not set") : "DIALECTIC_IPC_PATH is " + variable) +
                          " and " + (record ? "the discovery file " + file + " names " + record->socket
                                            : "there is no live panel in the discovery file " + file);
    return candidates;
}

}  // namespace mcpkit::review
