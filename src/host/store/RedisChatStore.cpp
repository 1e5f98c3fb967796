// Sessions in Redis, so that host instances behind a load balancer share them: a hash per
// session (created, last active, usage, revision, title, the unfinished answer) and a list of its
// messages, both expiring after 30 days without activity. Every change of the list counts up the
// revision. The list of conversations is a sorted set (score: the time of the last message); a
// member whose session expired is dropped from it when a listing meets it.

#include "host/store/ChatStore.hpp"

#include <mcp/store/RedisConnection.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

constexpr std::string_view idle_expiry_seconds = "2592000";
constexpr std::string_view conversations_key = "mcpkit:host:conversations";
/// Tools allowed always: a hash, the qualified name to {server, tool, since}. It does not expire.
constexpr std::string_view approvals_key = "mcpkit:host:approvals";
/// A search reads every conversation's messages: one request reads this many at most, and the
/// page's `next` goes on from there.
constexpr std::size_t searched_per_page = 500;

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
            else if (name == "title") stored.title = std::string(value);
            else if (name == "unfinished") stored.unfinished = stored_message(value);
            else if (name == "usage") {
                boost::system::error_code ec;
                json::value usage = json::parse(value, ec);
                if (!ec) stored.usage = usage_from_json(usage);
            }
        }
        stored.history = history(id);
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
        redis_.run({"ZADD", conversations_key, std::to_string(message.created_at), id});
        if (message.role == Role::user)
            if (std::string title = conversation_title(message); !title.empty())
                redis_.run({"HSETNX", key(id), "title", title});
        return redis_.run({"HINCRBY", key(id), "revision", "1"}).integer();
    }

    std::int64_t replace_from(const std::string& id, std::size_t index, const std::vector<ChatMessage>& tail) override {
        if (index == 0) redis_.run({"DEL", messages_key(id)});
        else redis_.run({"LTRIM", messages_key(id), "0", std::to_string(index - 1)});
        for (const auto& message : tail) redis_.run({"RPUSH", messages_key(id), json::serialize(message.to_json())});
        redis_.run({"EXPIRE", messages_key(id), idle_expiry_seconds});
        return redis_.run({"HINCRBY", key(id), "revision", "1"}).integer();
    }

    void keep_unfinished(const std::string& id, const ChatMessage* message) override {
        if (message) redis_.run({"HSET", key(id), "unfinished", json::serialize(message->to_json())});
        else redis_.run({"HDEL", key(id), "unfinished"});
    }

    ConversationPage conversations(const ConversationQuery& query) override {
        auto position = conversation_position(query.after);
        std::string highest = position ? std::to_string(position->updated_at) : "+inf";
        ConversationPage page;
        std::size_t read = 0;
        ConversationSummary last_read;  // where a search that read its fill stopped
        for (std::size_t offset = 0;; offset += 100) {
            auto batch = redis_.run({"ZREVRANGEBYSCORE", conversations_key, highest, "-inf", "WITHSCORES", "LIMIT",
                                     std::to_string(offset), "100"});
            for (std::size_t i = 0; i + 1 < batch.size(); i += 2) {
                std::string id(batch[i].text());
                auto updated_at = static_cast<std::int64_t>(std::stod(std::string(batch[i + 1].text())));
                if (position && !position->before(updated_at, id)) continue;
                if (page.items.size() == query.limit ||
                    (!query.search.empty() && read == searched_per_page)) {
                    // The next page starts after the last one returned, or read.
                    page.next = conversation_cursor(page.items.size() == query.limit ? page.items.back() : last_read);
                    return page;
                }
                auto fields = redis_.run({"HMGET", key(id), "created_at", "title"});
                if (fields[0].is_nil()) {  // expired
                    redis_.run({"ZREM", conversations_key, id});
                    continue;
                }
                std::string title(fields[1].is_nil() ? std::string_view() : fields[1].text());
                last_read = {id, {}, updated_at};
                ++read;
                if (!query.search.empty() && !conversation_matches(title, history(id), query.search)) continue;
                page.items.push_back({id, std::move(title), updated_at});
            }
            if (batch.size() < 200) return page;
        }
    }

    std::vector<StoredApproval> approvals() override {
        std::vector<StoredApproval> list;
        auto fields = redis_.run({"HGETALL", approvals_key});
        for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
            boost::system::error_code ec;
            json::value entry = json::parse(fields[i + 1].text(), ec);
            if (ec || !entry.is_object()) continue;
            const auto& object = entry.get_object();
            auto* tool = object.if_contains("tool");
            auto* server = object.if_contains("server");
            auto* since = object.if_contains("since");
            if (!tool || !tool->is_object() || !server || !server->is_string()) continue;
            list.push_back({std::string(fields[i].text()), std::string(server->get_string()), tool->get_object(),
                            since && since->is_int64() ? since->get_int64() : 0});
        }
        return list;
    }

    void keep_approval(const StoredApproval& approval) override {
        json::object entry{{"server", approval.server}, {"tool", approval.tool}, {"since", approval.since}};
        redis_.run({"HSET", approvals_key, approval.qualified_name, json::serialize(entry)});
    }

    void forget_approval(const std::string& qualified_name) override {
        redis_.run({"HDEL", approvals_key, qualified_name});
    }

    void rename(const std::string& id, const std::string& title) override {
        if (redis_.run({"EXISTS", key(id)}).integer() == 1) redis_.run({"HSET", key(id), "title", title});
    }

    void remove(const std::string& id) override {
        redis_.run({"DEL", key(id), messages_key(id)});
        redis_.run({"ZREM", conversations_key, id});
    }

    void set_usage(const std::string& id, const TokenUsage& usage) override {
        redis_.run({"HSET", key(id), "usage",
                    json::serialize(usage_json(usage))});
    }

    std::int64_t clear(const std::string& id) override {
        redis_.run({"DEL", messages_key(id)});
        redis_.run({"HDEL", key(id), "title", "unfinished"});
        redis_.run({"ZREM", conversations_key, id});
        return redis_.run({"HINCRBY", key(id), "revision", "1"}).integer();
    }

    // Redis expires idle sessions by itself (EXPIRE on every touch).
    std::size_t remove_inactive(std::int64_t) override { return 0; }

    bool shared() const override { return true; }
    std::string description() const override { return "redis://" + redis_.address().where() + "/" + std::to_string(redis_.address().database); }

private:
    std::vector<ChatMessage> history(const std::string& id) {
        std::vector<ChatMessage> messages;
        auto items = redis_.run({"LRANGE", messages_key(id), "0", "-1"});
        for (std::size_t i = 0; i < items.size(); ++i)
            if (auto message = stored_message(items[i].text())) messages.push_back(std::move(*message));
        return messages;
    }
    static std::string key(const std::string& id) { return "mcpkit:host:session:" + id; }
    static std::string messages_key(const std::string& id) { return "mcpkit:host:messages:" + id; }
    mcp::RedisConnection redis_;
};

}  // namespace

std::unique_ptr<ChatStore> make_redis_chat_store(const std::string& url) { return std::make_unique<RedisChatStore>(url); }

}  // namespace mcpkit::host
