// The fixture's prompts (plain, with arguments, with an embedded resource, with an image, and the
// 2026 prompt that needs input first) and completion for test_prompt_with_arguments.

#include "everything/FixtureParts.hpp"

#include <array>

namespace mcpkit::everything {
namespace json = boost::json;
using mcp::Content;
using mcp::GetPromptResult;
using mcp::PromptMessage;

namespace {

GetPromptResult user_says(std::vector<Content> contents) {
    GetPromptResult result;
    for (auto& content : contents) result.messages.push_back(PromptMessage{"user", std::move(content)});
    return result;
}

GetPromptResult with_arguments(mcp::PromptGet& get) {
    // Both are required, and libmcp rejects a get without them before this runs.
    const std::string& first = get.arguments.at("arg1");
    const std::string& second = get.arguments.at("arg2");
    return user_says({Content::text("Prompt with arguments: arg1='" + first + "', arg2='" + second + "'")});
}

GetPromptResult with_embedded_resource(mcp::PromptGet& get) {
    return user_says({Content::resource_text(get.arguments.at("resourceUri"), "text/plain",
                                             "Embedded resource content for testing."),
                      Content::text("Please process the embedded resource above.")});
}

mcp::Outcome<GetPromptResult> with_context(mcp::PromptGet& get) {
    // MRTR on prompts/get: the prompt cannot be built until the user says what context to use.
    json::object form{
        {"type", "object"}, {"properties", {{"context", {{"type", "string"}}}}}, {"required", json::array{"context"}}};
    if (auto* answer = get.input_response("user_context"))
        if (auto elicitation = read_elicitation(*answer, form))
            return user_says({Content::text("Prompt with context: " + elicitation->text("context"))});
    return mcp::InputRequired{}.elicit("user_context", "What context should the prompt use?", std::move(form));
}

mcp::Completion complete_first_argument(mcp::CompletionRequest& request) {
    static constexpr std::array<std::string_view, 6> candidates = {"hello",      "help",    "test",
                                                                   "test_value", "testing", "world"};
    mcp::Completion completion;
    if (request.argument == "arg1")
        for (auto candidate : candidates)
            if (candidate.starts_with(request.value)) completion.values.emplace_back(candidate);
    completion.total = static_cast<std::int64_t>(completion.values.size());
    return completion;
}

mcp::PromptArgument required_argument(std::string name, std::string description) {
    return mcp::PromptArgument{.name = std::move(name), .description = std::move(description), .required = true};
}

}  // namespace

void register_prompts(mcp::Server& server) {
    server.add_prompt(
        mcp::Prompt{.name = "test_simple_prompt",
                    .title = "Simple Test Prompt",
                    .description = "A simple prompt without arguments"},
        [](mcp::PromptGet&) { return user_says({Content::text("This is a simple prompt for testing.")}); });
    server.add_prompt(mcp::Prompt{.name = "test_prompt_with_arguments",
                                  .title = "Prompt With Arguments",
                                  .description = "A prompt with required arguments",
                                  .arguments = {required_argument("arg1", "First test argument"),
                                                required_argument("arg2", "Second test argument")}},
                      with_arguments);
    server.add_completion("ref/prompt", "test_prompt_with_arguments", complete_first_argument);
    server.add_prompt(mcp::Prompt{.name = "test_prompt_with_embedded_resource",
                                  .title = "Prompt With Embedded Resource",
                                  .description = "A prompt that includes an embedded resource",
                                  .arguments = {required_argument("resourceUri", "URI of the resource to embed")}},
                      with_embedded_resource);
    server.add_prompt(mcp::Prompt{.name = "test_prompt_with_image",
                                  .title = "Prompt With Image",
                                  .description = "A prompt that includes image content"},
                      [](mcp::PromptGet&) {
                          return user_says({Content::image(test_image_base64, "image/png"),
                                            Content::text("Please analyze the image above.")});
                      });
    server.add_prompt(mcp::Prompt{.name = "test_input_required_result_prompt",
                                  .description = "MRTR: prompt that requires elicitation input"},
                      with_context);
}

}  // namespace mcpkit::everything
