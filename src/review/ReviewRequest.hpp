#pragma once
// What `present_review` asks the editor side to show: the validated tool arguments, and their
// form on the IPC wire (the `payload` of a `present-review` message).

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <variant>

namespace mcpkit::review {

enum class ReviewMode { replace, append, update_section };

struct ReviewRequest {
    std::string content;  ///< markdown, never empty
    ReviewMode mode = ReviewMode::replace;
    std::string section;  ///< heading text, for update_section only
    std::string base_uri;  ///< file:// URI of the directory relative references resolve against
};

std::string_view to_string(ReviewMode mode);
std::optional<ReviewMode> parse_mode(std::string_view text);

/// A problem with the arguments, phrased for the caller: names the field and the fix.
struct ArgumentError {
    std::string message;
};

/// Validates tool arguments (or an IPC payload: the same fields). `default_base` is used when
/// `baseUri` is absent: a path or a file:// URI.
std::variant<ReviewRequest, ArgumentError> parse_review_request(const boost::json::object& arguments,
                                                                std::string_view default_base);

/// The IPC payload: {content, mode, section?, baseUri}.
boost::json::object to_payload(const ReviewRequest& request);

/// "file:///a/b" for "/a/b" (percent-encoding what a path may hold); a file:// URI is kept.
std::string to_file_uri(std::string_view path_or_uri);
/// The local path of a file:// URI ("file:///a%20b" → "/a b"); nullopt for other schemes.
std::optional<std::string> file_uri_to_path(std::string_view uri);

}  // namespace mcpkit::review
