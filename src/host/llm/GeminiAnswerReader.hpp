#pragma once
// Reads one Gemini answer (GenerateContentResponse chunks, streamed or whole) into a ModelReply:
// text parts are the answer, thought parts its reasoning, functionCall parts the calls (with the
// id and thoughtSignature that go back with them), usageMetadata the counts, and finishReason the
// way it ended — SAFETY, RECITATION or MAX_TOKENS said in plain words, with what arrived kept.

#include "host/llm/StreamingRequest.hpp"

#include <boost/json/object.hpp>

namespace mcpkit::host {

class GeminiAnswerReader {
public:
    GeminiAnswerReader(ModelReply& reply, StreamedAnswer& answer) : reply_(reply), answer_(answer) {}
    /// One chunk. Throws ModelError for an error chunk or a blocked prompt.
    void read(const boost::json::object& chunk);
    /// The ending worked out, once the stream is over. Throws ModelError for a call Gemini could
    /// not finish (MALFORMED_FUNCTION_CALL, worth another try).
    void finish();

private:
    void read_part(const boost::json::object& part);
    ModelReply& reply_;
    StreamedAnswer& answer_;
};

}  // namespace mcpkit::host
