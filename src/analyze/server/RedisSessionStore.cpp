// Sessions in Redis, shared by every analyze server pointed at it. Each session is one key,
// `mcpkit:analyze:session:<id>`, holding its JSON; Redis expires it after the TTL (refreshed on
// every save), so a server that dies leaks nothing. The connection is libmcp's RedisConnection:
// the same URL rules, AUTH, database, timeouts and reconnect as the Streamable HTTP store.

#include "analyze/server/SessionStore.hpp"

#include <mcp/store/RedisConnection.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace mcpkit::analyze {

namespace {

constexpr std::string_view key_prefix = "mcpkit:analyze:session:";

class RedisSessionStore final : public SessionStore {
public:
    explicit RedisSessionStore(const std::string& url) : redis_(mcp::parse_redis_url(url)) {}

    std::optional<Session> load(const std::string& id) override {
        auto reply = redis_.run({"GET", std::string(key_prefix) + id});
        if (!reply.is_string()) return std::nullopt;
        Session session = session_from_json(boost::json::parse(reply.text()).as_object());
        if (session.expired(now_milliseconds())) return std::nullopt;
        return session;
    }
    void save(const Session& session) override {
        std::string value = boost::json::serialize(to_json(session));
        redis_.run({"SET", std::string(key_prefix) + session.id, value, "EX",
                    std::to_string(std::max<std::int64_t>(1, session.ttl_seconds))});
    }
    bool remove(const std::string& id) override { return redis_.run({"DEL", std::string(key_prefix) + id}).integer() > 0; }
    std::vector<Session> list() override {
        std::vector<Session> sessions;
        std::string cursor = "0";
        std::string pattern = std::string(key_prefix) + "*";
        do {
            auto reply = redis_.run({"SCAN", cursor, "MATCH", pattern, "COUNT", "200"});
            if (reply.size() != 2) break;
            cursor = std::string(reply[0].text());
            auto keys = reply[1];
            for (std::size_t i = 0; i < keys.size(); ++i) {
                std::string_view key = keys[i].text();
                if (auto session = load(std::string(key.substr(key_prefix.size())))) {
                    session->history.clear();
                    sessions.push_back(std::move(*session));
                }
            }
        } while (cursor != "0");
        std::sort(sessions.begin(), sessions.end(), [](const Session& a, const Session& b) { return a.id < b.id; });
        return sessions;
    }
    std::size_t evict_expired() override { return 0; }  // Redis expires keys itself
    // Never the URL itself: it may carry the password, and this text reaches tool answers.
    std::string description() const override {
        return "redis://" + redis_.address().where() + "/" + std::to_string(redis_.address().database);
    }

private:
    mcp::RedisConnection redis_;
};

}  // namespace

std::unique_ptr<SessionStore> make_redis_session_store(const std::string& url) {
    return std::make_unique<RedisSessionStore>(url);
}

}  // namespace mcpkit::analyze
