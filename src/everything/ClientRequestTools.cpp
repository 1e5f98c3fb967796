// The 2025-era tools that ask the client something mid-call (sampling, elicitation) and the 2026
// capability probe. With a 2025 client they send the request themselves, as the fixture does, and
// report a failed request as text; with a 2026 client (no requests to the client exist there)
// they return the same question as an input request and answer on the retry.

#include "everything/FixtureParts.hpp"
#include "mcp/protocol/ErrorCodes.hpp"

#include "mcp/Error.hpp"
#include "mcp/protocol/Methods.hpp"

#include <boost/json/parse.hpp>

#include <functional>

namespace mcpkit::everything {
namespace asio = boost::asio;
namespace json = boost::json;
using mcp::CallToolResult;
using ToolOutcome = mcp::Outcome<CallToolResult>;

namespace {

/// What asking the client one question gave: a usable answer, a question to return first
/// (2026), or why it could not be asked or answered (2025).
struct ClientAnswer {
    std::optional<json::value> usable;
    std::optional<mcp::InputRequired> ask_first;
    std::string failure;
};

asio::awaitable<ClientAnswer> ask_client(mcp::ToolCall& call, std::string_view key, std::string_view method,
                                         json::object params, std::function<bool(const json::value&)> is_usable) {
    ClientAnswer answer;
    if (call.stateless()) {
        // A missing or unusable answer on a retry is asked again, as MRTR wants, never guessed at.
        if (auto* given = call.input_response(key); given && is_usable(*given)) {
            answer.usable = *given;
        } else {
            mcp::InputRequired question;
            question.input_requests[key] = json::object{{"method", method}, {"params", std::move(params)}};
            answer.ask_first = std::move(question);
        }
        co_return answer;
    }
    try {
        json::value result = co_await call.request_client(method, std::move(params));
        if (is_usable(result)) {
            answer.usable = std::move(result);
        } else {
            answer.failure = "the client answered " + std::string(method) + " with a malformed result";
        }
    } catch (const std::exception& e) {
        answer.failure = e.what();
    }
    co_return answer;
}

asio::awaitable<ToolOutcome> sampling(mcp::ToolCall& call) {
    auto answer = co_await ask_client(call, "sampling", mcp::methods::sampling_create_message,
                                      sampling_request(call.arguments.at("prompt").as_string(), 100),
                                      [](const json::value& result) { return read_sampling(result).has_value(); });
    if (answer.ask_first) co_return std::move(*answer.ask_first);
    if (!answer.usable) co_return CallToolResult::text("Sampling not supported or error: " + answer.failure);
    co_return CallToolResult::text("LLM response: " + read_sampling(*answer.usable)->text.value_or("No response"));
}

/// Asks for a form and reports the answer as "<prefix>action=…, content={…}", the fixture's text.
asio::awaitable<ToolOutcome> elicit_and_report(mcp::ToolCall& call, std::string message, json::object form,
                                               std::string prefix) {
    json::object params{{"message", message}, {"requestedSchema", form}};
    auto answer =
        co_await ask_client(call, "elicitation", mcp::methods::elicitation_create, std::move(params),
                            [&form](const json::value& result) { return read_elicitation(result, form).has_value(); });
    if (answer.ask_first) co_return std::move(*answer.ask_first);
    if (!answer.usable) co_return CallToolResult::text("Elicitation not supported or error: " + answer.failure);
    Elicitation elicitation = *read_elicitation(*answer.usable, form);
    co_return CallToolResult::text(prefix + "action=" + elicitation.action +
                                   ", content=" + json_text(elicitation.content));
}

json::object parse_form(std::string_view text) { return json::parse(text).as_object(); }

// The fields the tools-call-elicitation scenario describes and its client fills in.
constexpr std::string_view contact_form = R"json({
  "type": "object",
  "properties": {
    "username": {"type": "string", "description": "User's response"},
    "email": {"type": "string", "description": "User's email address"}
  },
  "required": ["username", "email"]
})json";

// SEP-1034: a default for every primitive type.
constexpr std::string_view defaults_form = R"json({
  "type": "object",
  "properties": {
    "name": {"type": "string", "description": "User name", "default": "John Doe"},
    "age": {"type": "integer", "description": "User age", "default": 30},
    "score": {"type": "number", "description": "User score", "default": 95.5},
    "status": {
      "type": "string",
      "description": "User status",
      "enum": ["active", "inactive", "pending"],
      "default": "active"
    },
    "verified": {"type": "boolean", "description": "Verification status", "default": true}
  },
  "required": []
})json";

// SEP-1330: the five enum shapes (untitled and titled single select, legacy enumNames, untitled
// and titled multi select).
constexpr std::string_view enums_form = R"json({
  "type": "object",
  "properties": {
    "untitledSingle": {"type": "string", "description": "Select one option", "enum": ["option1", "option2", "option3"]},
    "titledSingle": {
      "type": "string",
      "description": "Select one option with titles",
      "oneOf": [
        {"const": "value1", "title": "First Option"},
        {"const": "value2", "title": "Second Option"},
        {"const": "value3", "title": "Third Option"}
      ]
    },
    "legacyEnum": {
      "type": "string",
      "description": "Select one option (legacy)",
      "enum": ["opt1", "opt2", "opt3"],
      "enumNames": ["Option One", "Option Two", "Option Three"]
    },
    "untitledMulti": {
      "type": "array",
      "description": "Select multiple options",
      "minItems": 1,
      "maxItems": 3,
      "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
    },
    "titledMulti": {
      "type": "array",
      "description": "Select multiple options with titles",
      "minItems": 1,
      "maxItems": 3,
      "items": {
        "anyOf": [
          {"const": "value1", "title": "First Choice"},
          {"const": "value2", "title": "Second Choice"},
          {"const": "value3", "title": "Third Choice"}
        ]
      }
    }
  },
  "required": []
})json";

CallToolResult missing_capability(mcp::ToolCall& call) {
    // The 2026 way to refuse work the client cannot support: -32021 naming what is missing.
    if (!call.client_supports("sampling"))
        throw mcp::Error(mcp::error_code::missing_required_client_capability,
                         "Server requires the sampling capability for this request",
                         json::object{{"requiredCapabilities", {{"sampling", json::object()}}}});
    return CallToolResult::text("Success");
}

}  // namespace

void register_client_request_tools(mcp::Server& server) {
    server.add_tool(mcp::Tool{.name = "test_sampling",
                              .description = "Tests server-initiated sampling (LLM completion request)",
                              .input_schema = mcp::schema_object(
                                  {{"prompt", {{"type", "string"}, {"description", "The prompt to send to the LLM"}}}},
                                  {"prompt"})},
                    sampling);
    server.add_tool(mcp::Tool{.name = "test_elicitation",
                              .description = "Tests server-initiated elicitation (user input request)",
                              .input_schema = mcp::schema_object(
                                  {{"message", {{"type", "string"}, {"description", "The message to show the user"}}}},
                                  {"message"})},
                    [](mcp::ToolCall& call) {
                        return elicit_and_report(call, std::string(call.arguments.at("message").as_string()),
                                                 parse_form(contact_form), "User response: ");
                    });
    server.add_tool(mcp::Tool{.name = "test_elicitation_sep1034_defaults",
                              .description = "Tests elicitation with default values per SEP-1034",
                              .input_schema = no_arguments()},
                    [](mcp::ToolCall& call) {
                        return elicit_and_report(call, "Please review and update the form fields with defaults",
                                                 parse_form(defaults_form), "Elicitation completed: ");
                    });
    server.add_tool(mcp::Tool{.name = "test_elicitation_sep1330_enums",
                              .description = "Tests elicitation with enum schema improvements per SEP-1330",
                              .input_schema = no_arguments()},
                    [](mcp::ToolCall& call) {
                        return elicit_and_report(call, "Please select options from the enum fields",
                                                 parse_form(enums_form), "Elicitation completed: ");
                    });
    server.add_tool(mcp::Tool{.name = "test_missing_capability",
                              .description = "Test tool requiring sampling",
                              .input_schema = no_arguments()},
                    missing_capability);
}

}  // namespace mcpkit::everything
