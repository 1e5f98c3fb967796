#pragma once
// The named page states interact saves and restores (see PageStates.hpp), kept while the daemon
// runs. Thread-safe.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace mcpkit::devconsole {

class PageStateStore {
public:
    void save(const std::string& name, boost::json::object state);
    std::optional<boost::json::object> find(const std::string& name) const;
    bool remove(const std::string& name);
    boost::json::array list() const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, boost::json::object> states_;
};

}  // namespace mcpkit::devconsole
