#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Streamable HTTP carries each request's messages on a stream of its own. The server may end that
// stream early without ending the request (SSE polling, SEP-1699): the client reconnects and
// resumes it. Only the HTTP session transport offers this; the server asks for it by dynamic_cast,
// so the interface lives with the core and the HTTP part implements it.

#include "mcp/jsonrpc/RequestId.hpp"

namespace mcp::http {

class RequestStreamControl {
public:
    /// Ends the stream that carries request `id`'s messages; the request goes on.
    virtual void close_request_stream(const jsonrpc::RequestId& id) = 0;

protected:
    ~RequestStreamControl() = default;
};

}  // namespace mcp::http
