#include "schema/JsonValues.hpp"

#include "mcp/jsonrpc/JsonWriter.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace mcp::schema_values {
namespace json = boost::json;

bool is_number(const json::value& v) { return v.is_int64() || v.is_uint64() || v.is_double(); }
double number(const json::value& v) { return v.to_number<double>(); }
bool is_integer(const json::value& v) {
    if (v.is_int64() || v.is_uint64()) return true;
    return v.is_double() && std::isfinite(v.get_double()) && std::trunc(v.get_double()) == v.get_double();
}

bool equal(const json::value& a, const json::value& b) {
    if (is_number(a) && is_number(b)) {
        if (a.is_double() || b.is_double()) return number(a) == number(b);
        if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
        if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
        const json::value& s = a.is_int64() ? a : b;
        const json::value& u = a.is_int64() ? b : a;
        return s.get_int64() >= 0 && static_cast<std::uint64_t>(s.get_int64()) == u.get_uint64();
    }
    if (a.kind() != b.kind()) return false;
    if (a.is_array()) {
        const auto& x = a.get_array();
        const auto& y = b.get_array();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!equal(x[i], y[i])) return false;
        return true;
    }
    if (a.is_object()) {
        const auto& x = a.get_object();
        const auto& y = b.get_object();
        if (x.size() != y.size()) return false;
        for (const auto& [key, value] : x) {
            auto* other = y.if_contains(key);
            if (!other || !equal(value, *other)) return false;
        }
        return true;
    }
    return a == b;
}

std::size_t hash_of(const json::value& value) {
    auto mix = [](std::size_t seed, std::size_t hash) { return seed ^ (hash + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)); };
    switch (value.kind()) {
    case json::kind::null: return 0x6e756c6c;
    case json::kind::bool_: return value.get_bool() ? 0x74727565 : 0x66616c73;
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_: {
        double as_double = number(value);
        if (as_double == 0) as_double = 0;  // -0.0 equals 0
        return std::hash<double>{}(as_double);
    }
    case json::kind::string: return std::hash<std::string_view>{}(value.get_string());
    case json::kind::array: {
        std::size_t seed = 0x61727261;
        for (const json::value& item : value.get_array()) seed = mix(seed, hash_of(item));
        return seed;
    }
    case json::kind::object: {
        // A sum: the same members in any order give the same hash.
        std::size_t sum = 0x6f626a65;
        for (const auto& [key, member] : value.get_object())
            sum += mix(std::hash<std::string_view>{}(key), hash_of(member));
        return sum;
    }
    }
    return 0;
}

std::size_t code_points(std::string_view text) {
    std::size_t count = 0;
    for (unsigned char c : text) count += (c & 0xC0) != 0x80;
    return count;
}

const char* type_phrase(std::string_view type) {
    if (type == "object") return "an object";
    if (type == "array") return "an array";
    if (type == "integer") return "an integer";
    if (type == "string") return "a string";
    if (type == "number") return "a number";
    if (type == "boolean") return "a boolean";
    if (type == "null") return "null";
    return "of an unknown type";
}

bool has_type(const json::value& v, std::string_view type) {
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "number") return is_number(v);
    if (type == "integer") return is_integer(v);
    if (type == "boolean") return v.is_bool();
    if (type == "null") return v.is_null();
    return false;
}

std::string text_of(const json::value& v) { return jsonrpc::to_json_text(v); }

std::size_t node_count(const json::value& value, std::size_t limit) {
    std::size_t count = 1;
    if (value.is_array())
        for (const auto& item : value.get_array()) {
            if (count >= limit) break;
            count += node_count(item, limit - count);
        }
    if (value.is_object())
        for (const auto& [key, member] : value.get_object()) {
            if (count >= limit) break;
            count += node_count(member, limit - count);
        }
    return count;
}

std::optional<std::pair<std::size_t, std::size_t>> equal_items(const json::array& array) {
    const std::size_t size = array.size();
    std::vector<std::pair<std::size_t, std::size_t>> hashes;  // hash, index
    hashes.reserve(size);
    for (std::size_t i = 0; i < size; ++i) hashes.emplace_back(hash_of(array[i]), i);
    std::sort(hashes.begin(), hashes.end());
    for (std::size_t start = 0; start < size;) {
        std::size_t end = start + 1;
        while (end < size && hashes[end].first == hashes[start].first) ++end;
        for (std::size_t a = start; a < end; ++a)
            for (std::size_t b = a + 1; b < end; ++b)
                if (equal(array[hashes[a].second], array[hashes[b].second]))
                    return std::pair{std::min(hashes[a].second, hashes[b].second), std::max(hashes[a].second, hashes[b].second)};
        start = end;
    }
    return std::nullopt;
}

}  // namespace mcp::schema_values
