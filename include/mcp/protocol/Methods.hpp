#pragma once
// Every MCP method and notification name, in one place.

namespace mcp::methods {

/// Opens a session and negotiates the revision (2025-11-25 and older).
inline constexpr const char* initialize = "initialize";
/// Checks that the peer still answers; either side may send it (2025-11-25 and older).
inline constexpr const char* ping = "ping";
/// Asks for the server's info and capabilities without a session (2026-07-28).
inline constexpr const char* server_discover = "server/discover";
/// Lists the tools, a page at a time.
inline constexpr const char* tools_list = "tools/list";
/// Calls a tool with arguments.
inline constexpr const char* tools_call = "tools/call";
/// Lists the resources, a page at a time.
inline constexpr const char* resources_list = "resources/list";
/// Lists the resource templates, a page at a time.
inline constexpr const char* resources_templates_list = "resources/templates/list";
/// Reads the contents of a resource by URI.
inline constexpr const char* resources_read = "resources/read";
/// Asks to be told when a resource changes (2025-11-25 and older).
inline constexpr const char* resources_subscribe = "resources/subscribe";
/// Ends a resources/subscribe (2025-11-25 and older).
inline constexpr const char* resources_unsubscribe = "resources/unsubscribe";
/// Lists the prompts, a page at a time.
inline constexpr const char* prompts_list = "prompts/list";
/// Gets a prompt's messages for the given arguments.
inline constexpr const char* prompts_get = "prompts/get";
/// Asks for completions of a prompt argument or a template variable.
inline constexpr const char* completion_complete = "completion/complete";
/// Sets the least severe log level the server sends (2025-11-25 and older).
inline constexpr const char* logging_set_level = "logging/setLevel";
/// Opens a stream of the server's change notifications (2026-07-28).
inline constexpr const char* subscriptions_listen = "subscriptions/listen";
// Server to client.
/// Asks the client's model for a completion.
inline constexpr const char* sampling_create_message = "sampling/createMessage";
/// Asks the user, through the client, for input or to visit a URL.
inline constexpr const char* elicitation_create = "elicitation/create";
/// Asks for the client's roots (the directories it exposes).
inline constexpr const char* roots_list = "roots/list";

}  // namespace mcp::methods

namespace mcp::notifications {

/// From the client, once the initialize result has arrived.
inline constexpr const char* initialized = "notifications/initialized";
/// Either side: cancels a request it sent.
inline constexpr const char* cancelled = "notifications/cancelled";
/// Progress of a request that asked for it with a progress token.
inline constexpr const char* progress = "notifications/progress";
/// A log message from the server.
inline constexpr const char* message = "notifications/message";
/// The server's tools changed.
inline constexpr const char* tools_list_changed = "notifications/tools/list_changed";
/// The server's resources changed.
inline constexpr const char* resources_list_changed = "notifications/resources/list_changed";
/// A resource the client subscribed to changed.
inline constexpr const char* resources_updated = "notifications/resources/updated";
/// The server's prompts changed.
inline constexpr const char* prompts_list_changed = "notifications/prompts/list_changed";
/// The client's roots changed.
inline constexpr const char* roots_list_changed = "notifications/roots/list_changed";
/// A URL-mode elicitation the user was sent to has finished.
inline constexpr const char* elicitation_complete = "notifications/elicitation/complete";
/// First on a subscriptions/listen stream: the notifications the server will send on it.
inline constexpr const char* subscriptions_acknowledged = "notifications/subscriptions/acknowledged";

}  // namespace mcp::notifications

namespace mcp::meta_keys {

// 2026-07-28 per-request metadata.
/// The revision the request is made in.
inline constexpr const char* protocol_version = "io.modelcontextprotocol/protocolVersion";
/// The client's capabilities.
inline constexpr const char* client_capabilities = "io.modelcontextprotocol/clientCapabilities";
/// The client's name and version.
inline constexpr const char* client_info = "io.modelcontextprotocol/clientInfo";
/// The least severe log level the client wants for this request.
inline constexpr const char* log_level = "io.modelcontextprotocol/logLevel";
/// In results: the server's name and version.
inline constexpr const char* server_info = "io.modelcontextprotocol/serverInfo";
/// The subscriptions/listen request a notification belongs to.
inline constexpr const char* subscription_id = "io.modelcontextprotocol/subscriptionId";

}  // namespace mcp::meta_keys
