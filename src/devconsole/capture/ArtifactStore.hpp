#pragma once
// Large payloads (screenshots, network bodies, HAR files, accessibility trees) kept beside the
// capture buffers and served as MCP resources (devconsole://artifacts/<id>): a tool answers with a
// short summary and a link, and the model's context is spent only if someone reads the link.
// Bounded in count and bytes; the oldest go first.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcpkit::devconsole {

struct Artifact {
    std::string id;
    std::string uri;
    std::string name;
    std::string mime_type;
    std::string data;    ///< text, or base64 for binary payloads
    bool binary = false;
    std::int64_t created_ms = 0;
    std::size_t size() const { return data.size(); }
};

class ArtifactStore {
public:
    static constexpr std::string_view uri_prefix = "devconsole://artifacts/";

    ArtifactStore(std::size_t max_count = 200, std::size_t max_bytes = 256u << 20);

    /// Keeps a payload; returns its URI.
    std::string add(std::string name, std::string mime_type, std::string data, bool binary);
    std::shared_ptr<const Artifact> find(std::string_view id) const;
    /// Newest first.
    std::vector<std::shared_ptr<const Artifact>> list() const;
    std::size_t bytes() const;
    void clear();

private:
    std::size_t max_count_;
    std::size_t max_bytes_;
    mutable std::mutex mutex_;
    std::deque<std::shared_ptr<const Artifact>> artifacts_;
    std::size_t bytes_ = 0;
    std::uint64_t next_ = 1;
};

}  // namespace mcpkit::devconsole
