#include "schema/CompiledSchema.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <stdexcept>

namespace mcp {
namespace json = boost::json;

namespace {

std::string without_fragment(const std::string& uri) {
    auto hash = uri.find('#');
    return hash == std::string::npos ? uri : uri.substr(0, hash);
}

bool is_schema(const json::value& value) { return value.is_object() || value.is_bool(); }

/// ECMA-262 patterns as std::regex (ECMAScript, on UTF-8 bytes) reads them. std::regex has no
/// Unicode property escapes, so \p{Letter}/\p{L} and \p{Number}/\p{N} outside a character class
/// become: an ASCII letter or any non-ASCII character, and an ASCII digit. An approximation (a
/// non-ASCII digit counts as a letter), and said so here rather than refusing the schema.
std::string ecma_pattern(const std::string& source) {
    static const std::pair<std::string_view, std::string_view> escapes[] = {
        {"\\p{Letter}", "(?:[A-Za-z]|[\\xC2-\\xF4][\\x80-\\xBF]+)"},
        {"\\p{L}", "(?:[A-Za-z]|[\\xC2-\\xF4][\\x80-\\xBF]+)"},
        {"\\p{Number}", "[0-9]"},
        {"\\p{N}", "[0-9]"},
    };
    std::string out;
    bool in_class = false;
    for (std::size_t i = 0; i < source.size();) {
        char ch = source[i];
        if (ch == '\\' && i + 1 < source.size()) {
            bool replaced = false;
            if (!in_class)
                for (const auto& [escape, replacement] : escapes)
                    if (std::string_view(source).substr(i).starts_with(escape)) {
                        out += replacement;
                        i += escape.size();
                        replaced = true;
                        break;
                    }
            if (!replaced) {
                out += source.substr(i, 2);
                i += 2;
            }
            continue;
        }
        if (ch == '[') in_class = true;
        if (ch == ']') in_class = false;
        out += ch;
        ++i;
    }
    return out;
}

}  // namespace

std::string resolve_uri(const std::string& base, std::string_view reference) {
    auto parsed = boost::urls::parse_uri_reference(reference);
    if (!parsed) throw std::invalid_argument("\"" + std::string(reference) + "\" is not a URI reference");
    if (parsed->has_scheme()) return std::string(reference);
    auto base_uri = boost::urls::parse_uri(base);
    if (!base_uri) throw std::invalid_argument("the base URI \"" + base + "\" is not absolute");
    boost::urls::url out;
    if (!boost::urls::resolve(*base_uri, *parsed, out))
        throw std::invalid_argument("\"" + std::string(reference) + "\" cannot be resolved against \"" + base + "\"");
    return std::string(out.buffer());
}

void JsonSchema::Compiled::index() {
    root_uri = "https://mcpkit.invalid/schema.json";  // the base of a schema without $id
    if (document.is_object()) {
        if (auto* dialect = document.get_object().if_contains("$schema"); dialect && dialect->is_string()) {
            std::string_view name = dialect->get_string();
            if (name.ends_with('#')) name.remove_suffix(1);
            if (name == "http://json-schema.org/draft-07/schema" || name == "http://json-schema.org/draft-06/schema" ||
                name == "http://json-schema.org/draft-04/schema" || name == "https://json-schema.org/draft-07/schema") {
                draft = Draft::draft7;
            } else if (name == "https://json-schema.org/draft/2020-12/schema" ||
                       name == "https://json-schema.org/draft/2019-09/schema") {
                draft = Draft::draft2020;
            } else {
                // A custom dialect's vocabularies are in its meta-schema, which is another document.
                throw std::invalid_argument("\"$schema\": \"" + std::string(dialect->get_string()) +
                                            "\" is not a dialect this validator knows (2020-12, 2019-09, draft-07, "
                                            "-06, -04); its meta-schema is another document, and references to "
                                            "other documents are not fetched");
            }
        }
    }
    resources[root_uri] = &document;
    walk(document, root_uri);
    for (const auto& [node, base] : base_of) check_references(*node);
}

void JsonSchema::Compiled::walk(const json::value& schema, std::string base) {
    if (!schema.is_object()) return;
    const json::object& object = schema.get_object();
    const json::value* id = object.if_contains("$id");
    // draft-07: "$ref" makes its siblings ignored, "$id" included.
    bool id_applies = id && id->is_string() && !(draft == Draft::draft7 && object.contains("$ref"));
    if (id_applies) {
        std::string_view text = id->get_string();
        if (draft == Draft::draft7 && text.starts_with('#')) {
            anchors[base + std::string(text)] = &schema;  // the draft-07 anchor form
        } else {
            base = without_fragment(resolve_uri(base, text));
            resources[base] = &schema;
            resource_roots.insert(&schema);
        }
    }
    if (&schema == &document) resource_roots.insert(&schema);
    base_of[&schema] = base;
    if (draft == Draft::draft2020) {
        if (auto* anchor = object.if_contains("$anchor"); anchor && anchor->is_string())
            anchors[base + "#" + std::string(anchor->get_string())] = &schema;
        if (auto* anchor = object.if_contains("$dynamicAnchor"); anchor && anchor->is_string()) {
            std::string key = base + "#" + std::string(anchor->get_string());
            anchors[key] = &schema;
            dynamic_anchors.insert(key);
        }
        if (object.contains("unevaluatedProperties") || object.contains("unevaluatedItems")) needs_annotations = true;
    }
    for (const auto& [key, value] : object) walk_keyword(key, value, base);
}

void JsonSchema::Compiled::walk_keyword(std::string_view keyword, const json::value& value, const std::string& base) {
    auto compile_pattern = [&](const std::string& source) {
        if (patterns.contains(source)) return;
        std::string expression = ecma_pattern(source);
        constexpr auto linear = std::regex::ECMAScript | std::regex_constants::__polynomial;
        try {
            std::regex checked(expression, linear);  // the pattern as written must be valid on its own
            // libstdc++ searches by trying the pattern at each position in turn, so an unanchored
            // pattern costs O(n²) on text it does not match ([a-z]+@[a-z]+ took 3.8 s on 8,000
            // letters). "Anything, then the pattern" from the start tries every position in one pass.
            patterns.emplace(source, Pattern{std::regex("^[\\s\\S]*(?:" + expression + ")", linear), false});
            return;
        } catch (const std::regex_error&) {
            // A back-reference, which only the backtracking executor follows; or not a pattern at all.
        }
        try {
            patterns.emplace(source, Pattern{std::regex(expression, std::regex::ECMAScript), true});
        } catch (const std::regex_error&) {
            throw std::invalid_argument("the pattern \"" + source + "\" is not a regular expression this validator understands");
        }
    };
    auto each_in_map = [&]() {
        if (value.is_object())
            for (const auto& [name, sub] : value.get_object()) walk(sub, base);
    };
    auto each_in_array = [&]() {
        if (value.is_array())
            for (const auto& sub : value.get_array()) walk(sub, base);
    };
    const bool modern = draft == Draft::draft2020;
    if (keyword == "additionalProperties" || keyword == "propertyNames" || keyword == "contains" || keyword == "not" ||
        keyword == "if" || keyword == "then" || keyword == "else" ||
        (modern && (keyword == "unevaluatedItems" || keyword == "unevaluatedProperties")) ||
        (!modern && keyword == "additionalItems")) {
        walk(value, base);
    } else if (keyword == "items") {
        if (value.is_array() && !modern) each_in_array();
        else walk(value, base);
    } else if (keyword == "allOf" || keyword == "anyOf" || keyword == "oneOf" || (modern && keyword == "prefixItems")) {
        each_in_array();
    } else if (keyword == "properties" || keyword == "$defs" || keyword == "definitions" ||
               (modern && keyword == "dependentSchemas")) {
        each_in_map();
    } else if (keyword == "patternProperties") {
        if (value.is_object())
            for (const auto& [name, sub] : value.get_object()) {
                compile_pattern(std::string(name));
                walk(sub, base);
            }
    } else if (keyword == "dependencies" && !modern) {
        if (value.is_object())
            for (const auto& [name, sub] : value.get_object())
                if (is_schema(sub)) walk(sub, base);
    } else if (keyword == "pattern" && value.is_string()) {
        compile_pattern(std::string(value.get_string()));
    }
}

void JsonSchema::Compiled::check_references(const json::value& schema) const {
    const json::object& object = schema.get_object();
    const std::string& base = base_of.at(&schema);
    for (std::string_view keyword : {"$ref", "$dynamicRef"}) {
        auto* reference = object.if_contains(keyword);
        if (!reference) continue;
        if (!reference->is_string()) throw std::invalid_argument(std::string(keyword) + " must be a string");
        std::string target_base;
        if (!resolve(base, reference->get_string(), target_base))
            throw std::invalid_argument(std::string(keyword) + " \"" + std::string(reference->get_string()) +
                                        "\" points outside this schema (" +
                                        resolve_uri(base, reference->get_string()) +
                                        "); references to other documents are not fetched");
    }
}

const json::value* JsonSchema::Compiled::resolve(const std::string& base, std::string_view reference,
                                                 std::string& target_base) const {
    std::string uri = resolve_uri(base, reference);
    std::string document_uri = without_fragment(uri);
    // The fragment as Boost.URL decodes it: "%25" in a JSON pointer is "%".
    auto parsed = boost::urls::parse_uri(uri);
    std::string fragment = parsed && parsed->has_fragment() ? std::string(parsed->fragment()) : std::string();
    auto resource = resources.find(document_uri);
    if (fragment.empty() || fragment[0] != '/') {
        if (fragment.empty()) {
            if (resource == resources.end()) return nullptr;
            target_base = document_uri;
            return resource->second;
        }
        auto anchor = anchors.find(document_uri + "#" + fragment);
        if (anchor == anchors.end()) return nullptr;
        auto known = base_of.find(anchor->second);
        target_base = known != base_of.end() ? known->second : document_uri;
        return anchor->second;
    }
    if (resource == resources.end()) return nullptr;
    // A JSON pointer from the resource, following $id changes on the way.
    const json::value* node = resource->second;
    target_base = document_uri;
    std::size_t at = 1;
    while (at <= fragment.size()) {
        std::size_t next = fragment.find('/', at);
        if (next == std::string::npos) next = fragment.size();
        std::string token = fragment.substr(at, next - at);
        for (std::size_t i = 0; (i = token.find('~', i)) != std::string::npos; ++i)
            token.replace(i, 2, i + 1 < token.size() && token[i + 1] == '1' ? "/" : "~");
        if (node->is_object()) {
            node = node->get_object().if_contains(token);
        } else if (node->is_array()) {
            std::size_t index = 0;
            try {
                index = std::stoul(token);
            } catch (...) {
                return nullptr;
            }
            node = index < node->get_array().size() ? &node->get_array()[index] : nullptr;
        } else {
            return nullptr;
        }
        if (!node) return nullptr;
        if (auto known = base_of.find(node); known != base_of.end()) target_base = known->second;
        at = next + 1;
    }
    return node;
}

}  // namespace mcp
