// libFuzzer target: arbitrary bytes as a model provider's answer — event data lines read by the
// host's OpenAI and Anthropic readers, with lone surrogate escapes mended on the way. A provider
// is outside the host's trust: whatever it sends, nothing may crash, read outside the input or
// allocate without bound, and the text, reasoning and arguments the host keeps (and later sends
// to its pages, whose WebSockets close on anything else) must be valid UTF-8.
//
// The first byte picks the reader ('A': Anthropic, 'G': Gemini, anything else: OpenAI); the rest
// is split at newlines into events.

#include "host/llm/AnthropicAnswerReader.hpp"
#include "host/llm/GeminiAnswerReader.hpp"
#include "host/llm/OpenAiAnswerReader.hpp"
#include "host/llm/ScratchJson.hpp"

#include <boost/json/serialize.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

using namespace mcpkit::host;

bool valid_utf8(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
        unsigned char first = byte(0);
        std::size_t length = first < 0x80 ? 1 : first >= 0xC2 && first <= 0xDF ? 2 : first >= 0xE0 && first <= 0xEF ? 3
                                              : first >= 0xF0 && first <= 0xF4 ? 4 : 0;
        if (!length || at + length > text.size()) return false;
        char32_t code = length == 1 ? first : first & (0xFF >> (length + 1));
        for (std::size_t i = 1; i < length; ++i) {
            if ((byte(i) & 0xC0) != 0x80) return false;
            code = (code << 6) | (byte(i) & 0x3F);
        }
        if ((length == 3 && (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF))) || (length == 4 && (code < 0x10000 || code > 0x10FFFF)))
            return false;
        at += length;
    }
    return true;
}

struct Collected : AnswerSink {
    std::string shown;
    void text(std::string_view piece) override { shown += piece; }
    void reasoning(std::string_view piece) override { shown += piece; }
};

template <typename Reader>
void read_events(std::string_view input) {
    Collected sink;
    ModelReply reply;
    StreamedAnswer answer(sink, reply);
    Reader reader(reply, answer);
    ScratchJson scratch;
    try {
        while (!input.empty()) {
            auto end = input.find('\n');
            std::string_view data = input.substr(0, end);
            input.remove_prefix(end == std::string_view::npos ? input.size() : end + 1);
            const boost::json::value* event = scratch.parse(data);
            if (event && event->is_object()) reader.read(event->get_object());
            answer.flush();
        }
        answer.finish();
        reader.finish();
    } catch (const ModelError&) {
        return;  // an error event: the answer fails, which is fine
    }
    if (!valid_utf8(reply.text) || !valid_utf8(reply.reasoning) || !valid_utf8(sink.shown) || !valid_utf8(reply.ending))
        std::abort();
    for (const auto& call : reply.tool_calls)
        if (!valid_utf8(call.name) || !valid_utf8(call.arguments_error) ||
            !valid_utf8(boost::json::serialize(call.arguments)))
            std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] == 'A') read_events<AnthropicAnswerReader>(input);
    else if (data[0] == 'G') read_events<GeminiAnswerReader>(input);
    else read_events<OpenAiAnswerReader>(input);
    return 0;
}
