#pragma once
// Turning frames of text into JSON-RPC messages and back.
//
// Decoding checks the envelope only (jsonrpc, id, method, params, result, error); what a method's
// params mean is for the layer above. Every rejected message yields the error object the spec asks
// for, naming the offending field, and the id when it could be read so the peer can correlate.

#include "mcp/Export.hpp"
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
struct MCP_API DecodeError {
    /// The id of the offending message, for the error response; null when it could not be read.
    RequestId id;
    ErrorObject error;  ///< The error to answer with: parse error or invalid request, naming what is wrong.
};

/// One decoded message, or the reason it is not one.
using DecodedItem = std::variant<Message, DecodeError>;

/// What a channel knows of who sent a frame (over HTTP: the verified access token). The engine
/// only carries it, handing it to the dispatcher with each request the frame held.
struct MCP_API MessageOrigin {
    virtual ~MessageOrigin() = default;
};

/// A frame that came where the answer to one of our own requests comes (over Streamable HTTP, on
/// that request's response stream): the peer sent it on behalf of that request.
struct MCP_API RelatedRequestOrigin : MessageOrigin {
    /// Marks a frame as sent on behalf of our request `id`.
    explicit RelatedRequestOrigin(RequestId id) : request(std::move(id)) {}
    RequestId request;  ///< The id of our request whose response stream carried the frame.
};

/// What one frame held: a single message (or error), or a batch of them, with where it came from.
struct MCP_API Decoded {
    /// True when the frame was a JSON array (a non-empty batch); then `batch` holds the members.
    bool is_batch = false;
    DecodedItem single;               ///< The message, or why the frame is not one, when !is_batch.
    std::vector<DecodedItem> batch;   ///< Each member of the batch, in order, when is_batch.
    /// Who sent the frame, set by the channel if it knows; null otherwise.
    std::shared_ptr<const MessageOrigin> origin;
};

/// The most members a batch may have; a larger one is one invalid request.
inline constexpr std::size_t max_batch_members = 1000;

/// Parses frames. Keeps its parser's buffers between calls, so reuse one per connection.
class MCP_API Decoder {
public:
    /// A decoder whose parser refuses JSON nested deeper than 64 levels.
    Decoder();
    /// Parses one frame: a message, a batch, or a parse error; an empty batch, or one of more than
    /// max_batch_members, is an invalid request.
    Decoded decode(std::string_view frame);

private:
    boost::json::parser parser_;
};

/// Checks one parsed JSON value as a message (also used for batch members).
MCP_API DecodedItem decode_value(boost::json::value&& value);

// Encoders append one whole message to `out` (no framing).
/// Appends a request with `id`, `method` and `params` (left out when null), without framing.
MCP_API void encode_request(std::string& out, const RequestId& id, std::string_view method,
                    const boost::json::value& params);
/// Appends a notification; `params` is left out when null.
MCP_API void encode_notification(std::string& out, std::string_view method, const boost::json::value& params);
/// Appends a successful response to the request `id`.
MCP_API void encode_result(std::string& out, const RequestId& id, const boost::json::value& result);
/// The same with the result already serialized.
MCP_API void encode_result_text(std::string& out, const RequestId& id, std::string_view result_json);
/// Appends an error response to the request `id`; `data` is left out when null.
MCP_API void encode_error(std::string& out, const RequestId& id, const ErrorObject& error);
/// Appends any message, choosing the encoder above by its kind.
MCP_API void encode(std::string& out, const Message& message);

}  // namespace mcp::jsonrpc
