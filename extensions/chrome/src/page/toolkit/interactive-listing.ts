/**
 * Isolated world: `list_interactive` — what the agent can click or fill, each with a selector that
 * finds it again, so follow-up actions do not have to guess, and with an `element_id` handle and an
 * `index` that name exactly that element in later actions (element-handles.ts). The listing is
 * remembered as "the latest" for `index`, whatever its scope or filter.
 */
(function registerInteractiveListing() {
  const LIMIT = 200;
  const INTERACTIVE =
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=switch], [role=textbox], [role=combobox], [contenteditable='true'], [onclick], [tabindex]:not([tabindex='-1'])";

  function listInteractive(params: Record<string, unknown>): PageCommandAnswer {
    const parts = globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
    const scope = parts.resolveScope(params.scope_selector);
    if (!(scope instanceof Node)) return scope;
    const visibleOnly = params.visible_only === true;
    const elements: Array<Record<string, unknown>> = [];
    const listed: Element[] = [];
    let total = 0;
    for (const element of Array.from(scope.querySelectorAll(INTERACTIVE))) {
      const visible = parts.isVisible(element);
      if (visibleOnly && !visible) continue;
      total += 1;
      if (elements.length >= LIMIT) continue;
      const type = element.getAttribute("type") ?? (element.localName === "a" ? "link" : "");
      const text = parts.accessibleName(element).slice(0, 80);
      listed.push(element);
      elements.push({
        index: elements.length,
        element_id: parts.elementHandleFor(element),
        tag: element.localName,
        type,
        role: parts.implicitRole(element),
        text,
        selector: parts.cssPathFor(element),
        visible,
      });
    }
    parts.rememberListing(listed);
    return { ok: true, value: { elements, count: elements.length, total, truncated: total > elements.length } };
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.listInteractive = listInteractive;
})();
