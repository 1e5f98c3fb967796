#include "mcp/jsonrpc/RequestId.hpp"

#include "mcp/jsonrpc/JsonWriter.hpp"

namespace mcp::jsonrpc {

boost::json::value RequestId::to_json() const {
    if (is_number()) return number();
    if (is_string()) return boost::json::value(string());
    return nullptr;
}

bool RequestId::from_json(const boost::json::value& json, RequestId& out) {
    if (json.is_string()) {
        out = RequestId(std::string(json.get_string()));
        return true;
    }
    if (json.is_int64()) {
        out = RequestId(json.get_int64());
        return true;
    }
    if (json.is_uint64() && json.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
        out = RequestId(static_cast<std::int64_t>(json.get_uint64()));
        return true;
    }
    return false;
}

void RequestId::append_json(std::string& out) const {
    if (is_number()) {
        out += std::to_string(number());
    } else if (is_string()) {
        append_json_string(out, string());
    } else {
        out += "null";
    }
}

std::string RequestId::to_display() const {
    std::string out;
    append_json(out);
    return out;
}

}  // namespace mcp::jsonrpc
