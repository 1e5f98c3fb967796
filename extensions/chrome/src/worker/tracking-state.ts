import type { TrackedTabStatus } from "../shared/devconsole-status.js";
import type { ContentScriptNotice } from "../shared/runtime-messages.js";
import { SessionStorageKeys, StorageKeys } from "../shared/storage-keys.js";
import type { TabAccess, TabDetails } from "./command-router.js";
import { describeError } from "./daemon-requests.js";
import type { PageScripting } from "./page-scripting.js";
import type { SyncSettings } from "./sync-protocol.js";

/**
 * Which tab is tracked and which tabs commands may touch. `chrome.storage.local.trackedTabId` is
 * the single source of truth: the popup, `devconsole.trackTab()` and tests all write it, and every
 * change arrives here through storage.onChanged. Stopping tracking also revokes the tabs the agent
 * opened with `new_tab`.
 */
export class TrackingState implements TabAccess {
  private trackedId: number | undefined;
  private tracked: { url: string; title: string } = { url: "", title: "" };
  private readonly sessionTabs = new Set<number>();
  private cspRestricted = false;
  private readonly listeners: Array<() => void> = [];
  readonly ready: Promise<void>;

  constructor(
    private readonly scripting: PageScripting,
    private readonly log: (level: "info" | "warn", message: string, data?: unknown) => void,
  ) {
    this.ready = this.load();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  trackedTabId(): number | undefined {
    return this.trackedId;
  }

  isAllowed(tabId: number): boolean {
    return this.trackedId !== undefined && (tabId === this.trackedId || this.sessionTabs.has(tabId));
  }

  async describe(tabId: number): Promise<TabDetails | undefined> {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    return tab ? { id: tabId, url: tab.url ?? "", title: tab.title ?? "" } : undefined;
  }

  trackedTab(): TrackedTabStatus | null {
    return this.trackedId === undefined ? null : { id: this.trackedId, ...this.tracked };
  }

  sessionTabIds(): number[] {
    return [...this.sessionTabs];
  }

  async track(tabId: number): Promise<void> {
    await chrome.storage.local.set({ [StorageKeys.trackedTabId]: tabId });
    await this.apply(tabId);
  }

  async untrack(): Promise<void> {
    await chrome.storage.local.remove(StorageKeys.trackedTabId);
    await this.apply(undefined);
  }

  addSessionTab(tabId: number): void {
    this.sessionTabs.add(tabId);
    void this.persistSessionTabs();
  }

  markCspRestricted(tabId: number): void {
    if (tabId !== this.trackedId || this.cspRestricted) return;
    this.cspRestricted = true;
    this.notify();
  }

  settings(): SyncSettings {
    return {
      pilot_enabled: true,
      tracking_enabled: this.trackedId !== undefined,
      tracked_tab_id: this.trackedId ?? 0,
      tracked_tab_url: this.tracked.url,
      tracked_tab_title: this.tracked.title,
      capture_logs: true,
      capture_network: true,
      capture_websocket: true,
      capture_actions: true,
      csp_restricted: this.cspRestricted,
      csp_level: this.cspRestricted ? "script_exec" : "none",
    };
  }

  /** Called for every storage.onChanged of trackedTabId; applying the same value twice is harmless. */
  async apply(next: number | undefined): Promise<void> {
    await this.ready;
    const previous = this.trackedId;
    if (previous === next) return;
    this.trackedId = next;
    this.tracked = { url: "", title: "" };
    this.cspRestricted = false;
    if (next === undefined) {
      this.sessionTabs.clear();
      void this.persistSessionTabs();
    }
    if (previous !== undefined) this.tellTab(previous, false);
    if (next !== undefined) {
      await this.refreshTrackedTab();
      await this.scripting.ensureCapture(next).catch((error: unknown) =>
        this.log("warn", "Could not add the capture scripts to the tracked tab", { tab_id: next, error: describeError(error) }),
      );
      this.tellTab(next, true);
    }
    this.log("info", next === undefined ? "Tracking stopped" : "Tracking tab", { tab_id: next ?? 0, previous: previous ?? 0 });
    this.notify();
  }

  handleTabRemoved(tabId: number): void {
    if (this.sessionTabs.delete(tabId)) void this.persistSessionTabs();
    if (tabId === this.trackedId) void this.untrack();
  }

  handleTabUpdated(tabId: number, change: chrome.tabs.OnUpdatedInfo, tab: chrome.tabs.Tab): void {
    if (tabId !== this.trackedId) return;
    const next = { url: tab.url ?? this.tracked.url, title: tab.title ?? this.tracked.title };
    const navigated = change.url !== undefined && next.url !== this.tracked.url;
    // Each notification interrupts the parked /sync to send new settings; loading-status changes alone are not worth that.
    if (!navigated && next.title === this.tracked.title) return;
    if (navigated) this.cspRestricted = false;
    this.tracked = next;
    this.notify();
  }

  private async load(): Promise<void> {
    const stored = await chrome.storage.local.get(StorageKeys.trackedTabId);
    const storedId = stored[StorageKeys.trackedTabId];
    const session = await chrome.storage.session.get(SessionStorageKeys.sessionTabIds).catch(() => ({}) as Record<string, unknown>);
    const sessionIds = session[SessionStorageKeys.sessionTabIds];
    if (typeof storedId === "number" && (await chrome.tabs.get(storedId).catch(() => undefined))) {
      this.trackedId = storedId;
      if (Array.isArray(sessionIds)) for (const id of sessionIds) if (typeof id === "number") this.sessionTabs.add(id);
      await this.refreshTrackedTab();
    } else if (storedId !== undefined) {
      // The tab is gone (tab ids do not survive a browser restart).
      await chrome.storage.local.remove(StorageKeys.trackedTabId);
    }
  }

  private async refreshTrackedTab(): Promise<void> {
    if (this.trackedId === undefined) return;
    const tab = await chrome.tabs.get(this.trackedId).catch(() => undefined);
    if (tab) this.tracked = { url: tab.url ?? "", title: tab.title ?? "" };
  }

  private tellTab(tabId: number, tracked: boolean): void {
    const notice: ContentScriptNotice = { kind: "tracking-changed", tracked };
    chrome.tabs.sendMessage(tabId, notice, { frameId: 0 }).catch(() => {
      // No content script there (a browser page, or still loading): it asks by itself when it starts.
    });
  }

  private async persistSessionTabs(): Promise<void> {
    await chrome.storage.session.set({ [SessionStorageKeys.sessionTabIds]: [...this.sessionTabs] }).catch(() => undefined);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
