/**
 * Turns any page value (console arguments, `execute` results) into bounded, JSON-safe data.
 * Page values are hostile by nature: cycles, getters that throw, proxies, DOM nodes with thousands
 * of properties, megabyte strings. Nothing here may throw, and nothing may grow without bound.
 * Objects may come from another realm (iframes, tests), so types are told by their
 * Object.prototype.toString tag, not by instanceof.
 */
(function registerTransportSerializer() {
  const DEFAULT_LIMITS: SerializeLimits = { maxDepth: 4, maxKeys: 100, maxStringLength: 8192, maxNodes: 2000 };

  function serializeForTransport(value: unknown, limits?: Partial<SerializeLimits>): unknown {
    const settings: SerializeLimits = { ...DEFAULT_LIMITS, ...limits };
    const ancestors: object[] = [];
    let nodes = 0;

    function capString(text: string): string {
      if (text.length <= settings.maxStringLength) return text;
      return text.slice(0, settings.maxStringLength) + `…[truncated ${text.length - settings.maxStringLength} chars]`;
    }

    function tagOf(object: object): string {
      try {
        return Object.prototype.toString.call(object).slice(8, -1);
      } catch {
        return "Object";
      }
    }

    function constructorName(object: object): string {
      try {
        const name = (Object.getPrototypeOf(object) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
        return typeof name === "string" && name !== "" ? name : "Object";
      } catch {
        return "Object";
      }
    }

    function describeNode(object: Record<string, unknown>): string | undefined {
      const nodeType = object.nodeType;
      if (typeof nodeType !== "number" || typeof object.nodeName !== "string") return undefined;
      if (nodeType === 1) {
        const tag = String(object.tagName ?? object.nodeName).toLowerCase();
        const id = typeof object.id === "string" && object.id !== "" ? "#" + object.id : "";
        let classText = "";
        if (typeof object.getAttribute === "function") classText = String((object.getAttribute as (name: string) => unknown).call(object, "class") ?? "");
        else if (typeof object.className === "string") classText = object.className;
        const classes = classText
          .split(/\s+/)
          .filter((name) => name !== "")
          .map((name) => "." + name)
          .join("");
        return `<${tag}${id}${classes}>`;
      }
      if (nodeType === 3) return `#text "${String(object.textContent ?? "").slice(0, 100)}"`;
      if (nodeType === 9) return "#document";
      return String(object.nodeName);
    }

    function describeSpecial(object: object, tag: string): unknown {
      switch (tag) {
        case "Window":
        case "global":
          return "[Window]";
        case "Date": {
          const time = (object as Date).getTime();
          return Number.isNaN(time) ? "Invalid Date" : (object as Date).toISOString();
        }
        case "RegExp":
          return String(object);
        case "Promise":
          return "[Promise]";
        case "WeakMap":
        case "WeakSet":
        case "WeakRef":
          return `[${tag}]`;
        case "ArrayBuffer":
        case "SharedArrayBuffer":
          return `[${tag} ${(object as ArrayBuffer).byteLength} bytes]`;
        case "DataView":
          return `[DataView ${(object as DataView).byteLength} bytes]`;
        case "Blob":
        case "File":
          return `[${tag} ${(object as Blob).size} bytes ${(object as Blob).type}]`.replace(/ \]$/, "]");
      }
      if (/^(Big)?(Int|Uint|Float)(8|16|32|64)(Clamped)?Array$/.test(tag)) {
        return `[${tag}(${(object as ArrayLike<unknown>).length})]`;
      }
      const node = describeNode(object as Record<string, unknown>);
      if (node !== undefined) return node;
      if ((object as { window?: unknown }).window === object) return "[Window]";
      return undefined;
    }

    function serializeError(error: Record<string, unknown>): Record<string, unknown> {
      const result: Record<string, unknown> = {
        name: String(error.name ?? "Error"),
        message: capString(String(error.message ?? "")),
      };
      if (typeof error.stack === "string") result.stack = capString(error.stack);
      return result;
    }

    function serializeArray(array: unknown[], depth: number): unknown[] {
      const length = array.length;
      const shown = Math.min(length, settings.maxKeys);
      const result: unknown[] = [];
      for (let index = 0; index < shown; index++) result.push(readAndVisit(array, index, depth));
      if (length > shown) result.push(`… ${length - shown} more items`);
      return result;
    }

    function serializeMap(map: Map<unknown, unknown>, depth: number): Record<string, unknown> {
      const entries: unknown[] = [];
      for (const [key, entryValue] of map) {
        if (entries.length >= settings.maxKeys) break;
        entries.push([visit(key, depth + 1), visit(entryValue, depth + 1)]);
      }
      return { "[Map]": map.size, entries };
    }

    function serializeSet(set: Set<unknown>, depth: number): Record<string, unknown> {
      const values: unknown[] = [];
      for (const item of set) {
        if (values.length >= settings.maxKeys) break;
        values.push(visit(item, depth + 1));
      }
      return { "[Set]": set.size, values };
    }

    function serializeObject(object: Record<string, unknown>, depth: number): Record<string, unknown> | string {
      let keys: string[];
      try {
        keys = Object.keys(object);
      } catch {
        return "[Unreadable]";
      }
      const result: Record<string, unknown> = {};
      const shown = Math.min(keys.length, settings.maxKeys);
      for (let index = 0; index < shown; index++) {
        const key = keys[index] as string;
        result[key] = readAndVisit(object, key, depth);
      }
      if (keys.length > shown) result["…"] = `${keys.length - shown} more keys`;
      return result;
    }

    function readAndVisit(container: object, key: string | number, depth: number): unknown {
      let child: unknown;
      try {
        child = (container as Record<string | number, unknown>)[key];
      } catch {
        return "[Unreadable]";
      }
      return visit(child, depth + 1);
    }

    function visit(current: unknown, depth: number): unknown {
      nodes += 1;
      if (nodes > settings.maxNodes) return "[Truncated]";
      switch (typeof current) {
        case "string":
          return capString(current);
        case "number":
          if (!Number.isFinite(current)) return String(current);
          return Object.is(current, -0) ? 0 : current;
        case "boolean":
          return current;
        case "undefined":
          return null;
        case "bigint":
          return `${current}n`;
        case "symbol":
          return capString(current.toString());
        case "function": {
          let name = "";
          try {
            name = typeof current.name === "string" ? current.name : "";
          } catch {
            name = "";
          }
          return `[Function ${name || "(anonymous)"}]`;
        }
      }
      if (current === null) return null;
      const object = current as object;
      if (ancestors.includes(object)) return "[Circular]";
      try {
        const tag = tagOf(object);
        const special = describeSpecial(object, tag);
        if (special !== undefined) return special;
        const isError = tag === "Error" || tag === "DOMException";
        if (depth >= settings.maxDepth) {
          if (Array.isArray(object)) return `[Array(${object.length})]`;
          return isError ? `[${String((object as { name?: unknown }).name ?? "Error")}]` : `[${constructorName(object)}]`;
        }
        ancestors.push(object);
        try {
          if (isError) return serializeError(object as Record<string, unknown>);
          if (Array.isArray(object)) return serializeArray(object, depth);
          if (tag === "Map") return serializeMap(object as Map<unknown, unknown>, depth);
          if (tag === "Set") return serializeSet(object as Set<unknown>, depth);
          return serializeObject(object as Record<string, unknown>, depth);
        } finally {
          ancestors.pop();
        }
      } catch {
        return "[Unreadable]";
      }
    }

    return visit(value, 0);
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.serializeForTransport = serializeForTransport;
})();
