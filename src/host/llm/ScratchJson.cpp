#include "host/llm/ScratchJson.hpp"

#include "host/llm/SurrogateHalves.hpp"

namespace mcpkit::host {
namespace json = boost::json;

ScratchJson::ScratchJson() : parser_(json::storage_ptr(), json::parse_options{.max_depth = 64}) {}

const json::value* ScratchJson::parse(std::string_view text) {
    if (const json::value* document = parse_once(text)) return document;
    // A gateway may cut a character between its UTF-16 halves (see SurrogateHalves.hpp).
    if (!mend_lone_surrogates(text, mended_)) return nullptr;
    return parse_once(mended_);
}

const json::value* ScratchJson::parse_once(std::string_view text) {
    document_.reset();  // trivial: nothing in the buffer is freed one by one
    parser_.reset();    // lets go of the old memory before it is replaced
    memory_.emplace(initial_, sizeof initial_);
    parser_.reset(json::storage_ptr(&*memory_));
    boost::system::error_code ec;
    parser_.write(text.data(), text.size(), ec);
    if (ec) {
        parser_.reset();
        return nullptr;
    }
    document_.emplace(parser_.release());  // moved: keeps the buffer as its storage
    return &*document_;
}

}  // namespace mcpkit::host
