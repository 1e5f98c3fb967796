#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// What the Streamable HTTP client transport keeps about its own requests: which are still
// waiting for an answer (so a broken stream is resumed, or failed, only while it matters), and
// what their answers teach it: the negotiated protocol version (initialize) and which tool
// arguments travel in Mcp-Param headers (tools/list).

#include "mcp/jsonrpc/Codec.hpp"
#include "transport/http/OutgoingHeaders.hpp"

#include <string>
#include <unordered_map>

namespace mcp::http {

class RequestLedger {
public:
    /// A request of ours is on its way.
    void record(const jsonrpc::RequestId& id, std::string method) { methods_[id] = std::move(method); }
    /// Reads the answers among inbound messages.
    void note(const jsonrpc::Decoded& decoded);
    bool answered(const jsonrpc::RequestId& id) const { return !methods_.contains(id); }

    const std::string& negotiated_version() const { return negotiated_version_; }
    const ToolHeaders& tool_headers() const { return tool_headers_; }

private:
    void note_item(const jsonrpc::DecodedItem& item);

    std::unordered_map<jsonrpc::RequestId, std::string> methods_;  ///< unanswered requests → method
    std::string negotiated_version_;
    ToolHeaders tool_headers_;
};

}  // namespace mcp::http
