#include "transport/http/RequestLedger.hpp"

namespace mcp::http {

void RequestLedger::note(const jsonrpc::Decoded& decoded) {
    if (!decoded.is_batch) {
        note_item(decoded.single);
        return;
    }
    for (const auto& item : decoded.batch) note_item(item);
}

void RequestLedger::note_item(const jsonrpc::DecodedItem& item) {
    auto* message = std::get_if<jsonrpc::Message>(&item);
    auto* response = message ? std::get_if<jsonrpc::Response>(message) : nullptr;
    if (!response) return;
    auto it = methods_.find(response->id);
    if (it == methods_.end()) return;
    std::string method = std::move(it->second);
    methods_.erase(it);
    if (response->error || !response->result.is_object()) return;
    const auto& result = response->result.get_object();
    if (method == "initialize") {
        if (auto* version = result.if_contains("protocolVersion"); version && version->is_string())
            negotiated_version_ = std::string(version->get_string());
    } else if (method == "tools/list") {
        learn_tool_headers(result, tool_headers_);
    }
}

}  // namespace mcp::http
