#pragma once
// RFC 6455 framing for the server side of the page's WebSocket: the handshake's accept key, the
// frames the host writes (unmasked, never fragmented) and a reader that turns whatever pieces the
// network delivers into messages and control frames, checking everything a client may get wrong.
//
// Why not Beast's websocket stream: it writes each message with its own system call and keeps a
// timer and buffers per connection. The host writes every frame a tick produced in one gather
// write, and an idle page costs a socket and a few pointers (see WebSocketClient).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mcpkit::host::websocket {

enum class Opcode : std::uint8_t { continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10 };

/// Close codes the host sends (RFC 6455 §7.4.1).
enum CloseCode : std::uint16_t {
    normal = 1000,
    going_away = 1001,
    protocol_error = 1002,
    invalid_payload = 1007,
    too_big = 1009,
};

/// Sec-WebSocket-Accept for a client's Sec-WebSocket-Key; nothing when the key is not the base64
/// of 16 bytes.
std::optional<std::string> accept_key(std::string_view client_key);

/// The header of an unmasked frame with FIN set, written into `out` (room for 10 bytes); its size.
std::size_t frame_header(Opcode opcode, std::size_t payload_size, std::uint8_t* out);

/// A close frame's payload: the code, then the reason (cut to fit a control frame).
std::string close_payload(std::uint16_t code, std::string_view reason);

bool valid_utf8(std::string_view text);

/// What the reader found in the bytes it was given.
struct FrameEvent {
    enum class Kind { text, binary, ping, pong, close, failed } kind;
    /// The message (text, binary), the control frame's payload (ping, pong), the reason (close,
    /// failed). Valid only during the callback.
    std::string_view payload;
    /// close: the client's code (1005 when it gave none); failed: the code to close with.
    std::uint16_t code = 0;
};

/// Reassembles a client's messages. Bytes are fed as they arrive, in any pieces; complete frames
/// are handled in place (unmasked where they lie) and a message in one frame is handed over
/// without a copy. After a failure, or once told to drain, data frames are skipped unread, but
/// control frames are still reported, so that the client's close frame can end the handshake.
class FrameReader {
public:
    explicit FrameReader(std::size_t max_message_bytes) : max_message_bytes_(max_message_bytes) {}

    /// Handles every complete frame at the start of `bytes` (unmasking them in place); returns how
    /// many bytes were used. The rest is the start of a frame: give it again with what follows.
    std::size_t feed(std::span<char> bytes, const std::function<void(const FrameEvent&)>& on_event);

    /// Ignore data from now on (the host is closing the connection).
    void drain() { draining_ = true; }
    bool draining() const { return draining_; }
    /// Nothing held: no message half assembled.
    bool idle() const { return message_.empty() && !in_message_; }

private:
    std::size_t max_message_bytes_;
    std::string message_;  ///< the fragments of a message so far
    bool in_message_ = false;
    bool message_is_text_ = false;
    bool draining_ = false;
    bool broken_ = false;  ///< a protocol error: nothing after it can be parsed
    std::uint64_t skipping_ = 0;  ///< payload bytes still to skip (a frame read only to be dropped)
};

}  // namespace mcpkit::host::websocket
