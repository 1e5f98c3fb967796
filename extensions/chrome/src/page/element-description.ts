/**
 * Isolated world: how an element is named to the agent and to the daemon — a CSS path that finds
 * it again, its ARIA role and accessible name, its visible text, whether it is visible. Used by
 * action capture (selectors of recorded clicks) and by the DOM commands.
 * The role and name rules are a practical subset of WAI-ARIA / accname, not the full algorithms.
 */
(function registerElementDescription() {
  const INPUT_ROLES: Record<string, string> = {
    button: "button",
    submit: "button",
    reset: "button",
    image: "button",
    checkbox: "checkbox",
    radio: "radio",
    range: "slider",
    number: "spinbutton",
    search: "searchbox",
    email: "textbox",
    tel: "textbox",
    text: "textbox",
    url: "textbox",
    password: "textbox",
  };
  const TAG_ROLES: Record<string, string> = {
    article: "article",
    aside: "complementary",
    button: "button",
    dialog: "dialog",
    fieldset: "group",
    form: "form",
    h1: "heading",
    h2: "heading",
    h3: "heading",
    h4: "heading",
    h5: "heading",
    h6: "heading",
    hr: "separator",
    li: "listitem",
    main: "main",
    nav: "navigation",
    ol: "list",
    option: "option",
    progress: "progressbar",
    summary: "button",
    table: "table",
    textarea: "textbox",
    ul: "list",
  };

  function collapse(text: string): string {
    return text.replace(/\s+/g, " ").trim();
  }

  function escapeIdentifier(identifier: string): string {
    return typeof CSS !== "undefined" && typeof CSS.escape === "function" ? CSS.escape(identifier) : identifier.replace(/[^\w-]/g, "\\$&");
  }

  function hasUniqueId(element: Element): boolean {
    if (!element.id) return false;
    try {
      return element.ownerDocument.querySelectorAll("#" + escapeIdentifier(element.id)).length === 1;
    } catch {
      return false;
    }
  }

  /** Shortest-ish path that selects this element alone: an unique id ends the walk up the tree. */
  function cssPathFor(element: Element): string {
    const steps: string[] = [];
    let current: Element | null = element;
    while (current && current.nodeType === Node.ELEMENT_NODE) {
      if (hasUniqueId(current)) {
        steps.unshift("#" + escapeIdentifier(current.id));
        break;
      }
      const tag = current.localName;
      const parent: Element | null = current.parentElement;
      if (!parent) {
        steps.unshift(tag);
        break;
      }
      const sameTag = Array.from(parent.children).filter((sibling) => sibling.localName === tag);
      steps.unshift(sameTag.length > 1 ? `${tag}:nth-of-type(${sameTag.indexOf(current) + 1})` : tag);
      current = parent;
    }
    return steps.join(" > ");
  }

  function implicitRole(element: Element): string {
    const explicit = element.getAttribute("role")?.trim().split(/\s+/)[0];
    if (explicit) return explicit.toLowerCase();
    const tag = element.localName;
    if (tag === "a" || tag === "area") return element.hasAttribute("href") ? "link" : "generic";
    if (tag === "input") {
      const type = (element.getAttribute("type") ?? "text").toLowerCase();
      if (type === "hidden") return "none";
      return INPUT_ROLES[type] ?? "textbox";
    }
    if (tag === "select") {
      const select = element as HTMLSelectElement;
      return select.multiple || select.size > 1 ? "listbox" : "combobox";
    }
    if (tag === "img") return element.getAttribute("alt") === "" ? "presentation" : "img";
    if (tag === "header") return element.closest("article, aside, main, nav, section") ? "generic" : "banner";
    if (tag === "footer") return element.closest("article, aside, main, nav, section") ? "generic" : "contentinfo";
    if (tag === "section") return element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby") ? "region" : "generic";
    if (tag === "td") return "cell";
    if (tag === "th") return "columnheader";
    if (tag === "tr") return "row";
    return TAG_ROLES[tag] ?? "generic";
  }

  function textOfIds(element: Element, ids: string): string {
    return ids
      .split(/\s+/)
      .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? "")
      .map(collapse)
      .filter((text) => text !== "")
      .join(" ");
  }

  function labelText(element: Element): string {
    const labels = (element as HTMLInputElement).labels;
    if (labels && labels.length > 0) {
      return collapse(
        Array.from(labels)
          .map((label) => label.textContent ?? "")
          .join(" "),
      );
    }
    return "";
  }

  function accessibleName(element: Element): string {
    const labelledBy = element.getAttribute("aria-labelledby");
    if (labelledBy) {
      const text = textOfIds(element, labelledBy);
      if (text) return text.slice(0, 200);
    }
    const ariaLabel = element.getAttribute("aria-label");
    if (ariaLabel && ariaLabel.trim()) return collapse(ariaLabel).slice(0, 200);
    const tag = element.localName;
    if (tag === "input" || tag === "select" || tag === "textarea") {
      const type = (element.getAttribute("type") ?? "").toLowerCase();
      if (type === "submit" || type === "reset" || type === "button") {
        return collapse((element as HTMLInputElement).value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : ""));
      }
      if (type === "image") return collapse(element.getAttribute("alt") ?? "");
      const label = labelText(element);
      if (label) return label.slice(0, 200);
      return collapse(element.getAttribute("title") ?? element.getAttribute("placeholder") ?? "").slice(0, 200);
    }
    if (tag === "img" || tag === "area") return collapse(element.getAttribute("alt") ?? element.getAttribute("title") ?? "").slice(0, 200);
    const content = collapse(element.textContent ?? "");
    if (content) return content.slice(0, 200);
    return collapse(element.getAttribute("title") ?? "").slice(0, 200);
  }

  function isVisible(element: Element): boolean {
    const checkable = element as Element & { checkVisibility?: (options?: Record<string, boolean>) => boolean };
    if (typeof checkable.checkVisibility === "function") {
      if (!checkable.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) return false;
    } else {
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden") return false;
    }
    const rect = element.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  }

  function visibleText(element: Element, maxLength: number): string {
    const raw = element instanceof HTMLElement ? element.innerText : element.textContent;
    const text = collapse(raw ?? "");
    return text.length > maxLength ? text.slice(0, maxLength) + "…" : text;
  }

  function summarizeElement(element: Element): ElementSummary {
    const summary: ElementSummary = { cssPath: cssPathFor(element) };
    if (element.id) summary.id = element.id;
    const text = collapse(element.textContent ?? "").slice(0, 80);
    if (text) summary.text = text;
    const role = implicitRole(element);
    if (role !== "generic" && role !== "none") summary.role = { role, name: accessibleName(element) };
    return summary;
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.cssPathFor = cssPathFor;
  parts.implicitRole = implicitRole;
  parts.accessibleName = accessibleName;
  parts.isVisible = isVisible;
  parts.visibleText = visibleText;
  parts.summarizeElement = summarizeElement;
})();
