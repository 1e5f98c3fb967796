// The fixture's resources: static text and binary, a template, the watched resource (its update
// notifications come from DynamicFeatures.cpp), and the one the fixture serves on its 2026 path.
// One registry serves both eras; libmcp adds the cache hints and picks the era's not-found code.

#include "everything/FixtureParts.hpp"

#include <boost/json/serialize.hpp>

#include <array>

namespace mcpkit::everything {
namespace json = boost::json;
using mcp::ReadResourceResult;
using mcp::ResourceContents;

namespace {

ReadResourceResult one_text(std::string uri, std::string mime_type, std::string text) {
    return ReadResourceResult{{ResourceContents::of_text(std::move(uri), std::move(mime_type), std::move(text))}};
}

ReadResourceResult template_data(mcp::ResourceRead& read) {
    const std::string& id = read.variables.at("id");
    json::object data{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}};
    return one_text(read.uri, "application/json", json::serialize(data));
}

mcp::Completion complete_template_id(mcp::CompletionRequest& request) {
    // A few ids to pick from; any id reads, so these only demonstrate completion for templates.
    static constexpr std::array<std::string_view, 5> ids = {"1", "2", "3", "42", "123"};
    mcp::Completion completion;
    if (request.argument == "id")
        for (auto id : ids)
            if (id.starts_with(request.value)) completion.values.emplace_back(id);
    completion.total = static_cast<std::int64_t>(completion.values.size());
    return completion;
}

}  // namespace

void register_resources(mcp::Server& server) {
    server.add_resource(mcp::Resource{.uri = "test://static-text",
                                      .name = "static-text",
                                      .title = "Static Text Resource",
                                      .description = "A static text resource for testing",
                                      .mime_type = "text/plain"},
                        [](mcp::ResourceRead&) {
                            return one_text("test://static-text", "text/plain",
                                            "This is the content of the static text resource.");
                        });
    server.add_resource(mcp::Resource{.uri = "test://static-binary",
                                      .name = "static-binary",
                                      .title = "Static Binary Resource",
                                      .description = "A static binary resource (image) for testing",
                                      .mime_type = "image/png"},
                        [](mcp::ResourceRead&) {
                            return ReadResourceResult{{ResourceContents::of_blob("test://static-binary", "image/png",
                                                                                 std::string(test_image_base64))}};
                        });
    server.add_resource_template(mcp::ResourceTemplate{.uri_template = "test://template/{id}/data",
                                                       .name = "template",
                                                       .title = "Resource Template",
                                                       .description = "A resource template with parameter substitution",
                                                       .mime_type = "application/json"},
                                 template_data);
    server.add_completion("ref/resource", "test://template/{id}/data", complete_template_id);
    server.add_resource(mcp::Resource{.uri = std::string(watched_resource_uri),
                                      .name = "watched-resource",
                                      .title = "Watched Resource",
                                      .description = "A resource that auto-updates every 3 seconds",
                                      .mime_type = "text/plain"},
                        [](mcp::ResourceRead&) {
                            return one_text(std::string(watched_resource_uri), "text/plain",
                                            "Watched resource content");
                        });
    // The fixture lists this one only to 2026 clients; it reads the same in both eras here.
    server.add_resource(mcp::Resource{.uri = "test://stateless-static-text",
                                      .name = "Stateless Static Text",
                                      .description = "A static text resource served on the draft path",
                                      .mime_type = "text/plain"},
                        [](mcp::ResourceRead&) {
                            return one_text("test://stateless-static-text", "text/plain",
                                            "Static text content from the stateless draft path.");
                        });
}

}  // namespace mcpkit::everything
