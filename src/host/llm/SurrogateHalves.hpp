#pragma once
// Text cut between the two UTF-16 halves of a character. A gateway that splits an emoji across
// two events sends `"\ud83d"` in one and `"\ude00"` in the next: each event alone is JSON no
// parser accepts, and the character exists only once the pieces are joined.
//
// The mend is in two steps. mend_lone_surrogates() rewrites each lone half's escape as a
// stand-in character from the top of plane 16's private use area (U+10F800 + the half's offset),
// so the event parses; SurrogateJoiner then puts the two stand-ins of a pair back together into
// the real character as the pieces of text go by, and turns a half that stays alone into U+FFFD.
// The stand-ins only appear in events that needed mending; a model writing those private-use
// characters itself would see them replaced, a trade taken knowingly.

#include <string>
#include <string_view>

namespace mcpkit::host {

/// `json_text` with every lone surrogate escape rewritten as its stand-in, into `out`. False (and
/// `out` untouched) when there is none.
bool mend_lone_surrogates(std::string_view json_text, std::string& out);

/// Joins stand-in halves within `text` (tool-call arguments, read whole at the end).
void join_surrogate_halves(std::string& text);

/// Joins stand-in halves across the pieces of a stream, holding back a first half that ends a
/// piece until the next piece says what follows it.
class SurrogateJoiner {
public:
    /// `piece` ready to show: itself when it holds no stand-in (the usual case, no copy), else
    /// a mended copy valid until the next call.
    std::string_view join(std::string_view piece);
    /// What is still held back at the end of the stream (U+FFFD for a lone first half), or empty.
    std::string_view finish();

private:
    std::string buffer_;
    std::string held_;  ///< a first half's stand-in, waiting for the next piece
};

}  // namespace mcpkit::host
