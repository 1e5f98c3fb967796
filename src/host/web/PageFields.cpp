#include "host/web/PageFields.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace mcpkit::host {
namespace json = boost::json;

std::vector<UserInput::File> attached_files(const json::array& files) {
    constexpr std::size_t max_files = 4, max_picture = 700 * 1024, max_text = 200 * 1024;
    if (files.size() > max_files) throw std::invalid_argument("message.payload.files holds more than 4 files");
    std::vector<UserInput::File> out;
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::string at = "message.payload.files[" + std::to_string(i) + "]";
        if (!files[i].is_object()) throw std::invalid_argument(at + " must be an object {name, mimeType, data | text}");
        PageFields file(files[i].get_object(), at, true);
        UserInput::File one{file.text("name"), file.text("mimeType"), file.text("text", false), file.text("data", false)};
        if (one.name.empty() || one.name.size() > 200) file.fail("name", "must be 1 to 200 bytes");
        static const std::set<std::string> pictures{"image/png", "image/jpeg", "image/gif", "image/webp"};
        if (pictures.contains(one.mime_type)) {
            bool base64 = !one.data.empty() && one.data.size() % 4 == 0 &&
                          std::all_of(one.data.begin(), one.data.end(), [](char c) {
                              return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '=';
                          });
            if (!base64) file.fail("data", "must be the picture's bytes in base64");
            if (one.data.size() / 4 * 3 > max_picture) file.fail("data", "is over 700 KB: attach a smaller picture");
            if (!one.text.empty()) file.fail("text", "is for text files; a picture has data");
        } else if (one.mime_type.starts_with("text/") || one.mime_type == "application/json" || one.mime_type.empty()) {
            if (!one.data.empty()) file.fail("data", "is for pictures; a text file has text");
            if (one.text.size() > max_text) file.fail("text", "is over 200 KB: attach a smaller file");
        } else {
            file.fail("mimeType", "must be a picture (image/png, image/jpeg, image/gif, image/webp) or text, not \"" +
                                      one.mime_type + "\"");
        }
        out.push_back(std::move(one));
    }
    return out;
}


}  // namespace mcpkit::host
