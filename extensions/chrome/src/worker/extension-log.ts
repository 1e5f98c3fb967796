import type { Clock } from "./clock.js";
import type { ExtensionLogEntry, ExtensionLogLevel } from "./sync-protocol.js";

/**
 * The extension's own diagnostics, delivered to the daemon inside the next `/sync` as
 * `extension_logs` (observe extension_logs). Bounded: when the daemon is away for long, the
 * oldest entries go first and the loss itself is logged.
 */
export class ExtensionLog {
  private entries: ExtensionLogEntry[] = [];
  private lost = 0;

  constructor(
    private readonly clock: Clock,
    private readonly capacity = 200,
  ) {}

  add(level: ExtensionLogLevel, category: string, message: string, data?: unknown): void {
    const entry: ExtensionLogEntry = {
      timestamp: new Date(this.clock.now()).toISOString(),
      level,
      message,
      source: "background",
      category,
    };
    if (data !== undefined) entry.data = data;
    this.entries.push(entry);
    this.trim();
  }

  take(): ExtensionLogEntry[] {
    if (this.lost > 0) {
      const lost = this.lost;
      this.lost = 0;
      this.add("warn", "extension_log", `${lost} extension log entries were dropped while the daemon was unreachable`);
    }
    const taken = this.entries;
    this.entries = [];
    return taken;
  }

  /** A sync that carried these failed: put them back in front of anything logged meanwhile. */
  restore(entries: ExtensionLogEntry[]): void {
    if (entries.length === 0) return;
    this.entries = entries.concat(this.entries);
    this.trim();
  }

  get size(): number {
    return this.entries.length;
  }

  private trim(): void {
    const excess = this.entries.length - this.capacity;
    if (excess > 0) {
      this.entries.splice(0, excess);
      this.lost += excess;
    }
  }
}
