#pragma once
// `ui/update-model-context` (SEP-1865): what an MCP App's view asks the model to know. Each view
// has at most one context, the newest replacing the one before; they go to the model with the
// next user message (its `context`, kept in the history apart from what the person wrote) and
// are then cleared.

#include <boost/json/object.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace mcpkit::host {

struct ViewContext {
    std::string view_id;
    std::string server;
    std::string tool;
    std::string text;
};

/// Larger contexts are refused: they would crowd the model's context window.
constexpr std::size_t max_view_context_bytes = 16 * 1024;
/// Views with a context at once; a newer one pushes the oldest out.
constexpr std::size_t max_view_contexts = 8;

/// The update's `params` ({content?: ContentBlock[], structuredContent?: object}) as text for the
/// model: text blocks as they are, other blocks named, the structured content as JSON. Throws
/// std::invalid_argument naming the field when they are malformed, std::length_error when the
/// text is over max_view_context_bytes.
std::string view_context_text(const boost::json::object& params);

/// Keeps `context` as its view's newest (an empty text forgets the view's context), the oldest
/// view's dropped beyond max_view_contexts.
void keep_view_context(std::vector<ViewContext>& contexts, ViewContext context);

/// The context that goes with the user's next message for `contexts` ("" for none).
std::string view_contexts_for_model(const std::vector<ViewContext>& contexts);

}  // namespace mcpkit::host
