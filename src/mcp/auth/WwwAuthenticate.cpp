#include "auth/WwwAuthenticate.hpp"

#include <boost/beast/core/string.hpp>

#include <cctype>

namespace mcp::auth {

std::optional<std::string> Challenge::parameter(std::string_view name) const {
    auto found = parameters.find(name);
    if (found == parameters.end()) return std::nullopt;
    return found->second;
}

namespace {

bool is_token_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}
    bool done() {
        skip_spaces();
        return at_ >= text_.size();
    }
    void skip_spaces() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t')) ++at_;
    }
    bool take(char c) {
        skip_spaces();
        if (at_ < text_.size() && text_[at_] == c) {
            ++at_;
            return true;
        }
        return false;
    }
    std::string token() {
        skip_spaces();
        std::size_t start = at_;
        while (at_ < text_.size() && is_token_char(text_[at_])) ++at_;
        return std::string(text_.substr(start, at_ - start));
    }
    /// token68 (a Basic or Negotiate blob): the token characters plus '/' and trailing '='.
    std::string token68() {
        skip_spaces();
        std::size_t start = at_;
        while (at_ < text_.size() && (is_token_char(text_[at_]) || text_[at_] == '/')) ++at_;
        while (at_ < text_.size() && text_[at_] == '=') ++at_;
        return std::string(text_.substr(start, at_ - start));
    }
    /// An unquoted value: a token by the grammar, but servers write unquoted scopes and URLs too,
    /// so it runs to the next comma or space.
    std::string bare_value() {
        skip_spaces();
        std::size_t start = at_;
        while (at_ < text_.size() && text_[at_] != ',' && text_[at_] != ' ' && text_[at_] != '\t') ++at_;
        return std::string(text_.substr(start, at_ - start));
    }
    std::optional<std::string> quoted() {
        skip_spaces();
        if (at_ >= text_.size() || text_[at_] != '"') return std::nullopt;
        ++at_;
        std::string value;
        while (at_ < text_.size() && text_[at_] != '"') {
            if (text_[at_] == '\\' && at_ + 1 < text_.size()) ++at_;
            value += text_[at_++];
        }
        if (at_ < text_.size()) ++at_;
        return value;
    }
    /// After a token: is it a parameter name (followed by '=' but not a token68's '==')?
    bool parameter_follows() {
        skip_spaces();
        return at_ < text_.size() && text_[at_] == '=' && (at_ + 1 >= text_.size() || text_[at_ + 1] != '=');
    }
    std::size_t position() const { return at_; }
    void rewind(std::size_t to) { at_ = to; }

private:
    std::string_view text_;
    std::size_t at_ = 0;
};

std::string lowercase(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

}  // namespace

std::vector<Challenge> parse_www_authenticate(std::string_view header) {
    std::vector<Challenge> challenges;
    Reader reader(header);
    while (!reader.done()) {
        if (reader.take(',')) continue;
        Challenge challenge;
        challenge.scheme = reader.token();
        if (challenge.scheme.empty()) break;
        // Parameters until the next scheme: a token not followed by '='.
        bool first = true;
        while (!reader.done()) {
            std::size_t before = reader.position();
            if (!first && !reader.take(',')) break;
            std::size_t name_start = reader.position();
            std::string name = reader.token();
            if (name.empty()) {
                reader.rewind(before);
                break;
            }
            if (!reader.parameter_follows()) {
                if (first) {  // token68 right after the scheme
                    reader.rewind(name_start);
                    challenge.parameters[""] = reader.token68();
                    first = false;
                    continue;
                }
                reader.rewind(before);  // the next challenge's scheme
                break;
            }
            reader.take('=');
            std::string value;
            if (auto text = reader.quoted()) value = std::move(*text);
            else value = reader.bare_value();
            challenge.parameters[lowercase(name)] = std::move(value);
            first = false;
        }
        challenges.push_back(std::move(challenge));
    }
    return challenges;
}

std::optional<Challenge> bearer_challenge(std::string_view header) {
    for (auto& challenge : parse_www_authenticate(header))
        if (boost::beast::iequals(challenge.scheme, "Bearer")) return std::move(challenge);
    return std::nullopt;
}

}  // namespace mcp::auth
