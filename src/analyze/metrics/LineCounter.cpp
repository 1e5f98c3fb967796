#include "analyze/metrics/LineCounter.hpp"

#include <algorithm>
#include <cstring>

namespace mcpkit::analyze {

namespace {
// cloc's \s: space, tab, CR, form feed, vertical tab.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
}  // namespace

LineCounts count_lines(std::string_view source, std::span<const ByteRange> comments) {
    LineCounts counts;
    const char* data = source.data();
    std::size_t size = source.size();
    std::size_t next_comment = 0;
    std::size_t line_begin = 0;
    while (line_begin < size) {
        const void* newline = std::memchr(data + line_begin, '\n', size - line_begin);
        std::size_t line_end = newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - data) : size;
        ++counts.total;

        std::size_t position = line_begin;
        while (position < line_end && is_space(data[position])) ++position;
        if (position == line_end) {
            ++counts.blank;
        } else {
            // Skip whitespace and comment text; any other character makes it a code line.
            bool code = false;
            while (position < line_end) {
                while (next_comment < comments.size() && comments[next_comment].end <= position) ++next_comment;
                if (next_comment < comments.size() && comments[next_comment].begin <= position) {
                    position = comments[next_comment].end;
                    continue;
                }
                if (!is_space(data[position])) {
                    code = true;
                    break;
                }
                ++position;
            }
            if (code)
                ++counts.code;
            else
                ++counts.comment;
        }
        line_begin = line_end + 1;
    }
    return counts;
}

std::vector<ByteRange> merge_ranges(std::span<const ByteRange> first, std::span<const ByteRange> second) {
    std::vector<ByteRange> all;
    all.reserve(first.size() + second.size());
    std::merge(first.begin(), first.end(), second.begin(), second.end(), std::back_inserter(all),
               [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
    std::vector<ByteRange> merged;
    merged.reserve(all.size());
    for (const ByteRange& range : all) {
        if (!merged.empty() && range.begin <= merged.back().end)
            merged.back().end = std::max(merged.back().end, range.end);
        else
            merged.push_back(range);
    }
    return merged;
}

}  // namespace mcpkit::analyze
