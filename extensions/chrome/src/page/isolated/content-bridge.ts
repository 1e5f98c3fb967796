/**
 * Isolated world, at document_start (or injected when a tab already open gets tracked): the link
 * between the page hooks and the service worker.
 *
 * It asks the worker whether this tab is tracked. Until the answer comes, entries from the MAIN
 * world hooks and from this world's own capture are held (at most EARLY_BUFFER_LIMIT); a "tracked"
 * answer sends them on, a "not tracked" answer drops them and tells the hooks to go quiet. The
 * worker announces later tracking changes with a `tracking-changed` message.
 */
(function startContentBridge() {
  const TO_ISOLATED_EVENT = "mcpkit-devconsole:to-isolated";
  const TO_MAIN_EVENT = "mcpkit-devconsole:to-main";
  const EARLY_BUFFER_LIMIT = 500;
  const BATCH_LIMIT = 50;
  const BATCH_DELAY_MS = 100;
  const STREAMS = new Set<string>(["logs", "websocket", "bodies", "actions", "vitals"]);

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  if (parts.contentBridgeStarted) return;
  parts.contentBridgeStarted = true;

  type Item = { stream: TelemetryStream; entry: Record<string, unknown> };
  let state: "pending" | "on" | "off" = "pending";
  let early: Item[] = [];
  let batch: Item[] = [];
  let dropped = 0;
  let batchTimer: ReturnType<typeof setTimeout> | undefined;

  function extensionAlive(): boolean {
    try {
      return typeof chrome !== "undefined" && Boolean(chrome.runtime?.id);
    } catch {
      return false;
    }
  }

  function accept(item: Item): void {
    if (state === "off") return;
    if (state === "pending") {
      if (early.length >= EARLY_BUFFER_LIMIT) dropped += 1;
      else early.push(item);
      return;
    }
    batch.push(item);
    if (batch.length >= BATCH_LIMIT) sendBatch();
    else if (batchTimer === undefined) batchTimer = setTimeout(sendBatch, BATCH_DELAY_MS);
  }

  function sendBatch(): void {
    if (batchTimer !== undefined) clearTimeout(batchTimer);
    batchTimer = undefined;
    if (batch.length === 0 && dropped === 0) return;
    const entries = batch;
    const droppedNow = dropped;
    batch = [];
    dropped = 0;
    if (!extensionAlive()) {
      setCapture(false);
      return;
    }
    chrome.runtime.sendMessage({ kind: "telemetry", entries, dropped: droppedNow }).catch(() => {
      // The worker is restarting or the extension was reloaded; these entries are lost.
    });
  }

  function tellMainWorld(capture: boolean): void {
    document.dispatchEvent(new CustomEvent(TO_MAIN_EVENT, { detail: JSON.stringify({ capture }) }));
  }

  function setCapture(capture: boolean): void {
    const next = capture ? "on" : "off";
    if (state === next) return;
    state = next;
    tellMainWorld(capture);
    const held = early;
    early = [];
    if (capture) {
      for (const item of held) accept(item);
      sendBatch();
    } else {
      batch = [];
      dropped = 0;
    }
  }

  document.addEventListener(TO_ISOLATED_EVENT, (event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (typeof detail !== "string" || state === "off") return;
    let items: unknown;
    try {
      items = JSON.parse(detail);
    } catch {
      return;
    }
    if (!Array.isArray(items)) return;
    for (const item of items as Array<Partial<Item>>) {
      if (item && typeof item.stream === "string" && STREAMS.has(item.stream) && item.entry && typeof item.entry === "object") {
        accept(item as Item);
      }
    }
  });

  chrome.runtime.onMessage.addListener((message: { kind?: unknown; tracked?: unknown }, sender) => {
    if (sender.id !== chrome.runtime.id || message?.kind !== "tracking-changed") return;
    setCapture(message.tracked === true);
  });

  const captureContext: CaptureContext = {
    emit: (stream, entry) => accept({ stream, entry }),
    isCapturing: () => state !== "off",
  };
  for (const install of [parts.installUserActionCapture, parts.installWebVitalsCapture]) {
    try {
      if (typeof install === "function") install(captureContext);
    } catch {
      // one failed capture must not prevent the others
    }
  }
  accept({ stream: "actions", entry: { type: "navigate", timestamp: Date.now(), url: location.href, selectors: { cssPath: "" } } });

  chrome.runtime
    .sendMessage({ kind: "capture-hello" })
    .then((answer: { tracked?: unknown } | undefined) => setCapture(answer?.tracked === true))
    .catch(() => setCapture(false));
})();
