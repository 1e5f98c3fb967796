// The 2026-07-28 multi-round-trip (MRTR) tools: each returns an input request until the client's
// retry carries usable answers. Written once with mcp::InputRequired, they serve 2025-era clients
// too: libmcp then asks the client itself and calls the tool again with the answers.
//
// Rules shared by all of them: an answer is used only when it is a well-formed result of what was
// asked (see ClientAnswers.cpp); anything else asks again rather than finish on bad input.
// Unknown extra answers are ignored. A well-formed "decline" or "cancel" is an answer too, so a
// 2025 client whose user declines is not asked over and over.

#include "everything/FixtureParts.hpp"

#include "mcp/Error.hpp"
#include "mcp/RandomId.hpp"

#include <boost/json/serialize.hpp>

#include <string>

namespace mcpkit::everything {
namespace json = boost::json;
using mcp::CallToolResult;
using mcp::InputRequired;
using ToolOutcome = mcp::Outcome<CallToolResult>;

namespace {

const StateSigner& signer() {
    static const StateSigner instance;
    return instance;
}

json::object one_field_form(std::string_view field, std::string_view type) {
    return json::object{
        {"type", "object"}, {"properties", {{field, {{"type", type}}}}}, {"required", json::array{field}}};
}

/// The answer to input request `key` when it is a well-formed elicitation result for `form`.
std::optional<Elicitation> elicited(const mcp::ToolCall& call, std::string_view key, const json::object& form) {
    const json::value* answer = call.input_response(key);
    return answer ? read_elicitation(*answer, form) : std::nullopt;
}

std::optional<Sampling> sampled(const mcp::ToolCall& call, std::string_view key) {
    const json::value* answer = call.input_response(key);
    return answer ? read_sampling(*answer) : std::nullopt;
}

std::optional<std::size_t> listed_roots(const mcp::ToolCall& call, std::string_view key) {
    const json::value* answer = call.input_response(key);
    return answer ? count_roots(*answer) : std::nullopt;
}

/// A plain state of this `kind`, with a nonce so that no two rounds share a state.
std::string plain_state(std::string_view kind) {
    return json::serialize(json::object{{"kind", kind}, {"nonce", mcp::random_uuid()}});
}

bool field_equals(const std::optional<json::object>& object, std::string_view field, const json::value& expected) {
    if (!object) return false;
    auto* value = object->if_contains(field);
    return value && *value == expected;
}

ToolOutcome ask_name(const mcp::ToolCall& call) {
    json::object form = one_field_form("name", "string");
    if (auto answer = elicited(call, "user_name", form))
        return CallToolResult::text("Hello, " + answer->text("name") + "!");
    return InputRequired{}.elicit("user_name", "What is your name?", std::move(form));
}

ToolOutcome ask_capital(const mcp::ToolCall& call) {
    if (auto answer = sampled(call, "sample_request"))
        return CallToolResult::text("Sampling result: " + answer->text.value_or("no response"));
    return InputRequired{}.sample("sample_request", sampling_request("What is the capital of France?", 100));
}

ToolOutcome ask_roots(const mcp::ToolCall& call) {
    if (auto count = listed_roots(call, "roots_request"))
        return CallToolResult::text("Found " + std::to_string(*count) + " root(s)");
    return InputRequired{}.roots("roots_request");
}

ToolOutcome confirm_with_state(const mcp::ToolCall& call) {
    json::object form = one_field_form("ok", "boolean");
    auto state = parse_plain_state(call.request_state());
    if (field_equals(state, "kind", "request-state")) {
        if (auto answer = elicited(call, "confirm", form)) {
            auto* ok = answer->content.if_contains("ok");
            if (answer->accepted() && ok && ok->is_bool() && ok->get_bool())
                return CallToolResult::text("state-ok: requestState validated");
            return CallToolResult::text(
                "state-ok: requestState validated, but the user did not confirm (action=" + answer->action + ")");
        }
    }
    return InputRequired{}.elicit("confirm", "Please confirm", std::move(form)).state(plain_state("request-state"));
}

ToolOutcome ask_three_things(const mcp::ToolCall& call) {
    json::object form = one_field_form("name", "string");
    auto state = parse_plain_state(call.request_state());
    if (field_equals(state, "kind", "multiple-inputs")) {
        auto name = elicited(call, "user_name", form);
        auto greeting = sampled(call, "greeting");
        auto roots = listed_roots(call, "client_roots");
        // Every round asks for all three, so the client's retry must answer all three.
        if (name && greeting && roots)
            return CallToolResult::text("Name: " + name->text("name") + "; Greeting: " +
                                        greeting->text.value_or("Hello there!") + "; Roots: " + std::to_string(*roots));
    }
    return InputRequired{}
        .elicit("user_name", "What is your name?", std::move(form))
        .sample("greeting", sampling_request("Generate a greeting", 50))
        .roots("client_roots")
        .state(plain_state("multiple-inputs"));
}

ToolOutcome ask_in_rounds(const mcp::ToolCall& call) {
    json::object name_form = one_field_form("name", "string");
    json::object color_form = one_field_form("color", "string");
    auto state = parse_plain_state(call.request_state());
    if (field_equals(state, "round", 1)) {
        if (auto answer = elicited(call, "step1", name_form)) {
            // The name rides in the state: the next round's retry carries only the step2 answer.
            json::object next{{"round", 2}, {"name", answer->text("name")}, {"nonce", mcp::random_uuid()}};
            return InputRequired{}
                .elicit("step2", "Step 2: What is your favorite color?", std::move(color_form))
                .state(json::serialize(next));
        }
    } else if (field_equals(state, "round", 2)) {
        if (auto answer = elicited(call, "step2", color_form)) {
            auto* name = state->if_contains("name");
            std::string who = name && name->is_string() ? std::string(name->get_string()) : "friend";
            return CallToolResult::text("Multi-round complete for " + who + " who likes " + answer->text("color"));
        }
    }
    // No state, an unreadable one, or no usable answer: start over.
    json::object first{{"round", 1}, {"nonce", mcp::random_uuid()}};
    return InputRequired{}
        .elicit("step1", "Step 1: What is your name?", std::move(name_form))
        .state(json::serialize(first));
}

/// A signed state that does not verify is an attack or a corruption, never a reason to ask again.
std::optional<json::object> open_signed_state(const mcp::ToolCall& call) {
    if (!call.request_state()) return std::nullopt;
    auto payload = signer().open(*call.request_state());
    if (!payload) throw mcp::Error::invalid_params("requestState integrity check failed");
    return payload;
}

ToolOutcome confirm_with_signed_state(const mcp::ToolCall& call) {
    json::object form = one_field_form("ok", "boolean");
    auto state = open_signed_state(call);
    if (field_equals(state, "kind", "tamper-test") && elicited(call, "confirm", form))
        return CallToolResult::text("integrity-ok: state verified");
    json::object payload{{"kind", "tamper-test"}, {"nonce", mcp::random_uuid()}};
    return InputRequired{}.elicit("confirm", "Please confirm", std::move(form)).state(signer().seal(payload));
}

ToolOutcome ask_what_client_supports(const mcp::ToolCall& call) {
    // Asking for input the client did not declare is a protocol error, so the questions depend on
    // this request's capabilities.
    json::object value_form = one_field_form("value", "string");
    InputRequired questions;
    if (call.client_supports("elicitation")) questions.elicit("elicit_input", "Elicitation input", value_form);
    if (call.client_supports("sampling")) questions.sample("sample_input", sampling_request("Sample request", 50));
    if (questions.input_requests.empty()) return CallToolResult::text("No supported capabilities declared");

    auto state = open_signed_state(call);
    if (field_equals(state, "kind", "capabilities-test")) {
        std::string received;
        bool all_answered = true;
        for (const auto& [key, question] : questions.input_requests) {
            bool answered =
                key == "elicit_input" ? elicited(call, key, value_form).has_value() : sampled(call, key).has_value();
            all_answered = all_answered && answered;
            received += (received.empty() ? "" : ",") + std::string(key);
        }
        if (all_answered) return CallToolResult::text("capabilities-ok: received " + received);
    }
    json::object payload{{"kind", "capabilities-test"}, {"nonce", mcp::random_uuid()}};
    return questions.state(signer().seal(payload));
}

mcp::Tool mrtr_tool(std::string name, std::string description) {
    return mcp::Tool{.name = std::move(name), .description = std::move(description), .input_schema = no_arguments()};
}

}  // namespace

void register_input_required_tools(mcp::Server& server) {
    server.add_tool(mrtr_tool("test_input_required_result_elicitation",
                              "MRTR: returns InputRequiredResult with elicitation request"),
                    ask_name);
    server.add_tool(
        mrtr_tool("test_input_required_result_sampling", "MRTR: returns InputRequiredResult with sampling request"),
        ask_capital);
    server.add_tool(
        mrtr_tool("test_input_required_result_list_roots", "MRTR: returns InputRequiredResult with roots/list request"),
        ask_roots);
    server.add_tool(
        mrtr_tool("test_input_required_result_request_state", "MRTR: returns InputRequiredResult with requestState"),
        confirm_with_state);
    server.add_tool(mrtr_tool("test_input_required_result_multiple_inputs",
                              "MRTR: returns InputRequiredResult with multiple input requests"),
                    ask_three_things);
    server.add_tool(
        mrtr_tool("test_input_required_result_multi_round", "MRTR: multi-round InputRequiredResult workflow"),
        ask_in_rounds);
    server.add_tool(
        mrtr_tool("test_input_required_result_tampered_state", "MRTR: HMAC-signed requestState integrity test"),
        confirm_with_signed_state);
    server.add_tool(
        mrtr_tool("test_input_required_result_capabilities", "MRTR: respects client capabilities in inputRequests"),
        ask_what_client_supports);
}

}  // namespace mcpkit::everything
