#pragma once
// One connection to Redis, shared by every store that keeps state there (the Streamable HTTP
// session store, analyze's sessions): URL parsing, AUTH, database selection, timeouts, and one
// reconnect when the connection broke. Commands are whole argument lists (binary-safe, no format
// strings); one command runs at a time, from any thread.
//
//   mcp::RedisConnection redis(mcp::parse_redis_url("redis://127.0.0.1:6379/0"));
//   auto reply = redis.run({"GET", "mcpkit:key"});
//   if (reply.is_string()) use(reply.text());

#include "mcp/Export.hpp"

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

struct redisReply;
struct redisContext;

namespace mcp {

/// Where Redis is and how to log in, as parse_redis_url reads it from a redis:// URL.
struct MCP_API RedisAddress {
    std::string host = "127.0.0.1";  ///< A host name or an IP address (an IPv6 one without brackets).
    std::uint16_t port = 6379;  ///< The TCP port.
    std::string username;  ///< empty: AUTH with the password alone (Redis before 6, or the default user)
    std::string password;  ///< For AUTH; empty: no AUTH.
    int database = 0;  ///< The database number chosen with SELECT.
    /// "HOST:PORT", for messages (never the password).
    std::string where() const;
};

/// Parses redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]. Throws std::invalid_argument saying what is
/// wrong and showing that form.
MCP_API RedisAddress parse_redis_url(std::string_view url);

/// Redis could not be reached, the connection broke twice, or Redis refused a command.
struct MCP_API RedisError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A reply, or one element of an array reply; keeps the whole reply alive. Reading costs no copy.
class MCP_API RedisReply {
public:
    /// Whether the reply is nil (a missing key).
    bool is_nil() const;
    bool is_string() const;  ///< a bulk string, or a status such as OK
    /// Whether the reply is an integer.
    bool is_integer() const;
    /// Whether the reply is an array; its elements are read with operator[].
    bool is_array() const;
    /// The bytes of a string or status reply; empty for other kinds. Valid while any RedisReply of
    /// the same reply lives.
    std::string_view text() const;
    long long integer() const;  ///< 0 unless is_integer()
    std::size_t size() const;   ///< elements of an array, else 0
    /// Element `index` of an array reply; throws std::out_of_range past size().
    RedisReply operator[](std::size_t index) const;

private:
    friend class RedisConnection;
    RedisReply(std::shared_ptr<redisReply> root, const redisReply* node) : root_(std::move(root)), node_(node) {}
    std::shared_ptr<redisReply> root_;
    const redisReply* node_;
};

/// One connection to Redis, shared by the stores that keep state there. Thread-safe: one command runs
/// at a time, from any thread; a broken connection is reopened once per command.
class MCP_API RedisConnection {
public:
    /// Connects at once, so a wrong address fails at startup. Throws RedisError naming the address.
    explicit RedisConnection(RedisAddress address, std::chrono::milliseconds timeout = std::chrono::seconds(2));
    /// Closes the connection.
    ~RedisConnection();
    RedisConnection(const RedisConnection&) = delete;
    RedisConnection& operator=(const RedisConnection&) = delete;

    /// Runs one command; reconnects and tries once more if the connection had broken. Throws
    /// RedisError when Redis answers with an error or cannot be reached.
    RedisReply run(std::initializer_list<std::string_view> arguments);
    /// The address connected to.
    const RedisAddress& address() const { return address_; }

private:
    void connect();
    RedisReply command(std::initializer_list<std::string_view> arguments);

    RedisAddress address_;
    std::chrono::milliseconds timeout_;
    std::mutex mutex_;
    redisContext* context_ = nullptr;
};

}  // namespace mcp
