// TaskStore on Redis. Keys: mcpkit:task:<id> (the state), mcpkit:task:<id>:answers (a list of
// answer objects), mcpkit:task:<id>:cancel (present once cancelling was asked); all expire with
// the task.

#include "mcp/store/RedisStores.hpp"

#include "mcp/store/RedisConnection.hpp"

#include <mutex>

namespace mcp {
namespace {

/// How long answers and cancel requests wait for the running instance at most.
constexpr std::string_view side_key_ttl_ms = "3600000";

class RedisTaskStore final : public TaskStore {
public:
    RedisTaskStore(RedisAddress address, std::chrono::milliseconds timeout) : redis_(std::move(address), timeout) {}

    void save(const std::string& task, std::string_view state, std::chrono::milliseconds ttl) override {
        std::string milliseconds = std::to_string(std::max<std::int64_t>(1, ttl.count()));
        run({"SET", key(task), state, "PX", milliseconds});
    }
    std::optional<std::string> load(const std::string& task) override {
        auto reply = run({"GET", key(task)});
        if (!reply.is_string()) return std::nullopt;
        return std::string(reply.text());
    }
    void add_answers(const std::string& task, std::string_view answers) override {
        std::string list = key(task) + ":answers";
        run({"RPUSH", list, answers});
        run({"PEXPIRE", list, side_key_ttl_ms});
    }
    std::vector<std::string> take_answers(const std::string& task) override {
        // LPOP with a count takes them all at once (Redis 6.2+), so none is read twice.
        auto reply = run({"LPOP", key(task) + ":answers", "1000"});
        std::vector<std::string> answers;
        for (std::size_t i = 0; i < reply.size(); ++i) answers.emplace_back(reply[i].text());
        return answers;
    }
    void request_cancel(const std::string& task) override {
        run({"SET", key(task) + ":cancel", "1", "PX", side_key_ttl_ms});
    }
    bool cancel_requested(const std::string& task) override {
        return run({"EXISTS", key(task) + ":cancel"}).integer() == 1;
    }

private:
    static std::string key(const std::string& task) { return "mcpkit:task:" + task; }
    RedisReply run(std::initializer_list<std::string_view> arguments) {
        std::lock_guard lock(mutex_);
        try {
            return redis_.run(arguments);
        } catch (const RedisError& e) {
            throw std::runtime_error(std::string("the task store: ") + e.what());
        }
    }
    std::mutex mutex_;
    RedisConnection redis_;
};

}  // namespace

std::shared_ptr<TaskStore> make_redis_task_store(const std::string& url, std::chrono::milliseconds timeout) {
    return std::make_shared<RedisTaskStore>(parse_redis_url(url), timeout);
}

}  // namespace mcp
