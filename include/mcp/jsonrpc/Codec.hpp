#pragma once
// Turning frames of text into JSON-RPC messages and back.
//
// Decoding checks the envelope only (jsonrpc, id, method, params, result, error); what a method's
// params mean is for the layer above. Every rejected message yields the error object the spec asks
// for, naming the offending field, and the id when it could be read so the peer can correlate.

#include "mcp/jsonrpc/JsonWriter.hpp"
#include "mcp/jsonrpc/Message.hpp"

#include <boost/json/parser.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcp::jsonrpc {

/// A frame, or a member of a batch, that is not a valid message.
struct DecodeError {
    RequestId id;  // null when the id could not be read
    ErrorObject error;
};

using DecodedItem = std::variant<Message, DecodeError>;

/// What a channel knows of who sent a frame (over HTTP: the verified access token). The engine
/// only carries it, handing it to the dispatcher with each request the frame held.
struct MessageOrigin {
    virtual ~MessageOrigin() = default;
};

/// A frame that came where the answer to one of our own requests comes (over Streamable HTTP, on
/// that request's response stream): the peer sent it on behalf of that request.
struct RelatedRequestOrigin : MessageOrigin {
    explicit RelatedRequestOrigin(RequestId id) : request(std::move(id)) {}
    RequestId request;
};

struct Decoded {
    bool is_batch = false;
    DecodedItem single;               // when !is_batch
    std::vector<DecodedItem> batch;   // when is_batch
    std::shared_ptr<const MessageOrigin> origin;  // set by the channel, if it knows
};

/// Parses frames. Keeps its parser's buffers between calls, so reuse one per connection.
class Decoder {
public:
    Decoder();
    Decoded decode(std::string_view frame);

private:
    boost::json::parser parser_;
};

/// Checks one parsed JSON value as a message (also used for batch members).
DecodedItem decode_value(boost::json::value&& value);

// Encoders append one whole message to `out` (no framing).
void encode_request(std::string& out, const RequestId& id, std::string_view method,
                    const boost::json::value& params);
void encode_notification(std::string& out, std::string_view method, const boost::json::value& params);
void encode_result(std::string& out, const RequestId& id, const boost::json::value& result);
/// The same with the result already serialized.
void encode_result_text(std::string& out, const RequestId& id, std::string_view result_json);
void encode_error(std::string& out, const RequestId& id, const ErrorObject& error);
void encode(std::string& out, const Message& message);

}  // namespace mcp::jsonrpc
