#include "devconsole/commands/CommandQueue.hpp"

#include "devconsole/capture/CaptureBuffers.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <random>

namespace mcpkit::devconsole {
namespace json = boost::json;

namespace {

std::int64_t milliseconds_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

/// The number in "q-<n>", or nothing.
std::optional<std::uint64_t> command_number(std::string_view id) {
    if (id.size() < 3 || id.substr(0, 2) != "q-") return std::nullopt;
    std::uint64_t number = 0;
    auto [end, ec] = std::from_chars(id.data() + 2, id.data() + id.size(), number);
    if (ec != std::errc() || end != id.data() + id.size()) return std::nullopt;
    return number;
}

std::optional<CommandStatus> parse_result_status(std::string_view text) {
    if (text == "complete" || text == "success" || text == "ok") return CommandStatus::complete;
    if (text == "error" || text == "failed") return CommandStatus::error;
    if (text == "timeout") return CommandStatus::timeout;
    if (text == "cancelled" || text == "canceled") return CommandStatus::cancelled;
    if (text == "expired") return CommandStatus::expired;
    return std::nullopt;
}

}  // namespace

std::string_view to_string(CommandStatus status) {
    switch (status) {
    case CommandStatus::pending: return "pending";
    case CommandStatus::complete: return "complete";
    case CommandStatus::error: return "error";
    case CommandStatus::expired: return "expired";
    case CommandStatus::timeout: return "timeout";
    case CommandStatus::cancelled: return "cancelled";
    }
    return "pending";
}

CommandQueue::CommandQueue(CommandQueueOptions options)
    // Numbering starts at the wall clock in milliseconds: ids stay distinct across restarts, so an
    // extension that remembers the ids it ran never mistakes a new command for an old one.
    : options_(options), next_number_(static_cast<std::uint64_t>(wall_clock_ms())) {}

CommandSnapshot CommandQueue::enqueue(std::string type, std::string correlation_prefix, json::object params,
                                      std::int64_t tab_id, std::string origin, bool internal) {
    static thread_local std::mt19937_64 random{std::random_device{}()};
    auto command = std::make_shared<Command>();
    command->type = std::move(type);
    command->params = std::move(params);
    command->tab_id = tab_id;
    command->origin = std::move(origin);
    command->internal = internal;
    command->created = Clock::now();
    command->created_ms = wall_clock_ms();
    auto nanoseconds =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    command->correlation_id = correlation_prefix + "_" + std::to_string(nanoseconds) + "_" + std::to_string(random() >> 1);

    std::vector<Finalized> finalized;
    std::vector<std::function<void()>> wake;
    std::vector<std::pair<std::string, std::string>> to_stop;  // expired while the extension runs them
    CommandSnapshot snapshot;
    {
        std::lock_guard lock(mutex_);
        command->id = "q-" + std::to_string(next_number_++);
        if (!internal) {
            auto counted = std::count_if(pending_.begin(), pending_.end(), [](const auto& c) { return !c->internal; });
            // Overflow: the oldest pending command makes room, and its caller hears so at once.
            while (static_cast<std::size_t>(counted) >= options_.max_pending) {
                auto oldest = std::find_if(pending_.begin(), pending_.end(), [](const auto& c) { return !c->internal; });
                if (oldest == pending_.end()) break;
                ++counters_.overflowed;
                if ((*oldest)->was_delivered()) to_stop.emplace_back((*oldest)->id, (*oldest)->correlation_id);
                finalized.push_back(finalize_locked(*oldest, CommandStatus::expired,
                                                    "queue_overflow: more than " + std::to_string(options_.max_pending) +
                                                        " commands were pending; this, the oldest, made room",
                                                    nullptr));
                --counted;
            }
            ++counters_.queued;
        }
        pending_.push_back(command);
        by_correlation_[command->correlation_id] = command;
        snapshot = snapshot_locked(*command);
        wake = take_parked_locked();
    }
    notify(std::move(finalized));
    for (auto& callback : wake) callback();
    for (auto& [id, correlation_id] : to_stop)
        enqueue("cancel", "cancel", json::object{{"id", id}, {"correlation_id", correlation_id}}, 0,
                "cancel " + correlation_id, true);
    return snapshot;
}

bool CommandQueue::watch(const std::string& correlation_id, Watcher watcher) {
    CommandSnapshot snapshot;
    {
        std::lock_guard lock(mutex_);
        auto command = find_locked(correlation_id);
        if (!command) return false;
        if (!is_final(command->status)) {
            watchers_[correlation_id].push_back(std::move(watcher));
            return true;
        }
        snapshot = snapshot_locked(*command);
    }
    watcher(snapshot);
    return true;
}

CommandQueue::Delivery CommandQueue::take_delivery() {
    Delivery delivery;
    auto now = Clock::now();
    std::lock_guard lock(mutex_);
    for (auto& command : pending_) {
        if (command->acknowledged) continue;
        delivery.answer_at_once = true;
        if (delivery.commands.size() >= 15) continue;  // the most the original extension takes at once
        json::object wire{{"id", command->id}, {"type", command->type}, {"params", command->params},
                          {"correlation_id", command->correlation_id}, {"trace_id", command->correlation_id}};
        if (command->tab_id != 0) wire["tab_id"] = command->tab_id;
        delivery.commands.push_back(std::move(wire));
        if (!command->was_delivered()) command->delivered = now;
        command->last_sent = now;
        ++command->deliveries;
    }
    return delivery;
}

std::uint64_t CommandQueue::park(std::function<void()> wake) {
    bool ready = false;
    std::uint64_t id = 0;
    {
        std::lock_guard lock(mutex_);
        ready = std::any_of(pending_.begin(), pending_.end(), [](const auto& c) { return !c->acknowledged; });
        if (!ready) {
            id = next_park_id_++;
            parked_.emplace(id, std::move(wake));
        }
    }
    if (ready) wake();
    return id;
}

void CommandQueue::unpark(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    parked_.erase(id);
}

std::vector<std::function<void()>> CommandQueue::take_parked_locked() {
    std::vector<std::function<void()>> wake;
    wake.reserve(parked_.size());
    for (auto& [id, callback] : parked_) wake.push_back(std::move(callback));
    parked_.clear();
    return wake;
}

void CommandQueue::acknowledge(std::string_view last_id) {
    auto last = command_number(last_id);
    if (!last) return;
    std::lock_guard lock(mutex_);
    for (auto& command : pending_) {
        auto number = command_number(command->id);
        if (number && *number <= *last && command->was_delivered()) command->acknowledged = true;
    }
}

bool CommandQueue::apply_result(const json::object& result) {
    std::string id, correlation_id;
    if (auto* value = result.if_contains("id"); value && value->is_string()) id = value->get_string();
    if (auto* value = result.if_contains("correlation_id"); value && value->is_string())
        correlation_id = value->get_string();
    std::string status_text;
    if (auto* value = result.if_contains("status"); value && value->is_string()) status_text = value->get_string();
    auto status = parse_result_status(status_text).value_or(CommandStatus::complete);
    std::string error;
    if (auto* value = result.if_contains("error")) {
        if (value->is_string()) error = value->get_string();
        else if (!value->is_null()) error = json::serialize(*value);
    }
    if (status == CommandStatus::complete && !error.empty()) status = CommandStatus::error;
    json::value payload = nullptr;
    if (auto* value = result.if_contains("result")) payload = *value;

    Finalized finalized;
    {
        std::lock_guard lock(mutex_);
        std::shared_ptr<Command> command = command_for_locked(correlation_id, id);
        if (!command || is_final(command->status)) return false;
        if (status == CommandStatus::error && error.empty()) error = "the extension reported an error";
        finalized = finalize_locked(command, status, std::move(error), std::move(payload));
    }
    std::vector<Finalized> all;
    all.push_back(std::move(finalized));
    notify(std::move(all));
    return true;
}

bool CommandQueue::awaits(const std::string& id_or_correlation_id) const {
    std::lock_guard lock(mutex_);
    std::shared_ptr<Command> command = command_for_locked(id_or_correlation_id, id_or_correlation_id);
    return command && !is_final(command->status);
}

bool CommandQueue::finalize(const std::string& correlation_id, CommandStatus status, std::string error,
                            json::value result) {
    std::vector<Finalized> finalized;
    {
        std::lock_guard lock(mutex_);
        auto command = find_locked(correlation_id);
        if (!command || is_final(command->status)) return false;
        finalized.push_back(finalize_locked(command, status, std::move(error), std::move(result)));
    }
    notify(std::move(finalized));
    return true;
}

std::optional<bool> CommandQueue::cancel(const std::string& correlation_id, std::string reason) {
    std::vector<Finalized> finalized;
    bool delivered = false;
    {
        std::lock_guard lock(mutex_);
        auto command = find_locked(correlation_id);
        if (!command || is_final(command->status)) return std::nullopt;
        delivered = command->was_delivered();
        finalized.push_back(finalize_locked(command, CommandStatus::cancelled, std::move(reason), nullptr));
    }
    notify(std::move(finalized));
    return delivered;
}

std::size_t CommandQueue::fail_acknowledged(std::string_view reason) {
    std::vector<Finalized> finalized;
    {
        std::lock_guard lock(mutex_);
        std::vector<std::shared_ptr<Command>> lost;
        for (const auto& command : pending_)
            if (command->acknowledged) lost.push_back(command);
        for (auto& command : lost) finalized.push_back(finalize_locked(command, CommandStatus::error, std::string(reason), nullptr));
    }
    auto count = finalized.size();
    notify(std::move(finalized));
    return count;
}

std::size_t CommandQueue::expire_all(std::string_view reason) {
    std::vector<Finalized> finalized;
    {
        std::lock_guard lock(mutex_);
        while (!pending_.empty())
            finalized.push_back(finalize_locked(pending_.front(), CommandStatus::expired, std::string(reason), nullptr));
    }
    auto count = finalized.size();
    notify(std::move(finalized));
    return count;
}

void CommandQueue::sweep() {
    std::vector<Finalized> finalized;
    auto now = Clock::now();
    {
        std::lock_guard lock(mutex_);
        std::vector<std::shared_ptr<Command>> late;
        for (auto& command : pending_)
            if (now - command->created > options_.command_timeout) late.push_back(command);
        for (auto& command : late)
            finalized.push_back(finalize_locked(
                command, CommandStatus::timeout,
                "no result from the extension within " +
                    std::to_string(std::chrono::duration_cast<std::chrono::seconds>(options_.command_timeout).count()) + " s",
                nullptr));
        while (!finished_.empty() && (finished_.size() > options_.max_finished ||
                                      now - finished_.front()->finished > options_.result_retention)) {
            by_correlation_.erase(finished_.front()->correlation_id);
            finished_.pop_front();
        }
    }
    notify(std::move(finalized));
}

std::optional<CommandSnapshot> CommandQueue::find(const std::string& correlation_id) const {
    std::lock_guard lock(mutex_);
    auto command = find_locked(correlation_id);
    if (!command) return std::nullopt;
    return snapshot_locked(*command);
}

std::vector<CommandSnapshot> CommandQueue::pending() const {
    std::lock_guard lock(mutex_);
    std::vector<CommandSnapshot> list;
    for (const auto& command : pending_)
        if (!command->internal) list.push_back(snapshot_locked(*command));
    return list;
}

std::vector<CommandSnapshot> CommandQueue::failed(std::size_t limit) const {
    std::lock_guard lock(mutex_);
    std::vector<CommandSnapshot> list;
    for (auto it = finished_.rbegin(); it != finished_.rend() && list.size() < limit; ++it)
        if (!(*it)->internal && (*it)->status != CommandStatus::complete) list.push_back(snapshot_locked(**it));
    return list;
}

std::size_t CommandQueue::pending_count() const {
    std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(
        std::count_if(pending_.begin(), pending_.end(), [](const auto& c) { return !c->internal; }));
}

CommandQueue::Counters CommandQueue::counters() const {
    std::lock_guard lock(mutex_);
    return counters_;
}

std::shared_ptr<Command> CommandQueue::find_locked(const std::string& correlation_id) const {
    auto it = by_correlation_.find(correlation_id);
    return it == by_correlation_.end() ? nullptr : it->second;
}

std::shared_ptr<Command> CommandQueue::command_for_locked(const std::string& correlation_id, const std::string& id) const {
    if (!correlation_id.empty())
        if (auto command = find_locked(correlation_id)) return command;
    if (id.empty()) return nullptr;
    auto it = std::find_if(pending_.begin(), pending_.end(), [&](const auto& c) { return c->id == id; });
    return it == pending_.end() ? nullptr : *it;
}

CommandQueue::Finalized CommandQueue::finalize_locked(std::shared_ptr<Command> command, CommandStatus status,
                                                      std::string error, json::value result) {
    command->status = status;
    command->error = std::move(error);
    command->result = std::move(result);
    command->finished = Clock::now();
    if (!command->internal) {
        switch (status) {
        case CommandStatus::complete: ++counters_.completed; break;
        case CommandStatus::error: ++counters_.failed; break;
        case CommandStatus::expired: ++counters_.expired; break;
        case CommandStatus::timeout: ++counters_.timed_out; break;
        case CommandStatus::cancelled: ++counters_.cancelled; break;
        case CommandStatus::pending: break;
        }
    }
    pending_.erase(std::remove(pending_.begin(), pending_.end(), command), pending_.end());
    finished_.push_back(command);
    Finalized finalized;
    finalized.snapshot = snapshot_locked(*command);
    if (auto it = watchers_.find(command->correlation_id); it != watchers_.end()) {
        finalized.watchers = std::move(it->second);
        watchers_.erase(it);
    }
    return finalized;
}

CommandSnapshot CommandQueue::snapshot_locked(const Command& command) const {
    CommandSnapshot snapshot;
    snapshot.id = command.id;
    snapshot.correlation_id = command.correlation_id;
    snapshot.type = command.type;
    snapshot.origin = command.origin;
    snapshot.status = command.status;
    snapshot.error = command.error;
    snapshot.result = command.result;
    snapshot.created_ms = command.created_ms;
    auto end = is_final(command.status) ? command.finished : Clock::now();
    snapshot.elapsed_ms = milliseconds_between(command.created, end);
    snapshot.delivery_ms = command.was_delivered() ? milliseconds_between(command.created, command.delivered) : -1;
    snapshot.deliveries = command.deliveries;
    snapshot.tab_id = command.tab_id;
    return snapshot;
}

void CommandQueue::notify(std::vector<Finalized> finalized) {
    for (auto& item : finalized)
        for (auto& watcher : item.watchers) watcher(item.snapshot);
}

}  // namespace mcpkit::devconsole
