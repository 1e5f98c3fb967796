#pragma once
// The parts the everything server is assembled from, and what several of them share: the test
// media, the sampling request shape, the checks on what a client answers to an input request,
// and the requestState helpers.
//
// Texts, names and data follow the conformance suite's reference fixture
// (examples/servers/typescript/everything-server.ts) because the checks compare them.

#include "mcp/server/Server.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcpkit::everything {

/// A 1×1 red PNG and a minimal WAV, byte for byte what the checks expect.
inline constexpr std::string_view test_image_base64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
inline constexpr std::string_view test_audio_base64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

inline constexpr std::string_view watched_resource_uri = "test://watched-resource";

// Registration, one call per file.
void register_content_tools(mcp::Server& server);
void register_client_request_tools(mcp::Server& server);
void register_input_required_tools(mcp::Server& server);
void register_task_tools(mcp::Server& server);
void register_resources(mcp::Server& server);
void register_prompts(mcp::Server& server);
/// The features that appear after start-up, the resource that keeps changing, and the tools that
/// fire list_changed on demand. `timers` must be the server's I/O executor: registering while
/// serving is only allowed there.
void register_dynamic_features(mcp::Server& server, boost::asio::any_io_executor timers);

/// {"type":"object","properties":{}}: how the fixture lists a tool without arguments.
boost::json::object no_arguments();

/// sampling/createMessage params: one user text message and a token limit.
boost::json::object sampling_request(std::string_view prompt, int max_tokens);

/// A well-formed ElicitResult. An unusable one is treated as no answer, so the question is asked
/// again instead of finishing with made-up input.
struct Elicitation {
    std::string action;           ///< "accept", "decline" or "cancel"
    boost::json::object content;  ///< the filled form; empty unless accepted

    bool accepted() const { return action == "accept"; }
    /// The string the user gave for `field`, or "unknown" when they gave none (the fixture's rule,
    /// which is what a declined form reads as).
    std::string text(std::string_view field) const;
};
/// Reads an answer to elicitation/create. Nothing when it is not an ElicitResult, or when an
/// accepted form lacks a required field or has a field of the wrong type or value.
std::optional<Elicitation> read_elicitation(const boost::json::value& answer,
                                            const boost::json::object& requested_schema);

/// A well-formed CreateMessageResult; `text` is its first text block, if any.
struct Sampling {
    std::optional<std::string> text;
};
std::optional<Sampling> read_sampling(const boost::json::value& answer);

/// How many roots a well-formed ListRootsResult names.
std::optional<std::size_t> count_roots(const boost::json::value& answer);

/// JSON text as JavaScript's JSON.stringify writes it (95.5, not Boost's 9.55E1), for result texts
/// that quote client data the way the fixture does.
std::string json_text(const boost::json::value& value);

/// requestState that a client cannot alter unnoticed: {"data": <payload JSON>, "hmac": <hex
/// HMAC-SHA256 of data>}, the fixture's format, keyed by a secret made at process start.
class StateSigner {
public:
    StateSigner();
    std::string seal(const boost::json::object& payload) const;
    /// The payload, or nothing when the state is malformed or its HMAC does not match.
    std::optional<boost::json::object> open(std::string_view state) const;

private:
    std::string hmac_hex(std::string_view data) const;
    std::string secret_;
};

/// A plain (unsigned) JSON object state, or nothing when there is none or it is not an object.
std::optional<boost::json::object> parse_plain_state(const std::optional<std::string>& state);

}  // namespace mcpkit::everything
