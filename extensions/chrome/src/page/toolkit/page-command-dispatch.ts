/**
 * Isolated world, last of the toolkit files: the single entry point the worker calls through
 * chrome.scripting.executeScript. An exception never escapes: an invalid CSS selector becomes
 * `invalid_selector`, anything else `page_error`, both with the browser's message.
 */
(function registerPageCommandDispatch() {
  async function runPageCommand(command: string, params: Record<string, unknown>): Promise<PageCommandAnswer> {
    const parts = globalThis.__mcpkitDevconsoleParts as DevconsolePageParts;
    try {
      switch (command) {
        case "dom_action":
          return await parts.runDomAction(params);
        case "a11y":
          return parts.accessibilitySnapshot(params);
        case "form_discovery":
          return parts.discoverForms(params);
        case "storage_write":
          return parts.writeStorage(params);
      }
      const inspected = parts.inspectPage(command, params);
      if (inspected) return inspected;
      return { ok: false, error: "unknown_command", message: `The page toolkit has no command "${command}".` };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const invalidSelector = error instanceof DOMException && error.name === "SyntaxError";
      return { ok: false, error: invalidSelector ? "invalid_selector" : "page_error", message };
    }
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.runPageCommand = runPageCommand;
})();
