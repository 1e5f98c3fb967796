// `mcpkit host`: the chat host — a web page where a model (Gemini or any OpenAI-compatible
// server) uses the tools of the MCP servers listed in mcp.json.

#include "cli/CommandSupport.hpp"
#include "cli/Commands.hpp"
#include "host/Host.hpp"

#include <mcp/PrivateFiles.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace mcpkit::cli {

void add_host_command(CLI::App& app, HostArguments& arguments) {
    auto* command = app.add_subcommand(
        "host", "Chat host: a web page where an LLM (Gemini, OpenAI-compatible) uses tools from any MCP servers");
    command->add_option("--config", arguments.config,
                        "mcp.json listing the servers ({\"mcpServers\": …} or {\"servers\": …}); reloaded when it "
                        "changes or on SIGHUP")
        ->check(CLI::ExistingFile);
    command->add_option("--http", arguments.http, "HOST:PORT to serve the page and /ws on")->capture_default_str();
    command->add_option("--store", arguments.store,
                        "Where sessions live: sqlite:PATH (default sqlite:$XDG_STATE_HOME/mcpkit/host.db), "
                        "redis://HOST:PORT (shared by several hosts), or memory");
    command->add_option("--token", arguments.token, "Token every request needs (default: MCPKIT_HOST_TOKEN, else made up and printed at start; "
                        "prefer the variable: other local users can read a command line)");
    command->add_option("--allowed-host", arguments.allowed_hosts, "A Host name accepted beyond loopback (repeat)");
    command->add_option("--root", arguments.roots, "A folder offered to servers as a root (repeat)");
    command->add_option("--llm", arguments.provider,
                        "gemini, anthropic or openai (default: GEMINI_API_KEY, else ANTHROPIC_API_KEY, else OPENAI_API_KEY)")
        ->check(CLI::IsMember({"gemini", "anthropic", "openai"}));
    command->add_option("--model", arguments.model,
                        "Default model (default: GEMINI_MODEL / ANTHROPIC_MODEL / OPENAI_MODEL, or the provider's); the "
                        "page can pick another per conversation");
    command->add_option("--llm-base-url", arguments.base_url,
                        "The LLM API's base URL (default: GEMINI_BASE_URL / ANTHROPIC_BASE_URL / OPENAI_BASE_URL, or the "
                        "provider's)");
    command->add_option("--temperature", arguments.temperature,
                        "Sampling temperature, sent only when given (current models refuse any but their default)")
        ->check(CLI::Range(0.0, 2.0));
    command->add_option("--max-tokens", arguments.max_tokens,
                        "Most tokens an answer may take, sent only when given (max_completion_tokens to OpenAI; "
                        "Anthropic gets 8192 without it)")
        ->check(CLI::Range(1, 10000000));
    command->add_option("--thinking-budget", arguments.thinking_budget,
                        "Tokens the model may think for (Anthropic's extended thinking, Gemini's thinkingBudget)")
        ->check(CLI::Range(0, 10000000));
    command->add_option("--llm-ca-file", arguments.llm_ca_file, "PEM certificate authorities for an https LLM")
        ->check(CLI::ExistingFile);
    command->add_flag("--text-tool-calls", arguments.text_tool_calls,
                      "Describe tools in the prompt and read fenced JSON calls (models without native tool calling)");
    command->add_flag("--llm-no-stream", arguments.llm_no_stream,
                      "Ask the LLM for whole answers instead of streams (for gateways that buffer streams)");
    command->add_option("--llm-idle-timeout", arguments.llm_idle_seconds,
                        "Seconds an answer from the LLM may go silent before it counts as broken off")
        ->check(CLI::Range(1, 86400))
        ->capture_default_str();
    command->add_option("--system-prompt", arguments.system_prompt, "The system prompt");
    command->add_option("--max-steps", arguments.max_steps, "Rounds of tool calls per answer")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    command->add_option("--heartbeat-seconds", arguments.heartbeat_seconds,
                        "Ping pages this often; a page silent for twice as long is dropped")
        ->check(CLI::Range(1, 3600))
        ->capture_default_str();
    command->add_flag("--log-json", arguments.log_json, "Write stderr log lines as JSON objects");
    command->add_option("--log-level", arguments.log_level, "debug, info, warn or error")
        ->check(CLI::IsMember({"debug", "info", "warn", "error"}))
        ->capture_default_str();
}

namespace {

std::string default_store() {
    // The chat is the user's alone: a checked 0700 directory, never a shared one in /tmp.
    return "sqlite:" + (mcp::state_directory() / "host.db").string();
}

}  // namespace

int run_host(const HostArguments& arguments) {
    host::HostOptions options;
    options.config_path = arguments.config;
    if (!parse_host_port(arguments.http, options.http_host, options.http_port)) {
        std::fprintf(stderr, "mcpkit host: --http \"%s\" is not HOST:PORT\n", arguments.http.c_str());
        return 2;
    }
    options.store = arguments.store.empty() ? default_store() : arguments.store;
    options.token = arguments.token;
    // The environment keeps the token out of `ps`, where --token shows it to every local user.
    if (const char* token = std::getenv("MCPKIT_HOST_TOKEN"); options.token.empty() && token && *token)
        options.token = token;
    options.allowed_hosts = arguments.allowed_hosts;
    options.roots = arguments.roots;
    options.heartbeat = std::chrono::seconds(arguments.heartbeat_seconds);
    options.log_json = arguments.log_json;
    options.log_level = host::log_level_named(arguments.log_level);
    options.model = host::model_settings_from_environment();
    if (!arguments.provider.empty()) {
        if (!options.model || options.model->provider != arguments.provider) {
            host::ModelSettings settings = host::default_model_settings(arguments.provider);
            if (options.model) {
                settings.text_tool_calls = options.model->text_tool_calls;
                settings.context_tokens = options.model->context_tokens;
            }
            options.model = settings;
        }
    }
    if (options.model) {
        if (!arguments.model.empty()) options.model->model = arguments.model;
        if (!arguments.base_url.empty()) options.model->base_url = arguments.base_url;
        if (arguments.text_tool_calls) options.model->text_tool_calls = true;
        if (arguments.llm_no_stream) options.model->stream = false;
        options.model->ca_file = arguments.llm_ca_file;
        options.model->silence_limit = std::chrono::seconds(arguments.llm_idle_seconds);
        if (arguments.temperature) options.model->temperature = arguments.temperature;
        if (arguments.max_tokens) options.model->max_output_tokens = arguments.max_tokens;
        if (arguments.thinking_budget) options.model->thinking_budget = arguments.thinking_budget;
    }
    options.conversation.max_steps = arguments.max_steps;
    if (!arguments.system_prompt.empty()) options.conversation.system_prompt = arguments.system_prompt;
    return host::run_host(std::move(options));
}

}  // namespace mcpkit::cli
