// SessionStore on Redis, so several server instances serve the same sessions.
//
// Keys (all under "mcpkit:"):
//   sessions               sorted set: session id -> expiry (ms, Redis clock); counts sessions for the limit
//   s:<id>:setup           list of setup messages
//   s:<id>:idle            the session's idle timeout in ms; its presence is the session's existence
//   s:<id>:events          list of "<stream> <sequence> <data>", trimmed to the newest N
//   s:<id>:streams         hash: stream id -> "<owner>\n<request>" while the stream is being written
//   instance:<id>          present while that instance sends heartbeats
// Every session key expires after the idle timeout, so a session nobody touches disappears even if
// every instance died. Each operation that reads and writes is one Lua script, hence atomic: two
// instances racing for the last session slot cannot both win.

#include "mcp/store/RedisStores.hpp"

#include "mcp/store/RedisConnection.hpp"

#include <charconv>

namespace mcp {
namespace {

constexpr std::string_view create_script = R"lua(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[4])
return 1)lua";

constexpr std::string_view touch_script = R"lua(
local idle = redis.call('GET', KEYS[3])
if not idle then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(idle), ARGV[1])
for i = 2, 5 do redis.call('PEXPIRE', KEYS[i], idle) end
return redis.call('LLEN', KEYS[2]))lua";

constexpr std::string_view append_setup_script = R"lua(
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
return redis.call('RPUSH', KEYS[1], ARGV[1]))lua";

constexpr std::string_view remove_script = R"lua(
local existed = redis.call('EXISTS', KEYS[3])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return existed)lua";

constexpr std::string_view count_script = R"lua(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1]))lua";

constexpr std::string_view append_event_script = R"lua(
local idle = redis.call('GET', KEYS[2])
if not idle then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], idle)
return 1)lua";

constexpr std::string_view open_stream_script = R"lua(
local idle = redis.call('GET', KEYS[2])
if not idle then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], idle)
return 1)lua";

constexpr std::string_view adopt_stream_script = R"lua(
local record = redis.call('HGET', KEYS[1], ARGV[1])
if not record then return 0 end
local previous = ARGV[2] .. '\n'
if string.sub(record, 1, #previous) ~= previous then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3] .. '\n' .. string.sub(record, #previous + 1))
return 1)lua";

class RedisSessionStore final : public SessionStore {
public:
    RedisSessionStore(RedisAddress address, std::chrono::milliseconds timeout) : redis_(connect(std::move(address), timeout)) {}

    bool create(const std::string& session, std::string_view initialize_message, std::size_t max_sessions,
                std::chrono::seconds idle_timeout) override {
        auto idle = std::to_string(std::chrono::milliseconds(idle_timeout).count());
        auto max = std::to_string(max_sessions);
        return integer(run({"EVAL", create_script, "3", sessions_key_, key(session, "setup"), key(session, "idle"),
                            session, initialize_message, max, idle})) == 1;
    }

    std::optional<std::vector<std::string>> load(const std::string& session) override {
        auto reply = run({"LRANGE", key(session, "setup"), "0", "-1"});
        if (reply.size() == 0) return std::nullopt;
        std::vector<std::string> setup;
        setup.reserve(reply.size());
        for (std::size_t i = 0; i < reply.size(); ++i) setup.emplace_back(reply[i].text());
        return setup;
    }

    std::size_t append_setup(const std::string& session, std::string_view message) override {
        return integer(run({"EVAL", append_setup_script, "2", key(session, "setup"), key(session, "idle"), message}));
    }

    std::size_t touch(const std::string& session) override {
        return integer(run({"EVAL", touch_script, "5", sessions_key_, key(session, "setup"), key(session, "idle"),
                            key(session, "events"), key(session, "streams"), session}));
    }

    bool remove(const std::string& session) override {
        return integer(run({"EVAL", remove_script, "5", sessions_key_, key(session, "setup"), key(session, "idle"),
                            key(session, "events"), key(session, "streams"), session})) == 1;
    }

    std::size_t count() override { return integer(run({"EVAL", count_script, "1", sessions_key_})); }

    void append_event(const std::string& session, const std::string& stream, std::uint64_t sequence,
                      std::string_view data, std::size_t max_events) override {
        std::string entry;
        entry.reserve(stream.size() + data.size() + 24);
        entry.append(stream).append(" ").append(std::to_string(sequence)).append(" ").append(data);
        run({"EVAL", append_event_script, "2", key(session, "events"), key(session, "idle"), entry,
             std::to_string(max_events)});
    }

    std::vector<StoredEvent> events_after(const std::string& session, const std::string& stream,
                                          std::uint64_t after_sequence) override {
        auto reply = run({"LRANGE", key(session, "events"), "0", "-1"});
        std::vector<StoredEvent> found;
        for (std::size_t i = 0; i < reply.size(); ++i) {
            std::string_view entry = reply[i].text();
            auto first = entry.find(' ');
            auto second = first == std::string_view::npos ? first : entry.find(' ', first + 1);
            if (second == std::string_view::npos || entry.substr(0, first) != stream) continue;
            std::uint64_t sequence = 0;
            auto digits = entry.substr(first + 1, second - first - 1);
            if (std::from_chars(digits.data(), digits.data() + digits.size(), sequence).ec != std::errc()) continue;
            if (sequence > after_sequence) found.push_back(StoredEvent{sequence, std::string(entry.substr(second + 1))});
        }
        return found;
    }

    void open_stream(const std::string& session, const std::string& stream, const std::string& owner,
                     std::string_view request) override {
        std::string record;
        record.reserve(owner.size() + 1 + request.size());
        record.append(owner).append("\n").append(request);
        run({"EVAL", open_stream_script, "2", key(session, "streams"), key(session, "idle"), stream, record});
    }

    void finish_stream(const std::string& session, const std::string& stream) override {
        run({"HDEL", key(session, "streams"), stream});
    }

    std::optional<StreamRecord> find_stream(const std::string& session, const std::string& stream) override {
        auto reply = run({"HGET", key(session, "streams"), stream});
        if (!reply.is_string()) return std::nullopt;
        std::string_view record = reply.text();
        auto newline = record.find('\n');
        if (newline == std::string_view::npos) return std::nullopt;
        return StreamRecord{std::string(record.substr(0, newline)), std::string(record.substr(newline + 1))};
    }

    bool adopt_stream(const std::string& session, const std::string& stream, const std::string& previous_owner,
                      const std::string& new_owner) override {
        return integer(run({"EVAL", adopt_stream_script, "1", key(session, "streams"), stream, previous_owner,
                            new_owner})) == 1;
    }

    void heartbeat(const std::string& instance, std::chrono::milliseconds ttl) override {
        run({"SET", "mcpkit:instance:" + instance, "1", "PX", std::to_string(ttl.count())});
    }

    bool alive(const std::string& instance) override {
        return integer(run({"EXISTS", "mcpkit:instance:" + instance})) == 1;
    }

private:
    static std::string key(const std::string& session, std::string_view part) {
        std::string name = "mcpkit:s:";
        name.append(session).append(":").append(part);
        return name;
    }

    static std::size_t integer(const RedisReply& reply) {
        return reply.integer() > 0 ? static_cast<std::size_t>(reply.integer()) : 0;
    }

    static std::unique_ptr<RedisConnection> connect(RedisAddress address, std::chrono::milliseconds timeout) {
        try {
            return std::make_unique<RedisConnection>(std::move(address), timeout);
        } catch (const RedisError& error) {
            throw SessionStoreError(error.what());
        }
    }

    RedisReply run(std::initializer_list<std::string_view> arguments) {
        try {
            return redis_->run(arguments);
        } catch (const RedisError& error) {
            throw SessionStoreError(error.what());
        }
    }

    const std::string sessions_key_ = "mcpkit:sessions";
    std::unique_ptr<RedisConnection> redis_;
};

}  // namespace

std::shared_ptr<SessionStore> make_redis_session_store(const std::string& url, std::chrono::milliseconds timeout) {
    try {
        return std::make_shared<RedisSessionStore>(parse_redis_url(url), timeout);
    } catch (const std::invalid_argument& error) {
        throw SessionStoreError(error.what());
    }
}

}  // namespace mcp
