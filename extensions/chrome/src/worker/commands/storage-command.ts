import { abortable } from "../abortable.js";
import { failed } from "../command-outcome.js";
import type { CommandHandler } from "../command-router.js";
import type { PageScripting } from "../page-scripting.js";
import { outcomeFromAnswer } from "./toolkit-commands.js";
import { isParamProblem, parseStorageWrite, storageActionOf } from "./storage-write-params.js";

/**
 * `storage`: without an action, observe's read of localStorage, sessionStorage and readable cookies;
 * with one, interact's writes. Both run in the isolated world, which shares the page's storage and
 * document.cookie, so they also work on pages whose CSP forbids eval.
 */
export function storageCommand(scripting: PageScripting): CommandHandler {
  return async (context) => {
    const action = storageActionOf(context.params);
    if (action === undefined) {
      return outcomeFromAnswer(await abortable(scripting.runToolkit(context.tabId, "storage", context.params), context.signal));
    }
    const write = parseStorageWrite(action, context.params);
    if (isParamProblem(write)) return failed(write.error, write.message, write.field ? { field: write.field, action } : { action });
    return outcomeFromAnswer(await abortable(scripting.runToolkit(context.tabId, "storage_write", { ...write }), context.signal));
  };
}
