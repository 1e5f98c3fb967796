import type { ConnectionStatus } from "../shared/devconsole-status.js";
import { backoffDelay } from "./backoff.js";
import { BoundedIdSet } from "./bounded-id-set.js";
import type { Clock } from "./clock.js";
import { describeError, postJson, type DaemonConnection } from "./daemon-requests.js";
import type {
  CommandResult,
  DaemonCommand,
  ExtensionLogEntry,
  InProgressEntry,
  SyncRequest,
  SyncResponse,
  SyncSettings,
} from "./sync-protocol.js";

export interface SyncClientOptions {
  connection: DaemonConnection;
  clock: Clock;
  sessionId: string;
  settings(): SyncSettings;
  inProgress(): InProgressEntry[];
  extensionLogs: { take(): ExtensionLogEntry[]; restore(entries: ExtensionLogEntry[]): void };
  /** Hands a new command over; the returned promise settles when dispatch (not execution) is done. */
  dispatch(command: DaemonCommand): void | Promise<void>;
  onStatusChange?(status: ConnectionStatus): void;
  /** Called once per loop turn, so the worker can keep Chrome from idling it out while it polls. */
  onLoopTurn?(): void;
  log?(level: "debug" | "info" | "warn" | "error", message: string, data?: unknown): void;
  requestTimeoutMs?: number;
  maxQueuedResults?: number;
}

type SyncOutcome = { kind: "ok"; nextPollMs: number } | { kind: "interrupted" } | { kind: "failed" };

export type SyncReason = "result" | "settings" | "server-url";

const TIMED_OUT = "sync-timed-out";
const INTERRUPTED = "sync-interrupted";
const DEFAULT_POLL_MS = 1000;
const MAX_POLL_MS = 30_000;

/**
 * The one `/sync` loop. It never runs twice: every "sync now" wish either aborts the request in
 * flight (the daemon parks idle polls for up to 5 s, and a result must not wait for that) or
 * wakes the pause between polls. Results stay queued until a sync carrying them succeeds.
 */
export class SyncClient {
  private running = false;
  private loopFinished: Promise<void> = Promise.resolve();
  private pendingResults: CommandResult[] = [];
  private inFlight: { controller: AbortController; carried: Set<CommandResult> } | undefined;
  private wakeFromPause: (() => void) | undefined;
  private syncRequested = false;
  private lastCommandAck: string | undefined;
  private readonly seenCommands = new BoundedIdSet(1000);
  private readonly status: ConnectionStatus;
  private readonly requestTimeoutMs: number;
  private readonly maxQueuedResults: number;

  constructor(private readonly options: SyncClientOptions) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? 8000;
    this.maxQueuedResults = options.maxQueuedResults ?? 200;
    this.status = {
      state: "connecting",
      serverUrl: options.connection.serverUrl(),
      consecutiveFailures: 0,
      syncCount: 0,
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopFinished = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.inFlight?.controller.abort(INTERRUPTED);
    this.wakeFromPause?.();
    await this.loopFinished;
  }

  queueResult(result: CommandResult): void {
    this.pendingResults.push(result);
    if (this.pendingResults.length > this.maxQueuedResults) {
      const dropped = this.pendingResults.shift();
      this.options.log?.("warn", "Command result dropped: too many results waiting for the daemon", {
        id: dropped?.id,
      });
    }
    this.requestSync("result");
  }

  /** Ask for a sync as soon as possible; see the class comment for how that avoids a second loop. */
  requestSync(reason: SyncReason): void {
    if (!this.running) return;
    if (reason === "server-url") {
      // Another URL is another daemon: its command ids and acknowledgements start afresh.
      this.seenCommands.clear();
      this.lastCommandAck = undefined;
      this.status.consecutiveFailures = 0;
      this.status.state = "connecting";
      this.status.serverUrl = this.options.connection.serverUrl();
      delete this.status.nextRetryAt;
      this.notifyStatus();
    }
    const inFlight = this.inFlight;
    if (inFlight) {
      const everythingCarried = this.pendingResults.every((result) => inFlight.carried.has(result));
      if (reason === "result" && everythingCarried) return;
      this.syncRequested = true;
      inFlight.controller.abort(INTERRUPTED);
      return;
    }
    this.syncRequested = true;
    // While the daemon is unreachable, results and settings wait for the next attempt instead of
    // hammering it; a new URL, though, deserves an immediate try.
    if (this.status.consecutiveFailures === 0 || reason === "server-url") this.wakeFromPause?.();
  }

  connectionStatus(): ConnectionStatus {
    return { ...this.status };
  }

  queuedResultCount(): number {
    return this.pendingResults.length;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.options.onLoopTurn?.();
      const outcome = await this.syncOnce();
      if (!this.running) break;
      let pauseMs = 0;
      if (outcome.kind === "ok") pauseMs = this.syncRequested ? 0 : outcome.nextPollMs;
      else if (outcome.kind === "failed") pauseMs = backoffDelay(this.status.consecutiveFailures);
      if (pauseMs > 0) await this.pause(pauseMs);
    }
  }

  private async syncOnce(): Promise<SyncOutcome> {
    this.syncRequested = false;
    const results = this.pendingResults.slice();
    const logs = this.options.extensionLogs.take();
    const request: SyncRequest = {
      ext_session_id: this.options.sessionId,
      extension_version: this.options.connection.extensionVersion,
      settings: this.options.settings(),
      in_progress: this.options.inProgress(),
    };
    if (logs.length > 0) request.extension_logs = logs;
    if (results.length > 0) request.command_results = results;
    if (this.lastCommandAck !== undefined) request.last_command_ack = this.lastCommandAck;

    const controller = new AbortController();
    const carried = new Set(results);
    const timer = this.options.clock.setTimeout(() => controller.abort(TIMED_OUT), this.requestTimeoutMs);
    this.inFlight = { controller, carried };
    let response: SyncResponse;
    try {
      response = (await postJson(this.options.connection, "/sync", request, controller.signal)) as SyncResponse;
    } catch (error) {
      this.options.extensionLogs.restore(logs);
      if (causedByAbort(error, controller.signal, INTERRUPTED)) return { kind: "interrupted" };
      const reason = causedByAbort(error, controller.signal, TIMED_OUT)
          ? `no answer from ${this.options.connection.serverUrl()}/sync within ${this.requestTimeoutMs} ms`
          : describeError(error);
      this.recordFailure(reason);
      return { kind: "failed" };
    } finally {
      this.options.clock.clearTimeout(timer);
      this.inFlight = undefined;
    }
    this.pendingResults = this.pendingResults.filter((result) => !carried.has(result));
    this.recordSuccess(response);
    await this.receiveCommands(Array.isArray(response.commands) ? response.commands : []);
    return { kind: "ok", nextPollMs: pollInterval(response.next_poll_ms) };
  }

  private async receiveCommands(commands: DaemonCommand[]): Promise<void> {
    for (const command of commands) {
      if (!command || typeof command.id !== "string" || typeof command.type !== "string") {
        this.options.log?.("warn", "Malformed command ignored", { command });
        continue;
      }
      // The correlation id is part of the key because a restarted daemon numbers its commands
      // from q-1 again; correlated commands then still look new.
      const key = `${command.id}::${command.correlation_id ?? ""}::${command.type}`;
      if (this.seenCommands.has(key)) continue;
      this.seenCommands.add(key);
      try {
        await this.options.dispatch(command);
      } catch (error) {
        this.options.log?.("error", "Command dispatch failed", { id: command.id, error: describeError(error) });
      }
      this.lastCommandAck = command.id;
    }
  }

  private recordSuccess(response: SyncResponse): void {
    if (this.status.consecutiveFailures > 0) {
      // After a failed sync the daemon may be a new process whose ids restart at q-1: forget old
      // ids and do not send it an acknowledgement for a command it never issued. If it is the same
      // daemon, what it re-sends has either a result queued here (the daemon drops it on receipt)
      // or is still running (the router ignores a second copy of a running command).
      this.seenCommands.clear();
      this.lastCommandAck = undefined;
      this.options.log?.("info", "Reconnected to the daemon", { after_failures: this.status.consecutiveFailures });
    }
    this.status.state = "connected";
    this.status.consecutiveFailures = 0;
    this.status.serverUrl = this.options.connection.serverUrl();
    this.status.lastSyncAt = new Date(this.options.clock.now()).toISOString();
    this.status.syncCount += 1;
    if (typeof response.server_version === "string") this.status.serverVersion = response.server_version;
    delete this.status.nextRetryAt;
    this.notifyStatus();
  }

  private recordFailure(reason: string): void {
    const now = this.options.clock.now();
    this.status.state = "disconnected";
    this.status.consecutiveFailures += 1;
    this.status.serverUrl = this.options.connection.serverUrl();
    this.status.lastError = reason;
    this.status.lastErrorAt = new Date(now).toISOString();
    this.status.nextRetryAt = new Date(now + backoffDelay(this.status.consecutiveFailures)).toISOString();
    this.notifyStatus();
  }

  private notifyStatus(): void {
    this.options.onStatusChange?.(this.connectionStatus());
  }

  private pause(delayMs: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        this.wakeFromPause = undefined;
        resolve();
      };
      const handle = this.options.clock.setTimeout(finish, delayMs);
      this.wakeFromPause = () => {
        this.options.clock.clearTimeout(handle);
        finish();
      };
    });
  }
}

/** Whether the request failed because of this abort, not because it had already failed when the abort came. */
function causedByAbort(error: unknown, signal: AbortSignal, reason: string): boolean {
  if (!signal.aborted || signal.reason !== reason) return false;
  return error === reason || (error instanceof Error && error.name === "AbortError");
}

function pollInterval(value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return DEFAULT_POLL_MS;
  return Math.min(value, MAX_POLL_MS);
}
