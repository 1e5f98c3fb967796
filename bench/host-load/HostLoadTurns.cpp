// host_load turns: SESSIONS WebSocket pages on a chat host, running tool-call turns back to back on
// command (see HostLoad.cpp for the commands and the JSON it prints). A page is what the Node
// driver's was: a minimal RFC 6455 client (masked text frames out; text, continuation, ping and
// close in); a turn is `clear` then `message` (sent together), and it ends at the `turn` frame with
// its turnId, whose streamed `text` must be `Tool everything__echo answered: "UNIQUE"`.

#include "HostLoadLoop.hpp"

#include "host/web/WebSocketFrames.hpp"

#include <boost/beast/core/detail/base64.hpp>

#include <cstdlib>
#include <deque>
#include <optional>

namespace host_load {
namespace {

namespace websocket = mcpkit::host::websocket;

/// A client's frame: the host's header with the mask bit set, the key, the masked payload.
std::string masked_frame(std::string_view payload, websocket::Opcode opcode = websocket::Opcode::text) {
    std::uint8_t header[10];
    std::size_t size = websocket::frame_header(opcode, payload.size(), header);
    header[1] |= 0x80;
    std::string frame(reinterpret_cast<const char*>(header), size);
    auto mask = static_cast<std::uint32_t>(random_engine()());
    char key[4] = {static_cast<char>(mask >> 24), static_cast<char>(mask >> 16), static_cast<char>(mask >> 8), static_cast<char>(mask)};
    frame.append(key, 4);
    for (std::size_t i = 0; i < payload.size(); ++i) frame += static_cast<char>(payload[i] ^ key[i & 3]);
    return frame;
}

std::string string_at(const json::object& object, std::string_view key) {
    if (auto* value = object.if_contains(key); value && value->is_string()) return std::string(value->get_string());
    return {};
}

struct Result {
    std::size_t completed = 0;
    std::size_t wrong = 0;
    std::vector<double> latencies;  ///< ms, of turns started while measuring
    std::vector<std::string> wrong_samples;
};

struct Page {
    Connection connection;
    int index = 0;
    std::string key;
    bool upgraded = false;
    bool connected = false;  ///< its `connection` frame came
    std::string fragments;
    // The turn under way.
    bool in_turn = false;
    bool checked = false;  ///< the answer is compared (not a warm-up turn)
    std::string expected;
    std::string turn_id;
    std::string text;
    Clock::time_point started;
    bool started_measuring = false;
};

class Driver {
public:
    Driver(int port, int sessions) : port_(port), pages_(static_cast<std::size_t>(sessions)) {}

    int run() {
        // Ten pages at a time connect and make one turn (the hosts then have their LLM connections).
        for (std::size_t begin = 0; begin < pages_.size(); begin += 10) {
            std::size_t end = std::min(pages_.size(), begin + 10);
            for (std::size_t i = begin; i < end; ++i) open(pages_[i], static_cast<int>(i));
            loop_.run([&] {
                for (std::size_t i = begin; i < end; ++i) {
                    check_alive(pages_[i]);
                    if (!pages_[i].connected) return false;
                }
                for (std::size_t i = begin; i < end; ++i)
                    if (!pages_[i].in_turn && !pages_[i].checked) start_turn(pages_[i], "echo warm " + std::to_string(i), {});
                for (std::size_t i = begin; i < end; ++i)
                    if (pages_[i].in_turn) return false;
                return true;
            });
        }
        std::printf("ready\n");
        std::fflush(stdout);
        loop_.watch_fd(0, [this] { read_commands(); });
        loop_.run([&] {
            for (auto& page : pages_) check_alive(page);
            if (stopping_ && !reported_) {
                for (auto& page : pages_)
                    if (page.in_turn) return false;
                report();
            }
            return finished_;
        });
        return 0;
    }

private:
    void open(Page& page, int index) {
        page.index = index;
        page.connection.fd = tcp_socket();
        sockaddr_in address = loopback(port_);
        if (connect(page.connection.fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
            fail("cannot connect to 127.0.0.1:" + std::to_string(port_));
        make_non_blocking(page.connection.fd);
        page.key = random_hex(8);  // 16 characters, sent as they are (any 16-byte value is a key)
        std::string key_base64(boost::beast::detail::base64::encoded_size(page.key.size()), '\0');
        key_base64.resize(boost::beast::detail::base64::encode(key_base64.data(), page.key.data(), page.key.size()));
        page.key = key_base64;
        page.connection.on_input = [this, &page](Connection&) { on_input(page); };
        loop_.add(page.connection);
        // mcpkit's host wants its token (MCPKIT_HOST_TOKEN, as the benchmark starts it); Node's ignores it.
        const char* token = std::getenv("MCPKIT_HOST_TOKEN");
        std::string target = token && *token ? std::string("/ws?token=") + token : std::string("/ws");
        Loop::send(page.connection, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) +
                                        "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + page.key +
                                        "\r\nSec-WebSocket-Version: 13\r\n\r\n");
    }

    void check_alive(Page& page) {
        if (page.connection.closed) fail("page " + std::to_string(page.index) + ": the host closed the connection");
    }

    void on_input(Page& page) {
        std::string& in = page.connection.in;
        if (!page.upgraded) {
            std::size_t end = in.find("\r\n\r\n");
            if (end == std::string::npos) return;
            std::string head = in.substr(0, end);
            std::string lower = head;
            for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            std::string accept = websocket::accept_key(page.key).value_or("");
            std::size_t at = lower.find("sec-websocket-accept:");
            std::string given = at == std::string::npos ? "" : head.substr(at + 21, head.find("\r\n", at) - at - 21);
            while (!given.empty() && given.front() == ' ') given.erase(0, 1);
            while (!given.empty() && given.back() == ' ') given.pop_back();
            if (head.rfind("HTTP/1.1 101 ", 0) != 0 || given != accept) fail("the WebSocket upgrade failed: " + head.substr(0, 300));
            page.upgraded = true;
            in.erase(0, end + 4);
        }
        std::size_t offset = 0;
        while (in.size() - offset >= 2) {
            auto byte0 = static_cast<unsigned char>(in[offset]);
            auto byte1 = static_cast<unsigned char>(in[offset + 1]);
            int opcode = byte0 & 0x0f;
            bool fin = byte0 & 0x80;
            std::size_t length = byte1 & 0x7f;
            std::size_t at = offset + 2;
            if (length == 126) {
                if (in.size() - at < 2) break;
                length = (static_cast<std::size_t>(static_cast<unsigned char>(in[at])) << 8) | static_cast<unsigned char>(in[at + 1]);
                at += 2;
            } else if (length == 127) {
                if (in.size() - at < 8) break;
                length = 0;
                for (int i = 0; i < 8; ++i) length = (length << 8) | static_cast<unsigned char>(in[at + static_cast<std::size_t>(i)]);
                at += 8;
            }
            if (byte1 & 0x80) at += 4;  // a server never masks; skipped rather than trusted
            if (in.size() < at || in.size() - at < length) break;
            std::string_view payload(in.data() + at, length);
            offset = at + length;
            if (opcode == 1 || opcode == 2 || opcode == 0) {
                if (fin && page.fragments.empty()) {
                    message(page, payload);
                } else {
                    page.fragments.append(payload);
                    if (fin) {
                        std::string whole = std::move(page.fragments);
                        page.fragments.clear();
                        message(page, whole);
                    }
                }
            } else if (opcode == 9) {
                Loop::send(page.connection, masked_frame(payload, websocket::Opcode::pong));
            } else if (opcode == 8) {
                page.connection.closed = true;
            }
        }
        in.erase(0, offset);
    }

    void message(Page& page, std::string_view text) {
        if (page.connected && !page.in_turn) return;  // nobody waits: not even decoded
        scratch_.release();
        boost::system::error_code ec;
        json::value frame = json::parse(text, ec, &scratch_);
        if (ec || !frame.is_object()) return;
        const auto& object = frame.get_object();
        std::string type = string_at(object, "type");
        const json::object* payload = nullptr;
        if (auto* value = object.if_contains("payload"); value && value->is_object()) payload = &value->get_object();
        static const json::object empty;
        if (!payload) payload = &empty;
        if (!page.connected) {
            if (type == "connection") page.connected = true;
            return;
        }
        if (type == "turn" && string_at(*payload, "state") == "started" && page.turn_id.empty()) {
            page.turn_id = string_at(*payload, "turnId");
        } else if (type == "text" && string_at(*payload, "turnId") == page.turn_id) {
            page.text += string_at(*payload, "content");
        } else if (type == "turn" && string_at(*payload, "turnId") == page.turn_id) {
            end_turn(page, string_at(*payload, "state"));
        } else if (type == "error") {
            end_turn(page, "error: " + string_at(*payload, "message"));
        }
    }

    void start_turn(Page& page, const std::string& text, std::string expected) {
        page.in_turn = true;
        page.checked = !expected.empty();
        page.expected = std::move(expected);
        page.turn_id.clear();
        page.text.clear();
        page.started = Clock::now();
        page.started_measuring = measuring_;
        std::string message = R"({"type":"message","payload":{"text":)" + quoted(text) + "}}";
        Loop::send(page.connection, masked_frame(R"({"type":"clear","payload":{}})") + masked_frame(message));
    }

    void next_turn(Page& page) {
        std::string unique = "s" + std::to_string(page.index) + "-" + std::to_string(++serial_) + "-" + random_hex(4);
        start_turn(page, R"(call everything__echo {"text":")" + unique + R"("})",
                   R"(Tool everything__echo answered: ")" + unique + R"(")");
    }

    void end_turn(Page& page, const std::string& state) {
        page.in_turn = false;
        if (page.checked) {
            if (state != "finished" || page.text != page.expected) {
                ++result_.wrong;
                if (result_.wrong_samples.size() < 5)
                    result_.wrong_samples.push_back("state " + state + ", text \"" + page.text + "\", expected \"" + page.expected + "\"");
            }
            if (measuring_) ++result_.completed;
            if (page.started_measuring)
                result_.latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - page.started).count());
        } else {
            page.checked = true;  // the warm-up turn: its page is ready
        }
        if (running_) next_turn(page);
    }

    void read_commands() {
        char buffer[256];
        ssize_t n = read(0, buffer, sizeof buffer);
        if (n <= 0) {
            finished_ = true;
            return;
        }
        commands_.append(buffer, static_cast<std::size_t>(n));
        for (std::size_t end; (end = commands_.find('\n')) != std::string::npos;) {
            std::string command = commands_.substr(0, end);
            commands_.erase(0, end + 1);
            if (command == "run") {
                result_ = {};
                running_ = true;
                stopping_ = reported_ = false;
                for (auto& page : pages_)
                    if (!page.in_turn) next_turn(page);
            } else if (command == "measure") {
                measuring_ = true;
            } else if (command == "stop") {
                measuring_ = false;
                running_ = false;
                stopping_ = true;
            } else if (command == "quit") {
                finished_ = true;
            }
        }
    }

    void report() {
        reported_ = true;
        json::object out{{"completed", result_.completed}, {"wrong", result_.wrong}};
        json::array latencies;
        for (double ms : result_.latencies) latencies.push_back(ms);
        out["latencies"] = std::move(latencies);
        json::array samples;
        for (const auto& sample : result_.wrong_samples) samples.push_back(json::value(sample));
        out["wrongSamples"] = std::move(samples);
        std::printf("%s\n", mcp::jsonrpc::to_json_text(out).c_str());
        std::fflush(stdout);
    }

    int port_;
    std::deque<Page> pages_;
    Loop loop_;
    alignas(std::max_align_t) unsigned char scratch_buffer_[16384];
    json::monotonic_resource scratch_{scratch_buffer_, sizeof scratch_buffer_};
    Result result_;
    std::string commands_;
    std::uint64_t serial_ = 0;
    bool running_ = false, measuring_ = false, stopping_ = false, reported_ = false, finished_ = false;
};

}  // namespace

int run_turns(int port, int sessions) {
    Driver driver(port, sessions);
    return driver.run();
}

}  // namespace host_load
