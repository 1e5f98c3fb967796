// RFC 6455 framing on the host's side: the accept key, frame headers, and the reader that turns
// a client's bytes, cut anywhere, into messages, refusing what a client must not send.

#include "host/web/WebSocketFrames.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mcpkit::host::websocket {
namespace {

/// A client frame: masked with a fixed key, as a browser sends it.
std::string client_frame(unsigned opcode, std::string_view payload, bool fin = true, unsigned first_bits = 0) {
    std::string frame;
    frame += static_cast<char>((fin ? 0x80 : 0) | first_bits | opcode);
    if (payload.size() < 126) {
        frame += static_cast<char>(0x80 | payload.size());
    } else if (payload.size() <= 0xffff) {
        frame += static_cast<char>(0x80 | 126);
        frame += static_cast<char>(payload.size() >> 8);
        frame += static_cast<char>(payload.size() & 0xff);
    } else {
        frame += static_cast<char>(0x80 | 127);
        for (int i = 0; i < 8; ++i) frame += static_cast<char>(static_cast<std::uint64_t>(payload.size()) >> (56 - 8 * i));
    }
    const char key[4] = {0x12, 0x34, 0x56, 0x78};
    frame.append(key, 4);
    for (std::size_t i = 0; i < payload.size(); ++i) frame += static_cast<char>(payload[i] ^ key[i % 4]);
    return frame;
}

struct Seen {
    FrameEvent::Kind kind;
    std::string payload;
    std::uint16_t code;
    bool operator==(const Seen&) const = default;
};

/// Feeds `bytes` in pieces of `piece` bytes (keeping the unused rest, as the client does).
std::vector<Seen> read_all(FrameReader& reader, const std::string& bytes, std::size_t piece) {
    std::vector<Seen> seen;
    std::string pending;
    for (std::size_t at = 0; at < bytes.size(); at += piece) {
        pending += bytes.substr(at, piece);
        std::size_t used = reader.feed(std::span<char>(pending.data(), pending.size()), [&](const FrameEvent& event) {
            seen.push_back({event.kind, std::string(event.payload), event.code});
        });
        pending.erase(0, used);
    }
    return seen;
}

TEST(WebSocketFrames, AcceptKeyIsTheRfcExample) {
    EXPECT_EQ(accept_key("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    EXPECT_FALSE(accept_key("short"));
    EXPECT_FALSE(accept_key("not base64 at all!!!!!=="));
}

TEST(WebSocketFrames, HeadersUseTheShortestLengthForm) {
    std::uint8_t header[10];
    EXPECT_EQ(frame_header(Opcode::text, 125, header), 2u);
    EXPECT_EQ(header[0], 0x81);
    EXPECT_EQ(header[1], 125);
    EXPECT_EQ(frame_header(Opcode::text, 126, header), 4u);
    EXPECT_EQ(header[1], 126);
    EXPECT_EQ((header[2] << 8) | header[3], 126);
    EXPECT_EQ(frame_header(Opcode::ping, 70000, header), 10u);
    EXPECT_EQ(header[0], 0x89);
    EXPECT_EQ(header[1], 127);
    EXPECT_EQ((header[7] << 16) | (header[8] << 8) | header[9], 70000);
}

TEST(WebSocketFrames, MessagesArriveWholeHoweverTheBytesAreCut) {
    std::string big(70000, 'x');
    std::string bytes = client_frame(1, R"({"type":"message"})") + client_frame(9, "are you there") +
                        client_frame(1, "frag", false) + client_frame(10, "") + client_frame(0, "men", false) +
                        client_frame(0, "ted") + client_frame(1, big) + client_frame(2, "\x01\x02");
    std::vector<Seen> expected{{FrameEvent::Kind::text, R"({"type":"message"})", 0},
                               {FrameEvent::Kind::ping, "are you there", 0},
                               {FrameEvent::Kind::pong, "", 0},
                               {FrameEvent::Kind::text, "fragmented", 0},
                               {FrameEvent::Kind::text, big, 0},
                               {FrameEvent::Kind::binary, "\x01\x02", 0}};
    for (std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{1000}, bytes.size()}) {
        FrameReader reader(1u << 20);
        EXPECT_EQ(read_all(reader, bytes, piece), expected) << "in pieces of " << piece;
        EXPECT_TRUE(reader.idle());
    }
}

TEST(WebSocketFrames, AMessageOverTheLimitFailsWith1009AndTheCloseFrameIsStillSeen) {
    FrameReader reader(1000);
    std::string bytes = client_frame(1, std::string(1001, 'a')) + client_frame(1, "dropped") +
                        client_frame(8, std::string("\x03\xe8", 2) + "bye");
    for (std::size_t piece : {std::size_t{5}, bytes.size()}) {
        FrameReader fresh(1000);
        auto seen = read_all(fresh, bytes, piece);
        ASSERT_EQ(seen.size(), 2u) << "in pieces of " << piece;
        EXPECT_EQ(seen[0], (Seen{FrameEvent::Kind::failed, "messages are limited to 1000 bytes", too_big}));
        EXPECT_EQ(seen[1], (Seen{FrameEvent::Kind::close, "bye", 1000}));
    }
    // Fragments count together.
    auto seen = read_all(reader, client_frame(1, std::string(600, 'a'), false) + client_frame(0, std::string(600, 'b')), 64);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].code, too_big);
}

TEST(WebSocketFrames, WhatAClientMustNotSendIsAProtocolError) {
    struct Case {
        std::string bytes;
        std::uint16_t code;
        std::string why;
    };
    std::string unmasked = client_frame(1, "hi");
    unmasked[1] = static_cast<char>(unmasked[1] & 0x7f);
    for (const auto& [bytes, code, why] : std::vector<Case>{
             {unmasked, protocol_error, "masked"},
             {client_frame(1, "hi", true, 0x40), protocol_error, "reserved bits"},
             {client_frame(3, "hi"), protocol_error, "unknown opcode"},
             {client_frame(9, "ping", false), protocol_error, "control frames"},
             {client_frame(9, std::string(126, 'p')), protocol_error, "control frames"},
             {client_frame(0, "orphan"), protocol_error, "continuation"},
             {client_frame(1, "a", false) + client_frame(1, "b"), protocol_error, "new message"},
             {client_frame(8, "x"), protocol_error, "two-byte code"},
             {client_frame(8, "\x03\xed"), protocol_error, "close code"},
             {client_frame(1, "\xc3\x28"), invalid_payload, "UTF-8"},
             {client_frame(1, "\xed\xa0\x80"), invalid_payload, "UTF-8"},
             {client_frame(1, "\xe2\x82", false) + client_frame(0, "\xac"), std::uint16_t{0}, ""},
         }) {
        FrameReader reader(1u << 20);
        auto seen = read_all(reader, bytes + client_frame(1, "after"), 2);
        ASSERT_FALSE(seen.empty()) << why;
        if (code == 0) {
            // A character split across fragments is fine (U+20AC).
            EXPECT_EQ(seen[0], (Seen{FrameEvent::Kind::text, "\xe2\x82\xac", 0}));
            continue;
        }
        EXPECT_EQ(seen[0].kind, FrameEvent::Kind::failed) << why;
        EXPECT_EQ(seen[0].code, code) << why;
        EXPECT_NE(seen[0].payload.find(why), std::string::npos) << seen[0].payload;
        EXPECT_TRUE(reader.draining());
    }
}

TEST(WebSocketFrames, Utf8ValidationKnowsTheEdges) {
    EXPECT_TRUE(valid_utf8("plain ascii, long enough to take the eight-byte path"));
    EXPECT_TRUE(valid_utf8("\xf0\x9f\x98\x80 \xe2\x82\xac \xc3\xa9"));
    EXPECT_FALSE(valid_utf8("\xc0\xaf"));          // overlong
    EXPECT_FALSE(valid_utf8("\xe0\x80\xaf"));      // overlong
    EXPECT_FALSE(valid_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
    EXPECT_FALSE(valid_utf8("abc\xe2\x82"));       // cut short
    EXPECT_EQ(close_payload(1009, std::string(200, 'r')).size(), 125u);
}

}  // namespace
}  // namespace mcpkit::host::websocket
