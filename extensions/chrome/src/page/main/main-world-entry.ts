/**
 * MAIN world, last of the hook files, at document_start: installs the capture hooks before any
 * page script runs, so load-time logs are not lost (the original extension lost them because it
 * injected its hooks only after asking whether the tab was tracked).
 *
 * Until the isolated content bridge says whether this tab is tracked, entries are captured and
 * handed over anyway; the bridge buffers a bounded number of them and either forwards or drops
 * them. Once told "not tracked", the hooks go quiet and only call through to the originals.
 *
 * Entries travel to the isolated world as JSON strings in CustomEvents on `document`. A
 * window.postMessage would also reach the page's own message listeners, and a page that logs the
 * messages it receives would feed its logs back into the capture forever.
 */
(function startMainWorldCapture() {
  const TO_ISOLATED_EVENT = "mcpkit-devconsole:to-isolated";
  const TO_MAIN_EVENT = "mcpkit-devconsole:to-main";
  const INSTALLED_MARKER = Symbol.for("mcpkit-devconsole.main-world-hooks");
  /** Without an answer from the bridge (extension reloading, bridge missing) the hooks stop capturing. */
  const PENDING_GIVE_UP_MS = 15_000;
  const HANDOVER_BATCH = 100;
  const HANDOVER_DELAY_MS = 50;

  const parts = globalThis.__mcpkitDevconsoleParts;
  delete (globalThis as { __mcpkitDevconsoleParts?: unknown }).__mcpkitDevconsoleParts;
  const markedWindow = window as unknown as Record<symbol, unknown>;
  if (!parts || markedWindow[INSTALLED_MARKER]) return;
  Object.defineProperty(window, INSTALLED_MARKER, { value: true });

  // The page may replace these globals later; the hand-over keeps working with the originals.
  const NativeCustomEvent = CustomEvent;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const stringify = JSON.stringify;
  const nativeSetTimeout = setTimeout;

  let state: "pending" | "on" | "off" = "pending";
  let outbox: Array<{ stream: TelemetryStream; entry: Record<string, unknown> }> = [];
  let handoverScheduled = false;

  function handOver(): void {
    handoverScheduled = false;
    if (outbox.length === 0) return;
    const batch = outbox;
    outbox = [];
    try {
      dispatch.call(document, new NativeCustomEvent(TO_ISOLATED_EVENT, { detail: stringify(batch) }));
    } catch {
      // an entry that cannot be stringified is not worth breaking the page for
    }
  }

  const context: MainWorldCaptureContext = {
    isCapturing: () => state !== "off",
    emit(stream, entry) {
      if (state === "off") return;
      outbox.push({ stream, entry });
      if (outbox.length >= HANDOVER_BATCH) handOver();
      else if (!handoverScheduled) {
        handoverScheduled = true;
        nativeSetTimeout(handOver, HANDOVER_DELAY_MS);
      }
    },
    serialize: parts.serializeForTransport,
    formatMessage: parts.formatConsoleMessage,
  };

  document.addEventListener(TO_MAIN_EVENT, (event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (typeof detail !== "string") return;
    try {
      const control = JSON.parse(detail) as { capture?: unknown };
      if (typeof control.capture !== "boolean") return;
      state = control.capture ? "on" : "off";
      if (!control.capture) outbox = [];
    } catch {
      // not ours
    }
  });

  nativeSetTimeout(() => {
    if (state !== "pending") return;
    state = "off";
    outbox = [];
  }, PENDING_GIVE_UP_MS);

  for (const install of [parts.installConsoleCapture, parts.installNetworkCapture, parts.installWebSocketCapture]) {
    try {
      install(context);
    } catch {
      // one failed hook must not prevent the others
    }
  }
  installHistoryCapture(context);

  /** Single-page apps navigate with history.pushState; those navigations are user-visible actions too. */
  function installHistoryCapture(captureContext: CaptureContext): void {
    const emitNavigation = () => {
      if (!captureContext.isCapturing()) return;
      captureContext.emit("actions", {
        type: "navigate",
        timestamp: Date.now(),
        url: location.href,
        selectors: { cssPath: "" },
      });
    };
    for (const method of ["pushState", "replaceState"] as const) {
      const original = history[method];
      if (typeof original !== "function") continue;
      history[method] = function (this: History, ...args: Parameters<History["pushState"]>) {
        const before = location.href;
        const result = original.apply(this, args);
        if (location.href !== before) emitNavigation();
        return result;
      };
    }
    window.addEventListener("popstate", emitNavigation);
    window.addEventListener("hashchange", emitNavigation);
  }
})();
