import assert from "node:assert/strict";
import { test } from "node:test";
import { SyncClient, type SyncClientOptions } from "../src/worker/sync-client.js";
import type { CommandResult, DaemonCommand, ExtensionLogEntry, InProgressEntry, SyncSettings } from "../src/worker/sync-protocol.js";
import { FakeClock, settle } from "./helpers/fake-clock.js";
import { FakeDaemon } from "./helpers/fake-daemon.js";

const SETTINGS: SyncSettings = {
  pilot_enabled: true,
  tracking_enabled: false,
  tracked_tab_id: 0,
  tracked_tab_url: "",
  tracked_tab_title: "",
  capture_logs: true,
  capture_network: true,
  capture_websocket: true,
  capture_actions: true,
  csp_restricted: false,
  csp_level: "none",
};

function setup(overrides: Partial<SyncClientOptions> = {}, serverUrl: () => string = () => "http://localhost:7890") {
  const clock = new FakeClock();
  const daemon = new FakeDaemon();
  const dispatched: DaemonCommand[] = [];
  let logs: ExtensionLogEntry[] = [];
  let inProgress: InProgressEntry[] = [];
  const client = new SyncClient({
    connection: { fetch: daemon.fetch, serverUrl, extensionVersion: "1.2.3" },
    clock,
    sessionId: "ext_1_abcdef",
    settings: () => SETTINGS,
    inProgress: () => inProgress,
    extensionLogs: {
      take: () => {
        const taken = logs;
        logs = [];
        return taken;
      },
      restore: (entries) => {
        logs = entries.concat(logs);
      },
    },
    dispatch: (command) => {
      dispatched.push(command);
    },
    ...overrides,
  });
  return {
    clock,
    daemon,
    client,
    dispatched,
    setLogs: (entries: ExtensionLogEntry[]) => (logs = entries),
    setInProgress: (entries: InProgressEntry[]) => (inProgress = entries),
  };
}

const result = (id: string): CommandResult => ({ id, status: "complete", result: { success: true } });

test("the first sync carries the session, settings, headers and an empty in_progress, and nothing optional", async () => {
  const { daemon, client } = setup();
  client.start();
  await daemon.waitForRequests(1);
  const request = daemon.last();
  assert.equal(request.url, "http://localhost:7890/sync");
  assert.equal(request.headers["X-Gasoline-Client"], "mcpkit-devconsole/1.2.3");
  assert.equal(request.headers["X-Gasoline-Extension-Version"], "1.2.3");
  assert.equal(request.headers["Content-Type"], "application/json");
  assert.deepEqual(request.body, { ext_session_id: "ext_1_abcdef", extension_version: "1.2.3", settings: SETTINGS, in_progress: [] });
  await client.stop();
});

test("in_progress is present on every sync and lists running commands", async () => {
  const { daemon, client, clock, setInProgress } = setup();
  client.start();
  await daemon.waitForRequests(1);
  const running: InProgressEntry = { id: "q-1", correlation_id: "c-1", type: "execute", status: "running", started_at: "t", updated_at: "t" };
  setInProgress([running]);
  daemon.last().respond({ commands: [], next_poll_ms: 1000 });
  await clock.advance(1000);
  await daemon.waitForRequests(2);
  assert.deepEqual(daemon.last().body.in_progress, [running]);
  await client.stop();
});

test("a finished command's result interrupts the parked long poll and goes out at once", async () => {
  const { daemon, client } = setup();
  client.start();
  await daemon.waitForRequests(1);
  const parked = daemon.last();
  client.queueResult(result("q-7"));
  await daemon.waitForRequests(2);
  assert.equal(parked.aborted, true, "the parked poll is aborted");
  assert.deepEqual(daemon.last().body.command_results, [result("q-7")]);
  assert.equal(daemon.maxInFlight, 1, "never two syncs at once");
  await client.stop();
});

test("a result already carried by the request in flight does not interrupt that request", async () => {
  const { daemon, client } = setup();
  client.start();
  await daemon.waitForRequests(1);
  client.queueResult(result("q-1"));
  await daemon.waitForRequests(2);
  client.requestSync("result");
  await settle();
  assert.equal(daemon.requests.length, 2);
  assert.equal(daemon.last().aborted, false);
  client.queueResult(result("q-2"));
  await settle();
  assert.equal(daemon.requests.length, 3, "a new result does interrupt");
  assert.deepEqual(daemon.last().body.command_results, [result("q-1"), result("q-2")]);
  await client.stop();
});

test("results stay queued until a sync carrying them succeeds", async () => {
  const { daemon, client, clock } = setup();
  client.start();
  await daemon.waitForRequests(1);
  client.queueResult(result("q-1"));
  await daemon.waitForRequests(2);
  daemon.last().fail();
  await settle();
  assert.equal(client.queuedResultCount(), 1, "kept after a failure");
  await clock.advance(500);
  assert.deepEqual(daemon.last().body.command_results, [result("q-1")]);
  daemon.last().respond({ commands: [] });
  await settle();
  assert.equal(client.queuedResultCount(), 0);
  await clock.advance(1000);
  assert.equal(daemon.last().body.command_results, undefined, "not sent again");
  await client.stop();
});

test("a result that arrives while an answer is being read is not lost", async () => {
  const { daemon, client } = setup();
  client.start();
  await daemon.waitForRequests(1);
  client.queueResult(result("q-1"));
  await daemon.waitForRequests(2);
  daemon.last().respond({ commands: [] });
  client.queueResult(result("q-2"));
  await settle();
  assert.deepEqual(daemon.last().body.command_results, [result("q-2")]);
  await client.stop();
});

test("commands are dispatched once even when the daemon re-sends them, and last_command_ack sticks", async () => {
  const { daemon, client, clock, dispatched } = setup();
  client.start();
  await daemon.waitForRequests(1);
  const command: DaemonCommand = { id: "q-1", type: "execute", params: { script: "1" }, correlation_id: "exec_1" };
  daemon.last().respond({ commands: [command], next_poll_ms: 200 });
  await clock.advance(200);
  await daemon.waitForRequests(2);
  assert.equal(daemon.last().body.last_command_ack, "q-1");
  daemon.last().respond({ commands: [command], next_poll_ms: 200 });
  await clock.advance(200);
  await daemon.waitForRequests(3);
  assert.equal(dispatched.length, 1, "re-delivered command is not dispatched again");
  daemon.last().respond({ commands: [], next_poll_ms: 1000 });
  await clock.advance(1000);
  await daemon.waitForRequests(4);
  assert.equal(daemon.last().body.last_command_ack, "q-1", "ack is re-sent on later syncs");
  await client.stop();
});

test("the daemon being down means exponential backoff from 500 ms to 5 s, and a disconnected status with the error", async () => {
  const { daemon, client, clock } = setup();
  daemon.autoRespond = () => ({ error: new TypeError("Failed to fetch") });
  client.start();
  await daemon.waitForRequests(1);
  const gaps: number[] = [];
  let lastTime = clock.now();
  for (const expected of [500, 1000, 2000, 4000, 5000, 5000]) {
    const before = daemon.requests.length;
    await clock.advance(expected - 1);
    assert.equal(daemon.requests.length, before, `no retry before ${expected} ms`);
    await clock.advance(1);
    assert.equal(daemon.requests.length, before + 1, `retry after ${expected} ms`);
    gaps.push(clock.now() - lastTime);
    lastTime = clock.now();
  }
  assert.deepEqual(gaps, [500, 1000, 2000, 4000, 5000, 5000]);
  const status = client.connectionStatus();
  assert.equal(status.state, "disconnected");
  assert.match(status.lastError ?? "", /Failed to fetch/);
  assert.ok(status.nextRetryAt);

  daemon.autoRespond = undefined;
  await clock.advance(5000);
  daemon.last().respond({ commands: [], server_version: "0.7.9" });
  await settle();
  assert.equal(client.connectionStatus().state, "connected");
  assert.equal(client.connectionStatus().serverVersion, "0.7.9");
  await client.stop();
});

test("an HTTP error counts as a failure and names the status", async () => {
  const { daemon, client } = setup();
  client.start();
  await daemon.waitForRequests(1);
  daemon.last().respond({ error: "forbidden: missing or invalid X-Gasoline-Client header" }, 403);
  await settle();
  assert.match(client.connectionStatus().lastError ?? "", /HTTP 403/);
  await client.stop();
});

test("a sync without an answer is aborted after 8 s and retried with backoff", async () => {
  const { daemon, client, clock } = setup();
  client.start();
  await daemon.waitForRequests(1);
  await clock.advance(7999);
  assert.equal(daemon.last().aborted, false);
  await clock.advance(1);
  assert.equal(daemon.requests[0]?.aborted, true);
  assert.match(client.connectionStatus().lastError ?? "", /within 8000 ms/);
  await clock.advance(500);
  assert.equal(daemon.requests.length, 2);
  await client.stop();
});

test("only one loop runs however often a sync is asked for", async () => {
  const { daemon, client, clock } = setup();
  client.start();
  client.start();
  await daemon.waitForRequests(1);
  for (let index = 0; index < 20; index++) {
    client.requestSync("settings");
    client.queueResult(result(`q-${index}`));
    if (index % 3 === 0) daemon.pending()[0]?.respond({ commands: [], next_poll_ms: 1000 });
    await settle(2);
  }
  await clock.advance(3000);
  assert.equal(daemon.maxInFlight, 1);
  assert.ok(daemon.pending().length <= 1);
  await client.stop();
});

test("while the daemon is down, a result does not cut the backoff short", async () => {
  const { daemon, client, clock } = setup();
  daemon.autoRespond = () => ({ error: new TypeError("Failed to fetch") });
  client.start();
  await daemon.waitForRequests(1);
  client.queueResult(result("q-1"));
  await settle();
  assert.equal(daemon.requests.length, 1);
  daemon.autoRespond = undefined;
  await clock.advance(500);
  assert.deepEqual(daemon.last().body.command_results, [result("q-1")]);
  await client.stop();
});

test("after a failed sync the daemon may be a new process: old command ids are forgotten and no stale ack is sent", async () => {
  const { daemon, client, clock, dispatched } = setup();
  client.start();
  await daemon.waitForRequests(1);
  daemon.last().respond({ commands: [{ id: "q-1", type: "waterfall", params: {} }], next_poll_ms: 200 });
  await clock.advance(200);
  assert.equal(daemon.last().body.last_command_ack, "q-1");
  daemon.last().fail();
  await clock.advance(500);
  assert.equal(daemon.last().body.last_command_ack, "q-1", "the ack is kept until the daemon answers again");
  daemon.last().respond({ commands: [{ id: "q-1", type: "waterfall", params: {} }], next_poll_ms: 200 });
  await settle();
  assert.equal(dispatched.length, 2, "the restarted daemon's q-1 runs");
  await clock.advance(200);
  assert.equal(daemon.last().body.last_command_ack, "q-1", "acknowledged again, now for the new daemon");
  await client.stop();
});

test("extension logs are sent once and put back when the sync fails", async () => {
  const { daemon, client, clock, setLogs } = setup();
  const entry: ExtensionLogEntry = { timestamp: "t", level: "info", message: "hello", source: "background", category: "test" };
  setLogs([entry]);
  client.start();
  await daemon.waitForRequests(1);
  assert.deepEqual(daemon.last().body.extension_logs, [entry]);
  daemon.last().fail();
  await clock.advance(500);
  assert.deepEqual(daemon.last().body.extension_logs, [entry], "re-sent after the failure");
  daemon.last().respond({ commands: [] });
  await clock.advance(1000);
  assert.equal(daemon.last().body.extension_logs, undefined, "absent once delivered");
  await client.stop();
});

test("a new server URL is tried at once, even during backoff", async () => {
  let url = "http://localhost:7890";
  const { daemon, client, clock } = setup({}, () => url);
  daemon.autoRespond = () => ({ error: new TypeError("Failed to fetch") });
  client.start();
  await daemon.waitForRequests(1);
  await clock.advance(500);
  await clock.advance(1000);
  const before = daemon.requests.length;
  daemon.autoRespond = undefined;
  url = "http://127.0.0.1:9999";
  client.requestSync("server-url");
  await settle();
  assert.equal(daemon.requests.length, before + 1);
  assert.equal(daemon.last().url, "http://127.0.0.1:9999/sync");
  assert.equal(client.connectionStatus().state, "connecting");
  await client.stop();
});

test("next_poll_ms sets the pause; 1000 ms when absent", async () => {
  const { daemon, client, clock } = setup();
  client.start();
  await daemon.waitForRequests(1);
  daemon.last().respond({ commands: [], next_poll_ms: 300 });
  await clock.advance(299);
  assert.equal(daemon.requests.length, 1);
  await clock.advance(1);
  assert.equal(daemon.requests.length, 2);
  daemon.last().respond({});
  await clock.advance(999);
  assert.equal(daemon.requests.length, 2);
  await clock.advance(1);
  assert.equal(daemon.requests.length, 3);
  await client.stop();
});
