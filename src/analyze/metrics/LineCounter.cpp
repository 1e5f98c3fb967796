#include "analyze/metrics/LineCounter.hpp"

#include <algorithm>
#include <string>
#include <vector>

// Each step mirrors a cloc 1.96 routine (named in the comments) closely enough that the counts are
// the same; the lines keep their trailing "\n" the way Perl's `<$IN>` leaves them.

namespace mcpkit::analyze {

namespace {

// Lines are views into one buffer per stage (the file, then each rewritten text), not a string
// each: only the count is kept, and a Python file's lines used to be copied five times.
using Lines = std::vector<std::string_view>;

// Perl's \s on bytes.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool is_blank(std::string_view line) {
    for (char c : line)
        if (!is_space(c)) return false;
    return true;
}

// Perl's /\\$/: a backslash at the very end or right before a final newline.
bool ends_in_backslash(std::string_view line) {
    std::size_t size = line.size();
    if (size > 0 && line[size - 1] == '\n') --size;
    return size > 0 && line[size - 1] == '\\';
}

// cloc's %EOL_Continuation_re: every language here but Java and Rust.
bool has_line_continuation(Language language) { return language != Language::java && language != Language::rust; }

// Views of the lines that end at each offset in `ends`, one after the other in `text`.
Lines views_of(const std::string& text, const std::vector<std::size_t>& ends) {
    Lines lines;
    lines.reserve(ends.size());
    std::size_t from = 0;
    for (std::size_t end : ends) {
        lines.emplace_back(text.data() + from, end - from);
        from = end;
    }
    return lines;
}

// read_file: split after each "\n", force a final newline, drop a byte-order mark and a CR before
// the newline. The lines, each with its "\n", are written to `text` and point into it.
Lines read_lines(std::string_view source, std::string& text) {
    if (source.size() >= 3 && source.substr(0, 3) == "\xEF\xBB\xBF")
        source.remove_prefix(3);
    else if (source.size() >= 2 && (source.substr(0, 2) == "\xFE\xFF" || source.substr(0, 2) == "\xFF\xFE"))
        source.remove_prefix(2);
    text.reserve(source.size() + 1);
    std::vector<std::size_t> ends;
    std::size_t begin = 0;
    while (begin < source.size()) {
        std::size_t newline = source.find('\n', begin);
        std::size_t end = newline == std::string_view::npos ? source.size() : newline;
        std::string_view line = source.substr(begin, end - begin);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        text.append(line);
        text.push_back('\n');
        ends.push_back(text.size());
        begin = end + 1;
    }
    return views_of(text, ends);
}

// rm_blanks / remove_matches_2re: drop blank lines, except one right after a line ending in `\`.
void drop_blank_lines(Lines& lines, bool continuation) {
    bool previous_continues = false;
    std::size_t kept = 0;
    for (std::string_view line : lines) {
        bool drop = is_blank(line) && !(continuation && previous_continues);
        previous_continues = ends_in_backslash(line);
        if (!drop) lines[kept++] = line;
    }
    lines.resize(kept);
}

// Perl's split("\n", $text): no separators kept, trailing empty fields dropped.
Lines split_lines(std::string_view text) {
    Lines lines;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t newline = text.find('\n', begin);
        if (newline == std::string_view::npos) {
            lines.push_back(text.substr(begin));
            break;
        }
        lines.push_back(text.substr(begin, newline - begin));
        begin = newline + 1;
    }
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    return lines;
}

// Regexp::Common's $RE{comment}{C++} (or {C} without line comments), applied with s///g: leftmost
// matches, `//` through its newline, `/*` through the first `*/` after it, strings not understood.
std::string remove_c_comments(std::string_view text, bool line_comments) {
    std::string out;
    out.reserve(text.size());
    std::size_t no_close_from = std::string_view::npos;  // no "*/" at or after this offset
    std::size_t position = 0;
    while (position < text.size()) {
        std::size_t slash = text.find('/', position);
        if (slash == std::string_view::npos || slash + 1 >= text.size()) break;
        char next = text[slash + 1];
        std::size_t match_end = std::string_view::npos;
        if (next == '/' && line_comments) {
            std::size_t newline = text.find('\n', slash + 2);
            if (newline != std::string_view::npos) match_end = newline + 1;
        } else if (next == '*' && (no_close_from == std::string_view::npos || slash + 2 < no_close_from)) {
            std::size_t close = text.find("*/", slash + 2);
            if (close != std::string_view::npos)
                match_end = close + 2;
            else
                no_close_from = slash + 2;
        }
        if (match_end == std::string_view::npos) {
            out.append(text, position, slash + 1 - position);
            position = slash + 1;
            continue;
        }
        out.append(text, position, slash - position);
        position = match_end;
    }
    if (position < text.size()) out.append(text, position, std::string_view::npos);
    return out;
}

// call_regexp_common('C++'), before the comments go: lines ending in `\` are joined to the next
// one, the others end in an extra newline (so a `//` comment, which takes one newline with it,
// does not join lines).
std::string join_for_c_comments(const Lines& lines) {
    std::string all;
    for (std::string_view line : lines) {
        all += line;
        if (!ends_in_backslash(line)) all += '\n';
    }
    return all;
}

// Perl's s{(["'])(.*?MARKER)\1}{"xx"}g over one line, in one pass: from each quote, the shortest
// run that ends in MARKER followed by the same quote becomes "xx". (std::regex would recurse once
// per character of the lazy run and overflow the stack on a long line.)
void hide_strings_ending_in(std::string& line, std::string_view marker) {
    std::string out;
    // Per quote, the next MARKER+quote found so far; it is reused while it lies ahead.
    std::size_t next_end[2] = {std::string::npos, std::string::npos};
    bool searched[2] = {false, false};
    std::size_t copied = 0;
    for (std::size_t at = 0; at < line.size(); ++at) {
        char quote = line[at];
        if (quote != '"' && quote != '\'') continue;
        int which = quote == '"' ? 0 : 1;
        if (!searched[which] || (next_end[which] != std::string::npos && next_end[which] < at + 1)) {
            next_end[which] = line.find(std::string(marker) + quote, at + 1);
            searched[which] = true;
        }
        if (next_end[which] == std::string::npos) continue;  // none for this quote further on either
        std::size_t end = next_end[which] + marker.size() + 1;
        out.append(line, copied, at - copied);
        out += "\"xx\"";
        copied = end;
        at = end - 1;
    }
    if (copied == 0) return;
    out.append(line, copied, std::string::npos);
    line = std::move(out);
}

// Java's replace_regex('\\$', ' ') and the replace_between_regex pair that hides a string ending
// in `/*` or `*/` ("src/*") from the comment remover, then its blank lines dropped. The rewritten
// lines are written to `text` and point into it.
Lines java_prefilter(const Lines& lines, std::string& text) {
    std::vector<std::size_t> ends;
    std::string line;
    for (std::string_view original : lines) {
        line.assign(original);
        std::size_t size = line.size() - (line.back() == '\n' ? 1 : 0);
        if (size > 0 && line[size - 1] == '\\') line[size - 1] = ' ';
        if (line.find("/*") != std::string::npos) hide_strings_ending_in(line, "/*");
        if (line.find("*/") != std::string::npos) hide_strings_ending_in(line, "*/");
        if (is_blank(line)) continue;
        text += line;
        ends.push_back(text.size());
    }
    return views_of(text, ends);
}

// line.find_first_of("\"'", at), without libstdc++'s memchr call per character.
std::size_t next_quote(std::string_view line, std::size_t at) {
    for (; at < line.size(); ++at)
        if (line[at] == '"' || line[at] == '\'') return at;
    return std::string_view::npos;
}

// docstring_to_C, done while joining the lines: every triple quote toggles between opening `/*`
// and closing `*/`; a u/U prefix goes with the opening one.
std::string python_docstrings_to_c(const Lines& lines) {
    bool in_docstring = false;
    std::string all;
    for (std::string_view line : lines) {
        // Left to right in one pass: the replacements hold no quotes, so no triple quote can
        // start inside what has been replaced.
        std::size_t at = 0, copied = 0;
        while ((at = next_quote(line, at)) != std::string_view::npos) {
            if (line.compare(at, 3, R"(""")") != 0 && line.compare(at, 3, "'''") != 0) {
                ++at;
                continue;
            }
            std::size_t begin = at;
            if (!in_docstring && at > copied && (line[at - 1] == 'u' || line[at - 1] == 'U')) begin = at - 1;
            all.append(line, copied, begin - copied);
            all += in_docstring ? "*/" : "/*";
            in_docstring = !in_docstring;
            at += 3;
            copied = at;
        }
        all.append(line, copied, std::string_view::npos);
    }
    return all;
}

// cloc's Python filters in order: the lines holding `/*`, then `*/`, then `#` lines go (each
// followed by rm_blanks), docstrings become C comments and C comments go. The result points into
// `text`.
// `file_text` is the buffer the lines point into: a marker it does not hold is in no line, and
// rm_blanks after a step that removed nothing changes nothing, so that step is skipped.
Lines python_comments(Lines lines, std::string_view file_text, std::string& text) {
    auto drop_lines = [&lines](auto&& predicate) {
        std::erase_if(lines, predicate);
        drop_blank_lines(lines, true);
    };
    if (file_text.find("/*") != std::string_view::npos)
        drop_lines([](std::string_view l) { return l.find("/*") != std::string_view::npos; });
    if (file_text.find("*/") != std::string_view::npos)
        drop_lines([](std::string_view l) { return l.find("*/") != std::string_view::npos; });
    drop_lines([](std::string_view l) {
        std::size_t first = 0;
        while (first < l.size() && is_space(l[first])) ++first;
        return first < l.size() && l[first] == '#';
    });
    text = remove_c_comments(python_docstrings_to_c(lines), false);
    Lines result = split_lines(text);
    drop_blank_lines(result, true);
    return result;
}

}  // namespace

LineCounts count_lines(std::string_view source, Language language) {
    std::string file_text, java_text, uncommented;
    Lines lines = read_lines(source, file_text);
    LineCounts counts;
    counts.total = static_cast<std::int64_t>(lines.size());
    bool continuation = has_line_continuation(language);
    drop_blank_lines(lines, continuation);
    counts.blank = counts.total - static_cast<std::int64_t>(lines.size());
    std::int64_t code = 0;
    if (!lines.empty()) {
        if (language == Language::python) {
            std::string_view first = lines.front();  // ends in "\n"
            Lines remaining = python_comments(std::move(lines), file_text, uncommented);
            // A script's `#!` line is code, not a comment (cloc's %Script_Language exception): it
            // is put back unless it is still the first line.
            bool first_still_there = !remaining.empty() && remaining.front() == first.substr(0, first.size() - 1);
            code = static_cast<std::int64_t>(remaining.size()) + (first.starts_with("#!") && !first_still_there ? 1 : 0);
        } else {
            if (language == Language::java) lines = java_prefilter(lines, java_text);
            uncommented = remove_c_comments(join_for_c_comments(lines), true);
            Lines remaining = split_lines(uncommented);
            drop_blank_lines(remaining, continuation);
            code = static_cast<std::int64_t>(remaining.size());
        }
    }
    // cloc turns `x \/**/` into two lines that both stay code, and so reports one comment line
    // less than none; a file has at most as many code lines as non-blank ones.
    counts.code = std::min(code, counts.total - counts.blank);
    counts.comment = counts.total - counts.blank - counts.code;
    return counts;
}

}  // namespace mcpkit::analyze
