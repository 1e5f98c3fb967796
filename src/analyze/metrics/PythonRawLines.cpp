#include "analyze/metrics/PythonRawLines.hpp"

#include <array>
#include <vector>

namespace mcpkit::analyze {

namespace {

// str.splitlines() separators radon sees after Python decoded the file with universal newlines.
std::size_t line_break_length(std::string_view text, std::size_t at) {
    unsigned char c = static_cast<unsigned char>(text[at]);
    if (c == '\r') return at + 1 < text.size() && text[at + 1] == '\n' ? 2 : 1;
    if (c == '\n' || c == '\v' || c == '\f' || c == 0x1c || c == 0x1d || c == 0x1e) return 1;
    if (c == 0xC2 && at + 1 < text.size() && static_cast<unsigned char>(text[at + 1]) == 0x85) return 2;
    if (c == 0xE2 && at + 2 < text.size() && static_cast<unsigned char>(text[at + 1]) == 0x80 &&
        (static_cast<unsigned char>(text[at + 2]) == 0xA8 || static_cast<unsigned char>(text[at + 2]) == 0xA9))
        return 3;
    return 0;
}

// The bytes a line break of str.splitlines() can start with: every other byte is skipped with one
// table look-up.
constexpr std::array<bool, 256> break_starts = [] {
    std::array<bool, 256> starts{};
    for (unsigned char c : {'\n', '\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\xC2', '\xE2'}) starts[c] = true;
    return starts;
}();

bool is_strip_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || (c >= 0x1c && c <= 0x1f);
}

std::string_view strip(std::string_view line) {
    while (!line.empty() && is_strip_space(line.front())) line.remove_prefix(1);
    while (!line.empty() && is_strip_space(line.back())) line.remove_suffix(1);
    return line;
}

std::vector<std::string_view> stripped_lines(std::string_view source) {
    std::vector<std::string_view> lines;
    std::size_t begin = 0;
    std::size_t at = 0;
    while (at < source.size()) {
        if (!break_starts[static_cast<unsigned char>(source[at])]) {
            ++at;
            continue;
        }
        std::size_t length = line_break_length(source, at);
        if (length == 0) {
            ++at;
            continue;
        }
        lines.push_back(strip(source.substr(begin, at - begin)));
        at += length;
        begin = at;
    }
    if (begin < source.size()) lines.push_back(strip(source.substr(begin)));
    return lines;
}

bool is_word(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}

bool is_string_prefix(char c) {
    switch (c) {
    case 'r': case 'R': case 'b': case 'B': case 'u': case 'U': case 'f': case 'F': return true;
    default: return false;
    }
}

enum class Token { comment, string, colon, semicolon, other };

// The length of Python's operator at the start of `rest` (not empty): the three-character ones
// `**= //= >>= <<= ...`, the two-character ones `** // << >> -> <>` and `X=` for X in
// `< > = ! + - * / % & | ^ @ :`, else 1. Decided on the first characters: comparing the 25
// operators in turn made these raw counts 7% of a cold Python report's instructions (now 3.7%).
std::size_t operator_length(std::string_view rest) {
    char a = rest[0];
    char b = rest.size() > 1 ? rest[1] : '\0';
    char c = rest.size() > 2 ? rest[2] : '\0';
    bool doubled = b == a && (a == '*' || a == '/' || a == '<' || a == '>');
    if (doubled) return c == '=' ? 3 : 2;
    if (a == '.') return b == '.' && c == '.' ? 3 : 1;
    if (b == '=') {
        switch (a) {
        case '<': case '>': case '=': case '!': case '+': case '-': case '*': case '/':
        case '%': case '&': case '|': case '^': case '@': case ':': return 2;
        default: return 1;
        }
    }
    return (a == '-' && b == '>') || (a == '<' && b == '>') ? 2 : 1;
}

// Tokenizes one group of stripped lines the way Python's tokenize module would, keeping only what
// radon looks at.
class GroupTokenizer {
public:
    /// Starts the next group, keeping the token buffer's memory.
    void reset() {
        tokens_.clear();
        depth_ = 0;
        in_string_ = triple_ = continued_ = failed_ = false;
        quote_ = '"';
        string_first_line_ = string_last_line_ = -1;
    }

    void feed(std::string_view line, int line_index) {
        continued_ = false;
        std::size_t at = 0;
        if (in_string_) {
            at = scan_string_body(line, 0);
            if (in_string_ || failed_) return;
            close_string(line_index);
        }
        while (at < line.size() && !failed_) {
            char c = line[at];
            if (c == ' ' || c == '\t' || c == '\f') {
                ++at;
            } else if (c == '#') {
                tokens_.push_back(Token::comment);
                return;
            } else if (c == '\\') {
                if (at + 1 == line.size())
                    continued_ = true;
                else
                    failed_ = true;
                return;
            } else if (c == '"' || c == '\'' || (is_string_prefix(c) && starts_string(line, at))) {
                while (line[at] != '"' && line[at] != '\'') ++at;
                quote_ = line[at];
                triple_ = at + 2 < line.size() && line[at + 1] == quote_ && line[at + 2] == quote_;
                at += triple_ ? 3 : 1;
                in_string_ = true;
                string_first_line_ = line_index;
                at = scan_string_body(line, at);
                if (in_string_ || failed_) return;
                close_string(line_index);
            } else if (is_word(c)) {
                bool number = c >= '0' && c <= '9';
                bool hexadecimal = number && at + 1 < line.size() && (line[at + 1] == 'x' || line[at + 1] == 'X');
                ++at;
                // 1e-5 is one token; 0xE-1 is three.
                while (at < line.size() &&
                       (is_word(line[at]) || (number && line[at] == '.') ||
                        (number && !hexadecimal && (line[at] == '+' || line[at] == '-') &&
                         (line[at - 1] == 'e' || line[at - 1] == 'E'))))
                    ++at;
                tokens_.push_back(Token::other);
            } else if (c == '.' && at + 1 < line.size() && line[at + 1] >= '0' && line[at + 1] <= '9') {
                ++at;
                while (at < line.size() && (is_word(line[at]) || line[at] == '.')) ++at;
                tokens_.push_back(Token::other);
            } else {
                at = scan_operator(line, at);
            }
        }
    }

    bool complete() const { return failed_ || (!in_string_ && depth_ <= 0 && !continued_); }
    bool failed() const { return failed_ || in_string_ || depth_ > 0 || continued_; }
    const std::vector<Token>& tokens() const { return tokens_; }
    /// Whether the group is one string token written on one line.
    bool single_line_string() const { return string_first_line_ == string_last_line_; }

private:
    bool starts_string(std::string_view line, std::size_t at) const {
        std::size_t letters = 0;
        while (at + letters < line.size() && is_string_prefix(line[at + letters]) && letters < 2) ++letters;
        return at + letters < line.size() && (line[at + letters] == '"' || line[at + letters] == '\'') &&
               (at == 0 || !is_word(line[at - 1]));
    }

    // Returns the offset after the closing quote(s), or the line's end with in_string_ still set.
    std::size_t scan_string_body(std::string_view line, std::size_t at) {
        while (at < line.size()) {
            char c = line[at];
            if (c == '\\') {
                at += 2;
                continue;
            }
            if (c == quote_) {
                if (!triple_) {
                    in_string_ = false;
                    return at + 1;
                }
                if (at + 2 < line.size() && line[at + 1] == quote_ && line[at + 2] == quote_) {
                    in_string_ = false;
                    return at + 3;
                }
            }
            ++at;
        }
        // A single-quoted string goes on only after a backslash-newline.
        if (!triple_ && !(line.size() > 0 && line.back() == '\\' && at == line.size() + 1)) failed_ = true;
        return line.size();
    }

    void close_string(int line_index) {
        tokens_.push_back(Token::string);
        string_last_line_ = line_index;
    }

    std::size_t scan_operator(std::string_view line, std::size_t at) {
        std::size_t length = operator_length(line.substr(at));
        if (length > 1) {
            tokens_.push_back(Token::other);
            return at + length;
        }
        char c = line[at];
        if (c == '(' || c == '[' || c == '{') ++depth_;
        if (c == ')' || c == ']' || c == '}') --depth_;
        tokens_.push_back(c == ':' ? Token::colon : c == ';' ? Token::semicolon : Token::other);
        return at + 1;
    }

    std::vector<Token> tokens_;
    int depth_ = 0;
    bool in_string_ = false;
    bool triple_ = false;
    char quote_ = '"';
    bool continued_ = false;
    bool failed_ = false;
    int string_first_line_ = -1;
    int string_last_line_ = -1;
};

// radon's _logical: per ';'-separated piece. Only the last piece is followed by ENDMARKER, which is
// why the colon test looks one token further for the others.
std::int64_t logical_lines(const std::vector<Token>& tokens) {
    std::int64_t total = 0;
    std::size_t begin = 0;
    for (;;) {
        std::size_t end = begin;
        while (end < tokens.size() && tokens[end] != Token::semicolon) ++end;
        bool last = end == tokens.size();
        std::int64_t count = 0;  // tokens other than comments
        std::int64_t colon = -1;
        for (std::size_t i = begin; i < end; ++i) {
            if (tokens[i] == Token::comment) continue;
            if (tokens[i] == Token::colon) colon = count;
            ++count;
        }
        if (colon >= 0)
            total += 2 - (colon == (last ? count - 1 : count - 2) ? 1 : 0);
        else if (count > 0)
            total += 1;
        if (last) break;
        begin = end + 1;
    }
    return total;
}

}  // namespace

PythonRawLines count_python_raw_lines(std::string_view source) {
    PythonRawLines raw;
    // radon refuses a file that starts with a byte order mark; Python itself reads past it.
    if (source.starts_with("\xEF\xBB\xBF")) source.remove_prefix(3);
    std::vector<std::string_view> lines = stripped_lines(source);
    std::size_t next = 0;
    GroupTokenizer group;
    while (next < lines.size()) {
        group.reset();
        std::size_t first = next;
        do {
            group.feed(lines[next], static_cast<int>(next - first));
            ++next;
        } while (!group.complete() && next < lines.size());
        if (group.failed()) raw.tokenized = false;

        const std::vector<Token>& tokens = group.tokens();
        std::int64_t non_empty = 0;
        std::int64_t empty = 0;
        for (std::size_t i = first; i < next; ++i) (lines[i].empty() ? empty : non_empty) += 1;
        for (Token token : tokens)
            if (token == Token::comment) ++raw.comments;
        if (tokens.size() == 1 && tokens[0] == Token::comment) {
            ++raw.single_comments;
        } else if (tokens.size() == 1 && tokens[0] == Token::string) {
            if (group.single_line_string()) {
                ++raw.single_comments;
            } else {
                raw.multi += non_empty;
                raw.blank += empty;
            }
        } else {
            raw.sloc += non_empty;
            raw.blank += empty;
        }
        raw.lloc += logical_lines(tokens);
    }
    raw.loc = raw.sloc + raw.blank + raw.multi + raw.single_comments;
    return raw;
}

}  // namespace mcpkit::analyze
