#include "transport/http/HttpRequestParser.hpp"

#include "transport/http/AsciiCase.hpp"

#include <array>
#include <cstring>
#include <limits>

namespace mcp::http {

namespace {

constexpr std::string_view crlf = "\r\n";
/// A chunk-size line longer than this is an attack, not a size.
constexpr std::size_t max_chunk_line = 1024;

/// tchar of RFC 9110, as a table: the parser checks every byte of every name with it.
constexpr std::array<bool, 256> token_chars = [] {
    std::array<bool, 256> table{};
    for (int c = '0'; c <= '9'; ++c) table[static_cast<std::size_t>(c)] = true;
    for (int c = 'a'; c <= 'z'; ++c) table[static_cast<std::size_t>(c)] = table[static_cast<std::size_t>(c - 32)] = true;
    for (char c : std::string_view("!#$%&'*+-.^_`|~")) table[static_cast<unsigned char>(c)] = true;
    return table;
}();

bool is_token_char(char c) { return token_chars[static_cast<unsigned char>(c)]; }

bool is_ows(char c) { return c == ' ' || c == '\t'; }

/// Calls `each` with every comma-separated token of a list-valued field (Connection, Transfer-Encoding).
template <typename Each>
void for_each_token(std::string_view list, Each each) {
    while (!list.empty()) {
        auto comma = list.find(',');
        auto item = trim_ows(list.substr(0, comma));
        if (!item.empty()) each(item);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
}

bool parse_decimal(std::string_view text, std::size_t& out) {
    if (text.empty()) return false;
    std::size_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        std::size_t digit = static_cast<std::size_t>(c - '0');
        if (value > (std::numeric_limits<std::size_t>::max() - digit) / 10) return false;
        value = value * 10 + digit;
    }
    out = value;
    return true;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = ascii_lower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

}  // namespace

HttpRequestParser::HttpRequestParser(std::size_t max_head_bytes, std::size_t max_body_bytes)
    : max_head_bytes_(max_head_bytes), max_body_bytes_(max_body_bytes) {}

void HttpRequestParser::reset() {
    request_.fields.clear();
    request_.body = {};
    request_.method = request_.target = {};
    error_ = {};
    consumed_ = 0;
    scanned_ = 0;
    head_done_ = false;
    head_length_ = 0;
    field_offsets_.clear();
    expects_continue_ = continue_sent_ = false;
    chunked_ = false;
    content_length_ = 0;
    chunk_state_ = ChunkState::size_line;
    chunk_position_ = chunk_remaining_ = chunk_framing_bytes_ = trailers_start_ = 0;
    chunked_body_.clear();
}

HttpRequestParser::Status HttpRequestParser::fail(int status, std::string message) {
    error_.status = status;
    error_.message = std::move(message);
    return Status::failed;
}

HttpRequestParser::Status HttpRequestParser::parse(std::string_view input) {
    if (!head_done_) {
        // Resume the search a few bytes back: the blank line may straddle two reads.
        std::size_t from = scanned_ >= 3 ? scanned_ - 3 : 0;
        auto end = input.find("\r\n\r\n", from);
        if (end == std::string_view::npos) {
            scanned_ = input.size();
            if (input.size() > max_head_bytes_)
                return fail(431, "Request head exceeds " + std::to_string(max_head_bytes_) +
                                     " bytes; send fewer or shorter header fields");
            return Status::incomplete;
        }
        head_length_ = end + 4;
        if (head_length_ > max_head_bytes_)
            return fail(431, "Request head exceeds " + std::to_string(max_head_bytes_) +
                                 " bytes; send fewer or shorter header fields");
        if (auto status = parse_head(input.substr(0, end + 2)); status == Status::failed) return status;
        head_done_ = true;
        chunk_position_ = head_length_;
    }
    if (chunked_) return parse_chunked(input);
    if (input.size() - head_length_ < content_length_) return Status::incomplete;
    return finish(input, input.substr(head_length_, content_length_), head_length_ + content_length_);
}

HttpRequestParser::Status HttpRequestParser::parse_head(std::string_view head) {
    // Request line: method SP target SP HTTP-version CRLF.
    auto line_end = head.find(crlf);
    std::string_view line = head.substr(0, line_end);
    auto first_space = line.find(' ');
    auto second_space = first_space == std::string_view::npos ? first_space : line.find(' ', first_space + 1);
    if (second_space == std::string_view::npos)
        return fail(400, "Malformed request line; expected 'METHOD /path HTTP/1.1'");
    std::string_view method = line.substr(0, first_space);
    std::string_view target = line.substr(first_space + 1, second_space - first_space - 1);
    std::string_view version = line.substr(second_space + 1);
    if (method.empty() || target.empty())
        return fail(400, "Malformed request line; expected 'METHOD /path HTTP/1.1'");
    for (char c : method)
        if (!is_token_char(c)) return fail(400, "Malformed request method; expected a token such as POST");
    for (char c : target)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
            return fail(400, "Malformed request target: it must not hold spaces or control characters");
    if (version == "HTTP/1.1") {
        request_.version = 11;
    } else if (version == "HTTP/1.0") {
        request_.version = 10;
    } else if (version.size() == 8 && version.substr(0, 5) == "HTTP/" && version[6] == '.') {
        return fail(505, "HTTP version " + std::string(version.substr(5)) + " is not supported; use HTTP/1.1");
    } else {
        return fail(400, "Malformed request line; expected 'METHOD /path HTTP/1.1'");
    }
    method_length_ = method.size();
    target_start_ = first_space + 1;
    target_length_ = target.size();

    bool has_length = false, has_transfer_encoding = false, close = false, keep_alive = false;
    std::size_t position = line_end + 2;
    while (position < head.size()) {
        auto end = head.find(crlf, position);
        std::string_view field = head.substr(position, end - position);
        if (is_ows(field.front()))
            return fail(400, "Header field line starts with whitespace (obsolete line folding); send each field on one line");
        auto colon = field.find(':');
        if (colon == std::string_view::npos || colon == 0)
            return fail(400, "Malformed header field line; expected 'Name: value'");
        std::string_view name = field.substr(0, colon);
        for (char c : name)
            if (!is_token_char(c))
                return fail(400, "Malformed header field name \"" + std::string(name) +
                                     "\"; no spaces are allowed before the colon");
        std::string_view raw_value = field.substr(colon + 1);
        if (std::memchr(raw_value.data(), '\n', raw_value.size()) || std::memchr(raw_value.data(), '\r', raw_value.size()) ||
            std::memchr(raw_value.data(), '\0', raw_value.size()))
            return fail(400, "Header field " + std::string(name) + " holds a bare CR, LF or NUL; end lines with CRLF");
        std::string_view value = trim_ows(raw_value);
        std::size_t value_start = position + colon + 1 + static_cast<std::size_t>(value.data() - raw_value.data());
        field_offsets_.push_back(FieldOffsets{position, name.size(), value_start, value.size()});

        // Only four names matter here; most fields are told apart by their length alone.
        if (field_name_is(name, "content-length")) {
            std::size_t length = 0;
            if (!parse_decimal(value, length))
                return fail(400, "Content-Length \"" + std::string(value) + "\" is not a number of bytes");
            if (has_length && length != content_length_)
                return fail(400, "Conflicting Content-Length fields; send exactly one");
            has_length = true;
            content_length_ = length;
        } else if (field_name_is(name, "transfer-encoding")) {
            bool only_chunked = true;
            int codings = 0;
            for_each_token(value, [&](std::string_view coding) {
                ++codings;
                if (!equals_case_insensitive(coding, "chunked")) only_chunked = false;
            });
            if (!only_chunked || codings != 1 || has_transfer_encoding)
                return fail(501, "Transfer-Encoding \"" + std::string(value) +
                                     "\" is not supported; send the body with Content-Length or chunked");
            has_transfer_encoding = true;
        } else if (field_name_is(name, "connection")) {
            for_each_token(value, [&](std::string_view option) {
                if (equals_case_insensitive(option, "close")) close = true;
                if (equals_case_insensitive(option, "keep-alive")) keep_alive = true;
            });
        } else if (field_name_is(name, "expect")) {
            if (equals_case_insensitive(value, "100-continue")) expects_continue_ = request_.version == 11;
        }
        position = end + 2;
    }
    if (has_length && has_transfer_encoding)
        return fail(400, "Both Content-Length and Transfer-Encoding were sent; send only one");
    if (has_transfer_encoding && request_.version == 10)
        return fail(400, "Transfer-Encoding is not allowed in an HTTP/1.0 request; send Content-Length");
    if (content_length_ > max_body_bytes_)
        return fail(413, "Request body exceeds " + std::to_string(max_body_bytes_) + " bytes; send smaller messages");
    chunked_ = has_transfer_encoding;
    request_.keep_alive = request_.version == 11 ? !close : (keep_alive && !close);
    return Status::incomplete;
}

HttpRequestParser::Status HttpRequestParser::parse_chunked(std::string_view input) {
    for (;;) {
        switch (chunk_state_) {
        case ChunkState::size_line: {
            auto end = input.find(crlf, chunk_position_);
            if (end == std::string_view::npos) {
                if (input.size() - chunk_position_ > max_chunk_line + 1)  // the line and its CR
                    return fail(400, "Chunk size line too long; send 'HEX-SIZE CRLF' before each chunk");
                return Status::incomplete;
            }
            std::string_view line = input.substr(chunk_position_, end - chunk_position_);
            if (line.size() > max_chunk_line)  // the same limit whether or not the line end has come
                return fail(400, "Chunk size line too long; send 'HEX-SIZE CRLF' before each chunk");
            std::size_t size = 0, digits = 0;
            for (; digits < line.size(); ++digits) {
                int digit = hex_digit(line[digits]);
                if (digit < 0) break;
                if (size > (std::numeric_limits<std::size_t>::max() >> 4)) return fail(413, "Chunk size too large");
                size = size * 16 + static_cast<std::size_t>(digit);
            }
            // Whatever follows the size must be a chunk extension, which carries nothing we use.
            std::string_view rest = line.substr(digits);
            while (!rest.empty() && is_ows(rest.front())) rest.remove_prefix(1);
            if (digits == 0 || (!rest.empty() && rest.front() != ';'))
                return fail(400, "Malformed chunk size \"" + std::string(line.substr(0, 32)) + "\"; expected hexadecimal digits");
            if (size > max_body_bytes_ - chunked_body_.size())
                return fail(413, "Request body exceeds " + std::to_string(max_body_bytes_) + " bytes; send smaller messages");
            chunk_framing_bytes_ += line.size() + 2;
            if (chunk_framing_bytes_ > max_body_bytes_)
                return fail(413, "Chunk sizes and extensions exceed " + std::to_string(max_body_bytes_) +
                                     " bytes; send fewer, larger chunks without extensions");
            chunk_position_ = end + 2;
            chunk_remaining_ = size;
            chunk_state_ = size == 0 ? ChunkState::trailers : ChunkState::data;
            trailers_start_ = chunk_position_;
            break;
        }
        case ChunkState::data: {
            std::size_t available = input.size() - chunk_position_;
            std::size_t take = available < chunk_remaining_ ? available : chunk_remaining_;
            chunked_body_.append(input.substr(chunk_position_, take));
            chunk_position_ += take;
            chunk_remaining_ -= take;
            if (chunk_remaining_ > 0) return Status::incomplete;
            chunk_state_ = ChunkState::data_end;
            break;
        }
        case ChunkState::data_end:
            if (input.size() - chunk_position_ < 2) return Status::incomplete;
            if (input.substr(chunk_position_, 2) != crlf)
                return fail(400, "Chunk data is longer than its size, or lacks its CRLF");
            chunk_position_ += 2;
            chunk_framing_bytes_ += 2;
            chunk_state_ = ChunkState::size_line;
            break;
        case ChunkState::trailers: {
            // Trailer fields are read past, not used; an empty line ends the message. All of them
            // together are bounded like a head, not each line alone.
            auto end = input.find(crlf, chunk_position_);
            if (end == std::string_view::npos) {
                if (input.size() - trailers_start_ > max_head_bytes_ + 1)
                    return fail(431, "Trailer fields exceed " + std::to_string(max_head_bytes_) + " bytes");
                return Status::incomplete;
            }
            if (end - trailers_start_ > max_head_bytes_)
                return fail(431, "Trailer fields exceed " + std::to_string(max_head_bytes_) + " bytes");
            bool blank = end == chunk_position_;
            chunk_position_ = end + 2;
            if (blank) return finish(input, chunked_body_, chunk_position_);
            break;
        }
        }
    }
}

HttpRequestParser::Status HttpRequestParser::finish(std::string_view input, std::string_view body, std::size_t end) {
    request_.method = input.substr(0, method_length_);
    request_.target = input.substr(target_start_, target_length_);
    request_.fields.clear();
    for (const auto& field : field_offsets_)
        request_.fields.push_back(HttpHeaderField{input.substr(field.name, field.name_length),
                                                  input.substr(field.value, field.value_length)});
    request_.body = body;
    consumed_ = end;
    return Status::complete;
}

}  // namespace mcp::http
