#include "host/chat/FrameText.hpp"

#include <mcp/jsonrpc/JsonWriter.hpp>

namespace mcpkit::host {

FrameText::FrameText(std::string_view type) {
    text_.reserve(256);
    text_ += R"({"type":)";
    mcp::jsonrpc::append_json_string(text_, type);
    text_ += R"(,"payload":{)";
}

void FrameText::name(std::string_view name) {
    if (!first_) text_ += ',';
    first_ = false;
    mcp::jsonrpc::append_json_string(text_, name);
    text_ += ':';
}

FrameText& FrameText::text(std::string_view name, std::string_view value) {
    this->name(name);
    mcp::jsonrpc::append_json_string(text_, value);
    return *this;
}

FrameText& FrameText::flag(std::string_view name, bool value) {
    this->name(name);
    text_ += value ? "true" : "false";
    return *this;
}

FrameText& FrameText::number(std::string_view name, std::int64_t value) {
    this->name(name);
    text_ += std::to_string(value);
    return *this;
}

FrameText& FrameText::json(std::string_view name, const boost::json::value& value) {
    this->name(name);
    mcp::jsonrpc::append_json(text_, value);
    return *this;
}

FrameText& FrameText::json(std::string_view name, const boost::json::object& value) {
    this->name(name);
    mcp::jsonrpc::append_json(text_, value);
    return *this;
}

std::shared_ptr<const std::string> FrameText::finish() {
    text_ += "}}";
    return std::make_shared<const std::string>(std::move(text_));
}

}  // namespace mcpkit::host
