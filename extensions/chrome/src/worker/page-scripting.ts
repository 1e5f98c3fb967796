import { CommandFailure } from "./command-outcome.js";
import { describeError } from "./daemon-requests.js";
import { evaluateInMainWorld, type MainWorldEvaluation } from "./commands/main-world-evaluation.js";
import { ISOLATED_CAPTURE_FILES, MAIN_WORLD_CAPTURE_FILES, SERIALIZER_FILE, TOOLKIT_FILES } from "./page-script-files.js";

/** What the page toolkit answers (see src/page/page-parts.d.ts, PageCommandAnswer). */
export type PageAnswer =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: string; message: string; details?: Record<string, unknown> };

/** Everything the command handlers do inside a page, behind one interface so handlers stay testable. */
export interface PageScripting {
  /** Runs a toolkit command in the isolated world of the tab's top frame. */
  runToolkit(tabId: number, command: string, params: Record<string, unknown>): Promise<PageAnswer>;
  /** Evaluates an `execute` script in the MAIN world. */
  evaluate(tabId: number, script: string, timeoutMs: number): Promise<MainWorldEvaluation>;
  /** Makes sure a tab opened before the extension loaded has the capture scripts too. */
  ensureCapture(tabId: number): Promise<void>;
}

function callToolkit(command: string, params: Record<string, unknown>): unknown {
  const parts = (globalThis as { __mcpkitDevconsoleParts?: { runPageCommand?: (command: string, params: Record<string, unknown>) => unknown } })
    .__mcpkitDevconsoleParts;
  if (!parts || typeof parts.runPageCommand !== "function") return { toolkitMissing: true };
  return parts.runPageCommand(command, params);
}

function captureInstalled(): boolean {
  return Boolean((globalThis as { __mcpkitDevconsoleParts?: { contentBridgeStarted?: boolean } }).__mcpkitDevconsoleParts?.contentBridgeStarted);
}

/** chrome.scripting refuses some pages (chrome://, the Web Store, error pages); say so in the agent's terms. */
function scriptingFailure(error: unknown): CommandFailure {
  const message = describeError(error);
  if (/No tab with id/i.test(message)) return new CommandFailure("tab_not_found", message);
  return new CommandFailure(
    "page_not_scriptable",
    `Chrome does not let extensions run scripts in this page (${message}). Browser pages (chrome://, the Web Store) and error pages cannot be automated.`,
  );
}

async function firstResult(injection: Promise<chrome.scripting.InjectionResult<unknown>[]>): Promise<unknown> {
  let results: chrome.scripting.InjectionResult<unknown>[];
  try {
    results = await injection;
  } catch (error) {
    throw scriptingFailure(error);
  }
  return results[0]?.result;
}

export const chromePageScripting: PageScripting = {
  async runToolkit(tabId, command, params) {
    const target = { tabId, frameIds: [0] };
    let answer = await firstResult(chrome.scripting.executeScript({ target, func: callToolkit, args: [command, params] }));
    if ((answer as { toolkitMissing?: boolean } | undefined)?.toolkitMissing) {
      await firstResult(chrome.scripting.executeScript({ target, files: TOOLKIT_FILES }));
      answer = await firstResult(chrome.scripting.executeScript({ target, func: callToolkit, args: [command, params] }));
    }
    if (!answer || typeof answer !== "object" || typeof (answer as { ok?: unknown }).ok !== "boolean") {
      throw new CommandFailure("page_error", "The page did not answer (it may have navigated away during the command).");
    }
    return answer as PageAnswer;
  },

  async evaluate(tabId, script, timeoutMs) {
    const target = { tabId, frameIds: [0] };
    await firstResult(chrome.scripting.executeScript({ target, world: "MAIN", files: [SERIALIZER_FILE] }));
    const evaluation = await firstResult(
      chrome.scripting.executeScript({ target, world: "MAIN", func: evaluateInMainWorld, args: [script, timeoutMs] }),
    );
    if (!evaluation || typeof evaluation !== "object") {
      throw new CommandFailure("page_error", "The page did not answer (it may have navigated away during the script).");
    }
    return evaluation as MainWorldEvaluation;
  },

  async ensureCapture(tabId) {
    const target = { tabId, frameIds: [0] };
    const installed = await firstResult(chrome.scripting.executeScript({ target, func: captureInstalled }));
    if (installed === true) return;
    await firstResult(chrome.scripting.executeScript({ target, world: "MAIN", files: MAIN_WORLD_CAPTURE_FILES }));
    await firstResult(chrome.scripting.executeScript({ target, files: ISOLATED_CAPTURE_FILES }));
  },
};
