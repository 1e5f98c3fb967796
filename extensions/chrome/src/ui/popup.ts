import type { DevconsoleStatus } from "../shared/devconsole-status.js";
import type { ExtensionPageRequest } from "../shared/runtime-messages.js";

/**
 * The toolbar popup: connection state, the tracked tab with its Track / Stop button, and the
 * telemetry counters. Everything comes from the worker, refreshed every second while open.
 */
const REFRESH_MS = 1000;

function element<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

async function ask(request: ExtensionPageRequest): Promise<DevconsoleStatus> {
  const answer = (await chrome.runtime.sendMessage(request)) as DevconsoleStatus | { error: string } | undefined;
  if (!answer || "error" in answer) throw new Error(answer?.error ?? "the service worker did not answer");
  return answer;
}

async function activeTab(): Promise<chrome.tabs.Tab | undefined> {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab;
}

function relativeTime(iso: string | undefined): string {
  if (!iso) return "";
  const seconds = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
  return seconds === 0 ? "now" : `in ${seconds} s`;
}

function render(status: DevconsoleStatus, currentTab: chrome.tabs.Tab | undefined): void {
  const { connection } = status;
  const state = element("connection-state");
  state.className = `state ${connection.state}`;
  state.textContent = connection.state + (connection.serverVersion ? ` (daemon ${connection.serverVersion})` : "");
  element("server-url").textContent = connection.serverUrl;
  const detail = element("connection-detail");
  detail.hidden = connection.state !== "disconnected";
  detail.textContent = connection.lastError ? `${connection.lastError} — retrying ${relativeTime(connection.nextRetryAt)}` : "";

  const tracked = status.trackedTab;
  element("tracked-title").textContent = tracked ? tracked.title || `tab ${tracked.id}` : "none";
  element("tracked-url").textContent = tracked?.url ?? "";
  const toggle = element<HTMLButtonElement>("track-toggle");
  const currentIsTracked = tracked !== null && currentTab?.id === tracked.id;
  toggle.textContent = currentIsTracked ? "Stop tracking" : tracked ? "Track this tab instead" : "Track this tab";
  toggle.dataset.action = currentIsTracked ? "untrack" : "track";
  toggle.disabled = currentTab?.id === undefined;

  const rows = element("stream-rows");
  rows.replaceChildren(
    ...Object.entries(status.streams).map(([name, counters]) => {
      const row = document.createElement("tr");
      for (const [text, numeric] of [
        [name, false],
        [String(counters.sent), true],
        [String(counters.dropped), true],
        [String(counters.queued), true],
      ] as const) {
        const cell = document.createElement("td");
        cell.textContent = text;
        if (numeric) cell.className = "number";
        row.append(cell);
      }
      return row;
    }),
  );
  element("command-counts").textContent =
    `events sent ${status.totals.sent}, dropped ${status.totals.dropped} · commands ${status.commands.completed}/${status.commands.received} done, ${status.commands.running} running`;
}

async function refresh(): Promise<void> {
  const [status, tab] = await Promise.all([ask({ kind: "status" }), activeTab()]);
  render(status, tab);
}

element("track-toggle").addEventListener("click", async () => {
  const errorBox = element("track-error");
  errorBox.hidden = true;
  try {
    const tab = await activeTab();
    const toggle = element<HTMLButtonElement>("track-toggle");
    const status =
      toggle.dataset.action === "untrack" || tab?.id === undefined
        ? await ask({ kind: "untrack" })
        : await ask({ kind: "track-tab", tabId: tab.id });
    render(status, tab);
  } catch (error) {
    errorBox.hidden = false;
    errorBox.textContent = error instanceof Error ? error.message : String(error);
  }
});

element("open-options").addEventListener("click", (event) => {
  event.preventDefault();
  void chrome.runtime.openOptionsPage();
});

void refresh().catch((error: unknown) => {
  element("connection-detail").hidden = false;
  element("connection-detail").textContent = String(error);
});
setInterval(() => void refresh().catch(() => undefined), REFRESH_MS);
