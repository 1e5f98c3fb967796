/** Keys in chrome.storage.local. `serverUrl` and `trackedTabId` are the names the original extension used, so existing setups keep working. */
export const StorageKeys = {
  serverUrl: "serverUrl",
  trackedTabId: "trackedTabId",
} as const;

/** Key in chrome.storage.session: tabs opened by `new_tab` stay commandable across service-worker restarts, but not across browser restarts. */
export const SessionStorageKeys = {
  sessionTabIds: "sessionTabIds",
} as const;
