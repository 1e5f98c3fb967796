#include "host/llm/AnthropicAnswerReader.hpp"

#include "host/llm/AnswerEndings.hpp"
#include "host/llm/ModelErrors.hpp"
#include "host/llm/SurrogateHalves.hpp"

#include <mcp/JsonFields.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

namespace {

std::int64_t count(const json::object& object, std::string_view key) { return json_fields::integer(object, key); }

std::optional<std::size_t> index_of(const json::object& event) {
    auto* value = event.if_contains("index");
    if (!value || !value->is_number()) return std::nullopt;
    std::int64_t index = json_fields::integer(event, "index");
    // A block index past any real answer is a broken stream, not a reason to allocate.
    if (index < 0 || index > 4096) return std::nullopt;
    return static_cast<std::size_t>(index);
}

}  // namespace

void AnthropicAnswerReader::read(const json::object& event) {
    std::string type = json_fields::text(event, "type");
    if (type == "error") throw error_event("anthropic", event.contains("error") ? event.at("error") : json::value(event));
    if (type == "message") return read_whole_message(event);
    if (type == "message_start") {
        if (auto* message = event.if_contains("message"); message && message->is_object())
            if (auto* usage = message->get_object().if_contains("usage"); usage && usage->is_object())
                read_usage(usage->get_object());
        return;
    }
    if (type == "content_block_start") {
        auto index = index_of(event);
        auto* block = event.if_contains("content_block");
        if (index && block && block->is_object()) start_block(*index, block->get_object());
        return;
    }
    if (type == "content_block_delta") {
        auto index = index_of(event);
        auto* change = event.if_contains("delta");
        if (index && change && change->is_object()) delta(*index, change->get_object());
        return;
    }
    if (type == "message_delta") {
        if (auto* change = event.if_contains("delta"); change && change->is_object())
            if (std::string reason = json_fields::text(change->get_object(), "stop_reason"); !reason.empty()) {
                reply_.finish_reason = reason;
                answer_.heard = true;
            }
        if (auto* usage = event.if_contains("usage"); usage && usage->is_object()) read_usage(usage->get_object());
    }
    // ping, content_block_stop, message_stop, and kinds added later: nothing to read.
}

void AnthropicAnswerReader::read_usage(const json::object& usage) {
    // The input counts come in message_start; message_delta's output count is cumulative.
    if (std::int64_t input = count(usage, "input_tokens") + count(usage, "cache_creation_input_tokens") +
                             count(usage, "cache_read_input_tokens");
        input > 0)
        input_tokens_ = input;
    if (usage.contains("output_tokens")) output_tokens_ = count(usage, "output_tokens");
    reply_.usage = {input_tokens_, output_tokens_, input_tokens_ + output_tokens_};
}

void AnthropicAnswerReader::start_block(std::size_t index, const json::object& block) {
    if (blocks_.size() <= index) blocks_.resize(index + 1);
    Block& started = blocks_[index];
    started.type = json_fields::text(block, "type");
    started.id = json_fields::text(block, "id");
    started.name = json_fields::text(block, "name");
    started.data = json_fields::text(block, "data");
    answer_.heard = true;
    // A whole message's blocks come filled; a stream's start with them empty.
    if (std::string text = json_fields::text(block, "text"); !text.empty()) answer_.add_text(text);
    if (std::string thinking = json_fields::text(block, "thinking"); !thinking.empty()) {
        started.thinking = thinking;
        answer_.add_reasoning(thinking);
    }
    started.signature = json_fields::text(block, "signature");
    if (auto* input = block.if_contains("input"); input && input->is_object() && !input->get_object().empty())
        started.input = json::serialize(*input);
}

void AnthropicAnswerReader::delta(std::size_t index, const json::object& change) {
    if (blocks_.size() <= index) blocks_.resize(index + 1);
    Block& block = blocks_[index];
    std::string type = json_fields::text(change, "type");
    if (type == "text_delta") {
        answer_.add_text(json_fields::text(change, "text"));
    } else if (type == "input_json_delta") {
        block.input += json_fields::text(change, "partial_json");
    } else if (type == "thinking_delta") {
        std::string piece = json_fields::text(change, "thinking");
        block.thinking += piece;
        answer_.add_reasoning(piece);
    } else if (type == "signature_delta") {
        block.signature += json_fields::text(change, "signature");
    }
}

void AnthropicAnswerReader::read_whole_message(const json::object& message) {
    answer_.heard = true;
    if (auto* content = message.if_contains("content"); content && content->is_array()) {
        // Blocks are numbered as they come, objects only: an array of junk allocates nothing.
        for (const auto& block : content->get_array())
            if (block.is_object() && blocks_.size() < 4096) start_block(blocks_.size(), block.get_object());
    }
    if (std::string reason = json_fields::text(message, "stop_reason"); !reason.empty()) reply_.finish_reason = reason;
    if (auto* usage = message.if_contains("usage"); usage && usage->is_object()) read_usage(usage->get_object());
}

void AnthropicAnswerReader::finish() {
    json::array thinking;
    for (auto& block : blocks_) {
        if (block.type == "tool_use") {
            ToolCall call;
            call.id = block.id.empty() ? new_id("toolu") : block.id;
            call.name = block.name;
            join_surrogate_halves(block.input);
            if (!block.input.empty()) {
                boost::system::error_code ec;
                json::value parsed = json::parse(block.input, ec);
                if (ec || !parsed.is_object())
                    call.arguments_error = "the arguments are not a JSON object: " + block.input.substr(0, 200);
                else
                    call.arguments = std::move(parsed.get_object());
            }
            reply_.tool_calls.push_back(std::move(call));
        } else if (block.type == "thinking") {
            join_surrogate_halves(block.thinking);
            thinking.push_back({{"type", "thinking"}, {"thinking", block.thinking}, {"signature", block.signature}});
        } else if (block.type == "redacted_thinking") {
            thinking.push_back({{"type", "redacted_thinking"}, {"data", block.data}});
        }
    }
    // Sent back unchanged, before the text and the calls, with the answer they belong to.
    if (!thinking.empty()) reply_.provider_data["thinking"] = std::move(thinking);
    const std::string& reason = reply_.finish_reason;
    bool nothing = reply_.text.empty() && reply_.tool_calls.empty();
    if (reason == "max_tokens")
        reply_.ending = nothing && !reply_.reasoning.empty() ? answer_endings::thinking_used_limit()
                                                             : answer_endings::output_limit();
    else if (reason == "refusal") reply_.ending = answer_endings::refused("");
    else if (reason == "pause_turn") reply_.ending = answer_endings::paused();
    else if (!reason.empty() && reason != "end_turn" && reason != "tool_use" && reason != "stop_sequence")
        reply_.ending = answer_endings::other(reason);
    else if (nothing) reply_.ending = answer_endings::empty();
}

}  // namespace mcpkit::host
