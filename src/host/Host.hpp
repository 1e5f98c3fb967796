#pragma once
// `mcpkit host`: the pieces of seed 004 wired on one I/O thread — the web server (page, /ws,
// /health), the page protocol, the conversation orchestrator with its LLM, the MCP coordinator
// and the session store — plus its life: reload of mcp.json on change or SIGHUP, cleanup of idle
// sessions, a graceful stop on SIGINT/SIGTERM.

#include "host/HostLog.hpp"
#include "host/chat/Conversation.hpp"
#include "host/llm/LanguageModel.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcpkit::host {

struct HostOptions {
    /// mcp.json; empty: no servers (the page still chats).
    std::string config_path;
    std::string http_host = "127.0.0.1";
    std::uint16_t http_port = 3000;
    std::string token;
    std::vector<std::string> allowed_hosts;
    /// Pings every this often; a page silent for twice as long is dropped.
    std::chrono::seconds heartbeat{30};
    /// "sqlite:PATH", "redis://…" or "memory".
    std::string store = "sqlite:mcpkit-host.db";
    /// Folders offered to servers as roots.
    std::vector<std::string> roots;
    std::optional<ModelSettings> model;
    ConversationSettings conversation;
    bool log_json = false;
    LogLevel log_level = LogLevel::info;
    /// Sessions without a page leave memory after this; the store forgets them after `store_idle`.
    std::chrono::minutes memory_idle{30};
    std::chrono::hours store_idle{24 * 30};
    /// How often mcp.json's modification time is checked.
    std::chrono::milliseconds config_poll{2000};
};

/// Runs until SIGINT/SIGTERM; prints the page's address on stdout once listening. Returns the
/// exit code (2 for a bad configuration).
int run_host(HostOptions options);

}  // namespace mcpkit::host
