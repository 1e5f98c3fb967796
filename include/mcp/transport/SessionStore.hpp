#pragma once
// Where a Streamable HTTP server keeps what must outlive one process: which sessions exist, how
// each was set up, and the SSE events a client may ask to have replayed. Several server
// instances that share a store (Redis) serve the same sessions: a client that initialized on one
// carries on through another, and resumes a stream there with Last-Event-ID.
//
// A session's setup is the list of messages that shaped its state (initialize, then
// logging/setLevel, resources/subscribe, …), as JSON text. An instance that meets a session it
// does not hold replays them into a fresh one. Events belong to a stream; a stream's id is unique
// across instances, and its events are numbered from 1 by the one instance that writes them.
//
// Calls come from the server's thread and may block briefly (a store on the network).

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

struct StoredEvent {
    std::uint64_t sequence = 0;
    std::string data;
};

class SessionStore {
public:
    virtual ~SessionStore() = default;

    /// Records a new session set up by `initialize_message`. Returns false, recording nothing,
    /// when `max_sessions` already exist.
    virtual bool create(const std::string& session, std::string_view initialize_message, std::size_t max_sessions,
                        std::chrono::seconds idle_timeout) = 0;
    /// The session's setup messages, oldest first; nothing if it does not exist (or expired).
    virtual std::optional<std::vector<std::string>> load(const std::string& session) = 0;
    /// Adds a message to the session's setup.
    virtual void append_setup(const std::string& session, std::string_view message) = 0;
    /// Pushes the session's expiry back by its idle timeout. Returns false if it no longer exists.
    virtual bool touch(const std::string& session) = 0;
    /// Ends a session and drops its events. Returns false if it did not exist.
    virtual bool remove(const std::string& session) = 0;
    virtual std::size_t count() = 0;

    /// Appends event `sequence` of `stream`. Keeps at most `max_events` per session (oldest go first).
    virtual void append_event(const std::string& session, const std::string& stream, std::uint64_t sequence,
                              std::string_view data, std::size_t max_events) = 0;
    /// The events of `stream` after `after_sequence`, oldest first.
    virtual std::vector<StoredEvent> events_after(const std::string& session, const std::string& stream,
                                                  std::uint64_t after_sequence) = 0;
};

/// Everything in this process's memory; sessions do not survive it.
std::shared_ptr<SessionStore> make_memory_session_store();

}  // namespace mcp
