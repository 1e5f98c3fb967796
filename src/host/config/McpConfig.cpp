#include "host/config/McpConfig.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

[[noreturn]] void refuse(const std::string& where, const std::string& why) { throw ConfigError(where + ": " + why); }

std::string kind_of(const json::value& value) {
    switch (value.kind()) {
    case json::kind::string: return "a string";
    case json::kind::object: return "an object";
    case json::kind::array: return "an array";
    case json::kind::bool_: return "a boolean";
    case json::kind::null: return "null";
    default: return "a number";
    }
}

std::string string_field(const json::value& value, const std::string& where) {
    if (!value.is_string()) refuse(where, "must be a string, not " + kind_of(value));
    return std::string(value.get_string());
}

std::vector<std::string> string_list(const json::value& value, const std::string& where) {
    if (!value.is_array()) refuse(where, "must be an array of strings, not " + kind_of(value));
    std::vector<std::string> list;
    std::size_t index = 0;
    for (const auto& item : value.get_array())
        list.push_back(string_field(item, where + "[" + std::to_string(index++) + "]"));
    return list;
}

std::map<std::string, std::string> string_map(const json::value& value, const std::string& where) {
    std::map<std::string, std::string> map;
    if (value.is_object()) {
        for (const auto& [key, item] : value.get_object())
            map[std::string(key)] = string_field(item, where + "." + std::string(key));
        return map;
    }
    // mcphost writes headers as ["Name: value", …].
    if (value.is_array()) {
        for (const auto& line : string_list(value, where)) {
            auto colon = line.find(':');
            if (colon == std::string::npos || colon == 0) refuse(where, "\"" + line + "\" is not \"Name: value\"");
            std::string name = line.substr(0, colon), rest = line.substr(colon + 1);
            rest.erase(0, rest.find_first_not_of(" \t"));
            map[name] = rest;
        }
        return map;
    }
    refuse(where, "must be an object of strings, not " + kind_of(value));
}

std::chrono::milliseconds milliseconds_field(const json::value& value, const std::string& where) {
    if (!value.is_number()) refuse(where, "must be a number of milliseconds, not " + kind_of(value));
    double ms = value.to_number<double>();
    if (!(ms > 0) || ms > 24 * 3600 * 1000.0) refuse(where, "must be between 1 and 86400000 milliseconds");
    return std::chrono::milliseconds(static_cast<long long>(ms));
}

ServerTransport transport_named(const std::string& name, const std::string& where) {
    if (name == "stdio" || name == "local") return ServerTransport::stdio;
    if (name == "http" || name == "streamable-http" || name == "streamableHttp" || name == "streamable" ||
        name == "remote")
        return ServerTransport::http;
    if (name == "sse") return ServerTransport::sse;
    refuse(where, "\"" + name + "\" is not a transport; use \"stdio\", \"http\" or \"sse\"");
}

// What each host's format calls the fields we read; anything else is reported as ignored.
const std::set<std::string>& known_fields() {
    static const std::set<std::string> fields{
        "id",        "type",          "transport",     "command",      "args",         "env",
        "cwd",       "url",           "headers",       "timeout",      "timeoutMs",    "initTimeout",
        "startTimeoutMs", "approval", "requireApproval", "allowedTools", "excludedTools", "disabled",
        "rateLimitPerMinute", "description", "circuitBreaker", "inheritEnv", "trustAnnotations"};
    return fields;
}

struct EntryReader {
    const EnvironmentLookup& environment;
    const std::string& base_directory;
    ServerEntry& entry;
    std::string where;

    // A variable the environment lacks fails this server, not the whole file.
    std::string expand(const std::string& text) {
        try {
            return expand_variables(text, environment, base_directory);
        } catch (const ConfigError& e) {
            if (entry.problem.empty()) entry.problem = e.what();
            return text;
        }
    }

    void read(const json::object& object, std::vector<std::string>& ignored) {
        std::optional<std::string> type, transport;
        for (const auto& [key, value] : object) {
            std::string name(key), at = where + "." + name;
            if (!known_fields().contains(name)) {
                ignored.push_back(at);
                continue;
            }
            if (name == "type") type = string_field(value, at);
            else if (name == "transport") transport = string_field(value, at);
            else if (name == "command") {
                if (value.is_array()) {  // mcphost: ["npx", "-y", "server"]
                    auto words = string_list(value, at);
                    if (words.empty()) refuse(at, "must name a program");
                    entry.command = expand(words.front());
                    for (std::size_t i = 1; i < words.size(); ++i) entry.args.push_back(expand(words[i]));
                } else {
                    entry.command = expand(string_field(value, at));
                }
            } else if (name == "args") {
                for (const auto& arg : string_list(value, at)) entry.args.push_back(expand(arg));
            } else if (name == "env") {
                for (auto& [variable, text] : string_map(value, at)) entry.env[variable] = expand(text);
            } else if (name == "cwd") {
                std::filesystem::path cwd = expand(string_field(value, at));
                entry.cwd = (cwd.is_relative() ? std::filesystem::path(base_directory) / cwd : cwd).string();
            } else if (name == "url") entry.url = expand(string_field(value, at));
            else if (name == "headers") {
                for (auto& [header, text] : string_map(value, at)) entry.headers[header] = expand(text);
            } else if (name == "timeout" || name == "timeoutMs") entry.call_timeout = milliseconds_field(value, at);
            else if (name == "initTimeout" || name == "startTimeoutMs") entry.start_timeout = milliseconds_field(value, at);
            else if (name == "approval") {
                std::string policy = string_field(value, at);
                if (policy == "ask") entry.approval = ApprovalPolicy::ask;
                else if (policy == "auto") entry.approval = ApprovalPolicy::automatic;
                else refuse(at, "\"" + policy + "\" is not a policy; use \"ask\" or \"auto\"");
            } else if (name == "requireApproval") {
                if (!value.is_bool()) refuse(at, "must be true or false, not " + kind_of(value));
                entry.approval = value.get_bool() ? ApprovalPolicy::ask : ApprovalPolicy::automatic;
            } else if (name == "allowedTools") entry.allowed_tools = string_list(value, at);
            else if (name == "excludedTools") entry.excluded_tools = string_list(value, at);
            else if (name == "disabled") {
                if (!value.is_bool()) refuse(at, "must be true or false, not " + kind_of(value));
                entry.disabled = value.get_bool();
            } else if (name == "circuitBreaker") {
                if (!value.is_object()) refuse(at, "must be an object {\"failures\": 5, \"resetMs\": 60000}");
                for (const auto& [field, setting] : value.get_object()) {
                    std::string place = at + "." + std::string(field);
                    if (field == "failures") {
                        if (!setting.is_int64() || setting.get_int64() < 1 || setting.get_int64() > 1000)
                            refuse(place, "must be a whole number from 1 to 1000");
                        entry.breaker_failures = static_cast<int>(setting.get_int64());
                    } else if (field == "resetMs") {
                        entry.breaker_reset = milliseconds_field(setting, place);
                    } else {
                        refuse(place, "is not a setting of the breaker; use \"failures\" or \"resetMs\"");
                    }
                }
            } else if (name == "inheritEnv") {
                if (!value.is_bool()) refuse(at, "must be true or false, not " + kind_of(value));
                entry.inherit_environment = value.get_bool();
            } else if (name == "trustAnnotations") {
                if (!value.is_bool()) refuse(at, "must be true or false, not " + kind_of(value));
                entry.trust_annotations = value.get_bool();
            } else if (name == "rateLimitPerMinute") {
                if (!value.is_number() || value.to_number<double>() < 0)
                    refuse(at, "must be a number of calls per minute (0: unlimited)");
                entry.rate_limit_per_minute = value.to_number<double>();
            }
        }
        decide_transport(type, transport);
        if (!entry.allowed_tools.empty() && !entry.excluded_tools.empty())
            refuse(where, "give allowedTools or excludedTools, not both");
    }

    void decide_transport(const std::optional<std::string>& type, const std::optional<std::string>& transport) {
        // The seed says type: local|remote plus transport: stdio|http; VS Code and Claude Code
        // say type: stdio|http|sse; Claude Desktop and Cursor say nothing and mean it by the fields.
        if (transport) entry.transport = transport_named(*transport, where + ".transport");
        else if (type) entry.transport = transport_named(*type, where + ".type");
        else if (!entry.url.empty()) entry.transport = ServerTransport::http;
        else entry.transport = ServerTransport::stdio;

        if (entry.transport == ServerTransport::stdio) {
            if (entry.command.empty()) refuse(where, "a stdio server needs \"command\" (or give \"url\" for a remote one)");
            if (!entry.url.empty()) refuse(where, "has both \"command\" and \"url\"; a server is either local or remote");
        } else {
            if (entry.url.empty()) refuse(where, "a remote server needs \"url\"");
            if (!entry.command.empty()) refuse(where, "has both \"command\" and \"url\"; a server is either local or remote");
            if (entry.problem.empty() && entry.url.rfind("http://", 0) != 0 && entry.url.rfind("https://", 0) != 0)
                refuse(where + ".url", "\"" + entry.url + "\" must start with http:// or https://");
        }
    }
};

std::string input_variable(const std::string& id) {
    std::string name;
    for (char c : id) name += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(c)) : '_';
    return name;
}

}  // namespace

EnvironmentLookup process_environment() {
    return [](const std::string& name) -> std::optional<std::string> {
        if (const char* value = std::getenv(name.c_str())) return std::string(value);
        return std::nullopt;
    };
}

bool valid_server_name(const std::string& name) {
    return !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    }) && name.find("__") == std::string::npos;
}

std::string expand_variables(const std::string& text, const EnvironmentLookup& environment,
                             const std::string& base_directory) {
    std::string out;
    std::size_t at = 0;
    while (true) {
        auto open = text.find("${", at);
        if (open == std::string::npos) break;
        auto close = text.find('}', open);
        if (close == std::string::npos) break;
        out.append(text, at, open - at);
        std::string inside = text.substr(open + 2, close - open - 2);
        std::optional<std::string> fallback;
        if (auto dash = inside.find(":-"); dash != std::string::npos) {
            fallback = inside.substr(dash + 2);
            inside.resize(dash);
        }
        std::string variable = inside;
        if (inside == "workspaceFolder") {
            out += base_directory;
            at = close + 1;
            continue;
        }
        if (inside.rfind("env:", 0) == 0) variable = inside.substr(4);
        else if (inside.rfind("input:", 0) == 0) variable = input_variable(inside.substr(6));
        std::optional<std::string> value = variable.empty() ? std::nullopt : environment(variable);
        if (!value && !fallback) {
            std::string why = "${" + inside + "} needs the environment variable " + variable + ", which is not set";
            throw ConfigError(why);
        }
        out += value ? *value : *fallback;
        at = close + 1;
    }
    out.append(text, at, std::string::npos);
    return out;
}

McpConfig read_mcp_config(const json::value& document, const EnvironmentLookup& environment,
                          const std::string& base_directory) {
    if (!document.is_object()) refuse("mcp.json", "must be an object like {\"mcpServers\": {…}}, not " + kind_of(document));
    const auto& root = document.get_object();
    const json::value* servers = nullptr;
    std::string key;
    McpConfig config;
    for (const auto& [name, value] : root) {
        if (name == "servers" || name == "mcpServers") {
            if (servers) refuse(std::string(name), "give \"servers\" or \"mcpServers\", not both");
            servers = &value;
            key = std::string(name);
        } else if (name != "inputs") {
            config.ignored_fields.push_back(std::string(name));
        }
    }
    if (!servers) refuse("mcp.json", "has no \"mcpServers\" (or \"servers\") object listing the servers");
    if (!servers->is_object()) refuse(key, "must be an object mapping names to servers, not " + kind_of(*servers));
    for (const auto& [name, value] : servers->get_object()) {
        std::string where = key + "." + std::string(name);
        if (!valid_server_name(std::string(name)))
            refuse(where, "a server name must be 1 to 32 letters, digits, '-' or '_' (no \"__\"): it prefixes its "
                          "tools' names, which models limit to 64 such characters");
        if (!value.is_object()) refuse(where, "must be an object, not " + kind_of(value));
        ServerEntry entry;
        entry.name = std::string(name);
        entry.source = value.get_object();
        EntryReader reader{environment, base_directory, entry, where};
        reader.read(value.get_object(), config.ignored_fields);
        config.servers.push_back(std::move(entry));
    }
    return config;
}

McpConfig load_mcp_config(const std::string& path, const EnvironmentLookup& environment) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw ConfigError(path + ": cannot be read (does it exist?)");
    std::stringstream text;
    text << file.rdbuf();
    boost::system::error_code ec;
    json::value document = json::parse(text.str(), ec);
    if (ec) throw ConfigError(path + ": not valid JSON (" + ec.message() + ")");
    std::string base = std::filesystem::absolute(path).parent_path().string();
    try {
        return read_mcp_config(document, environment, base);
    } catch (const ConfigError& e) {
        throw ConfigError(path + ": " + e.what());
    }
}

}  // namespace mcpkit::host
