// The per-call state machine: the seed's transitions, and refusal of any other.

#include "analyze/server/ToolExecution.hpp"

#include <gtest/gtest.h>

using namespace mcpkit::analyze;

TEST(ToolExecution, ASuccessfulCallWalksEveryState) {
    ToolExecution execution;
    execution.select_tool("analyze-file");
    execution.set_parameters(boost::json::object{{"path", "a.py"}});
    execution.execute();
    execution.succeed();
    std::vector<CallState> expected{CallState::idle, CallState::tool_selected, CallState::parameters_set,
                                    CallState::executing, CallState::succeeded};
    EXPECT_EQ(execution.trail(), expected);
    EXPECT_GE(execution.execution_milliseconds(), 0.0);
}

TEST(ToolExecution, FailureKeepsTheErrorAndAllowsNewParameters) {
    ToolExecution execution;
    execution.select_tool("analyze-file");
    execution.set_parameters(nullptr);
    execution.execute();
    execution.fail("no such file");
    EXPECT_EQ(execution.state(), CallState::failed);
    EXPECT_EQ(execution.error(), "no such file");
    execution.set_parameters(boost::json::object{{"path", "b.py"}});
    EXPECT_EQ(execution.state(), CallState::parameters_set);
    EXPECT_TRUE(execution.error().empty());
}

TEST(ToolExecution, OnlyARunningCallCanBeCancelled) {
    ToolExecution execution;
    EXPECT_THROW(execution.cancel(), std::logic_error);
    execution.select_tool("analyze-project");
    EXPECT_THROW(execution.execute(), std::logic_error) << "parameters come first";
    execution.set_parameters(nullptr);
    execution.execute();
    execution.cancel();
    EXPECT_EQ(execution.state(), CallState::cancelled);
    EXPECT_THROW(execution.succeed(), std::logic_error);
    execution.select_tool("analyze-file");
    EXPECT_EQ(execution.state(), CallState::tool_selected);
}

TEST(ToolExecution, ResetReturnsToIdleFromAnywhere) {
    ToolExecution execution;
    execution.select_tool("x");
    execution.set_parameters(nullptr);
    execution.reset();
    EXPECT_EQ(execution.state(), CallState::idle);
    EXPECT_TRUE(execution.tool().empty());
    EXPECT_THROW(execution.set_parameters(nullptr), std::logic_error);
}
