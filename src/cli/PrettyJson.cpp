#include "cli/PrettyJson.hpp"

#include <mcp/jsonrpc/JsonWriter.hpp>

namespace mcpkit::cli {
namespace json = boost::json;

namespace {

void write(std::string& out, const json::value& value, int depth) {
    auto indent = [&](int d) { out.append(static_cast<std::size_t>(d) * 2, ' '); };
    if (value.is_object() && !value.get_object().empty()) {
        out += "{\n";
        bool first = true;
        for (const auto& [key, member] : value.get_object()) {
            if (!first) out += ",\n";
            first = false;
            indent(depth + 1);
            mcp::jsonrpc::append_json_string(out, key);
            out += ": ";
            write(out, member, depth + 1);
        }
        out += '\n';
        indent(depth);
        out += '}';
    } else if (value.is_array() && !value.get_array().empty()) {
        out += "[\n";
        bool first = true;
        for (const auto& item : value.get_array()) {
            if (!first) out += ",\n";
            first = false;
            indent(depth + 1);
            write(out, item, depth + 1);
        }
        out += '\n';
        indent(depth);
        out += ']';
    } else {
        mcp::jsonrpc::append_json(out, value);
    }
}

}  // namespace

std::string pretty_json(const json::value& value) {
    std::string out;
    write(out, value, 0);
    return out;
}

}  // namespace mcpkit::cli
