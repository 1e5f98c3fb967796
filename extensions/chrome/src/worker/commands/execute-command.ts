import { abortable } from "../abortable.js";
import { sleep, type Clock } from "../clock.js";
import { failed, numberParam, stringParam, succeeded, type CommandOutcome } from "../command-outcome.js";
import type { CommandContext, CommandHandler } from "../command-router.js";
import type { PageScripting } from "../page-scripting.js";
import type { MainWorldEvaluation } from "./main-world-evaluation.js";

export const CSP_BLOCKED_MESSAGE =
  "The page's Content-Security-Policy forbids evaluating scripts (no 'unsafe-eval'); use interact's DOM actions (click, type, get_text…) instead.";

const DEFAULT_TIMEOUT_MS = 5000;
const MAX_TIMEOUT_MS = 60_000;
/** A script stuck in a synchronous loop never lets the page-side timer fire; the worker gives up this much later. */
const WORKER_GRACE_MS = 2000;

/**
 * `execute` (interact execute_js): runs the agent's script in the page's MAIN world.
 * `onCspBlocked` lets the worker report the page as CSP-restricted in the next `/sync` settings.
 */
export function executeCommand(scripting: PageScripting, clock: Clock, onCspBlocked: (tabId: number) => void): CommandHandler {
  return async (context: CommandContext): Promise<CommandOutcome> => {
    const script = stringParam(context.params, "script");
    if (script === undefined || script.trim() === "") return failed("missing_script", "execute needs a non-empty `script`.");
    const world = stringParam(context.params, "world") ?? "auto";
    if (world === "isolated") {
      return failed(
        "isolated_world_unsupported",
        "Chrome forbids evaluating code in an extension's isolated world (Manifest V3); use world 'main' or 'auto', or interact's DOM actions.",
      );
    }
    const requested = numberParam(context.params, "timeout_ms") ?? DEFAULT_TIMEOUT_MS;
    const timeoutMs = Math.min(Math.max(Math.round(requested), 1), MAX_TIMEOUT_MS);
    const workerTimeout = sleep(clock, timeoutMs + WORKER_GRACE_MS, context.signal).then((): MainWorldEvaluation => ({ kind: "timeout" }));
    const evaluation = await abortable(Promise.race([scripting.evaluate(context.tabId, script, timeoutMs), workerTimeout]), context.signal);
    switch (evaluation.kind) {
      case "ok":
        return succeeded({ result: evaluation.value });
      case "timeout":
        return failed("execution_timeout", `Script exceeded ${timeoutMs}ms timeout (timeout_ms); it may still be running in the page.`, {}, "timeout");
      case "csp_blocked":
        onCspBlocked(context.tabId);
        return failed("csp_blocked", CSP_BLOCKED_MESSAGE, { detail: evaluation.message });
      case "script_error":
        return failed("script_error", evaluation.message, { stack: evaluation.stack });
    }
  };
}
