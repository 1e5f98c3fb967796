import { succeeded } from "../command-outcome.js";
import type { CommandHandler } from "../command-router.js";

export interface TabPermissions {
  trackedTabId(): number | undefined;
  isAllowed(tabId: number): boolean;
}

/** `tabs` (observe tabs): every tab's metadata, so the agent knows what exists and what it may touch. */
export function tabsCommand(permissions: TabPermissions): CommandHandler {
  return async () => {
    const tabs = await chrome.tabs.query({});
    const tracked = permissions.trackedTabId();
    return succeeded({
      tabs: tabs.map((tab) => ({
        id: tab.id,
        window_id: tab.windowId,
        index: tab.index,
        url: tab.url ?? "",
        title: tab.title ?? "",
        active: tab.active,
        tracked: tab.id === tracked,
        allowed: tab.id !== undefined && permissions.isAllowed(tab.id),
      })),
      count: tabs.length,
      tracked_tab_id: tracked ?? 0,
    });
  };
}
