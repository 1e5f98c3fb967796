// libFuzzer target: arbitrary bytes as what a client sends the Streamable HTTP endpoint, through
// the request parser. Whatever arrives, nothing may crash or read outside the input, and the
// outcome must not depend on how the bytes were split across reads.

#include "transport/http/HttpRequestParser.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

using mcp::http::HttpRequestParser;

struct Outcome {
    HttpRequestParser::Status status;
    std::size_t consumed = 0;
    std::string method, target, body;
    std::size_t fields = 0;
    int error_status = 0;
};

/// Parses `input` as reads of `step` bytes, each parse seeing everything read so far.
Outcome parse_in_reads(std::string_view input, std::size_t step) {
    HttpRequestParser parser(4096, 4096);
    Outcome outcome{HttpRequestParser::Status::incomplete};
    for (std::size_t end = std::min(step, input.size());; end = std::min(end + step, input.size())) {
        std::string_view seen = input.substr(0, end);
        outcome.status = parser.parse(seen);
        if (outcome.status == HttpRequestParser::Status::complete) {
            const auto& request = parser.request();
            if (parser.consumed() > seen.size()) std::abort();
            for (const auto& field : request.fields)
                if (field.name.data() < seen.data() || field.value.data() + field.value.size() > seen.data() + seen.size())
                    std::abort();
            outcome.consumed = parser.consumed();
            outcome.method = request.method;
            outcome.target = request.target;
            outcome.body = request.body;
            outcome.fields = request.fields.size();
        }
        if (outcome.status == HttpRequestParser::Status::failed) {
            outcome.error_status = parser.error().status;
            if (parser.error().message.empty()) std::abort();
        }
        if (outcome.status != HttpRequestParser::Status::incomplete || end == input.size()) break;
    }
    return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    // The first byte picks how the rest is split into reads.
    std::size_t step = 1 + data[0] % 64;
    std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
    Outcome whole = parse_in_reads(input, input.size() + 1);
    Outcome split = parse_in_reads(input, step);
    // A request complete in one read is complete, and the same, however it was split; a refusal
    // may come earlier when split (a limit is crossed before the whole input is seen), never later.
    if (whole.status == HttpRequestParser::Status::complete) {
        if (split.status != whole.status || split.consumed != whole.consumed || split.method != whole.method ||
            split.target != whole.target || split.body != whole.body || split.fields != whole.fields)
            std::abort();
    }
    if (whole.status == HttpRequestParser::Status::failed && split.status == HttpRequestParser::Status::complete)
        std::abort();
    return 0;
}
