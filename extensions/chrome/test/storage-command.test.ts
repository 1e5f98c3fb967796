import assert from "node:assert/strict";
import { test } from "node:test";
import type { CommandContext } from "../src/worker/command-router.js";
import { storageCommand } from "../src/worker/commands/storage-command.js";
import type { PageAnswer, PageScripting } from "../src/worker/page-scripting.js";
import { loadPageScripts } from "./helpers/page-scripts.js";

function fakeScripting(answer: PageAnswer = { ok: true, value: { done: true } }) {
  const calls: Array<{ command: string; params: Record<string, unknown> }> = [];
  const scripting: PageScripting = {
    async runToolkit(_tabId, command, params) {
      calls.push({ command, params });
      return answer;
    },
    evaluate: async () => {
      throw new Error("not used");
    },
    ensureCapture: async () => undefined,
  };
  return { scripting, calls };
}

const context = (params: Record<string, unknown>): CommandContext => ({
  command: { id: "q-1", type: "storage", params },
  params,
  tabId: 7,
  signal: new AbortController().signal,
});

test("without an action the storage command is observe's read, params passed through", async () => {
  const { scripting, calls } = fakeScripting();
  const outcome = await storageCommand(scripting)(context({ what: "storage", storage_type: "cookies" }));
  assert.equal(outcome.status, "complete");
  assert.deepEqual(calls, [{ command: "storage", params: { what: "storage", storage_type: "cookies" } }]);
});

test("a write reaches the page normalized, as storage_write", async () => {
  const { scripting, calls } = fakeScripting({ ok: true, value: { action: "set_cookie", name: "sid", previous_value: null } });
  const outcome = await storageCommand(scripting)(context({ what: "set_cookie", action: "set_cookie", name: "sid", value: "1" }));
  assert.deepEqual(calls, [{ command: "storage_write", params: { action: "set_cookie", name: "sid", path: "/", value: "1", cookie: "sid=1; path=/" } }]);
  assert.deepEqual(outcome.result, { success: true, action: "set_cookie", name: "sid", previous_value: null });
});

test("a write with a missing field fails in the worker, naming the field, and never touches the page", async () => {
  const { scripting, calls } = fakeScripting();
  const outcome = await storageCommand(scripting)(context({ what: "set_storage", action: "set_storage", value: "x" }));
  assert.equal(calls.length, 0);
  assert.equal(outcome.error, "missing_key");
  assert.equal(outcome.result.field, "key");
  assert.equal(outcome.result.action, "set_storage");
  assert.match(String(outcome.result.message), /"key" is required/);
});

test("a page-side refusal comes back as the command's error", async () => {
  const { scripting } = fakeScripting({ ok: false, error: "cookie_rejected", message: "dropped", details: { name: "sid" } });
  const outcome = await storageCommand(scripting)(context({ action: "set_cookie", name: "sid", value: "1" }));
  assert.equal(outcome.error, "cookie_rejected");
  assert.equal(outcome.result.name, "sid");
});

test("cookie path- and domain-match decide whether the page can read a cookie back", () => {
  const parts = loadPageScripts(["page/toolkit/storage-writes.js"]);
  const at = (hostname: string, pathname: string) => ({ hostname, pathname });
  const applies = (path: string, domain: string | undefined, url: { hostname: string; pathname: string }) =>
    JSON.parse(JSON.stringify(parts.cookieApplies(path, domain, url)));
  assert.deepEqual(applies("/", undefined, at("app.example.com", "/x/y")), { domainOk: true, visible: true });
  assert.deepEqual(applies("/x", undefined, at("h", "/x/y")), { domainOk: true, visible: true });
  assert.deepEqual(applies("/x", undefined, at("h", "/xy")), { domainOk: true, visible: false }, "/x does not path-match /xy");
  assert.deepEqual(applies("/x/", undefined, at("h", "/x/y")), { domainOk: true, visible: true });
  assert.deepEqual(applies("/", ".example.com", at("app.example.com", "/")), { domainOk: true, visible: true });
  assert.deepEqual(applies("/", "example.com", at("example.com", "/")), { domainOk: true, visible: true });
  assert.deepEqual(applies("/", "other.com", at("example.com", "/")), { domainOk: false, visible: false });
  assert.deepEqual(applies("/", "ample.com", at("example.com", "/")), { domainOk: false, visible: false }, "a suffix is not a parent domain");
});
