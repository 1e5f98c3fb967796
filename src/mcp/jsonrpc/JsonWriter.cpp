#include "mcp/jsonrpc/JsonWriter.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace mcp::jsonrpc {
namespace json = boost::json;

namespace {

/// For each byte: 0 when it is written as is, otherwise the letter of its short escape, or 'u'.
constexpr std::array<char, 256> escape_table() {
    std::array<char, 256> table{};
    for (int c = 0; c < 0x20; ++c) table[static_cast<std::size_t>(c)] = 'u';
    table['\b'] = 'b';
    table['\f'] = 'f';
    table['\n'] = 'n';
    table['\r'] = 'r';
    table['\t'] = 't';
    table['"'] = '"';
    table['\\'] = '\\';
    return table;
}
constexpr std::array<char, 256> escapes = escape_table();

template <class Integer>
void append_integer(std::string& out, Integer number) {
    char buffer[24];
    auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, number);
    out.append(buffer, end);
}

void append_object(std::string& out, const json::object& object) {
    out += '{';
    bool first = true;
    for (const auto& member : object) {
        if (!first) out += ',';
        first = false;
        append_json_string(out, member.key());
        out += ':';
        append_json(out, member.value());
    }
    out += '}';
}

void append_double(std::string& out, double number) {
    if (std::isnan(number)) {
        out += "null";  // no JSON number reads as NaN
        return;
    }
    if (std::isinf(number)) {
        // Only an overflowing number in what a peer sent gives an infinity here (1e999 parses as
        // one). Writing a number that overflows again hands the peer back the value it sent, where
        // null would turn a progress token or a numeric field into something else.
        out += number > 0 ? "1e999" : "-1e999";
        return;
    }
    if (number == 0) {  // also -0, which JavaScript writes as 0
        out += '0';
        return;
    }
    char buffer[32];
    // Shortest text that reads back as the same double: 100 → "100", 0.1 → "0.1", 1e21 → "1e+21".
    auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, number);
    out.append(buffer, end);
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    const char* run = text.data();
    const char* end = text.data() + text.size();
    for (const char* at = run; at != end; ++at) {
        char escape = escapes[static_cast<unsigned char>(*at)];
        if (escape == 0) continue;
        out.append(run, at);
        if (escape == 'u') {
            static constexpr char hex[] = "0123456789abcdef";
            const char sequence[] = {'\\', 'u', '0', '0', hex[(*at >> 4) & 0xf], hex[*at & 0xf]};
            out.append(sequence, sizeof sequence);
        } else {
            const char sequence[] = {'\\', escape};
            out.append(sequence, sizeof sequence);
        }
        run = at + 1;
    }
    out.append(run, end);
    out += '"';
}

void append_json(std::string& out, const json::value& value) {
    switch (value.kind()) {
    case json::kind::null: out += "null"; break;
    case json::kind::bool_: out += value.get_bool() ? "true" : "false"; break;
    case json::kind::int64: append_integer(out, value.get_int64()); break;
    case json::kind::uint64: append_integer(out, value.get_uint64()); break;
    case json::kind::double_: append_double(out, value.get_double()); break;
    case json::kind::string: append_json_string(out, value.get_string()); break;
    case json::kind::array: {
        out += '[';
        bool first = true;
        for (const auto& item : value.get_array()) {
            if (!first) out += ',';
            first = false;
            append_json(out, item);
        }
        out += ']';
        break;
    }
    case json::kind::object: append_object(out, value.get_object()); break;
    }
}

void append_json(std::string& out, const json::object& object) { append_object(out, object); }

std::string to_json_text(const json::value& value) {
    std::string out;
    append_json(out, value);
    return out;
}

}  // namespace mcp::jsonrpc
