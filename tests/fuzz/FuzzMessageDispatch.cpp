// libFuzzer target: arbitrary bytes as a stream of stdio frames into a server session, through
// the decoder, the JSON-RPC engine, both protocol eras' lifecycle and the feature dispatch.
// Whatever arrives, nothing may crash, leak or hang.

#include <mcp/server/Server.hpp>
#include <mcp/transport/MemoryTransport.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

namespace json = boost::json;

mcp::Server& fixture() {
    static mcp::Server& server = *[] {
        auto* owned = new mcp::Server(mcp::Implementation{"fuzz", "1.0"}, mcp::ServerOptions{.page_size = 1});
        mcp::Server& s = *owned;
        s.add_tool(mcp::Tool{.name = "echo",
                             .description = "echo",
                             .input_schema = mcp::schema_object({{"text", {{"type", "string"}, {"maxLength", 64}}}}, {"text"})},
                   [](mcp::ToolCall& call) { return mcp::CallToolResult::text(call.arguments.at("text").as_string()); });
        s.add_tool(mcp::Tool{.name = "ask", .description = "input required"},
                   [](mcp::ToolCall& call) -> mcp::Outcome<mcp::CallToolResult> {
                       if (!call.input_response("q")) return mcp::InputRequired{}.roots("q").state("s");
                       return mcp::CallToolResult::text("ok");
                   });
        s.add_resource(mcp::Resource{.uri = "test://r", .name = "r"}, [](mcp::ResourceRead& read) {
            return mcp::ReadResourceResult{{mcp::ResourceContents::of_text(read.uri, "text/plain", "r")}};
        });
        s.add_resource_template(mcp::ResourceTemplate{.uri_template = "test://t/{id}", .name = "t"}, [](mcp::ResourceRead& read) {
            return mcp::ReadResourceResult{{mcp::ResourceContents::of_text(read.uri, "text/plain", read.variables.at("id"))}};
        });
        s.add_prompt(mcp::Prompt{.name = "p", .arguments = {{.name = "a", .required = true}}}, [](mcp::PromptGet& get) {
            return mcp::GetPromptResult{std::nullopt, {{"user", mcp::Content::text(get.arguments.at("a"))}}};
        });
        s.add_completion("ref/prompt", "p", [](mcp::CompletionRequest& request) {
            return mcp::Completion{{request.value}, 1, false};
        });
        return owned;  // lives for the whole fuzzing process
    }();
    return server;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    boost::asio::io_context io;
    auto [client_side, server_side] = mcp::make_memory_transports(io.get_executor());
    boost::asio::co_spawn(io, fixture().serve(server_side), boost::asio::detached);
    std::string_view input(reinterpret_cast<const char*>(data), size);
    while (!input.empty()) {
        std::size_t newline = input.find('\n');
        client_side->send(input.substr(0, newline));
        if (newline == std::string_view::npos) break;
        input.remove_prefix(newline + 1);
    }
    // End the input: the server must work through every frame, finish and return by itself.
    // Anything left waiting forever is a hang, which libFuzzer's -timeout reports.
    client_side->close();
    io.run();
    return 0;
}
