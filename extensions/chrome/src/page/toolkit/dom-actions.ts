/**
 * Isolated world: the element actions of `interact` (dom_action). Every action that acts on one
 * element finds it through findTarget (element_id, then index, then selector within scope_selector);
 * the input primitives live in element-input.ts and key-press.ts, the page-level actions (paste,
 * subtitle, overlays) in their own files.
 */
(function registerDomActions() {
  const TEXT_LIMIT = 20_000;
  const ELEMENT_ACTIONS = new Set(["click", "type", "select", "check", "get_text", "get_value", "get_attribute", "set_attribute", "focus", "scroll_to", "highlight"]);

  function parts(): DevconsolePageParts {
    return globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
  }

  function failure(error: string, message: string, details?: Record<string, unknown>): FailedPageAnswer {
    return details ? { ok: false, error, message, details } : { ok: false, error, message };
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

  /** Each field names its element like an action does: {selector | element_id | index, value}. */
  function fillForm(fields: unknown, scope: ParentNode): PageCommandAnswer {
    if (!Array.isArray(fields) || fields.length === 0) return failure("missing_fields", "fill_form needs fields: [{selector, value}].");
    const filled: Array<Record<string, unknown>> = [];
    for (const field of fields as Array<Record<string, unknown>>) {
      const target = parts().findTarget(field ?? {}, scope);
      if (!(target instanceof Element)) return failure(target.error, target.message, { ...target.details, filled });
      const value = String(field.value ?? "");
      if (target instanceof HTMLInputElement && (target.type === "checkbox" || target.type === "radio")) {
        const wanted = /^(true|on|yes|1)$/i.test(value);
        if (target.checked !== wanted) target.click();
      } else if (!parts().setElementValue(target, value)) {
        return failure("not_editable", `The element for ${parts().describeTarget(field)} does not take a value.`, { filled });
      }
      filled.push({ selector: field.selector, element: parts().summarizeElement(target) });
    }
    return { ok: true, value: { filled, count: filled.length } };
  }

  function keyPress(params: Record<string, unknown>, scope: ParentNode): PageCommandAnswer {
    const keyName = String(params.text ?? params.value ?? params.key ?? "");
    if (!parts().isSupportedKey(keyName)) {
      return failure("unsupported_key", `key_press supports ${parts().supportedKeys().join(", ")}; got "${keyName}".`);
    }
    let target: Element = document.activeElement ?? document.body ?? document.documentElement;
    if (parts().hasTarget(params)) {
      const found = parts().findTarget(params, scope);
      if (!(found instanceof Element)) return found;
      if (found instanceof HTMLElement) found.focus();
      target = found;
    }
    const effect = parts().pressKey(target, keyName);
    return { ok: true, value: { key: keyName, element: parts().summarizeElement(target), ...effect } };
  }

  /** Actions on one element, found already. */
  function elementAction(action: string, element: Element, params: Record<string, unknown>): PageCommandAnswer {
    const named = parts().describeTarget(params);
    const described: Record<string, unknown> = { element: parts().summarizeElement(element) };
    if (typeof params.selector === "string") described.selector = params.selector;
    if (params.element_id !== undefined) described.element_id = params.element_id;
    if (params.index !== undefined) described.index = params.index;
    const hidden = () => parts().isSensitive(element);
    switch (action) {
      case "click":
        if ((element as HTMLButtonElement).disabled) return failure("element_disabled", `The element for ${named} is disabled.`, described);
        parts().clickElement(element);
        return { ok: true, value: described };
      case "type": {
        if (element instanceof HTMLElement) element.focus();
        const text = String(params.text ?? params.value ?? "");
        const before = params.clear === true ? "" : parts().currentValue(element);
        if (!parts().setElementValue(element, before + text)) return failure("not_editable", `The element for ${named} does not take text.`, described);
        return { ok: true, value: { ...described, value: hidden() ? "[redacted]" : parts().currentValue(element) } };
      }
      case "select": {
        const value = String(params.value ?? params.text ?? "");
        if (!(element instanceof HTMLSelectElement)) return failure("not_a_select", `The element for ${named} is not a <select>.`, described);
        if (!parts().setElementValue(element, value)) return failure("option_not_found", `No option with value or text "${value}".`, described);
        return { ok: true, value: { ...described, value: element.value } };
      }
      case "check": {
        const wanted = params.checked !== false;
        if (!(element instanceof HTMLInputElement) || !/^(checkbox|radio)$/.test(element.type)) {
          return failure("not_checkable", `The element for ${named} is not a checkbox or radio button.`, described);
        }
        if (element.checked !== wanted) element.click();
        return { ok: true, value: { ...described, checked: element.checked } };
      }
      case "get_text":
        return { ok: true, value: { ...described, text: parts().visibleText(element, TEXT_LIMIT) } };
      case "get_value":
        return { ok: true, value: { ...described, value: hidden() ? "[redacted]" : parts().currentValue(element) } };
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

  function runDomAction(params: Record<string, unknown>): PageCommandAnswer | Promise<PageCommandAnswer> {
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
      case "key_press":
        return keyPress(params, scope);
      case "paste":
        return parts().pasteText(params, scope);
      case "subtitle":
        return parts().showSubtitle(params);
      case "dismiss_top_overlay":
        return parts().handleTopOverlay("dismiss", scope);
      case "confirm_top_dialog":
        return parts().handleTopOverlay("confirm", scope);
    }
    // An unknown action is named as such, not reported as a missing selector.
    if (!ELEMENT_ACTIONS.has(action)) return failure("unknown_action", `dom_action does not know the action "${action}".`);
    const found = parts().findTarget(params, scope);
    if (!(found instanceof Element)) return found;
    return elementAction(action, found, params);
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.runDomAction = runDomAction;
})();
