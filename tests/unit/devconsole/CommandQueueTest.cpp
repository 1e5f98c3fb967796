// The command queue: overflow, delivery until acknowledged, level-triggered wake-ups, results
// matched by id or correlation id, expiry, and every finalization heard by its watcher.

#include "devconsole/commands/CommandQueue.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace mcpkit::devconsole {
namespace {

struct Heard {
    std::vector<CommandSnapshot> snapshots;
    CommandQueue::Watcher watcher() {
        return [this](const CommandSnapshot& snapshot) { snapshots.push_back(snapshot); };
    }
};

CommandSnapshot queue(CommandQueue& commands, std::string what = "click") {
    return commands.enqueue("dom_action", "dom", boost::json::object{{"what", what}}, 0, "interact " + what);
}

TEST(CommandQueue, OverflowExpiresTheOldestAndItsWatcherHearsSo) {
    CommandQueue commands({.max_pending = 2});
    Heard first, second;
    auto a = queue(commands, "a");
    auto b = queue(commands, "b");
    commands.watch(a.correlation_id, first.watcher());
    commands.watch(b.correlation_id, second.watcher());
    auto c = queue(commands, "c");
    ASSERT_EQ(first.snapshots.size(), 1u) << "the oldest's caller is told at once";
    EXPECT_EQ(first.snapshots[0].correlation_id, a.correlation_id);
    EXPECT_EQ(first.snapshots[0].status, CommandStatus::expired);
    EXPECT_EQ(first.snapshots[0].error.rfind("queue_overflow", 0), 0u);
    EXPECT_TRUE(second.snapshots.empty()) << "only the oldest made room";
    auto pending = commands.pending();
    ASSERT_EQ(pending.size(), 2u);
    EXPECT_EQ(pending[0].correlation_id, b.correlation_id);
    EXPECT_EQ(pending[1].correlation_id, c.correlation_id);
    EXPECT_EQ(commands.counters().overflowed, 1u);
}

TEST(CommandQueue, CommandsAreResentUntilAcknowledged) {
    CommandQueue commands;
    auto a = queue(commands);
    auto first = commands.take_delivery();
    ASSERT_EQ(first.commands.size(), 1u);
    EXPECT_TRUE(first.answer_at_once);
    EXPECT_EQ(commands.take_delivery().commands.size(), 1u) << "re-sent while not acknowledged";
    commands.acknowledge(a.id);
    auto after = commands.take_delivery();
    EXPECT_TRUE(after.commands.empty());
    EXPECT_FALSE(after.answer_at_once) << "an acknowledged command lets the poll park";
    commands.acknowledge("q-not-a-number");
    commands.acknowledge("q-1");  // an old id from before a restart: harmless
    EXPECT_EQ(commands.pending().size(), 1u) << "acknowledged is not finished: the result is still awaited";
}

TEST(CommandQueue, EveryParkedPollIsWokenByANewCommand) {
    CommandQueue commands;
    int woken = 0;
    commands.park([&] { ++woken; });
    commands.park([&] { ++woken; });
    auto gone = commands.park([&] { woken += 100; });
    commands.unpark(gone);
    EXPECT_EQ(woken, 0);
    queue(commands);
    EXPECT_EQ(woken, 2);
    int late = 0;
    commands.park([&] { ++late; });
    EXPECT_EQ(late, 1) << "a poll parking while a command waits is answered at once";
}

TEST(CommandQueue, ResultsMatchByCorrelationOrIdAndOnlyOnce) {
    CommandQueue commands;
    Heard heard;
    auto a = queue(commands);
    auto b = queue(commands);
    commands.watch(a.correlation_id, heard.watcher());
    EXPECT_TRUE(commands.apply_result(boost::json::object{{"id", a.id}, {"status", "complete"}, {"result", 42}}));
    EXPECT_FALSE(commands.apply_result(boost::json::object{{"id", a.id}, {"status", "complete"}})) << "a duplicate is ignored";
    EXPECT_FALSE(commands.apply_result(boost::json::object{{"correlation_id", "exec_1_2"}, {"status", "complete"}}));
    ASSERT_EQ(heard.snapshots.size(), 1u);
    EXPECT_EQ(heard.snapshots[0].result, boost::json::value(42));
    EXPECT_TRUE(commands.apply_result(boost::json::object{{"correlation_id", b.correlation_id}, {"status", "error"}}));
    auto failed = commands.find(b.correlation_id);
    EXPECT_EQ(failed->status, CommandStatus::error);
    EXPECT_FALSE(failed->error.empty()) << "an error without a message still says something";
}

TEST(CommandQueue, ExpiringAllTellsEveryWaitingCaller) {
    CommandQueue commands({.max_pending = 10});
    Heard heard;
    for (int i = 0; i < 3; ++i) commands.watch(queue(commands).correlation_id, heard.watcher());
    EXPECT_EQ(commands.expire_all("extension_disconnected: gone"), 3u);
    ASSERT_EQ(heard.snapshots.size(), 3u);
    for (const auto& snapshot : heard.snapshots) {
        EXPECT_EQ(snapshot.status, CommandStatus::expired);
        EXPECT_EQ(snapshot.error, "extension_disconnected: gone");
    }
    EXPECT_TRUE(commands.pending().empty());
}

TEST(CommandQueue, SweepTimesOutOldCommands) {
    CommandQueue commands({.command_timeout = std::chrono::milliseconds(0)});
    Heard heard;
    commands.watch(queue(commands).correlation_id, heard.watcher());
    commands.sweep();
    ASSERT_EQ(heard.snapshots.size(), 1u);
    EXPECT_EQ(heard.snapshots[0].status, CommandStatus::timeout);
}

TEST(CommandQueue, IdsAndCorrelationIdsAreUniqueAcrossInstances) {
    CommandQueue before_restart, after_restart;
    auto a = queue(before_restart);
    auto b = queue(after_restart);
    EXPECT_NE(a.correlation_id, b.correlation_id);
    EXPECT_EQ(a.correlation_id.rfind("dom_", 0), 0u);
    EXPECT_EQ(a.id.rfind("q-", 0), 0u);
}

TEST(CommandQueue, InternalCommandsAreNeitherCountedNorListed) {
    CommandQueue commands({.max_pending = 1});
    auto a = queue(commands);
    commands.enqueue("cancel", "cancel", {}, 0, "cancel", true);
    EXPECT_EQ(commands.pending_count(), 1u);
    EXPECT_EQ(commands.find(a.correlation_id)->status, CommandStatus::pending) << "a cancel does not overflow the queue";
    EXPECT_EQ(commands.take_delivery().commands.size(), 2u) << "but it is delivered";
}

TEST(CommandQueue, CancellingSaysWhetherTheExtensionHadIt) {
    CommandQueue commands;
    auto waiting = queue(commands);
    EXPECT_EQ(commands.cancel(waiting.correlation_id, "stop"), std::optional<bool>(false));
    auto sent = queue(commands);
    commands.take_delivery();
    EXPECT_EQ(commands.cancel(sent.correlation_id, "stop"), std::optional<bool>(true));
    EXPECT_EQ(commands.cancel(sent.correlation_id, "again"), std::nullopt) << "a finished command is left alone";
    EXPECT_EQ(commands.find(sent.correlation_id)->status, CommandStatus::cancelled);
}

TEST(CommandQueue, AnOverflowedCommandTheExtensionRunsIsCancelledThere) {
    CommandQueue commands({.max_pending = 1});
    auto running = queue(commands, "a");
    commands.take_delivery();
    commands.acknowledge(running.id);
    queue(commands, "b");
    auto delivery = commands.take_delivery();
    bool cancel_sent = false;
    for (const auto& command : delivery.commands)
        if (command.at("type") == "cancel" && command.at("params").at("correlation_id").as_string() == running.correlation_id)
            cancel_sent = true;
    EXPECT_TRUE(cancel_sent) << boost::json::serialize(delivery.commands);
}

TEST(CommandQueue, ARestartedExtensionFailsTheCommandsItHadTaken) {
    CommandQueue commands;
    Heard heard;
    auto taken = queue(commands);
    auto not_yet = queue(commands);
    commands.take_delivery();
    commands.acknowledge(taken.id);
    commands.watch(taken.correlation_id, heard.watcher());
    EXPECT_EQ(commands.fail_acknowledged("extension_restarted"), 2u - 1u);
    ASSERT_EQ(heard.snapshots.size(), 1u);
    EXPECT_EQ(heard.snapshots[0].status, CommandStatus::error);
    EXPECT_EQ(commands.find(not_yet.correlation_id)->status, CommandStatus::pending) << "it is re-sent instead";
}

}  // namespace
}  // namespace mcpkit::devconsole
