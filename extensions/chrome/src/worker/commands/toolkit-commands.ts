import { abortable } from "../abortable.js";
import { sleep, type Clock } from "../clock.js";
import { actionParam, CommandFailure, failed, numberParam, stringParam, succeeded, type CommandOutcome } from "../command-outcome.js";
import type { CommandContext, CommandHandler } from "../command-router.js";
import type { PageAnswer, PageScripting } from "../page-scripting.js";

const WAIT_POLL_MS = 100;
const DEFAULT_WAIT_MS = 5000;
const MAX_WAIT_MS = 60_000;

export function outcomeFromAnswer(answer: PageAnswer): CommandOutcome {
  if (answer.ok) return succeeded(answer.value);
  return failed(answer.error, answer.message, answer.details ?? {});
}

/** A command answered entirely by the page toolkit (isolated world), params passed through. */
export function toolkitCommand(scripting: PageScripting, toolkitName: string): CommandHandler {
  return async (context) => outcomeFromAnswer(await abortable(scripting.runToolkit(context.tabId, toolkitName, context.params), context.signal));
}

/**
 * `wait_for` polls from the worker rather than waiting inside the page: a poll survives the page
 * navigating meanwhile, and cancelling it is just aborting this loop.
 */
async function waitForSelector(scripting: PageScripting, clock: Clock, context: CommandContext): Promise<CommandOutcome> {
  const selector = stringParam(context.params, "selector");
  if (selector === undefined || selector.trim() === "") return failed("missing_selector", "wait_for needs a selector.");
  const timeoutMs = Math.min(Math.max(numberParam(context.params, "timeout_ms") ?? DEFAULT_WAIT_MS, 0), MAX_WAIT_MS);
  const started = clock.now();
  for (;;) {
    let answer: PageAnswer | undefined;
    try {
      answer = await abortable(
        scripting.runToolkit(context.tabId, "count_matches", { selector, scope_selector: context.params.scope_selector }),
        context.signal,
      );
    } catch (error) {
      // While the page navigates it cannot be scripted for a moment; that is "not there yet".
      if (!(error instanceof CommandFailure) || error.code === "tab_not_found") throw error;
    }
    const waitedMs = clock.now() - started;
    if (answer && !answer.ok && answer.error !== "element_not_found") return outcomeFromAnswer(answer);
    if (answer?.ok && Number(answer.value.count) > 0) {
      return succeeded({ found: true, waited_ms: waitedMs, selector, count: answer.value.count, element: answer.value.element });
    }
    if (waitedMs >= timeoutMs) {
      return failed("wait_for_timeout", `No element matched "${selector}" within ${timeoutMs} ms.`, { found: false, waited_ms: waitedMs, selector });
    }
    await sleep(clock, Math.min(WAIT_POLL_MS, timeoutMs - waitedMs), context.signal);
  }
}

/** `dom_action` (interact's element actions); `wait_for` is the one action the worker drives itself. */
export function domActionCommand(scripting: PageScripting, clock: Clock): CommandHandler {
  return async (context) => {
    const action = actionParam(context.params);
    if (action === undefined) return failed("missing_action", "dom_action needs `action` (click, type, get_text, …).");
    if (action === "wait_for") return waitForSelector(scripting, clock, context);
    const params = { ...context.params, action };
    return outcomeFromAnswer(await abortable(scripting.runToolkit(context.tabId, "dom_action", params), context.signal));
  };
}

/** The older `highlight` command type is dom_action's highlight. */
export function highlightCommand(scripting: PageScripting): CommandHandler {
  return async (context) =>
    outcomeFromAnswer(
      await abortable(scripting.runToolkit(context.tabId, "dom_action", { ...context.params, action: "highlight" }), context.signal),
    );
}
