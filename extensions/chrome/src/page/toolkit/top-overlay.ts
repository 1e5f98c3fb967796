/**
 * Isolated world: `dismiss_top_overlay` and `confirm_top_dialog`. The DOM half: gather candidates
 * (dialogs by role or element, plus the fixed/absolute ancestors of whatever is on top at nine
 * points of the viewport), describe them for overlay-ranking.ts, act on the winner, then watch
 * whether it goes away (close animations take a few hundred ms). With scope_selector, that element
 * is the overlay and no detection runs: the agent's way to aim at one banner among several.
 */
(function registerTopOverlay() {
  const SEMANTIC = "dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]";
  const OWN_UI = "[data-mcpkit-devconsole-subtitle], [data-mcpkit-devconsole-highlight]";
  const SAMPLE_FRACTIONS = [0.1, 0.5, 0.9];
  const BUTTONS =
    "button, [role=button], input[type=button], input[type=submit], input[type=reset], input[type=image], a[href], [data-dismiss], [data-bs-dismiss], .close, .btn-close";
  const GONE_WAIT_MS = 1000;
  const GONE_POLL_MS = 50;

  function parts(): DevconsolePageParts {
    return globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
  }

  /** Stricter than isVisible: a faded-out (opacity 0) or aria-hidden overlay is gone for the user. */
  function isShown(element: Element): boolean {
    if (!element.isConnected || element.closest("[aria-hidden=true]")) return false;
    const checkable = element as Element & { checkVisibility?: (options?: Record<string, boolean>) => boolean };
    if (typeof checkable.checkVisibility === "function" && !checkable.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    return parts().isVisible(element);
  }

  function zPath(element: Element): number[] {
    const path: number[] = [];
    for (let current: Element | null = element; current; current = current.parentElement) {
      const style = getComputedStyle(current);
      const z = Number.parseInt(style.zIndex, 10);
      if (style.position !== "static" && Number.isFinite(z)) path.unshift(z);
    }
    return path;
  }

  function coverage(element: Element): number {
    const rect = element.getBoundingClientRect();
    const width = Math.max(0, Math.min(rect.right, innerWidth) - Math.max(rect.left, 0));
    const height = Math.max(0, Math.min(rect.bottom, innerHeight) - Math.max(rect.top, 0));
    return innerWidth > 0 && innerHeight > 0 ? (width * height) / (innerWidth * innerHeight) : 0;
  }

  function topmostAtSamplePoints(): Element[] {
    const tops: Element[] = [];
    for (const fx of SAMPLE_FRACTIONS) {
      for (const fy of SAMPLE_FRACTIONS) {
        const top = document.elementFromPoint(innerWidth * fx, innerHeight * fy);
        if (top && !top.closest(OWN_UI)) tops.push(top);
      }
    }
    return tops;
  }

  function gatherCandidates(tops: Element[]): Element[] {
    const found = new Set<Element>(Array.from(document.querySelectorAll(SEMANTIC)));
    for (const top of tops) {
      for (let current: Element | null = top; current && current !== document.body && current !== document.documentElement; current = current.parentElement) {
        const position = getComputedStyle(current).position;
        if (position === "fixed" || position === "absolute") found.add(current);
      }
    }
    return Array.from(found)
      .filter((element) => !element.closest(OWN_UI))
      .sort((left, right) => (left.compareDocumentPosition(right) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  }

  function describe(element: Element, order: number, tops: Element[]): OverlayDescription {
    return {
      role: (element.getAttribute("role") ?? "").trim().toLowerCase(),
      ariaModal: element.getAttribute("aria-modal") === "true",
      openDialog: element instanceof HTMLDialogElement && element.open,
      position: getComputedStyle(element).position,
      zPath: zPath(element),
      coverage: coverage(element),
      hits: tops.filter((top) => element.contains(top)).length,
      visible: isShown(element),
      containsMain: element.querySelector("main, [role=main]") !== null,
      order,
    };
  }

  function findTopOverlay(): Element | undefined {
    const tops = topmostAtSamplePoints();
    const candidates = gatherCandidates(tops);
    const ranked = parts().rankOverlays(candidates.map((element, order) => describe(element, order, tops)));
    return ranked.length > 0 ? candidates[ranked[0] as number] : undefined;
  }

  interface OverlayButton {
    element: Element;
    description: OverlayButtonDescription;
  }

  function buttonsIn(overlay: Element): OverlayButton[] {
    const elements = Array.from(overlay.querySelectorAll(BUTTONS)).filter(
      (element) => !(element as HTMLButtonElement).disabled && element.getAttribute("aria-disabled") !== "true" && parts().isVisible(element),
    );
    // An icon inside a close button can match too (.close on a <span>); keep the outermost.
    const outermost = elements.filter((element) => !elements.some((other) => other !== element && other.contains(element)));
    return outermost.map((element) => {
      const submit =
        (element instanceof HTMLButtonElement && element.type === "submit" && element.form !== null) ||
        (element instanceof HTMLInputElement && (element.type === "submit" || element.type === "image") && element.form !== null);
      const hints = [element.getAttribute("class") ?? "", element.hasAttribute("data-dismiss") || element.hasAttribute("data-bs-dismiss") ? "data-dismiss" : ""].join(" ");
      const name = parts().accessibleName(element) || (element.getAttribute("title") ?? "");
      const isLink = element.localName === "a" && element.getAttribute("role") !== "button";
      return { element, description: { name, hints, isSubmit: submit, isLink } };
    });
  }

  function describeButton(button: OverlayButton): Record<string, unknown> {
    return { name: button.description.name, ...parts().summarizeElement(button.element) };
  }

  async function waitUntilGone(overlay: Element): Promise<boolean> {
    for (let waited = 0; ; waited += GONE_POLL_MS) {
      if (!isShown(overlay)) return true;
      if (waited >= GONE_WAIT_MS) return false;
      await new Promise((resolve) => setTimeout(resolve, GONE_POLL_MS));
    }
  }

  /** Without a close button: what pressing Escape does natively (a <dialog>'s cancel), else Escape for the page's own handlers. */
  function closeWithoutButton(overlay: Element): string {
    if (overlay instanceof HTMLDialogElement && overlay.open) {
      if (overlay.dispatchEvent(new Event("cancel", { cancelable: true }))) overlay.close();
      return "dialog_cancel";
    }
    const active = document.activeElement;
    parts().pressKey(active && overlay.contains(active) ? active : overlay, "Escape");
    return "escape";
  }

  async function dismiss(overlay: Element, selector: string): Promise<PageCommandAnswer> {
    const buttons = buttonsIn(overlay);
    const chosen = buttons[parts().pickCloseButton(buttons.map((button) => button.description))];
    let method: string;
    if (chosen) {
      parts().clickElement(chosen.element);
      method = "close_button";
    } else {
      method = closeWithoutButton(overlay);
    }
    const dismissed = await waitUntilGone(overlay);
    const value: Record<string, unknown> = { dismissed, method, selector, ...(chosen ? { button: describeButton(chosen) } : {}) };
    if (!dismissed) value.message = `The overlay is still shown ${GONE_WAIT_MS} ms after the ${method.replace("_", " ")}; click its control with an explicit selector.`;
    return { ok: true, value };
  }

  async function confirm(overlay: Element, selector: string): Promise<PageCommandAnswer> {
    const buttons = buttonsIn(overlay);
    const chosen = buttons[parts().pickConfirmButton(buttons.map((button) => button.description))];
    if (!chosen) {
      return {
        ok: false,
        error: "no_confirm_button",
        message: "The dialog has no button that reads as confirming (OK, Confirm, Yes, Accept, Continue, Submit…); click one with an explicit selector.",
        details: { selector, buttons: buttons.map((button) => button.description.name).slice(0, 20) },
      };
    }
    parts().clickElement(chosen.element);
    const closed = await waitUntilGone(overlay);
    return { ok: true, value: { confirmed: true, button: describeButton(chosen), selector, closed } };
  }

  async function handleTopOverlay(intent: "dismiss" | "confirm", scope: ParentNode): Promise<PageCommandAnswer> {
    const overlay = scope instanceof Element ? scope : findTopOverlay();
    if (!overlay) {
      const what = intent === "dismiss" ? "to dismiss" : "to confirm";
      return { ok: false, error: "no_overlay", message: `No visible dialog or overlay ${what} (role=dialog/alertdialog, aria-modal, an open <dialog>, or a large layer stacked over the page).` };
    }
    const selector = parts().cssPathFor(overlay);
    // Otherwise a hidden scope would be reported as dismissed at once.
    if (!isShown(overlay)) return { ok: false, error: "no_overlay", message: `The scope_selector element (${selector}) is not shown.` };
    return intent === "dismiss" ? dismiss(overlay, selector) : confirm(overlay, selector);
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.handleTopOverlay = handleTopOverlay;
})();
