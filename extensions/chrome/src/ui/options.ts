import { checkDaemonUrl, DEFAULT_DAEMON_URL } from "../shared/daemon-url.js";
import { StorageKeys } from "../shared/storage-keys.js";

/**
 * The options page: the daemon URL. Saving writes chrome.storage.local.serverUrl; the worker
 * listens for that change and re-syncs against the new URL at once, no restart needed.
 */
const input = document.getElementById("server-url") as HTMLInputElement;
const errorBox = document.getElementById("url-error") as HTMLElement;
const warningBox = document.getElementById("url-warning") as HTMLElement;
const savedNote = document.getElementById("saved") as HTMLElement;

function show(box: HTMLElement, text: string | undefined): void {
  box.hidden = !text;
  box.textContent = text ?? "";
}

async function save(value: string): Promise<void> {
  savedNote.hidden = true;
  const check = checkDaemonUrl(value);
  show(errorBox, check.error);
  show(warningBox, check.warning);
  if (check.url === undefined) return;
  await chrome.storage.local.set({ [StorageKeys.serverUrl]: check.url });
  input.value = check.url;
  savedNote.hidden = false;
}

document.getElementById("settings-form")?.addEventListener("submit", (event) => {
  event.preventDefault();
  void save(input.value);
});
document.getElementById("reset-url")?.addEventListener("click", () => void save(DEFAULT_DAEMON_URL));
input.addEventListener("input", () => {
  const check = checkDaemonUrl(input.value);
  show(errorBox, input.value.trim() === "" ? undefined : check.error);
  show(warningBox, check.warning);
});

void chrome.storage.local.get(StorageKeys.serverUrl).then((stored) => {
  const value = stored[StorageKeys.serverUrl];
  input.value = typeof value === "string" ? value : DEFAULT_DAEMON_URL;
  show(warningBox, checkDaemonUrl(input.value).warning);
});
