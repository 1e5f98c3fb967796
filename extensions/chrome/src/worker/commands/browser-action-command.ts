import { actionParam, CommandFailure, failed, numberParam, stringParam, succeeded, type CommandOutcome } from "../command-outcome.js";
import { tabNotAllowed, type CommandContext, type CommandHandler } from "../command-router.js";
import { runAndWaitForLoad } from "./tab-loading.js";

const LOAD_TIMEOUT_MS = 15_000;

export interface SessionTabRegistry {
  isAllowed(tabId: number): boolean;
  addSessionTab(tabId: number): void;
}

/**
 * Only web pages: a `javascript:` URL would run code past the page's CSP, and chrome://, file://
 * or extension pages are outside what an agent should open. Relative URLs resolve against the tab.
 */
function checkedUrl(raw: string | undefined, base: string | undefined): string {
  if (raw === undefined || raw.trim() === "") throw new CommandFailure("missing_url", "This action needs a url.");
  if (raw.trim() === "about:blank") return "about:blank";
  let url: URL;
  try {
    url = new URL(raw.trim(), base && /^https?:/.test(base) ? base : undefined);
  } catch {
    throw new CommandFailure("invalid_url", `"${raw}" is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CommandFailure("invalid_url", `Only http(s) URLs can be opened, not ${url.protocol}`);
  }
  return url.href;
}

async function loadedTabFields(tabId: number, status: string): Promise<Record<string, unknown>> {
  const tab = await chrome.tabs.get(tabId);
  return { tab_id: tabId, url: tab.url ?? "", title: tab.title ?? "", status };
}

async function tabByIndex(windowId: number, index: number): Promise<number> {
  const [tab] = await chrome.tabs.query({ windowId, index });
  if (tab?.id === undefined) throw new CommandFailure("tab_not_found", `There is no tab at index ${index} in this window.`);
  return tab.id;
}

/** navigate, refresh, back, forward, new_tab, switch_tab, close_tab. */
export function browserActionCommand(registry: SessionTabRegistry): CommandHandler {
  return async (context: CommandContext): Promise<CommandOutcome> => {
    const action = actionParam(context.params);
    const current = await chrome.tabs.get(context.tabId).catch(() => undefined);
    if (!current) return failed("tab_not_found", `Tab ${context.tabId} no longer exists.`);
    const waitFor = (trigger: () => Promise<unknown>) => runAndWaitForLoad(context.tabId, trigger, LOAD_TIMEOUT_MS, context.signal);

    switch (action) {
      case "navigate": {
        const url = checkedUrl(stringParam(context.params, "url"), current.url);
        if (context.params.new_tab === true) return openTab(registry, context, url, current);
        const status = await waitFor(() => chrome.tabs.update(context.tabId, { url }));
        return succeeded(await loadedTabFields(context.tabId, status));
      }
      case "refresh": {
        const status = await waitFor(() => chrome.tabs.reload(context.tabId, { bypassCache: context.params.bypass_cache === true }));
        return succeeded(await loadedTabFields(context.tabId, status));
      }
      case "back":
      case "forward": {
        const move = action === "back" ? () => chrome.tabs.goBack(context.tabId) : () => chrome.tabs.goForward(context.tabId);
        const status = await waitFor(() =>
          move().catch((error: unknown) => {
            throw new CommandFailure("no_history", `Cannot go ${action}: ${String(error instanceof Error ? error.message : error)}`);
          }),
        );
        return succeeded(await loadedTabFields(context.tabId, status));
      }
      case "new_tab": {
        const url = stringParam(context.params, "url");
        return openTab(registry, context, url === undefined ? "about:blank" : checkedUrl(url, current.url), current);
      }
      case "switch_tab": {
        const requested = numberParam(context.params, "tab_id");
        const index = numberParam(context.params, "tab_index");
        if (requested === undefined && index === undefined) return failed("missing_tab", "switch_tab needs tab_id or tab_index.");
        const target = requested ?? (await tabByIndex(current.windowId, index as number));
        if (!registry.isAllowed(target)) return tabNotAllowed(target);
        const tab = await chrome.tabs.update(target, { active: true });
        if (tab?.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true }).catch(() => undefined);
        return succeeded({ tab_id: target, url: tab?.url ?? "", title: tab?.title ?? "" });
      }
      case "close_tab": {
        const target = numberParam(context.params, "tab_id") ?? context.tabId;
        if (!registry.isAllowed(target)) return tabNotAllowed(target);
        await chrome.tabs.remove(target);
        return succeeded({ closed_tab_id: target });
      }
    }
    return failed("unknown_action", `browser_action does not know the action "${String(action)}".`);
  };
}

/** The new tab opens next to the current one, in the background, and is commandable from now on. */
async function openTab(registry: SessionTabRegistry, context: CommandContext, url: string, current: chrome.tabs.Tab): Promise<CommandOutcome> {
  const active = context.params.active === true;
  const created = await chrome.tabs.create({ url: "about:blank", windowId: current.windowId, index: current.index + 1, active });
  if (created.id === undefined) throw new CommandFailure("tab_not_created", "Chrome did not create the tab.");
  const tabId = created.id;
  registry.addSessionTab(tabId);
  if (url === "about:blank") return succeeded({ tab_id: tabId, url, title: "", status: "complete" });
  const status = await runAndWaitForLoad(tabId, () => chrome.tabs.update(tabId, { url }), LOAD_TIMEOUT_MS, context.signal);
  return succeeded(await loadedTabFields(tabId, status));
}
