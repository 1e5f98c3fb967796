#include "server/UriTemplate.hpp"

#include <stdexcept>

namespace mcp::detail {

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decode(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size()) {
            int high = hex_digit(text[i + 1]);
            int low = hex_digit(text[i + 2]);
            if (high >= 0 && low >= 0) {
                out += static_cast<char>(high * 16 + low);
                i += 2;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

}  // namespace

UriTemplate::UriTemplate(std::string_view pattern) {
    std::size_t i = 0;
    while (i < pattern.size()) {
        std::size_t open = pattern.find('{', i);
        if (open == std::string_view::npos) {
            parts_.push_back(Part{false, false, std::string(pattern.substr(i))});
            break;
        }
        if (open > i) parts_.push_back(Part{false, false, std::string(pattern.substr(i, open - i))});
        std::size_t close = pattern.find('}', open);
        if (close == std::string_view::npos) throw std::invalid_argument("URI template has an unclosed '{'");
        std::string_view expression = pattern.substr(open + 1, close - open - 1);
        bool reserved = false;
        if (!expression.empty() && (expression[0] == '+' || expression[0] == '#')) {
            reserved = true;
            expression.remove_prefix(1);
        }
        if (expression.empty()) throw std::invalid_argument("URI template has an empty '{}'");
        if (!parts_.empty() && parts_.back().is_variable)
            throw std::invalid_argument("URI template has two variables with nothing between them");
        parts_.push_back(Part{true, reserved, std::string(expression)});
        names_.emplace_back(expression);
        i = close + 1;
    }
}

std::optional<std::unordered_map<std::string, std::string>> UriTemplate::match(std::string_view uri) const {
    std::unordered_map<std::string, std::string> variables;
    std::size_t position = 0;
    for (std::size_t p = 0; p < parts_.size(); ++p) {
        const Part& part = parts_[p];
        if (!part.is_variable) {
            if (uri.substr(position, part.text.size()) != part.text) return std::nullopt;
            position += part.text.size();
            continue;
        }
        // A variable runs up to the next literal (or the end).
        std::size_t end = uri.size();
        if (p + 1 < parts_.size()) {
            end = uri.find(parts_[p + 1].text, position);
            if (end == std::string_view::npos) return std::nullopt;
        }
        std::string_view value = uri.substr(position, end - position);
        if (value.empty()) return std::nullopt;
        if (!part.reserved && value.find('/') != std::string_view::npos) return std::nullopt;
        variables[part.text] = percent_decode(value);
        position = end;
    }
    if (position != uri.size()) return std::nullopt;
    return variables;
}

}  // namespace mcp::detail
