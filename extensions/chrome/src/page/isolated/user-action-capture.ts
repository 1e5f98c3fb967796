/**
 * Isolated world: clicks, typing, changes, Enter/Escape/Tab and form submissions become
 * `/enhanced-actions` entries with selectors that find the element again. Listening here rather
 * than in the MAIN world means the page cannot remove or fake these listeners.
 * Values of password, one-time-code and payment-card fields are never recorded.
 */
(function registerUserActionCapture() {
  const RECORDED_KEYS = new Set(["Enter", "Escape", "Tab"]);
  const INPUT_SETTLE_MS = 400;
  const VALUE_LIMIT = 200;

  function isSensitive(element: Element): boolean {
    const type = (element.getAttribute("type") ?? "").toLowerCase();
    const autocomplete = (element.getAttribute("autocomplete") ?? "").toLowerCase();
    return type === "password" || /password|one-time-code|cc-/.test(autocomplete);
  }

  function valueOf(element: Element): string | undefined {
    if (isSensitive(element)) return "[redacted]";
    if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
      return String(element.checked);
    }
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) {
      return element.value.length > VALUE_LIMIT ? element.value.slice(0, VALUE_LIMIT) + "…" : element.value;
    }
    if (element instanceof HTMLElement && element.isContentEditable) {
      const text = element.innerText;
      return text.length > VALUE_LIMIT ? text.slice(0, VALUE_LIMIT) + "…" : text;
    }
    return undefined;
  }

  function eventElement(event: Event): Element | undefined {
    const path = event.composedPath();
    const first = path[0];
    if (first instanceof Element) return first;
    return event.target instanceof Element ? event.target : undefined;
  }

  function installUserActionCapture(context: CaptureContext): void {
    const parts = globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
    const settling = new Map<Element, ReturnType<typeof setTimeout>>();

    function record(type: string, element: Element, extra: Record<string, unknown> = {}): void {
      if (!context.isCapturing()) return;
      try {
        context.emit("actions", {
          type,
          timestamp: Date.now(),
          url: location.href,
          selectors: parts.summarizeElement(element),
          ...extra,
        });
      } catch {
        // capture must never disturb the page
      }
    }

    function withValue(element: Element): Record<string, unknown> {
      const value = valueOf(element);
      return value === undefined ? {} : { value };
    }

    document.addEventListener(
      "click",
      (event) => {
        const element = eventElement(event);
        if (element) record("click", element);
      },
      true,
    );
    // One "input" action per pause in typing, not one per keystroke.
    document.addEventListener(
      "input",
      (event) => {
        const element = eventElement(event);
        if (!element || !context.isCapturing()) return;
        clearTimeout(settling.get(element));
        settling.set(
          element,
          setTimeout(() => {
            settling.delete(element);
            record("input", element, withValue(element));
          }, INPUT_SETTLE_MS),
        );
      },
      true,
    );
    document.addEventListener(
      "change",
      (event) => {
        const element = eventElement(event);
        if (element) record("change", element, withValue(element));
      },
      true,
    );
    document.addEventListener(
      "keydown",
      (event) => {
        if (!RECORDED_KEYS.has(event.key)) return;
        const element = eventElement(event);
        if (element) record("keypress", element, { key: event.key });
      },
      true,
    );
    document.addEventListener(
      "submit",
      (event) => {
        const element = eventElement(event);
        if (element) record("submit", element);
      },
      true,
    );
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.installUserActionCapture = installUserActionCapture;
})();
