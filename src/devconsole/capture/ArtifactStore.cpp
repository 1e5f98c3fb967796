#include "devconsole/capture/ArtifactStore.hpp"

#include "devconsole/capture/CaptureBuffers.hpp"

namespace mcpkit::devconsole {

ArtifactStore::ArtifactStore(std::size_t max_count, std::size_t max_bytes)
    : max_count_(max_count), max_bytes_(max_bytes) {}

std::string ArtifactStore::add(std::string name, std::string mime_type, std::string data, bool binary) {
    auto artifact = std::make_shared<Artifact>();
    artifact->name = std::move(name);
    artifact->mime_type = std::move(mime_type);
    artifact->data = std::move(data);
    artifact->binary = binary;
    artifact->created_ms = wall_clock_ms();
    std::lock_guard lock(mutex_);
    artifact->id = std::to_string(next_++);
    artifact->uri = std::string(uri_prefix) + artifact->id;
    bytes_ += artifact->size();
    artifacts_.push_back(artifact);
    while (artifacts_.size() > 1 && (artifacts_.size() > max_count_ || bytes_ > max_bytes_)) {
        bytes_ -= artifacts_.front()->size();
        artifacts_.pop_front();
    }
    return artifact->uri;
}

std::shared_ptr<const Artifact> ArtifactStore::find(std::string_view id) const {
    std::lock_guard lock(mutex_);
    for (const auto& artifact : artifacts_)
        if (artifact->id == id) return artifact;
    return nullptr;
}

std::vector<std::shared_ptr<const Artifact>> ArtifactStore::list() const {
    std::lock_guard lock(mutex_);
    return {artifacts_.rbegin(), artifacts_.rend()};
}

std::size_t ArtifactStore::bytes() const {
    std::lock_guard lock(mutex_);
    return bytes_;
}

void ArtifactStore::clear() {
    std::lock_guard lock(mutex_);
    artifacts_.clear();
    bytes_ = 0;
}

}  // namespace mcpkit::devconsole
