#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Parses HTTP/1.x requests, as the Streamable HTTP endpoint needs them: the request line, the
// header fields, and a body framed by Content-Length or chunked transfer coding. It owns no socket:
// the connection appends what it reads to one buffer and calls parse() with all of it each time.
//
// Why not Beast's parser: it copied every header field into its own allocated list and looked each
// name up in a table, which cost more per echo call than the rest of the HTTP layer together. Here
// fields are views into the connection's buffer, and nothing is allocated for a request whose body
// comes with a Content-Length.
//
// Strict where leniency invites request smuggling (both Content-Length and Transfer-Encoding,
// conflicting lengths, obsolete line folding, bare LF line ends): those are refused with 400.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::http {

struct HttpHeaderField {
    std::string_view name;   ///< as sent (compare case-insensitively)
    std::string_view value;  ///< without surrounding whitespace
};

/// One request. Its views point into the buffer given to parse() (or the parser's own storage for
/// a chunked body): valid until that buffer changes or the parser is reset.
struct HttpRequest {
    std::string_view method;  ///< case-sensitive token: "POST", "GET" …
    std::string_view target;  ///< origin-form, with any query
    unsigned version = 11;    ///< 10 or 11
    bool keep_alive = true;   ///< per version and Connection tokens
    std::vector<HttpHeaderField> fields;
    std::string_view body;
};

/// Why a request could not be read, and the status that says so.
struct HttpParseError {
    int status = 400;     ///< 400, 413, 431, 501 or 505
    std::string message;  ///< names the problem and the fix
};

class HttpRequestParser {
public:
    enum class Status { incomplete, complete, failed };

    HttpRequestParser(std::size_t max_head_bytes, std::size_t max_body_bytes);

    /// Parses `input`, everything read so far from the start of this request (it may hold the start
    /// of the next one too). Call again with the grown buffer after `incomplete`; work already done
    /// is not repeated.
    Status parse(std::string_view input);

    const HttpRequest& request() const { return request_; }
    /// Bytes of the input the complete request took; the rest belongs to the next one.
    std::size_t consumed() const { return consumed_; }
    const HttpParseError& error() const { return error_; }
    /// The head is read, asked for `Expect: 100-continue`, and the body has not all come:
    /// the client waits for an interim 100 response before sending it.
    bool wants_continue() const { return head_done_ && expects_continue_ && !continue_sent_; }
    void continue_sent() { continue_sent_ = true; }

    /// Ready for the next request; keeps allocated capacity.
    void reset();

private:
    Status fail(int status, std::string message);
    Status parse_head(std::string_view head);
    Status parse_chunked(std::string_view input);
    Status finish(std::string_view input, std::string_view body, std::size_t end);

    struct FieldOffsets {
        std::size_t name, name_length, value, value_length;
    };

    std::size_t max_head_bytes_;
    std::size_t max_body_bytes_;
    HttpRequest request_;
    HttpParseError error_;
    std::size_t consumed_ = 0;

    // Head.
    std::size_t scanned_ = 0;  ///< where the search for the blank line resumes
    bool head_done_ = false;
    std::size_t head_length_ = 0;
    std::size_t method_length_ = 0, target_start_ = 0, target_length_ = 0;
    std::vector<FieldOffsets> field_offsets_;
    bool expects_continue_ = false;
    bool continue_sent_ = false;

    // Body.
    bool chunked_ = false;
    std::size_t content_length_ = 0;
    enum class ChunkState { size_line, data, data_end, trailers };
    ChunkState chunk_state_ = ChunkState::size_line;
    std::size_t chunk_position_ = 0;   ///< input offset of the next undecoded byte
    std::size_t chunk_remaining_ = 0;  ///< bytes left of the current chunk's data
    /// Size lines and CRLFs so far. The connection keeps the raw request until it is complete, so
    /// framing is bounded as well as data: at most as many bytes as the body limit.
    std::size_t chunk_framing_bytes_ = 0;
    std::size_t trailers_start_ = 0;  ///< input offset of the trailer section (all of it is bounded)
    std::string chunked_body_;
};

}  // namespace mcp::http
