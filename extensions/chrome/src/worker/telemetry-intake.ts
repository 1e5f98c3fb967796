import type { CaptureHelloAnswer } from "../shared/runtime-messages.js";
import { isTelemetryStreamName, type TelemetryStreamName } from "./telemetry-streams.js";

export interface TelemetrySink {
  add(stream: TelemetryStreamName, entry: Record<string, unknown>): void;
  notePageDrop(count: number): void;
}

export interface TelemetrySender {
  tabId: number | undefined;
  frameId: number | undefined;
}

/** The content bridge batches; a message larger than this is not from our bridge. */
const MAX_ENTRIES_PER_MESSAGE = 1000;

/** Each daemon route names the tab its own way (the original's wire format). */
const TAB_FIELD: Record<TelemetryStreamName, string | undefined> = {
  logs: "tabId",
  websocket: "tabId",
  bodies: "tab_id",
  actions: undefined,
  vitals: "tabId",
};

/**
 * Content-script messages. The worker, not the content script, decides what is captured: entries
 * count only when they come from the top frame of the tracked tab, whatever the page claims.
 */
export class TelemetryIntake {
  constructor(
    private readonly trackedTabId: () => number | undefined,
    private readonly sink: TelemetrySink,
  ) {}

  isTrackedSender(sender: TelemetrySender): boolean {
    const tracked = this.trackedTabId();
    return tracked !== undefined && sender.tabId === tracked && sender.frameId === 0;
  }

  hello(sender: TelemetrySender): CaptureHelloAnswer {
    return { tracked: this.isTrackedSender(sender) };
  }

  receive(message: { entries?: unknown; dropped?: unknown }, sender: TelemetrySender): number {
    if (!this.isTrackedSender(sender) || !Array.isArray(message.entries)) return 0;
    if (typeof message.dropped === "number" && message.dropped > 0) this.sink.notePageDrop(message.dropped);
    let accepted = 0;
    for (const item of message.entries.slice(0, MAX_ENTRIES_PER_MESSAGE) as Array<{ stream?: unknown; entry?: unknown }>) {
      if (!item || !isTelemetryStreamName(item.stream) || !item.entry || typeof item.entry !== "object" || Array.isArray(item.entry)) continue;
      const entry = { ...(item.entry as Record<string, unknown>) };
      const tabField = TAB_FIELD[item.stream];
      if (tabField) entry[tabField] = sender.tabId;
      this.sink.add(item.stream, entry);
      accepted += 1;
    }
    return accepted;
  }
}
