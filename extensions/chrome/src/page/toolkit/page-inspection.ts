/**
 * Isolated world: read-only questions about the page — `dom`, `page_info`, `waterfall`,
 * `computed_styles`, `storage` — plus the two helpers the worker needs for `wait_for` (how many
 * elements match now) and screenshot cropping (where an element is). Every answer is capped.
 */
(function registerPageInspection() {
  const DOM_MATCH_LIMIT = 100;
  const ATTRIBUTE_LIMIT = 30;
  const RESOURCE_LIMIT = 500;
  const STORAGE_KEY_LIMIT = 200;
  const STORAGE_VALUE_LIMIT = 1024;
  const DEFAULT_STYLE_PROPERTIES = [
    "display", "position", "top", "left", "width", "height", "margin", "padding", "box-sizing", "color",
    "background-color", "font-family", "font-size", "font-weight", "line-height", "text-align", "visibility",
    "opacity", "z-index", "overflow", "border", "flex-direction", "justify-content", "align-items", "gap", "cursor", "pointer-events",
  ];

  function parts(): DevconsolePageParts {
    return globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
  }

  function cap(text: string, limit: number): string {
    return text.length > limit ? text.slice(0, limit) + "…" : text;
  }

  function rectOf(element: Element): Record<string, number> {
    const rect = element.getBoundingClientRect();
    return { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
  }

  function matches(params: Record<string, unknown>): Element[] | PageCommandAnswer {
    const scope = parts().resolveScope(params.scope_selector);
    if (!(scope instanceof Node)) return scope;
    const selector = typeof params.selector === "string" && params.selector.trim() !== "" ? params.selector : undefined;
    if (!selector) return { ok: false, error: "missing_selector", message: "This query needs a selector." };
    return parts().findElements(selector, scope);
  }

  function describeDom(params: Record<string, unknown>): PageCommandAnswer {
    const found = matches(params);
    if (!Array.isArray(found)) return found;
    const elements = found.slice(0, DOM_MATCH_LIMIT).map((element) => {
      const attributes: Record<string, string> = {};
      for (const attribute of Array.from(element.attributes).slice(0, ATTRIBUTE_LIMIT)) attributes[attribute.name] = cap(attribute.value, 200);
      return {
        tag: element.localName,
        id: element.id,
        classes: Array.from(element.classList),
        text: parts().visibleText(element, 200),
        attributes,
        visible: parts().isVisible(element),
        rect: rectOf(element),
        selector: parts().cssPathFor(element),
      };
    });
    return { ok: true, value: { selector: params.selector, count: found.length, matches: elements, truncated: found.length > elements.length } };
  }

  function pageInfo(): PageCommandAnswer {
    const scrolling = document.scrollingElement ?? document.documentElement;
    return {
      ok: true,
      value: {
        url: location.href,
        title: document.title,
        ready_state: document.readyState,
        viewport: { width: innerWidth, height: innerHeight, device_pixel_ratio: devicePixelRatio },
        scroll: { x: Math.round(scrollX), y: Math.round(scrollY), width: scrolling.scrollWidth, height: scrolling.scrollHeight },
        element_count: document.getElementsByTagName("*").length,
        forms: document.forms.length,
        links: document.links.length,
        images: document.images.length,
        scripts: document.scripts.length,
        iframes: document.getElementsByTagName("iframe").length,
        language: document.documentElement.lang,
        charset: document.characterSet,
        referrer: document.referrer,
        visibility: document.visibilityState,
        has_focus: document.hasFocus(),
        description: document.querySelector("meta[name=description]")?.getAttribute("content") ?? "",
      },
    };
  }

  function waterfall(): PageCommandAnswer {
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const entries = resources.slice(-RESOURCE_LIMIT).map((entry) => {
      const item: Record<string, unknown> = {
        url: cap(entry.name, 500),
        initiator_type: entry.initiatorType,
        start_ms: Math.round(entry.startTime),
        duration_ms: Math.round(entry.duration),
        transfer_size: entry.transferSize,
        encoded_size: entry.encodedBodySize,
      };
      const status = (entry as PerformanceResourceTiming & { responseStatus?: number }).responseStatus;
      if (typeof status === "number" && status > 0) item.status = status;
      return item;
    });
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    return {
      ok: true,
      value: {
        url: location.href,
        entries,
        count: resources.length,
        truncated: resources.length > entries.length,
        navigation: navigation
          ? {
              type: navigation.type,
              ttfb_ms: Math.round(navigation.responseStart),
              dom_content_loaded_ms: Math.round(navigation.domContentLoadedEventEnd),
              load_ms: Math.round(navigation.loadEventEnd),
              transfer_size: navigation.transferSize,
            }
          : null,
      },
    };
  }

  function computedStyles(params: Record<string, unknown>): PageCommandAnswer {
    const found = matches(params);
    if (!Array.isArray(found)) return found;
    const element = found[0];
    if (!element) return { ok: false, error: "element_not_found", message: `No element matches selector "${String(params.selector)}".` };
    const style = getComputedStyle(element);
    const properties = Array.isArray(params.properties) && params.properties.length > 0 ? params.properties.map(String) : DEFAULT_STYLE_PROPERTIES;
    const styles: Record<string, string> = {};
    for (const property of properties.slice(0, 200)) styles[property] = style.getPropertyValue(property);
    return { ok: true, value: { selector: params.selector, element: parts().summarizeElement(element), styles, rect: rectOf(element), match_count: found.length } };
  }

  function readStorage(storage: () => Storage): Record<string, unknown> {
    try {
      const area = storage();
      const items: Record<string, string> = {};
      for (let index = 0; index < Math.min(area.length, STORAGE_KEY_LIMIT); index++) {
        const key = area.key(index);
        if (key !== null) items[key] = cap(area.getItem(key) ?? "", STORAGE_VALUE_LIMIT);
      }
      return { count: area.length, items, truncated: area.length > STORAGE_KEY_LIMIT };
    } catch (error) {
      return { error: String(error) };
    }
  }

  function storageSnapshot(params: Record<string, unknown>): PageCommandAnswer {
    const wanted = String(params.storage_type ?? "all");
    const value: Record<string, unknown> = { url: location.href };
    if (wanted === "all" || wanted === "localStorage") value.local_storage = readStorage(() => localStorage);
    if (wanted === "all" || wanted === "sessionStorage") value.session_storage = readStorage(() => sessionStorage);
    if (wanted === "all" || wanted === "cookies") {
      const cookies: Record<string, string> = {};
      // document.cookie shows only cookies the page itself can read (no HttpOnly ones).
      for (const pair of document.cookie.split(";").slice(0, STORAGE_KEY_LIMIT)) {
        const separator = pair.indexOf("=");
        if (separator > 0) cookies[pair.slice(0, separator).trim()] = cap(pair.slice(separator + 1), STORAGE_VALUE_LIMIT);
      }
      value.cookies = cookies;
    }
    return { ok: true, value };
  }

  function elementRect(params: Record<string, unknown>): PageCommandAnswer {
    const found = matches(params);
    if (!Array.isArray(found)) return found;
    const element = found[0];
    if (!element) return { ok: false, error: "element_not_found", message: `No element matches selector "${String(params.selector)}".` };
    element.scrollIntoView({ block: "center", inline: "center" });
    const rect = element.getBoundingClientRect();
    return {
      ok: true,
      value: {
        rect: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
        viewport: { width: innerWidth, height: innerHeight },
        device_pixel_ratio: devicePixelRatio,
      },
    };
  }

  function countMatches(params: Record<string, unknown>): PageCommandAnswer {
    const found = matches(params);
    if (!Array.isArray(found)) return found;
    const first = found[0];
    return { ok: true, value: { count: found.length, ...(first ? { element: parts().summarizeElement(first) } : {}) } };
  }

  function inspectPage(command: string, params: Record<string, unknown>): PageCommandAnswer | undefined {
    switch (command) {
      case "dom":
        return describeDom(params);
      case "page_info":
        return pageInfo();
      case "waterfall":
        return waterfall();
      case "computed_styles":
        return computedStyles(params);
      case "storage":
        return storageSnapshot(params);
      case "element_rect":
        return elementRect(params);
      case "count_matches":
        return countMatches(params);
    }
    return undefined;
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.inspectPage = inspectPage;
})();
