#pragma once
// A stream's events parsed one at a time into memory the next event reuses.

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parser.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcpkit::host {

/// A streamed answer is a run of small JSON documents, each read once and dropped. Parsing each
/// into a fresh DOM on the heap, and freeing it, cost more instructions than everything else a
/// host does with an event; here an event's values come from a buffer that is reset, not freed.
/// The values returned point into that buffer: copy (into memory of your own) whatever must
/// outlive the next parse. Assigning into an existing value or object copies, which is safe;
/// copy-constructing a json::value from one of these keeps pointing here, which is not.
class ScratchJson {
public:
    ScratchJson();
    ScratchJson(const ScratchJson&) = delete;
    ScratchJson& operator=(const ScratchJson&) = delete;

    /// The document, valid until the next call; nullptr when `text` is not one JSON value. A lone
    /// surrogate escape is accepted, as a stand-in that SurrogateJoiner turns back into text.
    const boost::json::value* parse(std::string_view text);

private:
    const boost::json::value* parse_once(std::string_view text);
    std::string mended_;
    alignas(std::max_align_t) unsigned char initial_[4096];
    /// Made anew for each event: release() would keep the doubled size of the next block, so each
    /// event past the first buffer doubled it again until allocating failed (Boost 1.81).
    std::optional<boost::json::monotonic_resource> memory_;
    boost::json::parser parser_;
    std::optional<boost::json::value> document_;
};

}  // namespace mcpkit::host
