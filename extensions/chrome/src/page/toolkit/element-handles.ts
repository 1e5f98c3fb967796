/**
 * Isolated world: how an action names its element — `element_id` (a handle list_interactive gave
 * out), `index` (a position in the latest list_interactive of this page) or `selector`, tried in
 * that order. Handles reach the very element the agent saw, where a selector may match something
 * else by the time the action runs.
 *
 * Handles live in a map private to this world rather than in a page attribute: the page cannot read,
 * forge or strip them, and its DOM (and its snapshot tests, or framework hydration) stays untouched.
 * The toolkit is injected once per document, so a navigation starts a new map; the random page token
 * inside every handle makes a handle from an earlier page fail instead of naming some element here.
 */
(function registerElementHandles() {
  const PRUNE_ABOVE = 5000;
  const pageToken = Math.random().toString(36).slice(2, 6).padEnd(4, "0");
  const idsByElement = new WeakMap<Element, string>();
  const elementsById = new Map<string, WeakRef<Element>>();
  let nextId = 1;
  let latestListing: Array<WeakRef<Element>> | undefined;

  function parts(): DevconsolePageParts {
    return globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
  }

  function failure(error: string, message: string, details: Record<string, unknown>): FailedPageAnswer {
    return { ok: false, error, message, details };
  }

  /** Drops handles whose element is gone, so a long-lived single-page app does not grow the map forever. */
  function prune(): void {
    for (const [id, ref] of elementsById) {
      if (!ref.deref()?.isConnected) elementsById.delete(id);
    }
  }

  /** The same element keeps its handle across listings, so an agent can compare two lists. */
  function elementHandleFor(element: Element): string {
    const known = idsByElement.get(element);
    if (known !== undefined) return known;
    if (elementsById.size >= PRUNE_ABOVE) prune();
    const id = `el-${pageToken}-${nextId++}`;
    idsByElement.set(element, id);
    elementsById.set(id, new WeakRef(element));
    return id;
  }

  function rememberListing(elements: Element[]): void {
    latestListing = elements.map((element) => new WeakRef(element));
  }

  const RELIST = "Call list_interactive again for fresh element_id / index values.";

  function byHandle(elementId: string): Element | FailedPageAnswer {
    const element = elementsById.get(elementId)?.deref();
    if (element?.isConnected) return element;
    const fromElsewhere = !elementId.startsWith(`el-${pageToken}-`);
    const why = fromElsewhere
      ? `element_id "${elementId}" does not come from this page (it was navigated or reloaded since the list was made).`
      : `The element with element_id "${elementId}" is no longer in the page.`;
    return failure("element_not_found", `${why} ${RELIST}`, { element_id: elementId, stale: true });
  }

  function byIndex(raw: unknown): Element | FailedPageAnswer {
    const index = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0) {
      return failure("invalid_index", `index must be a whole number from list_interactive; got ${JSON.stringify(raw)}.`, { index: raw });
    }
    if (!latestListing) {
      return failure("element_not_found", `There is no list_interactive result on this page to take index ${index} from. ${RELIST}`, { index, stale: true });
    }
    const element = latestListing[index]?.deref();
    if (element?.isConnected) return element;
    const why =
      index >= latestListing.length
        ? `The latest list_interactive has ${latestListing.length} elements; index ${index} is not one of them.`
        : `Element ${index} of the latest list_interactive is no longer in the page.`;
    return failure("element_not_found", `${why} ${RELIST}`, { index, stale: index < latestListing.length });
  }

  function present(value: unknown): boolean {
    return value !== undefined && value !== null && !(typeof value === "string" && value.trim() === "");
  }

  function hasTarget(target: Record<string, unknown>): boolean {
    return present(target.element_id) || present(target.index) || present(target.selector);
  }

  /** For messages: the way the agent named the element. */
  function describeTarget(target: Record<string, unknown>): string {
    if (present(target.element_id)) return `element_id "${String(target.element_id)}"`;
    if (present(target.index)) return `index ${String(target.index)}`;
    return `selector "${String(target.selector)}"`;
  }

  /** `scope_selector` (the scope) narrows selector lookups only; a handle already names one element. */
  function findTarget(target: Record<string, unknown>, scope: ParentNode): Element | FailedPageAnswer {
    if (present(target.element_id)) return byHandle(String(target.element_id).trim());
    if (present(target.index)) return byIndex(target.index);
    const selector = target.selector;
    if (typeof selector !== "string" || selector.trim() === "") {
      return failure("missing_selector", "This action needs selector, element_id or index (the last two from list_interactive).", {});
    }
    const element = parts().findElements(selector, scope)[0];
    if (!element) return failure("element_not_found", `No element matches selector "${selector}".`, { selector });
    return element;
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.elementHandleFor = elementHandleFor;
  registry.rememberListing = rememberListing;
  registry.findTarget = findTarget;
  registry.hasTarget = hasTarget;
  registry.describeTarget = describeTarget;
})();
