#include "host/apps/McpApps.hpp"

#include "host/coordinator/AppMetadata.hpp"

#include <regex>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

constexpr std::size_t views_kept = 256;

std::string base64_decode(std::string_view text) {
    static constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    for (char c : text) {
        auto index = alphabet.find(c);
        if (index == std::string_view::npos) continue;  // padding, line breaks
        buffer = (buffer << 6) | static_cast<unsigned>(index);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xFF);
        }
    }
    return out;
}

std::string origins(const json::object& declared, std::string_view key) {
    static const std::regex origin(R"(^(https?|wss?)://(\*\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?$)");
    std::string list;
    auto* values = declared.if_contains(key);
    if (!values || !values->is_array()) return list;
    for (const auto& value : values->get_array())
        // Bounded: the regex executor recurses once per character, and the list is a server's.
        if (value.is_string() && value.get_string().size() <= 300 && std::regex_match(std::string(value.get_string()), origin))
            list += " " + std::string(value.get_string());
    return list;
}

}  // namespace

std::string app_content_security_policy(const json::object& declared) {
    std::string resources = origins(declared, "resourceDomains");
    std::string connect = origins(declared, "connectDomains");
    std::string frames = origins(declared, "frameDomains");
    std::string bases = origins(declared, "baseUriDomains");
    return "default-src 'none'; script-src 'self' 'unsafe-inline'" + resources + "; style-src 'self' 'unsafe-inline'" +
           resources + "; img-src 'self' data:" + resources + "; font-src 'self'" + resources +
           "; media-src 'self' data:" + resources + "; connect-src " + (connect.empty() ? "'none'" : connect.substr(1)) +
           "; frame-src " + (frames.empty() ? "'none'" : frames.substr(1)) + "; base-uri " +
           (bases.empty() ? "'self'" : bases.substr(1)) + "; object-src 'none'; frame-ancestors 'self'" +
           // Sandboxed by the header too, not only by the page's iframe: opened on its own (a link
           // to its URL) the view still gets an opaque origin, never the host's.
           "; sandbox allow-scripts allow-forms";
}

std::string McpApps::keep(AppView view) {
    std::string id = new_id("app");
    views_[id] = std::move(view);
    order_.push_back(id);
    while (order_.size() > views_kept) {
        views_.erase(order_.front());
        order_.pop_front();
    }
    return id;
}

const AppView* McpApps::view(const std::string& id) const {
    auto it = views_.find(id);
    return it == views_.end() ? nullptr : &it->second;
}

const AppView* McpApps::view_at(std::string_view url) const {
    constexpr std::string_view prefix = "/apps/";
    return url.starts_with(prefix) ? view(std::string(url.substr(prefix.size()))) : nullptr;
}

bool McpApps::serves(const json::value& app) const {
    auto* url = app.is_object() ? app.get_object().if_contains("url") : nullptr;
    return url && url->is_string() && view_at(url->get_string());
}

boost::asio::awaitable<json::value> McpApps::app_for(const RegisteredTool& tool) {
    auto uri = app_resource_uri(tool.tool);
    if (!uri) co_return nullptr;
    auto server = coordinator_.server(tool.server);
    std::shared_ptr<mcp::Client> client = server ? server->client() : nullptr;
    if (!client) co_return nullptr;
    std::vector<mcp::ResourceContents> contents;
    std::string failure;
    try {
        contents = co_await client->read_resource(*uri);
    } catch (const std::exception& e) {
        failure = e.what();
    }
    const mcp::ResourceContents* html = nullptr;
    for (const auto& item : contents)
        if (item.mime_type && item.mime_type->starts_with("text/html")) html = &item;
    if (!html) {
        log_.warn("MCP", "app_unreadable",
                  {{"server", tool.server}, {"uri", *uri}, {"error", failure.empty() ? "no text/html content" : failure}});
        co_return nullptr;
    }
    // The content's own _meta.ui wins over the listing's, as the spec's read response carries it.
    json::object ui;
    if (auto* meta = html->meta.if_contains("ui"); meta && meta->is_object()) ui = meta->get_object();
    json::object csp;
    if (auto* declared = ui.if_contains("csp"); declared && declared->is_object()) csp = declared->get_object();
    AppView view{html->text ? *html->text : base64_decode(html->blob.value_or("")), app_content_security_policy(csp),
                 tool.server, tool.qualified_name};
    log_.info("MCP", "app_view", {{"server", tool.server}, {"uri", *uri}, {"csp", view.content_security_policy}});
    std::string id = keep(std::move(view));
    json::object app{{"url", "/apps/" + id}, {"resourceUri", *uri}, {"server", tool.server}, {"tool", tool.tool.to_json()}};
    if (auto* border = ui.if_contains("prefersBorder"); border && border->is_bool()) app["prefersBorder"] = *border;
    co_return app;
}

}  // namespace mcpkit::host
