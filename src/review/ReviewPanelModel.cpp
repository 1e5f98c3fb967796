#include "review/ReviewPanelModel.hpp"

#include <boost/json/array.hpp>

#include <ctime>

namespace mcpkit::review {
namespace json = boost::json;

namespace {
std::string iso_time(std::chrono::system_clock::time_point at) {
    std::time_t seconds = std::chrono::system_clock::to_time_t(at);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}
}  // namespace

ReviewPanelModel::ReviewPanelModel(std::string fallback_base, std::size_t history_limit)
    : fallback_base_(std::move(fallback_base)), document_(history_limit) {}

std::string ReviewPanelModel::base_directory(const Review& review) const {
    if (auto path = file_uri_to_path(review.base_uri)) return *path;
    return fallback_base_;
}

void ReviewPanelModel::apply(const ReviewRequest& request) {
    document_.apply(request);
    const Review& current = document_.current();
    rendered_[current.revision] = render_review(current.markdown, base_directory(current));
    // Keep renderings only for what can still be shown.
    std::set<std::uint64_t> live{current.revision};
    for (const auto& earlier : document_.history()) live.insert(earlier.revision);
    std::erase_if(rendered_, [&](const auto& entry) { return !live.contains(entry.first); });
}

json::object ReviewPanelModel::describe(const Review& review) const {
    json::object object{{"revision", review.revision},
                        {"title", review.title()},
                        {"markdown", review.markdown},
                        {"baseUri", review.base_uri},
                        {"updated", review.revision ? iso_time(review.updated) : std::string()}};
    json::array references;
    auto rendered = rendered_.find(review.revision);
    object["html"] = rendered == rendered_.end() ? std::string() : rendered->second.html;
    if (rendered != rendered_.end())
        for (const auto& reference : rendered->second.references) {
            json::object item{{"path", reference.path}, {"line", reference.line}, {"exists", reference.exists}};
            if (reference.end_line) item["end"] = reference.end_line;
            if (!reference.note.empty()) item["note"] = reference.note;
            references.push_back(std::move(item));
        }
    object["references"] = std::move(references);
    return object;
}

json::object ReviewPanelModel::current_json() const {
    json::object object = describe(document_.current());
    json::array history;
    for (const auto& earlier : document_.history())
        history.push_back(json::object{{"revision", earlier.revision}, {"title", earlier.title()},
                                       {"updated", iso_time(earlier.updated)}});
    object["history"] = std::move(history);
    return object;
}

std::optional<json::object> ReviewPanelModel::review_json(std::uint64_t revision) const {
    if (revision == document_.current().revision) return describe(document_.current());
    for (const auto& earlier : document_.history())
        if (earlier.revision == revision) return describe(earlier);
    return std::nullopt;
}

bool ReviewPanelModel::links_to(const std::string& path) const {
    for (const auto& [revision, rendered] : rendered_)
        for (const auto& reference : rendered.references)
            if (reference.path == path) return true;
    return false;
}

}  // namespace mcpkit::review
