import { daemonUrlOrDefault } from "../shared/daemon-url.js";
import type { DevconsoleStatus } from "../shared/devconsole-status.js";
import type { ExtensionPageRequest } from "../shared/runtime-messages.js";
import { StorageKeys } from "../shared/storage-keys.js";
import { systemClock } from "./clock.js";
import { browserActionCommand } from "./commands/browser-action-command.js";
import { executeCommand } from "./commands/execute-command.js";
import { screenshotCommand } from "./commands/screenshot-command.js";
import { storageCommand } from "./commands/storage-command.js";
import { tabsCommand } from "./commands/tabs-command.js";
import { domActionCommand, highlightCommand, toolkitCommand } from "./commands/toolkit-commands.js";
import { CommandRouter } from "./command-router.js";
import { describeError, type DaemonConnection } from "./daemon-requests.js";
import { ExtensionLog } from "./extension-log.js";
import { createKeepAlive, scheduleKeepAliveAlarm } from "./keepalive.js";
import { chromePageScripting } from "./page-scripting.js";
import { SyncClient } from "./sync-client.js";
import { newExtensionSessionId } from "./sync-protocol.js";
import { TelemetryIntake } from "./telemetry-intake.js";
import { TelemetryStreams } from "./telemetry-streams.js";
import { TrackingState } from "./tracking-state.js";

/**
 * The extension's service worker: wires the pieces together and registers every Chrome event
 * listener synchronously at top level (MV3 only delivers the events that woke the worker to
 * listeners registered in the first turn).
 */
const clock = systemClock;
const version = chrome.runtime.getManifest().version;
const sessionId = newExtensionSessionId(Date.now());
const extensionLog = new ExtensionLog(clock);
let serverUrl = daemonUrlOrDefault(undefined);

const connection: DaemonConnection = {
  fetch: (url, init) => fetch(url, init),
  serverUrl: () => serverUrl,
  extensionVersion: version,
};
const log = (level: "debug" | "info" | "warn" | "error", message: string, data?: unknown) => extensionLog.add(level, "extension", message, data);

const tracking = new TrackingState(chromePageScripting, log);
const streams = new TelemetryStreams(connection, clock, extensionLog);
const intake = new TelemetryIntake(() => tracking.trackedTabId(), streams);

const router = new CommandRouter({
  clock,
  tabs: tracking,
  report: (result) => syncClient.queueResult(result),
  handlers: {
    execute: executeCommand(chromePageScripting, clock, (tabId) => tracking.markCspRestricted(tabId)),
    dom_action: domActionCommand(chromePageScripting, clock),
    highlight: highlightCommand(chromePageScripting),
    browser_action: browserActionCommand(tracking),
    screenshot: screenshotCommand(chromePageScripting, clock),
    tabs: tabsCommand(tracking),
    a11y: toolkitCommand(chromePageScripting, "a11y"),
    dom: toolkitCommand(chromePageScripting, "dom"),
    page_info: toolkitCommand(chromePageScripting, "page_info"),
    waterfall: toolkitCommand(chromePageScripting, "waterfall"),
    computed_styles: toolkitCommand(chromePageScripting, "computed_styles"),
    form_discovery: toolkitCommand(chromePageScripting, "form_discovery"),
    storage: storageCommand(chromePageScripting),
  },
});

const syncClient = new SyncClient({
  connection,
  clock,
  sessionId,
  settings: () => tracking.settings(),
  inProgress: () => router.inProgress(),
  extensionLogs: extensionLog,
  dispatch: (command) => router.dispatch(command),
  onLoopTurn: createKeepAlive(),
  log,
});
tracking.onChange(() => syncClient.requestSync("settings"));

function status(): DevconsoleStatus {
  const streamCounters = streams.counters();
  let sent = 0;
  let dropped = 0;
  for (const counters of Object.values(streamCounters)) {
    sent += counters.sent;
    dropped += counters.dropped;
  }
  return {
    version,
    sessionId,
    connection: syncClient.connectionStatus(),
    trackedTab: tracking.trackedTab(),
    sessionTabIds: tracking.sessionTabIds(),
    streams: streamCounters,
    totals: { sent, dropped },
    commands: router.counters(),
  };
}

/**
 * For tests driving the extension from Playwright (`worker.evaluate(() => devconsole.status())`).
 * Everything here is also reachable from the popup; nothing here is reachable from web pages.
 */
const devconsoleApi = {
  async trackTab(tabId: number): Promise<DevconsoleStatus> {
    await tracking.track(tabId);
    return status();
  },
  async untrack(): Promise<DevconsoleStatus> {
    await tracking.untrack();
    return status();
  },
  status,
  async setServerUrl(url: string): Promise<DevconsoleStatus> {
    await chrome.storage.local.set({ [StorageKeys.serverUrl]: url });
    applyServerUrl(url);
    return status();
  },
};
(globalThis as unknown as { devconsole: typeof devconsoleApi }).devconsole = devconsoleApi;

function applyServerUrl(stored: unknown): void {
  const next = daemonUrlOrDefault(stored);
  if (next === serverUrl) return;
  serverUrl = next;
  log("info", "Daemon URL changed", { server_url: next });
  syncClient.requestSync("server-url");
}

function isExtensionPage(sender: chrome.runtime.MessageSender): boolean {
  return sender.id === chrome.runtime.id && typeof sender.url === "string" && sender.url.startsWith(chrome.runtime.getURL(""));
}

async function answerExtensionPage(request: ExtensionPageRequest): Promise<DevconsoleStatus | { error: string }> {
  switch (request.kind) {
    case "status":
      return status();
    case "track-tab":
      if (typeof request.tabId !== "number") return { error: "tabId must be a number" };
      return devconsoleApi.trackTab(request.tabId);
    case "untrack":
      return devconsoleApi.untrack();
  }
  return { error: "unknown request" };
}

chrome.runtime.onMessage.addListener((message: { kind?: unknown }, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || typeof message?.kind !== "string") return false;
  const from = { tabId: sender.tab?.id, frameId: sender.frameId };
  if (message.kind === "capture-hello") {
    tracking.ready.then(() => sendResponse(intake.hello(from)));
    return true;
  }
  if (message.kind === "telemetry") {
    tracking.ready.then(() => {
      intake.receive(message as { entries?: unknown; dropped?: unknown }, from);
      sendResponse({ ok: true });
    });
    return true;
  }
  if (!isExtensionPage(sender)) return false;
  answerExtensionPage(message as ExtensionPageRequest).then(sendResponse, (error: unknown) => sendResponse({ error: describeError(error) }));
  return true;
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== "local") return;
  if (changes[StorageKeys.serverUrl]) applyServerUrl(changes[StorageKeys.serverUrl].newValue);
  if (changes[StorageKeys.trackedTabId]) {
    const next = changes[StorageKeys.trackedTabId].newValue;
    void tracking.apply(typeof next === "number" ? next : undefined);
  }
});

chrome.tabs.onRemoved.addListener((tabId) => tracking.handleTabRemoved(tabId));
chrome.tabs.onUpdated.addListener((tabId, change, tab) => tracking.handleTabUpdated(tabId, change, tab));
chrome.alarms.onAlarm.addListener(() => {
  // Being woken is the point of the keepalive alarm: by now the top-level code has restarted the loop.
});
scheduleKeepAliveAlarm();

void (async () => {
  const stored = await chrome.storage.local.get(StorageKeys.serverUrl);
  serverUrl = daemonUrlOrDefault(stored[StorageKeys.serverUrl]);
  await tracking.ready.catch((error: unknown) => log("error", "Could not restore the tracked tab", { error: describeError(error) }));
  log("info", "Service worker started", { version, session_id: sessionId, server_url: serverUrl });
  syncClient.start();
})();
