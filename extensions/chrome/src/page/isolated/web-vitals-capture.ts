/**
 * Isolated world: load timing and Core Web Vitals become `/performance-snapshots` entries, once
 * after load, again when the page is hidden (the last chance before it may be discarded), and
 * every PERIODIC_MS while the figures keep changing.
 * LCP is the last largest-contentful-paint; CLS sums layout shifts not caused by recent input
 * (no session windows); INP is the slowest interaction seen, a simplification of the p98 rule.
 */
(function registerWebVitalsCapture() {
  const PERIODIC_MS = 15_000;
  const AFTER_LOAD_MS = 1000;

  interface LayoutShiftEntry extends PerformanceEntry {
    value: number;
    hadRecentInput: boolean;
  }

  interface InteractionEntry extends PerformanceEntry {
    interactionId?: number;
  }

  function rounded(value: number | null | undefined, digits = 1): number | null {
    if (value === null || value === undefined || !Number.isFinite(value)) return null;
    const factor = 10 ** digits;
    return Math.round(value * factor) / factor;
  }

  function observe(type: string, onEntries: (entries: PerformanceEntryList) => void, options: Record<string, unknown> = {}): void {
    try {
      if (!PerformanceObserver.supportedEntryTypes?.includes(type)) return;
      new PerformanceObserver((list) => onEntries(list.getEntries())).observe({ type, buffered: true, ...options });
    } catch {
      // an unsupported entry type only means that figure stays null
    }
  }

  function installWebVitalsCapture(context: CaptureContext): void {
    let largestContentfulPaint: number | null = null;
    let cumulativeLayoutShift = 0;
    let slowestInteraction: number | null = null;
    let firstContentfulPaint: number | null = null;
    let lastSent = "";

    observe("largest-contentful-paint", (entries) => {
      const last = entries[entries.length - 1];
      if (last) largestContentfulPaint = last.startTime;
    });
    observe("layout-shift", (entries) => {
      for (const entry of entries as LayoutShiftEntry[]) if (!entry.hadRecentInput) cumulativeLayoutShift += entry.value;
    });
    observe(
      "event",
      (entries) => {
        for (const entry of entries as InteractionEntry[]) {
          if (entry.interactionId) slowestInteraction = Math.max(slowestInteraction ?? 0, entry.duration);
        }
      },
      { durationThreshold: 16 },
    );
    observe("paint", (entries) => {
      for (const entry of entries) if (entry.name === "first-contentful-paint") firstContentfulPaint = entry.startTime;
    });

    function send(): void {
      if (!context.isCapturing()) return;
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
      const timing = {
        ttfb: rounded(navigation?.responseStart),
        dom_content_loaded: rounded(navigation?.domContentLoadedEventEnd || null),
        load: rounded(navigation?.loadEventEnd || null),
        fcp: rounded(firstContentfulPaint),
      };
      const vitals = {
        lcp: rounded(largestContentfulPaint),
        cls: rounded(cumulativeLayoutShift, 4),
        inp: rounded(slowestInteraction),
      };
      const fingerprint = JSON.stringify([location.href, timing, vitals]);
      if (fingerprint === lastSent) return;
      lastSent = fingerprint;
      context.emit("vitals", { url: location.href, ts: new Date().toISOString(), timing, vitals });
    }

    // loadEventEnd is set only after the load handlers have run, and the first paints are often
    // reported just after load; a second's wait gets them into the first snapshot.
    if (document.readyState === "complete") setTimeout(send, AFTER_LOAD_MS);
    else window.addEventListener("load", () => setTimeout(send, AFTER_LOAD_MS), { once: true });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") send();
    });
    setInterval(send, PERIODIC_MS);
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.installWebVitalsCapture = installWebVitalsCapture;
})();
