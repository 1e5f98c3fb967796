// The load side of the chat host benchmark (bench/host-bench.mjs), in C++: the fake streaming LLM
// and the driver of the tool-call turns. Written in Node, the two shared one core and became the
// limit for mcpkit (that core was 99% busy while mcpkit's was 74%): what was measured was the
// load, not the host. Both hosts meet the same fake and the same driver.
//
//   host_load fake-llm --port P [--api-key KEY]      (HostLoadFakeLlm.cpp)
//   host_load turns --port P --sessions N            (HostLoadTurns.cpp)

#include "HostLoadLoop.hpp"

#include <cstdlib>

int main(int argc, char** argv) {
    using namespace host_load;
    std::vector<std::string_view> args(argv + 1, argv + argc);
    auto option = [&](std::string_view name, std::string_view fallback) {
        for (std::size_t i = 0; i + 1 < args.size(); ++i)
            if (args[i] == name) return args[i + 1];
        return fallback;
    };
    if (args.empty()) fail("usage: host_load fake-llm --port P [--api-key KEY] | turns --port P --sessions N");
    int port = std::atoi(std::string(option("--port", "0")).c_str());
    if (args[0] == "fake-llm") return run_fake_llm(port, std::string(option("--api-key", "test-key")));
    if (args[0] == "turns") {
        int sessions = std::atoi(std::string(option("--sessions", "100")).c_str());
        if (port <= 0 || sessions <= 0) fail("turns needs --port and --sessions");
        return run_turns(port, sessions);
    }
    fail("unknown mode " + std::string(args[0]));
}
