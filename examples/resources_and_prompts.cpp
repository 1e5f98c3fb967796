// A server with resources, a resource template whose variable completes, and a typed prompt; and a
// client that lists, reads, completes and gets them.
//
//   ./resources_and_prompts          # runs the server and the client in this process

#include <mcp/client/Client.hpp>
#include <mcp/server/Server.hpp>
#include <mcp/transport/MemoryTransport.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>

#include <iostream>
#include <map>

namespace asio = boost::asio;

// The notes the server offers, by name.
const std::map<std::string, std::string> notes = {
    {"groceries", "eggs, flour, butter"},
    {"guests", "Ada, Grace, Alan"},
    {"garden", "water the tomatoes"},
};

BOOST_DEFINE_ENUM_CLASS(Style, brief, detailed)

// The prompt's arguments: prompts/list shows them, prompts/get parses them (from strings).
struct SummarizeArgs {
    std::string note;
    Style style = Style::brief;
};
BOOST_DESCRIBE_STRUCT(SummarizeArgs, (), (note, style))

inline void describe_fields(mcp::FieldDescriptions<SummarizeArgs>& fields) {
    fields.field(&SummarizeArgs::note, "The name of the note to summarize");
    fields.field(&SummarizeArgs::style, "brief or detailed").optional();
}

void register_features(mcp::Server& server) {
    // A fixed resource.
    server.add_resource({.uri = "notes://index", .name = "index", .mime_type = "text/plain"}, [](mcp::ResourceRead&) {
        std::string index;
        for (const auto& [name, text] : notes) index += name + "\n";
        return mcp::ReadResourceResult{{mcp::ResourceContents::of_text("notes://index", "text/plain", index)}};
    });
    // A template: one resource per note. An unknown name is an error the client reads.
    server.add_resource_template({.uri_template = "notes://note/{name}", .name = "note", .mime_type = "text/plain"},
                                 [](mcp::ResourceRead& read) {
                                     auto it = notes.find(read.variables.at("name"));
                                     if (it == notes.end()) throw std::runtime_error("no note called " + read.variables.at("name"));
                                     return mcp::ReadResourceResult{{mcp::ResourceContents::of_text(read.uri, "text/plain", it->second)}};
                                 });
    // Completion of the template's variable: note names that start with what was typed.
    server.add_completion("ref/resource", "notes://note/{name}", [](mcp::CompletionRequest& request) {
        mcp::Completion completion;
        for (const auto& [name, text] : notes)
            if (name.starts_with(request.value)) completion.values.push_back(name);
        return completion;
    });
    // A typed prompt: text becomes one user message.
    server.add_prompt("summarize_note", "Asks the model to summarize a note", [](const SummarizeArgs& args) {
        auto it = notes.find(args.note);
        std::string text = it == notes.end() ? "(no such note)" : it->second;
        return std::string(args.style == Style::brief ? "In one line, summarize: " : "Summarize in detail: ") + text;
    });
}

asio::awaitable<void> use_them(std::shared_ptr<mcp::Transport> transport, int& exit_code) {
    mcp::Client client({.info = {"example-client", "1.0.0"}});
    try {
        co_await client.connect(transport);
        for (const mcp::Resource& resource : co_await client.list_resources()) std::cout << "resource " << resource.uri << '\n';
        for (const mcp::ResourceTemplate& t : co_await client.list_resource_templates())
            std::cout << "template " << t.uri_template << '\n';

        mcp::Completion completion = co_await client.complete("ref/resource", "notes://note/{name}", "name", "g");
        std::cout << "names starting with g:";
        for (const std::string& name : completion.values) std::cout << ' ' << name;
        std::cout << '\n';

        auto contents = co_await client.read_resource("notes://note/" + completion.values.front());
        std::cout << "read " << contents.at(0).uri << ": " << contents.at(0).text.value_or("") << '\n';

        for (const mcp::Prompt& prompt : co_await client.list_prompts()) {
            std::cout << "prompt " << prompt.name << " (";
            for (const auto& argument : prompt.arguments) std::cout << ' ' << argument.name << (argument.required ? "*" : "");
            std::cout << " )\n";
        }
        SummarizeArgs args{"guests", Style::detailed};
        mcp::GetPromptResult prompt = co_await client.get_prompt("summarize_note", args);
        std::cout << "prompt says: " << std::string_view(prompt.messages.at(0).content.json.at("text").as_string()) << '\n';
        co_await client.close();
    } catch (const std::exception& error) {
        std::cout << "failed: " << error.what() << '\n';
        exit_code = 1;
    }
}

int main() {
    mcp::Server server({.name = "notes", .version = "1.0.0"});
    register_features(server);
    asio::io_context io;
    auto [client_side, server_side] = mcp::make_memory_transports(io.get_executor());
    int exit_code = 0;
    asio::co_spawn(io, server.serve(server_side), asio::detached);
    asio::co_spawn(io, use_them(client_side, exit_code), asio::detached);
    io.run();
    return exit_code;
}
