/**
 * Chrome stops an idle extension service worker after about 30 s, and a pending fetch does not
 * count as activity. Calling any extension API resets that timer (Chrome 110+), so the sync loop
 * calls one every KEEPALIVE_INTERVAL_MS. If the worker is stopped anyway (browser under memory
 * pressure, an update), the alarm starts it again and its top-level code restarts the loop.
 */
const KEEPALIVE_INTERVAL_MS = 20_000;
export const KEEPALIVE_ALARM = "mcpkit-devconsole-keepalive";

export function createKeepAlive(now: () => number = Date.now): () => void {
  let last = 0;
  return () => {
    const current = now();
    if (current - last < KEEPALIVE_INTERVAL_MS) return;
    last = current;
    void chrome.runtime.getPlatformInfo().catch(() => undefined);
  };
}

export function scheduleKeepAliveAlarm(): void {
  void chrome.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 0.5 });
}
