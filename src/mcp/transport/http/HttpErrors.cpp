#include "transport/http/HttpErrors.hpp"

#include "mcp/jsonrpc/Codec.hpp"
#include "mcp/protocol/ErrorCodes.hpp"

namespace mcp::http {

std::string error_body(const jsonrpc::RequestId& id, int code, std::string_view message,
                       const boost::json::value& data) {
    std::string body;
    jsonrpc::encode_error(body, id, jsonrpc::ErrorObject{code, std::string(message), data});
    return body;
}

std::string session_not_found_body() {
    // -32001 is what the TypeScript SDK sends; clients match on the 404.
    return error_body(jsonrpc::RequestId(), -32001,
                      "Session not found: it expired or was deleted; send initialize without Mcp-Session-Id "
                      "to start a new one");
}

int modern_error_status(int error_code) {
    namespace code = mcp::error_code;
    switch (error_code) {
    case code::method_not_found:
        return 404;
    case code::header_mismatch:
    case code::missing_required_client_capability:
    case code::unsupported_protocol_version:
    case code::invalid_params:
    case code::invalid_request:
    case code::parse_error:
        return 400;
    default:
        return 200;
    }
}

}  // namespace mcp::http
