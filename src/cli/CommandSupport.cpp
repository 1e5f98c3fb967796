#include "cli/CommandSupport.hpp"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace mcpkit::cli {

bool parse_host_port(const std::string& text, std::string& host, std::uint16_t& port) {
    std::string port_text = text;
    host = "127.0.0.1";
    if (auto colon = text.rfind(':'); colon != std::string::npos) {
        port_text = text.substr(colon + 1);
        std::string host_text = text.substr(0, colon);
        if (host_text.size() >= 2 && host_text.front() == '[' && host_text.back() == ']')
            host_text = host_text.substr(1, host_text.size() - 2);
        if (!host_text.empty()) host = host_text;
    }
    try {
        std::size_t used = 0;
        unsigned long value = std::stoul(port_text, &used);
        if (used != port_text.size() || value > 65535) return false;
        port = static_cast<std::uint16_t>(value);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

std::function<void(std::string_view)> stderr_log(std::string component, bool json) {
    if (json) {
        return [component](std::string_view message) {
            boost::json::object line{{"time", std::time(nullptr)}, {"component", component}, {"message", message}};
            std::fprintf(stderr, "%s\n", boost::json::serialize(line).c_str());
        };
    }
    return [component](std::string_view message) {
        std::fprintf(stderr, "mcpkit %s: %.*s\n", component.c_str(), static_cast<int>(message.size()), message.data());
    };
}

}  // namespace mcpkit::cli
