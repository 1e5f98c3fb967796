import { CommandFailure } from "../command-outcome.js";
import { describeError } from "../daemon-requests.js";

export type LoadOutcome = "complete" | "timeout";

/**
 * Runs `trigger` (a navigation, reload, back…) and resolves when the tab has finished loading the
 * result, or after `timeoutMs`. The listener is attached before the trigger, so a fast load cannot
 * be missed; a navigation that never starts loading (same-document, or refused) counts as done
 * once the tab reports "complete" for a second.
 */
export function runAndWaitForLoad(
  tabId: number,
  trigger: () => Promise<unknown>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<LoadOutcome> {
  return new Promise<LoadOutcome>((resolve, reject) => {
    const started = Date.now();
    let sawLoading = false;
    let settled = false;
    const onUpdated = (updatedTabId: number, change: chrome.tabs.OnUpdatedInfo) => {
      if (updatedTabId !== tabId) return;
      if (change.status === "loading") sawLoading = true;
      if (change.status === "complete" && sawLoading) finish("complete");
    };
    const poll = setInterval(() => {
      chrome.tabs.get(tabId).then(
        (tab) => {
          if (tab.status === "complete" && (sawLoading || Date.now() - started > 1000)) finish("complete");
        },
        (error: unknown) => fail(new CommandFailure("tab_not_found", `The tab went away while loading: ${describeError(error)}`)),
      );
    }, 250);
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    const onAbort = () => fail(signal.reason);

    function cleanup(): void {
      settled = true;
      chrome.tabs.onUpdated.removeListener(onUpdated);
      clearInterval(poll);
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
    function finish(outcome: LoadOutcome): void {
      if (settled) return;
      cleanup();
      resolve(outcome);
    }
    function fail(error: unknown): void {
      if (settled) return;
      cleanup();
      reject(error);
    }

    chrome.tabs.onUpdated.addListener(onUpdated);
    signal.addEventListener("abort", onAbort, { once: true });
    trigger().catch((error: unknown) => fail(error instanceof CommandFailure ? error : new CommandFailure("navigation_failed", describeError(error))));
  });
}
