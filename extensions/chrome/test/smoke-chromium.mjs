// Smoke check of the built extension (dist/) in Debian's Chromium, against a tiny fake daemon:
// the service worker starts and syncs, a tracked tab's load-time console.log reaches /logs, and
// daemon commands (execute, dom_action, page_info, a11y, screenshot, an unknown type, execute on a
// page whose CSP forbids eval, and interact's writes and page-level actions in smoke/interact-checks.mjs)
// come back in /sync command_results. Finally the fake daemon is
// restarted and the extension must reconnect by itself.
//
//   npm run build && node test/smoke-chromium.mjs
//
// Environment: CHROMIUM (default /usr/bin/chromium), PLAYWRIGHT_CORE (default: the copy in
// tests/interop/node_modules). The end-to-end tests against the real daemon live in tests/interop/.
import { once } from "node:events";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createFakeDaemon } from "./smoke/fake-daemon.mjs";
import { INTERACT_PAGE, runInteractChecks } from "./smoke/interact-checks.mjs";

const dist = fileURLToPath(new URL("../dist", import.meta.url));
const playwrightPath =
  process.env.PLAYWRIGHT_CORE ?? fileURLToPath(new URL("../../../tests/interop/node_modules/playwright-core/index.mjs", import.meta.url));
const { chromium } = await import(pathToFileURL(playwrightPath).href);

const PAGE = `<!doctype html><html><head><title>devconsole smoke</title>
<script>console.log("smoke: early log", { n: 1, nested: { a: [1, 2, 3] } });</script></head>
<body><main><h1>Smoke</h1><button id="btn" onclick="this.textContent = 'clicked ' + (++window.clicks)">Click me</button>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20">
<label>Name <input id="name"></label></main>
<script>window.clicks = 0; setTimeout(() => { console.warn("smoke: later warning"); fetch("/missing.json"); }, 300);
const socket = new WebSocket("ws://" + location.host + "/ws"); socket.onopen = () => socket.send("ping from page");</script>
</body></html>`;
const CSP_PAGE = `<!doctype html><html><head><title>strict csp</title></head><body><p id="p">no eval here</p></body></html>`;
const PAGES = {
  "/page.html": { body: PAGE },
  "/interact.html": { body: INTERACT_PAGE },
  "/csp.html": { body: CSP_PAGE, headers: { "Content-Security-Policy": "script-src 'self'" } },
  "/blank.html": { body: "<title>blank</title>" },
};

async function waitFor(description, predicate, timeoutMs = 10_000) {
  const started = Date.now();
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const checks = [];
function check(name, condition, detail = "") {
  checks.push({ name, ok: Boolean(condition) });
  console.log(`${condition ? "ok  " : "FAIL"} ${name}${detail ? ` — ${detail}` : ""}`);
}

let nextCommand = 1;
async function runCommand(daemon, type, params, extra = {}) {
  const id = `q-${nextCommand++}`;
  const started = Date.now();
  daemon.enqueue({ id, type, params, correlation_id: `${type}_smoke_${id}`, ...extra });
  const result = await waitFor(`result of ${id} (${type})`, () => daemon.state.results.get(id), 20_000);
  return { ...result, elapsedMs: Date.now() - started };
}

const daemon = createFakeDaemon(PAGES);
daemon.server.listen(0, "127.0.0.1");
await once(daemon.server, "listening");
const port = daemon.server.address().port;
const base = `http://127.0.0.1:${port}`;

const context = await chromium.launchPersistentContext("", {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: false,
  args: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    `--disable-extensions-except=${dist}`,
    `--load-extension=${dist}`,
  ],
});
let exitCode = 1;
try {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
  check("service worker started", worker.url().endsWith("/worker/service-worker.js"), worker.url());
  await worker.evaluate((url) => globalThis.devconsole.setServerUrl(url), base);
  await waitFor("a /sync at the fake daemon", () => daemon.state.syncs.length > 0);
  const firstSync = daemon.state.syncs[0].body;
  check("/sync carries ext_session_id, settings and in_progress", /^ext_\d+_[0-9a-z]{6}$/.test(firstSync.ext_session_id) && firstSync.settings && Array.isArray(firstSync.in_progress));

  const noTab = await runCommand(daemon, "execute", { what: "execute_js", script: "1" });
  check("without a tracked tab: no_tracked_tab", noTab.error === "no_tracked_tab", noTab.result?.message);

  const page = await context.newPage();
  await page.goto(`${base}/blank.html`);
  const tabId = await worker.evaluate(async (url) => (await chrome.tabs.query({ url })).at(0)?.id, `${base}/blank.html`);
  const tracked = await worker.evaluate((id) => globalThis.devconsole.trackTab(id), tabId);
  check("devconsole.trackTab() tracks the tab", tracked.trackedTab?.id === tabId, `tab ${tabId}`);
  await page.goto(`${base}/page.html`);

  const earlyLog = await waitFor("the load-time console.log at /logs", () =>
    (daemon.state.telemetry["/logs"] ?? []).find((entry) => entry.message?.startsWith("smoke: early log")),
  );
  check("a console.log made while the page loads reaches /logs", earlyLog.tabId === tabId && earlyLog.level === "log" && earlyLog.type === "console", JSON.stringify(earlyLog));
  const failed = await waitFor("the failed fetch at /logs", () => (daemon.state.telemetry["/logs"] ?? []).find((entry) => entry.type === "network"));
  check("a failed fetch becomes a network log entry", failed.status === 404, failed.message);
  const body = await waitFor("the fetch body at /network-bodies", () => (daemon.state.telemetry["/network-bodies"] ?? []).find((entry) => entry.url.endsWith("/missing.json")));
  check("fetch bodies reach /network-bodies", body.tab_id === tabId && body.status === 404);

  const socketEvents = await waitFor("WebSocket open + messages at /websocket-events", () => {
    const events = daemon.state.telemetry["/websocket-events"] ?? [];
    return events.filter((event) => event.event === "message").length >= 3 ? events : undefined;
  });
  const directions = socketEvents.filter((event) => event.event === "message").map((event) => `${event.direction}:${event.data}`);
  check(
    "WebSocket open and messages in both directions reach /websocket-events",
    socketEvents.some((event) => event.event === "open") && directions.includes("outgoing:ping from page") && directions.includes("incoming:echo: ping from page"),
    directions.join(", "),
  );
  const vitals = await waitFor("a snapshot at /performance-snapshots", () => (daemon.state.telemetry["/performance-snapshots"] ?? [])[0]);
  check("Web Vitals reach /performance-snapshots", vitals.tabId === tabId && typeof vitals.timing?.load === "number", JSON.stringify({ timing: vitals.timing, vitals: vitals.vitals }));

  const executed = await runCommand(daemon, "execute", { what: "execute_js", script: "document.title" });
  check("execute document.title comes back in command_results", executed.status === "complete" && executed.result?.result === "devconsole smoke", `${executed.elapsedMs} ms, ${JSON.stringify(executed.result)}`);
  const clicked = await runCommand(daemon, "dom_action", { what: "click", action: "click", selector: "text=Click me" });
  const buttonText = await page.textContent("#btn");
  check("dom_action click by text= selector clicks", clicked.status === "complete" && buttonText === "clicked 1", `${clicked.elapsedMs} ms, button now "${buttonText}"`);
  const action = await waitFor("the click at /enhanced-actions", () => (daemon.state.telemetry["/enhanced-actions"] ?? []).find((entry) => entry.type === "click"));
  check("the click is recorded at /enhanced-actions with selectors", action.selectors?.cssPath === "#btn" && action.selectors?.role?.role === "button", JSON.stringify(action.selectors));
  const typed = await runCommand(daemon, "dom_action", { action: "type", selector: "label=Name", text: "Ada" });
  check("dom_action type by label=", typed.status === "complete" && (await page.inputValue("#name")) === "Ada");
  const input = await waitFor("the typing at /enhanced-actions", () => (daemon.state.telemetry["/enhanced-actions"] ?? []).find((entry) => entry.type === "input"));
  check("typing is recorded as an input action with its value", input.value === "Ada", JSON.stringify(input));
  const missing = await runCommand(daemon, "dom_action", { action: "click", selector: "#nope" });
  check("a missing element is element_not_found", missing.error === "element_not_found", missing.result?.message);
  const info = await runCommand(daemon, "page_info", {});
  check("page_info", info.result?.title === "devconsole smoke" && info.result?.ready_state === "complete");
  const a11y = await runCommand(daemon, "a11y", {});
  check("a11y finds the image without alt", a11y.result?.violations?.some((violation) => violation.rule === "image-alt"), `${a11y.result?.node_count} nodes`);
  const shot = await runCommand(daemon, "screenshot", { format: "jpeg", quality: 60 });
  check("screenshot returns a data URL", shot.status === "complete" && shot.result?.data_url?.startsWith("data:image/jpeg;base64,"), `${shot.result?.width}x${shot.result?.height}, ${shot.result?.data_url?.length} chars`);
  const unknown = await runCommand(daemon, "draw_mode", { text: "hi" });
  check("an unknown command type is unknown_command", unknown.error === "unknown_command");
  const otherTab = await runCommand(daemon, "execute", { script: "1" }, { tab_id: 987654 });
  check("a tab that is not tracked is refused", otherTab.error === "tab_not_allowed");
  const waited = await runCommand(daemon, "dom_action", { action: "wait_for", selector: "#later", timeout_ms: 3000 }, {});
  check("wait_for without a match times out cleanly", waited.error === "wait_for_timeout", `${waited.result?.waited_ms} ms`);

  await page.goto(`${base}/interact.html`);
  await runInteractChecks({ page, check, run: (type, params) => runCommand(daemon, type, params) });

  await page.goto(`${base}/csp.html`);
  const blocked = await runCommand(daemon, "execute", { script: "document.title" });
  check("execute on a page whose CSP forbids eval is csp_blocked", blocked.error === "csp_blocked", blocked.result?.message);
  const text = await runCommand(daemon, "dom_action", { action: "get_text", selector: "#p" });
  check("DOM actions still work under that CSP", text.result?.text === "no eval here");

  // An aborted poll's socket may close a few ms after its replacement arrives; more than that is a second loop.
  const overlaps = daemon.state.syncs.filter((sync, index) =>
    daemon.state.syncs.slice(0, index).some((earlier) => earlier.end - sync.start > 100),
  );
  check("only one /sync at a time", overlaps.length === 0, `${daemon.state.syncs.length} syncs, ${overlaps.length} overlapping by more than 100 ms`);
  check("X-Gasoline-Client is mcpkit-devconsole/<version>", [...daemon.state.clientHeaders].every((value) => /^mcpkit-devconsole\/\d+\.\d+\.\d+$/.test(value)), [...daemon.state.clientHeaders].join(", "));

  const extensionBase = worker.url().replace(/\/worker\/service-worker\.js$/, "");
  const popup = await context.newPage();
  await popup.goto(`${extensionBase}/popup.html`);
  const popupState = await waitFor("the popup to render", async () => {
    const state = await popup.textContent("#connection-state");
    return state?.startsWith("connected") ? state : undefined;
  });
  const trackedTitle = await popup.textContent("#tracked-title");
  check("the popup shows the connection and the tracked tab", trackedTitle === "strict csp", `${popupState}; tracked "${trackedTitle}"`);
  await popup.goto(`${extensionBase}/options.html`);
  await popup.fill("#server-url", "http://example.invalid:1");
  const warning = await popup.textContent("#url-warning");
  await popup.fill("#server-url", `${base}/`);
  await popup.click("button[type=submit]");
  const saved = await waitFor("the options page to save", () => worker.evaluate(() => chrome.storage.local.get("serverUrl")));
  check("the options page warns about remote hosts and saves a normalized URL", /not this computer/.test(warning ?? "") && saved.serverUrl === base, saved.serverUrl);
  await popup.close();

  // A URL change takes effect at once, without restarting the worker.
  await worker.evaluate(() => chrome.storage.local.set({ serverUrl: "http://127.0.0.1:9" }));
  const wrongUrl = await waitFor("a failure against the wrong URL", async () => {
    const connection = await worker.evaluate(() => globalThis.devconsole.status().connection);
    return connection.state === "disconnected" && connection.serverUrl === "http://127.0.0.1:9" ? connection : undefined;
  });
  const syncsBefore = daemon.state.syncs.length;
  const switchedAt = Date.now();
  await worker.evaluate((url) => chrome.storage.local.set({ serverUrl: url }), base);
  await waitFor("a /sync at the URL set back", () => daemon.state.syncs.length > syncsBefore);
  const arrivedMs = daemon.state.syncs[syncsBefore].start - switchedAt;
  // "connected" needs the /sync answer, which an idle daemon holds for up to 5 s.
  await waitFor("reconnection after the URL is set back", async () => (await worker.evaluate(() => globalThis.devconsole.status().connection)).state === "connected");
  check("a daemon URL change in storage takes effect at once", arrivedMs < 1000, `failed with "${wrongUrl.lastError}" at the wrong URL; first /sync at the right one ${arrivedMs} ms after the change`);

  // A daemon restart: the port goes away for 3 s, then a new server takes it.
  daemon.server.closeAllConnections();
  daemon.server.close();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const down = await worker.evaluate(() => globalThis.devconsole.status().connection);
  check("the popup's status shows disconnected with the error", down.state === "disconnected" && Boolean(down.lastError), down.lastError);
  const restarted = createFakeDaemon(PAGES);
  restarted.server.listen(port, "127.0.0.1");
  await once(restarted.server, "listening");
  await waitFor("a /sync at the restarted daemon", () => restarted.state.syncs.length > 0, 10_000);
  nextCommand = 1;
  const again = await runCommand(restarted, "page_info", {});
  check("after the daemon restarts, commands work again (ids restart at q-1)", again.result?.url === `${base}/csp.html`, `${again.elapsedMs} ms`);
  restarted.server.closeAllConnections();
  restarted.server.close();

  const failedChecks = checks.filter((entry) => !entry.ok);
  console.log(`\n${checks.length - failedChecks.length}/${checks.length} checks passed`);
  exitCode = failedChecks.length === 0 ? 0 : 1;
} finally {
  await context.close();
  daemon.server.closeAllConnections?.();
  daemon.server.close();
}
process.exit(exitCode);
