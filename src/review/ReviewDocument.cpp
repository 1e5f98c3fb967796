#include "review/ReviewDocument.hpp"
#include "review/Text.hpp"

#include <cctype>
#include <optional>
#include <vector>

namespace mcpkit::review {

namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

struct Heading {
    int level;
    std::string_view text;
};

/// An ATX heading ("## Text ##"), per CommonMark: up to 3 spaces of indent, 1-6 '#', then a space or the end.
std::optional<Heading> parse_heading(std::string_view line) {
    std::size_t indent = 0;
    while (indent < line.size() && indent < 4 && line[indent] == ' ') ++indent;
    if (indent > 3) return std::nullopt;
    line.remove_prefix(indent);
    int level = 0;
    while (level < static_cast<int>(line.size()) && line[static_cast<std::size_t>(level)] == '#') ++level;
    if (level == 0 || level > 6) return std::nullopt;
    std::string_view rest = line.substr(static_cast<std::size_t>(level));
    if (!rest.empty() && rest.front() != ' ' && rest.front() != '\t' && rest.front() != '\r') return std::nullopt;
    rest = trim(rest);
    // A closing sequence of '#' preceded by a space is not part of the text.
    auto end = rest.find_last_not_of('#');
    if (end != std::string_view::npos && end + 1 < rest.size() && (rest[end] == ' ' || rest[end] == '\t'))
        rest = trim(rest.substr(0, end));
    else if (end == std::string_view::npos)
        rest = {};
    return Heading{level, rest};
}

/// A line opening or closing a fenced code block: its fence character and length.
std::optional<std::pair<char, std::size_t>> parse_fence(std::string_view line) {
    std::size_t indent = 0;
    while (indent < line.size() && indent < 4 && line[indent] == ' ') ++indent;
    if (indent > 3 || indent >= line.size()) return std::nullopt;
    char fence = line[indent];
    if (fence != '`' && fence != '~') return std::nullopt;
    std::size_t length = 0;
    while (indent + length < line.size() && line[indent + length] == fence) ++length;
    if (length < 3) return std::nullopt;
    return std::pair{fence, length};
}

struct Line {
    std::size_t start, end;  ///< [start, end) without the newline; `next` is where the next line starts
    std::size_t next;
    std::optional<Heading> heading;  ///< only outside code blocks
};

std::vector<Line> scan_lines(std::string_view text) {
    std::vector<Line> lines;
    std::optional<std::pair<char, std::size_t>> open_fence;
    std::size_t position = 0;
    while (position < text.size()) {
        auto newline = text.find('\n', position);
        std::size_t end = newline == std::string_view::npos ? text.size() : newline;
        std::size_t next = newline == std::string_view::npos ? text.size() : newline + 1;
        std::string_view line = text.substr(position, end - position);
        Line scanned{position, end, next, std::nullopt};
        if (auto fence = parse_fence(line)) {
            if (!open_fence) {
                open_fence = fence;
            } else if (fence->first == open_fence->first && fence->second >= open_fence->second) {
                open_fence.reset();
            }
        } else if (!open_fence) {
            scanned.heading = parse_heading(line);
        }
        lines.push_back(scanned);
        position = next;
    }
    return lines;
}

}  // namespace

std::string Review::title() const {
    for (const auto& line : scan_lines(markdown))
        if (line.heading && !line.heading->text.empty()) return std::string(line.heading->text);
    auto first = trim(std::string_view(markdown).substr(0, markdown.find('\n')));
    return first.size() > 80 ? std::string(first.substr(0, 77)) + "..." : std::string(first);
}

std::string replace_section(std::string_view markdown, std::string_view section, std::string_view body) {
    auto lines = scan_lines(markdown);
    std::string_view new_body = body;
    // The caller may include the heading itself: keep one.
    auto body_lines = scan_lines(body);
    if (!body_lines.empty() && body_lines.front().heading &&
        equal_ignoring_case(body_lines.front().heading->text, section))
        new_body = body.substr(body_lines.front().next);
    new_body = trim(new_body);

    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].heading || !equal_ignoring_case(lines[i].heading->text, section)) continue;
        int level = lines[i].heading->level;
        std::size_t body_start = lines[i].next;
        std::size_t body_end = markdown.size();
        for (std::size_t j = i + 1; j < lines.size(); ++j) {
            if (lines[j].heading && lines[j].heading->level <= level) {
                body_end = lines[j].start;
                break;
            }
        }
        std::string result(markdown.substr(0, body_start));
        if (!result.empty() && result.back() != '\n') result += '\n';
        result += '\n';
        result += new_body;
        result += "\n";
        if (body_end < markdown.size()) {
            result += '\n';
            result += markdown.substr(body_end);
        }
        return result;
    }
    std::string result(trim(markdown));
    if (!result.empty()) result += "\n\n";
    result += "## ";
    result += section;
    result += "\n\n";
    result += new_body;
    result += '\n';
    return result;
}

void ReviewDocument::apply(const ReviewRequest& request) {
    Review next = current_;
    switch (request.mode) {
    case ReviewMode::replace:
        next.markdown = request.content;
        break;
    case ReviewMode::append:
        next.markdown = std::string(trim(current_.markdown));
        if (!next.markdown.empty()) next.markdown += "\n\n";
        next.markdown += request.content;
        break;
    case ReviewMode::update_section:
        next.markdown = replace_section(current_.markdown, request.section, request.content);
        break;
    }
    if (request.mode == ReviewMode::replace && !trim(current_.markdown).empty()) {
        history_.push_front(current_);
        if (history_.size() > history_limit_) history_.pop_back();
    }
    next.base_uri = request.base_uri;
    next.revision = ++revision_;
    next.updated = std::chrono::system_clock::now();
    current_ = std::move(next);
}

}  // namespace mcpkit::review
