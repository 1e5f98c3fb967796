#include "host/llm/SurrogateHalves.hpp"

#include <cstdint>
#include <cstring>
#include <optional>

namespace mcpkit::host {
namespace {

constexpr char32_t stand_in_base = 0x10F800;  // + (half - 0xD800): 2048 code points up to U+10FFFF
constexpr std::string_view replacement = "\xEF\xBF\xBD";

std::optional<unsigned> hex4(std::string_view text, std::size_t at) {
    if (at + 4 > text.size()) return std::nullopt;
    unsigned value = 0;
    for (std::size_t i = at; i < at + 4; ++i) {
        char c = text[i];
        value <<= 4;
        if (c >= '0' && c <= '9') value |= static_cast<unsigned>(c - '0');
        else if (c >= 'a' && c <= 'f') value |= static_cast<unsigned>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') value |= static_cast<unsigned>(c - 'A' + 10);
        else return std::nullopt;
    }
    return value;
}

bool is_high(unsigned unit) { return unit >= 0xD800 && unit <= 0xDBFF; }
bool is_low(unsigned unit) { return unit >= 0xDC00 && unit <= 0xDFFF; }

void append_escape(std::string& out, unsigned unit) {
    static constexpr char digits[] = "0123456789abcdef";
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += digits[(unit >> shift) & 0xF];
}

void append_utf8(std::string& out, char32_t code_point) {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
}

/// The half a stand-in at `at` (4 bytes: F4 8F A0..BF 80..BF) stands for, if it is one.
std::optional<unsigned> stand_in_at(std::string_view text, std::size_t at) {
    if (at + 4 > text.size()) return std::nullopt;
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
    if (byte(0) != 0xF4 || byte(1) != 0x8F || byte(2) < 0xA0 || byte(2) > 0xBF || (byte(3) & 0xC0) != 0x80)
        return std::nullopt;
    return 0xD800 + (((byte(2) & 0x1Fu) << 6) | (byte(3) & 0x3Fu));
}

bool holds_stand_in(std::string_view text) {
    const void* found = text.empty() ? nullptr : std::memchr(text.data(), 0xF4, text.size());
    if (!found) return false;
    for (auto at = static_cast<std::size_t>(static_cast<const char*>(found) - text.data()); at < text.size(); ++at)
        if (stand_in_at(text, at)) return true;
    return false;
}

/// `text` with stand-in pairs joined and lone ones replaced; a first half at the very end goes to
/// `held` instead when it is given.
void join_into(std::string& out, std::string_view text, std::string* held) {
    for (std::size_t at = 0; at < text.size();) {
        auto half = stand_in_at(text, at);
        if (!half) {
            out += text[at++];
            continue;
        }
        if (is_high(*half)) {
            auto next = stand_in_at(text, at + 4);
            if (next && is_low(*next)) {
                append_utf8(out, 0x10000 + ((*half - 0xD800) << 10) + (*next - 0xDC00));
                at += 8;
                continue;
            }
            if (held && at + 4 == text.size()) {
                held->assign(text.substr(at, 4));
                return;
            }
        }
        out += replacement;
        at += 4;
    }
}

}  // namespace

bool mend_lone_surrogates(std::string_view json_text, std::string& out) {
    std::string mended;
    bool changed = false;
    std::size_t copied = 0;
    for (std::size_t at = 0; at + 1 < json_text.size(); ++at) {
        if (json_text[at] != '\\') continue;
        if (json_text[at + 1] != 'u') {
            ++at;  // an escape of one character (`\\`, `\"`): its second character is not a start
            continue;
        }
        auto unit = hex4(json_text, at + 2);
        if (!unit) continue;
        if (is_high(*unit) && json_text.substr(at + 6, 2) == "\\u") {
            auto next = hex4(json_text, at + 8);
            if (next && is_low(*next)) {
                at += 11;  // a whole pair, left as it is
                continue;
            }
        }
        if (!is_high(*unit) && !is_low(*unit)) {
            at += 5;
            continue;
        }
        mended.append(json_text.substr(copied, at - copied));
        char32_t stand_in = stand_in_base + (*unit - 0xD800);
        char32_t offset = stand_in - 0x10000;
        append_escape(mended, 0xD800 + (offset >> 10));
        append_escape(mended, 0xDC00 + (offset & 0x3FF));
        copied = at + 6;
        at += 5;
        changed = true;
    }
    if (!changed) return false;
    mended.append(json_text.substr(copied));
    out = std::move(mended);
    return true;
}

void join_surrogate_halves(std::string& text) {
    if (!holds_stand_in(text)) return;
    std::string joined;
    joined.reserve(text.size());
    join_into(joined, text, nullptr);
    text = std::move(joined);
}

std::string_view SurrogateJoiner::join(std::string_view piece) {
    if (held_.empty() && !holds_stand_in(piece)) return piece;
    buffer_.clear();
    std::string pending = std::move(held_);
    held_.clear();
    if (!pending.empty()) {
        pending.append(piece);
        join_into(buffer_, pending, &held_);
    } else {
        join_into(buffer_, piece, &held_);
    }
    return buffer_;
}

std::string_view SurrogateJoiner::finish() {
    if (held_.empty()) return {};
    held_.clear();
    return replacement;
}

}  // namespace mcpkit::host
