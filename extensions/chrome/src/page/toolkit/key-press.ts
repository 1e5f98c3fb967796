/**
 * Isolated world: key presses. Synthetic key events have no default action, so pressKey performs
 * the usual effect itself when the page did not cancel the keydown (Enter submits, Tab moves focus,
 * Backspace deletes, Space toggles). Used by key_press and by dismiss_top_overlay's Escape.
 */
(function registerKeyPress() {
  const SUPPORTED_KEYS: Record<string, { code: string; keyCode: number; key: string }> = {
    Enter: { key: "Enter", code: "Enter", keyCode: 13 },
    Tab: { key: "Tab", code: "Tab", keyCode: 9 },
    Escape: { key: "Escape", code: "Escape", keyCode: 27 },
    Backspace: { key: "Backspace", code: "Backspace", keyCode: 8 },
    ArrowDown: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
    ArrowUp: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
    Space: { key: " ", code: "Space", keyCode: 32 },
  };
  const FOCUSABLE =
    "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1']), [contenteditable='true']";

  function parts(): DevconsolePageParts {
    return globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
  }

  function isSupportedKey(keyName: string): boolean {
    return Object.prototype.hasOwnProperty.call(SUPPORTED_KEYS, keyName);
  }

  function moveFocus(from: Element | null, backwards: boolean): Element | null {
    const focusable = Array.from(document.querySelectorAll(FOCUSABLE)).filter((element) => parts().isVisible(element));
    if (focusable.length === 0) return null;
    const index = from ? focusable.indexOf(from) : -1;
    const next = focusable[(index + (backwards ? -1 : 1) + focusable.length) % focusable.length] as HTMLElement;
    next.focus();
    return next;
  }

  function pressKey(target: Element, keyName: string): Record<string, unknown> {
    const key = SUPPORTED_KEYS[keyName] as { code: string; keyCode: number; key: string };
    const init = { key: key.key, code: key.code, keyCode: key.keyCode, which: key.keyCode, bubbles: true, cancelable: true, composed: true };
    const proceed = target.dispatchEvent(new KeyboardEvent("keydown", init));
    const effect: Record<string, unknown> = {};
    if (proceed) {
      if (keyName === "Enter") {
        if (target instanceof HTMLInputElement && target.form) {
          target.form.requestSubmit();
          effect.submitted = true;
        } else if (target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement) {
          target.click();
          effect.clicked = true;
        }
      } else if (keyName === "Tab") {
        const focused = moveFocus(target, false);
        if (focused) effect.focused = parts().summarizeElement(focused);
      } else if (keyName === "Backspace" && (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) {
        parts().setElementValue(target, target.value.slice(0, -1));
      } else if (keyName === "Space" && (target instanceof HTMLButtonElement || (target instanceof HTMLInputElement && /^(checkbox|radio|button|submit)$/.test(target.type)))) {
        target.click();
        effect.clicked = true;
      }
    }
    target.dispatchEvent(new KeyboardEvent("keyup", init));
    return effect;
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.isSupportedKey = isSupportedKey;
  registry.supportedKeys = () => Object.keys(SUPPORTED_KEYS);
  registry.pressKey = pressKey;
})();
