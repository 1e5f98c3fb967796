#pragma once
// The review the panel shows, and the earlier ones: applies replace, append and update-section
// to the markdown text, and keeps a bounded history of what each replace displaced.

#include "review/ReviewRequest.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

namespace mcpkit::review {

struct Review {
    std::uint64_t revision = 0;  ///< grows with every change, across reviews
    std::string markdown;
    std::string base_uri;
    std::chrono::system_clock::time_point updated;
    /// The first heading's text, or the first line: how the history lists it.
    std::string title() const;
};

class ReviewDocument {
public:
    explicit ReviewDocument(std::size_t history_limit = 50) : history_limit_(history_limit) {}

    void apply(const ReviewRequest& request);
    const Review& current() const { return current_; }
    /// Earlier reviews, newest first.
    const std::deque<Review>& history() const { return history_; }

private:
    std::size_t history_limit_;
    Review current_;
    std::deque<Review> history_;
    std::uint64_t revision_ = 0;
};

/// `markdown` with the body under the heading `section` replaced by `body` (up to the next heading
/// of the same or a higher level, outside code blocks); with `## section` and the body appended
/// when there is no such heading. A body that starts with that same heading replaces it too.
std::string replace_section(std::string_view markdown, std::string_view section, std::string_view body);

}  // namespace mcpkit::review
