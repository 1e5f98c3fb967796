/**
 * Selectors the agent writes: plain CSS, or the semantic forms of the interact tool —
 * `text=Submit`, `role=button`, `role=button[name="Save"]`, `placeholder=Email`, `label=Name`,
 * `aria-label=Close`. A quoted value must match exactly (whitespace collapsed); an unquoted one
 * matches case-insensitively anywhere in the text.
 */
(function registerSemanticSelector() {
  const SEMANTIC_PREFIX = /^(text|role|placeholder|label|aria-label)\s*=\s*([\s\S]*)$/i;
  const ROLE_WITH_NAME = /^([a-z][a-z-]*)\s*(?:\[\s*name\s*=\s*([\s\S]+?)\s*\])?$/i;
  const INTERACTIVE = "a[href], button, input, select, textarea, summary, label, [role], [onclick], [tabindex], [contenteditable='true']";
  const SKIPPED_TAGS = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title"]);

  function unquote(text: string): { value: string; exact: boolean } {
    const trimmed = text.trim();
    const quoted = /^"([\s\S]*)"$/.exec(trimmed) ?? /^'([\s\S]*)'$/.exec(trimmed);
    if (quoted) return { value: (quoted[1] as string).replace(/\\(["'\\])/g, "$1"), exact: true };
    return { value: trimmed, exact: false };
  }

  function parseSemanticSelector(selector: string): SemanticSelector {
    const trimmed = selector.trim();
    const match = SEMANTIC_PREFIX.exec(trimmed);
    if (!match) return { kind: "css", css: trimmed };
    const kind = (match[1] as string).toLowerCase();
    const rest = (match[2] as string).trim();
    if (kind === "role") {
      const roleMatch = ROLE_WITH_NAME.exec(rest);
      if (!roleMatch) return { kind: "role", role: rest.toLowerCase(), exact: false };
      const role = (roleMatch[1] as string).toLowerCase();
      if (roleMatch[2] === undefined) return { kind: "role", role, exact: false };
      const name = unquote(roleMatch[2]);
      return { kind: "role", role, name: name.value, exact: name.exact };
    }
    const { value, exact } = unquote(rest);
    return { kind: kind as "text" | "placeholder" | "label" | "aria-label", value, exact };
  }

  function textMatches(candidate: string, wanted: string, exact: boolean): boolean {
    const collapsed = candidate.replace(/\s+/g, " ").trim();
    if (exact) return collapsed === wanted.replace(/\s+/g, " ").trim();
    return collapsed.toLowerCase().includes(wanted.toLowerCase());
  }

  function allElements(scope: ParentNode): Element[] {
    return Array.from(scope.querySelectorAll("*")).filter((element) => !SKIPPED_TAGS.has(element.localName));
  }

  /** Deepest elements whose text matches, each lifted to its interactive ancestor when that matches too. */
  function findByText(scope: ParentNode, value: string, exact: boolean): Element[] {
    const parts = globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
    const matching = allElements(scope).filter((element) => {
      if (element instanceof HTMLInputElement && /^(submit|button|reset)$/.test(element.type)) return textMatches(element.value, value, exact);
      return textMatches(element.textContent ?? "", value, exact);
    });
    const matchingSet = new Set(matching);
    // For substring matches, a matching descendant implies a matching child, so looking at direct
    // children finds the deepest matches; for exact matches it is a close approximation.
    const deepest = matching.filter((element) => !Array.from(element.children).some((child) => matchingSet.has(child)));
    const lifted: Element[] = [];
    for (const element of deepest) {
      const interactive = element.closest(INTERACTIVE);
      const chosen = interactive && matchingSet.has(interactive) ? interactive : element;
      if (!lifted.includes(chosen)) lifted.push(chosen);
    }
    return lifted.sort((left, right) => Number(parts.isVisible(right)) - Number(parts.isVisible(left)));
  }

  function controlLabel(element: Element): string {
    const parts = globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
    return parts.accessibleName(element);
  }

  function findElements(selector: string, scope: ParentNode = document): Element[] {
    const parts = globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
    const parsed = parseSemanticSelector(selector);
    switch (parsed.kind) {
      case "css":
        return Array.from(scope.querySelectorAll(parsed.css));
      case "text":
        return findByText(scope, parsed.value, parsed.exact);
      case "placeholder":
        return Array.from(scope.querySelectorAll("[placeholder]")).filter((element) =>
          textMatches(element.getAttribute("placeholder") ?? "", parsed.value, parsed.exact),
        );
      case "aria-label":
        return Array.from(scope.querySelectorAll("[aria-label]")).filter((element) =>
          textMatches(element.getAttribute("aria-label") ?? "", parsed.value, parsed.exact),
        );
      case "label":
        return Array.from(
          scope.querySelectorAll("input:not([type=hidden]), select, textarea, [contenteditable='true'], [role=textbox], [role=combobox], [role=checkbox]"),
        ).filter((element) => textMatches(controlLabel(element), parsed.value, parsed.exact));
      case "role":
        return allElements(scope).filter(
          (element) =>
            parts.implicitRole(element) === parsed.role &&
            (parsed.name === undefined || textMatches(parts.accessibleName(element), parsed.name, parsed.exact)),
        );
    }
  }

  /** `scope_selector` narrows every lookup to one container; a scope that matches nothing is an error, not "the whole page". */
  function resolveScope(scopeSelector: unknown): ParentNode | PageCommandAnswer {
    if (typeof scopeSelector !== "string" || scopeSelector.trim() === "") return document;
    const scope = findElements(scopeSelector)[0];
    if (!scope) {
      return { ok: false, error: "element_not_found", message: `No element matches scope_selector "${scopeSelector}".` };
    }
    return scope;
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.parseSemanticSelector = parseSemanticSelector;
  parts.findElements = findElements;
  parts.resolveScope = resolveScope;
})();
