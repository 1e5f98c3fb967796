#pragma once
// configure's modes that keep state of their own: noise rules, saved action sequences (replayed
// through interact), session snapshots to compare, and the audit log of tool calls.

#include "devconsole/DevConsole.hpp"

#include "mcp/protocol/Tool.hpp"
#include "mcp/server/RequestContext.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <map>
#include <mutex>

namespace mcpkit::devconsole {

mcp::CallToolResult noise_rule(DevConsole& console, std::string_view what, const boost::json::object& arguments);

/// Named interact sequences (save_sequence, get_sequence, list_sequences, delete_sequence).
class SequenceStore {
public:
    mcp::CallToolResult handle(std::string_view what, const boost::json::object& arguments);
    std::optional<boost::json::object> find(const std::string& name) const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, boost::json::object> sequences_;
};
/// replay_sequence: each step through interact, in order; stops at the first failure unless
/// continue_on_error (the default), or after stop_after_step.
boost::asio::awaitable<mcp::CallToolResult> replay_sequence(DevConsole& console, const SequenceStore& sequences,
                                                            mcp::ToolCall& call, std::string what,
                                                            boost::json::object arguments);

/// diff_sessions: verif_session_action capture (name), compare (compare_a, compare_b), list, delete.
class SessionSnapshots {
public:
    mcp::CallToolResult handle(DevConsole& console, std::string_view what, const boost::json::object& arguments);

private:
    boost::json::object capture(DevConsole& console, const std::string& url_filter) const;
    mutable std::mutex mutex_;
    std::map<std::string, boost::json::object> snapshots_;
};


}  // namespace mcpkit::devconsole
