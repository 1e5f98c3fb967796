#pragma once
// Renders a review's markdown to HTML with cmark-gfm (GitHub flavour: tables, task lists,
// strikethrough, autolinks), turning every code reference into a link the panel page opens in
// the editor. Raw HTML in the review is not passed through: the page must not run what a review
// carries.

#include "review/References.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::review {

struct RenderedReview {
    std::string html;
    std::vector<ResolvedReference> references;  ///< in document order
};

/// References become <a href="/open?path=…&line=…" title="path:line">; `base_directory` resolves
/// relative ones.
RenderedReview render_review(std::string_view markdown, const std::string& base_directory);

/// The href a resolved reference gets, e.g. "/open?path=%2Fsrc%2Fa.cpp&line=4".
std::string open_link(const ResolvedReference& reference);

}  // namespace mcpkit::review
