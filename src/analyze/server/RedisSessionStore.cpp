// Sessions in Redis, shared by every analyze server pointed at it. Each session is one key,
// `mcpkit:analyze:session:<id>`, holding its JSON; Redis expires it after the TTL (refreshed on
// every save), so a server that dies leaks nothing.

#include "analyze/server/SessionStore.hpp"

#include <boost/json.hpp>
#include <hiredis/hiredis.h>

#include <algorithm>
#include <mutex>
#include <utility>
#include <stdexcept>

namespace mcpkit::analyze {

namespace {

constexpr std::string_view key_prefix = "mcpkit:analyze:session:";

struct RedisAddress {
    std::string host = "127.0.0.1";
    int port = 6379;
    std::string password;
    int database = 0;
};

RedisAddress parse_redis_url(const std::string& url) {
    RedisAddress address;
    std::string rest = url.substr(8);  // after redis://
    auto fail = [&](const std::string& why) {
        return std::invalid_argument("--store " + url + ": " + why + " (expected redis://[:PASSWORD@]HOST[:PORT][/DB])");
    };
    if (auto at = rest.rfind('@'); at != std::string::npos) {
        std::string credentials = rest.substr(0, at);
        rest = rest.substr(at + 1);
        auto colon = credentials.find(':');
        address.password = colon == std::string::npos ? credentials : credentials.substr(colon + 1);
    }
    if (auto slash = rest.find('/'); slash != std::string::npos) {
        std::string database = rest.substr(slash + 1);
        rest = rest.substr(0, slash);
        if (!database.empty()) {
            try {
                address.database = std::stoi(database);
            } catch (...) {
                throw fail("the database must be a number");
            }
        }
    }
    if (auto colon = rest.rfind(':'); colon != std::string::npos && rest.find(']') == std::string::npos) {
        try {
            address.port = std::stoi(rest.substr(colon + 1));
        } catch (...) {
            throw fail("the port must be a number");
        }
        rest = rest.substr(0, colon);
    }
    if (!rest.empty()) address.host = rest;
    return address;
}

class Reply {
public:
    explicit Reply(void* reply) : reply_(static_cast<redisReply*>(reply)) {}
    ~Reply() {
        if (reply_) freeReplyObject(reply_);
    }
    Reply(const Reply&) = delete;
    Reply(Reply&& other) noexcept : reply_(std::exchange(other.reply_, nullptr)) {}
    redisReply* operator->() const { return reply_; }
    explicit operator bool() const { return reply_ != nullptr; }

private:
    redisReply* reply_;
};

class RedisSessionStore final : public SessionStore {
public:
    explicit RedisSessionStore(std::string url) : url_(std::move(url)), address_(parse_redis_url(url_)) {
        std::lock_guard lock(mutex_);
        connect();
    }
    ~RedisSessionStore() override {
        if (context_) redisFree(context_);
    }

    std::optional<Session> load(const std::string& id) override {
        std::string key = std::string(key_prefix) + id;
        Reply reply = command("GET %b", key.data(), key.size());
        if (reply->type != REDIS_REPLY_STRING) return std::nullopt;
        Session session = session_from_json(boost::json::parse(std::string_view(reply->str, reply->len)).as_object());
        if (session.expired(now_milliseconds())) return std::nullopt;
        return session;
    }
    void save(const Session& session) override {
        std::string key = std::string(key_prefix) + session.id;
        std::string value = boost::json::serialize(to_json(session));
        std::string ttl = std::to_string(std::max<std::int64_t>(1, session.ttl_seconds));
        command("SET %b %b EX %s", key.data(), key.size(), value.data(), value.size(), ttl.c_str());
    }
    bool remove(const std::string& id) override {
        std::string key = std::string(key_prefix) + id;
        Reply reply = command("DEL %b", key.data(), key.size());
        return reply->type == REDIS_REPLY_INTEGER && reply->integer > 0;
    }
    std::vector<Session> list() override {
        std::vector<Session> sessions;
        std::string cursor = "0";
        std::string pattern = std::string(key_prefix) + "*";
        do {
            Reply reply = command("SCAN %s MATCH %s COUNT 200", cursor.c_str(), pattern.c_str());
            if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) break;
            cursor.assign(reply->element[0]->str, reply->element[0]->len);
            for (std::size_t i = 0; i < reply->element[1]->elements; ++i) {
                std::string key(reply->element[1]->element[i]->str, reply->element[1]->element[i]->len);
                if (auto session = load(key.substr(key_prefix.size()))) {
                    session->history.clear();
                    sessions.push_back(std::move(*session));
                }
            }
        } while (cursor != "0");
        std::sort(sessions.begin(), sessions.end(), [](const Session& a, const Session& b) { return a.id < b.id; });
        return sessions;
    }
    std::size_t evict_expired() override { return 0; }  // Redis expires keys itself
    std::string description() const override { return url_; }

private:
    void connect() {
        if (context_) redisFree(context_);
        timeval timeout{2, 0};
        context_ = redisConnectWithTimeout(address_.host.c_str(), address_.port, timeout);
        if (!context_ || context_->err) {
            std::string why = context_ ? context_->errstr : "out of memory";
            if (context_) redisFree(context_);
            context_ = nullptr;
            throw std::runtime_error("cannot reach Redis at " + address_.host + ":" + std::to_string(address_.port) +
                                     " (" + why + "); is redis-server running?");
        }
        redisSetTimeout(context_, timeout);
        if (!address_.password.empty()) {
            Reply reply(redisCommand(context_, "AUTH %s", address_.password.c_str()));
            if (!reply || reply->type == REDIS_REPLY_ERROR) throw std::runtime_error("Redis refused the password");
        }
        if (address_.database) {
            Reply reply(redisCommand(context_, "SELECT %d", address_.database));
            if (!reply || reply->type == REDIS_REPLY_ERROR)
                throw std::runtime_error("Redis refused database " + std::to_string(address_.database));
        }
    }

    // One connection, one command at a time; a broken connection is reopened once.
    template <class... Arguments>
    Reply command(const char* format, Arguments... arguments) {
        std::lock_guard lock(mutex_);
        for (int attempt = 0; attempt < 2; ++attempt) {
            if (!context_) connect();
            Reply reply(redisCommand(context_, format, arguments...));
            if (reply) {
                if (reply->type == REDIS_REPLY_ERROR)
                    throw std::runtime_error("Redis: " + std::string(reply->str, reply->len));
                return reply;
            }
            redisFree(context_);
            context_ = nullptr;
        }
        throw std::runtime_error("lost the connection to Redis at " + address_.host + ":" + std::to_string(address_.port));
    }

    std::string url_;
    RedisAddress address_;
    std::mutex mutex_;
    redisContext* context_ = nullptr;
};

}  // namespace

std::unique_ptr<SessionStore> make_redis_session_store(const std::string& url) {
    return std::make_unique<RedisSessionStore>(url);
}

}  // namespace mcpkit::analyze
