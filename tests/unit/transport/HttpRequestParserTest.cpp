#include "transport/http/HttpRequestParser.hpp"
#include "transport/http/AsciiCase.hpp"

#include <gtest/gtest.h>

#include <string>

using mcp::http::HttpRequestParser;
using Status = HttpRequestParser::Status;

namespace {

constexpr std::size_t max_head = 1024;
constexpr std::size_t max_body = 64;

/// Feeds `wire` to a fresh parser `step` bytes at a time, as a socket might deliver it.
Status parse_in_steps(HttpRequestParser& parser, const std::string& wire, std::size_t step) {
    Status status = Status::incomplete;
    for (std::size_t end = step; status == Status::incomplete; end += step) {
        status = parser.parse(std::string_view(wire).substr(0, std::min(end, wire.size())));
        if (end >= wire.size()) break;
    }
    return status;
}

std::string field(const HttpRequestParser& parser, std::string_view lowercase_name) {
    for (const auto& [name, value] : parser.request().fields)
        if (mcp::http::field_name_is(name, lowercase_name)) return std::string(value);
    return "<absent>";
}

}  // namespace

TEST(HttpRequestParser, ReadsAPostWithContentLengthSplitAtEveryByte) {
    std::string wire =
        "POST /mcp?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type:application/json \r\n"
        "Mcp-Session-Id: \t abc \r\nContent-Length: 7\r\n\r\n{\"a\":1}";
    for (std::size_t step : {1u, 2u, 3u, 7u, 1000u}) {
        HttpRequestParser parser(max_head, max_body);
        ASSERT_EQ(parse_in_steps(parser, wire, step), Status::complete) << "step " << step;
        const auto& request = parser.request();
        EXPECT_EQ(request.method, "POST");
        EXPECT_EQ(request.target, "/mcp?x=1");
        EXPECT_EQ(request.version, 11u);
        EXPECT_TRUE(request.keep_alive);
        EXPECT_EQ(request.body, "{\"a\":1}");
        EXPECT_EQ(field(parser, "host"), "127.0.0.1:8080");
        EXPECT_EQ(field(parser, "content-type"), "application/json");
        EXPECT_EQ(field(parser, "mcp-session-id"), "abc");
        EXPECT_EQ(parser.consumed(), wire.size());
    }
}

TEST(HttpRequestParser, LeavesAPipelinedRequestForTheNextParse) {
    std::string first = "GET /mcp HTTP/1.1\r\nHost: h\r\n\r\n";
    std::string wire = first + "DELETE /mcp HTTP/1.1\r\nHost: h\r\n\r\n";
    HttpRequestParser parser(max_head, max_body);
    ASSERT_EQ(parser.parse(wire), Status::complete);
    EXPECT_EQ(parser.request().method, "GET");
    EXPECT_EQ(parser.request().body, "");
    ASSERT_EQ(parser.consumed(), first.size());
    parser.reset();
    ASSERT_EQ(parser.parse(std::string_view(wire).substr(first.size())), Status::complete);
    EXPECT_EQ(parser.request().method, "DELETE");
}

TEST(HttpRequestParser, DecodesChunkedBodiesWithExtensionsAndTrailers) {
    std::string wire =
        "POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        "4;name=value\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\nX-Trailer: t\r\n\r\nNEXT";
    for (std::size_t step : {1u, 5u, 1000u}) {
        HttpRequestParser parser(max_head, max_body);
        ASSERT_EQ(parse_in_steps(parser, wire, step), Status::complete) << "step " << step;
        EXPECT_EQ(parser.request().body, "{\"a\":1}");
        EXPECT_EQ(parser.consumed(), wire.size() - 4);
    }
}

TEST(HttpRequestParser, KeepAliveFollowsVersionAndConnectionTokens) {
    struct Case {
        std::string head;
        bool keep_alive;
    };
    for (const auto& [head, keep_alive] : {Case{"GET / HTTP/1.1\r\n\r\n", true},
                                           Case{"GET / HTTP/1.1\r\nConnection: upgrade, Close\r\n\r\n", false},
                                           Case{"GET / HTTP/1.0\r\n\r\n", false},
                                           Case{"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true}}) {
        HttpRequestParser parser(max_head, max_body);
        ASSERT_EQ(parser.parse(head), Status::complete) << head;
        EXPECT_EQ(parser.request().keep_alive, keep_alive) << head;
    }
}

TEST(HttpRequestParser, AsksForAnInterimResponseWhenTheClientExpectsOne) {
    HttpRequestParser parser(max_head, max_body);
    std::string head = "POST /mcp HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n";
    ASSERT_EQ(parser.parse(head), Status::incomplete);
    EXPECT_TRUE(parser.wants_continue());
    parser.continue_sent();
    EXPECT_FALSE(parser.wants_continue());
    std::string whole = head + "{}";  // the request's views point into it
    ASSERT_EQ(parser.parse(whole), Status::complete);
    EXPECT_EQ(parser.request().body, "{}");
}

TEST(HttpRequestParser, RefusesMalformedAndAmbiguousRequestsNamingTheProblem) {
    struct Case {
        std::string wire;
        int status;
        std::string says;
    };
    const Case cases[] = {
        {"POST /mcp\r\n\r\n", 400, "request line"},
        {"PO ST /mcp HTTP/1.1\r\n\r\n", 400, "request line"},
        {"GET /a b HTTP/1.1\r\n\r\n", 400, "request line"},
        {"GET /mcp HTTP/2.0\r\n\r\n", 505, "HTTP version 2.0"},
        {"GET /mcp FTP/1.1\r\n\r\n", 400, "request line"},
        {"GET /mcp HTTP/1.1\r\nHost : h\r\n\r\n", 400, "before the colon"},
        {"GET /mcp HTTP/1.1\r\nNoColon\r\n\r\n", 400, "'Name: value'"},
        {"GET /mcp HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", 400, "line folding"},
        {"GET /mcp HTTP/1.1\r\nA: b\nB: c\r\n\r\n", 400, "bare CR, LF"},
        {"POST /mcp HTTP/1.1\r\nContent-Length: 12abc\r\n\r\n", 400, "not a number"},
        {"POST /mcp HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n", 400, "Conflicting"},
        {"POST /mcp HTTP/1.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "only one"},
        {"POST /mcp HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501, "not supported"},
        {"POST /mcp HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "HTTP/1.0"},
        {"POST /mcp HTTP/1.1\r\nContent-Length: 65\r\n\r\n", 413, "exceeds 64 bytes"},
        {"POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400, "chunk size"},
        {"POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", 400, "longer than its size"},
        {"POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" + std::string(64, 'x') + "\r\n1\r\n", 413,
         "exceeds 64 bytes"},
        {"GET /mcp HTTP/1.1\r\nBig: " + std::string(2000, 'x') + "\r\n\r\n", 431, "exceeds 1024 bytes"},
    };
    for (const auto& [wire, status, says] : cases) {
        HttpRequestParser parser(max_head, max_body);
        ASSERT_EQ(parser.parse(wire), Status::failed) << wire;
        EXPECT_EQ(parser.error().status, status) << wire;
        EXPECT_NE(parser.error().message.find(says), std::string::npos) << wire << " -> " << parser.error().message;
    }
}

TEST(HttpRequestParser, RefusesAHeadThatNeverEndsOnceItPassesTheLimit) {
    HttpRequestParser parser(max_head, max_body);
    std::string wire = "GET /mcp HTTP/1.1\r\n";
    while (wire.size() <= max_head) {
        ASSERT_EQ(parser.parse(wire), Status::incomplete);
        wire += "X: y\r\n";
    }
    ASSERT_EQ(parser.parse(wire), Status::failed);
    EXPECT_EQ(parser.error().status, 431);
}

TEST(HttpRequestParser, FieldNamesCompareWithoutCase) {
    EXPECT_TRUE(mcp::http::field_name_is("MCP-Session-Id", "mcp-session-id"));
    EXPECT_TRUE(mcp::http::field_name_is("content-length", "content-length"));
    EXPECT_FALSE(mcp::http::field_name_is("Content-Lengths", "content-length"));
    EXPECT_FALSE(mcp::http::field_name_is("Content_Length", "content-length"));
}

// The connection keeps a request's raw bytes until it is complete: trailers that never end, or
// chunks that are mostly extension, must be refused at a bound, not buffered without end.
TEST(HttpRequestParser, RefusesTrailersThatNeverEndOnceTheyPassTheHeadLimit) {
    HttpRequestParser parser(max_head, max_body);
    std::string wire = "POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n";
    std::size_t trailers_start = wire.size();
    while (wire.size() - trailers_start <= max_head) {
        ASSERT_EQ(parser.parse(wire), Status::incomplete);
        wire += "X: y\r\n";  // each line short, the section without end
    }
    ASSERT_EQ(parser.parse(wire), Status::failed);
    EXPECT_EQ(parser.error().status, 431);
}

TEST(HttpRequestParser, RefusesChunkFramingLargerThanTheBodyLimit) {
    HttpRequestParser parser(max_head, max_body);
    std::string wire = "POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
    Status status = Status::incomplete;
    for (std::size_t chunks = 0; status == Status::incomplete && chunks < max_body; ++chunks) {
        wire += "1;padding-extension\r\na\r\n";  // one byte of data, twenty of framing
        status = parser.parse(wire);
    }
    ASSERT_EQ(status, Status::failed);
    EXPECT_EQ(parser.error().status, 413);
    EXPECT_NE(parser.error().message.find("fewer, larger chunks"), std::string::npos) << parser.error().message;
}
