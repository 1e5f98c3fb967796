/**
 * Isolated world: `subtitle` — a narration bar fixed at the bottom of the page (for demos and
 * screen recordings), or removed when the text is empty. It lives in a closed shadow root, so the
 * page's stylesheets cannot restyle its contents and the page's scripts cannot reach into it; the
 * host's own box is set with inline !important declarations, which beat the page's rules.
 * It lets every click through (pointer-events: none) and is skipped by overlay detection.
 */
(function registerSubtitleBar() {
  const TEXT_LIMIT = 1000;
  const HOST_TAG = "mcpkit-devconsole-subtitle";
  const HOST_STYLE: Record<string, string> = {
    all: "initial",
    display: "block",
    position: "fixed",
    left: "0",
    right: "0",
    bottom: "0",
    "z-index": "2147483647",
    "pointer-events": "none",
    margin: "0",
    padding: "0",
    border: "0",
    transform: "none",
    opacity: "1",
    visibility: "visible",
  };
  const BAR_CSS = `
    .bar {
      box-sizing: border-box; margin: 0 auto 24px; max-width: min(960px, calc(100vw - 32px)); width: fit-content;
      padding: 10px 18px; border-radius: 8px; background: rgba(0, 0, 0, 0.82); color: #fff;
      font: 500 18px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; text-align: center;
      white-space: pre-wrap; overflow-wrap: anywhere; box-shadow: 0 2px 12px rgba(0, 0, 0, 0.35);
    }`;

  let host: HTMLElement | undefined;
  let bar: HTMLElement | undefined;

  function build(): void {
    host = document.createElement(HOST_TAG);
    host.setAttribute("data-mcpkit-devconsole-subtitle", "");
    for (const [property, value] of Object.entries(HOST_STYLE)) host.style.setProperty(property, value, "important");
    const root = host.attachShadow({ mode: "closed" });
    const style = document.createElement("style");
    style.textContent = BAR_CSS;
    bar = document.createElement("div");
    bar.className = "bar";
    // Screen readers announce the narration as it changes.
    bar.setAttribute("role", "status");
    bar.setAttribute("aria-live", "polite");
    root.append(style, bar);
  }

  function showSubtitle(params: Record<string, unknown>): PageCommandAnswer {
    const raw = typeof params.text === "string" ? params.text.trim() : "";
    if (raw === "") {
      const wasShown = Boolean(host?.isConnected);
      host?.remove();
      return { ok: true, value: { shown: false, cleared: wasShown } };
    }
    const text = raw.length > TEXT_LIMIT ? raw.slice(0, TEXT_LIMIT) + "…" : raw;
    if (!host || !bar) build();
    (bar as HTMLElement).textContent = text;
    // Re-attached when the page removed it (or replaced <body>); documentElement outlives body swaps.
    if (!(host as HTMLElement).isConnected) document.documentElement.appendChild(host as HTMLElement);
    return { ok: true, value: { shown: true, text } };
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.showSubtitle = showSubtitle;
})();
