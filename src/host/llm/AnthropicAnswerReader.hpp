#pragma once
// Reads one Anthropic message, streamed event by event (message_start, content_block_start /
// _delta / _stop, message_delta, message_stop, ping, error) or whole, into a ModelReply: text
// blocks are the answer, tool_use blocks the calls (their input streamed as JSON fragments),
// thinking blocks the reasoning, kept whole with their signatures for the way back.

#include "host/llm/StreamingRequest.hpp"

#include <boost/json/object.hpp>

namespace mcpkit::host {

class AnthropicAnswerReader {
public:
    AnthropicAnswerReader(ModelReply& reply, StreamedAnswer& answer) : reply_(reply), answer_(answer) {}
    /// One event's data (its `type` says which), or the whole message. Throws ModelError for an
    /// error event (overloaded_error mid-stream among them).
    void read(const boost::json::object& event);
    /// The calls and thinking blocks assembled and the ending worked out.
    void finish();

private:
    struct Block {
        std::string type;  ///< text, tool_use, thinking, redacted_thinking, or another kind
        std::string id;
        std::string name;
        std::string input;  ///< tool_use: the JSON fragments so far
        std::string thinking;
        std::string signature;
        std::string data;  ///< redacted_thinking
    };
    void start_block(std::size_t index, const boost::json::object& block);
    void delta(std::size_t index, const boost::json::object& delta);
    void read_usage(const boost::json::object& usage);
    void read_whole_message(const boost::json::object& message);

    ModelReply& reply_;
    StreamedAnswer& answer_;
    std::vector<Block> blocks_;
    std::int64_t input_tokens_ = 0;
    std::int64_t output_tokens_ = 0;
};

}  // namespace mcpkit::host
