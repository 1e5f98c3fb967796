/**
 * Isolated world: the element actions of `interact` (dom_action). They dispatch real DOM events,
 * so the page's handlers (React, Vue, plain listeners) react as to a user; setting `value` from
 * this world bypasses frameworks' value trackers in the MAIN world, which is what makes them see
 * the change. Synthetic key events have no default action, so key_press performs the usual
 * effect itself (Enter submits, Tab moves focus, Backspace deletes, Space toggles).
 */
(function registerDomActions() {
  const TEXT_LIMIT = 20_000;
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

  type FailedAnswer = Extract<PageCommandAnswer, { ok: false }>;

  function failure(error: string, message: string, details?: Record<string, unknown>): FailedAnswer {
    return details ? { ok: false, error, message, details } : { ok: false, error, message };
  }

  function isSensitive(element: Element): boolean {
    const type = (element.getAttribute("type") ?? "").toLowerCase();
    return type === "password" || /password|one-time-code|cc-/.test((element.getAttribute("autocomplete") ?? "").toLowerCase());
  }

  function findTarget(selector: unknown, scope: ParentNode): Element | FailedAnswer {
    if (typeof selector !== "string" || selector.trim() === "") return failure("missing_selector", "This action needs a selector.");
    const element = parts().findElements(selector, scope)[0];
    if (!element) return failure("element_not_found", `No element matches selector "${selector}".`, { selector });
    return element;
  }

  function fire(element: Element, type: string, init: EventInit = {}): void {
    element.dispatchEvent(new Event(type, { bubbles: true, cancelable: true, ...init }));
  }

  function click(element: Element): void {
    element.scrollIntoView({ block: "center", inline: "center" });
    const rect = element.getBoundingClientRect();
    const pointer = { bubbles: true, cancelable: true, composed: true, clientX: rect.x + rect.width / 2, clientY: rect.y + rect.height / 2, button: 0 };
    element.dispatchEvent(new PointerEvent("pointerdown", pointer));
    element.dispatchEvent(new MouseEvent("mousedown", pointer));
    if (element instanceof HTMLElement) element.focus({ preventScroll: true });
    element.dispatchEvent(new PointerEvent("pointerup", pointer));
    element.dispatchEvent(new MouseEvent("mouseup", pointer));
    if (element instanceof HTMLElement) element.click();
    else element.dispatchEvent(new MouseEvent("click", pointer));
  }

  function setValue(element: Element, value: string): boolean {
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      element.value = value;
    } else if (element instanceof HTMLSelectElement) {
      const option = Array.from(element.options).find((candidate) => candidate.value === value || candidate.text.trim() === value.trim());
      if (!option) return false;
      element.value = option.value;
    } else if (element instanceof HTMLElement && element.isContentEditable) {
      element.textContent = value;
    } else {
      return false;
    }
    element.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: "insertText", data: value }));
    fire(element, "change");
    return true;
  }

  function currentValue(element: Element): string {
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return element.value;
    return element instanceof HTMLElement && element.isContentEditable ? element.innerText : "";
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
        setValue(target, target.value.slice(0, -1));
      } else if (keyName === "Space" && (target instanceof HTMLButtonElement || (target instanceof HTMLInputElement && /^(checkbox|radio|button|submit)$/.test(target.type)))) {
        target.click();
        effect.clicked = true;
      }
    }
    target.dispatchEvent(new KeyboardEvent("keyup", init));
    return effect;
  }

  function highlight(element: Element, durationMs: number): void {
    const rect = element.getBoundingClientRect();
    const overlay = document.createElement("div");
    overlay.setAttribute("data-mcpkit-devconsole-highlight", "");
    Object.assign(overlay.style, {
      position: "fixed",
      left: `${rect.left - 3}px`,
      top: `${rect.top - 3}px`,
      width: `${rect.width + 6}px`,
      height: `${rect.height + 6}px`,
      outline: "3px solid #f0287a",
      background: "rgba(240, 40, 122, 0.12)",
      zIndex: "2147483647",
      pointerEvents: "none",
      borderRadius: "3px",
    });
    document.documentElement.appendChild(overlay);
    setTimeout(() => overlay.remove(), durationMs);
  }

  function fillForm(fields: unknown, scope: ParentNode): PageCommandAnswer {
    if (!Array.isArray(fields) || fields.length === 0) return failure("missing_fields", "fill_form needs fields: [{selector, value}].");
    const filled: Array<Record<string, unknown>> = [];
    for (const field of fields as Array<{ selector?: unknown; value?: unknown }>) {
      const target = findTarget(field?.selector, scope);
      if (!(target instanceof Element)) return failure(target.error, target.message, { ...target.details, filled });
      const value = String(field.value ?? "");
      if (target instanceof HTMLInputElement && (target.type === "checkbox" || target.type === "radio")) {
        const wanted = /^(true|on|yes|1)$/i.test(value);
        if (target.checked !== wanted) target.click();
      } else if (!setValue(target, value)) {
        return failure("not_editable", `The element for "${String(field.selector)}" does not take a value.`, { filled });
      }
      filled.push({ selector: field.selector, element: parts().summarizeElement(target) });
    }
    return { ok: true, value: { filled, count: filled.length } };
  }

  function runDomAction(params: Record<string, unknown>): PageCommandAnswer {
    const action = String(params.action ?? params.what ?? "");
    const scope = parts().resolveScope(params.scope_selector);
    if (!(scope instanceof Node)) return scope;
    switch (action) {
      case "list_interactive":
        return parts().listInteractive(params);
      case "get_readable":
        return parts().readableContent(params, "text");
      case "get_markdown":
        return parts().readableContent(params, "markdown");
      case "fill_form":
        return fillForm(params.fields, scope);
      case "key_press": {
        const keyName = String(params.text ?? params.value ?? params.key ?? "");
        if (!SUPPORTED_KEYS[keyName]) {
          return failure("unsupported_key", `key_press supports ${Object.keys(SUPPORTED_KEYS).join(", ")}; got "${keyName}".`);
        }
        let target: Element | null = document.activeElement ?? document.body;
        if (typeof params.selector === "string" && params.selector.trim() !== "") {
          const found = findTarget(params.selector, scope);
          if (!(found instanceof Element)) return found;
          if (found instanceof HTMLElement) found.focus();
          target = found;
        }
        const effect = pressKey(target ?? document.documentElement, keyName);
        return { ok: true, value: { key: keyName, element: parts().summarizeElement(target ?? document.documentElement), ...effect } };
      }
    }
    const found = findTarget(params.selector, scope);
    if (!(found instanceof Element)) return found;
    const element = found;
    const described = { selector: params.selector, element: parts().summarizeElement(element) };
    switch (action) {
      case "click":
        if ((element as HTMLButtonElement).disabled) return failure("element_disabled", `The element matching "${String(params.selector)}" is disabled.`, described);
        click(element);
        return { ok: true, value: described };
      case "type": {
        if (element instanceof HTMLElement) element.focus();
        const text = String(params.text ?? params.value ?? "");
        const before = params.clear === true ? "" : currentValue(element);
        if (!setValue(element, before + text)) return failure("not_editable", `The element matching "${String(params.selector)}" does not take text.`, described);
        return { ok: true, value: { ...described, value: isSensitive(element) ? "[redacted]" : currentValue(element) } };
      }
      case "select": {
        const value = String(params.value ?? params.text ?? "");
        if (!(element instanceof HTMLSelectElement)) return failure("not_a_select", `The element matching "${String(params.selector)}" is not a <select>.`, described);
        if (!setValue(element, value)) return failure("option_not_found", `No option with value or text "${value}".`, described);
        return { ok: true, value: { ...described, value: element.value } };
      }
      case "check": {
        const wanted = params.checked !== false;
        if (!(element instanceof HTMLInputElement) || !/^(checkbox|radio)$/.test(element.type)) {
          return failure("not_checkable", `The element matching "${String(params.selector)}" is not a checkbox or radio button.`, described);
        }
        if (element.checked !== wanted) element.click();
        return { ok: true, value: { ...described, checked: element.checked } };
      }
      case "get_text":
        return { ok: true, value: { ...described, text: parts().visibleText(element, TEXT_LIMIT) } };
      case "get_value":
        return { ok: true, value: { ...described, value: isSensitive(element) ? "[redacted]" : currentValue(element) } };
      case "get_attribute": {
        if (typeof params.name !== "string") return failure("missing_name", "get_attribute needs name.");
        return { ok: true, value: { ...described, name: params.name, value: element.getAttribute(params.name) } };
      }
      case "set_attribute": {
        if (typeof params.name !== "string") return failure("missing_name", "set_attribute needs name.");
        element.setAttribute(params.name, String(params.value ?? ""));
        return { ok: true, value: { ...described, name: params.name, value: element.getAttribute(params.name) } };
      }
      case "focus":
        if (element instanceof HTMLElement || element instanceof SVGElement) element.focus();
        return { ok: true, value: { ...described, focused: document.activeElement === element } };
      case "scroll_to":
        element.scrollIntoView({ block: "center", inline: "center" });
        return { ok: true, value: { ...described, scroll: { x: Math.round(scrollX), y: Math.round(scrollY) } } };
      case "highlight": {
        const durationMs = Math.min(Math.max(Number(params.duration_ms ?? 5000) || 5000, 100), 60_000);
        highlight(element, durationMs);
        return { ok: true, value: { ...described, duration_ms: durationMs } };
      }
    }
    return failure("unknown_action", `dom_action does not know the action "${action}".`);
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.runDomAction = runDomAction;
})();
