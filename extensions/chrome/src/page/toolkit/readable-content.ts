/**
 * Isolated world: `get_readable` and `get_markdown` — the page's main content without navigation,
 * scripts and chrome, as plain text or as Markdown, capped so one call cannot flood the agent.
 */
(function registerReadableContent() {
  const LIMIT = 50 * 1024;
  const SKIPPED = new Set(["script", "style", "noscript", "template", "svg", "canvas", "iframe", "nav", "footer", "aside", "form", "button", "select"]);
  const MAIN_CANDIDATES = ["main", "article", "[role=main]", "#content", "#main", ".content"];

  function mainRoot(scope: ParentNode): Element {
    if (scope instanceof Element) return scope;
    for (const selector of MAIN_CANDIDATES) {
      const found = document.querySelector(selector);
      if (found && (found.textContent ?? "").trim().length > 200) return found;
    }
    return document.body ?? document.documentElement;
  }

  function collapse(text: string): string {
    return text.replace(/\s+/g, " ");
  }

  function isHidden(element: Element): boolean {
    if (element.hasAttribute("hidden") || element.getAttribute("aria-hidden") === "true") return true;
    const style = getComputedStyle(element);
    return style.display === "none" || style.visibility === "hidden";
  }

  /** Markdown for the common block and inline elements; anything else contributes its children. */
  function toMarkdown(node: Node, output: string[]): void {
    if (node.nodeType === Node.TEXT_NODE) {
      output.push(collapse(node.textContent ?? ""));
      return;
    }
    if (!(node instanceof Element) || SKIPPED.has(node.localName) || isHidden(node)) return;
    const tag = node.localName;
    const children = () => {
      for (const child of Array.from(node.childNodes)) toMarkdown(child, output);
    };
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      output.push(`\n\n${"#".repeat(Number(heading[1]))} ${collapse(node.textContent ?? "").trim()}\n\n`);
      return;
    }
    switch (tag) {
      case "p":
      case "div":
      case "section":
      case "article":
      case "header":
      case "main":
        output.push("\n\n");
        children();
        output.push("\n\n");
        return;
      case "br":
        output.push("  \n");
        return;
      case "li": {
        const ordered = node.parentElement?.localName === "ol";
        output.push(ordered ? "\n1. " : "\n- ");
        children();
        return;
      }
      case "ul":
      case "ol":
        output.push("\n");
        children();
        output.push("\n\n");
        return;
      case "a": {
        const href = node.getAttribute("href");
        const text = collapse(node.textContent ?? "").trim();
        output.push(href && text && !href.startsWith("javascript:") ? `[${text}](${(node as HTMLAnchorElement).href})` : text);
        return;
      }
      case "strong":
      case "b":
        output.push(`**${collapse(node.textContent ?? "").trim()}**`);
        return;
      case "em":
      case "i":
        output.push(`*${collapse(node.textContent ?? "").trim()}*`);
        return;
      case "code":
        output.push("`" + (node.textContent ?? "") + "`");
        return;
      case "pre":
        output.push("\n\n```\n" + (node.textContent ?? "").replace(/\n$/, "") + "\n```\n\n");
        return;
      case "blockquote":
        output.push("\n\n> " + collapse(node.textContent ?? "").trim() + "\n\n");
        return;
      case "img": {
        const alt = node.getAttribute("alt");
        if (alt) output.push(`![${alt}](${(node as HTMLImageElement).src})`);
        return;
      }
      case "tr":
        output.push(
          "\n| " +
            Array.from(node.children)
              .map((cell) => collapse(cell.textContent ?? "").trim().replace(/\|/g, "\\|"))
              .join(" | ") +
            " |",
        );
        return;
      case "table":
        output.push("\n\n");
        children();
        output.push("\n\n");
        return;
    }
    children();
  }

  function readableContent(params: Record<string, unknown>, format: "text" | "markdown"): PageCommandAnswer {
    const parts = globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
    const scope = parts.resolveScope(params.scope_selector ?? params.selector);
    if (!(scope instanceof Node)) return scope;
    const root = mainRoot(scope);
    let content: string;
    if (format === "text") {
      content = root instanceof HTMLElement ? root.innerText : (root.textContent ?? "");
      content = content.replace(/\n{3,}/g, "\n\n").trim();
    } else {
      const output: string[] = [];
      toMarkdown(root, output);
      content = output
        .join("")
        .replace(/[ \t]+\n/g, "\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
    }
    const truncated = content.length > LIMIT;
    const value: Record<string, unknown> = {
      title: document.title,
      url: location.href,
      length: content.length,
      truncated,
    };
    value[format === "text" ? "text" : "markdown"] = truncated ? content.slice(0, LIMIT) : content;
    return { ok: true, value };
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.readableContent = readableContent;
})();
