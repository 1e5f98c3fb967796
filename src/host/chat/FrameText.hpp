#pragma once
// A frame for the pages, {"type":…,"payload":{…}}, written straight as JSON text.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace mcpkit::host {

/// A turn sends a dozen frames to each page. Building each as a JSON object only to serialize it
/// (copying a call's arguments and result into it on the way) cost more than the rest of the
/// frame's way out; here the payload's members are appended as text, in the order given.
///
///     session.broadcast(FrameText("turn").text("state", "started").text("turnId", id).finish());
class FrameText {
public:
    explicit FrameText(std::string_view type);

    FrameText& text(std::string_view name, std::string_view value);
    FrameText& flag(std::string_view name, bool value);
    FrameText& number(std::string_view name, std::int64_t value);
    FrameText& json(std::string_view name, const boost::json::value& value);
    FrameText& json(std::string_view name, const boost::json::object& value);

    /// The frame, closed; the builder is spent.
    std::shared_ptr<const std::string> finish();

private:
    void name(std::string_view name);
    std::string text_;
    bool first_ = true;
};

}  // namespace mcpkit::host
