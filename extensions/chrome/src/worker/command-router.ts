import type { Clock, TimerHandle } from "./clock.js";
import { CommandFailure, failed, type CommandOutcome } from "./command-outcome.js";
import { describeError } from "./daemon-requests.js";
import type { CommandResult, DaemonCommand, InProgressEntry } from "./sync-protocol.js";

export interface TabDetails {
  id: number;
  url: string;
  title: string;
}

/** The router's view of which tabs commands may touch; backed by chrome.tabs in the worker. */
export interface TabAccess {
  trackedTabId(): number | undefined;
  /** True for the tracked tab and for tabs opened by `new_tab` while it was tracked. */
  isAllowed(tabId: number): boolean;
  describe(tabId: number): Promise<TabDetails | undefined>;
}

export interface CommandContext {
  command: DaemonCommand;
  params: Record<string, unknown>;
  /** The tab the command acts on: `tab_id` when given, else the tracked tab. Already checked. */
  tabId: number;
  /** Aborted when the command is cancelled or times out; long waits must stop then. */
  signal: AbortSignal;
}

export type CommandHandler = (context: CommandContext) => Promise<CommandOutcome>;

export interface CommandRouterOptions {
  handlers: Record<string, CommandHandler>;
  tabs: TabAccess;
  clock: Clock;
  report(result: CommandResult): void;
  commandTimeoutMs?: number;
  maxResultBytes?: number;
  /** Screenshots may exceed the general cap, up to what fits in one `/sync` body. */
  maxScreenshotResultBytes?: number;
}

interface RunningCommand {
  command: DaemonCommand;
  tabId: number;
  startedAt: string;
  controller: AbortController;
  settled: boolean;
}

export const NO_TRACKED_TAB_MESSAGE =
  'No tab is tracked. Open the page in Chrome, click the mcpkit devconsole toolbar icon and press "Track this tab".';

export function tabNotAllowed(tabId: number): CommandOutcome {
  return failed(
    "tab_not_allowed",
    `Tab ${tabId} is neither the tracked tab nor a tab opened by this session, so the extension will not touch it. ` +
      `To use it, switch to it in Chrome and click "Track this tab" in the mcpkit devconsole popup.`,
  );
}

/**
 * Turns daemon commands into handler calls. It owns the security rule (a command only touches the
 * tracked tab or a tab this session opened), the per-command timeout, cancellation, the
 * `in_progress` list and the shape and size of every result.
 */
export class CommandRouter {
  private readonly running = new Map<string, RunningCommand>();
  private receivedCount = 0;
  private completedCount = 0;
  private readonly commandTimeoutMs: number;
  private readonly maxResultBytes: number;
  private readonly maxScreenshotResultBytes: number;

  constructor(private readonly options: CommandRouterOptions) {
    this.commandTimeoutMs = options.commandTimeoutMs ?? 65_000;
    this.maxResultBytes = options.maxResultBytes ?? 4 * 1024 * 1024;
    this.maxScreenshotResultBytes = options.maxScreenshotResultBytes ?? 4.75 * 1024 * 1024;
  }

  /** Returns once the command is accepted (or answered at once); execution continues in the background. */
  dispatch(command: DaemonCommand): void {
    const running = this.running.get(command.id);
    if (running && running.command.correlation_id === command.correlation_id && running.command.type === command.type) return;
    this.receivedCount += 1;
    const params = isRecord(command.params) ? command.params : {};
    if (command.type === "cancel") {
      void this.finish(command, this.cancel(params), undefined);
      return;
    }
    const handler = Object.prototype.hasOwnProperty.call(this.options.handlers, command.type)
      ? this.options.handlers[command.type]
      : undefined;
    if (!handler) {
      const outcome = failed("unknown_command", `Unknown command type "${command.type}": this extension cannot run it.`);
      void this.finish(command, outcome, this.options.tabs.trackedTabId());
      return;
    }
    const target = this.resolveTab(command);
    if ("outcome" in target) {
      void this.finish(command, target.outcome, undefined, target.reportedTabId);
      return;
    }
    const entry: RunningCommand = {
      command,
      tabId: target.tabId,
      startedAt: new Date(this.options.clock.now()).toISOString(),
      controller: new AbortController(),
      settled: false,
    };
    this.running.set(command.id, entry);
    void this.execute(entry, handler, { command, params, tabId: target.tabId, signal: entry.controller.signal });
  }

  inProgress(): InProgressEntry[] {
    const entries: InProgressEntry[] = [];
    for (const entry of this.running.values()) {
      if (entry.settled) continue;
      entries.push({
        id: entry.command.id,
        correlation_id: entry.command.correlation_id ?? "",
        type: entry.command.type,
        status: "running",
        started_at: entry.startedAt,
        updated_at: entry.startedAt,
      });
    }
    return entries;
  }

  counters(): { received: number; completed: number; running: number } {
    return { received: this.receivedCount, completed: this.completedCount, running: this.inProgress().length };
  }

  private resolveTab(
    command: DaemonCommand,
  ): { tabId: number } | { outcome: CommandOutcome; reportedTabId: number } {
    const tracked = this.options.tabs.trackedTabId();
    const requested = typeof command.tab_id === "number" && command.tab_id > 0 ? command.tab_id : undefined;
    if (tracked === undefined) {
      return { outcome: failed("no_tracked_tab", NO_TRACKED_TAB_MESSAGE), reportedTabId: requested ?? 0 };
    }
    const tabId = requested ?? tracked;
    if (!this.options.tabs.isAllowed(tabId)) return { outcome: tabNotAllowed(tabId), reportedTabId: tabId };
    return { tabId };
  }

  private async execute(entry: RunningCommand, handler: CommandHandler, context: CommandContext): Promise<void> {
    let timer: TimerHandle | undefined;
    const timedOut = new Promise<CommandOutcome>((resolve) => {
      timer = this.options.clock.setTimeout(() => {
        entry.controller.abort(new CommandFailure("command_timeout", "timed out", {}, "timeout"));
        resolve(
          failed(
            "command_timeout",
            `The extension did not finish "${entry.command.type}" within ${this.commandTimeoutMs} ms.`,
            {},
            "timeout",
          ),
        );
      }, this.commandTimeoutMs);
    });
    let outcome: CommandOutcome;
    try {
      outcome = await Promise.race([handler(context), timedOut]);
    } catch (error) {
      outcome =
        error instanceof CommandFailure ? error.toOutcome() : failed("extension_error", describeError(error));
    } finally {
      this.options.clock.clearTimeout(timer);
    }
    if (entry.settled) return;
    entry.settled = true;
    await this.finish(entry.command, outcome, context.tabId);
    this.running.delete(entry.command.id);
  }

  private cancel(params: Record<string, unknown>): CommandOutcome {
    const id = typeof params.id === "string" ? params.id : undefined;
    const correlationId = typeof params.correlation_id === "string" ? params.correlation_id : undefined;
    let target: RunningCommand | undefined;
    for (const entry of this.running.values()) {
      if (entry.settled) continue;
      if ((id !== undefined && entry.command.id === id) || (correlationId !== undefined && entry.command.correlation_id === correlationId)) {
        target = entry;
        break;
      }
    }
    if (target) {
      target.settled = true;
      target.controller.abort(new CommandFailure("cancelled", "cancelled", {}, "cancelled"));
      const cancelledTarget = target;
      const outcome = failed("cancelled", "The command was cancelled by a cancel command.", {}, "cancelled");
      void this.finish(cancelledTarget.command, outcome, cancelledTarget.tabId).then(() =>
        this.running.delete(cancelledTarget.command.id),
      );
    }
    return {
      status: "complete",
      result: { success: true, cancelled: target !== undefined, ...(id ? { id } : {}), ...(correlationId ? { correlation_id: correlationId } : {}) },
    };
  }

  private async finish(
    command: DaemonCommand,
    outcome: CommandOutcome,
    describedTabId: number | undefined,
    reportedTabId = 0,
  ): Promise<void> {
    let details: TabDetails | undefined;
    if (describedTabId !== undefined && this.options.tabs.isAllowed(describedTabId)) {
      details = await this.options.tabs.describe(describedTabId).catch(() => undefined);
    }
    const result: Record<string, unknown> = {
      ...outcome.result,
      effective_tab_id: details?.id ?? describedTabId ?? reportedTabId,
      effective_tab_url: details?.url ?? "",
      effective_tab_title: details?.title ?? "",
    };
    const capped = this.capResult(command.type, result);
    const commandResult: CommandResult = {
      id: command.id,
      status: capped.error ? "error" : outcome.status,
      result: capped.result,
    };
    if (command.correlation_id) commandResult.correlation_id = command.correlation_id;
    const error = capped.error ?? outcome.error;
    if (error !== undefined) commandResult.error = error;
    this.completedCount += 1;
    this.options.report(commandResult);
  }

  /** Keeps one result from filling the `/sync` body: a result that does not fit becomes an error naming its size. */
  private capResult(type: string, result: Record<string, unknown>): { result: Record<string, unknown>; error?: string } {
    const limit = type === "screenshot" ? this.maxScreenshotResultBytes : this.maxResultBytes;
    const tabFields = {
      effective_tab_id: result.effective_tab_id,
      effective_tab_url: result.effective_tab_url,
      effective_tab_title: result.effective_tab_title,
    };
    let size: number;
    try {
      size = JSON.stringify(result).length;
    } catch (error) {
      const message = `The result cannot be sent as JSON: ${describeError(error)}`;
      return { error: "result_not_serializable", result: { success: false, error: "result_not_serializable", message, ...tabFields } };
    }
    if (size <= limit) return { result };
    const message = `The result is ${size} bytes, more than the ${limit} bytes one result may take; narrow the query (a selector, a smaller script result).`;
    return { error: "result_too_large", result: { success: false, error: "result_too_large", message, size, ...tabFields } };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
