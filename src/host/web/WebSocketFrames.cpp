#include "host/web/WebSocketFrames.hpp"

// Beast's own SHA-1 and base64, as its websocket stream uses them: OpenSSL's would load and
// initialise libcrypto (2 MB of resident code) for a 60-byte digest.
#include <boost/beast/core/detail/base64.hpp>
#include <boost/beast/core/detail/sha1.hpp>

#include <algorithm>
#include <cstring>

namespace mcpkit::host::websocket {

std::optional<std::string> accept_key(std::string_view client_key) {
    namespace detail = boost::beast::detail;
    // 16 random bytes in base64: 22 characters and "==".
    if (client_key.size() != 24 || !client_key.ends_with("==")) return std::nullopt;
    unsigned char decoded[18];
    auto [written, read] = detail::base64::decode(decoded, client_key.data(), client_key.size());
    if (written != 16 || read < 22) return std::nullopt;  // the padding may be left unread
    detail::sha1_context context;
    detail::init(context);
    detail::update(context, client_key.data(), client_key.size());
    static constexpr std::string_view guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";  // RFC 6455 §1.3
    detail::update(context, guid.data(), guid.size());
    unsigned char digest[detail::sha1_context::digest_size];
    detail::finish(context, digest);
    std::string accept(detail::base64::encoded_size(sizeof digest), '\0');
    detail::base64::encode(accept.data(), digest, sizeof digest);
    return accept;
}

std::size_t frame_header(Opcode opcode, std::size_t payload_size, std::uint8_t* out) {
    out[0] = static_cast<std::uint8_t>(0x80 | static_cast<std::uint8_t>(opcode));
    if (payload_size < 126) {
        out[1] = static_cast<std::uint8_t>(payload_size);
        return 2;
    }
    if (payload_size <= 0xffff) {
        out[1] = 126;
        out[2] = static_cast<std::uint8_t>(payload_size >> 8);
        out[3] = static_cast<std::uint8_t>(payload_size);
        return 4;
    }
    out[1] = 127;
    for (int i = 0; i < 8; ++i) out[2 + i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(payload_size) >> (56 - 8 * i));
    return 10;
}

std::string close_payload(std::uint16_t code, std::string_view reason) {
    std::string payload;
    payload += static_cast<char>(code >> 8);
    payload += static_cast<char>(code & 0xff);
    reason = reason.substr(0, 123);
    // Not cut inside a UTF-8 sequence.
    while (!reason.empty() && !valid_utf8(reason)) reason.remove_suffix(1);
    payload += reason;
    return payload;
}

bool valid_utf8(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        // ASCII runs, eight bytes at a time.
        while (i + 8 <= n) {
            std::uint64_t block;
            std::memcpy(&block, s + i, 8);
            if (block & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= n) break;
        unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t extra;
        std::uint32_t code;
        if (c >= 0xc2 && c <= 0xdf) extra = 1, code = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef) extra = 2, code = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4) extra = 3, code = c & 0x07;
        else return false;
        if (n - i <= extra) return false;
        for (std::size_t k = 1; k <= extra; ++k) {
            if ((s[i + k] & 0xc0) != 0x80) return false;
            code = (code << 6) | (s[i + k] & 0x3f);
        }
        // Overlong forms, surrogates and code points past U+10FFFF.
        if ((extra == 2 && code < 0x800) || (extra == 3 && (code < 0x10000 || code > 0x10ffff)) ||
            (code >= 0xd800 && code <= 0xdfff))
            return false;
        i += extra + 1;
    }
    return true;
}

namespace {

void unmask(char* payload, std::size_t size, const unsigned char* key) {
    std::uint64_t wide;
    unsigned char repeated[8];
    for (int i = 0; i < 8; ++i) repeated[i] = key[i % 4];
    std::memcpy(&wide, repeated, 8);
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        std::uint64_t block;
        std::memcpy(&block, payload + i, 8);
        block ^= wide;
        std::memcpy(payload + i, &block, 8);
    }
    for (; i < size; ++i) payload[i] = static_cast<char>(payload[i] ^ key[i % 4]);
}

std::string size_text(std::size_t bytes) {
    if (bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

bool valid_close_code(std::uint16_t code) {
    if (code >= 3000 && code <= 4999) return true;
    return code >= 1000 && code <= 1014 && code != 1004 && code != 1005 && code != 1006;
}

}  // namespace

std::size_t FrameReader::feed(std::span<char> bytes, const std::function<void(const FrameEvent&)>& on_event) {
    char* data = bytes.data();
    const std::size_t size = bytes.size();
    std::size_t at = 0;
    auto fail = [&](std::uint16_t code, std::string_view why) {
        on_event({FrameEvent::Kind::failed, why, code});
        draining_ = true;
    };
    for (;;) {
        if (broken_) return size;  // nothing more can be understood: everything is dropped
        if (skipping_ > 0) {
            std::size_t skip = static_cast<std::size_t>(std::min<std::uint64_t>(skipping_, size - at));
            at += skip;
            skipping_ -= skip;
            if (skipping_ > 0) return at;
        }
        if (size - at < 2) return at;
        auto first = static_cast<unsigned char>(data[at]);
        auto second = static_cast<unsigned char>(data[at + 1]);
        bool fin = first & 0x80;
        unsigned opcode = first & 0x0f;
        std::uint64_t length = second & 0x7f;
        std::size_t header = 2;
        if (length == 126) {
            if (size - at < 4) return at;
            length = (std::uint64_t{static_cast<unsigned char>(data[at + 2])} << 8) | static_cast<unsigned char>(data[at + 3]);
            header = 4;
        } else if (length == 127) {
            if (size - at < 10) return at;
            length = 0;
            for (int i = 0; i < 8; ++i) length = (length << 8) | static_cast<unsigned char>(data[at + 2 + i]);
            header = 10;
        }
        bool control = opcode >= 8;
        const char* problem = nullptr;
        if (first & 0x70) problem = "reserved bits set, but no extension was agreed";
        else if (!(second & 0x80)) problem = "a client's frames must be masked";
        else if (opcode > 2 && opcode != 8 && opcode != 9 && opcode != 10) problem = "unknown opcode";
        else if (control && (!fin || length > 125)) problem = "control frames must be whole and at most 125 bytes";
        else if (length >> 63) problem = "frame length out of range";
        else if (!control && !draining_ && opcode == 0 && !in_message_) problem = "a continuation frame with no message to continue";
        else if (!control && !draining_ && opcode != 0 && in_message_) problem = "a new message began before the last one ended";
        if (problem) {
            fail(protocol_error, problem);
            broken_ = true;
            return size;
        }
        header += 4;  // the masking key
        if (!control && draining_) {
            // Dropped as it arrives, however long: only a control frame can matter now.
            if (size - at < header) return at;
            at += header;
            skipping_ = length;
            continue;
        }
        if (!control && message_.size() + length > max_message_bytes_) {
            fail(too_big, "messages are limited to " + size_text(max_message_bytes_));
            message_.clear();
            message_.shrink_to_fit();
            in_message_ = false;
            if (size - at < header) {
                // The rest of its header comes next; it is skipped with the payload.
                skipping_ = header - (size - at) + length;
                return size;
            }
            at += header;
            skipping_ = length;
            continue;
        }
        if (size - at < header + length) return at;
        const auto* key = reinterpret_cast<const unsigned char*>(data + at + header - 4);
        char* payload = data + at + header;
        auto payload_size = static_cast<std::size_t>(length);
        unmask(payload, payload_size, key);
        at += header + payload_size;
        std::string_view view(payload, payload_size);
        if (opcode == 9) {
            on_event({FrameEvent::Kind::ping, view});
        } else if (opcode == 10) {
            on_event({FrameEvent::Kind::pong, view});
        } else if (opcode == 8) {
            if (payload_size == 1) {
                fail(protocol_error, "a close frame's payload is a two-byte code, then a reason");
                broken_ = true;
                return size;
            }
            std::uint16_t code = 1005;
            std::string_view reason;
            if (payload_size >= 2) {
                code = static_cast<std::uint16_t>((static_cast<unsigned char>(payload[0]) << 8) | static_cast<unsigned char>(payload[1]));
                reason = view.substr(2);
                if (!valid_close_code(code)) {
                    fail(protocol_error, "invalid close code");
                    broken_ = true;
                    return size;
                }
                if (!valid_utf8(reason)) {
                    fail(invalid_payload, "a close reason must be UTF-8");
                    broken_ = true;
                    return size;
                }
            }
            draining_ = true;
            on_event({FrameEvent::Kind::close, reason, code});
        } else if (draining_) {
            // A data frame after our close: dropped (reached only when it came whole).
        } else if (fin && opcode != 0) {
            bool text = opcode == 1;
            if (text && !valid_utf8(view)) fail(invalid_payload, "text messages must be UTF-8");
            else on_event({text ? FrameEvent::Kind::text : FrameEvent::Kind::binary, view});
        } else {
            if (opcode != 0) {
                in_message_ = true;
                message_is_text_ = opcode == 1;
            }
            message_.append(view);
            if (fin) {
                in_message_ = false;
                std::string message = std::move(message_);
                message_ = {};
                if (message_is_text_ && !valid_utf8(message)) fail(invalid_payload, "text messages must be UTF-8");
                else on_event({message_is_text_ ? FrameEvent::Kind::text : FrameEvent::Kind::binary, message});
            }
        }
    }
}

}  // namespace mcpkit::host::websocket
