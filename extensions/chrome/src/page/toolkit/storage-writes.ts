/**
 * Isolated world: the writes of the `storage` command, already validated and normalized by the
 * worker (src/worker/commands/storage-write-params.ts), which also built the cookie strings.
 * localStorage, sessionStorage and document.cookie are the page's own here, shared with its MAIN
 * world. Each answer carries the value before the change. A cookie is read back afterwards, because
 * document.cookie never reports failure: a browser silently drops a cookie it will not accept.
 */
(function registerStorageWrites() {
  const VALUE_LIMIT = 1024;

  type Write = Record<string, unknown> & { action: string };

  function cap(text: string | null): string | null {
    return text !== null && text.length > VALUE_LIMIT ? text.slice(0, VALUE_LIMIT) + "…" : text;
  }

  function failure(error: string, message: string, details: Record<string, unknown> = {}): FailedPageAnswer {
    return { ok: false, error, message, details };
  }

  /** Every readable cookie of that name, most specific path first (as document.cookie orders them). */
  function readCookies(name: string): string[] {
    const values: string[] = [];
    for (const pair of document.cookie.split(";")) {
      const separator = pair.indexOf("=");
      const key = (separator >= 0 ? pair.slice(0, separator) : pair).trim();
      if (key === name) values.push(separator >= 0 ? pair.slice(separator + 1) : "");
    }
    return values;
  }

  /** RFC 6265 domain- and path-match: whether this page can read a cookie with that path and domain back. */
  function cookieApplies(path: string, domain: string | undefined, url: { hostname: string; pathname: string }): { domainOk: boolean; visible: boolean } {
    const host = url.hostname.toLowerCase();
    const wanted = domain?.replace(/^\./, "").toLowerCase();
    const domainOk = wanted === undefined || host === wanted || host.endsWith("." + wanted);
    const pathOk = url.pathname === path || (url.pathname.startsWith(path) && (path.endsWith("/") || url.pathname[path.length] === "/"));
    return { domainOk, visible: domainOk && pathOk };
  }

  function writeCookie(write: Write): PageCommandAnswer {
    const name = String(write.name);
    const path = String(write.path);
    const domain = typeof write.domain === "string" ? write.domain : undefined;
    const { domainOk, visible } = cookieApplies(path, domain, location);
    if (!domainOk) return failure("invalid_domain", `A page on ${location.hostname} cannot set cookies for domain "${domain}".`, { name, domain });
    const before = readCookies(name);
    document.cookie = String(write.cookie);
    const after = readCookies(name);
    const value: Record<string, unknown> = { action: write.action, name, path, ...(domain ? { domain } : {}), previous_value: cap(before[0] ?? null), url: location.href };
    if (write.action === "set_cookie") {
      const wanted = String(write.value);
      if (visible && !after.includes(wanted)) {
        return failure("cookie_rejected", `The browser did not keep cookie "${name}" (a Secure or HttpOnly cookie of that name may exist, or a __Secure-/__Host- prefix rule applies).`, value);
      }
      return { ok: true, value: { ...value, value: cap(wanted), verified: visible } };
    }
    // Same-named cookies with other paths stay; the one deleted must be missing from the list now.
    if (visible && before.length > 0 && after.length >= before.length) {
      return failure("cookie_not_deleted", `Cookie "${name}" is still readable: it was probably set with another path or domain (give the same path and domain it was set with).`, { ...value, remaining_value: cap(after[0] ?? null) });
    }
    return { ok: true, value: { ...value, existed: before.length > 0, verified: visible } };
  }

  function writeArea(write: Write): PageCommandAnswer {
    const storageType = write.storage_type === "sessionStorage" ? "sessionStorage" : "localStorage";
    const area = storageType === "sessionStorage" ? sessionStorage : localStorage;
    const base = { action: write.action, storage_type: storageType, url: location.href };
    if (write.action === "clear_storage") {
      const count = area.length;
      area.clear();
      return { ok: true, value: { ...base, removed_count: count } };
    }
    const key = String(write.key);
    const previous = area.getItem(key);
    if (write.action === "delete_storage") {
      area.removeItem(key);
      return { ok: true, value: { ...base, key, previous_value: cap(previous), existed: previous !== null } };
    }
    area.setItem(key, String(write.value));
    return { ok: true, value: { ...base, key, value: cap(String(write.value)), previous_value: cap(previous) } };
  }

  function writeStorage(params: Record<string, unknown>): PageCommandAnswer {
    const write = params as Write;
    try {
      if (write.action === "set_cookie" || write.action === "delete_cookie") return writeCookie(write);
      if (write.action === "set_storage" || write.action === "delete_storage" || write.action === "clear_storage") return writeArea(write);
      return failure("unknown_action", `storage_write does not know "${String(write.action)}".`);
    } catch (error) {
      // Opaque origins (sandboxed frames, data: URLs) and blocked third-party storage throw SecurityError; full storage throws QuotaExceededError.
      const name = error instanceof DOMException ? error.name : "";
      const code = name === "QuotaExceededError" ? "quota_exceeded" : "storage_unavailable";
      return failure(code, `${write.action} failed: ${error instanceof Error ? error.message : String(error)}`, { action: write.action });
    }
  }

  const registry = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  registry.writeStorage = writeStorage;
  registry.cookieApplies = cookieApplies;
})();
