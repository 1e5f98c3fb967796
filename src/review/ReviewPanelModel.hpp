#pragma once
// What the panel's page shows: the review document, each version rendered once (at the change,
// not per page load), and the paths its references name (the only ones the page may open).

#include "review/MarkdownRenderer.hpp"
#include "review/ReviewDocument.hpp"

#include <boost/json/object.hpp>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace mcpkit::review {

class ReviewPanelModel {
public:
    /// `fallback_base` resolves references when a review has no base (a payload from an older client).
    explicit ReviewPanelModel(std::string fallback_base, std::size_t history_limit = 50);

    void apply(const ReviewRequest& request);
    /// {revision, title, markdown, html, baseUri, updated, references, history: [{revision, title, updated}]};
    /// revision 0 and empty texts before the first review.
    boost::json::object current_json() const;
    /// The same for an earlier review still in the history (without the history list).
    std::optional<boost::json::object> review_json(std::uint64_t revision) const;
    /// Whether a shown review (current or in the history) links to this file.
    bool links_to(const std::string& path) const;
    std::uint64_t revision() const { return document_.current().revision; }

private:
    boost::json::object describe(const Review& review) const;
    std::string base_directory(const Review& review) const;

    std::string fallback_base_;
    ReviewDocument document_;
    std::map<std::uint64_t, RenderedReview> rendered_;  ///< by revision, for the current review and the history
};

}  // namespace mcpkit::review
