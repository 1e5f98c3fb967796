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
// Calls come from the server's thread and may block briefly (a store on the network); they throw
// SessionStoreError when the store cannot be reached.

#include "mcp/Export.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// One SSE event kept for replay.
struct MCP_API StoredEvent {
    std::uint64_t sequence = 0;  ///< Its number within its stream, from 1.
    std::string data;  ///< The event's data, as it was sent.
};

/// Who writes a stream, and what it answers. An instance that resumes a stream it does not hold
/// follows it while its writer lives, and takes it over (running `request` again) once it is gone.
struct MCP_API StreamRecord {
    std::string owner;    ///< instance id of the writer
    std::string request;  ///< the POST body the stream answers; empty for a GET stream
};

/// A store that cannot be reached. The server answers 503 and carries on.
class MCP_API SessionStoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Where a Streamable HTTP server keeps what must outlive one process: the sessions, their setup
/// messages and the SSE events a client may ask to have replayed. Instances that share a store
/// serve the same sessions. Calls may block briefly and throw SessionStoreError.
class MCP_API SessionStore {
public:
    virtual ~SessionStore() = default;

    /// Records a new session set up by `initialize_message`. Returns false, recording nothing,
    /// when `max_sessions` already exist (across every instance that shares the store).
    virtual bool create(const std::string& session, std::string_view initialize_message, std::size_t max_sessions,
                        std::chrono::seconds idle_timeout) = 0;
    /// The session's setup messages, oldest first; nothing if it does not exist (or expired).
    virtual std::optional<std::vector<std::string>> load(const std::string& session) = 0;
    /// Adds a message to the session's setup. Returns how many it now has (0: the session is gone).
    virtual std::size_t append_setup(const std::string& session, std::string_view message) = 0;
    /// Pushes the session's expiry back by its idle timeout. Returns how many setup messages it has,
    /// so an instance holding a copy can replay the ones another instance added; 0 if it is gone.
    virtual std::size_t touch(const std::string& session) = 0;
    /// Ends a session and drops its events. Returns false if it did not exist.
    virtual bool remove(const std::string& session) = 0;
    /// How many sessions exist (across every instance that shares the store), expired ones not counted.
    virtual std::size_t count() = 0;

    /// Appends event `sequence` of `stream`. Keeps at most `max_events` per session (oldest go
    /// first); the memory store also keeps at most 64 MiB of their data per session.
    virtual void append_event(const std::string& session, const std::string& stream, std::uint64_t sequence,
                              std::string_view data, std::size_t max_events) = 0;
    /// The events of `stream` after `after_sequence`, oldest first.
    virtual std::vector<StoredEvent> events_after(const std::string& session, const std::string& stream,
                                                  std::uint64_t after_sequence) = 0;

    /// Records that `owner` writes `stream`, answering `request` (empty for a GET stream).
    virtual void open_stream(const std::string& session, const std::string& stream, const std::string& owner,
                             std::string_view request) = 0;
    /// Records that `stream` carried its last event: its record goes (its events stay for replay).
    virtual void finish_stream(const std::string& session, const std::string& stream) = 0;
    /// The record of a stream still being written; nothing once it finished (or never existed).
    virtual std::optional<StreamRecord> find_stream(const std::string& session, const std::string& stream) = 0;
    /// Makes `new_owner` the writer of a stream still owned by `previous_owner`. False if another
    /// instance took it first (or the stream is gone).
    virtual bool adopt_stream(const std::string& session, const std::string& stream,
                              const std::string& previous_owner, const std::string& new_owner) = 0;

    /// Declares `instance` alive for `ttl`; instances repeat it well within that time.
    virtual void heartbeat(const std::string& instance, std::chrono::milliseconds ttl) = 0;
    /// Whether `instance` sent a heartbeat whose ttl has not yet run out.
    virtual bool alive(const std::string& instance) = 0;
};

/// Everything in this process's memory; sessions do not survive it.
MCP_API std::shared_ptr<SessionStore> make_memory_session_store();

}  // namespace mcp
