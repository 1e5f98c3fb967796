import type { StreamCounters } from "../shared/devconsole-status.js";
import { backoffDelay, type BackoffPolicy } from "./backoff.js";
import type { Clock, TimerHandle } from "./clock.js";

export interface TelemetryBatcherOptions<Entry> {
  clock: Clock;
  /** Delivers one batch; rejects when it did not arrive. */
  send(entries: Entry[]): Promise<void>;
  /** Whether a delivery error means "this batch will never be accepted" (drop) rather than "try again". */
  isPermanentFailure?(error: unknown): boolean;
  onDrop?(count: number, reason: "queue_full" | "rejected"): void;
  onSendFailure?(error: unknown, failures: number): void;
  /** Longest wait between an entry's arrival and its batch leaving, when the batch is not full. */
  debounceMs?: number;
  maxBatch?: number;
  maxQueue?: number;
  maxInFlight?: number;
  retry?: BackoffPolicy;
}

/**
 * Collects one telemetry stream into POSTs: a batch leaves when it is full or when its oldest
 * entry has waited `debounceMs`; at most `maxInFlight` batches are on the wire; a failed batch
 * goes back to the front of the queue and the stream pauses with exponential backoff; the queue
 * is bounded, dropping its oldest entries first because the newest describe the page as it is now.
 */
export class TelemetryBatcher<Entry> {
  private queue: Entry[] = [];
  private inFlight = 0;
  private failures = 0;
  private sent = 0;
  private dropped = 0;
  private debounceTimer: TimerHandle | undefined;
  private retryTimer: TimerHandle | undefined;
  private readonly debounceMs: number;
  private readonly maxBatch: number;
  private readonly maxQueue: number;
  private readonly maxInFlight: number;
  private readonly retry: BackoffPolicy;

  constructor(private readonly options: TelemetryBatcherOptions<Entry>) {
    this.debounceMs = options.debounceMs ?? 100;
    this.maxBatch = options.maxBatch ?? 50;
    this.maxQueue = options.maxQueue ?? 2000;
    this.maxInFlight = options.maxInFlight ?? 2;
    this.retry = options.retry ?? { initialMs: 500, maxMs: 5000 };
  }

  add(entry: Entry): void {
    this.queue.push(entry);
    this.enforceBound();
    this.schedule();
  }

  addAll(entries: Entry[]): void {
    if (entries.length === 0) return;
    for (const entry of entries) this.queue.push(entry);
    this.enforceBound();
    this.schedule();
  }

  counters(): StreamCounters {
    return { sent: this.sent, dropped: this.dropped, queued: this.queue.length, inFlight: this.inFlight };
  }

  private schedule(): void {
    if (this.queue.length >= this.maxBatch) {
      this.pump();
      return;
    }
    if (this.debounceTimer === undefined && this.retryTimer === undefined) {
      this.debounceTimer = this.options.clock.setTimeout(() => {
        this.debounceTimer = undefined;
        this.pump();
      }, this.debounceMs);
    }
  }

  private pump(): void {
    if (this.debounceTimer !== undefined) {
      this.options.clock.clearTimeout(this.debounceTimer);
      this.debounceTimer = undefined;
    }
    while (this.retryTimer === undefined && this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight += 1;
      void this.deliver(batch);
    }
  }

  private async deliver(batch: Entry[]): Promise<void> {
    try {
      await this.options.send(batch);
    } catch (error) {
      this.inFlight -= 1;
      this.handleFailure(batch, error);
      return;
    }
    this.inFlight -= 1;
    this.failures = 0;
    this.sent += batch.length;
    // Whatever queued meanwhile has already waited at least as long as a debounce.
    this.pump();
  }

  private handleFailure(batch: Entry[], error: unknown): void {
    if (this.options.isPermanentFailure?.(error)) {
      this.dropped += batch.length;
      this.options.onDrop?.(batch.length, "rejected");
      this.pump();
      return;
    }
    this.failures += 1;
    this.options.onSendFailure?.(error, this.failures);
    this.queue = batch.concat(this.queue);
    this.enforceBound();
    if (this.retryTimer === undefined) {
      if (this.debounceTimer !== undefined) {
        this.options.clock.clearTimeout(this.debounceTimer);
        this.debounceTimer = undefined;
      }
      this.retryTimer = this.options.clock.setTimeout(() => {
        this.retryTimer = undefined;
        this.pump();
      }, backoffDelay(this.failures, this.retry));
    }
  }

  private enforceBound(): void {
    const excess = this.queue.length - this.maxQueue;
    if (excess <= 0) return;
    this.queue.splice(0, excess);
    this.dropped += excess;
    this.options.onDrop?.(excess, "queue_full");
  }
}
