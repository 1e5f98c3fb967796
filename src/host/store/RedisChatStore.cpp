// Sessions in Redis, so that host instances behind a load balancer share them: a hash per
// session (created, last active, usage, revision) and a list of its messages, both expiring after
// 30 days without activity. Every change of the list counts up the revision.

#include "host/store/ChatStore.hpp"

#include <mcp/store/RedisConnection.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

constexpr std::string_view idle_expiry_seconds = "2592000";

class RedisChatStore final : public ChatStore {
public:
    explicit RedisChatStore(const std::string& url) : redis_(mcp::parse_redis_url(url)) {}

    std::optional<StoredSession> load(const std::string& id) override {
        auto fields = redis_.run({"HGETALL", key(id)});
        if (!fields.is_array() || fields.size() == 0) return std::nullopt;
        StoredSession stored;
        stored.id = id;
        for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
            std::string_view name = fields[i].text(), value = fields[i + 1].text();
            if (name == "created_at") stored.created_at = std::stoll(std::string(value));
            else if (name == "last_active") stored.last_active = std::stoll(std::string(value));
            else if (name == "revision") stored.revision = std::stoll(std::string(value));
            else if (name == "usage") {
                boost::system::error_code ec;
                json::value usage = json::parse(value, ec);
                if (!ec) stored.usage = usage_from_json(usage);
            }
        }
        auto messages = redis_.run({"LRANGE", messages_key(id), "0", "-1"});
        for (std::size_t i = 0; i < messages.size(); ++i) {
            boost::system::error_code ec;
            json::value message = json::parse(messages[i].text(), ec);
            if (ec || !message.is_object()) continue;
            try {
                stored.history.push_back(ChatMessage::from_json(message.get_object()));
            } catch (const std::invalid_argument&) {
            }
        }
        return stored;
    }

    std::optional<std::int64_t> revision(const std::string& id) override {
        auto value = redis_.run({"HGET", key(id), "revision"});
        return value.is_nil() ? 0 : std::stoll(std::string(value.text()));
    }

    void touch(const std::string& id, std::int64_t created_at, std::int64_t now) override {
        std::string session = key(id);
        redis_.run({"HSETNX", session, "created_at", std::to_string(created_at)});
        redis_.run({"HSET", session, "last_active", std::to_string(now)});
        redis_.run({"EXPIRE", session, idle_expiry_seconds});
        redis_.run({"EXPIRE", messages_key(id), idle_expiry_seconds});
    }

    std::int64_t append(const std::string& id, const ChatMessage& message) override {
        redis_.run({"RPUSH", messages_key(id), json::serialize(message.to_json())});
        redis_.run({"EXPIRE", messages_key(id), idle_expiry_seconds});
        return redis_.run({"HINCRBY", key(id), "revision", "1"}).integer();
    }

    void set_usage(const std::string& id, const TokenUsage& usage) override {
        redis_.run({"HSET", key(id), "usage",
                    json::serialize(usage_json(usage))});
    }

    std::int64_t clear(const std::string& id) override {
        redis_.run({"DEL", messages_key(id)});
        return redis_.run({"HINCRBY", key(id), "revision", "1"}).integer();
    }

    // Redis expires idle sessions by itself (EXPIRE on every touch).
    std::size_t remove_inactive(std::int64_t) override { return 0; }

    std::string description() const override { return "redis://" + redis_.address().where() + "/" + std::to_string(redis_.address().database); }

private:
    static std::string key(const std::string& id) { return "mcpkit:host:session:" + id; }
    static std::string messages_key(const std::string& id) { return "mcpkit:host:messages:" + id; }
    mcp::RedisConnection redis_;
};

}  // namespace

std::unique_ptr<ChatStore> make_redis_chat_store(const std::string& url) { return std::make_unique<RedisChatStore>(url); }

}  // namespace mcpkit::host
