#include "analyze/metrics/LineCounter.hpp"

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

// Each step mirrors a cloc 1.96 routine (named in the comments) closely enough that the counts are
// the same; the lines keep their trailing "\n" the way Perl's `<$IN>` leaves them.

namespace mcpkit::analyze {

namespace {

using Lines = std::vector<std::string>;

// Perl's \s on bytes.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool is_blank(const std::string& line) {
    for (char c : line)
        if (!is_space(c)) return false;
    return true;
}

// Perl's /\\$/: a backslash at the very end or right before a final newline.
bool ends_in_backslash(const std::string& line) {
    std::size_t size = line.size();
    if (size > 0 && line[size - 1] == '\n') --size;
    return size > 0 && line[size - 1] == '\\';
}

// cloc's %EOL_Continuation_re: every language here but Java and Rust.
bool has_line_continuation(Language language) { return language != Language::java && language != Language::rust; }

// read_file: split after each "\n", force a final newline, drop a byte-order mark and a CR before
// the newline.
Lines read_lines(std::string_view source) {
    if (source.size() >= 3 && source.substr(0, 3) == "\xEF\xBB\xBF")
        source.remove_prefix(3);
    else if (source.size() >= 2 && (source.substr(0, 2) == "\xFE\xFF" || source.substr(0, 2) == "\xFF\xFE"))
        source.remove_prefix(2);
    Lines lines;
    std::size_t begin = 0;
    while (begin < source.size()) {
        std::size_t newline = source.find('\n', begin);
        std::size_t end = newline == std::string_view::npos ? source.size() : newline;
        std::string line(source.substr(begin, end - begin));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        line.push_back('\n');
        lines.push_back(std::move(line));
        begin = end + 1;
    }
    return lines;
}

// rm_blanks / remove_matches_2re: drop blank lines, except one right after a line ending in `\`.
Lines drop_blank_lines(Lines lines, bool continuation) {
    Lines kept;
    kept.reserve(lines.size());
    bool previous_continues = false;  // checked before the previous line is moved away
    for (std::string& line : lines) {
        bool continues = ends_in_backslash(line);
        bool drop = is_blank(line) && !(continuation && previous_continues);
        previous_continues = continues;
        if (!drop) kept.push_back(std::move(line));
    }
    return kept;
}

// Perl's split("\n", $text): no separators kept, trailing empty fields dropped.
Lines split_lines(const std::string& text) {
    Lines lines;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t newline = text.find('\n', begin);
        if (newline == std::string::npos) {
            lines.emplace_back(text.substr(begin));
            break;
        }
        lines.emplace_back(text.substr(begin, newline - begin));
        begin = newline + 1;
    }
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    return lines;
}

// Regexp::Common's $RE{comment}{C++} (or {C} without line comments), applied with s///g: leftmost
// matches, `//` through its newline, `/*` through the first `*/` after it, strings not understood.
std::string remove_c_comments(const std::string& text, bool line_comments) {
    std::string out;
    out.reserve(text.size());
    std::size_t no_close_from = std::string::npos;  // no "*/" at or after this offset
    std::size_t position = 0;
    while (position < text.size()) {
        std::size_t slash = text.find('/', position);
        if (slash == std::string::npos || slash + 1 >= text.size()) break;
        char next = text[slash + 1];
        std::size_t match_end = std::string::npos;
        if (next == '/' && line_comments) {
            std::size_t newline = text.find('\n', slash + 2);
            if (newline != std::string::npos) match_end = newline + 1;
        } else if (next == '*' && (no_close_from == std::string::npos || slash + 2 < no_close_from)) {
            std::size_t close = text.find("*/", slash + 2);
            if (close != std::string::npos)
                match_end = close + 2;
            else
                no_close_from = slash + 2;
        }
        if (match_end == std::string::npos) {
            out.append(text, position, slash + 1 - position);
            position = slash + 1;
            continue;
        }
        out.append(text, position, slash - position);
        position = match_end;
    }
    if (position < text.size()) out.append(text, position, std::string::npos);
    return out;
}

// call_regexp_common('C++'): lines ending in `\` are joined to the next one, the others end in an
// extra newline (so a `//` comment, which takes one newline with it, does not join lines).
Lines c_family_comments(const Lines& lines) {
    std::string all;
    for (const std::string& line : lines) {
        all += line;
        if (!ends_in_backslash(line)) all += '\n';
    }
    return split_lines(remove_c_comments(all, true));
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
// in `/*` or `*/` ("src/*") from the comment remover.
Lines java_prefilter(Lines lines) {
    Lines kept;
    for (std::string& line : lines) {
        std::size_t size = line.size() - (line.back() == '\n' ? 1 : 0);
        if (size > 0 && line[size - 1] == '\\') line[size - 1] = ' ';
        if (line.find("/*") != std::string::npos) hide_strings_ending_in(line, "/*");
        if (line.find("*/") != std::string::npos) hide_strings_ending_in(line, "*/");
        if (!is_blank(line)) kept.push_back(std::move(line));
    }
    return kept;
}

// docstring_to_C: every triple quote toggles between opening `/*` and closing `*/`; a u/U prefix
// goes with the opening one.
void python_docstrings_to_c(Lines& lines) {
    bool in_docstring = false;
    std::string out;
    for (std::string& line : lines) {
        // Left to right in one pass: the replacements hold no quotes, so no triple quote can
        // start inside what has been replaced.
        std::size_t at = 0, copied = 0;
        bool changed = false;
        while ((at = line.find_first_of("\"'", at)) != std::string::npos) {
            if (line.compare(at, 3, R"(""")") != 0 && line.compare(at, 3, "'''") != 0) {
                ++at;
                continue;
            }
            if (!changed) out.clear();
            changed = true;
            std::size_t begin = at;
            if (!in_docstring && at > copied && (line[at - 1] == 'u' || line[at - 1] == 'U')) begin = at - 1;
            out.append(line, copied, begin - copied);
            out += in_docstring ? "*/" : "/*";
            in_docstring = !in_docstring;
            at += 3;
            copied = at;
        }
        if (!changed) continue;
        out.append(line, copied, std::string::npos);
        line.swap(out);
    }
}

Lines python_comments(Lines lines) {
    auto drop_blank = [](Lines input) { return drop_blank_lines(std::move(input), true); };
    auto drop_if = [](Lines input, auto&& predicate) {
        Lines kept;
        for (std::string& line : input)
            if (!predicate(line)) kept.push_back(std::move(line));
        return kept;
    };
    lines = drop_blank(drop_if(std::move(lines), [](const std::string& l) { return l.find("/*") != std::string::npos; }));
    lines = drop_blank(drop_if(std::move(lines), [](const std::string& l) { return l.find("*/") != std::string::npos; }));
    lines = drop_blank(drop_if(std::move(lines), [](const std::string& l) {
        std::size_t first = l.find_first_not_of(" \t\n\r\f\v");
        return first != std::string::npos && l[first] == '#';
    }));
    python_docstrings_to_c(lines);
    std::string all;
    for (const std::string& line : lines) all += line;
    return drop_blank(split_lines(remove_c_comments(all, false)));
}

}  // namespace

LineCounts count_lines(std::string_view source, Language language) {
    Lines lines = read_lines(source);
    LineCounts counts;
    counts.total = static_cast<std::int64_t>(lines.size());
    bool continuation = has_line_continuation(language);
    lines = drop_blank_lines(std::move(lines), continuation);
    counts.blank = counts.total - static_cast<std::int64_t>(lines.size());
    if (!lines.empty()) {
        if (language == Language::python) {
            // A script's `#!` line is code, not a comment (cloc's %Script_Language exception).
            std::string first = lines.front();
            lines = python_comments(std::move(lines));
            if (first.starts_with("#!") && (lines.empty() || lines.front() + "\n" != first))
                lines.insert(lines.begin(), first);
        } else {
            if (language == Language::java) lines = java_prefilter(std::move(lines));
            lines = drop_blank_lines(c_family_comments(lines), continuation);
        }
    }
    // cloc turns `x \/**/` into two lines that both stay code, and so reports one comment line
    // less than none; a file has at most as many code lines as non-blank ones.
    counts.code = std::min(static_cast<std::int64_t>(lines.size()), counts.total - counts.blank);
    counts.comment = counts.total - counts.blank - counts.code;
    return counts;
}

}  // namespace mcpkit::analyze
