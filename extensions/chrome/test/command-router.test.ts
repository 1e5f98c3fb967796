import assert from "node:assert/strict";
import { test } from "node:test";
import { CommandFailure, failed, succeeded } from "../src/worker/command-outcome.js";
import { CommandRouter, type CommandHandler, type TabAccess } from "../src/worker/command-router.js";
import type { CommandResult, DaemonCommand } from "../src/worker/sync-protocol.js";
import { FakeClock, settle } from "./helpers/fake-clock.js";

/** `trackedTab` null means no tab is tracked. */
function setup(handlers: Record<string, CommandHandler>, trackedTab: number | null = 7, sessionTabs: number[] = []) {
  const tracked = trackedTab ?? undefined;
  const clock = new FakeClock();
  const results: CommandResult[] = [];
  const tabs: TabAccess = {
    trackedTabId: () => tracked,
    isAllowed: (tabId) => tracked !== undefined && (tabId === tracked || sessionTabs.includes(tabId)),
    describe: async (tabId) => ({ id: tabId, url: `https://example.test/${tabId}`, title: `Tab ${tabId}` }),
  };
  const router = new CommandRouter({ clock, tabs, handlers, report: (result) => results.push(result) });
  return { clock, results, router };
}

const command = (fields: Partial<DaemonCommand> & { type: string }): DaemonCommand => ({ id: "q-1", params: {}, ...fields });
const ok: CommandHandler = async () => succeeded({ answer: 42 });

test("an unknown command type is answered with unknown_command naming the type", async () => {
  const { router, results } = setup({ execute: ok });
  router.dispatch(command({ type: "draw_mode", correlation_id: "ann_1" }));
  await settle();
  assert.equal(results.length, 1);
  const [result] = results;
  assert.equal(result?.status, "error");
  assert.equal(result?.error, "unknown_command");
  assert.equal(result?.correlation_id, "ann_1");
  assert.equal(result?.result?.success, false);
  assert.match(String(result?.result?.message), /draw_mode/);
  assert.equal(result?.result?.effective_tab_id, 7);
});

test("without a tracked tab every command fails with no_tracked_tab telling the user what to click", async () => {
  const { router, results } = setup({ execute: ok }, null);
  router.dispatch(command({ type: "execute" }));
  await settle();
  assert.equal(results[0]?.error, "no_tracked_tab");
  assert.match(String(results[0]?.result?.message), /Track this tab/);
  assert.equal(results[0]?.result?.effective_tab_id, 0);
});

test("a command for a tab that is neither tracked nor opened by the session is refused", async () => {
  let ran = false;
  const { router, results } = setup({
    execute: async () => {
      ran = true;
      return succeeded();
    },
  });
  router.dispatch(command({ type: "execute", tab_id: 99 }));
  await settle();
  assert.equal(ran, false);
  assert.equal(results[0]?.status, "error");
  assert.equal(results[0]?.error, "tab_not_allowed");
  assert.equal(results[0]?.result?.error, "tab_not_allowed");
  assert.match(String(results[0]?.result?.message), /Track this tab/);
  assert.equal(results[0]?.result?.effective_tab_url, "", "nothing is revealed about a tab that is not allowed");
});

test("a tab opened by new_tab in this session is allowed", async () => {
  const { router, results } = setup({ execute: async (context) => succeeded({ tab: context.tabId }) }, 7, [12]);
  router.dispatch(command({ type: "execute", tab_id: 12 }));
  await settle();
  assert.equal(results[0]?.status, "complete");
  assert.equal(results[0]?.result?.tab, 12);
  assert.equal(results[0]?.result?.effective_tab_id, 12);
});

test("a completed command carries success and the effective tab", async () => {
  const { router, results } = setup({ execute: ok });
  router.dispatch(command({ type: "execute", correlation_id: "exec_1" }));
  await settle();
  assert.deepEqual(results, [
    {
      id: "q-1",
      correlation_id: "exec_1",
      status: "complete",
      result: { success: true, answer: 42, effective_tab_id: 7, effective_tab_url: "https://example.test/7", effective_tab_title: "Tab 7" },
    },
  ]);
});

test("a running command is listed in in_progress until its result is reported", async () => {
  let finish: () => void = () => undefined;
  const { router, results } = setup({
    execute: () => new Promise((resolve) => (finish = () => resolve(succeeded()))),
  });
  router.dispatch(command({ type: "execute", correlation_id: "exec_9" }));
  const [entry] = router.inProgress();
  assert.equal(entry?.id, "q-1");
  assert.equal(entry?.correlation_id, "exec_9");
  assert.equal(entry?.status, "running");
  assert.equal(entry?.type, "execute");
  finish();
  await settle();
  assert.equal(results.length, 1);
  assert.deepEqual(router.inProgress(), []);
});

test("a second copy of a running command (re-sent by the daemon) is not run again", async () => {
  let runs = 0;
  const { router, results } = setup({
    execute: () => {
      runs += 1;
      return new Promise(() => undefined);
    },
  });
  router.dispatch(command({ type: "execute", correlation_id: "exec_1" }));
  router.dispatch(command({ type: "execute", correlation_id: "exec_1" }));
  await settle();
  assert.equal(runs, 1);
  assert.equal(results.length, 0);
  assert.equal(router.inProgress().length, 1);
});

test("cancel answers the running command as cancelled at once and stops its wait", async () => {
  let signal: AbortSignal | undefined;
  const { router, results } = setup({
    dom_action: (context) => {
      signal = context.signal;
      return new Promise(() => undefined);
    },
  });
  router.dispatch(command({ type: "dom_action", id: "q-1", correlation_id: "dom_wait_1" }));
  router.dispatch(command({ type: "cancel", id: "q-2", params: { correlation_id: "dom_wait_1" } }));
  await settle();
  const cancelled = results.find((result) => result.id === "q-1");
  const cancel = results.find((result) => result.id === "q-2");
  assert.equal(cancelled?.status, "cancelled");
  assert.equal(cancel?.status, "complete");
  assert.equal(cancel?.result?.cancelled, true);
  assert.equal(signal?.aborted, true);
  assert.deepEqual(router.inProgress(), []);
});

test("cancelling something that is not running says cancelled: false", async () => {
  const { router, results } = setup({});
  router.dispatch(command({ type: "cancel", params: { id: "q-404" } }));
  await settle();
  assert.equal(results[0]?.status, "complete");
  assert.equal(results[0]?.result?.cancelled, false);
});

test("a command that never finishes times out with status timeout", async () => {
  const { router, results, clock } = setup({ execute: () => new Promise(() => undefined) });
  router.dispatch(command({ type: "execute" }));
  await clock.advance(65_000);
  assert.equal(results[0]?.status, "timeout");
  assert.equal(results[0]?.error, "command_timeout");
});

test("a handler's CommandFailure becomes its error code; any other exception becomes extension_error", async () => {
  const { router, results } = setup({
    execute: async () => {
      throw new CommandFailure("page_not_scriptable", "chrome:// pages cannot be scripted");
    },
    dom: async () => {
      throw new Error("boom");
    },
  });
  router.dispatch(command({ type: "execute", id: "q-1" }));
  router.dispatch(command({ type: "dom", id: "q-2" }));
  await settle();
  assert.equal(results.find((result) => result.id === "q-1")?.error, "page_not_scriptable");
  const other = results.find((result) => result.id === "q-2");
  assert.equal(other?.error, "extension_error");
  assert.equal(other?.result?.message, "boom");
});

test("an oversized result is replaced by result_too_large", async () => {
  const { router, results } = setup({ execute: async () => succeeded({ blob: "x".repeat(5 * 1024 * 1024) }) });
  router.dispatch(command({ type: "execute" }));
  await settle();
  assert.equal(results[0]?.status, "error");
  assert.equal(results[0]?.error, "result_too_large");
  assert.equal(results[0]?.result?.effective_tab_id, 7);
});

test("failed() puts the error code both in the envelope and in the result", () => {
  assert.deepEqual(failed("csp_blocked", "no eval"), {
    status: "error",
    error: "csp_blocked",
    result: { success: false, error: "csp_blocked", message: "no eval" },
  });
});
