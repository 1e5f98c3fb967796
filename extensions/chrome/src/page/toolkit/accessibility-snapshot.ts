/**
 * Isolated world: `a11y` — an accessibility tree built from the DOM (landmarks, headings, links,
 * buttons, form controls, images) and a few violations a person would notice first. This is not
 * axe-core and not Chrome's computed accessibility tree: roles and names follow the practical rules
 * of element-description.ts.
 */
(function registerAccessibilitySnapshot() {
  const NODE_LIMIT = 2000;
  const VIOLATION_LIMIT = 200;
  const KEPT_ROLES = new Set([
    "banner", "navigation", "main", "contentinfo", "complementary", "region", "form", "search", "dialog",
    "heading", "link", "button", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox",
    "slider", "spinbutton", "switch", "tab", "menuitem", "img", "list", "table",
  ]);
  /** Roles whose content is walked further; other kept roles are leaves, their name says it all. */
  const CONTAINER_ROLES = new Set([
    "banner", "navigation", "main", "contentinfo", "complementary", "region", "form", "search", "dialog", "list", "table",
  ]);
  const SKIPPED_TAGS = new Set(["script", "style", "noscript", "template", "head"]);

  interface AccessibilityNode {
    role: string;
    name: string;
    level?: number;
    children: AccessibilityNode[];
  }

  function accessibilitySnapshot(params: Record<string, unknown>): PageCommandAnswer {
    const parts = globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
    const scopeSelector = params.selector ?? params.scope;
    const scope = parts.resolveScope(scopeSelector);
    if (!(scope instanceof Node)) return scope;
    const root = scope instanceof Element ? scope : (document.body ?? document.documentElement);
    const violations: Array<{ rule: string; selector: string; message: string }> = [];
    let nodeCount = 0;
    let truncated = false;
    let previousHeadingLevel = 0;

    function violation(rule: string, element: Element, message: string): void {
      if (violations.length < VIOLATION_LIMIT) violations.push({ rule, selector: parts.cssPathFor(element), message });
    }

    function check(element: Element, role: string, name: string): void {
      const tag = element.localName;
      if (tag === "img" && !element.hasAttribute("alt") && !element.getAttribute("aria-label") && role === "img") {
        violation("image-alt", element, "Image has no alt attribute; screen readers announce its file name or nothing.");
      }
      if ((tag === "input" || tag === "select" || tag === "textarea") && role !== "button" && role !== "none" && name === "") {
        violation("label", element, "Form control has no label (no <label>, aria-label, aria-labelledby or title).");
      }
      if (role === "button" && name === "") violation("button-name", element, "Button has no accessible name.");
      if (role === "link" && name === "") violation("link-name", element, "Link has no accessible name.");
      if (role === "heading") {
        const level = Number(/^h([1-6])$/.exec(tag)?.[1] ?? element.getAttribute("aria-level") ?? 2);
        if (previousHeadingLevel > 0 && level > previousHeadingLevel + 1) {
          violation("heading-order", element, `Heading level ${level} follows level ${previousHeadingLevel}; a level is skipped.`);
        }
        previousHeadingLevel = level;
      }
    }

    function walk(element: Element, into: AccessibilityNode[]): void {
      if (SKIPPED_TAGS.has(element.localName) || element.getAttribute("aria-hidden") === "true") return;
      if (!parts.isVisible(element) && element.localName !== "body" && !(element instanceof HTMLInputElement)) return;
      const role = parts.implicitRole(element);
      let target = into;
      if (KEPT_ROLES.has(role)) {
        const name = parts.accessibleName(element);
        check(element, role, name);
        if (nodeCount >= NODE_LIMIT) {
          truncated = true;
          return;
        }
        nodeCount += 1;
        const node: AccessibilityNode = { role, name: name.slice(0, 120), children: [] };
        const headingLevel = /^h([1-6])$/.exec(element.localName)?.[1];
        if (role === "heading") node.level = Number(headingLevel ?? element.getAttribute("aria-level") ?? 2);
        into.push(node);
        target = node.children;
        if (!CONTAINER_ROLES.has(role)) return;
      }
      for (const child of Array.from(element.children)) walk(child, target);
    }

    const tree: AccessibilityNode[] = [];
    walk(root, tree);
    return { ok: true, value: { tree, violations, node_count: nodeCount, truncated } };
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.accessibilitySnapshot = accessibilitySnapshot;
})();
