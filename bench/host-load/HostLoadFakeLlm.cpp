// host_load fake-llm: a streamed OpenAI-compatible chat completions server for the host benchmark.
// Its answers and events are those of the tests' fake (tests/interop/fake-llm-formats.mjs,
// standard OpenAI, no quirks): the same chunks in the same order, deltas, tool-call fragments of
// five characters, text pieces of eight, usage when asked for, [DONE]; each event written on its
// own. Of the fake's commands only what the benchmark sends is understood: tool results,
// `call NAME JSON` and `echo WORDS`; anything else is answered "You said: …".

#include "HostLoadLoop.hpp"

#include <netinet/in.h>

#include <list>
#include <optional>

namespace host_load {
namespace {

/// Length as JavaScript counts it (UTF-16 units), which the fake's token estimates use.
std::size_t js_length(std::string_view text) {
    std::size_t units = 0;
    for (unsigned char c : text) {
        if ((c & 0xc0) != 0x80) ++units;
        if (c >= 0xf0) ++units;  // a code point beyond the BMP is two units
    }
    return units;
}

/// `text` in pieces of `size` code points.
std::vector<std::string> pieces(std::string_view text, std::size_t size) {
    std::vector<std::string> out;
    std::size_t count = 0;
    for (unsigned char c : text) {
        bool starts = (c & 0xc0) != 0x80;
        if (starts && count % size == 0) out.emplace_back();
        if (starts) ++count;
        out.back() += static_cast<char>(c);
    }
    return out;
}

std::string trim(std::string_view text) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    while (!text.empty() && space(text.front())) text.remove_prefix(1);
    while (!text.empty() && space(text.back())) text.remove_suffix(1);
    return std::string(text);
}

struct Call {
    std::string name;
    std::string arguments_text;
};

struct Plan {
    std::vector<std::string> pieces;
    std::vector<Call> calls;
};

std::string text_of(const json::value* content) {
    if (!content) return {};
    if (content->is_string()) return std::string(content->get_string());
    std::string text;
    if (content->is_array())
        for (const auto& part : content->get_array())
            if (part.is_object() && part.get_object().contains("type") && part.get_object().at("type") == "text")
                if (auto* piece = part.get_object().if_contains("text"); piece && piece->is_string()) text += piece->get_string();
    return text;
}

/// Lines `call NAME JSON`, as the tests' fake reads them (text before the first is said first).
std::optional<Plan> call_command(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (;;) {
        std::size_t end = text.find('\n', start);
        std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
        if (end == std::string::npos) break;
        start = end + 1;
    }
    auto call_line = [](const std::string& line) -> std::optional<Call> {
        std::string rest = trim(line);
        if (rest.rfind("call", 0) != 0 || rest.size() < 6 || (rest[4] != ' ' && rest[4] != '\t')) return std::nullopt;
        rest = trim(rest.substr(4));
        std::size_t space = rest.find_first_of(" \t");
        Call call{rest.substr(0, space), space == std::string::npos ? "" : trim(rest.substr(space))};
        return call;
    };
    std::size_t first = 0;
    while (first < lines.size() && !call_line(lines[first])) ++first;
    if (first == lines.size()) return std::nullopt;
    Plan plan;
    for (std::size_t i = first; i < lines.size(); ++i) {
        if (auto call = call_line(lines[i])) plan.calls.push_back(*call);
        else if (!trim(lines[i]).empty()) plan.calls.back().arguments_text += "\n" + lines[i];
    }
    for (auto& call : plan.calls) {
        call.arguments_text = trim(call.arguments_text);
        if (call.arguments_text.empty()) call.arguments_text = "{}";
        boost::system::error_code ec;
        json::value parsed = json::parse(call.arguments_text, ec);
        if (!ec) call.arguments_text = mcp::jsonrpc::to_json_text(parsed);  // models emit compact JSON
    }
    std::string before;
    for (std::size_t i = 0; i < first; ++i) before += (i ? "\n" : "") + lines[i];
    plan.pieces = pieces(trim(before), 8);
    return plan;
}

Plan answer(const json::array& messages) {
    std::size_t first = messages.size();
    while (first > 0 && messages[first - 1].is_object() && messages[first - 1].get_object().contains("role") &&
           messages[first - 1].get_object().at("role") == "tool")
        --first;
    if (first < messages.size()) {  // tool results: each said back
        std::unordered_map<std::string, std::string> names;
        for (const auto& message : messages)
            if (auto* calls = message.get_object().if_contains("tool_calls"); calls && calls->is_array())
                for (const auto& call : calls->get_array())
                    if (call.is_object() && call.get_object().contains("id") && call.get_object().contains("function"))
                        names[std::string(call.at("id").as_string())] = std::string(call.at("function").at("name").as_string());
        std::string lines;
        for (std::size_t i = first; i < messages.size(); ++i) {
            const auto& message = messages[i].get_object();
            std::string text = text_of(message.if_contains("content"));
            boost::system::error_code ec;
            json::value parsed = json::parse(text, ec);
            std::string result = ec ? quoted(text) : mcp::jsonrpc::to_json_text(parsed);
            std::string name = "unknown";
            if (auto* id = message.if_contains("tool_call_id"); id && id->is_string() && names.contains(std::string(id->get_string())))
                name = names[std::string(id->get_string())];
            else if (auto* given = message.if_contains("name"); given && given->is_string())
                name = given->get_string();
            auto head = pieces(result, 300);
            lines += (i > first ? "\n" : "") + ("Tool " + name + " answered: ") + (head.empty() ? "" : head.front());
        }
        return {pieces(lines, 8), {}};
    }
    std::string text;
    for (std::size_t i = messages.size(); i-- > 0;)
        if (messages[i].is_object() && messages[i].get_object().contains("role") && messages[i].at("role") == "user") {
            text = text_of(messages[i].get_object().if_contains("content"));
            break;
        }
    if (auto plan = call_command(text)) return *plan;
    std::string trimmed = trim(text);
    if (trimmed.rfind("echo", 0) == 0 && trimmed.size() > 5 && std::isspace(static_cast<unsigned char>(trimmed[4]))) {
        // One word, with its spacing, a piece.
        Plan plan;
        std::string_view rest = std::string_view(trimmed).substr(4);
        while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
        std::size_t at = 0;
        while (at < rest.size()) {
            std::size_t begin = at;
            while (at < rest.size() && std::isspace(static_cast<unsigned char>(rest[at]))) ++at;
            while (at < rest.size() && !std::isspace(static_cast<unsigned char>(rest[at]))) ++at;
            while (at < rest.size() && std::isspace(static_cast<unsigned char>(rest[at]))) ++at;
            plan.pieces.emplace_back(rest.substr(begin, at - begin));
        }
        return plan;
    }
    return {pieces("You said: " + text, 8), {}};
}

/// The SSE events' data of a streamed chat completion, as openaiStream writes them.
std::vector<std::string> stream_events(const Plan& plan, const std::string& model, std::size_t prompt_tokens,
                                       bool include_usage) {
    std::string base = R"("id":"chatcmpl-)" + random_hex(12) + R"(","object":"chat.completion.chunk","created":)" +
                       std::to_string(std::time(nullptr)) + R"(,"model":)" + quoted(model) +
                       R"(,"system_fingerprint":"fp_fake")";
    auto chunk = [&](const std::string& delta, std::string_view finish = {}) {
        return "{" + base + R"(,"choices":[{"index":0,"delta":)" + delta + R"(,"logprobs":null,"finish_reason":)" +
               (finish.empty() ? std::string("null") : quoted(finish)) + "}]" + (include_usage ? R"(,"usage":null})" : "}");
    };
    bool role_sent = false;
    auto delta = [&](const std::string& fields) {  // the role goes on the first delta only
        std::string out = role_sent ? "{" + fields + "}" : R"({"role":"assistant",)" + fields + "}";
        role_sent = true;
        return out;
    };
    std::vector<std::string> events;
    if (!plan.pieces.empty() || plan.calls.empty()) events.push_back(chunk(delta(R"("content":"")")));
    for (const auto& piece : plan.pieces) events.push_back(chunk(delta(R"("content":)" + quoted(piece))));
    for (std::size_t index = 0; index < plan.calls.size(); ++index) {
        const auto& call = plan.calls[index];
        std::string head = R"({"index":)" + std::to_string(index) + R"(,"id":"call_)" + random_hex(12) +
                           R"(","type":"function","function":{"name":)" + quoted(call.name) + R"(,"arguments":""}})";
        events.push_back(chunk(delta((role_sent ? "" : R"("content":null,)") + (R"("tool_calls":[)" + head + "]"))));
        for (const auto& fragment : pieces(call.arguments_text, 5))
            events.push_back(chunk(R"({"tool_calls":[{"index":)" + std::to_string(index) + R"(,"function":{"arguments":)" +
                                   quoted(fragment) + "}}]}"));
    }
    events.push_back(chunk("{}", plan.calls.empty() ? "stop" : "tool_calls"));
    if (include_usage) {
        std::size_t output = 0;
        for (const auto& piece : plan.pieces) output += js_length(piece);
        for (const auto& call : plan.calls) output += js_length(call.name) + js_length(call.arguments_text);
        std::size_t completion = (output + 3) / 4;
        events.push_back("{" + base + R"(,"choices":[],"usage":{"prompt_tokens":)" + std::to_string(prompt_tokens) +
                         R"(,"completion_tokens":)" + std::to_string(completion) + R"(,"total_tokens":)" +
                         std::to_string(prompt_tokens + completion) + "}}");
    }
    events.push_back("[DONE]");
    return events;
}

std::string http_date() {
    char text[64];
    std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &parts);
    return text;
}

std::string json_response(std::string_view status, const std::string& body) {
    return "HTTP/1.1 " + std::string(status) + "\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: " +
           std::to_string(body.size()) + "\r\ndate: " + http_date() + "\r\nconnection: keep-alive\r\nkeep-alive: timeout=120\r\n\r\n" + body;
}

std::string openai_error(std::string_view message, std::string_view code = {}) {
    return R"({"error":{"message":)" + quoted(message) + R"(,"type":"invalid_request_error","param":null,"code":)" +
           (code.empty() ? std::string("null") : quoted(code)) + "}}";
}

class FakeLlm {
public:
    explicit FakeLlm(std::string api_key) : api_key_(std::move(api_key)) {}

    void handle(Connection& connection, std::string_view method, std::string_view target, const std::string& authorization,
                std::string_view body) {
        if (method == "GET" && target == "/_last") return Loop::send(connection, json_response("200 OK", last_.empty() ? "null" : last_));
        if (method != "POST" || !target.ends_with("/chat/completions"))
            return Loop::send(connection, json_response("404 Not Found", openai_error("Unknown request URL: " + std::string(method) + " " +
                                                                                          std::string(target) + ".", "unknown_url")));
        if (authorization != "Bearer " + api_key_)
            return Loop::send(connection, json_response("401 Unauthorized", openai_error("Incorrect API key provided.", "invalid_api_key")));
        boost::system::error_code ec;
        // Parsed into a buffer kept for every request: the default allocator's calls for a
        // request's thousands of nodes were a sixth of this process's time, on the load core.
        json::monotonic_resource resource(parse_buffer_.get(), parse_buffer_size);
        json::value request = json::parse(body, ec, json::storage_ptr(&resource));
        const json::array* messages = nullptr;
        if (!ec && request.is_object())
            if (auto* found = request.get_object().if_contains("messages"); found && found->is_array() && !found->get_array().empty())
                messages = &found->get_array();
        if (ec) return Loop::send(connection, json_response("400 Bad Request", openai_error("We could not parse the JSON body of your request.")));
        if (!messages) return Loop::send(connection, json_response("400 Bad Request", openai_error("Missing required parameter: 'messages'.")));
        last_.assign(body);
        const auto& object = request.get_object();
        std::string model = object.contains("model") && object.at("model").is_string() ? std::string(object.at("model").get_string()) : "";
        bool include_usage = false;
        if (auto* options = object.if_contains("stream_options"); options && options->is_object())
            if (auto* usage = options->get_object().if_contains("include_usage"); usage && usage->is_bool()) include_usage = usage->get_bool();
        auto events = stream_events(answer(*messages), model, (js_length(body) + 3) / 4, include_usage);
        // The head goes out with the first event and the last chunk with [DONE]; every event in
        // between is a write of its own.
        std::string head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\ncache-control: no-cache\r\n"
                           "x-accel-buffering: no\r\ndate: " + http_date() +
                           "\r\nconnection: keep-alive\r\nkeep-alive: timeout=120\r\ntransfer-encoding: chunked\r\n\r\n";
        std::string write;
        for (std::size_t i = 0; i < events.size(); ++i) {
            write.clear();
            if (i == 0) write += head;
            char size[16];
            std::snprintf(size, sizeof size, "%zx\r\n", std::strlen("data: ") + events[i].size() + 2);
            write.append(size).append("data: ").append(events[i]).append("\n\n\r\n");
            if (i + 1 == events.size()) write += "0\r\n\r\n";
            Loop::send(connection, write);
        }
    }

    /// Takes every whole request `in` holds.
    void on_input(Connection& connection) {
        for (;;) {
            std::size_t end = connection.in.find("\r\n\r\n");
            if (end == std::string::npos) return;
            std::string_view head(connection.in.data(), end);
            std::size_t line_end = head.find("\r\n");
            std::string_view request_line = head.substr(0, line_end);
            std::size_t space = request_line.find(' ');
            std::string_view method = request_line.substr(0, space);
            std::string_view target = request_line.substr(space + 1, request_line.find(' ', space + 1) - space - 1);
            std::size_t length = 0;
            std::string authorization;
            bool chunked = false;
            for (std::size_t at = line_end; at != std::string_view::npos && at < head.size();) {
                std::size_t next = head.find("\r\n", at + 2);
                std::string_view line = head.substr(at + 2, next == std::string_view::npos ? std::string_view::npos : next - at - 2);
                at = next;
                std::size_t colon = line.find(':');
                if (colon == std::string_view::npos) continue;
                std::string name(line.substr(0, colon));
                for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                std::string value = trim(line.substr(colon + 1));
                if (name == "content-length") length = std::strtoull(value.c_str(), nullptr, 10);
                else if (name == "authorization") authorization = value;
                else if (name == "transfer-encoding") chunked = true;
            }
            if (chunked) {
                Loop::send(connection, json_response("411 Length Required", openai_error("This fake reads request bodies with a Content-Length only.")));
                connection.closed = true;
                return;
            }
            if (connection.in.size() < end + 4 + length) return;
            handle(connection, method, target, authorization, std::string_view(connection.in).substr(end + 4, length));
            connection.in.erase(0, end + 4 + length);
        }
    }

private:
    static constexpr std::size_t parse_buffer_size = 1u << 20;
    std::string api_key_;
    std::string last_;
    std::unique_ptr<unsigned char[]> parse_buffer_ = std::make_unique<unsigned char[]>(parse_buffer_size);
};

}  // namespace

int run_fake_llm(int port, const std::string& api_key) {
    int listener = tcp_socket();
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address = loopback(port);
    if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) fail("cannot bind 127.0.0.1:" + std::to_string(port));
    if (listen(listener, 1024) != 0) fail("listen failed");
    socklen_t size = sizeof address;
    getsockname(listener, reinterpret_cast<sockaddr*>(&address), &size);
    make_non_blocking(listener);
    std::printf("host_load fake-llm listening on http://127.0.0.1:%d\n", ntohs(address.sin_port));
    std::fflush(stdout);

    Loop loop;
    FakeLlm fake(api_key);
    std::list<Connection> connections;
    loop.watch_fd(listener, [&] {
        for (;;) {
            int fd = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) return;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            auto& connection = connections.emplace_back();
            connection.fd = fd;
            connection.on_input = [&fake](Connection& c) { fake.on_input(c); };
            loop.add(connection);
        }
    });
    // Closed connections are swept now and then (their sockets are kept until then).
    auto last_sweep = Clock::now();
    loop.run([&] {
        if (Clock::now() - last_sweep > std::chrono::seconds(1)) {
            last_sweep = Clock::now();
            connections.remove_if([](Connection& c) {
                if (!c.closed) return false;
                close(c.fd);
                return true;
            });
        }
        return false;
    });
    return 0;
}

}  // namespace host_load
