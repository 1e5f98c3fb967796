#pragma once
// Noise rules: recurring console messages or requests the assistant chose to ignore (a chatty
// third-party script, a known 404). Reads of the buffers leave out what a rule matches and say how
// much they left out; nothing is deleted, so removing a rule brings the entries back.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace mcpkit::devconsole {

struct NoiseRule {
    std::string id;
    std::string category = "console";  ///< console, network or websocket
    std::string level;                 ///< console: only this level ("" any)
    std::string message_regex, source_regex, url_regex, method;
    std::optional<double> status_min, status_max;
    std::string reason;
    std::string classification;  ///< "manual" or "auto"
    std::regex message, source, url;  ///< compiled (ECMAScript, case-insensitive)
    boost::json::object to_json() const;
};

class NoiseRules {
public:
    /// Adds a rule from its JSON description; returns it, or a problem naming the field.
    std::variant<NoiseRule, std::string> add(const boost::json::object& description, std::string classification);
    bool remove(std::string_view id);
    void reset();
    boost::json::array list() const;
    /// Whether an entry of `category` is noise.
    bool matches(std::string_view category, const boost::json::object& entry) const;
    bool empty() const;

private:
    mutable std::mutex mutex_;
    std::vector<std::shared_ptr<const NoiseRule>> rules_;
    unsigned next_ = 1;
};

}  // namespace mcpkit::devconsole
