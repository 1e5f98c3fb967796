import type { StreamCounters } from "../shared/devconsole-status.js";
import type { Clock, TimerHandle } from "./clock.js";
import { DaemonHttpError, describeError, postJson, type DaemonConnection } from "./daemon-requests.js";
import type { ExtensionLog } from "./extension-log.js";
import { TelemetryBatcher } from "./telemetry-batcher.js";

export type TelemetryStreamName = "logs" | "websocket" | "bodies" | "actions" | "vitals";

/** Route and envelope key of each stream, as the original's daemon expects them. */
const STREAM_ROUTES: Record<TelemetryStreamName, { path: string; envelope: string }> = {
  logs: { path: "/logs", envelope: "entries" },
  websocket: { path: "/websocket-events", envelope: "events" },
  bodies: { path: "/network-bodies", envelope: "bodies" },
  actions: { path: "/enhanced-actions", envelope: "actions" },
  vitals: { path: "/performance-snapshots", envelope: "snapshots" },
};

export const TELEMETRY_STREAM_NAMES = Object.keys(STREAM_ROUTES) as TelemetryStreamName[];

export function isTelemetryStreamName(value: unknown): value is TelemetryStreamName {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(STREAM_ROUTES, value);
}

const DROP_REPORT_INTERVAL_MS = 5000;
const SEND_TIMEOUT_MS = 10_000;

/** One batcher per stream, plus drop accounting that reaches the daemon as extension_logs. */
export class TelemetryStreams {
  private readonly batchers = new Map<TelemetryStreamName, TelemetryBatcher<Record<string, unknown>>>();
  private readonly unreportedDrops = new Map<string, number>();
  private dropReportTimer: TimerHandle | undefined;
  private pageDropTotal = 0;

  constructor(
    connection: DaemonConnection,
    private readonly clock: Clock,
    private readonly extensionLog: ExtensionLog,
  ) {
    for (const name of TELEMETRY_STREAM_NAMES) {
      const route = STREAM_ROUTES[name];
      this.batchers.set(
        name,
        new TelemetryBatcher<Record<string, unknown>>({
          clock,
          send: async (entries) => {
            const controller = new AbortController();
            const timer = clock.setTimeout(() => controller.abort(), SEND_TIMEOUT_MS);
            try {
              await postJson(connection, route.path, { [route.envelope]: entries }, controller.signal);
            } finally {
              clock.clearTimeout(timer);
            }
          },
          isPermanentFailure: (error) => error instanceof DaemonHttpError && error.permanent,
          onDrop: (count, reason) => this.noteDrop(`${name}:${reason}`, count),
          onSendFailure: (error, failures) => {
            if (failures === 1) {
              extensionLog.add("warn", "telemetry", `POST ${route.path} failed; retrying with backoff`, {
                error: describeError(error),
              });
            }
          },
        }),
      );
    }
  }

  add(stream: TelemetryStreamName, entry: Record<string, unknown>): void {
    this.batchers.get(stream)?.add(entry);
  }

  /** Entries lost before they reached the worker (the content script's own bounded buffer). */
  noteDrop(key: string, count: number): void {
    if (count <= 0) return;
    this.unreportedDrops.set(key, (this.unreportedDrops.get(key) ?? 0) + count);
    if (this.dropReportTimer === undefined) {
      this.dropReportTimer = this.clock.setTimeout(() => this.reportDrops(), DROP_REPORT_INTERVAL_MS);
    }
  }

  counters(): Record<string, StreamCounters> {
    const result: Record<string, StreamCounters> = {};
    for (const [name, batcher] of this.batchers) result[name] = batcher.counters();
    const pageDrops = this.pageDropTotal;
    if (pageDrops > 0) result.page = { sent: 0, dropped: pageDrops, queued: 0, inFlight: 0 };
    return result;
  }

  notePageDrop(count: number): void {
    if (count <= 0) return;
    this.pageDropTotal += count;
    this.noteDrop("page:buffer_full", count);
  }

  private reportDrops(): void {
    this.dropReportTimer = undefined;
    if (this.unreportedDrops.size === 0) return;
    const drops = Object.fromEntries(this.unreportedDrops);
    this.unreportedDrops.clear();
    this.extensionLog.add("warn", "telemetry", "Telemetry entries were dropped", { drops });
  }
}
