#pragma once
// Analysis sessions: what an assistant did before, so later calls can build on it. A session
// holds a bounded history of calls with their results; it expires after its TTL without use.
// Stores: memory (the default), SQLite (survives restarts), Redis (shared by several servers).

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcpkit::analyze {

struct CallRecord {
    std::string result_id;      ///< "<session>/<n>": what relatedResults point at
    std::string tool;
    std::string state;          ///< the call's final state: succeeded, failed or cancelled
    std::string subject;        ///< the path or project the call was about, if any
    boost::json::value parameters;
    boost::json::value result;  ///< the envelope's data (null when too large to keep; see summary)
    std::string summary;        ///< one line, always kept
    std::string error;
    std::int64_t timestamp_ms = 0;  ///< when the call ended, Unix time
    double execution_ms = 0;
};

struct Session {
    std::string id;
    /// Who made it: "" for the server's one user (stdio, or anyone with the HTTP bearer secret),
    /// else the OAuth issuer and subject of the token that created it. Only its owner sees it.
    std::string owner;
    std::int64_t created_ms = 0;
    std::int64_t last_used_ms = 0;
    std::int64_t ttl_seconds = 3600;
    std::int64_t calls = 0;            ///< ever made; the history keeps the last `max_history`
    std::vector<CallRecord> history;

    bool expired(std::int64_t now_ms) const { return now_ms - last_used_ms > ttl_seconds * 1000; }
};

boost::json::object to_json(const CallRecord& record, bool with_result);
CallRecord call_record_from_json(const boost::json::object& json);
boost::json::object to_json(const Session& session);
Session session_from_json(const boost::json::object& json);

std::int64_t now_milliseconds();

class SessionStore {
public:
    virtual ~SessionStore() = default;
    /// A session that exists and has not expired; touching it is the caller's business (save).
    virtual std::optional<Session> load(const std::string& id) = 0;
    virtual void save(const Session& session) = 0;
    virtual bool remove(const std::string& id) = 0;
    /// Live sessions, without their history.
    virtual std::vector<Session> list() = 0;
    /// Drops expired sessions; returns how many. (Redis expires keys itself.)
    virtual std::size_t evict_expired() = 0;
    virtual std::string description() const = 0;
};

/// "memory", "sqlite:PATH" or "redis://[:PASSWORD@]HOST[:PORT][/DB]". Throws std::invalid_argument
/// that names the accepted forms, or std::runtime_error when the store cannot be reached.
std::unique_ptr<SessionStore> make_session_store(const std::string& specification);

std::unique_ptr<SessionStore> make_memory_session_store();
std::unique_ptr<SessionStore> make_sqlite_session_store(const std::string& path);
std::unique_ptr<SessionStore> make_redis_session_store(const std::string& url);

}  // namespace mcpkit::analyze
