#pragma once
// The protocol revisions libmcp speaks and what differs between them.

#include <array>
#include <string_view>

namespace mcp::versions {

/// MCP's first published revision, the oldest libmcp speaks.
inline constexpr std::string_view v2024_11_05 = "2024-11-05";
/// Added Streamable HTTP, OAuth authorization, tool annotations and JSON-RPC batches.
inline constexpr std::string_view v2025_03_26 = "2025-03-26";
/// Added elicitation and structured tool output, and removed batches.
inline constexpr std::string_view v2025_06_18 = "2025-06-18";
/// The newest revision negotiated with initialize (latest_stateful).
inline constexpr std::string_view v2025_11_25 = "2025-11-25";
/// The first revision without initialize: each request carries its own metadata.
inline constexpr std::string_view v2026_07_28 = "2026-07-28";

/// Revisions negotiated with initialize, newest first.
inline constexpr std::array<std::string_view, 4> stateful = {v2025_11_25, v2025_06_18, v2025_03_26, v2024_11_05};
/// Revisions without initialize, where every request carries its own metadata.
inline constexpr std::array<std::string_view, 1> stateless = {v2026_07_28};

/// The newest revision negotiated with initialize.
inline constexpr std::string_view latest_stateful = v2025_11_25;
/// The newest revision libmcp speaks.
inline constexpr std::string_view latest = v2026_07_28;

/// True for a revision negotiated with initialize (2025-11-25 and older).
inline bool is_stateful(std::string_view version) {
    for (auto v : stateful)
        if (v == version) return true;
    return false;
}
/// True for a revision without initialize, where each request carries its own metadata.
inline bool is_stateless(std::string_view version) { return version == v2026_07_28; }
/// True for any revision libmcp speaks.
inline bool is_supported(std::string_view version) { return is_stateful(version) || is_stateless(version); }

/// JSON-RPC batches exist only in 2025-03-26 (added there, removed in 2025-06-18).
inline bool allows_batches(std::string_view version) { return version == v2025_03_26; }
/// Elicitation arrived in 2025-06-18; structured tool output too.
inline bool has_elicitation(std::string_view version) { return version >= v2025_06_18 && is_stateful(version); }

}  // namespace mcp::versions
