#pragma once
// Every MCP method and notification name, in one place.

namespace mcp::methods {

inline constexpr const char* initialize = "initialize";
inline constexpr const char* ping = "ping";
inline constexpr const char* server_discover = "server/discover";
inline constexpr const char* tools_list = "tools/list";
inline constexpr const char* tools_call = "tools/call";
inline constexpr const char* resources_list = "resources/list";
inline constexpr const char* resources_templates_list = "resources/templates/list";
inline constexpr const char* resources_read = "resources/read";
inline constexpr const char* resources_subscribe = "resources/subscribe";
inline constexpr const char* resources_unsubscribe = "resources/unsubscribe";
inline constexpr const char* prompts_list = "prompts/list";
inline constexpr const char* prompts_get = "prompts/get";
inline constexpr const char* completion_complete = "completion/complete";
inline constexpr const char* logging_set_level = "logging/setLevel";
inline constexpr const char* subscriptions_listen = "subscriptions/listen";
// Server to client.
inline constexpr const char* sampling_create_message = "sampling/createMessage";
inline constexpr const char* elicitation_create = "elicitation/create";
inline constexpr const char* roots_list = "roots/list";

}  // namespace mcp::methods

namespace mcp::notifications {

inline constexpr const char* initialized = "notifications/initialized";
inline constexpr const char* cancelled = "notifications/cancelled";
inline constexpr const char* progress = "notifications/progress";
inline constexpr const char* message = "notifications/message";
inline constexpr const char* tools_list_changed = "notifications/tools/list_changed";
inline constexpr const char* resources_list_changed = "notifications/resources/list_changed";
inline constexpr const char* resources_updated = "notifications/resources/updated";
inline constexpr const char* prompts_list_changed = "notifications/prompts/list_changed";
inline constexpr const char* roots_list_changed = "notifications/roots/list_changed";
inline constexpr const char* elicitation_complete = "notifications/elicitation/complete";
inline constexpr const char* subscriptions_acknowledged = "notifications/subscriptions/acknowledged";

}  // namespace mcp::notifications

namespace mcp::meta_keys {

// 2026-07-28 per-request metadata.
inline constexpr const char* protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* client_capabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char* client_info = "io.modelcontextprotocol/clientInfo";
inline constexpr const char* log_level = "io.modelcontextprotocol/logLevel";
inline constexpr const char* server_info = "io.modelcontextprotocol/serverInfo";
inline constexpr const char* subscription_id = "io.modelcontextprotocol/subscriptionId";

}  // namespace mcp::meta_keys
