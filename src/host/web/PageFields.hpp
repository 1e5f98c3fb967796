#pragma once
// Reading what a page sends: each field checked for its type, a missing or wrong one named in the
// error ("message.payload.text is missing"), and the files a message carries.

#include "host/chat/Conversation.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::host {

/// A field the page must send, with its type checked; throws std::invalid_argument naming it.
class PageFields {
public:
    /// `type`: the frame's type ("message"), whose payload this is; or, `nested`, the path of an
    /// object within it ("message.payload.files[0]").
    PageFields(const boost::json::object& payload, std::string type, bool nested = false)
        : payload_(payload), type_(nested ? std::move(type) : type + ".payload") {}

    std::string text(std::string_view name, bool required = true) const {
        auto* value = payload_.if_contains(name);
        if (!value || value->is_null()) {
            if (required) fail(name, "is missing");
            return {};
        }
        if (!value->is_string()) fail(name, "must be a string");
        return std::string(value->get_string());
    }
    std::string one_of(std::string_view name, std::initializer_list<std::string_view> choices) const {
        std::string value = text(name);
        for (auto choice : choices)
            if (value == choice) return value;
        std::string list;
        for (auto choice : choices) list += (list.empty() ? "\"" : ", \"") + std::string(choice) + "\"";
        fail(name, "must be one of " + list + ", not \"" + value + "\"");
    }
    boost::json::object object(std::string_view name) const {
        auto* value = payload_.if_contains(name);
        if (!value || value->is_null()) return {};
        if (!value->is_object()) fail(name, "must be an object");
        return value->get_object();
    }
    const boost::json::array* array(std::string_view name) const {
        auto* value = payload_.if_contains(name);
        if (!value || value->is_null()) return nullptr;
        if (!value->is_array()) fail(name, "must be an array");
        return &value->get_array();
    }
    [[noreturn]] void fail(std::string_view name, const std::string& why) const {
        throw std::invalid_argument(type_ + "." + std::string(name) + " " + why);
    }

private:
    const boost::json::object& payload_;
    std::string type_;
};

/// The files of a `message` frame, checked: at most 4; a picture (PNG, JPEG, GIF, WebP) as
/// base64 `data` of at most 700 KB, or a text file's `text` of at most 200 KB (docs/host.md).
/// Throws std::invalid_argument naming the field.
std::vector<UserInput::File> attached_files(const boost::json::array& files);

}  // namespace mcpkit::host
