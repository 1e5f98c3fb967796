// The two token stores: in memory, and a JSON file only its owner can read.
//
// The file: {"clients": {issuer: {client_id, client_secret, token_endpoint_auth_method}},
//            "tokens": {issuer: {resource: {access_token, token_type, refresh_token, scope, expires_at}}}}
// Several mcpkit processes may share it: each change re-reads the file under an exclusive lock,
// applies itself and replaces the file atomically (a new file at mode 0600, then rename).

#include "mcp/auth/TokenStore.hpp"

#include "auth/JsonDocument.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace mcp::auth {
namespace json = boost::json;

namespace {

json::object client_to_json(const ClientCredentials& client) {
    return {{"client_id", client.client_id},
            {"client_secret", client.client_secret},
            {"token_endpoint_auth_method", client.token_endpoint_auth_method},
            {"redirect_uri", client.redirect_uri}};
}

ClientCredentials client_from_json(const json::object& object) {
    return {json_fields::text(object, "client_id"), json_fields::text(object, "client_secret"), json_fields::text(object, "token_endpoint_auth_method"),
            json_fields::text(object, "redirect_uri")};
}

json::object tokens_to_json(const Tokens& tokens) {
    return {{"access_token", tokens.access_token}, {"token_type", tokens.token_type},
            {"refresh_token", tokens.refresh_token}, {"scope", tokens.scope},
            {"expires_at", tokens.expires_at}, {"obtained_at", tokens.obtained_at}};
}

Tokens tokens_from_json(const json::object& object) {
    Tokens tokens;
    tokens.access_token = json_fields::text(object, "access_token");
    tokens.token_type = json_fields::text(object, "token_type");
    tokens.refresh_token = json_fields::text(object, "refresh_token");
    tokens.scope = json_fields::text(object, "scope");
    if (auto* at = object.if_contains("expires_at"); at && at->is_int64()) tokens.expires_at = at->get_int64();
    if (auto* at = object.if_contains("obtained_at"); at && at->is_int64()) tokens.obtained_at = at->get_int64();
    return tokens;
}

/// The document's object member `name`, created when absent.
json::object& member(json::object& document, std::string_view name) {
    auto& value = document[name];
    if (!value.is_object()) value = json::object();
    return value.as_object();
}

const json::object* find_object(const json::object& document, std::string_view name) {
    auto* value = document.if_contains(name);
    return value && value->is_object() ? &value->get_object() : nullptr;
}

/// Both stores keep the same document; they differ in where it lives.
class DocumentStore : public TokenStore {
public:
    std::optional<Tokens> tokens(const std::string& issuer, const std::string& resource) override {
        auto document = read();
        if (auto* all = find_object(document, "tokens"))
            if (auto* by_issuer = find_object(*all, issuer))
                if (auto* entry = find_object(*by_issuer, resource)) return tokens_from_json(*entry);
        return std::nullopt;
    }
    void save_tokens(const std::string& issuer, const std::string& resource, const Tokens& tokens) override {
        change([&](json::object& document) { member(member(document, "tokens"), issuer)[resource] = tokens_to_json(tokens); });
    }
    void forget_tokens(const std::string& issuer, const std::string& resource) override {
        change([&](json::object& document) { member(member(document, "tokens"), issuer).erase(resource); });
    }
    std::optional<ClientCredentials> client(const std::string& issuer) override {
        auto document = read();
        if (auto* clients = find_object(document, "clients"))
            if (auto* entry = find_object(*clients, issuer)) return client_from_json(*entry);
        return std::nullopt;
    }
    void save_client(const std::string& issuer, const ClientCredentials& client) override {
        change([&](json::object& document) { member(document, "clients")[issuer] = client_to_json(client); });
    }
    void forget_client(const std::string& issuer) override {
        change([&](json::object& document) {
            member(document, "clients").erase(issuer);
            member(document, "tokens").erase(issuer);  // tokens die with the registration that got them
        });
    }

protected:
    virtual json::object read() = 0;
    virtual void change(const std::function<void(json::object&)>& edit) = 0;
};

class MemoryTokenStore final : public DocumentStore {
    json::object read() override {
        std::lock_guard lock(mutex_);
        return document_;
    }
    void change(const std::function<void(json::object&)>& edit) override {
        std::lock_guard lock(mutex_);
        edit(document_);
    }
    std::mutex mutex_;
    json::object document_;
};

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
    throw std::runtime_error("the token file " + file.string() + ": " + what);
}

class FileTokenStore final : public DocumentStore {
public:
    explicit FileTokenStore(std::filesystem::path file) : file_(std::move(file)) {
        read();  // an unreadable file is reported now, not at the first token
    }

private:
    json::object read() override {
        std::lock_guard lock(mutex_);
        return load();
    }

    void change(const std::function<void(json::object&)>& edit) override {
        std::lock_guard lock(mutex_);
        std::error_code ec;
        auto folder = file_.parent_path();
        if (!folder.empty() && !std::filesystem::exists(folder)) {
            std::filesystem::create_directories(folder, ec);
            if (ec) fail(file_, "cannot create its folder: " + ec.message());
            ::chmod(folder.c_str(), 0700);
        }
        // One writer at a time across processes; the lock lives on a file of its own because the
        // token file itself is replaced.
        std::string lock_path = file_.string() + ".lock";
        int lock_fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (lock_fd < 0) fail(file_, std::string("cannot open its lock file: ") + std::strerror(errno));
        ::flock(lock_fd, LOCK_EX);
        try {
            json::object document = load();
            edit(document);
            write(document);
        } catch (...) {
            ::close(lock_fd);
            throw;
        }
        ::close(lock_fd);
    }

    json::object load() {
        std::ifstream in(file_);
        if (!in) {
            if (!std::filesystem::exists(file_)) return {};
            fail(file_, "cannot be read");
        }
        std::stringstream text;
        text << in.rdbuf();
        if (text.str().empty()) return {};
        boost::system::error_code ec;
        json::value value = json::parse(text.str(), ec);
        if (ec || !value.is_object())
            fail(file_, "is not a JSON object; move it away and authorize again");
        return std::move(value.as_object());
    }

    void write(const json::object& document) {
        std::string temporary = file_.string() + ".new";
        int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) fail(file_, std::string("cannot be written: ") + std::strerror(errno));
        ::fchmod(fd, 0600);  // O_CREAT's mode does not apply to a file left over by a crash
        std::string text = json::serialize(document);
        const char* at = text.data();
        std::size_t left = text.size();
        while (left > 0) {
            ssize_t written = ::write(fd, at, left);
            if (written < 0 && errno == EINTR) continue;
            if (written <= 0) {
                ::close(fd);
                fail(file_, std::string("cannot be written: ") + std::strerror(errno));
            }
            at += written;
            left -= static_cast<std::size_t>(written);
        }
        ::fsync(fd);
        ::close(fd);
        if (::rename(temporary.c_str(), file_.c_str()) != 0)
            fail(file_, std::string("cannot be replaced: ") + std::strerror(errno));
    }

    std::filesystem::path file_;
    std::mutex mutex_;
};

}  // namespace

std::shared_ptr<TokenStore> make_memory_token_store() { return std::make_shared<MemoryTokenStore>(); }

std::shared_ptr<TokenStore> make_file_token_store(std::filesystem::path file) {
    return std::make_shared<FileTokenStore>(std::move(file));
}

std::filesystem::path default_token_file() {
    if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && *config)
        return std::filesystem::path(config) / "mcpkit" / "oauth.json";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".config" / "mcpkit" / "oauth.json";
    // Never a relative path: tokens would land in whatever directory the program runs in.
    if (const struct passwd* entry = ::getpwuid(::geteuid()); entry && entry->pw_dir && *entry->pw_dir)
        return std::filesystem::path(entry->pw_dir) / ".config" / "mcpkit" / "oauth.json";
    throw std::runtime_error("no place for OAuth tokens: neither XDG_CONFIG_HOME nor HOME is set and this user has no "
                             "home directory; set XDG_CONFIG_HOME to a directory of yours");
}

}  // namespace mcp::auth
