#pragma once
// Reading the JSON the extension sends, where a missing or mistyped field is normal (telemetry
// from many page types) and reads as empty or zero (libmcp's json_fields), and cutting its text.

#include <mcp/JsonFields.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace mcpkit::devconsole {

namespace json_fields = mcp::json_fields;

/// The first `max_bytes` of UTF-8 text, cut before a character rather than inside one (a cut
/// sequence would make the JSON answer invalid for strict readers).
inline std::string utf8_prefix(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) return std::string(text);
    std::size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return std::string(text.substr(0, end));
}

}  // namespace mcpkit::devconsole
